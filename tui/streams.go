package tui

import (
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/screens/groupdetail"
	"github.com/kgroups/kgroups/views/screens/streams"
)

// streamsTabs are the Tasks and Topology tabs a streams group's screen adds
// after the others; other groups get none.
func (m *Model) streamsTabs(name string) []groupdetail.Extra {
	g, ok := m.snap.Group(name)
	if !ok || g.Type != kafka.TypeStreams {
		return nil
	}
	return []groupdetail.Extra{
		{Title: "Tasks", Tab: streams.NewTasks(m.base, name)},
		{Title: "Topology", Tab: streams.NewTopology(m.base, name)},
	}
}

// classicOnly says why members of g cannot be removed, or "": removal is for
// classic and consumer groups only (cmd's rebalance refuses the same way).
func classicOnly(g *kafka.Group) string {
	if g.Type == kafka.TypeClassic || g.Type == kafka.TypeConsumer {
		return ""
	}
	return "rebalance works on classic and consumer groups only; " + format.Sanitize(g.Name) + " is a " + format.Sanitize(string(g.Type)) + " group"
}
