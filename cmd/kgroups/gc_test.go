package main

import (
	"runtime/debug"
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
