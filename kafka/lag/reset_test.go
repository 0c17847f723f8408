package lag

import (
	"testing"

	"github.com/kgroups/kgroups/kafka"
)

// TestResetExplainsRewind: a REWIND is put down to a reset kgroups made
// when the reset took the partition from at least the rewind's high to at
// most its low; other rewinds, and other partitions, keep no explanation.
func TestResetExplainsRewind(t *testing.T) {
	steps := []step{{0, 50, 200, true}, {1, 100, 200, true}, {2, 20, 200, true}}
	mine := Reset{Time: at(1.5), Receipt: "/r/1", Offsets: []ResetOffset{{"t", 0, 100, 10}}}
	for _, tc := range []struct {
		name   string
		resets []Reset
		want   string
	}{
		{"no reset", nil, ""},
		{"the reset", []Reset{mine}, "/r/1"},
		// The consumer committed 20 after the reset set 10: still it.
		{"the newest that fits", []Reset{mine, {Receipt: "/r/2", Offsets: []ResetOffset{{"t", 0, 100, 0}}}}, "/r/2"},
		{"another partition", []Reset{{Receipt: "/r/3", Offsets: []ResetOffset{{"t", 1, 100, 10}}}}, ""},
		{"a reset that went forward", []Reset{{Receipt: "/r/4", Offsets: []ResetOffset{{"t", 0, 10, 100}}}}, ""},
		{"a reset from below the high", []Reset{{Receipt: "/r/5", Offsets: []ResetOffset{{"t", 0, 90, 10}}}}, ""},
		{"a reset to above the low", []Reset{{Receipt: "/r/6", Offsets: []ResetOffset{{"t", 0, 100, 30}}}}, ""},
		{"a removed commit", []Reset{{Receipt: "/r/7", Offsets: []ResetOffset{{"t", 0, 100, kafka.NoOffset}}}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := run(testConfig(), steps)
			for _, r := range tc.resets {
				h.NoteReset("g", r)
			}
			g, _ := h.Evaluate("g", at(2))
			p := g.Partitions[0]
			if p.Status != StatusRewind || p.Rewind.High != 100 || p.Rewind.Low != 20 {
				t.Fatalf("status %v %+v, want REWIND 100 -> 20", p.Status, p.Rewind)
			}
			got := ""
			if p.ResetBy != nil {
				got = p.ResetBy.Receipt
			}
			if got != tc.want {
				t.Fatalf("explained by %q, want %q", got, tc.want)
			}
		})
	}
}

// TestResetsAreBounded: a History keeps the newest MaxResets resets of a
// group and forgets them with the group.
func TestResetsAreBounded(t *testing.T) {
	h := NewHistory(testConfig())
	h.Add(snap(at(0), grp("g", po("t", 0, 1, 2))))
	for i := range MaxResets + 3 {
		h.NoteReset("g", Reset{Receipt: string(rune('a' + i))})
	}
	if rs := h.resets["g"]; len(rs) != MaxResets || rs[0].Receipt != "d" || rs[MaxResets-1].Receipt != "k" {
		t.Fatalf("kept %d resets from %q, want %d from d to k", len(rs), rs[0].Receipt, MaxResets)
	}
	for i := 1; i <= testConfig().EvictAfter; i++ {
		h.Add(snap(at(float64(i)), grp("other", po("t", 0, 1, 2))))
	}
	if _, ok := h.resets["g"]; ok || h.Groups() != 1 {
		t.Fatalf("the resets of an evicted group are kept (%d groups)", h.Groups())
	}
}
