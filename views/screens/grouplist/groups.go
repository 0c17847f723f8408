// Package grouplist is the groups screen: one row per consumer group in the
// cluster, with state, membership, lag and its trend, filtered and sorted as
// the user asks.
package grouplist

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/watch"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/widgets/table"
)

// SortKey is what the table is ordered by.
type SortKey int

const (
	// ByName orders by group name.
	ByName SortKey = iota
	// ByLag orders by total lag; a lag that cannot be measured (unknown,
	// or WARN NO-COMMITS) ranks above every measured one.
	ByLag
	// ByState orders by state name.
	ByState
	// ByMembers orders by member count.
	ByMembers
	// ByTimeLag orders by the largest time lag.
	ByTimeLag
	// ByHealth orders by verdict, worst first: ERR (STOP, REWIND,
	// STALL), WARN NO-COMMITS, unknown, WARN, JUDGING, OK (see
	// compareGroups).
	ByHealth
)

// Model is the groups screen.
type Model struct {
	ui.Common
	keys keyMap

	snap  *kafka.Snapshot
	hist  ui.LagHistory
	lower []string // lower-cased names, for the filter
	lags  []int64  // total lag per group, kafka.NoOffset when unknown
	// health is the verdict per group: the tracker's own verdicts of
	// the poll when it lends them (lag.Tracker.Verdicts), never written
	// here.
	health  []lag.Verdict
	lastReb []time.Time       // when each group last finished a rebalance (zero: none seen)
	glance  []diagnose.Glance // the findings at a glance per group (diagnose.GlanceAt)
	buf     []lag.PartitionHealth
	rows    []int // indices into snap.Groups after filter and sort

	filter    ui.Input
	filtering bool

	sortBy SortKey
	desc   bool

	win      table.Window
	selected string // name under the cursor, kept across polls and sorts

	counts []stateCount

	table  table.Table[row]
	titles []string
	series []int64
}

// New returns an empty groups screen waiting for data.
func New(c ui.Common) *Model {
	m := &Model{Common: c, keys: newKeyMap()}
	m.table.Cols = m.newColumns()
	m.table.GrowOnly = true
	m.titles = make([]string, len(m.table.Cols))
	for i, col := range m.table.Cols {
		m.titles[i] = col.Title
	}
	m.filter.Prompt = "/"
	m.setSort(ByName, false)
	return m
}

// Capturing is true while the filter is being typed.
func (m *Model) Capturing() bool { return m.filtering }

// Bindings implements ui.Component: movement, the filter and the sorts.
// Esc clears the filter: the groups screen is the first, so it goes back
// nowhere. While a filter is kept, n and N step through the matches and
// N does not sort; without one, n is bound to nothing, and the help says
// what it does with a filter.
func (m *Model) Bindings() []ui.Section {
	k := &m.keys
	kept := m.filter.Value() != ""
	bs := []key.Binding{k.Filter, k.ClearFilter, k.NextMatch, k.PrevMatch, k.SortLag, k.SortTimeLag, k.SortHealth, k.SortState, k.SortMembers}
	if !kept {
		bs[2], bs[3] = k.matchNote, k.SortName
	}
	return []ui.Section{m.Move.Section(), {Title: "Groups", Bindings: bs}}
}

// Legend implements ui.Legender: what the NAME marks and the causes next
// to a verdict mean, and what the TREND column draws.
func (m *Model) Legend() []ui.Section {
	return []ui.Section{marksLegend(), trendLegend(m.Glyphs)}
}

// ShortHelp implements ui.Component: most important first, as the footer
// cuts from the end on a narrow terminal. While the filter is typed its
// line says what Enter and Esc do, and no other key applies.
func (m *Model) ShortHelp() []key.Binding {
	k := &m.keys
	switch {
	case m.filtering:
		return nil
	case m.filter.Value() != "":
		return []key.Binding{k.Open, k.clearHint, k.matchHint, k.filteredSort, k.resetHint, k.deleteHint}
	}
	return []key.Binding{k.Open, k.Filter, k.sortHint, k.resetHint, k.deleteHint}
}

// SetSize implements ui.Component.
func (m *Model) SetSize(w, h int) {
	m.Common.SetSize(w, h)
	m.win.Clamp(len(m.rows), m.tableRows())
}

// Selected is the name of the group under the cursor ("" when none).
func (m *Model) Selected() string {
	if m.win.Cursor < len(m.rows) {
		return m.snap.Groups[m.rows[m.win.Cursor]].Name
	}
	return ""
}

