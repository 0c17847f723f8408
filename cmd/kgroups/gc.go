package main

import "runtime/debug"

// oneShotGCPercent is the GOGC of a one-shot read (describe, list): it
// makes one poll, prints it and exits, and nearly all it allocates stays
// live until the output is written, so collecting each time the heap
// doubles spends CPU and frees little. Collecting at four times the live
// heap instead takes the commands to their floor's wall time
// (`go run ./cmd/floorbench`, docs/performance.md#the-cli-against-its-floor) for
// about a tenth more peak memory.
const oneShotGCPercent = 300

// jsonDescribeGCPercent is the GOGC of `describe -o json`, whose target
// is peak memory as well as wall time. Its writer streams the document
// and allocates almost nothing (21 allocations at 2,000 groups), so a
// lower setting costs only the poll's own collections: at 125 the heap
// is collected before the poll's answers pile up on the start-up's
// garbage, and the peak stays 2 to 4 MiB below GOGC=300's for a few
// milliseconds of CPU. The table writer allocates 3.4 MB in 12,000
// allocations, and at 125 would pay for collections of them in wall
// time, its only target; it keeps oneShotGCPercent
// (docs/performance.md#a-lower-gogc-for-describe--o-json).
const jsonDescribeGCPercent = 125

// oneShot sets oneShotGCPercent for one command and returns what puts the
// setting back. GOGC in the environment wins: nothing is changed.
func (a *app) oneShot() (restore func()) {
	return a.oneShotAt(oneShotGCPercent)
}

// oneShotAt is oneShot with the GOGC percent given.
func (a *app) oneShotAt(percent int) (restore func()) {
	if a.getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(percent)
	return func() { debug.SetGCPercent(old) }
}

// describeGCPercent is the GOGC of describe in format: lower for JSON
// (jsonDescribeGCPercent) than for tables.
func describeGCPercent(format string) int {
	if format == formatJSON {
		return jsonDescribeGCPercent
	}
	return oneShotGCPercent
}
