package rebalance

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

func TestPlanRemovalRejects(t *testing.T) {
	g := abc()
	g.Members[2].InstanceID = "c-0"
	empty := &kafka.Group{Name: "app", State: kafka.StateEmpty}
	dynamic := abc()
	tests := []struct {
		name string
		g    *kafka.Group
		sel  Selection
		want string
	}{
		{"nothing chosen", g, Selection{}, "exactly one of the three"},
		{"two ways", g, Selection{MemberIDs: []string{"a"}, All: true}, "exactly one of the three"},
		{"unknown member", g, Selection{MemberIDs: []string{"zz"}}, `member "zz" is not in group "app"; its members are: a, b, c`},
		{"empty member", g, Selection{MemberIDs: []string{""}}, "a member id cannot be empty"},
		{"unknown instance", g, Selection{InstanceIDs: []string{"x-0"}}, `instance id "x-0" is not in group "app"; its static members' instance ids are: c-0`},
		{"no static members", dynamic, Selection{InstanceIDs: []string{"x-0"}}, "the group has no static members (remove dynamic members by member id)"},
		{"empty instance", g, Selection{InstanceIDs: []string{""}}, "an instance id cannot be empty"},
		{"no members", empty, Selection{All: true}, `group "app" has no members (state Empty): there is nothing to remove`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := PlanRemoval(tc.g, tc.sel, "")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestPlanRemovalMethods(t *testing.T) {
	g := abc()
	g.Members[2].InstanceID = "c-0"
	p, err := PlanRemoval(g, Selection{All: true}, "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tg := range p.Targets {
		got = append(got, tg.Member.MemberID+":"+string(tg.Method))
	}
	if want := []string{"a:member-id", "b:member-id", "c:instance-id"}; !reflect.DeepEqual(got, want) {
		t.Errorf("targets = %v, want %v", got, want)
	}
	if p.Reason != DefaultReason {
		t.Errorf("reason = %q, want %q", p.Reason, DefaultReason)
	}
	// A static member chosen by member id is still removed by instance
	// id, as Kafka's admin client does.
	p, err = PlanRemoval(g, Selection{MemberIDs: []string{"c", "c"}}, "rolling restart")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Targets) != 1 || p.Targets[0].Method != ByInstanceID || p.Reason != "rolling restart" {
		t.Errorf("plan = %+v, want c by instance id with the reason given", p)
	}
	explained := strings.Join(p.Explain(), "\n")
	for _, want := range []string{"every remaining member rejoins", "eager range assignor", "keeps its partitions only if it rejoins within the session timeout"} {
		if !strings.Contains(explained, want) {
			t.Errorf("explanation lacks %q:\n%s", want, explained)
		}
	}
}

// owned flattens kfake's view of a group to partition -> process: the
// instance id of a static member, else the client id (the tests' members
// all run on one host, each with its own client id).
func owned(gi *kfake.GroupInfo) map[string]string {
	out := make(map[string]string)
	for _, m := range gi.Members {
		who := m.ClientID
		if m.InstanceID != nil {
			who = "instance " + *m.InstanceID
		}
		for _, p := range kafkatest.SortedAssignment(m.Assignment) {
			out[p] = who
		}
	}
	return out
}

func changedOwners(before, after map[string]string) int {
	n := 0
	for p, id := range after {
		if before[p] != id {
			n++
		}
	}
	return n
}

// settledChanges says, for each pair of consecutive Stable snapshots the
// timeline was fed that differ, how many partitions changed owning client
// and how many clients came back under a new member id: what its
// assignment events must say (the tests' clients have distinct client ids
// on one host).
func settledChanges(snaps []*kafka.Snapshot, group string) []string {
	var out []string
	var prev map[string]string
	var prevIDs map[string]string
	for _, s := range snaps {
		g, ok := s.Group(group)
		if !ok || g.Err != nil || g.State != kafka.StateStable {
			continue
		}
		cur := make(map[string]string)
		ids := make(map[string]string)
		for _, m := range g.Members {
			ids[m.ClientID] = m.MemberID
			for _, a := range m.Assignment {
				for _, p := range a.Partitions {
					cur[a.Topic+"/"+strconv.Itoa(int(p))] = m.ClientID
				}
			}
		}
		if prev != nil {
			rejoined := 0
			for client, id := range ids {
				if old, ok := prevIDs[client]; ok && old != id {
					rejoined++
				}
			}
			if n := changedOwners(prev, cur); n > 0 || rejoined > 0 {
				out = append(out, "moved "+strconv.Itoa(n)+" rejoined "+strconv.Itoa(rejoined))
			}
		}
		prev, prevIDs = cur, ids
	}
	return out
}

func TestRemoveDynamicMemberRebalances(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 6)
	cl := c.Client(t)
	const group = "dyn"
	a := c.Join(t, group, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()), kgo.ClientID("client-a"))
	c.Join(t, group, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()), kgo.ClientID("client-b"))
	giBefore := c.WaitStable(t, group, 2, 6)
	before := settledGroup(t, cl, group, 2, 6)
	oldA := a.MemberID()

	tl := NewTimeline(TimelineConfig{})
	var seen []*kafka.Snapshot
	first := &kafka.Snapshot{Time: time.Now(), Groups: []kafka.Group{*before}}
	tl.Add(first)
	seen = append(seen, first)

	p, err := PlanRemoval(before, Selection{MemberIDs: []string{oldA}}, "test")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Targets) != 1 || p.Targets[0].Method != ByMemberID {
		t.Fatalf("targets = %+v, want a by member id", p.Targets)
	}
	results, err := Remove(context.Background(), cl, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 1 || results[0].Err != nil {
		t.Fatalf("results = %+v, want a removed", results)
	}
	out, err := Wait(context.Background(), cl, p, Removed(results), WaitOptions{
		Interval: 50 * time.Millisecond,
		Timeout:  kafkatest.WaitTimeout,
		OnSnapshot: func(s *kafka.Snapshot) {
			tl.Add(s)
			seen = append(seen, s)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !out.Settled || out.Short || len(out.After.Members) != 2 {
		t.Fatalf("outcome: settled %v short %v with %d members; want settled with 2", out.Settled, out.Short, len(out.After.Members))
	}

	// The member rejoined with a new id; the other kept its id.
	newA := a.MemberID()
	if newA == oldA || newA == "" {
		t.Fatalf("member a's id is %q after removal, was %q: want a new one", newA, oldA)
	}
	if len(out.Left) != 1 || out.Left[0].MemberID != oldA {
		t.Errorf("left = %v, want %s", out.Left, oldA)
	}
	if len(out.Joined) != 1 || out.Joined[0].MemberID != newA || out.Joined[0].ClientID != "client-a" {
		t.Errorf("joined = %v, want %s (client-a)", out.Joined, newA)
	}

	// The moves match kfake's own before and after, by client: client-a
	// came back under a new id, and what it kept did not move.
	giAfter := c.WaitStable(t, group, 2, 6)
	if want := changedOwners(owned(giBefore), owned(giAfter)); len(out.Moves) != want || out.Rejoined != 1 {
		t.Errorf("outcome moved %d partitions with %d rejoined; kfake says %d changed client, and client-a rejoined", len(out.Moves), out.Rejoined, want)
	}

	// The timeline recorded the leave, the join and the moves.
	events := tl.Events(group, nil)
	var left, joinedIDs []string
	var changes []string
	rebalances := 0
	for _, e := range events {
		switch e.Kind {
		case EventLeft:
			left = append(left, e.MemberID)
		case EventJoined:
			joinedIDs = append(joinedIDs, e.MemberID)
		case EventAssignment:
			changes = append(changes, "moved "+strconv.Itoa(e.Moved)+" rejoined "+strconv.Itoa(e.Rejoined))
		case EventRebalance:
			rebalances++
		}
	}
	if !reflect.DeepEqual(left, []string{oldA}) {
		t.Errorf("timeline left = %v, want [%s]", left, oldA)
	}
	if !reflect.DeepEqual(joinedIDs, []string{newA}) {
		t.Errorf("timeline joined = %v, want [%s]", joinedIDs, newA)
	}
	if want := settledChanges(seen, group); !reflect.DeepEqual(changes, want) || len(want) == 0 {
		t.Errorf("timeline assignments %q, the snapshots it saw %q", changes, want)
	}
	t.Logf("timeline: %s", dumpEvents(events))
	if rebalances == 0 {
		t.Errorf("timeline recorded no rebalance: %s", dumpEvents(events))
	}
	st, _ := tl.Status(group)
	if st.Rebalancing || st.LastRebalance.IsZero() {
		t.Errorf("status = %+v, want a finished rebalance", st)
	}
}

func TestRemoveStaticMemberByInstanceID(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 6)
	cl := c.Client(t)
	const group = "static"
	members := map[string]*kafkatest.Member{}
	for _, id := range []string{"s1", "s2", "s3"} {
		members[id] = c.Join(t, group, []string{"orders"}, kgo.Balancers(kgo.RoundRobinBalancer()), kgo.ClientID(id), kgo.InstanceID(id))
	}
	c.WaitStable(t, group, 3, 6)
	before := settledGroup(t, cl, group, 3, 6)
	oldID := members["s2"].MemberID()

	p, err := PlanRemoval(before, Selection{InstanceIDs: []string{"s2"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Targets) != 1 || p.Targets[0].Member.MemberID != oldID || p.Targets[0].Method != ByInstanceID {
		t.Fatalf("targets = %+v, want s2 (%s) by instance id", p.Targets, oldID)
	}
	results, err := Remove(context.Background(), cl, p)
	if err != nil || len(results) != 1 || results[0].Err != nil {
		t.Fatalf("Remove = %+v, %v; want s2 removed", results, err)
	}
	out, err := Wait(context.Background(), cl, p, Removed(results), WaitOptions{Interval: 50 * time.Millisecond, Timeout: kafkatest.WaitTimeout})
	if err != nil {
		t.Fatal(err)
	}
	newID := members["s2"].MemberID()
	if newID == oldID {
		t.Fatalf("s2 kept member id %s; a removed static member rejoins with a new one", oldID)
	}
	if len(out.Left) != 1 || out.Left[0].MemberID != oldID || out.Left[0].InstanceID != "s2" {
		t.Errorf("left = %+v, want s2's old id %s", out.Left, oldID)
	}
	if len(out.Joined) != 1 || out.Joined[0].MemberID != newID || out.Joined[0].InstanceID != "s2" {
		t.Errorf("joined = %+v, want s2 under %s", out.Joined, newID)
	}
	for _, id := range []string{"s1", "s3"} {
		if _, ok := out.After.Member(members[id].MemberID()); !ok {
			t.Errorf("%s lost its member id", id)
		}
	}
}

func TestRemoveConsumerProtocolMemberReportsTheBrokersAnswer(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 4)
	cl := c.Client(t)
	const group = "k848"
	for _, id := range []string{"k1", "k2"} {
		c.Join(t, group, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()), kgo.ServerSideBalancer(), kgo.ClientID(id))
	}
	var before *kafka.Group
	kafkatest.Eventually(t, "the KIP-848 group to be Stable", func() bool {
		s, err := cl.PollGroups(context.Background(), group)
		if err != nil {
			return false
		}
		g, ok := s.Group(group)
		if !ok || g.Type != kafka.TypeConsumer || g.State != kafka.StateStable || len(g.Members) != 2 {
			return false
		}
		for _, m := range g.Members {
			if m.PartitionCount() != 2 {
				return false
			}
		}
		before = g
		return true
	})
	target := before.Members[0].MemberID
	p, err := PlanRemoval(before, Selection{MemberIDs: []string{target}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(p.Explain(), func(s string) bool { return strings.Contains(s, "shows the broker's answer") }) {
		t.Errorf("the explanation does not warn that the broker may refuse: %q", p.Explain())
	}
	results, err := Remove(context.Background(), cl, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 1 || !errors.Is(results[0].Err, kerr.UnknownMemberID) {
		t.Fatalf("results = %+v, want the broker's UNKNOWN_MEMBER_ID", results)
	}
	if got := results[0].Err.Error(); !strings.HasPrefix(got, "UNKNOWN_MEMBER_ID: ") {
		t.Errorf("answer %q is not the broker's error verbatim", got)
	}
	if len(Removed(results)) != 0 {
		t.Errorf("Removed = %v after a refusal", Removed(results))
	}
	s, err := cl.PollGroups(context.Background(), group)
	if err != nil {
		t.Fatal(err)
	}
	after, _ := s.Group(group)
	if _, ok := after.Member(target); !ok || len(after.Members) != 2 || after.GroupEpoch != before.GroupEpoch {
		t.Errorf("the refused removal changed the group: %d members, epoch %d -> %d", len(after.Members), before.GroupEpoch, after.GroupEpoch)
	}
}

// TestMessagesKeepIDsOnOneLine: a member id, client id or instance id
// with a line break (a consumer chooses its client id, and so its member
// id) is quoted in the lists of an error, so the message stays one line.
func TestMessagesKeepIDsOnOneLine(t *testing.T) {
	g := &kafka.Group{Name: "app", State: kafka.StateStable, Members: []kafka.Member{
		{MemberID: "a\nkgroups: fake line", ClientID: "c\r1", InstanceID: "i\n1"},
		{MemberID: "b", ClientID: "c\r1"},
	}}
	_, err := PlanRemoval(g, Selection{MemberIDs: []string{"nosuch"}}, "")
	if want := `member "nosuch" is not in group "app"; its members are: "a\nkgroups: fake line", b`; err == nil || err.Error() != want {
		t.Errorf("PlanRemoval: %v\nwant %s", err, want)
	}
	_, err = PlanRemoval(g, Selection{InstanceIDs: []string{"nosuch"}}, "")
	if want := `instance id "nosuch" is not in group "app"; its static members' instance ids are: "i\n1"`; err == nil || err.Error() != want {
		t.Errorf("PlanRemoval by instance: %v\nwant %s", err, want)
	}
	_, err = ResolveMember(g, "nosuch")
	if want := `member "nosuch" is not in group "app"; its members are: "a\nkgroups: fake line", b`; err == nil || err.Error() != want {
		t.Errorf("ResolveMember: %v\nwant %s", err, want)
	}
	_, err = ResolveMember(g, "c\r1")
	if want := `"c\r1" names 2 members of group "app" (by client id or instance id): "a\nkgroups: fake line" (client "c\r1", instance "i\n1"), b (client "c\r1"); name one by its member id`; err == nil || err.Error() != want {
		t.Errorf("ambiguous: %v\nwant %s", err, want)
	}
}
