package watch

import (
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
)

// judgeBacklog runs `kgroups health --window window --interval 10s` on a
// consumer eight minutes behind a topic written at 10 records a second,
// reading at speed times that rate (its time lag changes by 1-speed
// seconds a second) and committing at every poll, with the records at its
// commits read as health reads them. It returns the partition's verdict
// at the window's end.
func judgeBacklog(t *testing.T, window time.Duration, speed float64) lag.PartitionHealth {
	t.Helper()
	const every, rate, base = 10, 10, 1_000_000
	cfg, polls := Config(window, every*time.Second)
	h := lag.NewHistory(cfg)
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	written := func(off int64) time.Time {
		return start.Add(time.Duration(float64(off-base) / rate * float64(time.Second)))
	}
	var now time.Time
	for k := range polls {
		sec := float64(k * every)
		now = start.Add(time.Duration(sec) * time.Second)
		behind := 480 + (1-speed)*sec
		end := base + int64(rate*sec)
		p := kafka.PartitionOffsets{Topic: "t", Partition: 0, Committed: base + int64(rate*(sec-behind)), LogEnd: end, MemberID: "m"}
		p.Lag = p.LogEnd - p.Committed
		h.Add(&kafka.Snapshot{Time: now, Groups: []kafka.Group{{Name: "g", State: kafka.StateStable, Partitions: []kafka.PartitionOffsets{p}}}})
		recs := map[kafka.CommitKey]kafka.RecordTime{}
		for _, w := range h.WantExact(lag.DefaultExactBudget, nil) {
			recs[kafka.CommitKey{Topic: w.Topic, Partition: w.Partition, Offset: w.Committed}] = kafka.RecordTime{Offset: w.Committed, Timestamp: written(w.Committed)}
		}
		h.AddExact(recs)
	}
	g, ok := h.Evaluate("g", now)
	if !ok || len(g.Partitions) != 1 {
		t.Fatalf("window %v: no verdict for the group", window)
	}
	return g.Partitions[0]
}

// TestABacklogNeedsASpanThatShowsItsTrend: a consumer eight minutes
// behind at 0.8 of its producers' rate climbs 12 s over a one-minute
// window, about what the time lags at its commits scatter by when polls
// are 10 s apart: nobody can tell from that window whether it falls
// behind or keeps pace. It waits, and says how long a window would tell;
// OK there would be a guess, and WARN as unfounded. A five-minute window
// sees it falling behind, and a consumer at 1.25 of the rate shows in a
// minute that it catches up.
func TestABacklogNeedsASpanThatShowsItsTrend(t *testing.T) {
	p := judgeBacklog(t, time.Minute, 0.8)
	want := "commits every ~10s: a trend needs 2m30s of them"
	if p.Status != lag.StatusOK || p.Wait.Kind != lag.WaitTrend || p.Wait.Reason() != want {
		t.Errorf("0.8x over 1m: %v, wait %d %q; want OK waiting %q", p.Status, p.Wait.Kind, p.Wait.Reason(), want)
	}
	if p.Wait.Need != 150*time.Second {
		t.Errorf("0.8x over 1m: needs %v of evidence, want 2m30s (health suggests that --window)", p.Wait.Need)
	}
	if p := judgeBacklog(t, 5*time.Minute, 0.8); p.Status != lag.StatusWarn {
		t.Errorf("0.8x over 5m: %v, wait %d %q; want WARN", p.Status, p.Wait.Kind, p.Wait.Reason())
	}
	if p := judgeBacklog(t, time.Minute, 1.25); p.Status != lag.StatusOK || p.Wait.Kind != lag.WaitNone {
		t.Errorf("1.25x over 1m: %v, wait %d %q; want OK", p.Status, p.Wait.Kind, p.Wait.Reason())
	}
}
