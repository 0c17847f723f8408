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

// oneShot sets oneShotGCPercent for one command and returns what puts the
// setting back. GOGC in the environment wins: nothing is changed.
func (a *app) oneShot() (restore func()) {
	if a.getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(oneShotGCPercent)
	return func() { debug.SetGCPercent(old) }
}
