package rebalance

import (
	"context"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// TestWaitCountsCooperativeRounds removes one of three cooperative-sticky
// kgo members by member id. It rejoins with a new id; the rounds Wait
// counts start at the generation kfake had before the removal and end at
// the one it has after, and every generation between them is a round seen
// unless Wait says rounds may have been missed.
func TestWaitCountsCooperativeRounds(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 6)
	cl := c.Client(t)
	const group = "coop-rounds"
	coop := kgo.Balancers(kgo.CooperativeStickyBalancer())
	b := c.Join(t, group, []string{"orders"}, coop, kgo.ClientID("client-a"))
	c.Join(t, group, []string{"orders"}, coop, kgo.ClientID("client-b"))
	c.Join(t, group, []string{"orders"}, coop, kgo.ClientID("client-c"))
	giBefore := c.WaitStable(t, group, 3, 6)
	before := settledGroup(t, cl, group, 3, 6)
	if gen, ok := Generation(before); !ok || gen != giBefore.Epoch {
		t.Fatalf("Generation(before) = %d, %v; kfake's generation is %d", gen, ok, giBefore.Epoch)
	}

	p, err := PlanRemoval(before, Selection{MemberIDs: []string{b.MemberID()}}, "")
	if err != nil {
		t.Fatal(err)
	}
	results, err := Remove(context.Background(), cl, p)
	if err == nil {
		Verify(context.Background(), cl, p, results)
	}
	if err != nil || len(Removed(results)) != 1 {
		t.Fatalf("Remove = %+v, %v", results, err)
	}
	var stableGens []int32
	out, err := Wait(context.Background(), cl, p, Removed(results), WaitOptions{
		Interval: 200 * time.Millisecond,
		Timeout:  kafkatest.WaitTimeout,
		OnSnapshot: func(s *kafka.Snapshot) {
			if g, ok := s.Group(group); ok && g.State == kafka.StateStable {
				gen, _ := Generation(g)
				stableGens = append(stableGens, gen)
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	giAfter := c.WaitStable(t, group, 3, 6)
	r := out.Rounds
	t.Logf("generations %d -> %d, Stable reads %v, rounds %s, missed %v, moves %d, rejoined %d", giBefore.Epoch, giAfter.Epoch, stableGens, r, r.MayBeMissed, len(out.Moves), out.Rejoined)
	if !r.Known || r.From != giBefore.Epoch || r.To != giAfter.Epoch {
		t.Fatalf("rounds %#v: want generations %d to %d", r, giBefore.Epoch, giAfter.Epoch)
	}
	span := int(r.To - r.From)
	switch {
	case span < 1:
		t.Fatalf("kfake's generation went from %d to %d: the removal did not rebalance", giBefore.Epoch, giAfter.Epoch)
	case r.MayBeMissed && r.Count() >= span, !r.MayBeMissed && r.Count() != span:
		t.Fatalf("%d rounds seen over %d generations, may be missed %v", r.Count(), span, r.MayBeMissed)
	}
	// Each round seen is a distinct Stable generation Wait read.
	distinct := 0
	last := r.From
	for _, g := range stableGens {
		if g > last {
			distinct++
			last = g
		}
	}
	if distinct != r.Count() {
		t.Fatalf("Wait read %d new Stable generations (%v), counted %d rounds", distinct, stableGens, r.Count())
	}
}
