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

// TestDynamicMemberRejoinsOverANewConnection removes a dynamic member
// whose idle group connection franz-go has closed (kgo.ConnIdleTimeout),
// as the demo's members' is between rebalances: it rejoins over a new
// connection, so kfake reports its host with another port. The port names
// a connection, not a process: the outcome counts client-a as rejoined,
// keeping its partitions (range orders "client-a-…" before "client-b-…"),
// where comparing hosts with their ports counted its 3 partitions as
// changing process.
func TestDynamicMemberRejoinsOverANewConnection(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 6)
	cl := c.Client(t)
	const group = "rejoin-new-conn"
	a := c.Join(t, group, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()), kgo.ClientID("client-a"), kgo.ConnIdleTimeout(100*time.Millisecond))
	c.Join(t, group, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()), kgo.ClientID("client-b"))
	giBefore := c.WaitStable(t, group, 2, 6)
	before := settledGroup(t, cl, group, 2, 6)
	oldA := a.MemberID()
	// Past two idle timeouts, the reaper has closed client-a's group
	// connection (joins and syncs only), so its rejoin dials a new one.
	time.Sleep(300 * time.Millisecond)

	p, err := PlanRemoval(before, Selection{MemberIDs: []string{oldA}}, "test")
	if err != nil {
		t.Fatal(err)
	}
	results, err := Remove(context.Background(), cl, p)
	if err == nil {
		Verify(context.Background(), cl, p, results)
	}
	if err != nil || len(Removed(results)) != 1 {
		t.Fatalf("Remove = %+v, %v; want client-a removed", results, err)
	}
	out, err := Wait(context.Background(), cl, p, Removed(results), WaitOptions{Interval: 50 * time.Millisecond, Timeout: kafkatest.WaitTimeout})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Left) != 1 || len(out.Joined) != 1 || out.Joined[0].ClientID != "client-a" {
		t.Fatalf("left %v joined %v; want client-a out and back", out.Left, out.Joined)
	}
	was, now := out.Left[0].Host, out.Joined[0].Host
	if was == now || hostAddress(was) != hostAddress(now) {
		t.Fatalf("client-a's host was %q, is %q: want the same address from another port", was, now)
	}
	giAfter := c.WaitStable(t, group, 2, 6)
	if n := changedOwners(owned(giBefore), owned(giAfter)); n != 0 {
		t.Fatalf("kfake shows %d partitions changed client, want 0", n)
	}
	if len(out.Moves) != 0 || out.Rejoined != 1 {
		t.Fatalf("outcome: %d moved (%v), %d rejoined; want 0 moved and client-a rejoined", len(out.Moves), out.Moves, out.Rejoined)
	}
}

// TestProcessIgnoresThePort: a member's process is its client id and host
// address; the port of its connection, when the broker reports one, is
// not part of it, and Apache Kafka's forms are kept whole.
func TestProcessIgnoresThePort(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"127.0.0.1:50312", "127.0.0.1:50999"},
		{"[::1]:50312", "[::1]:41000"},
		{"/10.0.0.1", "/10.0.0.1"},
		{"/10.0.0.1:5000", "/10.0.0.1:6000"},
	} {
		a := kafka.Member{ClientID: "app", Host: tc.a}
		b := kafka.Member{ClientID: "app", Host: tc.b}
		if Process(&a) != Process(&b) {
			t.Errorf("%q and %q are different processes, want one", tc.a, tc.b)
		}
	}
	for _, tc := range []struct{ a, b string }{
		{"127.0.0.1:50312", "127.0.0.2:50312"},
		{"/10.0.0.1", "/10.0.0.2"},
		{"/0:0:0:0:0:0:0:1", "/0:0:0:0:0:0:0:2"},
		{"app-1/10.0.0.1", "app-2/10.0.0.1"},
	} {
		a := kafka.Member{ClientID: "app", Host: tc.a}
		b := kafka.Member{ClientID: "app", Host: tc.b}
		if Process(&a) == Process(&b) {
			t.Errorf("%q and %q are one process, want two", tc.a, tc.b)
		}
	}
}