// Filter is the current filter text.
func (m *Model) Filter() string { return m.filter.Value() }

// Actions implements ui.Component. Reset and delete act on the group
// under the cursor; they only ask the root to open the wizard, which plans,
// previews and confirms before anything is written.
func (m *Model) Actions() []ui.Action {
	none := func() string {
		if m.Selected() == "" {
			return "no group selected"
		}
		return ""
	}
	wizard := func(kind ui.ResetKind) func() tea.Cmd {
		return func() tea.Cmd {
			msg := ui.ResetMsg{Kind: kind, Group: m.Selected()}
			return func() tea.Msg { return msg }
		}
	}
	return []ui.Action{{
		Name:        "open group",
		Key:         m.keys.Open,
		Unavailable: none,
		Run: func() tea.Cmd {
			name := m.Selected()
			return func() tea.Msg { return ui.OpenGroupMsg{Name: name} }
		},
	}, {
		Name:        "reset the group's offsets",
		Key:         m.keys.Reset,
		Dangerous:   true,
		Unavailable: none,
		Run:         wizard(ui.ResetGroup),
	}, {
		Name:        "delete the group",
		Key:         m.keys.Delete,
		Dangerous:   true,
		Unavailable: none,
		Run:         wizard(ui.DeleteGroup),
	}}
}

// Update implements ui.Component.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case ui.DataMsg:
		if p, ok := msg.Prepared.(*prepared); ok && p.matches(m) {
			m.install(p)
			return nil
		}
		m.setData(msg.Snapshot, msg.History, msg.Lag, msg.Rebalances)
	case ui.SelectGroupMsg:
		m.selected = msg.Name
		m.rebuild()
	case tea.KeyMsg:
		if m.filtering {
			return m.updateFilter(msg)
		}
		m.updateKey(msg)
	}
	return nil
}

func (m *Model) updateKey(msg tea.KeyMsg) {
	k := &m.keys
	n, h := len(m.rows), m.tableRows()
	kept := m.filter.Value() != ""
	switch {
	case m.win.Navigate(msg, &m.Move, n, h):
	case kept && key.Matches(msg, k.NextMatch) && n > 0:
		m.win.Cursor = (m.win.Cursor + 1) % n
		m.win.Clamp(n, h)
	case kept && key.Matches(msg, k.PrevMatch) && n > 0:
		m.win.Cursor = (m.win.Cursor + n - 1) % n
		m.win.Clamp(n, h)
	case kept && key.Matches(msg, k.NextMatch, k.PrevMatch):
		return
	case key.Matches(msg, k.Filter):
		m.filtering = true
		m.win.Clamp(n, m.tableRows())
		return
	case key.Matches(msg, k.ClearFilter):
		if m.filter.Value() != "" {
			m.filter.SetValue("")
			m.rebuild()
		}
		return
	case key.Matches(msg, k.SortName):
		m.toggleSort(ByName)
	case key.Matches(msg, k.SortLag):
		m.toggleSort(ByLag)
	case key.Matches(msg, k.SortTimeLag):
		m.toggleSort(ByTimeLag)
	case key.Matches(msg, k.SortHealth):
		m.toggleSort(ByHealth)
	case key.Matches(msg, k.SortState):
		m.toggleSort(ByState)
	case key.Matches(msg, k.SortMembers):
		m.toggleSort(ByMembers)
	default:
		return
	}
	m.selected = m.Selected()
}

// updateFilter edits the filter while it is typed: every key narrows the
// rows at once; Enter keeps the filter and Esc drops it.
func (m *Model) updateFilter(msg tea.KeyMsg) tea.Cmd {
	switch msg.Type {
	case tea.KeyEnter:
		m.filtering = false
		m.win.Clamp(len(m.rows), m.tableRows())
		return nil
	case tea.KeyEsc:
		m.filtering = false
		m.filter.SetValue("")
		m.rebuild()
		return nil
	case tea.KeyUp:
		m.win.Move(-1, len(m.rows), m.tableRows())
		m.selected = m.Selected()
		return nil
	case tea.KeyDown:
		m.win.Move(1, len(m.rows), m.tableRows())
		m.selected = m.Selected()
		return nil
	}
	if m.filter.Update(msg) {
		m.rebuild()
	}
	return nil
}

