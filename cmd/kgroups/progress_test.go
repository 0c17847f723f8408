package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestWindowProgress: on a terminal, a sampled window first says how long
// it takes; with --quiet or off a terminal, nothing is written.
func TestWindowProgress(t *testing.T) {
	var b bytes.Buffer
	if w := windowProgress(&b, true, false, "2 groups", time.Minute, 5*time.Second, 13); w != &b {
		t.Fatalf("progress on a terminal goes to %v", w)
	}
	if want := "kgroups: sampling 2 groups for 1m (13 polls, one every 5s); Ctrl+C stops\n"; b.String() != want {
		t.Errorf("start line %q, want %q", b.String(), want)
	}
	for _, tc := range []struct{ tty, quiet bool }{{false, false}, {true, true}, {false, true}} {
		b.Reset()
		if w := windowProgress(&b, tc.tty, tc.quiet, "all groups", time.Minute, 5*time.Second, 13); w != nil || b.Len() != 0 {
			t.Errorf("tty %v quiet %v: progress to %v, wrote %q", tc.tty, tc.quiet, w, b.String())
		}
	}
	for d, want := range map[time.Duration]string{time.Minute: "1m", 90 * time.Second: "1m30s", 2 * time.Hour: "2h", 500 * time.Millisecond: "500ms", 30 * time.Second: "30s"} {
		if got := shortDuration(d); got != want {
			t.Errorf("shortDuration(%s) = %q, want %q", d, got, want)
		}
	}
	// The line a refresh writes, and the one that clears it at the end.
	if got := healthProgress("all groups", 42*time.Second, 3, 13); got != "\r\x1b[Ksampling all groups: 42s left, 3/13 polls" {
		t.Errorf("progress line %q", got)
	}
}

// TestQuietFlag: health and diagnose take --quiet (and -q).
func TestQuietFlag(t *testing.T) {
	for _, c := range allCommands().Commands() {
		switch c.Name() {
		case "health", "diagnose":
			f := c.Flags().Lookup("quiet")
			if f == nil || f.Shorthand != "q" || !strings.Contains(f.Usage, "progress") {
				t.Errorf("%s --quiet: %+v", c.Name(), f)
			}
		}
	}
}
