package groupdetail

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/ui"
)

// exactState is the x toggle: while it is on, the rows on screen are read
// exactly, again each time their commit moves, and not only the commits
// older than the polls, which the root reads by itself. The root keeps
// every record read in the lag tracker too, so the group's header, its
// chart and the groups list show the same exact values as the rows.
type exactState struct {
	on bool
	// id is the request in flight (0: none); again asks for another read
	// once it is back, because the rows on screen changed meanwhile.
	id    uint64
	again bool
	// recs are the records read, by committed offset: a commit that moves
	// needs a new read, and an old one is dropped (see prune).
	recs map[kafka.CommitKey]kafka.RecordTime
	err  error
}

// toggleExact turns exact time lag on (reading the rows on screen) or off.
func (m *Model) toggleExact() tea.Cmd {
	e := &m.exact
	e.on = !e.on
	e.err = nil
	e.id, e.again = 0, false // a reply still on its way is dropped
	clear(e.recs)
	if !e.on {
		return nil
	}
	return m.requestExact()
}

// requestExact asks for the records of the rows on the Partitions tab that
// have a commit below the log end and no record read for that commit yet
// (by this screen, or by the root: the tracker's value is exact then).
// The Cmd carries copies of those rows, never the model, and at most one
// request is in flight: further changes wait for its answer.
func (m *Model) requestExact() tea.Cmd {
	e := &m.exact
	if !e.on || m.g == nil || m.gone {
		return nil
	}
	ps := m.g.Partitions
	first, last := m.wins[Partitions].Visible(m.rowCount(Partitions), m.tableRows())
	var want []kafka.PartitionOffsets
	for r := first; r < last; r++ {
		i := m.partIndex(r)
		p := &ps[i]
		if !p.HasCommit() || p.LogEnd < 0 || p.Committed >= p.LogEnd {
			continue
		}
		if h := m.partitionHealth(i); h != nil && h.TimeLag.Kind == lag.TimeLagExact {
			continue
		}
		if _, ok := e.recs[commitKey(p)]; !ok {
			want = append(want, *p)
		}
	}
	if len(want) == 0 {
		return nil
	}
	if e.id != 0 {
		e.again = true
		return nil
	}
	e.id = ui.NewRequestID()
	req := ui.TimestampsRequestMsg{ID: e.id, Owner: m, Group: m.name, Parts: want}
	return func() tea.Msg { return req }
}

// onTimestamps takes the answer to this screen's latest request and drops
// a late one (to a request made before exact mode was turned off).
func (m *Model) onTimestamps(msg ui.TimestampsMsg) tea.Cmd {
	e := &m.exact
	if msg.ID == 0 || msg.ID != e.id {
		return nil
	}
	e.id = 0
	if msg.Err != nil {
		e.on, e.again, e.err = false, false, msg.Err
		return nil
	}
	e.err = nil
	if e.recs == nil {
		e.recs = make(map[kafka.CommitKey]kafka.RecordTime, len(msg.Records))
	}
	for k, v := range msg.Records {
		e.recs[k] = v
	}
	if e.again {
		e.again = false
		return m.requestExact()
	}
	return nil
}

// prune forgets records for commits the group has moved past, so the map
// holds at most one record per partition.
func (e *exactState) prune(g *kafka.Group) {
	if len(e.recs) == 0 {
		return
	}
	current := make(map[kafka.CommitKey]bool, len(g.Partitions))
	for i := range g.Partitions {
		current[commitKey(&g.Partitions[i])] = true
	}
	for k := range e.recs {
		if !current[k] {
			delete(e.recs, k)
		}
	}
}

// status is what the tab bar says about exact time lag, and whether it
// reports a failure.
func (e *exactState) status(g ui.Glyphs) (string, bool) {
	switch {
	case e.err != nil:
		return "exact time lag failed: " + format.Sanitize(strings.Join(strings.Fields(e.err.Error()), " ")), true
	case !e.on:
		return "", false
	case e.id != 0:
		return "exact time lag: reading" + g.Ellipsis, false
	}
	failed := 0
	for _, r := range e.recs {
		if r.Err != nil {
			failed++
		}
	}
	if failed > 0 {
		return "exact time lag: " + format.Count(failed, "partition", "partitions") + " unreadable", true
	}
	return "exact time lag", false
}

// timeLag is the time lag a row shows: the exact one when it was read, the
// History's estimate otherwise (exact mode off, a row not read yet, or one
// whose record could not be read).
func (m *Model) timeLag(p *kafka.PartitionOffsets, h *lag.PartitionHealth) lag.TimeLag {
	if m.exact.on {
		if r, ok := m.exact.recs[commitKey(p)]; ok && r.Err == nil {
			return lag.ExactTimeLag(p, m.exact.recs, m.now)
		}
	}
	if h == nil {
		return lag.TimeLag{}
	}
	return h.TimeLag
}

func commitKey(p *kafka.PartitionOffsets) kafka.CommitKey {
	return kafka.CommitKey{Topic: p.Topic, Partition: p.Partition, Offset: p.Committed}
}
