package groupdetail

import (
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/ui"
)

// prepared is a poll's judging of the group's partitions, done off the UI
// loop (ui.Preparer): at 50,000 partitions it takes tens of milliseconds.
// It also carries what the extra tabs prepared.
type prepared struct {
	name string
	gh   lag.GroupHealth
	ok   bool
	// g is the group in the poll; ph pairs its partitions with gh's,
	// and totalLag, lags and known are its figures (see setData).
	g        *kafka.Group
	ph       []int32
	totalLag int64
	lags     map[string]int64
	known    map[string]bool

	tabs   []ui.Component // the extra tabs it was prepared for
	extras []any
}

// Prepare implements ui.Preparer: the function judges the group into the
// screen's spare buffer, which the screen does not read until the poll
// arrives with it, and runs the extra tabs' own.
func (m *Model) Prepare() func(ui.DataMsg) any {
	p := &prepared{name: m.name}
	buf := m.spare
	m.spare = nil // the job's until the poll comes back
	fs := make([]func(ui.DataMsg) any, len(m.extra))
	for i, e := range m.extra {
		p.tabs = append(p.tabs, e.Tab)
		if t, ok := e.Tab.(ui.Preparer); ok {
			fs[i] = t.Prepare()
		}
	}
	name := m.name
	return func(d ui.DataMsg) any {
		if g, ok := d.Snapshot.Group(name); ok {
			p.g = g
			p.totalLag = columns.GroupLag(g)
			p.lags, p.known = memberLags(g)
			if d.Lag != nil {
				p.gh, p.ok = d.Lag.Evaluate(name, buf)
				if p.ok {
					p.ph = pair(g.Partitions, p.gh.Partitions, nil)
				}
			}
		}
		p.extras = make([]any, len(fs))
		for i, f := range fs {
			if f != nil {
				p.extras[i] = f(d)
			}
		}
		return p
	}
}

// extraFor is what was prepared for extra tab i, nil when that tab is not
// the one it was prepared for.
func (p *prepared) extraFor(i int, tab ui.Component) any {
	if p == nil || i >= len(p.tabs) || p.tabs[i] != tab || i >= len(p.extras) {
		return nil
	}
	return p.extras[i]
}
