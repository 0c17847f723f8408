// Package diagnosis is the group screen's Diagnosis tab: the findings of
// kafka/diagnose for one group, recomputed from the UI's own history at
// every poll (the snapshot, the lag tracker's verdict, the rebalance
// timeline), most severe first. The extra reads of `kgroups diagnose`
// (producers and transactions, retention.ms, records at stalled commits)
// are asked of the root with a ui.DiagnosisRequestMsg, once the tab has
// been on show, and kept (see reads.go). Enter follows a finding to the
// partition or member it concerns, or opens the record it names.
package diagnosis

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/render"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/widgets/table"
)

// Window is how far back the tab looks: rebalances within it count toward
// a storm, and a last stable offset that stayed put for it is a stuck
// transaction. It is `kgroups diagnose`'s default --window.
const Window = time.Minute

// Source is where the tab reads the group's rebalance events: the root's
// timeline, fed with every poll before the poll's DataMsg.
type Source interface {
	Events(group string, dst []rebalance.Event) []rebalance.Event
}

// Model is the Diagnosis tab for one group.
type Model struct {
	ui.Common
	// Bootstrap is a broker address for the suggested kafka-*.sh
	// commands, as `kgroups diagnose` names the first of its brokers.
	Bootstrap string
	// Connection are the words that name the cluster on the suggested
	// kgroups commands (diagnose.Input.Connection), as `kgroups diagnose`
	// gives them, so that NEXT runs pasted into the same shell.
	Connection []string

	group string
	src   Source
	open  key.Binding

	findings []diagnose.Finding
	// stable is when each partition's last stable offset was first seen
	// at its current value, while it trails the log end.
	stable map[diagnose.TP]stableSeen
	known  bool
	// pending is diagnose.Pending of the group's verdict: "judging 3/10"
	// while the window is short of what the trend rules need.
	pending string
	// snap and lag are the latest poll's, to recompute the findings when
	// a read answers.
	snap *kafka.Snapshot
	lag  *lag.Tracker
	reads

	// answers counts the reads answered, so that a poll prepared before
	// an answer came is worked out again with it.
	answers int

	events []rebalance.Event
	buf    []lag.PartitionHealth
	win    table.Window
	tbl    table.Table[diagnose.Finding]
}

type stableSeen struct {
	offset int64
	since  time.Time
}

// New returns the tab for group, reading rebalance events from src (nil:
// none).
func New(c ui.Common, group string, src Source) *Model {
	m := &Model{Common: c, group: group, src: src, stable: make(map[diagnose.TP]stableSeen), reads: newReads(),
		open: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "go to"))}
	for _, col := range Columns() {
		tc := table.Col[diagnose.Finding]{Column: col}
		switch col.Title {
		case "SEVERITY":
			tc.Style = m.severityStyle
		case "MESSAGE":
			tc.Flex, tc.Min = true, 20
		}
		m.tbl.Cols = append(m.tbl.Cols, tc)
	}
	return m
}

// Columns are the tab's columns.
func Columns() []columns.Column[diagnose.Finding] {
	return []columns.Column[diagnose.Finding]{
		{Title: "SEVERITY", Align: columns.Left, Value: func(f diagnose.Finding) string { return f.Severity.String() }},
		{Title: "FINDING", Align: columns.Left, Value: func(f diagnose.Finding) string { return f.ID }},
		{Title: "WHERE", Align: columns.Left, Value: func(f diagnose.Finding) string { return render.DiagnoseWhere(&f) }},
		{Title: "MESSAGE", Align: columns.Left, Value: func(f diagnose.Finding) string { return render.DiagnoseMessage(&f) }},
	}
}

// Findings returns the findings on show, most severe first.
func (m *Model) Findings() []diagnose.Finding { return m.findings }

// Bindings implements ui.Component.
func (m *Model) Bindings() []ui.Section { return []ui.Section{m.Move.Section()} }

// ShortHelp implements ui.Component.
func (m *Model) ShortHelp() []key.Binding { return []key.Binding{m.open} }

// Capturing implements ui.Component.
func (m *Model) Capturing() bool { return false }

