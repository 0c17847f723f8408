package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/views/ui"
)

// ask runs a screen's request in a Cmd and remembers who asked, so that
// its answer goes to that screen alone.
func (m *Model) ask(req ui.Request) tea.Cmd {
	if req.Run == nil || req.Owner == nil {
		return nil
	}
	m.requests[req.ID] = req.Owner
	run := req.Run
	return func() tea.Msg { return run() }
}

// deliver gives an answer to the screen that asked for it, wherever it is
// on the stack (inside a host, such as a group screen's tab, too). An answer
// whose screen is gone (closed, or replaced by a context switch) is
// dropped, as is one nobody asked for. The screen itself tells its latest
// request's answer from a late one.
func (m *Model) deliver(r ui.Reply) tea.Cmd {
	id := r.RequestID()
	owner, ok := m.requests[id]
	if !ok {
		return nil
	}
	delete(m.requests, id)
	if !onStack(m.stack, owner) {
		return nil
	}
	return owner.Update(r)
}

// onStack reports whether c is one of cs or hosted by one of them.
func onStack(cs []ui.Component, c ui.Component) bool {
	for _, s := range cs {
		if s == c {
			return true
		}
		if h, ok := s.(ui.Host); ok && onStack(h.Hosted(), c) {
			return true
		}
	}
	return false
}
