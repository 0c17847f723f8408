// Package streams holds the group screen's tabs for streams groups
// (KIP-1071): Tasks, each member's active, standby and warmup tasks, current
// against target; and Topology, each subtopology's source, repartition and
// changelog topics. The root adds them to the group screen of a streams
// group; the Partitions and Chart tabs work on its topics unchanged.
package streams

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/widgets/table"
)

// TaskRow is one kind of task of one member: a row of the Tasks tab.
type TaskRow struct {
	Member *kafka.StreamsMember
	// Kind is active, standby or warmup.
	Kind            string
	Current, Target []kafka.TaskIDs
}

// Reconciling reports whether the member's tasks of this kind are not yet
// its target.
func (r TaskRow) Reconciling() bool { return !columns.TasksEqual(r.Current, r.Target) }

// TaskRows lists, member by member, each kind of task the member has now or
// is to have: active, standby, then warmup.
func TaskRows(si *kafka.StreamsInfo) []TaskRow {
	if si == nil {
		return nil
	}
	var rows []TaskRow
	for i := range si.Members {
		m := &si.Members[i]
		for _, k := range []struct {
			kind        string
			cur, target []kafka.TaskIDs
		}{
			{"active", m.Tasks.Active, m.TargetTasks.Active},
			{"standby", m.Tasks.Standby, m.TargetTasks.Standby},
			{"warmup", m.Tasks.Warmup, m.TargetTasks.Warmup},
		} {
			if len(k.cur) == 0 && len(k.target) == 0 {
				continue
			}
			rows = append(rows, TaskRow{Member: m, Kind: k.kind, Current: k.cur, Target: k.target})
		}
	}
	return rows
}

// TaskColumns are the Tasks tab's columns. TARGET is "=" when the member
// already has its target tasks of that kind.
func TaskColumns() []columns.Column[TaskRow] {
	return []columns.Column[TaskRow]{
		{Title: "MEMBER", Align: columns.Left, Value: func(r TaskRow) string { return columns.Text(r.Member.MemberID) }},
		{Title: "PROCESS", Align: columns.Left, Value: func(r TaskRow) string { return columns.Text(r.Member.ProcessID) }},
		{Title: "EPOCH", Align: columns.Right, Value: func(r TaskRow) string { return strconv.Itoa(int(r.Member.MemberEpoch)) }},
		{Title: "KIND", Align: columns.Left, Value: func(r TaskRow) string { return r.Kind }},
		{Title: "CURRENT", Align: columns.Left, Value: func(r TaskRow) string { return columns.Tasks(r.Current) }},
		{Title: "TARGET", Align: columns.Left, Value: func(r TaskRow) string {
			if !r.Reconciling() {
				return "="
			}
			return columns.Tasks(r.Target)
		}},
	}
}

// base is what both tabs share: the group they show, as last polled, and
// a scrolling window.
type base struct {
	ui.Common
	group string
	g     *kafka.Group
	win   table.Window
}

func (b *base) Bindings() []ui.Section   { return []ui.Section{b.Move.Section()} }
func (b *base) ShortHelp() []key.Binding { return nil }
func (b *base) Capturing() bool          { return false }
func (b *base) Actions() []ui.Action     { return nil }
func (b *base) rows() int                { return max(1, b.Height-2) }
func (b *base) setGroup(snap *kafka.Snapshot) {
	b.g = nil
	if g, ok := snap.Group(b.group); ok && g.Streams != nil {
		b.g = g
	}
}

// summary is the line over both tabs: the epochs and the members.
func (b *base) summary() (*lipgloss.Style, string) {
	if b.g == nil {
		return &b.Styles.Dim, "not described yet"
	}
	si := b.g.Streams
	sep := b.Glyphs.Sep
	line := "group epoch " + strconv.Itoa(int(si.GroupEpoch)) + sep + "target assignment epoch " + strconv.Itoa(int(si.TargetAssignmentEpoch)) + sep + "topology epoch "
	if si.TopologyEpoch < 0 {
		line += columns.Missing
	} else {
		line += strconv.Itoa(int(si.TopologyEpoch))
	}
	line += sep + format.Count(len(si.Members), "member", "members")
	behind := 0
	for _, m := range si.Members {
		if m.MemberEpoch < si.TargetAssignmentEpoch {
			behind++
		}
	}
	if behind > 0 {
		return &b.Styles.Warn, line + sep + strconv.Itoa(behind) + " reconciling"
	}
	return &b.Styles.Label, line
}

// tab is what both tabs are: the summary line, then a table of the rows
// rowsOf gives for the group's streams information, or empty when there
// are none.
type tab[T any] struct {
	base
	rowsData []T
	tbl      table.Table[T]
	rowsOf   func(*kafka.StreamsInfo) []T
	empty    string
}

// Rows are the rows on show.
func (m *tab[T]) Rows() []T { return m.rowsData }

