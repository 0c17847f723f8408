package tui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/views/ui"
)

// DiagnosisReader makes the extra reads of the Diagnosis tab's rules: the
// producers and transactions behind stable offsets that trail the log end,
// topics' retention.ms and the records at stalled commits.
// *diagnose.Reader implements it, the reading code `kgroups diagnose`
// uses; it must be safe for concurrent use (two group screens may read at
// once).
type DiagnosisReader interface {
	Read(ctx context.Context, w diagnose.Wants) (*diagnose.Reads, error)
}

var _ DiagnosisReader = (*diagnose.Reader)(nil)

// readDiagnosis serves a Diagnosis tab's request for extra reads: the
// reading runs in a Cmd with the program's context and the reader of the
// connection in use now, and its answer carries the request's ID, so that
// it reaches the tab that asked and no other.
func (m *Model) readDiagnosis(req ui.DiagnosisRequestMsg) tea.Cmd {
	if req.Owner == nil {
		return nil
	}
	m.requests[req.ID] = req.Owner
	r := m.opts.Diagnosis
	if r == nil {
		why := ui.ErrNoDiagnosisReads
		if m.replay != nil {
			why = ui.ErrNotRecorded
		}
		return func() tea.Msg {
			return ui.DiagnosisMsg{ID: req.ID, Group: req.Group, Wants: req.Wants, Reads: &diagnose.Reads{}, Err: why}
		}
	}
	ctx, timeout := m.ctx, m.opts.Timeout
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		reads, err := r.Read(ctx, req.Wants)
		if reads == nil {
			reads = &diagnose.Reads{}
		}
		return ui.DiagnosisMsg{ID: req.ID, Group: req.Group, Wants: req.Wants, Reads: reads, Err: err}
	}
}
