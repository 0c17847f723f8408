package grouplist

import "github.com/kgroups/kgroups/views/ui"

// prepared is a poll worked out off the UI loop (ui.Preparer): the
// per-group figures, the summary and the rows filtered and sorted as the
// screen was when the poll's judging began. At 10,000 groups this is
// milliseconds of work the UI loop does not wait for.
type prepared struct {
	filter string
	sortBy SortKey
	desc   bool
	m      *Model // a scratch screen holding the figures
}

// Prepare implements ui.Preparer: the function works on a scratch screen
// with a copy of the filter and the sort, and fresh buffers, so it shares
// nothing the screen writes.
func (m *Model) Prepare() func(ui.DataMsg) any {
	p := &prepared{filter: m.filter.Value(), sortBy: m.sortBy, desc: m.desc}
	c := m.Common
	return func(d ui.DataMsg) any {
		s := &Model{Common: c, sortBy: p.sortBy, desc: p.desc}
		s.filter.SetValue(p.filter)
		s.setData(d.Snapshot, d.History, d.Lag, d.Rebalances)
		p.m = s
		return p
	}
}

// matches reports whether the screen still filters and sorts as it did
// when p was prepared.
func (p *prepared) matches(m *Model) bool {
	return p.m != nil && p.filter == m.filter.Value() && p.sortBy == m.sortBy && p.desc == m.desc
}

// install takes the prepared figures and puts the cursor back on the
// selected group, as setData and rebuild would.
func (m *Model) install(p *prepared) {
	s := p.m
	m.snap, m.hist = s.snap, s.hist
	m.lower, m.lags, m.health, m.lastReb, m.glance = s.lower, s.lags, s.health, s.lastReb, s.glance
	m.counts, m.rows = s.counts, s.rows
	m.place()
}
