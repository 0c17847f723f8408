package groupdetail

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/ui"
)

// keyMap is the group screen's bindings: its tabs, the chart's scope, the
// filter of the Partitions and Members tabs, and the keys of its actions.
type keyMap struct {
	NextTab key.Binding
	PrevTab key.Binding
	// ChartScope switches the lag chart between the whole group and the
	// selected partition.
	ChartScope key.Binding
	// Exact toggles exact time lag (read from the record at each
	// committed offset) for the partitions on screen.
	Exact key.Binding

	// Filter narrows the Partitions or Members tab; ClearFilter (Esc)
	// drops a kept filter before Esc goes back; NextMatch and PrevMatch
	// step through the rows that match while a filter is kept.
	Filter      key.Binding
	ClearFilter key.Binding
	NextMatch   key.Binding
	PrevMatch   key.Binding
	// matchNote tells the help what n and N do while no filter is kept;
	// it has no keys, so it binds none.
	matchNote key.Binding

	// The actions that write, offered as Dangerous: reset the selected
	// partitions, seek one, remove members. Select marks partitions for
	// a reset.
	Select       key.Binding
	Reset        key.Binding
	Seek         key.Binding
	RemoveMember key.Binding
	RemoveAll    key.Binding
	// View opens the record viewer on the record at the partition's
	// committed offset: it only reads.
	View key.Binding

	// hints are the footer's short words for the keys above.
	hints footerHints
}

// footerHints are the footer's entries: the same keys as the bindings,
// with words short enough for an 80-column line.
type footerHints struct {
	tab, scope, exact, filter, clear, match key.Binding
	sel, reset, seek, removeOne, removeAll  key.Binding
	view                                    key.Binding
}

func newKeyMap() keyMap {
	short := func(k, help string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, help))
	}
	return keyMap{
		NextTab:      key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next tab")),
		PrevTab:      key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous tab")),
		ChartScope:   key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "chart group/partition")),
		Exact:        key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "toggle exact time lag")),
		Filter:       key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter the tab")),
		ClearFilter:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		NextMatch:    key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next match")),
		PrevMatch:    key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "previous match")),
		matchNote:    key.NewBinding(key.WithHelp("n/N", "next/previous match (with a filter)")),
		Select:       key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "select partition")),
		Reset:        key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "reset offsets")),
		Seek:         key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "seek partition")),
		RemoveMember: key.NewBinding(key.WithKeys("X"), key.WithHelp("X", "remove member")),
		RemoveAll:    key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "remove all members")),
		View:         key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "view the record at the committed offset")),
		hints: footerHints{
			tab:       short("tab", "tabs", "tab"),
			scope:     short("c", "chart", "c"),
			exact:     short("x", "exact", "x"),
			filter:    short("/", "filter", "/"),
			clear:     short("esc", "clear", "esc"),
			match:     short("n/N", "match", "n", "N"),
			sel:       short("space", "select", " "),
			reset:     short("R", "reset", "R"),
			seek:      short("e", "seek", "e"),
			removeOne: short("X", "remove", "X"),
			removeAll: short("A", "remove all", "A"),
			view:      short("v", "view", "v"),
		},
	}
}

// Bindings implements ui.Component: the tab keys, and the keys of the tab
// on show (an extra tab lists its own). The filter keys are the Partitions
// and Members tabs'; Esc, n and N are bound only while a filter is kept,
// so that otherwise Esc goes back.
func (m *Model) Bindings() []ui.Section {
	k := &m.keys
	if e := m.active(); e != nil {
		return append([]ui.Section{{Title: "Group", Bindings: []key.Binding{k.NextTab, k.PrevTab}}}, e.Bindings()...)
	}
	secs := []ui.Section{
		m.Move.Section(),
		{Title: "Group", Bindings: []key.Binding{k.NextTab, k.PrevTab, k.ChartScope}},
	}
	if _, ok := m.filterTab(); ok {
		bs := []key.Binding{k.Filter, k.matchNote}
		if m.filterKept() {
			bs = []key.Binding{k.Filter, k.ClearFilter, k.NextMatch, k.PrevMatch}
		}
		secs = append(secs, ui.Section{Title: "Filter", Bindings: bs})
	}
	return secs
}

// ShortHelp implements ui.Component: the keys of the tab on show, most
// important first (the footer cuts from the end on a narrow terminal).
// Tab, the way to every other tab, comes first, after a kept filter's
// keys. While a filter is typed its line says what Enter and Esc do.
func (m *Model) ShortHelp() []key.Binding {
	h := &m.keys.hints
	if e := m.active(); e != nil {
		return append([]key.Binding{h.tab}, e.ShortHelp()...)
	}
	if m.filter.typing {
		return nil
	}
	var out []key.Binding
	if m.filterKept() {
		out = append(out, h.clear, h.match)
	}
	out = append(out, h.tab)
	switch m.tab {
	case Partitions:
		out = append(out, h.reset, h.sel, h.seek, h.view, h.exact, h.filter, h.scope)
	case Members:
		// Only a type whose members can be removed offers X and A (a
		// share group's cannot: each key would only say so).
		if m.g == nil || m.g.Type.Supports(kafka.ActionRebalance) {
			out = append(out, h.removeOne, h.removeAll)
		}
		out = append(out, h.exact, h.filter, h.scope)
	case Chart:
		out = append(out, h.scope, h.exact)
	}
	return out
}
