// Package ui holds the contracts the kgroups root program and its screens
// share: the component interface, the common context every screen embeds, the
// messages screens use to navigate and to ask for work off the UI loop,
// actions, the movement keys, styles and glyphs. It imports no screen and no
// root, so screens (views/...) and the root (tui) can both depend on it
// without a cycle.
package ui

import (
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// Common is the context every screen embeds: its size, the styles and glyphs
// built once at start-up, the movement keys, and whether the cluster may be
// written to. The root builds a new one whenever the context switches, so a
// screen never sees a stale read-only flag.
type Common struct {
	// Width and Height are the screen's own area, set by SetSize.
	Width, Height int
	Styles        *Styles
	Glyphs        Glyphs
	// Move are the movement keys, for screens that move or scroll.
	Move MoveKeys
	// ReadOnly disables every Dangerous action.
	ReadOnly bool
	// Protected asks for typed confirmation before a Dangerous action.
	Protected bool
	// Now is the clock screens use to show ages; tests fix it.
	Now func() time.Time
}

// NewCommon builds the context for a terminal: styles for renderer r (in
// colour unless color is false, for NO_COLOR), glyphs and key help for its
// locale, and the clock. The root builds every screen's context with it, and
// so do the screens' tests, so a screen under test is the screen the user
// gets.
func NewCommon(r *lipgloss.Renderer, color, utf8 bool, now func() time.Time) Common {
	return Common{
		Styles: NewStyles(r, DefaultTheme(), color),
		Glyphs: GlyphsFor(utf8),
		Move:   NewMoveKeys(utf8),
		Now:    now,
	}
}

// SetSize records the area the root gives the screen.
func (c *Common) SetSize(width, height int) {
	c.Width, c.Height = width, height
}

// Component is one screen (or part of one). Screens are pointers mutated by
// Update, as Bubble Tea calls Update and View from one goroutine.
type Component interface {
	// Update handles a message and returns follow-up work. Polls
	// (DataMsg) reach every component on the stack; answers to a
	// component's own Requests reach it alone; keys reach the one on top.
	Update(msg tea.Msg) tea.Cmd
	// View renders exactly the component's area; it must be cheap and
	// touch only the visible rows.
	View() string
	// SetSize gives the component its area.
	SetSize(width, height int)
	// Capturing reports that the component reads every key (a filter
	// being typed, a modal dialog), so the root must pass keys through
	// instead of treating them as its own; only Ctrl+C still quits.
	Capturing() bool
	// Actions are the operations the screen offers on its selection.
	Actions() []Action
	// Bindings are the screen's other keys, in titled sections: the help
	// screen lists them with the actions and the root's global keys. A
	// key the screen binds here is its own: Esc or q, when bound, is not
	// "back". A key bound neither here nor by an action never reaches
	// the screen: the root says where it works instead.
	Bindings() []Section
	// ShortHelp are the keys the footer offers, before the root's
	// global ones, most important first: on a narrow terminal the root
	// drops them from the end (never `? help` and `q`). The words are
	// short; the help has the long ones (Bindings, Actions).
	ShortHelp() []key.Binding
}
