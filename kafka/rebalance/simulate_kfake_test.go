package rebalance

import (
	"context"
	"reflect"
	"sort"
	"strconv"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// settledGroup polls until kgroups sees the group Stable with exactly
// members members, assigned partitions in all and join metadata for each.
func settledGroup(t *testing.T, cl *kafka.Client, name string, members, assigned int) *kafka.Group {
	t.Helper()
	var g *kafka.Group
	kafkatest.Eventually(t, name+" to be Stable as kgroups sees it", func() bool {
		s, err := cl.PollGroups(context.Background(), name)
		if err != nil {
			return false
		}
		got, ok := s.Group(name)
		if !ok || got.Err != nil || got.State != kafka.StateStable || len(got.Members) != members {
			return false
		}
		n := 0
		for i := range got.Members {
			if len(got.Members[i].JoinMetadata) == 0 {
				return false
			}
			n += got.Members[i].PartitionCount()
		}
		g = got
		return n == assigned
	})
	return g
}

// TestSimulateMatchesTheRealGroup checks each prediction against what a
// real kgo group does when the member that sorts in the middle closes and
// leaves: range and roundrobin exactly, cooperative-sticky by the set of
// partitions that moved (which of the survivors takes each one is the
// balancer's free choice among equally good plans).
func TestSimulateMatchesTheRealGroup(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 6)
	c.CreateTopic(t, "audit", 3)
	cl := c.Client(t)
	topics := []string{"audit", "orders"}
	counts, err := PartitionCounts(context.Background(), cl, topics)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]int32{"audit": 3, "orders": 6}; !reflect.DeepEqual(counts, want) {
		t.Fatalf("PartitionCounts = %v, want %v", counts, want)
	}

	for _, tc := range []struct {
		assignor string
		balancer kgo.GroupBalancer
		exact    bool
	}{
		{AssignorRange, kgo.RangeBalancer(), true},
		{AssignorRoundRobin, kgo.RoundRobinBalancer(), true},
		{AssignorCooperativeSticky, kgo.CooperativeStickyBalancer(), false},
	} {
		t.Run(tc.assignor, func(t *testing.T) {
			group := "sim-" + tc.assignor
			var members []*kafkatest.Member
			for _, id := range []string{"c1", "c2", "c3"} {
				members = append(members, c.Join(t, group, topics, kgo.Balancers(tc.balancer), kgo.ClientID(id)))
			}
			c.WaitStable(t, group, 3, 9)
			before := settledGroup(t, cl, group, 3, 9)
			if before.Assignor != tc.assignor {
				t.Fatalf("group assignor %q, want %q", before.Assignor, tc.assignor)
			}

			leaving := before.Members[1].MemberID // sorted by id: the middle one
			sim, err := Simulate(before, counts, Change{Leave: []string{leaving}})
			if err != nil {
				t.Fatal(err)
			}
			pred, _ := sim.Prediction(tc.assignor)
			if pred.Err != nil {
				t.Fatal(pred.Err)
			}

			for _, m := range members {
				if m.MemberID() == leaving {
					m.Close()
				}
			}
			c.WaitStable(t, group, 2, 9)
			after := settledGroup(t, cl, group, 2, 9)
			actual := Reassign(before.Members, after.Members).Moves
			// The leaver owned three partitions; they at least moved.
			if n := before.Members[1].PartitionCount(); n != 3 || len(actual) < n {
				t.Fatalf("the leaver owned %d partitions and %d moved; want 3 and at least 3", n, len(actual))
			}
			t.Logf("%s moved %d partitions: %v", tc.assignor, len(actual), actual)

			if tc.exact {
				got := make(map[string][]kafka.TopicPartitions)
				for _, m := range after.Members {
					got[m.MemberID] = m.Assignment
				}
				if !reflect.DeepEqual(pred.Assignment, got) {
					t.Errorf("predicted assignment %v, the group did %v", pred.Assignment, got)
				}
				if !reflect.DeepEqual(pred.Moves, actual) {
					t.Errorf("predicted moves %v, the group did %v", pred.Moves, actual)
				}
				return
			}
			if p, a := moveKeys(pred.Moves), moveKeys(actual); !reflect.DeepEqual(p, a) {
				t.Errorf("predicted moved partitions %v, the group moved %v", p, a)
			}
			if len(actual) != 3 {
				t.Errorf("the group moved %d partitions, want only the 3 of the member that left", len(actual))
			}
		})
	}
}

func moveKeys(moves []Move) []string {
	var out []string
	for _, m := range moves {
		out = append(out, m.Topic+"/"+strconv.Itoa(int(m.Partition))+" from "+m.From)
	}
	sort.Strings(out)
	return out
}
