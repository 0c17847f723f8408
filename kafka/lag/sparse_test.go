package lag

import (
	"fmt"
	"math"
	"testing"

	"github.com/kgroups/kgroups/kafka"
)

// TestSparseRecordsFallBehind: a trickle (a record a minute, or every
// three), read at a share of that pace. At 0.8 the consumer adds a record
// to its lag every five minutes (or fifteen) while its time lag climbs
// steadily: falling behind, WARN on every poll once the climb shows,
// though the lag in records climbs by fewer than the two records a
// denser partition's noise asks for. At 1.3 it keeps up; after one pause
// of three minutes it keeps pace a step behind: neither is ever WARN.
// The old floor read OK on most polls of the slow cases.
func TestSparseRecordsFallBehind(t *testing.T) {
	for _, tc := range []struct {
		speed        float64
		pause        [2]float64 // a span of seconds without reading
		every        float64    // seconds between records
		poll, commit float64    // seconds; commit 0: at every record read
		warn         bool       // WARN on every poll from 30 minutes on
	}{
		{speed: 0.8, every: 60, poll: 5, commit: 30, warn: true},
		{speed: 0.8, every: 60, poll: 1, commit: 0, warn: true},
		{speed: 0.8, every: 60, poll: 30, commit: 5, warn: true},
		{speed: 0.8, every: 180, poll: 10, commit: 30, warn: true},
		{speed: 0.8, every: 180, poll: 1, commit: 0, warn: true},
		{speed: 1.3, every: 60, poll: 5, commit: 30},
		{speed: 1.3, every: 180, poll: 1, commit: 0},
		{speed: 1.0, every: 60, poll: 5, commit: 30, pause: [2]float64{600, 780}},
		{speed: 1.0, every: 180, poll: 10, commit: 0, pause: [2]float64{600, 960}},
	} {
		name := fmt.Sprintf("%.1fx of a record every %.0fs, polls %.0fs, commits %.0fs, pause %v", tc.speed, tc.every, tc.poll, tc.commit, tc.pause)
		t.Run(name, func(t *testing.T) {
			h := NewHistory(DefaultConfig())
			read, c := 0.0, int64(0) // records read, the committed offset
			var warned, ok []float64
			polls := 0
			for sec := 0.0; sec <= 2700; sec += tc.poll {
				end := int64(sec/tc.every) + 1 // record k is written at k x every
				if sec > 0 && (sec < tc.pause[0] || sec >= tc.pause[1]) {
					read = math.Min(read+tc.poll*tc.speed/tc.every, float64(end))
				}
				if tc.commit == 0 || math.Mod(sec, tc.commit) == 0 {
					c = int64(read)
				}
				h.Add(snap(at(sec), grp("g", po("t", 0, c, end))))
				if c < end {
					key := kafka.CommitKey{Topic: "t", Partition: 0, Offset: c}
					h.AddExact(map[kafka.CommitKey]kafka.RecordTime{key: {Offset: c, Timestamp: at(float64(c) * tc.every)}})
				}
				g, found := h.Evaluate("g", at(sec))
				if !found {
					t.Fatalf("%.0fs: group not judged", sec)
				}
				v := Judge(g, h.Config().Window)
				d, decided := v.Decided()
				switch {
				case decided && d == SeverityWarn:
					warned = append(warned, sec)
				case decided && d == SeverityOK && sec >= 1800:
					ok = append(ok, sec)
				}
				if sec >= 1800 {
					polls++
				}
			}
			late := 0
			for _, s := range warned {
				if s >= 1800 {
					late++
				}
			}
			if tc.warn && late != polls {
				t.Errorf("WARN on %d of the %d polls from 30m (OK at %v), want all", late, polls, ok[:min(len(ok), 5)])
			}
			if !tc.warn && len(warned) > 0 {
				t.Errorf("WARN at %v, want never", warned[:min(len(warned), 5)])
			}
		})
	}
}
