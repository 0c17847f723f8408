package ui

import (
	"sync/atomic"

	tea "github.com/charmbracelet/bubbletea"
)

// requestIDs numbers async requests across every screen and context, so an
// answer can only ever match the request that asked for it, even when the
// same group's screen is closed and opened again or the context switches.
var requestIDs atomic.Uint64

// NewRequestID returns a request ID never returned before. It is the one
// source of request IDs: every answer a screen waits for carries one.
func NewRequestID() uint64 { return requestIDs.Add(1) }

// Reply is an answer to a request: it names the request it answers. The
// root delivers a Reply to the component that made the request, wherever it
// is on the stack, and drops it when that component is gone.
type Reply interface {
	RequestID() uint64
}

// Request asks the root to run work off the UI loop and to deliver its
// Reply to Owner alone. Run captures copies of what it needs, never the
// live model: it runs in a Cmd, on another goroutine.
type Request struct {
	ID    uint64
	Owner Component
	Run   func() Reply
}

// Ask makes a Request for owner: run is called with the new request's ID,
// in a Cmd, and returns the Reply. The owner keeps the ID to tell its
// latest request's answer from a late one.
func Ask(owner Component, run func(id uint64) Reply) (id uint64, cmd tea.Cmd) {
	id = NewRequestID()
	req := Request{ID: id, Owner: owner, Run: func() Reply { return run(id) }}
	return id, func() tea.Msg { return req }
}

// Host is a component that shows others inside itself (the group screen's
// tabs). The root looks inside hosts to find the owner of an answer.
type Host interface {
	Hosted() []Component
}