// toggleSort sorts by k; choosing the current key again reverses the order.
// Lag, time lag, health and members start with the largest (or worst)
// first, as that is what one looks for.
func (m *Model) toggleSort(k SortKey) {
	if k == m.sortBy {
		m.setSort(k, !m.desc)
	} else {
		m.setSort(k, k != ByName && k != ByState)
	}
	m.rebuild()
}

// sortColumn maps a sort key to the column whose title shows the order.
var sortColumn = map[SortKey]string{ByName: "NAME", ByLag: "LAG", ByState: "STATE", ByMembers: "MEMBERS", ByTimeLag: "TIME-LAG", ByHealth: "HEALTH"}

func (m *Model) setSort(k SortKey, desc bool) {
	m.sortBy, m.desc = k, desc
	arrow := m.Glyphs.Up
	if desc {
		arrow = m.Glyphs.Down
	}
	for i := range m.table.Cols {
		m.table.Cols[i].Title = m.titles[i]
		if m.titles[i] == sortColumn[k] {
			m.table.Cols[i].Title += arrow
		}
	}
}

// setData takes a new poll: per-group figures are worked out here, once, so
// that View only formats. The verdicts are the tracker's, lent for good
// (lag.Tracker.Verdicts: a later poll judges into new ones), or copied
// when it has none for s; the screen never writes them, so it makes a
// new slice rather than reuse one that may be lent.
func (m *Model) setData(s *kafka.Snapshot, h ui.LagHistory, l *lag.Tracker, rs ui.RebalanceStatus) {
	m.snap, m.hist = s, h
	n := len(s.Groups)
	m.lower = resize(m.lower, n)
	m.lags = resize(m.lags, n)
	m.lastReb = resize(m.lastReb, n)
	m.glance = resize(m.glance, n)
	m.health = l.Verdicts(s)
	copied := m.health == nil
	if copied {
		m.health = make([]lag.Verdict, n)
	}
	for i := range s.Groups {
		m.lower[i] = strings.ToLower(s.Groups[i].Name)
		m.lags[i] = columns.GroupLag(&s.Groups[i])
		if copied {
			m.health[i] = l.Group(s, i)
		}
		m.glance[i] = m.glanceAt(s, l, i)
		m.lastReb[i] = time.Time{}
		if rs != nil {
			if st, ok := rs.Status(s.Groups[i].Name); ok {
				m.lastReb[i] = st.LastRebalance
			}
		}
	}
	m.count()
	m.rebuild()
}

// glanceAt is group i's findings at a glance, from the poll alone (no
// extra reads): for a group whose verdict is WARN or ERR the rules get its
// partitions too (Tracker.Evaluate, so the few unhealthy groups cost a
// judging each, the healthy thousands none), which lets them tell a member
// that stopped committing or a consumer slower than its producers.
func (m *Model) glanceAt(s *kafka.Snapshot, l *lag.Tracker, i int) diagnose.Glance {
	var in diagnose.Input
	in, m.buf = watch.Input(s, l, i, m.buf)
	return diagnose.GlanceAt(in)
}

// stateCount is one item of the summary line.
type stateCount struct {
	n     int
	label string
	style *lipgloss.Style
}

