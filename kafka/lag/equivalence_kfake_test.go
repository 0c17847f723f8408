package lag

import (
	"cmp"
	"context"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// TestHistoryEquivalenceKfake records a history from real polls of a kfake
// cluster (3 brokers): groups that commit steadily, stall, rewind, get a
// burst of 70,000 records and lose records to DeleteRecords, one of them
// with a live kgo member committing through its own client, and exact
// reads of the records at their commits. Every poll is stamped 5s after
// the previous one. After every poll the compact History must answer
// exactly as a wide one (newWideHistory).
func TestHistoryEquivalenceKfake(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a kfake cluster")
	}
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 3)
	c.CreateTopic(t, "events", 2)
	cl := c.Client(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*kafkatest.WaitTimeout)
	defer cancel()

	start := time.Date(2025, 3, 1, 8, 0, 0, 0, time.UTC)
	end := map[string]map[int32]int64{"orders": {}, "events": {}}
	produce := func(topic string, p int32, n int, at time.Time) {
		end[topic][p] = c.Produce(t, topic, p, n, at)
	}
	for p := range int32(3) {
		produce("orders", p, 20, start.Add(-time.Hour))
	}
	for p := range int32(2) {
		produce("events", p, 5, start.Add(-time.Hour))
	}
	live := c.Join(t, "live", []string{"events"})
	c.WaitStable(t, "live", 1, 2)
	liveCommit := func(p int32, off int64) {
		var cerr error
		live.Client.CommitOffsetsSync(ctx, map[string]map[int32]kgo.EpochOffset{"events": {p: {Epoch: -1, Offset: off}}},
			func(_ *kgo.Client, _ *kmsg.OffsetCommitRequest, resp *kmsg.OffsetCommitResponse, err error) {
				if err == nil {
					for _, rt := range resp.Topics {
						for _, rp := range rt.Partitions {
							err = cmp.Or(err, kerr.ErrorForCode(rp.ErrorCode))
						}
					}
				}
				cerr = err
			})
		if cerr != nil {
			t.Fatalf("live commit: %v", cerr)
		}
	}

	tw := newTwin(DefaultConfig())
	tw.tally = &equivTally{}
	var billing, audit int64 = 10, 0
	for i := range 45 {
		now := start.Add(time.Duration(i) * 5 * time.Second)
		produce("orders", 0, 1+i%4, now)
		if i%10 == 0 {
			produce("orders", 1, 300, now)
		}
		if i == 20 {
			produce("events", 1, 70000, now)
		}
		if i%3 == 0 {
			produce("events", 0, 2, now)
		}
		switch {
		case i < 15 && i%2 == 0:
			billing = end["orders"][0] - 3
		case i == 30:
			billing -= 50 // a rewind
		case i > 34:
			billing = end["orders"][0]
		}
		audit = min(audit+10, end["orders"][1])
		c.Commit(t, "billing", map[string]map[int32]int64{"orders": {0: billing, 2: 12}})
		c.Commit(t, "audit", map[string]map[int32]int64{"orders": {1: audit, 2: 15}, "events": {0: 3}})
		if i%2 == 0 {
			liveCommit(0, end["events"][0]-1)
			liveCommit(1, min(end["events"][1], int64(40*i)))
		}
		if i == 25 {
			del := kadm.Offsets{}
			del.AddOffset("orders", 2, 14, -1) // past billing's commit, not audit's
			if _, err := c.Admin().DeleteRecords(ctx, del); err != nil {
				t.Fatal(err)
			}
		}

		snap, err := cl.PollGroups(ctx, "audit", "billing", "live")
		if err != nil {
			t.Fatalf("poll %d: %v", i, err)
		}
		stamped := *snap
		stamped.Time = now
		if !tw.add(t, &stamped) {
			t.Fatalf("poll %d ignored", i)
		}
		if i%3 == 1 {
			want := tw.wide.WantExact(8, nil)
			if len(want) > 0 {
				recs, err := cl.CommittedTimestamps(ctx, want)
				if err != nil {
					t.Fatalf("exact reads: %v", err)
				}
				if n, wn := tw.h.AddExact(recs), tw.wide.AddExact(recs); n != wn {
					t.Fatalf("AddExact stored %d, wide %d", n, wn)
				}
			}
		}
		tw.compare(t, now, now.Add(30*time.Second), now.Add(5*time.Minute))
	}
	tl := tw.tally
	t.Logf("statuses %v, time-lag kinds %v, widths by class %v", tl.status, tl.kind, tl.width)
	if tl.status[StatusRewind] == 0 || tl.status[StatusStop] == 0 {
		t.Errorf("the recorded history never showed a REWIND and a STOP: %v", tl.status)
	}
	for _, k := range []TimeLagKind{TimeLagCaughtUp, TimeLagInterpolated, TimeLagAtLeast, TimeLagExact} {
		if tl.kind[k] == 0 {
			t.Errorf("no time lag was %v: %v", k, tl.kind)
		}
	}
	if tl.width[clsLogEnd][4] == 0 || tl.width[clsLogEnd][2] == 0 {
		t.Errorf("log ends never took 2 and 4 bytes: %v", tl.width[clsLogEnd])
	}
}
