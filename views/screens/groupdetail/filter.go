package groupdetail

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/widgets/table"
)

// filterState is the Partitions and Members tabs' filters: each tab has its
// own, typed after `/` and kept with Enter, as on the groups screen. rows
// are the indices (into g.Partitions and the member rows) that match, in
// order; every row when the filter is empty.
type filterState struct {
	in     [Chart]ui.Input
	typing bool
	rows   [Chart][]int
	// tp holds "topic:partition" while a partition is matched, so that
	// matching 50,000 partitions allocates nothing for it.
	tp []byte
}

// filterable reports whether t has a filter.
func filterable(t Tab) bool { return t == Partitions || t == Members }

// filterTab is the tab whose filter applies to the keys: the tab on show,
// when it has a filter.
func (m *Model) filterTab() (Tab, bool) {
	return m.tab, m.tab < fixedTabs && filterable(m.tab)
}

// filterKept reports whether the tab on show has a filter set.
func (m *Model) filterKept() bool {
	t, ok := m.filterTab()
	return ok && m.filter.in[t].Value() != ""
}

// filterShown reports whether the tab on show draws its filter line.
func (m *Model) filterShown() bool {
	return m.filter.typing || m.filterKept()
}

// Filter is the filter of tab t ("" when none).
func (m *Model) Filter(t Tab) string {
	if !filterable(t) {
		return ""
	}
	return m.filter.in[t].Value()
}

// refilter works out the rows of both tabs that match their filters.
// Partitions match on the topic, "topic:partition", the member id and the
// client id; members on the member id, the client id, the host and the
// instance id. Case does not matter.
func (m *Model) refilter() {
	for _, t := range []Tab{Partitions, Members} {
		f := strings.ToLower(m.filter.in[t].Value())
		rows := m.filter.rows[t][:0]
		n := 0
		if m.g != nil {
			n = len(m.g.Partitions)
			if t == Members {
				n = len(m.members)
			}
		}
		for i := 0; i < n; i++ {
			if f == "" || m.matches(t, i, f) {
				rows = append(rows, i)
			}
		}
		m.filter.rows[t] = rows
		m.wins[t].Clamp(len(rows), m.tableRowsFor(t))
	}
}

// matches reports whether row i of tab t holds f, which is lower case.
// strings.ToLower returns a string that is already lower case as it is,
// so matching allocates only for ids with capitals.
func (m *Model) matches(t Tab, i int, f string) bool {
	has := func(s string) bool { return strings.Contains(strings.ToLower(s), f) }
	if t == Members {
		mem := m.members[i].m
		return has(mem.MemberID) || has(mem.ClientID) || has(mem.Host) || has(mem.InstanceID)
	}
	p := &m.g.Partitions[i]
	if has(p.Topic) || has(p.MemberID) || has(p.ClientID()) {
		return true
	}
	tp := append(append(m.filter.tp[:0], strings.ToLower(p.Topic)...), ':')
	m.filter.tp = strconv.AppendInt(tp, int64(p.Partition), 10)
	return bytes.Contains(m.filter.tp, []byte(f))
}

// partIndex is the index in g.Partitions of row r of the Partitions tab.
func (m *Model) partIndex(r int) int { return m.filter.rows[Partitions][r] }

// memberIndex is the index in the member rows of row r of the Members tab.
func (m *Model) memberIndex(r int) int { return m.filter.rows[Members][r] }

// updateFilter edits the filter of the tab on show while it is typed:
// every key narrows the rows at once; Enter keeps the filter, Esc drops
// it, the arrows move the cursor.
func (m *Model) updateFilter(msg tea.KeyMsg) tea.Cmd {
	t, _ := m.filterTab()
	w := &m.wins[t]
	switch msg.Type {
	case tea.KeyEnter:
		m.filter.typing = false
	case tea.KeyEsc:
		m.filter.typing = false
		m.filter.in[t].SetValue("")
		m.refilter()
	case tea.KeyUp:
		w.Move(-1, m.rowCount(t), m.tableRows())
	case tea.KeyDown:
		w.Move(1, m.rowCount(t), m.tableRows())
	default:
		if !m.filter.in[t].Update(msg) {
			return nil
		}
		w.Top()
		m.refilter()
	}
	m.wins[t].Clamp(m.rowCount(t), m.tableRows())
	m.loadChart()
	return m.requestExact()
}

// filterKey handles `/`, Esc (clears a kept filter) and n/N (step through
// the matches, wrapping, while a filter is kept); ok is false for other
// keys.
func (m *Model) filterKey(msg tea.KeyMsg) (ok bool) {
	t, can := m.filterTab()
	if !can {
		return false
	}
	k := &m.keys
	w := &m.wins[t]
	n, h := m.rowCount(t), m.tableRows()
	switch {
	case key.Matches(msg, k.Filter):
		m.filter.typing = true
		w.Clamp(n, m.tableRows())
	case key.Matches(msg, k.ClearFilter) && m.filterKept():
		m.filter.in[t].SetValue("")
		m.refilter()
	case key.Matches(msg, k.NextMatch) && m.filterKept() && n > 0:
		w.Cursor = (w.Cursor + 1) % n
		w.Clamp(n, h)
	case key.Matches(msg, k.PrevMatch) && m.filterKept() && n > 0:
		w.Cursor = (w.Cursor + n - 1) % n
		w.Clamp(n, h)
	default:
		return false
	}
	return true
}

// filterLine draws the filter of the tab on show: the text, how many rows
// match, and while it is typed what Enter and Esc do.
func (m *Model) filterLine(b *strings.Builder) {
	t, _ := m.filterTab()
	total := len(m.members)
	if t == Partitions {
		total = len(m.g.Partitions)
	}
	var line strings.Builder
	line.WriteString(m.filter.in[t].View(m.filter.typing, m.Glyphs.Caret))
	line.WriteString("  ")
	line.WriteString(m.Styles.Dim.Render(strconv.Itoa(m.rowCount(t)) + " of " + strconv.Itoa(total) + " match"))
	if m.filter.typing {
		line.WriteString(m.Styles.Dim.Render(m.Glyphs.Sep + "enter keep" + m.Glyphs.Sep + "esc clear"))
	}
	b.WriteString(table.FitLine(line.String(), m.Width, m.Glyphs.Ellipsis))
}