// count works out the summary: errors first (they matter most and must
// survive a narrow terminal), then the states in a fixed order, then any
// state kgroups does not know, by name.
func (m *Model) count() {
	counts := make(map[string]int, len(stateOrder))
	failed := 0
	for i := range m.snap.Groups {
		counts[m.snap.Groups[i].State]++
		if m.snap.Groups[i].Err != nil {
			failed++
		}
	}
	m.counts = m.counts[:0]
	if failed > 0 {
		m.counts = append(m.counts, stateCount{failed, format.Noun(failed, "error", "errors"), &m.Styles.Error})
	}
	for _, s := range stateOrder {
		if n := counts[s]; n > 0 {
			m.counts = append(m.counts, stateCount{n, s, m.Styles.State(s, false)})
			delete(counts, s)
		}
	}
	other := make([]string, 0, len(counts))
	for s := range counts {
		other = append(other, s)
	}
	sort.Strings(other)
	for _, s := range other {
		label := s
		if label == "" {
			label = kafka.StateUnknown
		}
		m.counts = append(m.counts, stateCount{counts[s], label, m.Styles.State(s, false)})
	}
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// rebuild filters and sorts the rows and puts the cursor back on the
// selected group.
func (m *Model) rebuild() {
	if m.snap == nil {
		return
	}
	f := strings.ToLower(m.filter.Value())
	m.rows = m.rows[:0]
	for i := range m.snap.Groups {
		if f == "" || strings.Contains(m.lower[i], f) {
			m.rows = append(m.rows, i)
		}
	}
	gs := m.snap.Groups
	cmp := func(a, b int) int {
		return compareGroups(m.sortBy, m.sortKey(a), m.sortKey(b))
	}
	sort.SliceStable(m.rows, func(i, j int) bool {
		a, b := m.rows[i], m.rows[j]
		if c := cmp(a, b); c != 0 {
			if m.desc {
				return c > 0
			}
			return c < 0
		}
		// Names break ties, always A to Z, unless names are the order.
		if m.sortBy == ByName && m.desc {
			return gs[a].Name > gs[b].Name
		}
		return gs[a].Name < gs[b].Name
	})
	m.place()
}

// place puts the cursor on the selected group, or on the first row when
// the rows no longer hold it.
func (m *Model) place() {
	gs := m.snap.Groups
	m.win.Cursor = 0
	for i, gi := range m.rows {
		if gs[gi].Name == m.selected {
			m.win.Cursor = i
			break
		}
	}
	m.win.Clamp(len(m.rows), m.tableRows())
	if m.selected == "" || m.Selected() != m.selected {
		m.selected = m.Selected()
	}
}

// tableRows is the number of data rows on screen.
func (m *Model) tableRows() int {
	h := m.Height - 2 // summary and table header
	if m.filterShown() {
		h--
	}
	return max(1, h)
}

func (m *Model) filterShown() bool { return m.filtering || m.filter.Value() != "" }

// View implements ui.Component.
func (m *Model) View() string {
	var b strings.Builder
	m.summary(&b)
	if m.filterShown() {
		b.WriteByte('\n')
		m.filterLine(&b)
	}
	b.WriteByte('\n')
	if m.snap == nil {
		b.WriteString(m.Styles.Dim.Render("  waiting for the first poll" + m.Glyphs.Ellipsis))
		return b.String()
	}
	st := table.NewStyles(m.Styles, m.Glyphs)
	m.table.Render(&b, st, m.Width, m.tableRows()+1, m.win, len(m.rows), m.row, true)
	if len(m.rows) == 0 {
		b.WriteByte('\n')
		if len(m.snap.Groups) == 0 {
			b.WriteString(m.Styles.Dim.Render("  no consumer groups in this cluster"))
		} else {
			b.WriteString(m.Styles.Dim.Render("  no group matches the filter"))
		}
	}
	return b.String()
}

func (m *Model) row(i int) row {
	gi := m.rows[i]
	return row{g: &m.snap.Groups[gi], lag: m.lags[gi], h: &m.health[gi], lastReb: m.lastReb[gi], glance: m.glance[gi]}
}

// stateOrder lists states in the order the summary counts them.
var stateOrder = []string{
	kafka.StateStable, kafka.StatePreparingRebalance, kafka.StateCompletingRebalance,
	kafka.StateAssigning, kafka.StateReconciling, kafka.StateEmpty, kafka.StateDead,
}

// summary writes the counts by state: "12 groups: 9 Stable · 2 Empty · 1 Dead".
func (m *Model) summary(b *strings.Builder) {
	var line strings.Builder
	if m.snap == nil {
		line.WriteString(m.Styles.Title.Render("Groups"))
		b.WriteString(table.FitLine(line.String(), m.Width, m.Glyphs.Ellipsis))
		return
	}
	line.WriteString(m.Styles.Title.Render(format.Count(len(m.snap.Groups), "group", "groups")))
	sep := ": "
	for _, c := range m.counts {
		line.WriteString(sep)
		line.WriteString(c.style.Render(strconv.Itoa(c.n) + " " + format.Sanitize(c.label)))
		sep = m.Glyphs.Sep
	}
	b.WriteString(table.FitLine(line.String(), m.Width, m.Glyphs.Ellipsis))
}

func (m *Model) filterLine(b *strings.Builder) {
	var line strings.Builder
	line.WriteString(m.filter.View(m.filtering, m.Glyphs.Caret))
	if m.snap != nil {
		line.WriteString("  ")
		line.WriteString(m.Styles.Dim.Render(strconv.Itoa(len(m.rows)) + " of " + strconv.Itoa(len(m.snap.Groups)) + " match"))
	}
	if m.filtering {
		line.WriteString(m.Styles.Dim.Render(m.Glyphs.Sep + "enter keep" + m.Glyphs.Sep + "esc clear"))
	}
	b.WriteString(table.FitLine(line.String(), m.Width, m.Glyphs.Ellipsis))
}
