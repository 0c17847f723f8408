// Package ui holds the contracts the kgroups root program and its screens
// share: the component interface, the common context every screen embeds, the
// messages screens use to navigate, the one key map, actions, styles and
// glyphs. It imports no screen and no root, so screens (views/...) and the
// root (tui) can both depend on it without a cycle.
package ui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// Common is the context every screen embeds: its size, the styles and glyphs
// built once at start-up, the key map, and whether the cluster may be
// written to. The root builds a new one whenever the context switches, so a
// screen never sees a stale read-only flag.
type Common struct {
	// Width and Height are the screen's own area, set by SetSize.
	Width, Height int
	Styles        *Styles
	Glyphs        Glyphs
	Keys          *KeyMap
	// ReadOnly disables every Dangerous action.
	ReadOnly bool
	// Protected asks for typed confirmation before a Dangerous action.
	Protected bool
	// Now is the clock screens use to show ages; tests fix it.
	Now func() time.Time
}

// SetSize records the area the root gives the screen.
func (c *Common) SetSize(width, height int) {
	c.Width, c.Height = width, height
}

// Component is one screen (or part of one). Screens are pointers mutated by
// Update, as Bubble Tea calls Update and View from one goroutine.
type Component interface {
	// Update handles a message and returns follow-up work. Async results
	// reach every component on the stack, focused or not.
	Update(msg tea.Msg) tea.Cmd
	// View renders exactly the component's area; it must be cheap and
	// touch only the visible rows.
	View() string
	// SetSize gives the component its area.
	SetSize(width, height int)
	// Capturing reports that the component is reading text (a filter), so
	// the root must pass printable keys through instead of treating them
	// as commands.
	Capturing() bool
	// Actions are the operations the screen offers on its selection.
	Actions() []Action
	// Screen says which key-map context applies while the component is on
	// top.
	Screen() Screen
}
