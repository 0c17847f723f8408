package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/ui"
)

// globalKeys are the keys that mean the same on every screen, defined once,
// here: the screens define their own. Esc and q go back from every pushed
// screen that does not bind them itself; q on the groups screen, :q and
// Ctrl+C quit.
type globalKeys struct {
	Help      key.Binding
	CloseHelp key.Binding
	Command   key.Binding
	Refresh   key.Binding
	Pause     key.Binding
	Resume    key.Binding
	Quit      key.Binding
	// QBack is q on a pushed screen; Back is Esc there.
	QBack key.Binding
	Back  key.Binding
	// Interrupt quits from anywhere, even while a screen reads every key.
	Interrupt key.Binding
}

// escKey and qKey are Esc and q, for asking whether a screen binds them.
var (
	escKey = tea.KeyMsg{Type: tea.KeyEsc}
	qKey   = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'q'}}
)

func newGlobalKeys() globalKeys {
	return globalKeys{
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		CloseHelp: key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "close help")),
		Command:   key.NewBinding(key.WithKeys(":"), key.WithHelp(":", "command")),
		Refresh:   key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		Pause:     key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pause")),
		Resume:    key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "resume")),
		Quit:      key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		QBack:     key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "back")),
		Back:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Interrupt: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
	}
}

// Footer ranks: the footer drops the highest rank first until the line
// fits; mustStay entries are never dropped.
const (
	mustStay   = 0
	rankResume = 1  // a paused refresh is state the user must see
	rankOwn    = 10 // the screen's keys, in the order it gives them
	rankGlobal = 1000
)

// hint is one footer entry and how much it matters.
type hint struct {
	b    key.Binding
	rank int
}

// footerKeys are the footer's hints with top on the stack, cut to width:
// the screen's own keys (most important first), then help, refresh,
// pause, command and quit (or back). `? help` and `q quit`/`q back` always
// stay; the rest go, the least important first, until the line fits.
// While top reads every key only its own and Ctrl+C are left.
func (m *Model) footerKeys(top ui.Component, width int) []key.Binding {
	k := &m.keys
	own := m.ownHints(top)
	if top.Capturing() {
		return append(own, k.Interrupt)
	}
	hs := make([]hint, 0, len(own)+5)
	for i, b := range own {
		hs = append(hs, hint{b, rankOwn + i})
	}
	help, pause, pauseRank := k.Help, k.Pause, rankGlobal+2
	if m.helpOpen() {
		help = k.CloseHelp
	}
	if m.poll.paused {
		pause, pauseRank = k.Resume, rankResume
	}
	quit := k.Quit
	if m.pushed() {
		quit = k.QBack
	}
	if m.replay != nil {
		rk := &m.rkeys
		hs = append(hs, hint{help, mustStay}, hint{rk.Play, rankGlobal - 1}, hint{rk.Back, rankGlobal + 3}, hint{rk.Forward, rankGlobal + 3}, hint{rk.NextChange, rankGlobal + 2}, hint{k.Command, rankGlobal}, hint{quit, mustStay})
		return fitHints(hs, width, format.Width(m.hints.ShortSeparator))
	}
	hs = append(hs, hint{help, mustStay}, hint{k.Refresh, rankGlobal + 1}, hint{pause, pauseRank}, hint{k.Command, rankGlobal}, hint{quit, mustStay})
	return fitHints(hs, width, format.Width(m.hints.ShortSeparator))
}

// ownHints are the screen's footer keys, less the Dangerous actions a
// read-only context disables: they do not apply.
func (m *Model) ownHints(top ui.Component) []key.Binding {
	own := top.ShortHelp()
	if !m.base.ReadOnly {
		return append([]key.Binding(nil), own...)
	}
	out := make([]key.Binding, 0, len(own))
	acts := top.Actions()
	for _, b := range own {
		if !disabledAction(acts, b) {
			out = append(out, b)
		}
	}
	return out
}

// disabledAction reports whether b is the key of a Dangerous action.
func disabledAction(acts []ui.Action, b key.Binding) bool {
	for _, a := range acts {
		if a.Dangerous && sameKeys(a.Key.Keys(), b.Keys()) {
			return true
		}
	}
	return false
}

