package group

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/kgroups/kgroups/views/ui"
)

// keyMap is the group screen's bindings: its tabs, the chart's scope, and
// the keys of its actions.
type keyMap struct {
	NextTab key.Binding
	PrevTab key.Binding
	// ChartScope switches the lag chart between the whole group and the
	// selected partition.
	ChartScope key.Binding
	// Exact toggles exact time lag (read from the record at each
	// committed offset) for the partitions on screen.
	Exact key.Binding

	// The actions that write, offered as Dangerous: reset the selected
	// partitions, seek one, remove members. Select marks partitions for
	// a reset.
	Select       key.Binding
	Reset        key.Binding
	Seek         key.Binding
	RemoveMember key.Binding
	RemoveAll    key.Binding

	// tabHint stands for both tab keys in the footer.
	tabHint key.Binding
}

func newKeyMap() keyMap {
	return keyMap{
		NextTab:      key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next tab")),
		PrevTab:      key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous tab")),
		ChartScope:   key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "chart group/partition")),
		Exact:        key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "toggle exact time lag")),
		Select:       key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "select partition")),
		Reset:        key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "reset offsets")),
		Seek:         key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "seek partition")),
		RemoveMember: key.NewBinding(key.WithKeys("X"), key.WithHelp("X", "remove member")),
		RemoveAll:    key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "remove all members")),
		tabHint:      key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "switch tab")),
	}
}

// Bindings implements ui.Component: the tab keys, and the keys of the tab
// on show (an extra tab lists its own).
func (m *Model) Bindings() []ui.Section {
	k := &m.keys
	if e := m.active(); e != nil {
		return append([]ui.Section{{Title: "Group", Bindings: []key.Binding{k.NextTab, k.PrevTab}}}, e.Bindings()...)
	}
	return []ui.Section{
		m.Move.Section(),
		{Title: "Group", Bindings: []key.Binding{k.NextTab, k.PrevTab, k.ChartScope}},
	}
}

// ShortHelp implements ui.Component.
func (m *Model) ShortHelp() []key.Binding {
	return []key.Binding{m.keys.tabHint}
}
