package main

import (
	"strings"
	"testing"
	"time"
)

func TestParseAt(t *testing.T) {
	start := time.Date(2026, 12, 2, 23, 50, 0, 0, time.Local)
	end := start.Add(30 * time.Minute)
	for in, want := range map[string]time.Time{
		"+10m":                 start.Add(10 * time.Minute),
		"-5m":                  end.Add(-5 * time.Minute),
		"+0s":                  start,
		"2026-12-03T00:05:00Z": time.Date(2026, 12, 3, 0, 5, 0, 0, time.UTC),
		"23:55":                start.Add(5 * time.Minute),
		"00:10":                time.Date(2026, 12, 3, 0, 10, 0, 0, time.Local), // the next day, within the recording
		"00:10:30":             time.Date(2026, 12, 3, 0, 10, 30, 0, time.Local),
	} {
		got, err := parseAt(in, start, end)
		if err != nil || !got.Equal(want) {
			t.Errorf("--at %s: %v, %v; want %v", in, got, err, want)
		}
	}
	for in, msg := range map[string]string{
		"soon":  `invalid --at "soon": give a time such as 2026-12-02T03:10:00Z, a time of day such as 03:10 or 03:10:30, +10m after the start or -5m before the end`,
		"+-5m":  `invalid --at "+-5m"`,
		"12:00": "--at 12:00: the recording spans ",
	} {
		if _, err := parseAt(in, start, end); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("--at %s: %v, want %q", in, err, msg)
		}
	}
}
