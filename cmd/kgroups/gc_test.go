package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

// TestOneShotGC: a one-shot read collects at oneShotGCPercent, and once in
// the middle of its poll, and puts both back after; GOGC in the
// environment is left to the runtime, and then no collection is forced.
func TestOneShotGC(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)

	a := &app{getenv: func(string) string { return "" }}
	if a.midPoll != nil {
		t.Fatal("a new app collects in its polls before any one-shot read")
	}
	restore := a.oneShot()
	if got := debug.SetGCPercent(oneShotGCPercent); got != oneShotGCPercent {
		t.Fatalf("GOGC during the command %d, want %d", got, oneShotGCPercent)
	}
	if a.midPoll == nil {
		t.Fatal("no collection in the poll of a one-shot read")
	}
	restore()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("GOGC after the command %d, want 100 back", got)
	}
	if a.midPoll != nil {
		t.Fatal("the polls after the one-shot read still collect")
	}

	a = &app{getenv: func(k string) string {
		if k == "GOGC" {
			return "50"
		}
		return ""
	}}
	restore = a.oneShot()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("GOGC with GOGC=50 in the environment changed to %d", got)
	}
	if a.midPoll != nil {
		t.Fatal("GOGC=50 in the environment, and a collection forced in the poll")
	}
	restore()
}

// forcedGCs is the number of collections forced so far (runtime.GC).
func forcedGCs() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestMidPollGCNearGoal: the collection in a one-shot read's poll is
// forced only once the heap has reached a third of its goal; just after a
// collection, with only the live heap left, it is not.
func TestMidPollGCNearGoal(t *testing.T) {
	before := debug.SetGCPercent(oneShotGCPercent)
	defer debug.SetGCPercent(before)
	runtime.GC()

	n := forcedGCs()
	midPollGC()
	if got := forcedGCs(); got != n {
		t.Fatalf("%d collections forced with the heap just collected, want none", got-n)
	}

	var hold [][]byte
	for !heapNearGoal() {
		hold = append(hold, make([]byte, 64<<10))
	}
	n = forcedGCs()
	midPollGC()
	if got := forcedGCs(); got != n+1 {
		t.Fatalf("%d collections forced with the heap at a third of its goal (%d chunks held), want 1", got-n, len(hold))
	}
	runtime.KeepAlive(hold)
}
