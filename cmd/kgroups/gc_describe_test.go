package main

import (
	"runtime/debug"
	"testing"
)

// TestDescribeGC: describe -o json collects at jsonDescribeGCPercent,
// tables at oneShotGCPercent; GOGC in the environment wins over both.
func TestDescribeGC(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)

	for _, tc := range []struct {
		format string
		want   int
	}{
		{formatJSON, jsonDescribeGCPercent},
		{formatTable, oneShotGCPercent},
	} {
		a := &app{getenv: func(string) string { return "" }}
		restore := a.oneShotAt(describeGCPercent(tc.format))
		if got := debug.SetGCPercent(tc.want); got != tc.want {
			t.Errorf("-o %s: GOGC during the command %d, want %d", tc.format, got, tc.want)
		}
		restore()
		if got := debug.SetGCPercent(100); got != 100 {
			t.Fatalf("-o %s: GOGC after the command %d, want 100 back", tc.format, got)
		}

		a = &app{getenv: func(k string) string {
			if k == "GOGC" {
				return "50"
			}
			return ""
		}}
		restore = a.oneShotAt(describeGCPercent(tc.format))
		if got := debug.SetGCPercent(100); got != 100 {
			t.Fatalf("-o %s: GOGC with GOGC=50 in the environment changed to %d", tc.format, got)
		}
		restore()
	}
}
