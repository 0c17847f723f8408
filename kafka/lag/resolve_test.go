package lag

import (
	"math"
	"testing"
	"time"
)

// TestBurstScatterShowsNoCatchUp: a consumer far behind bursty producers
// (a burst of 10 s at four times the mean rate every 40 s), reading at
// 0.6 of their mean rate and committing at each poll, judged as `kgroups
// health --window 1m --interval 10s` judges it: a fresh history a
// window, back to back for an hour. Its time lag climbs 0.4 s a second,
// but the records it commits were written within or between bursts, so
// within one window the time lag at its commits scatters by up to the
// 30 s between bursts, and may fall. A fall within that scatter is no
// sign of catching up: every window reads WARN or JUDGING (too short a
// span to tell), never OK. When any fall of the time lag at the commits
// counted as catching up, 6 of the 52 windows read OK.
func TestBurstScatterShowsNoCatchUp(t *testing.T) {
	const mean, burst, cycle = 3.0, 10.0, 40.0
	const backlog = 1000.0                  // seconds behind at the start
	produced := func(sec float64) float64 { // records written by sec
		n := math.Floor(sec / cycle)
		return (n*burst + min(sec-n*cycle, burst)) * mean * cycle / burst
	}
	writtenAt := func(o float64) time.Time { // when offset o was written
		per := mean * cycle
		n := math.Floor(o / per)
		return at(n*cycle + (o-n*per)/per*burst)
	}
	cfg := DefaultConfig()
	cfg.Window, cfg.Hold, cfg.MinDistance = 7, 3, 5*time.Second
	cfg.Samples, cfg.RatePolls, cfg.EventHold = 7, 7, time.Minute
	processed := 0.0 // the first record
	var ok []float64
	for start := backlog; start < backlog+3600; start += 70 {
		h := NewHistory(cfg)
		var g GroupHealth
		for sec := start; sec <= start+60; sec += 10 {
			processed += 0.6 * mean * 10
			feedExact(h, sec, int64(processed), int64(produced(sec)), writtenAt)
			g, _ = h.Evaluate("g", at(sec))
		}
		if g.Status == StatusOK && g.Wait.Kind == WaitNone {
			ok = append(ok, start)
		}
	}
	if len(ok) > 0 {
		t.Errorf("OK in %d windows of 52 (at %v), want WARN or JUDGING", len(ok), ok)
	}
}
