package ui

import "github.com/charmbracelet/bubbles/key"

// Screen names a key-map context: which bindings apply depends on the
// screen on top.
type Screen int

const (
	// ScreenGroups is the groups list.
	ScreenGroups Screen = iota
	// ScreenGroup is one group's partitions and members.
	ScreenGroup
	// ScreenHelp is the key reference.
	ScreenHelp
	// ScreenDialog is a modal dialog (the reset wizard, the member
	// removal dialog). It reads every key and draws its own key hints, so
	// the footer offers none of the screens' keys, which it would swallow.
	ScreenDialog
)

// KeyMap is every key kgroups understands. It is the single source of both
// key handling and help: the footer hints and the help screen are generated
// from it, and bindings that do not apply to the current screen are disabled
// so that they neither match nor show.
type KeyMap struct {
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Top      key.Binding
	Bottom   key.Binding

	Open        key.Binding
	Filter      key.Binding
	ClearFilter key.Binding
	SortName    key.Binding
	SortLag     key.Binding
	SortTimeLag key.Binding
	SortHealth  key.Binding
	SortState   key.Binding
	SortMembers key.Binding

	NextTab key.Binding
	PrevTab key.Binding
	Back    key.Binding
	// Exact toggles exact time lag (read from the record at each
	// committed offset) for the partitions on screen.
	Exact key.Binding
	// ChartScope switches the lag chart between the whole group and the
	// selected partition.
	ChartScope key.Binding

	// Actions that write to the cluster, offered by the screens as
	// Dangerous actions: reset a group's offsets (or the selected
	// partitions'), seek one partition, delete a group, remove members.
	Reset        key.Binding
	Seek         key.Binding
	Delete       key.Binding
	RemoveMember key.Binding
	RemoveAll    key.Binding
	// Select marks partitions for a reset.
	Select key.Binding

	Refresh key.Binding
	Pause   key.Binding
	Command key.Binding
	Help    key.Binding
	Quit    key.Binding

	// Hints that summarise several bindings in the footer.
	moveHint key.Binding
	sortHint key.Binding
	tabHint  key.Binding
}

// Section is a titled group of bindings on the help screen.
type Section struct {
	Title    string
	Bindings []key.Binding
}

// DefaultKeyMap returns the k9s-style bindings, enabled for the groups
// screen.
func DefaultKeyMap() *KeyMap {
	k := &KeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+b"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+f"), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "first row")),
		Bottom:   key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "last row")),

		Open:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		ClearFilter: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		SortName:    key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "sort by name")),
		SortLag:     key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "sort by lag")),
		SortTimeLag: key.NewBinding(key.WithKeys("T"), key.WithHelp("T", "sort by time lag")),
		SortHealth:  key.NewBinding(key.WithKeys("H"), key.WithHelp("H", "sort by health")),
		SortState:   key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "sort by state")),
		SortMembers: key.NewBinding(key.WithKeys("M"), key.WithHelp("M", "sort by members")),

		NextTab:    key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next tab")),
		PrevTab:    key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous tab")),
		Back:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Exact:      key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "exact time lag")),
		ChartScope: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "chart group/partition")),

		Reset:        key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "reset offsets")),
		Seek:         key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "seek partition")),
		Delete:       key.NewBinding(key.WithKeys("D"), key.WithHelp("D", "delete group")),
		RemoveMember: key.NewBinding(key.WithKeys("X"), key.WithHelp("X", "remove member")),
		RemoveAll:    key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "remove all members")),
		Select:       key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "select partition")),

		Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		Pause:   key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pause")),
		Command: key.NewBinding(key.WithKeys(":"), key.WithHelp(":", "command")),
		Help:    key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:    key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),

		moveHint: key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑↓", "move")),
		sortHint: key.NewBinding(key.WithKeys("N", "L", "T", "H", "S", "M"), key.WithHelp("NLTHSM", "sort")),
		tabHint:  key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "switch tab")),
	}
	k.SetScreen(ScreenGroups)
	return k
}

