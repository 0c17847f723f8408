// Package group is the group screen: one consumer group's state and
// coordinator, with a tab of its partitions (offsets, lag, owner) and a tab
// of its members.
package group

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/tui/common"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/table"
)

// Tab is a tab of the group screen.
type Tab int

const (
	// Partitions lists the group's partitions.
	Partitions Tab = iota
	// Members lists the group's members.
	Members
	tabCount
)

// Model is the group screen for one group, named at creation.
type Model struct {
	common.Common

	name string
	snap *kafka.Snapshot
	g    *kafka.Group // as last seen; nil before it is seen
	// gone is set when a poll no longer lists the group; seen is when it
	// was last listed.
	gone bool
	seen time.Time

	tab  Tab
	wins [tabCount]table.Window

	members  []memberRow
	totalLag int64 // kafka.NoOffset when no partition's lag is known

	parts       table.Table[*kafka.PartitionOffsets]
	memberTable table.Table[memberRow]
	consumer    bool // memberTable has the KIP-848 columns
}

// New returns the screen for group name; it shows the group once a poll
// (given now or later) holds it.
func New(c common.Common, name string, snap *kafka.Snapshot) *Model {
	m := &Model{Common: c, name: name}
	m.parts.Cols = m.partitionColumns()
	m.memberTable.Cols = m.memberColumns(false)
	if snap != nil {
		m.setData(snap)
	}
	return m
}

// Name is the group the screen shows.
func (m *Model) Name() string { return m.name }

// Tab is the tab on show.
func (m *Model) Tab() Tab { return m.tab }

// Screen implements common.Component.
func (m *Model) Screen() common.Screen { return common.ScreenGroup }

// Capturing implements common.Component: the group screen reads no text.
func (m *Model) Capturing() bool { return false }

// Actions implements common.Component. The group screen has no actions on
// the cluster yet; resets and rebalances will be Dangerous actions here.
func (m *Model) Actions() []common.Action { return nil }

// SetSize implements common.Component.
func (m *Model) SetSize(w, h int) {
	m.Common.SetSize(w, h)
	for t := range m.wins {
		m.wins[t].Clamp(m.rowCount(Tab(t)), m.tableRows())
	}
}

// Update implements common.Component.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.DataMsg:
		m.setData(msg.Snapshot)
	case tea.KeyMsg:
		m.updateKey(msg)
	}
	return nil
}

func (m *Model) updateKey(msg tea.KeyMsg) {
	k := m.Keys
	w := &m.wins[m.tab]
	n, h := m.rowCount(m.tab), m.tableRows()
	switch {
	case key.Matches(msg, k.NextTab):
		m.tab = (m.tab + 1) % tabCount
	case key.Matches(msg, k.PrevTab):
		m.tab = (m.tab + tabCount - 1) % tabCount
	case key.Matches(msg, k.Up):
		w.Move(-1, n, h)
	case key.Matches(msg, k.Down):
		w.Move(1, n, h)
	case key.Matches(msg, k.PageUp):
		w.Page(-1, n, h)
	case key.Matches(msg, k.PageDown):
		w.Page(1, n, h)
	case key.Matches(msg, k.Top):
		w.Top()
	case key.Matches(msg, k.Bottom):
		w.Bottom(n, h)
	}
}

// setData takes a poll. A group that is no longer listed keeps its last
// picture, marked as gone, so the user sees what it was.
func (m *Model) setData(s *kafka.Snapshot) {
	m.snap = s
	g, ok := s.Group(m.name)
	if !ok {
		m.gone = m.g != nil
		return
	}
	m.g, m.gone, m.seen = g, false, s.Time
	m.totalLag = columns.GroupLag(g)

	lags := make(map[string]int64, len(g.Members))
	known := make(map[string]bool, len(g.Members))
	for i := range g.Partitions {
		p := &g.Partitions[i]
		if p.MemberID == "" || !p.HasLag() {
			continue
		}
		lags[p.MemberID] += p.Lag
		known[p.MemberID] = true
	}
	m.members = m.members[:0]
	for i := range g.Members {
		mem := &g.Members[i]
		r := memberRow{m: mem, parts: mem.PartitionCount(), lag: kafka.NoOffset}
		if known[mem.MemberID] {
			r.lag = lags[mem.MemberID]
		}
		r.atTarget = sameAssignment(mem.Assignment, mem.Target)
		m.members = append(m.members, r)
	}
	if consumer := g.Type == kafka.TypeConsumer; consumer != m.consumer {
		m.consumer = consumer
		m.memberTable.Cols = m.memberColumns(consumer)
	}
	for t := range m.wins {
		m.wins[t].Clamp(m.rowCount(Tab(t)), m.tableRows())
	}
}

func (m *Model) rowCount(t Tab) int {
	if m.g == nil {
		return 0
	}
	if t == Members {
		return len(m.members)
	}
	return len(m.g.Partitions)
}

