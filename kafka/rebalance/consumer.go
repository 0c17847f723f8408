package rebalance

import "github.com/kgroups/kgroups/kafka"

// Reconciliation lists, for a KIP-848 group, the partitions the broker has
// decided to move but the members have not yet moved: each partition whose
// current owner differs from its owner in the target assignment. It is
// empty once every member has reconciled (the group is Stable).
func Reconciliation(g *kafka.Group) []Move {
	target := make(owners)
	for i := range g.Members {
		for _, a := range g.Members[i].Target {
			for _, p := range a.Partitions {
				target[tp{a.Topic, p}] = g.Members[i].MemberID
			}
		}
	}
	return diff(ownersOf(g.Members), target)
}
