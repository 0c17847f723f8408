package tui

import (
	"context"
	"errors"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/screens/record"
	"github.com/kgroups/kgroups/views/ui"
)

// RecordPeeker reads records for the record viewer. *kafka.Client
// implements it; when the poller does too, the viewer can read.
type RecordPeeker interface {
	Peek(ctx context.Context, req kafka.PeekRequest) (kafka.PeekResult, error)
}

var errNoPeek = errors.New("this connection cannot read records")

// openRecord pushes the record viewer on the record msg names (from the
// group screen's `v`, or a diagnosis finding). Its reads run in Cmds with
// the program's context, the poller in use now and the request timeout.
func (m *Model) openRecord(msg ui.OpenRecordMsg) tea.Cmd {
	p, ok := m.poll.poller.(RecordPeeker)
	ctx, timeout := m.ctx, m.opts.Timeout
	read := func(req kafka.PeekRequest) (kafka.PeekResult, error) {
		if !ok {
			return kafka.PeekResult{}, errNoPeek
		}
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		return p.Peek(ctx, req)
	}
	v, cmd := record.New(m.base, msg, read)
	m.push(v)
	return cmd
}