// Actions implements ui.Component: following a finding only moves the
// cursor or opens the read-only record viewer.
func (m *Model) Actions() []ui.Action {
	return []ui.Action{{
		Name: "go to the finding's partition, member or record", Key: m.open,
		Unavailable: func() string {
			switch {
			case len(m.findings) == 0:
				return "no finding"
			case m.win.Cursor < len(m.findings) && target(m.group, &m.findings[m.win.Cursor]) == nil:
				return "this finding names none"
			}
			return ""
		},
		Run: m.follow,
	}}
}

// SetSize implements ui.Component.
func (m *Model) SetSize(w, h int) {
	m.Common.SetSize(w, h)
	m.win.Clamp(len(m.findings), m.rows())
}

// Update implements ui.Component.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case ui.DataMsg:
		m.snap, m.lag = msg.Snapshot, msg.Lag
		if p, ok := msg.Prepared.(*prepared); ok && p.answers == m.answers {
			m.install(p.m)
			return m.ask()
		}
		return m.refresh()
	case ui.TabShownMsg:
		m.shown = true
		return m.ask()
	case ui.DiagnosisMsg:
		if m.answer(msg) {
			return m.refresh()
		}
	case tea.KeyMsg:
		m.shown = true // keys reach the tab on show only
		m.win.Navigate(msg, &m.Move, len(m.findings), m.rows())
	}
	return nil
}

// refresh recomputes the findings from the latest poll and the reads
// kept, then asks for the reads the rules still need.
func (m *Model) refresh() tea.Cmd {
	snap, l := m.snap, m.lag
	if snap == nil || l == nil {
		m.findings, m.known = m.findings[:0], false
		m.win.Clamp(0, m.rows())
		return nil
	}
	g, ok := snap.Group(m.group)
	if !ok {
		m.findings, m.known = m.findings[:0], false
		m.want = diagnose.Wants{}
		m.win.Clamp(0, m.rows())
		return nil
	}
	m.known = true
	now := snap.Time
	reads := &diagnose.Reads{Stable: make(map[diagnose.TP]diagnose.StableOffsets)}
	seen := make(map[diagnose.TP]bool)
	for i := range g.Partitions {
		p := &g.Partitions[i]
		if !p.StableTrails {
			continue
		}
		tp := diagnose.TP{Topic: p.Topic, Partition: p.Partition}
		seen[tp] = true
		s, had := m.stable[tp]
		if !had || s.offset != p.LastStable {
			s = stableSeen{offset: p.LastStable, since: now}
			m.stable[tp] = s
		}
		first := int64(-1)
		if now.Sub(s.since) >= Window {
			first = s.offset
		}
		reads.Stable[tp] = diagnose.StableOffsets{First: first, Last: p.LastStable}
	}
	for tp := range m.stable {
		if !seen[tp] {
			delete(m.stable, tp)
		}
	}
	gh, _ := l.Evaluate(m.group, m.buf)
	m.buf = gh.Partitions[:0]
	if m.src != nil {
		m.events = m.src.Events(m.group, m.events)
	}
	verdict := lag.Judge(gh, l.Config().Window)
	m.pending = diagnose.Pending(verdict)
	m.want = m.missing(diagnose.Want(reads.Stable, []lag.Verdict{verdict}), reads.Stable, now)
	m.fill(reads)
	m.findings = diagnose.Diagnose(diagnose.Input{
		Group: g, PartitionCounts: snap.PartitionCounts, Verdict: verdict,
		Events: m.events, Since: now.Add(-Window), Now: now, Reads: reads, Bootstrap: m.Bootstrap,
		Connection: m.Connection,
		Unmoved: func(topic string, partition int32) (time.Time, bool) {
			return l.CommitUnmovedSince(m.group, topic, partition)
		},
		Series: func(topic string, partition int32, dst []lag.Sample) []lag.Sample {
			return l.Samples(m.group, topic, partition, dst)
		},
	})
	m.win.Clamp(len(m.findings), m.rows())
	return m.ask()
}

// follow sends the selected finding's link: the record it names, else
// its partition, else its member.
func (m *Model) follow() tea.Cmd {
	if m.win.Cursor >= len(m.findings) {
		return nil
	}
	msg := target(m.group, &m.findings[m.win.Cursor])
	if msg == nil {
		return nil
	}
	return func() tea.Msg { return msg }
}

