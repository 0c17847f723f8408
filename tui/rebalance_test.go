package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/viewtest"
)

// rebalancing is the fixture cluster where orders-app rebalances: Stable at
// the first poll, PreparingRebalance at the second, and Stable again at the
// third with its second member replaced by a new one that owns the same
// partitions. Its members carry real cooperative-sticky subscription
// metadata, so the simulator can run kgo's balancers on them.
func rebalancing(step int) func(time.Time) (*kafka.Snapshot, error) {
	return func(now time.Time) (*kafka.Snapshot, error) {
		s := viewtest.Snapshot(now, 0)
		g := &s.Groups[5]
		members := append([]kafka.Member(nil), g.Members...)
		switch step {
		case 1:
			g.State = kafka.StatePreparingRebalance
		case 2:
			members[1].MemberID = "orders-app-3-5e0c9a7b-2d41-4f6e-8b3a-7c9d1e2f4a60"
		}
		bal := kgo.CooperativeStickyBalancer()
		for i := range members {
			owned := map[string][]int32{}
			for _, tp := range members[i].Assignment {
				owned[tp.Topic] = tp.Partitions
			}
			members[i].JoinMetadata = bal.JoinGroupMetadata([]string{"orders", "refunds"}, owned, 7)
		}
		g.Members = members
		return s, nil
	}
}

// TestRebalanceTabs: the Timeline tab shows what the polls saw happen to
// the group before its screen was opened; the Simulate tab predicts a
// member leaving; the groups screen says when the group last rebalanced.
func TestRebalanceTabs(t *testing.T) {
	h := newHarness(t, 180, 30, Options{}, rebalancing(0), rebalancing(1), rebalancing(2))
	for range 3 {
		h.poll()
		h.clock.Advance(5 * time.Second)
	}
	h.clock.Advance(2 * time.Minute)
	h.send(clockMsg{})
	v := lines(h.view())
	if got := v[3]; !strings.HasSuffix(got, " LAST-REB") {
		t.Fatalf("groups header = %q", got)
	}
	if got := v[9]; !strings.HasPrefix(got, "  orders-app ") || !strings.HasSuffix(got, " 2m") {
		t.Fatalf("orders-app row = %q", got)
	}
	if got := v[4]; !strings.HasSuffix(got, " -") {
		t.Fatalf("a group never seen rebalancing = %q", got)
	}
	h.press("j", "j", "j", "j", "j", "enter", "tab", "tab", "tab")
	t.Run("timeline", func(t *testing.T) { golden.RequireEqual(t, []byte(h.view())) })
	h.press("tab", "j", "l")
	t.Run("simulate", func(t *testing.T) { golden.RequireEqual(t, []byte(h.view())) })
	h.press("a")
	t.Run("simulate_next_assignor", func(t *testing.T) { golden.RequireEqual(t, []byte(h.view())) })
}
