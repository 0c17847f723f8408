package tui

import (
	"context"
	"errors"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/views/ui"
)

var errNoTimestamps = errors.New("this connection cannot read records")

// readTimestamps serves a screen's request for the records at committed
// offsets: the reading runs in a Cmd with the program's context and the
// poller in use now, and its answer carries the request's ID, so that it
// reaches the screen that asked and no other. A context switch makes the
// answer useless: the screen that asked is gone.
func (m *Model) readTimestamps(req ui.TimestampsRequestMsg) tea.Cmd {
	if req.Owner == nil {
		return nil
	}
	m.requests[req.ID] = req.Owner
	r, ok := m.poll.poller.(TimestampReader)
	if !ok {
		return func() tea.Msg { return ui.TimestampsMsg{ID: req.ID, Group: req.Group, Err: errNoTimestamps} }
	}
	ctx, timeout := m.ctx, m.opts.Timeout
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		recs, err := r.CommittedTimestamps(ctx, req.Parts)
		return ui.TimestampsMsg{ID: req.ID, Group: req.Group, Records: recs, Err: err}
	}
}