// SetASCII replaces the arrows in help texts for terminals without UTF-8.
func (k *KeyMap) SetASCII() {
	k.Up.SetHelp("k/up", "up")
	k.Down.SetHelp("j/down", "down")
	k.moveHint.SetHelp("j/k", "move")
}

// SetScreen enables the bindings that apply to s and disables the rest.
func (k *KeyMap) SetScreen(s Screen) {
	groups, group, help, dialog := s == ScreenGroups, s == ScreenGroup, s == ScreenHelp, s == ScreenDialog
	for _, b := range []*key.Binding{&k.Up, &k.Down, &k.PageUp, &k.PageDown, &k.Top, &k.Bottom, &k.moveHint, &k.Refresh, &k.Pause, &k.Command, &k.Help} {
		b.SetEnabled(!dialog)
	}
	for _, b := range []*key.Binding{&k.Open, &k.Filter, &k.ClearFilter, &k.SortName, &k.SortLag, &k.SortTimeLag, &k.SortHealth, &k.SortState, &k.SortMembers, &k.sortHint} {
		b.SetEnabled(groups)
	}
	for _, b := range []*key.Binding{&k.NextTab, &k.PrevTab, &k.tabHint, &k.Exact, &k.ChartScope, &k.Seek, &k.Select, &k.RemoveMember, &k.RemoveAll} {
		b.SetEnabled(group)
	}
	k.Reset.SetEnabled(groups || group)
	k.Delete.SetEnabled(groups)
	k.Back.SetEnabled(group || help)
	// A dialog takes q as text: only Ctrl+C quits there.
	if dialog {
		k.Quit.SetHelp("ctrl+c", "quit")
	} else {
		k.Quit.SetHelp("q", "quit")
	}
	if help {
		k.Help.SetHelp("?", "close help")
	} else {
		k.Help.SetHelp("?", "help")
	}
}

// SetPaused makes the pause binding say what pressing it will do.
func (k *KeyMap) SetPaused(paused bool) {
	if paused {
		k.Pause.SetHelp("p", "resume")
	} else {
		k.Pause.SetHelp("p", "pause")
	}
}

// ShortHelp is the footer: the keys worth knowing on the current screen.
func (k *KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.Back, k.tabHint, k.Filter, k.sortHint, k.Help, k.Refresh, k.Pause, k.Command, k.Quit}
}

// FullHelp is the help screen, one column per section.
func (k *KeyMap) FullHelp() [][]key.Binding {
	secs := k.Sections()
	out := make([][]key.Binding, len(secs))
	for i, s := range secs {
		out[i] = s.Bindings
	}
	return out
}

// Sections groups the bindings under titles for the help screen.
func (k *KeyMap) Sections() []Section {
	return []Section{
		{Title: "Move", Bindings: []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}},
		{Title: "Groups", Bindings: []key.Binding{k.Open, k.Filter, k.ClearFilter, k.SortName, k.SortLag, k.SortTimeLag, k.SortHealth, k.SortState, k.SortMembers}},
		{Title: "Group", Bindings: []key.Binding{k.NextTab, k.PrevTab, k.Back, k.Exact, k.ChartScope}},
		{Title: "General", Bindings: []key.Binding{k.Refresh, k.Pause, k.Command, k.Help, k.Quit}},
	}
}

// LagLegend explains the marks on time lags and the health verdicts, for the
// help screen. Its entries are not keys: they are what cells show.
func LagLegend(g Glyphs) Section {
	entry := func(mark, desc string) key.Binding {
		return key.NewBinding(key.WithHelp(mark, desc))
	}
	return Section{Title: "Time lag and health", Bindings: []key.Binding{
		entry("12s", "estimated from log-end growth"),
		entry("~12s", "extrapolated past the oldest poll"),
		entry(g.AtLeast+"12s", "at least (the log end did not move)"),
		entry("=12s", "read from the record (x)"),
		entry("-", "unknown, or too few polls to judge"),
		entry("OK", "lag shrinks, or none"),
		entry("WARN", "lag never shrank over the window"),
		entry("ERR", "STALL, STOP or REWIND: see the group"),
	}}
}
