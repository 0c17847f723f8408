package rebalance

import (
	"context"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// TestSimulateStaticLeaveByProcess simulates the static member s2 of a
// range group leaving, then removes it for real. Range gives s1 orders 0-2
// and s3 3-5: s2's partitions 2 and 3 change process, and nobody rejoins.
// If s2 rejoins in time instead, counted by process nothing moves and one
// member has a new id, which is what the real removal then shows.
func TestSimulateStaticLeaveByProcess(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 6)
	cl := c.Client(t)
	const group = "static-sim"
	for _, id := range []string{"s1", "s2", "s3"} {
		c.Join(t, group, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()), kgo.ClientID("app"), kgo.InstanceID(id))
	}
	c.WaitStable(t, group, 3, 6)
	g := settledGroup(t, cl, group, 3, 6)
	s2 := memberOf(t, g, "s2")
	sim, err := Simulate(g, map[string]int32{"orders": 6}, Change{Leave: []string{s2}})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := sim.Prediction(AssignorRange)
	if p.Err != nil || len(p.Moves) != 2 || len(p.ByProcess.Moves) != 2 || p.ByProcess.Rejoined != 0 {
		t.Fatalf("range: %d moves, %d by process, %d rejoined (%v); want 2, 2, 0", len(p.Moves), len(p.ByProcess.Moves), p.ByProcess.Rejoined, p.Err)
	}
	for _, mv := range p.ByProcess.Moves {
		if mv.From != s2 || (mv.Partition == 2) != (mv.To == memberOf(t, g, "s1")) || (mv.Partition == 3) != (mv.To == memberOf(t, g, "s3")) {
			t.Fatalf("range by process moves %+v: want orders 2 to s1 and 3 to s3, from s2", p.ByProcess.Moves)
		}
	}
	if r := sim.StaticRejoin; r == nil || len(r.Moves) != 0 || r.Rejoined != 1 {
		t.Fatalf("StaticRejoin = %+v, want 0 moves and 1 member rejoined", r)
	}

	plan, err := PlanRemoval(g, Selection{InstanceIDs: []string{"s2"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	results, err := Remove(context.Background(), cl, plan)
	if err == nil {
		Verify(context.Background(), cl, plan, results)
	}
	if err != nil || len(Removed(results)) != 1 {
		t.Fatalf("Remove = %+v, %v", results, err)
	}
	out, err := Wait(context.Background(), cl, plan, Removed(results), WaitOptions{Interval: 50 * time.Millisecond, Timeout: kafkatest.WaitTimeout})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Moves) != len(sim.StaticRejoin.Moves) || out.Rejoined != sim.StaticRejoin.Rejoined {
		t.Fatalf("the real removal: %d moved, %d rejoined; the simulation said %d, %d", len(out.Moves), out.Rejoined, len(sim.StaticRejoin.Moves), sim.StaticRejoin.Rejoined)
	}
}

// memberOf is the member id of the static member with instance id inst.
func memberOf(t *testing.T, g *kafka.Group, inst string) string {
	t.Helper()
	for _, m := range g.Members {
		if m.InstanceID == inst {
			return m.MemberID
		}
	}
	t.Fatalf("no member has instance id %s", inst)
	return ""
}
