package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/views/ui"
)

// globalKeys are the keys that mean the same on every screen, defined once,
// here: the screens define their own. Esc goes back from every pushed
// screen that does not bind Esc itself.
type globalKeys struct {
	Help      key.Binding
	CloseHelp key.Binding
	Command   key.Binding
	Refresh   key.Binding
	Pause     key.Binding
	Resume    key.Binding
	Quit      key.Binding
	Back      key.Binding
	// Interrupt is the only way out while a screen reads every key.
	Interrupt key.Binding
}

// escKey is Esc, for asking whether a screen binds it.
var escKey = tea.KeyMsg{Type: tea.KeyEsc}

func newGlobalKeys() globalKeys {
	return globalKeys{
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		CloseHelp: key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "close help")),
		Command:   key.NewBinding(key.WithKeys(":"), key.WithHelp(":", "command")),
		Refresh:   key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		Pause:     key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pause")),
		Resume:    key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "resume")),
		Quit:      key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Back:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Interrupt: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
	}
}

// footerKeys are the footer's hints with top on the stack: back (when Esc
// goes back), the screen's own, then help, refresh, pause, command and
// quit. While top reads every key only its own and Ctrl+C are left.
func (m *Model) footerKeys(top ui.Component) []key.Binding {
	k := &m.keys
	own := top.ShortHelp()
	out := make([]key.Binding, 0, len(own)+6)
	if top.Capturing() {
		return append(append(out, own...), k.Interrupt)
	}
	if m.goesBack(top) {
		out = append(out, k.Back)
	}
	out = append(out, own...)
	help, pause := k.Help, k.Pause
	if m.helpOpen() {
		help = k.CloseHelp
	}
	if m.poll.paused {
		pause = k.Resume
	}
	return append(out, help, k.Refresh, pause, k.Command, k.Quit)
}

// goesBack reports whether Esc goes back from top: top is a pushed screen
// that does not bind Esc itself.
func (m *Model) goesBack(top ui.Component) bool {
	return len(m.stack) > 1 && !ui.Binds(top.Bindings(), top.Actions(), escKey)
}

// generalSection is the help's section of global keys, for a help screen
// opened over top.
func (m *Model) generalSection(top ui.Component) ui.Section {
	k := &m.keys
	var bs []key.Binding
	if m.goesBack(top) {
		bs = append(bs, k.Back)
	}
	pause := k.Pause
	if m.poll.paused {
		pause = k.Resume
	}
	return ui.Section{Title: "General", Bindings: append(bs, k.Refresh, pause, k.Command, k.Help, k.Quit)}
}