// SetSize implements ui.Component.
func (m *tab[T]) SetSize(w, h int) {
	m.Common.SetSize(w, h)
	m.win.Clamp(len(m.rowsData), m.rows())
}

// Update implements ui.Component.
func (m *tab[T]) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case ui.DataMsg:
		m.setGroup(msg.Snapshot)
		m.rowsData = nil
		if m.g != nil {
			m.rowsData = m.rowsOf(m.g.Streams)
		}
		m.win.Clamp(len(m.rowsData), m.rows())
	case tea.KeyMsg:
		m.win.Navigate(msg, &m.Move, len(m.rowsData), m.rows())
	}
	return nil
}

// View implements ui.Component.
func (m *tab[T]) View() string {
	var b strings.Builder
	style, line := m.summary()
	b.WriteString(style.Render(table.FitLine(line, m.Width, m.Glyphs.Ellipsis)))
	b.WriteByte('\n')
	if len(m.rowsData) == 0 {
		b.WriteString(m.Styles.Dim.Render(table.FitLine(m.empty, m.Width, m.Glyphs.Ellipsis)))
		return b.String()
	}
	st := table.NewStyles(m.Styles, m.Glyphs)
	rows := m.rowsData
	m.tbl.Render(&b, st, m.Width, m.rows()+1, m.win, len(rows), func(i int) T { return rows[i] }, true)
	return b.String()
}

// Tasks is the Tasks tab of one streams group.
type Tasks struct{ tab[TaskRow] }

// NewTasks returns the Tasks tab for group.
func NewTasks(c ui.Common, group string) *Tasks {
	m := &Tasks{tab[TaskRow]{base: base{Common: c, group: group}, rowsOf: TaskRows, empty: "  no member has tasks"}}
	for _, col := range TaskColumns() {
		tc := table.Col[TaskRow]{Column: col}
		switch col.Title {
		case "MEMBER", "PROCESS":
			tc.Flex, tc.Min = true, 8
		case "TARGET":
			tc.Style = func(r TaskRow) *lipgloss.Style {
				if r.Reconciling() {
					return &m.Styles.Warn
				}
				return nil
			}
		}
		m.tbl.Cols = append(m.tbl.Cols, tc)
	}
	return m
}

// TopologyRow is one topic of the topology: a row of the Topology tab.
type TopologyRow struct {
	Subtopology string
	// Role is source, repartition-source, repartition-sink or changelog.
	Role       string
	Topic      string
	Partitions int32
}

// TopologyRows lists each subtopology's source topics, repartition source
// topics, repartition sink topics and changelog topics.
func TopologyRows(si *kafka.StreamsInfo) []TopologyRow {
	if si == nil {
		return nil
	}
	var rows []TopologyRow
	for _, st := range si.Subtopologies {
		for _, t := range st.SourceTopics {
			rows = append(rows, TopologyRow{st.ID, "source", t, 0})
		}
		for _, t := range st.RepartitionSourceTopics {
			rows = append(rows, TopologyRow{st.ID, "repartition-source", t.Topic, t.Partitions})
		}
		for _, t := range st.RepartitionSinkTopics {
			rows = append(rows, TopologyRow{st.ID, "repartition-sink", t, 0})
		}
		for _, t := range st.StateChangelogTopics {
			rows = append(rows, TopologyRow{st.ID, "changelog", t.Topic, t.Partitions})
		}
	}
	return rows
}

// TopologyColumns are the Topology tab's columns.
func TopologyColumns() []columns.Column[TopologyRow] {
	return []columns.Column[TopologyRow]{
		{Title: "SUBTOPOLOGY", Align: columns.Left, Value: func(r TopologyRow) string { return columns.Text(r.Subtopology) }},
		{Title: "ROLE", Align: columns.Left, Value: func(r TopologyRow) string { return r.Role }},
		{Title: "TOPIC", Align: columns.Left, Value: func(r TopologyRow) string { return columns.Text(r.Topic) }},
		{Title: "PARTITIONS", Align: columns.Right, Value: func(r TopologyRow) string {
			if r.Partitions <= 0 {
				return columns.Missing
			}
			return strconv.Itoa(int(r.Partitions))
		}},
	}
}

// Topology is the Topology tab of one streams group.
type Topology struct{ tab[TopologyRow] }

// NewTopology returns the Topology tab for group.
func NewTopology(c ui.Common, group string) *Topology {
	m := &Topology{tab[TopologyRow]{base: base{Common: c, group: group}, rowsOf: TopologyRows, empty: "  the group has no topology yet"}}
	for _, col := range TopologyColumns() {
		tc := table.Col[TopologyRow]{Column: col}
		if col.Title == "TOPIC" {
			tc.Flex, tc.Min = true, 12
		}
		m.tbl.Cols = append(m.tbl.Cols, tc)
	}
	return m
}