// headerLines is the number of lines above the table: three of facts, an
// optional notice, and the tab bar.
func (m *Model) headerLines() int {
	if m.notice() != "" {
		return 5
	}
	return 4
}

func (m *Model) tableRows() int { return max(1, m.Height-m.headerLines()-1) }

// notice is what the screen must warn about, if anything.
func (m *Model) notice() string {
	switch {
	case m.snap == nil:
		return "waiting for the first poll" + m.Glyphs.Ellipsis
	case m.g == nil:
		return "group " + strconv.Quote(m.name) + " not found in the cluster"
	case m.gone:
		return "group no longer exists; showing it as last seen " + m.seen.Format("15:04:05")
	case m.g.Err != nil:
		return m.g.Err.Error()
	}
	return ""
}

// View implements common.Component.
func (m *Model) View() string {
	var b strings.Builder
	m.header(&b)
	if n := m.notice(); n != "" {
		b.WriteByte('\n')
		style := &m.Styles.Error
		if m.snap == nil {
			style = &m.Styles.Dim
		}
		b.WriteString(style.Render(table.FitLine("! "+n, m.Width, m.Glyphs.Ellipsis)))
	}
	b.WriteByte('\n')
	m.tabs(&b)
	if m.g == nil {
		return b.String()
	}
	b.WriteByte('\n')
	st := table.Styles{Header: &m.Styles.TableHeader, Selected: &m.Styles.Selected, Cursor: m.Glyphs.Cursor, Ellipsis: m.Glyphs.Ellipsis}
	h := m.tableRows() + 1
	switch m.tab {
	case Partitions:
		ps := m.g.Partitions
		m.parts.Render(&b, st, m.Width, h, m.wins[Partitions], len(ps), func(i int) *kafka.PartitionOffsets { return &ps[i] }, true)
		if len(ps) == 0 {
			b.WriteString("\n" + m.Styles.Dim.Render("  no committed or assigned partitions"))
		}
	case Members:
		ms := m.members
		m.memberTable.Render(&b, st, m.Width, h, m.wins[Members], len(ms), func(i int) memberRow { return ms[i] }, true)
		if len(ms) == 0 {
			b.WriteString("\n" + m.Styles.Dim.Render("  no members"))
		}
	}
	return b.String()
}

// header writes three lines: what the group is; its size and how far behind
// it is; where it lives.
func (m *Model) header(b *strings.Builder) {
	s, sep := m.Styles, m.Glyphs.Sep
	var l1, l2, l3 strings.Builder
	l1.WriteString(s.Title.Render(m.name))
	if g := m.g; g != nil {
		state := g.State
		if state == "" {
			state = kafka.StateUnknown
		}
		l1.WriteString(sep)
		l1.WriteString(s.State(g.State, g.Err != nil).Render(state))
		l1.WriteString(sep)
		l1.WriteString(string(g.Type))
		if g.ProtocolType != "" && g.ProtocolType != "consumer" {
			l1.WriteString(" (" + g.ProtocolType + ")")
		}
		l1.WriteString(sep)
		l1.WriteString(s.Label.Render("assignor "))
		l1.WriteString(columns.Text(g.Assignor))

		l2.WriteString(plural(len(g.Members), "member"))
		l2.WriteString(sep)
		l2.WriteString(plural(len(g.Partitions), "partition"))
		l2.WriteString(sep)
		l2.WriteString(s.Label.Render("lag "))
		l2.WriteString(columns.Offset(m.totalLag))
		if g.Type == kafka.TypeConsumer {
			l2.WriteString(sep)
			l2.WriteString(s.Label.Render("group epoch "))
			l2.WriteString(strconv.Itoa(int(g.GroupEpoch)))
			l2.WriteString(sep)
			l2.WriteString(s.Label.Render("assignment epoch "))
			l2.WriteString(strconv.Itoa(int(g.AssignmentEpoch)))
		}

		l3.WriteString(s.Label.Render("coordinator "))
		l3.WriteString(columns.Coordinator(g.Coordinator))
		l3.WriteString(sep)
		l3.WriteString(s.Label.Render("offsets partition "))
		l3.WriteString(columns.Offset(int64(g.OffsetsPartition)))
	}
	for i, l := range []*strings.Builder{&l1, &l2, &l3} {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(table.FitLine(l.String(), m.Width, m.Glyphs.Ellipsis))
	}
}

// tabs writes the tab bar. The active tab is bracketed, so it shows without
// colour.
func (m *Model) tabs(b *strings.Builder) {
	names := [tabCount]string{"Partitions", "Members"}
	var line strings.Builder
	for t := range tabCount {
		label := names[t] + " " + strconv.Itoa(m.rowCount(t))
		if t == m.tab {
			line.WriteString(m.Styles.TabActive.Render("[" + label + "]"))
		} else {
			line.WriteString(m.Styles.TabInactive.Render(" " + label + " "))
		}
		line.WriteByte(' ')
	}
	b.WriteString(table.FitLine(strings.TrimRight(line.String(), " "), m.Width, m.Glyphs.Ellipsis))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
