package rebalance

import (
	"strconv"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka"
)

// FuzzTimeline drives the timeline with arbitrary sequences of polls: each
// byte picks a state and which of four members are present and what they
// own. Whatever the sequence, the ring stays bounded, counts are sane and
// durations are never negative.
func FuzzTimeline(f *testing.F) {
	f.Add([]byte{0x00, 0x11, 0x2f, 0x0f, 0x33})
	f.Add([]byte{0xff, 0x00, 0xff, 0x00})
	states := []string{kafka.StateStable, kafka.StatePreparingRebalance, kafka.StateCompletingRebalance, kafka.StateEmpty, kafka.StateAssigning, kafka.StateReconciling, kafka.StateDead, ""}
	f.Fuzz(func(t *testing.T, polls []byte) {
		const limit = 5
		tl := NewTimeline(TimelineConfig{Events: limit, EvictAfter: 3})
		for i, b := range polls {
			g := kafka.Group{Name: "g", State: states[int(b)%len(states)], GroupEpoch: int32(b >> 6), AssignmentEpoch: int32(b >> 7)}
			for k := range 4 {
				if b&(1<<(k+3)) == 0 {
					continue
				}
				m := kafka.Member{MemberID: "m" + strconv.Itoa(k)}
				m.Assignment = []kafka.TopicPartitions{{Topic: "t", Partitions: []int32{int32((k + i) % 6), int32((k + i + 3) % 6)}}}
				g.Members = append(g.Members, m)
			}
			s := &kafka.Snapshot{Time: time.Unix(int64(i), 0)}
			if b%17 != 0 { // sometimes the group is missing from a poll
				s.Groups = []kafka.Group{g}
			}
			tl.Add(s)
			events := tl.Events("g", nil)
			if len(events) > limit {
				t.Fatalf("%d events kept, limit %d", len(events), limit)
			}
			for _, e := range events {
				if e.Duration < 0 || e.Moved < 0 || e.Moved+e.Assigned+e.Unassigned > 6 || e.Total > 6 {
					t.Fatalf("impossible event %+v", e)
				}
			}
			if st, ok := tl.Status("g"); ok && st.LastDuration < 0 {
				t.Fatalf("negative duration %+v", st)
			}
		}
	})
}

// FuzzSimulateMetadata feeds arbitrary join metadata to Simulate: it must
// refuse what it cannot decode with an error, never panic.
func FuzzSimulateMetadata(f *testing.F) {
	f.Add(kgo.CooperativeStickyBalancer().JoinGroupMetadata([]string{"t"}, map[string][]int32{"t": {0, 1}}, 3))
	f.Add([]byte{0, 3, 0, 0, 0, 1, 0, 1, 't'})
	f.Fuzz(func(t *testing.T, meta []byte) {
		g := abc()
		g.Members[0].JoinMetadata = meta
		sim, err := Simulate(g, map[string]int32{"t": 6}, Change{Leave: []string{"b"}})
		if err == nil && len(sim.Predictions) != len(Assignors) {
			t.Fatalf("%d predictions", len(sim.Predictions))
		}
	})
}
