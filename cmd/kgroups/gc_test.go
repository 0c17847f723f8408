package main

import (
	"runtime/debug"
	"testing"
)

// TestOneShotGC: a one-shot read collects at oneShotGCPercent and puts the
// setting back after; GOGC in the environment is left to the runtime.
func TestOneShotGC(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)

	a := &app{getenv: func(string) string { return "" }}
	restore := a.oneShot()
	if got := debug.SetGCPercent(oneShotGCPercent); got != oneShotGCPercent {
		t.Fatalf("GOGC during the command %d, want %d", got, oneShotGCPercent)
	}
	restore()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("GOGC after the command %d, want 100 back", got)
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
	restore()
}