func sameKeys(a, b []string) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// fitHints drops hints, the highest rank first (the later of equal ranks
// first), until what is left fits in width with sep cells between
// entries; the order of those left is kept.
func fitHints(hs []hint, width, sep int) []key.Binding {
	size := func(h hint) int { return format.Width(h.b.Help().Key) + 1 + format.Width(h.b.Help().Desc) }
	total := -sep
	for _, h := range hs {
		total += size(h) + sep
	}
	for total > width {
		drop := -1
		for i, h := range hs {
			if h.rank != mustStay && (drop < 0 || h.rank >= hs[drop].rank) {
				drop = i
			}
		}
		if drop < 0 {
			break
		}
		total -= size(hs[drop]) + sep
		hs = append(hs[:drop], hs[drop+1:]...)
	}
	out := make([]key.Binding, len(hs))
	for i, h := range hs {
		out[i] = h.b
	}
	return out
}

// pushed reports whether a screen is open over the groups screen.
func (m *Model) pushed() bool { return len(m.stack) > 1 }

// goesBack reports whether Esc goes back from top: top is a pushed screen
// that does not bind Esc itself.
func (m *Model) goesBack(top ui.Component) bool {
	return m.pushed() && !ui.Binds(top.Bindings(), top.Actions(), escKey)
}

// qGoesBack reports whether q goes back from top: top is a pushed screen
// that does not bind q itself.
func (m *Model) qGoesBack(top ui.Component) bool {
	return m.pushed() && !ui.Binds(top.Bindings(), top.Actions(), qKey)
}

// generalSection is the help's section of global keys, for a help screen
// opened over top.
func (m *Model) generalSection(top ui.Component) ui.Section {
	k := &m.keys
	var bs []key.Binding
	back := m.goesBack(top)
	if back {
		bs = append(bs, k.Back)
	}
	if m.qGoesBack(top) {
		bs = append(bs, k.QBack)
	} else {
		bs = append(bs, k.Quit)
	}
	if m.replay != nil {
		return ui.Section{Title: "General", Bindings: append(append(bs, m.rkeys.all()...), k.Command, k.Help, k.Interrupt)}
	}
	pause := k.Pause
	if m.poll.paused {
		pause = k.Resume
	}
	return ui.Section{Title: "General", Bindings: append(bs, k.Refresh, pause, k.Command, k.Help, k.Interrupt)}
}

// elsewhere says where a key that does nothing on this screen does
// something, so that pressing it explains itself instead of doing nothing
// silently. Keys not listed get the generic answer.
var elsewhere = map[string]string{
	"/":         "/ filters on the groups screen and on a group's Partitions and Members tabs",
	"n":         "n steps through filter matches; on the Simulate tab n adds a member",
	"N":         "N sorts the groups screen by name, or steps back through filter matches",
	"L":         "L sorts the groups screen by lag",
	"T":         "T sorts the groups screen by time lag",
	"H":         "H sorts the groups screen by health",
	"S":         "S sorts the groups screen by state",
	"M":         "M sorts the groups screen by members",
	"enter":     "enter opens the group under the cursor on the groups screen",
	"tab":       "tab switches the group screen's tabs",
	"shift+tab": "shift+tab switches the group screen's tabs",
	"R":         "R resets offsets from the groups screen or a group's Partitions tab",
	"D":         "D deletes a group from the groups screen",
	" ":         "space selects partitions on a group's Partitions tab",
	"e":         "e seeks a partition on a group's Partitions tab",
	"x":         "x (exact time lag) works on a group's Partitions, Members and Chart tabs",
	"c":         "c charts the group or a partition from a group's Partitions, Members and Chart tabs",
	"X":         "X removes a member on a group's Members tab",
	"A":         "A removes every member on a group's Members tab",
	"l":         "l simulates a member leaving on a group's Simulate tab",
	"a":         "a shows the next assignor on a group's Simulate tab",
}

// deadKey tells the user that msg does nothing on this screen, and where
// it does something. Only keys one types on purpose are answered: a
// letter, space, Enter, Tab.
func (m *Model) deadKey(msg tea.KeyMsg) tea.Cmd {
	switch msg.Type {
	case tea.KeyRunes, tea.KeySpace, tea.KeyEnter, tea.KeyTab, tea.KeyShiftTab:
	default:
		return nil
	}
	if msg.Alt || msg.Paste {
		return nil
	}
	name := msg.String()
	if msg.Type == tea.KeySpace {
		name = " "
	}
	if why, ok := elsewhere[name]; ok {
		m.flash = ui.FlashMsg{Text: why}
		return nil
	}
	if msg.Type == tea.KeySpace {
		name = "space"
	}
	m.flash = ui.FlashMsg{Text: name + " does nothing here; ? lists this screen's keys"}
	return nil
}
