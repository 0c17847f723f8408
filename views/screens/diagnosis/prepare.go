package diagnosis

import (
	"maps"

	"github.com/kgroups/kgroups/views/ui"
)

// prepared is a poll's findings worked out off the UI loop (ui.Preparer):
// at 50,000 partitions judging and diagnosing the group takes tens of
// milliseconds.
type prepared struct {
	answers int    // the tab's answers count when prepared
	m       *Model // a scratch tab holding the findings
}

// Prepare implements ui.Preparer: the function refreshes a scratch tab
// that has copies of what the tab has read and of the stable offsets it
// saw, and reads the events from the poll's own timeline.
func (m *Model) Prepare() func(ui.DataMsg) any {
	s := &Model{Common: m.Common, Bootstrap: m.Bootstrap, Connection: m.Connection, group: m.group, stable: maps.Clone(m.stable), reads: m.reads.clone()}
	p := &prepared{answers: m.answers, m: s}
	return func(d ui.DataMsg) any {
		if src, ok := d.Rebalances.(Source); ok {
			s.src = src
		}
		s.snap, s.lag = d.Snapshot, d.Lag
		s.refresh() // the scratch tab has not been shown: it asks nothing
		return p
	}
}

// install takes what a scratch tab worked out.
func (m *Model) install(s *Model) {
	m.findings, m.known, m.pending, m.stable, m.want, m.events = s.findings, s.known, s.pending, s.stable, s.want, s.events
	m.win.Clamp(len(m.findings), m.rows())
}
