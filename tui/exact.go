package tui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/ui"
)

// exactReads is the root's own exact time-lag reading: after each accepted
// poll it reads the records at the commits the tracker cannot place within
// its points (lag.Tracker.WantExact), at most ExactBudget of them, so that
// no screen shows a time lag above the truth and none has to ask. One read
// is in flight at a time; its answer carries a generation, so a read from
// before a context switch is dropped.
type exactReads struct {
	gen      uint64
	inFlight bool
}

// exactReadMsg is the answer of one of the root's exact reads.
type exactReadMsg struct {
	gen  uint64
	recs map[kafka.CommitKey]kafka.RecordTime
	err  error
}

// startExactRead reads want, the commits the tracker wants read
// (Tracker.WantExact, listed by the judging job), in a Cmd with the poller
// in use now. Without a reader, or with nothing wanted, it does nothing.
func (m *Model) startExactRead(want []kafka.PartitionOffsets) tea.Cmd {
	e := &m.exact
	if e.inFlight {
		return nil // the next poll asks again
	}
	r, ok := m.poll.poller.(TimestampReader)
	if !ok {
		return nil
	}
	if len(want) == 0 {
		return nil
	}
	e.gen++
	e.inFlight = true
	gen, ctx, timeout := e.gen, m.ctx, m.opts.Timeout
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		recs, err := r.CommittedTimestamps(ctx, want)
		return exactReadMsg{gen: gen, recs: recs, err: err}
	}
}

// onExactRead gives the records to the tracker, which judges the groups
// that have them again, and shows every screen the result. A read that
// failed as a whole is asked for again after the next poll.
func (m *Model) onExactRead(msg exactReadMsg) tea.Cmd {
	if msg.gen != m.exact.gen {
		return nil
	}
	m.exact.inFlight = false
	if msg.err != nil || len(msg.recs) == 0 {
		return nil
	}
	return m.addExact(msg.recs)
}

// addExact writes records to the poll data and starts a judging job at
// once (unless one is in flight, whose answer starts it): the job judges
// again the groups they belong to, and its answer sends every screen the
// latest snapshot again with the verdicts they changed.
func (m *Model) addExact(recs map[kafka.CommitKey]kafka.RecordTime) tea.Cmd {
	m.write(op{exact: recs})
	return m.startJudge()
}

// onTimestamps delivers a screen's exact read (the group screen's x) and
// keeps its records in the tracker too, so that the rows, the group's
// header, its chart and the groups list show the same exact value.
func (m *Model) onTimestamps(msg ui.TimestampsMsg) tea.Cmd {
	if _, ok := m.requests[msg.ID]; !ok {
		return nil // nobody on this context asked
	}
	cmd := m.deliver(msg)
	if msg.Err != nil || len(msg.Records) == 0 {
		return cmd
	}
	return tea.Batch(cmd, m.addExact(msg.Records))
}
