package watch

import (
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
)

// turnsWorld is one member serving two partitions in turn, each written
// at one record a second: it reads the partition whose turn it is at two
// records a second until it has caught up there, commits where it read
// at every poll, then turns to the other. At just the rate of its
// producers it keeps up by turns: the other partition's records arrive
// while it catches up on one, for as long as the next turn then takes,
// 30 s each here.
type turnsWorld struct {
	end, pos, committed [2]float64
	cur                 int
}

func (w *turnsWorld) step() {
	for p := range 2 {
		w.end[p]++
	}
	w.pos[w.cur] = min(w.end[w.cur], w.pos[w.cur]+2)
	if w.pos[w.cur] >= w.end[w.cur] {
		w.cur = 1 - w.cur
	}
}

// judgeTurns runs `kgroups health --window window --interval 5s` back to
// back for an hour on the two groups, with the records at their commits
// read as health reads them, and returns each window's group verdicts.
func judgeTurns(t *testing.T, window time.Duration) (turns, stuck []lag.Status) {
	t.Helper()
	const every, base = 5, 100_000
	cfg, polls := Config(window, every*time.Second)
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	w := turnsWorld{end: [2]float64{base, base}, pos: [2]float64{base - 30, base}, committed: [2]float64{base - 30, base}}
	// the stuck group: partition 0 read as it is written, 1 never.
	stuckEnd, stuckC := float64(base), float64(base)
	written := func(off int64) time.Time { return start.Add(time.Duration(off-base) * time.Second) }
	var h *lag.History
	taken := 0
	for sec := 1; sec <= 3600; sec++ {
		cur := w.cur
		w.step()
		stuckEnd++
		if sec%every != 0 {
			continue
		}
		// It commits where it read; a turn that ended since the last
		// poll committed the partition it left.
		w.committed[cur] = w.pos[cur]
		w.committed[w.cur] = w.pos[w.cur]
		if h == nil {
			h, taken = lag.NewHistory(cfg), 0
		}
		now := start.Add(time.Duration(sec) * time.Second)
		part := func(p int32, c, end float64) kafka.PartitionOffsets {
			po := kafka.PartitionOffsets{Topic: "t", Partition: p, Committed: int64(c), LogEnd: int64(end), MemberID: "m"}
			po.Lag = po.LogEnd - po.Committed
			return po
		}
		h.Add(&kafka.Snapshot{Time: now, Groups: []kafka.Group{
			{Name: "stuck", State: kafka.StateStable, Partitions: []kafka.PartitionOffsets{part(0, stuckEnd, stuckEnd), part(1, stuckC, stuckEnd)}},
			{Name: "turns", State: kafka.StateStable, Partitions: []kafka.PartitionOffsets{part(0, w.committed[0], w.end[0]), part(1, w.committed[1], w.end[1])}},
		}})
		recs := map[kafka.CommitKey]kafka.RecordTime{}
		for _, x := range h.WantExact(lag.DefaultExactBudget, nil) {
			recs[kafka.CommitKey{Topic: x.Topic, Partition: x.Partition, Offset: x.Committed}] = kafka.RecordTime{Offset: x.Committed, Timestamp: written(x.Committed)}
		}
		h.AddExact(recs)
		if taken++; taken < polls {
			continue
		}
		for name, out := range map[string]*[]lag.Status{"turns": &turns, "stuck": &stuck} {
			g, ok := h.Evaluate(name, now)
			if !ok {
				t.Fatalf("no verdict for %s at %d s", name, sec)
			}
			worst := lag.StatusOK
			for _, p := range g.Partitions {
				worst = max(worst, p.Status)
			}
			*out = append(*out, worst)
		}
		h = nil
	}
	return turns, stuck
}

// TestAPartitionWaitingItsTurnIsNoStall: a member serving its partitions
// in turn works off one's backlog while the other waits; a short
// `health` window late in a turn sees the waiting partition's commit
// stand past its window and the member's partition nearly caught up.
// The records the member read there within the window were as old as
// the waiting partition's silence: it is busy, and the other waits its
// turn. No window reads STALL (judged on how old the records it read
// at the latest poll were, 60 of the 180 did). A partition nobody reads, beside one its
// member keeps up with, reads STALL in every window once its silence
// passes the window.
func TestAPartitionWaitingItsTurnIsNoStall(t *testing.T) {
	turns, stuck := judgeTurns(t, 15*time.Second)
	stalls := 0
	for _, s := range turns {
		if s == lag.StatusStall {
			stalls++
		}
	}
	if stalls != 0 {
		t.Errorf("%d of %d 15s windows read STALL on a member serving its partitions in turn: %v", stalls, len(turns), turns)
	}
	for i, s := range stuck[1:] {
		if s != lag.StatusStall {
			t.Errorf("window %d: %v on a partition nobody reads, want STALL: %v", i+2, s, stuck)
			break
		}
	}
}
