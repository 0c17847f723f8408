package tui

import (
	"github.com/kgroups/kgroups/kafka"
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
