package rebalance

import (
	"github.com/kgroups/kgroups/kafka"
)

// predictedReassign counts a prediction by process, as a real rebalance is
// counted (see Reassign): the members that stay are the processes they are
// now, and each joiner is a new process. Moves still list every partition
// whose owner changes; this is the same comparison made by the one rule.
func predictedReassign(g *kafka.Group, assignment map[string][]kafka.TopicPartitions) Reassignment {
	after := make([]kafka.Member, 0, len(assignment))
	for id, tps := range assignment {
		m := kafka.Member{MemberID: id}
		if cur, ok := g.Member(id); ok {
			m.InstanceID, m.ClientID, m.Host = cur.InstanceID, cur.ClientID, cur.Host
		}
		m.Assignment = tps
		after = append(after, m)
	}
	return Reassign(g.Members, after)
}

// staticRejoin is what happens instead when every member in leave is
// static and comes back under its instance id within the session timeout:
// each rejoins with a new member id and the coordinator hands it its
// previous assignment without a rebalance. Nil when a leaving member is
// dynamic (the group rebalances anyway, as the predictions say).
func staticRejoin(g *kafka.Group, leave []string) *Reassignment {
	leaving := make(map[string]bool, len(leave))
	for _, id := range leave {
		leaving[id] = true
	}
	after := make([]kafka.Member, 0, len(g.Members))
	static := 0
	for _, m := range g.Members {
		if leaving[m.MemberID] {
			if m.InstanceID == "" {
				return nil
			}
			static++
			m.MemberID = "rejoined:" + m.MemberID
		}
		after = append(after, m)
	}
	if static == 0 {
		return nil
	}
	r := Reassign(g.Members, after)
	return &r
}
