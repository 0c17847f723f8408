package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Section is a titled group of bindings, as the help screen lists them.
// Screens return their own (Component.Bindings); the root adds its global
// keys, so no list of every key exists anywhere.
type Section struct {
	Title    string
	Bindings []key.Binding
}

// MoveKeys move a table's cursor or scroll a text. They are defined once,
// here, so that every screen moves the same way; each screen that moves
// lists them among its own bindings.
type MoveKeys struct {
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Top      key.Binding
	Bottom   key.Binding
}

// NewMoveKeys returns the movement keys; without UTF-8 their help says
// "k/up" instead of drawing an arrow.
func NewMoveKeys(utf8 bool) MoveKeys {
	up, down := "↑/k", "↓/j"
	if !utf8 {
		up, down = "k/up", "j/down"
	}
	return MoveKeys{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp(up, "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp(down, "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+b"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+f"), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "first row")),
		Bottom:   key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "last row")),
	}
}

// Section is the help's "Move" section.
func (k *MoveKeys) Section() Section {
	return Section{Title: "Move", Bindings: []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}}
}

// Binds reports whether one of the enabled bindings in secs or one of the
// actions matches msg: whether a screen answers to that key itself. The
// root asks before it gives Esc its default meaning (back).
func Binds(secs []Section, actions []Action, msg tea.KeyMsg) bool {
	for _, s := range secs {
		for _, b := range s.Bindings {
			if key.Matches(msg, b) {
				return true
			}
		}
	}
	for _, a := range actions {
		if key.Matches(msg, a.Key) {
			return true
		}
	}
	return false
}

// LagLegend explains the marks on time lags and the health verdicts, for the
// help screen. Its entries are not keys: they are what cells show.
func LagLegend(g Glyphs) Section {
	entry := func(mark, desc string) key.Binding {
		return key.NewBinding(key.WithHelp(mark, desc))
	}
	return Section{Title: "Time lag and health", Bindings: []key.Binding{
		entry("12s", "interpolated between two polls"),
		entry(g.AtLeast+"12s", "at least: older than the polls, not read yet"),
		entry("=12s", "read from the record at the commit"),
		entry("-", "unknown, or too few polls to judge"),
		entry("OK", "keeping up, or no lag"),
		entry("WARN", "falling behind: slower than producers, time lag grows"),
		entry("ERR", "STALL, STOP or REWIND: see the group"),
	}}
}
