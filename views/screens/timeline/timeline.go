// Package timeline is the group screen's Timeline tab: what successive polls
// showed happening to one group (state changes, members joining and
// leaving, partitions moving, KIP-848 epochs, how long each rebalance took),
// newest first, with the group's rebalance status on top. The events come
// from kafka/rebalance.Timeline.
package timeline

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/widgets/table"
)

// Source is where the tab reads a group's events. The root keeps one
// rebalance.Timeline for every group, fed with every poll before the poll's
// DataMsg is delivered, so the tab shows what happened before it was
// opened and the groups screen can show the same status.
type Source interface {
	Events(group string, dst []rebalance.Event) []rebalance.Event
	Status(group string) (rebalance.Status, bool)
}

// Model is the Timeline tab for one group.
type Model struct {
	ui.Common

	group string
	src   Source
	// own is the timeline the tab feeds itself when no Source is given:
	// it then only knows what happened while the tab existed.
	own *rebalance.Timeline

	events []rebalance.Event // newest first
	status rebalance.Status
	known  bool

	win table.Window
	tbl table.Table[rebalance.Event]
}

// New returns the tab for group. With a nil src the tab keeps its own
// timeline, fed by the DataMsgs it receives.
func New(c ui.Common, group string, src Source) *Model {
	m := &Model{Common: c, group: group, src: src}
	if src == nil {
		m.own = rebalance.NewTimeline(rebalance.TimelineConfig{})
		m.src = m.own
	}
	for _, col := range Columns() {
		tc := table.Col[rebalance.Event]{Column: col}
		switch col.Title {
		case "EVENT":
			tc.Style = m.kindStyle
		case "DETAIL":
			tc.Flex, tc.Min = true, 20
		}
		m.tbl.Cols = append(m.tbl.Cols, tc)
	}
	m.refresh()
	return m
}

// Group is the group the tab shows.
func (m *Model) Group() string { return m.group }

// Events returns the events on show, newest first.
func (m *Model) Events() []rebalance.Event { return m.events }

// Bindings implements ui.Component: the events scroll.
func (m *Model) Bindings() []ui.Section { return []ui.Section{m.Move.Section()} }

// ShortHelp implements ui.Component.
func (m *Model) ShortHelp() []key.Binding { return nil }

// Capturing implements ui.Component: the tab reads no text.
func (m *Model) Capturing() bool { return false }

// Actions implements ui.Component: the timeline only shows.
func (m *Model) Actions() []ui.Action { return nil }

// SetSize implements ui.Component.
func (m *Model) SetSize(w, h int) {
	m.Common.SetSize(w, h)
	m.win.Clamp(len(m.events), m.rows())
}

// Update implements ui.Component.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case ui.DataMsg:
		if m.own != nil {
			m.own.Add(msg.Snapshot)
		}
		m.refresh()
	case tea.KeyMsg:
		m.win.Navigate(msg, &m.Move, len(m.events), m.rows())
	}
	return nil
}

// refresh reads the group's events, newest first. A selected event other
// than the newest stays selected as new ones arrive on top.
func (m *Model) refresh() {
	var selected *rebalance.Event
	if c := m.win.Cursor; c > 0 && c < len(m.events) {
		e := m.events[c]
		selected = &e
	}
	m.events = m.src.Events(m.group, m.events[:0])
	for i, j := 0, len(m.events)-1; i < j; i, j = i+1, j-1 {
		m.events[i], m.events[j] = m.events[j], m.events[i]
	}
	if selected != nil {
		for i := range m.events {
			if m.events[i] == *selected {
				m.win.Offset += i - m.win.Cursor
				m.win.Cursor = i
				break
			}
		}
	}
	m.status, m.known = m.src.Status(m.group)
	m.win.Clamp(len(m.events), m.rows())
}

// rows is the number of table rows that fit under the status line and the
// table header.
func (m *Model) rows() int { return max(1, m.Height-2) }

// View implements ui.Component.
func (m *Model) View() string {
	var b strings.Builder
	style, line := m.statusLine()
	b.WriteString(style.Render(table.FitLine(line, m.Width, m.Glyphs.Ellipsis)))
	if len(m.events) == 0 {
		b.WriteByte('\n')
		b.WriteString(m.Styles.Dim.Render(table.FitLine("  nothing has happened to the group since kgroups started watching it", m.Width, m.Glyphs.Ellipsis)))
		return b.String()
	}
	b.WriteByte('\n')
	st := table.NewStyles(m.Styles, m.Glyphs)
	ev := m.events
	m.tbl.Render(&b, st, m.Width, m.rows()+1, m.win, len(ev), func(i int) rebalance.Event { return ev[i] }, true)
	return b.String()
}

// statusLine says whether the group is rebalancing and when it last did.
func (m *Model) statusLine() (*lipgloss.Style, string) {
	now := m.Now()
	sep := m.Glyphs.Sep
	kept := sep + format.Count(len(m.events), "event", "events")
	switch {
	case !m.known:
		return &m.Styles.Dim, "not seen yet" + kept
	case m.status.Rebalancing:
		return &m.Styles.Warn, "rebalancing since " + m.status.Since.Format("15:04:05") + " (" + format.Span(now.Sub(m.status.Since)) + ")" + kept
	case !m.status.LastRebalance.IsZero():
		last := "last rebalance " + m.status.LastRebalance.Format("15:04:05") + ", " + format.Span(now.Sub(m.status.LastRebalance)) + " ago"
		if m.status.LastDuration > 0 {
			last += ", took " + format.Lasted(m.status.LastDuration)
		}
		return &m.Styles.Label, last + kept
	}
	return &m.Styles.Label, "no rebalance seen since kgroups started watching" + kept
}

func (m *Model) kindStyle(e rebalance.Event) *lipgloss.Style {
	switch e.Kind {
	case rebalance.EventState:
		return m.Styles.State(e.To, false)
	case rebalance.EventRebalance, rebalance.EventAssignment:
		return &m.Styles.Warn
	case rebalance.EventLeft:
		return &m.Styles.Dim
	}
	return nil
}
