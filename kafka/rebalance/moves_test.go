package rebalance

import "testing"

// TestStaticRejoinOnlyForStaticLeavers: a dynamic member that leaves has
// no instance id to come back under and the group rebalances anyway, so
// there is no static-rejoin count; a static member alone rejoins with its
// partitions.
func TestStaticRejoinOnlyForStaticLeavers(t *testing.T) {
	g := abc()
	if r := staticRejoin(g, []string{"b"}); r != nil {
		t.Fatalf("staticRejoin for a dynamic member = %+v, want nil", r)
	}
	g.Members[1].InstanceID = "inst-b"
	if r := staticRejoin(g, []string{"a", "b"}); r != nil {
		t.Fatalf("staticRejoin with a dynamic member among the leavers = %+v, want nil", r)
	}
	r := staticRejoin(g, []string{"b"})
	if r == nil || len(r.Moves) != 0 || r.Rejoined != 1 {
		t.Fatalf("staticRejoin = %+v, want 0 moves and 1 member rejoined", r)
	}
}
