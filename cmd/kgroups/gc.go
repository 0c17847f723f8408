package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// oneShotGCPercent is the GOGC of a one-shot read (describe, list): it
// makes one poll, prints it and exits, and nearly all it allocates stays
// live until the output is written, so collecting each time the heap
// doubles spends CPU and frees little. Collecting at four times the live
// heap instead takes the commands to their floor's wall time
// (`go run ./cmd/floorbench`, docs/performance.md#the-cli-against-its-floor) for
// about a tenth more peak memory.
const oneShotGCPercent = 300

// oneShot sets oneShotGCPercent for one command, and one collection in
// the middle of its poll (midPollGC), and returns what puts both back.
// GOGC in the environment wins: nothing is changed.
func (a *app) oneShot() (restore func()) {
	if a.getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(oneShotGCPercent)
	a.midPoll = midPollGC
	return func() {
		debug.SetGCPercent(old)
		a.midPoll = nil
	}
}

// midPollGC is the collection a one-shot read makes in its poll
// (kafka.Client.SetMidPoll), once the first of the poll's two large reads
// is in: the start-up, the metadata, the listing, the coordinator lookups
// and, when they came first, the describes' answers are garbage by then.
// At GOGC=300 alone the one collection starts when the heap reaches
// 11 MB, near the poll's end, and the poll allocates on while it marks:
// the heap peaked at 12 to 15 MB for `describe --all-groups -o json` at
// 2,000 groups. Collected here, it peaks at 9 to 10 (GODEBUG=gctrace=1),
// and the live heap, four times which is the next goal, is then small
// enough that the runtime does not collect again before the poll ends:
// still one collection, and no more CPU time (`go run ./cmd/floorbench`,
// docs/performance.md#a-lower-gogc-for-describe--o-json).
//
// A heap still under a third of its goal is left alone: the poll is small
// (a few groups named), may well end without any collection, and one
// forced there would only cost its time and the pages the collector
// touches (1.2 MiB more peak RSS for `describe` of one group).
func midPollGC() {
	if !heapNearGoal() {
		return
	}
	runtime.GC()
}

// heapNearGoal reports whether the heap, garbage included, has reached a
// third of the goal at which the runtime collects.
func heapNearGoal() bool {
	s := []metrics.Sample{
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/gc/heap/goal:bytes"},
	}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return true
	}
	return s[0].Value.Uint64() >= s[1].Value.Uint64()/3
}
