package rebalance

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// TestStaticMembersRejoinWithTheirPartitions removes two of three static
// members (kgo.InstanceID) by instance id. They rejoin under the same
// instance ids with new member ids, and kgo's round robin orders static
// members by instance id, so each gets its partitions back: the removal
// outcome and the timeline count 0 moves and 2 members rejoined, where
// comparing member ids would count the 4 partitions they hold.
func TestStaticMembersRejoinWithTheirPartitions(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 6)
	cl := c.Client(t)
	const group = "static-rejoin"
	members := map[string]*kafkatest.Member{}
	for _, id := range []string{"s1", "s2", "s3"} {
		members[id] = c.Join(t, group, []string{"orders"}, kgo.Balancers(kgo.RoundRobinBalancer()), kgo.ClientID("app"), kgo.InstanceID(id))
	}
	giBefore := c.WaitStable(t, group, 3, 6)
	before := settledGroup(t, cl, group, 3, 6)
	old := map[string]string{"s1": members["s1"].MemberID(), "s2": members["s2"].MemberID()}

	p, err := PlanRemoval(before, Selection{InstanceIDs: []string{"s1", "s2"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	results, err := Remove(context.Background(), cl, p)
	if err == nil {
		Verify(context.Background(), cl, p, results)
	}
	if err != nil || len(Removed(results)) != 2 {
		t.Fatalf("Remove = %+v, %v; want s1 and s2 removed", results, err)
	}
	out, err := Wait(context.Background(), cl, p, Removed(results), WaitOptions{Interval: 50 * time.Millisecond, Timeout: kafkatest.WaitTimeout})
	if err != nil {
		t.Fatal(err)
	}
	for id, was := range old {
		if now := members[id].MemberID(); now == was || now == "" {
			t.Fatalf("%s has member id %q, was %q: want a new one", id, now, was)
		}
	}
	giAfter := c.WaitStable(t, group, 3, 6)
	if !reflect.DeepEqual(owned(giBefore), owned(giAfter)) {
		t.Fatalf("kfake shows the instances' partitions changed: %v -> %v", owned(giBefore), owned(giAfter))
	}
	if len(out.Moves) != 0 || out.Rejoined != 2 || len(out.Left) != 2 || len(out.Joined) != 2 {
		t.Fatalf("outcome: %d moved, %d rejoined, %d left, %d joined; want 0, 2, 2, 2 (moves %v)", len(out.Moves), out.Rejoined, len(out.Left), len(out.Joined), out.Moves)
	}
	// By member id, the partitions of s1 and s2 changed hands.
	if moved := len(diff(ownersOf(before.Members), ownersOf(out.After.Members))); moved != 4 {
		t.Fatalf("by member id %d partitions changed owner, want s1's and s2's 4", moved)
	}

	// The timeline, shown the group before and after, says the same.
	tl := NewTimeline(TimelineConfig{})
	now := time.Now()
	tl.Add(&kafka.Snapshot{Time: now, Groups: []kafka.Group{*before}})
	tl.Add(&kafka.Snapshot{Time: now.Add(time.Second), Groups: []kafka.Group{*out.After}})
	var got []Event
	for _, e := range tl.Events(group, nil) {
		if e.Kind == EventAssignment {
			got = append(got, e)
		}
	}
	if want := []Event{{Time: now.Add(time.Second), Kind: EventAssignment, Total: 6, Rejoined: 2}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("timeline assignment events %s, want %s", dumpEvents(got), dumpEvents(want))
	}
}
