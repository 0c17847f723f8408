package lag

import (
	"testing"

	"github.com/kgroups/kgroups/kafka"
)

// TestBurstPausesAreNoise: producers write 20 records a second for 10 s
// of every 40 s and nothing between, and a consumer reading 7.5 a second
// (1.5 times their mean) commits every 30 s, its records read as the UI
// reads them. It keeps up, but the record it commits was written before
// a pause of up to 30 s or within a burst, so the time lag at its
// commits swings by about that much as the 30 s commits beat against the
// 40 s bursts. The pause is noise to the trend, and it never reads WARN.
// With the noise of the poll interval alone, it read WARN for a poll
// or more every few minutes.
func TestBurstPausesAreNoise(t *testing.T) {
	if warn, _ := runBursty(7.5); warn != 0 {
		t.Errorf("a consumer at 1.5x of bursty producers read WARN on %d of 720 polls, want none", warn)
	}
	// At 0.6 of their mean, its time lag climbs 0.4 s a second: WARN
	// within ten minutes, and from then on.
	warn, first := runBursty(3)
	if first < 0 || first > 600 || warn != 720-first/5+1 {
		t.Errorf("a consumer at 0.6x of bursty producers: first WARN at %d s, WARN on %d polls; want by 600 s and from then on", first, warn)
	}
}

// runBursty runs the producers of TestBurstPausesAreNoise for an hour
// under a consumer reading speed records a second, and returns how many
// polls read WARN and the first that did (-1: none).
func runBursty(speed float64) (warn, first int) {
	h := NewHistory(DefaultConfig())
	const base = 100000
	var writtenAt []float64 // writtenAt[k]: when record base+k was written
	end, pos, c := 0.0, 0.0, int64(base)
	acc := 0.0
	first = -1
	for sec := 1; sec <= 3600; sec++ {
		if sec%40 < 10 {
			acc += 20
		}
		for ; acc >= 1; acc-- {
			writtenAt = append(writtenAt, float64(sec))
			end++
		}
		pos = min(end, pos+speed)
		if sec%30 == 0 {
			c = base + int64(pos)
		}
		if sec%5 != 0 {
			continue
		}
		p := po("t", 0, c, base+int64(end))
		p.MemberID = "m"
		h.Add(snap(at(float64(sec)), grp("g", p)))
		recs := map[kafka.CommitKey]kafka.RecordTime{}
		for _, w := range h.WantExact(DefaultExactBudget, nil) {
			if k := w.Committed - base; k >= 0 && k < int64(len(writtenAt)) {
				recs[kafka.CommitKey{Topic: w.Topic, Partition: w.Partition, Offset: w.Committed}] = kafka.RecordTime{Offset: w.Committed, Timestamp: at(writtenAt[k])}
			}
		}
		h.AddExact(recs)
		g, _ := h.Evaluate("g", at(float64(sec)))
		if g.Partitions[0].Status == StatusWarn {
			warn++
			if first < 0 {
				first = sec
			}
		}
	}
	return warn, first
}