// target is where Enter on f goes: the record it names, else its
// partition, else its member; nil when it names none of them (a
// group-wide or topic-wide finding).
func target(group string, f *diagnose.Finding) tea.Msg {
	switch {
	case f.Offset >= 0 && f.Topic != "" && f.Partition >= 0:
		return ui.OpenRecordMsg{Group: group, Topic: f.Topic, Partition: f.Partition, Offset: f.Offset}
	case f.Topic != "" && f.Partition >= 0:
		return ui.ShowPartitionMsg{Group: group, Topic: f.Topic, Partition: f.Partition}
	case f.Member != "":
		return ui.ShowMemberMsg{Group: group, MemberID: f.Member}
	}
	return nil
}

// View implements ui.Component.
func (m *Model) View() string {
	var b strings.Builder
	errs, warns := 0, 0
	for i := range m.findings {
		switch m.findings[i].Severity {
		case lag.SeverityErr:
			errs++
		case lag.SeverityWarn:
			warns++
		}
	}
	line := "not seen yet"
	style := &m.Styles.Dim
	if m.known {
		style = &m.Styles.Label
		parts := []string{count(errs, "ERR"), count(warns, "WARN")}
		if m.pending != "" {
			parts = append(parts, m.pending)
		}
		line = strings.Join(append(parts, m.readState()...), m.Glyphs.Sep)
	}
	b.WriteString(style.Render(table.FitLine(line, m.Width, m.Glyphs.Ellipsis)))
	b.WriteByte('\n')
	notes := m.notes()
	for _, n := range notes {
		b.WriteString(m.Styles.Warn.Render(table.FitLine(n, m.Width, m.Glyphs.Ellipsis)))
		b.WriteByte('\n')
	}
	if len(m.findings) == 0 {
		if m.known {
			b.WriteString(m.Styles.Dim.Render(table.FitLine("  "+m.noFindings(), m.Width, m.Glyphs.Ellipsis)))
		}
		return b.String()
	}
	st := table.NewStyles(m.Styles, m.Glyphs)
	fs := m.findings
	m.tbl.Render(&b, st, m.Width, m.rows()+1, m.win, len(fs), func(i int) diagnose.Finding { return fs[i] }, true)
	if room := m.Height - 3 - len(notes) - m.rows(); room > 0 && m.win.Cursor < len(fs) {
		out := strings.TrimRight(b.String(), "\n")
		b.Reset()
		b.WriteString(out)
		b.WriteString("\n\n")
		for i, l := range m.detail(&fs[m.win.Cursor], room) {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(m.Styles.Dim.Render(l))
		}
	}
	return b.String()
}

// noFindings is the tab's line while it shows no finding: "no findings"
// only once the window is full and the reads the rules asked for have
// answered; before that it says what it waits for.
func (m *Model) noFindings() string {
	switch {
	case m.pending != "":
		return "no findings yet: " + m.pending + " (the rules that judge a trend need a full window)"
	case m.shown && m.err == nil && (m.inflight != 0 || !m.want.Empty()):
		return "no findings yet: " + m.reading() + m.Glyphs.Ellipsis
	}
	return "no findings: nothing explains a lag from what the polls show"
}

// reading names the reads the tab waits for: "reading transactions",
// "reading retention and records".
func (m *Model) reading() string {
	var what []string
	if len(m.want.Transactions) > 0 {
		what = append(what, "transactions")
	}
	if len(m.want.Retention) > 0 {
		what = append(what, "retention")
	}
	if len(m.want.Records) > 0 {
		what = append(what, "records")
	}
	if len(what) == 0 {
		return "reading"
	}
	if len(what) == 1 {
		return "reading " + what[0]
	}
	return "reading " + strings.Join(what[:len(what)-1], ", ") + " and " + what[len(what)-1]
}

func count(n int, what string) string { return strconv.Itoa(n) + " " + what }

func (m *Model) severityStyle(f diagnose.Finding) *lipgloss.Style {
	switch f.Severity {
	case lag.SeverityErr:
		return &m.Styles.Error
	case lag.SeverityWarn:
		return &m.Styles.Warn
	}
	return nil
}
