package lag_test

import (
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/kafka/lag"
)

// TestResetOfAnEmptyGroupIsNotConsumption: a real group with commits and
// no members (Empty, an archived consumer: a member joined it once and
// left, so it is not a simple group), its offsets moved by an admin
// commit (a reset to the log end, as kgroups reset or another tool does)
// and moved back (an undo). Nothing consumed: its consume rate is 0, not
// the 12 records a second the reset skipped, and its catch-up never says
// it is catching up.
func TestResetOfAnEmptyGroupIsNotConsumption(t *testing.T) {
	c := kafkatest.NewCluster(t)
	const topic, group = "t-archived", "archived"
	c.CreateTopic(t, topic, 1)
	prod, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(prod.Close)
	end := int64(0)
	produce := func(n int) {
		t.Helper()
		recs := make([]*kgo.Record, n)
		for i := range recs {
			recs[i] = &kgo.Record{Topic: topic, Partition: 0, Value: []byte("v")}
		}
		for _, r := range prod.ProduceSync(ctx(t), recs...) {
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			end = r.Record.Offset + 1
		}
	}
	produce(100)
	c.JoinAndLeave(t, group, []string{topic})
	c.Commit(t, group, map[string]map[int32]int64{topic: {0: 10}})

	cl := c.Client(t)
	h := lag.NewHistory(lag.DefaultConfig())
	polls := 0
	poll := func(wantCommitted int64) lag.GroupHealth {
		t.Helper()
		snap, err := cl.PollGroups(ctx(t), group)
		if err != nil {
			t.Fatal(err)
		}
		g, ok := snap.Group(group)
		if !ok || g.State != kafka.StateEmpty || len(g.Members) != 0 || g.Simple() || len(g.Partitions) != 1 || g.Partitions[0].Committed != wantCommitted {
			t.Fatalf("poll %d: group %+v, want Empty without members at %d, once joined", polls, g, wantCommitted)
		}
		stamped := *snap
		stamped.Time = base.Add(time.Duration(polls) * pollGap)
		polls++
		h.Add(&stamped)
		gh, _ := h.Evaluate(group, stamped.Time)
		return gh
	}
	for range 3 {
		produce(60) // 12 a second
		poll(10)
	}
	// A reset to the log end, then an undo, then the reset again.
	for _, to := range []int64{end, 10, end} {
		c.Commit(t, group, map[string]map[int32]int64{topic: {0: to}})
		produce(60)
		gh := poll(to)
		if gh.ConsumeRate != 0 {
			t.Errorf("poll %d after a write to %d: consume rate %v, want 0", polls-1, to, gh.ConsumeRate)
		}
		if gh.ProduceRate != 12 {
			t.Errorf("poll %d: produce rate %v, want 12", polls-1, gh.ProduceRate)
		}
		if gh.CatchUp.State == lag.CatchingUp || gh.CatchUp.State == lag.KeepingUp {
			t.Errorf("poll %d: catch-up %+v for a group nobody consumes", polls-1, gh.CatchUp)
		}
	}
}
