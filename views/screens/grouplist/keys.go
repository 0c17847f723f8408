package grouplist

import "github.com/charmbracelet/bubbles/key"

// keyMap is the groups screen's bindings: k9s-style filter and
// Shift+letter sorts, and the keys of its actions.
type keyMap struct {
	Open        key.Binding
	Filter      key.Binding
	ClearFilter key.Binding
	SortName    key.Binding
	SortLag     key.Binding
	SortTimeLag key.Binding
	SortHealth  key.Binding
	SortState   key.Binding
	SortMembers key.Binding
	Reset       key.Binding
	Delete      key.Binding
	// NextMatch and PrevMatch step through the rows that match while a
	// filter is kept; N then no longer sorts.
	NextMatch key.Binding
	PrevMatch key.Binding

	// matchNote tells the help what n and N do while no filter is kept,
	// when they are bound to nothing: it has no keys, so it binds none.
	matchNote key.Binding

	// The footer's entries: sortHint stands for every sort key, and
	// filteredSort for those left while a filter is kept.
	sortHint, filteredSort, matchHint, clearHint key.Binding
	resetHint, deleteHint                        key.Binding
}

func newKeyMap() keyMap {
	return keyMap{
		Open:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		ClearFilter: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		SortName:    key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "sort by name")),
		SortLag:     key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "sort by lag")),
		SortTimeLag: key.NewBinding(key.WithKeys("T"), key.WithHelp("T", "sort by time lag")),
		SortHealth:  key.NewBinding(key.WithKeys("H"), key.WithHelp("H", "sort by health")),
		SortState:   key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "sort by state")),
		SortMembers: key.NewBinding(key.WithKeys("M"), key.WithHelp("M", "sort by members")),
		Reset:       key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "reset offsets")),
		Delete:      key.NewBinding(key.WithKeys("D"), key.WithHelp("D", "delete group")),
		NextMatch:   key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next match (with a filter)")),
		PrevMatch:   key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "previous match (with a filter)")),

		matchNote:    key.NewBinding(key.WithHelp("n/N", "next/previous match (with a filter)")),
		sortHint:     key.NewBinding(key.WithKeys("N", "L", "T", "H", "S", "M"), key.WithHelp("NLTHSM", "sort")),
		filteredSort: key.NewBinding(key.WithKeys("L", "T", "H", "S", "M"), key.WithHelp("LTHSM", "sort")),
		matchHint:    key.NewBinding(key.WithKeys("n", "N"), key.WithHelp("n/N", "match")),
		clearHint:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear")),
		resetHint:    key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "reset")),
		deleteHint:   key.NewBinding(key.WithKeys("D"), key.WithHelp("D", "delete")),
	}
}
