// Package groupdetail is the group screen: one consumer group's state, health and
// coordinator, with a tab of its partitions (offsets, lag, rates, time lag,
// status, owner), a tab of its members, a tab charting its lag over the
// history window, and the tabs the root adds (the rebalance timeline and the
// assignor simulator). From the partitions and members it offers the
// actions that change the group: reset, seek, member removal.
package groupdetail

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/widgets/table"
)

// Tab is a tab of the group screen. The constants are the tabs the
// screen draws itself; the tabs after them are Extra tabs the root builds
// (tui/dialogs.go, groupTabs: Timeline, Simulate or a streams group's
// Tasks and Topology, and Diagnosis). A new tab is added there, and to
// the README's Keys row for Tab / Shift+Tab.
type Tab int

const (
	// Partitions lists the group's partitions.
	Partitions Tab = iota
	// Members lists the group's members.
	Members
	// Chart draws the lag and time lag of the group, or of the partition
	// selected on the Partitions tab, over the history window.
	Chart
	// fixedTabs is the number of tabs the screen draws itself; the
	// Extra tabs follow.
	fixedTabs
)

// Extra is a tab the group screen hosts but does not implement (the
// rebalance timeline, the simulator, a streams group's tasks and
// topology, the diagnosis). The root builds them (tui/dialogs.go,
// groupTabs), so this screen imports no other screen. It gets every poll, keys while it is the active
// tab, and the area under the tab bar.
type Extra struct {
	Title string
	Tab   ui.Component
}

// Model is the group screen for one group, named at creation.
type Model struct {
	ui.Common
	keys keyMap

	name string
	snap *kafka.Snapshot
	g    *kafka.Group // as last seen; nil before it is seen
	// leader is the implementation inferred for a classic group's leader
	// ("(librdkafka leader)"), read once a poll; "" when unknown.
	leader string
	// gone is set when a poll no longer lists the group; seen is when it
	// was last listed.
	gone bool
	seen time.Time

	tab   Tab
	wins  [fixedTabs]table.Window // Chart uses the Partitions window
	extra []Extra

	// sel holds the partitions selected for a reset, kept across polls
	// while the group has them.
	sel map[reset.TP]bool

	members  []memberRow
	totalLag int64 // kafka.NoOffset when no partition's lag is known

	// lag is the root's history, read when a poll arrives (never kept
	// across polls: it changes with the next one). health is this
	// group's verdict, with its partitions in a buffer of the screen's
	// own, and ph maps g.Partitions to them (-1: not judged).
	lag    *lag.Tracker
	health lag.Verdict
	phBuf  []lag.PartitionHealth
	spare  []lag.PartitionHealth // a second buffer, for Prepare
	ph     []int32
	window int
	now    time.Time // the poll the verdicts and time lags are as of

	// judged is the poll's prepared judging while setData takes it.
	judged *prepared

	exact  exactState
	chart  chartState
	filter filterState

	parts       table.Table[partRow]
	memberTable table.Table[memberRow]
	consumer    bool // memberTable has the KIP-848 columns
	share       bool // the tables have the share-group columns
	stableCols  bool // parts has the LSO-LAG column (stable.go)
}

// New returns the screen for group name; it shows the group once a poll
// (given now, with its lag history l, or later) holds it.
// The extra tabs follow Chart in the order given; they are given the same
// first poll.
func New(c ui.Common, name string, snap *kafka.Snapshot, l *lag.Tracker, extra ...Extra) *Model {
	m := &Model{Common: c, keys: newKeyMap(), name: name, extra: extra, sel: make(map[reset.TP]bool)}
	m.parts.Cols = m.partitionColumns(false)
	m.memberTable.Cols = m.memberColumns(false, false)
	m.filter.in[Partitions].Prompt, m.filter.in[Members].Prompt = "/", "/"
	if snap != nil {
		m.setData(snap, l)
		for _, e := range extra {
			e.Tab.Update(ui.DataMsg{Snapshot: snap, History: l, Lag: l})
		}
	}
	m.sizeExtras()
	return m
}

func (m *Model) tabCount() Tab { return fixedTabs + Tab(len(m.extra)) }

// active is the extra tab on show, nil on the screen's own tabs.
func (m *Model) active() ui.Component {
	if m.tab >= fixedTabs {
		return m.extra[m.tab-fixedTabs].Tab
	}
	return nil
}

// sizeExtras gives the extra tabs the area under the tab bar, which moves
// when a notice comes or goes.
func (m *Model) sizeExtras() {
	h := max(1, m.Height-m.headerLines())
	for _, e := range m.extra {
		e.Tab.SetSize(m.Width, h)
	}
}

// Selected returns the partitions selected for a reset, in the order the
// Partitions tab lists them.
func (m *Model) Selected() []reset.TP {
	if len(m.sel) == 0 || m.g == nil {
		return nil
	}
	out := make([]reset.TP, 0, len(m.sel))
	for i := range m.g.Partitions {
		tp := reset.TP{Topic: m.g.Partitions[i].Topic, Partition: m.g.Partitions[i].Partition}
		if m.sel[tp] {
			out = append(out, tp)
		}
	}
	return out
}

// Name is the group the screen shows.
func (m *Model) Name() string { return m.name }

// Tab is the tab on show.
func (m *Model) Tab() Tab { return m.tab }

// Exact reports whether exact time lag is on.
func (m *Model) Exact() bool { return m.exact.on }

// Capturing implements ui.Component: true while a tab's filter is typed.
func (m *Model) Capturing() bool { return m.filter.typing }

// Actions implements ui.Component: those of the active tab. Exact time
// lag reads one record per partition on screen: it only reads, so it is not
// Dangerous. Reset, seek and member removal are: they only ask the root to
// open a dialog that previews and confirms before anything is written.
func (m *Model) Actions() []ui.Action {
	if e := m.active(); e != nil {
		return e.Actions()
	}
	known := func() string {
		if m.g == nil {
			return "the group is not known yet"
		}
		return ""
	}
	acts := []ui.Action{{Name: "toggle exact time lag", Key: m.keys.Exact, Unavailable: known, Run: m.toggleExact}}
	switch m.tab {
	case Partitions:
		rows := func() string {
			switch {
			case m.g == nil:
				return "the group is not known yet"
			case len(m.g.Partitions) == 0:
				return "the group has no partitions"
			case m.rowCount(Partitions) == 0:
				return "no partition matches the filter"
			}
			return ""
		}
		acts = append(acts,
			ui.Action{Name: "select partition", Key: m.keys.Select, Unavailable: rows, Run: m.toggleSelected},
			ui.Action{Name: "reset the selected partitions (or this one)", Key: m.keys.Reset, Dangerous: true, Unavailable: rows, Run: m.resetSelected},
			ui.Action{Name: "seek the partition to an offset or a time", Key: m.keys.Seek, Dangerous: true, Unavailable: rows, Run: m.seek},
			ui.Action{Name: "view the record at the committed offset", Key: m.keys.View, Unavailable: rows, Run: m.viewRecord},
		)
	case Members:
		members := func() string {
			switch {
			case m.g == nil:
				return "the group is not known yet"
			case m.gone:
				return "the group no longer exists"
			case !m.g.Type.Supports(kafka.ActionRebalance):
				return format.Sanitize(m.g.Type.Check(m.g.Name, kafka.ActionRebalance).Error())
			case len(m.members) == 0:
				return "the group has no members"
			case m.rowCount(Members) == 0:
				return "no member matches the filter"
			}
			return ""
		}
		acts = append(acts,
			ui.Action{Name: "remove the member (rebalance)", Key: m.keys.RemoveMember, Dangerous: true, Unavailable: members, Run: m.removeMember},
			ui.Action{Name: "remove all members (rebalance)", Key: m.keys.RemoveAll, Dangerous: true, Unavailable: members, Run: m.removeAll},
		)
	}
	return acts
}

// cursorTP is the partition under the Partitions cursor; call it only when
// the group has partitions.
func (m *Model) cursorTP() reset.TP {
	p := &m.g.Partitions[m.partIndex(min(m.wins[Partitions].Cursor, m.rowCount(Partitions)-1))]
	return reset.TP{Topic: p.Topic, Partition: p.Partition}
}

func (m *Model) toggleSelected() tea.Cmd {
	tp := m.cursorTP()
	if m.sel[tp] {
		delete(m.sel, tp)
	} else {
		m.sel[tp] = true
	}
	return nil
}

// resetSelected asks for the reset of the selected partitions, or of the
// one under the cursor when none is selected.
func (m *Model) resetSelected() tea.Cmd {
	tps := m.Selected()
	if len(tps) == 0 {
		tps = []reset.TP{m.cursorTP()}
	}
	msg := ui.ResetMsg{Kind: ui.ResetPartitions, Group: m.name, Partitions: tps}
	return func() tea.Msg { return msg }
}

// viewRecord asks the root for the record viewer on the partition under
// the cursor, at the group's committed offset.
func (m *Model) viewRecord() tea.Cmd {
	tp := m.cursorTP()
	msg := ui.OpenRecordMsg{Group: m.name, Topic: tp.Topic, Partition: tp.Partition, Offset: -1}
	return func() tea.Msg { return msg }
}

func (m *Model) seek() tea.Cmd {
	msg := ui.ResetMsg{Kind: ui.SeekPartition, Group: m.name, Partitions: []reset.TP{m.cursorTP()}}
	return func() tea.Msg { return msg }
}

// removeMember asks for the removal of the member under the cursor, from
// the group as the screen shows it.
func (m *Model) removeMember() tea.Cmd {
	r := m.members[m.memberIndex(min(m.wins[Members].Cursor, m.rowCount(Members)-1))]
	msg := ui.RemoveMembersMsg{Group: m.g, MemberIDs: []string{r.m.MemberID}}
	return func() tea.Msg { return msg }
}

func (m *Model) removeAll() tea.Cmd {
	msg := ui.RemoveMembersMsg{Group: m.g, All: true}
	return func() tea.Msg { return msg }
}

// SetSize implements ui.Component.
func (m *Model) SetSize(w, h int) {
	m.Common.SetSize(w, h)
	m.clampTabs()
	m.sizeExtras()
}

// Update implements ui.Component. Polls also go to the extra tabs, which
// show the group whichever tab is on show; keys go to the one on show. The
// answers to an extra tab's requests reach it from the root directly.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case ui.DataMsg:
		p, _ := msg.Prepared.(*prepared)
		if p != nil && p.name == m.name {
			m.judged = p
		}
		m.setData(msg.Snapshot, msg.Lag)
		m.judged = nil
		m.sizeExtras()
		cmds := []tea.Cmd{m.requestExact()}
		for i, e := range m.extra {
			msg.Prepared = p.extraFor(i, e.Tab)
			cmds = append(cmds, e.Tab.Update(msg))
		}
		return tea.Batch(cmds...)
	case ui.TimestampsMsg:
		return m.onTimestamps(msg)
	case ui.ShowPartitionMsg:
		m.showPartition(msg)
	case ui.ShowMemberMsg:
		m.showMember(msg)
	case tea.KeyMsg:
		if m.filter.typing {
			return m.updateFilter(msg)
		}
		return m.updateKey(msg)
	}
	return nil
}

// Hosted implements ui.Host: the extra tabs, so that the answers to their
// requests find them.
func (m *Model) Hosted() []ui.Component {
	out := make([]ui.Component, len(m.extra))
	for i, e := range m.extra {
		out[i] = e.Tab
	}
	return out
}

// tabShown tells an extra tab just brought on show.
func (m *Model) tabShown() tea.Cmd {
	if e := m.active(); e != nil {
		return e.Update(ui.TabShownMsg{})
	}
	return nil
}

func (m *Model) updateKey(msg tea.KeyMsg) tea.Cmd {
	k := &m.keys
	tabs := m.tabCount()
	switch {
	case key.Matches(msg, k.NextTab):
		m.tab = (m.tab + 1) % tabs
		m.clampTabs()
		return m.tabShown()
	case key.Matches(msg, k.PrevTab):
		m.tab = (m.tab + tabs - 1) % tabs
		m.clampTabs()
		return m.tabShown()
	}
	if e := m.active(); e != nil {
		return e.Update(msg)
	}
	if m.filterKey(msg) {
		m.loadChart()
		return m.requestExact()
	}
	tab := m.tab
	if tab == Chart {
		tab = Partitions // the chart follows the partition cursor
	}
	w := &m.wins[tab]
	n, h := m.rowCount(tab), m.tableRows()
	before := *w
	switch {
	case key.Matches(msg, k.ChartScope):
		m.chart.partition = !m.chart.partition
		m.tab = Chart
	case w.Navigate(msg, &m.Move, n, h):
	default:
		return nil
	}
	m.loadChart()
	if tab == Partitions && *w != before {
		return m.requestExact() // other rows on screen
	}
	return nil
}

// setData takes a poll. A group that is no longer listed keeps its last
// picture, marked as gone, so the user sees what it was.
func (m *Model) setData(s *kafka.Snapshot, l *lag.Tracker) {
	m.snap, m.lag = s, l
	g, ok := s.Group(m.name)
	if !ok {
		m.gone = m.g != nil
		m.loadChart()
		return
	}
	m.g, m.gone, m.seen, m.now = g, false, s.Time, s.Time
	if p := m.judged; p != nil && p.g == g {
		m.totalLag = p.totalLag
	} else {
		m.totalLag = columns.GroupLag(g)
	}
	m.judge(l)
	m.leader = ""
	if rebalance.Leads(g) {
		if id := rebalance.Identify(g); id.Impl != rebalance.ImplUnknown || id.Partial {
			m.leader = id.Leader()
		}
	}

	var lags map[string]int64
	var known map[string]bool
	if p := m.judged; p != nil && p.g == g {
		lags, known = p.lags, p.known
	} else {
		lags, known = memberLags(g)
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
	consumer, share := g.Type == kafka.TypeConsumer, g.Type == kafka.TypeShare
	if consumer != m.consumer || share != m.share {
		m.consumer, m.share = consumer, share
		m.memberTable.Cols = m.memberColumns(consumer, share)
		m.parts.Cols = m.partitionColumns(share)
	}
	if stable := stableTrails(g); stable != m.stableCols {
		m.stableCols = stable
		m.parts.Cols = m.partitionColumns(share)
	}
	m.refilter()
	m.exact.prune(g)
	m.pruneSelected()
	m.loadChart()
}

// memberLags sums the lag of each member's partitions; known says which
// members have a partition whose lag is known.
func memberLags(g *kafka.Group) (map[string]int64, map[string]bool) {
	lags := make(map[string]int64, len(g.Members))
	known := make(map[string]bool, len(g.Members))
	for i := range g.Partitions {
		p := &g.Partitions[i]
		if p.MemberID == "" || !p.HasLag() {
			continue
		}
		if g.IsShare() {
			// Every member a share partition is assigned to consumes
			// its backlog: each is shown the whole of it.
			for _, id := range p.Owners() {
				lags[id] += p.Lag
				known[id] = true
			}
			continue
		}
		lags[p.MemberID] += p.Lag
		known[p.MemberID] = true
	}
	return lags, known
}

// pruneSelected forgets selected partitions the group no longer has, so a
// reset never names a partition the user cannot see.
func (m *Model) pruneSelected() {
	if len(m.sel) == 0 {
		return
	}
	keep := make(map[reset.TP]bool, len(m.sel))
	for i := range m.g.Partitions {
		tp := reset.TP{Topic: m.g.Partitions[i].Topic, Partition: m.g.Partitions[i].Partition}
		if m.sel[tp] {
			keep[tp] = true
		}
	}
	m.sel = keep
}

// judge evaluates the group's partitions into the screen's own buffer and
// pairs them with the snapshot's rows. Both are sorted by topic and
// partition, so one merge pairs them.
func (m *Model) judge(l *lag.Tracker) {
	m.health = lag.UnknownVerdict
	ps := m.g.Partitions
	if l == nil {
		m.ph = unpaired(m.ph, len(ps))
		return
	}
	m.window = l.Config().Window
	var gh lag.GroupHealth
	var ok bool
	if p := m.judged; p != nil {
		// Judged off the UI loop into the spare buffer: the one in use
		// becomes the spare.
		gh, ok = p.gh, p.ok
		m.spare, m.phBuf = m.phBuf[:0], gh.Partitions[:0]
	} else {
		gh, ok = l.Evaluate(m.name, m.phBuf)
		m.phBuf = gh.Partitions[:0]
	}
	if !ok {
		m.ph = unpaired(m.ph, len(ps))
		return
	}
	// The verdict is the tracker's, the one the groups screen, the status
	// bar and `kgroups health` show; the evaluation adds the partitions
	// behind it.
	m.health = l.Named(m.name)
	m.health.Partitions = gh.Partitions
	if p := m.judged; p != nil && p.g == m.g {
		m.ph, p.ph = p.ph, m.ph
		return
	}
	m.ph = pair(ps, gh.Partitions, m.ph)
}

// unpaired is ph for n rows, none judged.
func unpaired(ph []int32, n int) []int32 {
	ph = ph[:0]
	for range n {
		ph = append(ph, -1)
	}
	return ph
}

// pair maps each of ps to its verdict in hs (-1: none), into ph. Both are
// sorted by topic and partition, so one merge pairs them.
func pair(ps []kafka.PartitionOffsets, hs []lag.PartitionHealth, ph []int32) []int32 {
	ph = unpaired(ph, len(ps))
	for i, j := 0, 0; i < len(ps) && j < len(hs); {
		a, b := &ps[i], &hs[j]
		switch {
		case a.Topic < b.Topic || a.Topic == b.Topic && a.Partition < b.Partition:
			i++
		case a.Topic > b.Topic || a.Partition > b.Partition:
			j++
		default:
			ph[i] = int32(j)
			i++
			j++
		}
	}
	return ph
}

// partitionHealth is the verdict for row i of g.Partitions, nil when the
// history has none.
func (m *Model) partitionHealth(i int) *lag.PartitionHealth {
	if i < len(m.ph) && m.ph[i] >= 0 {
		return &m.health.Partitions[m.ph[i]]
	}
	return nil
}

func (m *Model) rowCount(t Tab) int {
	switch {
	case m.g == nil:
		return 0
	case t == Members:
		return len(m.filter.rows[Members])
	}
	return len(m.filter.rows[Partitions])
}

// clampTabs keeps each tab's cursor inside its rows and its screen.
func (m *Model) clampTabs() {
	for t := range m.wins {
		m.wins[t].Clamp(m.rowCount(Tab(t)), m.tableRowsFor(Tab(t)))
	}
}

// total is the number of rows of tab t, filtered or not.
func (m *Model) total(t Tab) int {
	switch {
	case m.g == nil:
		return 0
	case t == Members:
		return len(m.members)
	}
	return len(m.g.Partitions)
}

// headerLines is the number of lines above the table: four of facts, an
// optional notice, and the tab bar.
func (m *Model) headerLines() int {
	if m.notice() != "" {
		return 6
	}
	return 5
}

// tableRows is the number of data rows on screen: under the header, the
// filter line (when shown) and the table header.
func (m *Model) tableRows() int {
	h := m.Height - m.headerLines() - 1
	if m.filterShown() {
		h--
	}
	return max(1, h)
}

// tableRowsFor is tableRows for tab t, on show or not: its own filter line
// takes a row.
func (m *Model) tableRowsFor(t Tab) int {
	h := m.Height - m.headerLines() - 1
	if filterable(t) && (m.filter.in[t].Value() != "" || m.filter.typing && t == m.tab) {
		h--
	}
	return max(1, h)
}

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
	if r := m.rewind(); r != "" {
		return r
	}
	// A verdict that waits for evidence says why, once its window is
	// full (before, "JUDGING 3/10" says it).
	if h := &m.health; h.Judging() && h.Wait.Kind != lag.WaitNone && h.Observations >= h.Window {
		return "judging: " + h.Wait.Reason()
	}
	return ""
}

// noticeLine is the notice made one safe line: it holds the broker's
// words (an error) or names (a group, a topic).
func (m *Model) noticeLine() string {
	return format.Sanitize(strings.Join(strings.Fields(m.notice()), " "))
}

// View implements ui.Component.
func (m *Model) View() string {
	var b strings.Builder
	m.header(&b)
	if n := m.noticeLine(); n != "" {
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
	st := table.NewStyles(m.Styles, m.Glyphs)
	h := m.tableRows() + 1
	if e := m.active(); e != nil {
		b.WriteString(e.View())
		return b.String()
	}
	if m.filterShown() {
		m.filterLine(&b)
		b.WriteByte('\n')
	}
	switch m.tab {
	case Partitions:
		ps := m.g.Partitions
		if len(m.sel) > 0 {
			st.Mark, st.Marked = m.Glyphs.Mark, func(r int) bool {
				p := &ps[m.partIndex(r)]
				return m.sel[reset.TP{Topic: p.Topic, Partition: p.Partition}]
			}
		}
		n := m.rowCount(Partitions)
		m.parts.Render(&b, st, m.Width, h, m.wins[Partitions], n, m.partRow, true)
		switch {
		case len(ps) == 0:
			b.WriteString("\n" + m.Styles.Dim.Render("  no committed or assigned partitions"))
		case n == 0:
			b.WriteString("\n" + m.Styles.Dim.Render("  no partition matches the filter"))
		}
	case Members:
		ms := m.members
		n := m.rowCount(Members)
		m.memberTable.Render(&b, st, m.Width, h, m.wins[Members], n, func(r int) memberRow { return ms[m.memberIndex(r)] }, true)
		switch {
		case len(ms) == 0:
			b.WriteString("\n" + m.Styles.Dim.Render("  no members"))
		case n == 0:
			b.WriteString("\n" + m.Styles.Dim.Render("  no member matches the filter"))
		}
	case Chart:
		m.viewChart(&b, h)
	}
	return b.String()
}

// header writes four lines: what the group is; its size and how far behind
// it is; its health and rates; where it lives.
func (m *Model) header(b *strings.Builder) {
	s, sep := m.Styles, m.Glyphs.Sep
	var l1, l2, l3, l4 strings.Builder
	l1.WriteString(s.Title.Render(format.Sanitize(m.name)))
	if g := m.g; g != nil {
		state := g.State
		if state == "" {
			state = kafka.StateUnknown
		}
		l1.WriteString(sep)
		l1.WriteString(s.State(g.State, g.Err != nil).Render(format.Sanitize(state)))
		l1.WriteString(sep)
		l1.WriteString(format.Sanitize(string(g.Type)))
		if g.ProtocolType != "" && g.ProtocolType != "consumer" && g.ProtocolType != string(g.Type) {
			l1.WriteString(" (" + format.Sanitize(g.ProtocolType) + ")")
		}
		l1.WriteString(sep)
		l1.WriteString(s.Label.Render("assignor "))
		l1.WriteString(format.Sanitize(columns.Text(g.Assignor)))
		if m.leader != "" {
			// The implementation kgroups infers the leader runs.
			l1.WriteString(" " + m.leader)
		}

		l2.WriteString(format.Count(len(g.Members), "member", "members"))
		l2.WriteString(sep)
		l2.WriteString(format.Count(len(g.Partitions), "partition", "partitions"))
		if g.Type == kafka.TypeConsumer {
			l2.WriteString(sep)
			l2.WriteString(s.Label.Render("group epoch "))
			l2.WriteString(strconv.Itoa(int(g.GroupEpoch)))
			l2.WriteString(sep)
			l2.WriteString(s.Label.Render("assignment epoch "))
			l2.WriteString(strconv.Itoa(int(g.AssignmentEpoch)))
		}

		m.healthLine(&l3)

		l4.WriteString(s.Label.Render("coordinator "))
		l4.WriteString(format.Sanitize(columns.Coordinator(g.Coordinator)))
		l4.WriteString(sep)
		l4.WriteString(s.Label.Render("offsets partition "))
		l4.WriteString(columns.Offset(int64(g.OffsetsPartition)))
	}
	for i, l := range []*strings.Builder{&l1, &l2, &l3, &l4} {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(table.FitLine(l.String(), m.Width, m.Glyphs.Ellipsis))
	}
}

// healthLine says how the group is doing, most important first, so that a
// narrow terminal cuts the details: its verdict, how far behind it is in
// messages and in time, whether it is catching up, its produce and consume
// rates. A verdict still judging says how much of the window it has seen
// in its own text ("JUDGING 3/10").
func (m *Model) healthLine(l *strings.Builder) {
	s, sep, h := m.Styles, m.Glyphs.Sep, &m.health
	l.WriteString(s.Label.Render("health "))
	text := h.Text()
	if st := s.Health(h); st != nil {
		l.WriteString(st.Render(text))
	} else {
		l.WriteString(text)
	}
	l.WriteString(sep)
	l.WriteString(s.Label.Render("lag "))
	l.WriteString(columns.Offset(m.totalLag))
	l.WriteString(sep)
	l.WriteString(s.Label.Render("time lag "))
	l.WriteString(format.TimeLag(h.MaxTimeLag, m.Glyphs.AtLeast))
	if cu := format.CatchUp(h.CatchUp); cu != "" && h.Known {
		l.WriteString(sep)
		if h.CatchUp.State == lag.FallingBehind {
			l.WriteString(s.Warn.Render(cu))
		} else {
			l.WriteString(cu)
		}
	}
	l.WriteString(sep)
	l.WriteString(s.Label.Render("produce "))
	l.WriteString(rate(h.ProduceRate))
	l.WriteString(sep)
	l.WriteString(s.Label.Render("consume "))
	l.WriteString(rate(h.ConsumeRate))
}

// rewind explains a REWIND: which partition went back, from where to where,
// and what that costs; or, when a reset kgroups made explains every
// rewound partition, that reset and its receipt, so that it does not read
// as a consumer's fault.
func (m *Model) rewind() string {
	h := &m.health
	if h.Status != lag.StatusRewind {
		return ""
	}
	var byReset *lag.PartitionHealth
	n := 0
	for i := range h.Partitions {
		p := &h.Partitions[i]
		if p.Status != lag.StatusRewind {
			continue
		}
		if p.ResetBy == nil {
			rw := p.Rewind
			return p.Topic + "/" + strconv.Itoa(int(p.Partition)) + " committed " + strconv.FormatInt(rw.Low, 10) +
				" after " + strconv.FormatInt(rw.High, 10) + ": " + strconv.FormatInt(rw.High-rw.Low, 10) + " messages are consumed twice"
		}
		if byReset == nil {
			byReset = p
		}
		n++
	}
	if byReset == nil {
		return ""
	}
	r := byReset.ResetBy
	where := byReset.Topic + "/" + strconv.Itoa(int(byReset.Partition))
	if n > 1 {
		where += " and " + format.Count(n-1, "other partition", "other partitions")
	}
	return where + " " + format.ResetBy(r)
}

// rate is a rate with its unit, for sentences; an unknown one is Missing.
func rate(r float64) string {
	s := format.Rate(r)
	if s == format.Missing {
		return s
	}
	return s + "/s"
}

// tabs writes the tab bar, and on its right whether exact time lag is on.
// The active tab is bracketed, so it shows without colour.
func (m *Model) tabs(b *strings.Builder) {
	names := [fixedTabs]string{"Partitions", "Members", "Chart"}
	var line strings.Builder
	for t := range m.tabCount() {
		var label string
		switch {
		case t >= fixedTabs:
			label = m.extra[t-fixedTabs].Title
		case t == Chart:
			label = names[t]
		default:
			label = names[t] + " " + strconv.Itoa(m.total(t))
		}
		if t == m.tab {
			line.WriteString(m.Styles.TabActive.Render("[" + label + "]"))
		} else {
			line.WriteString(m.Styles.TabInactive.Render(" " + label + " "))
		}
		line.WriteByte(' ')
	}
	if n := len(m.sel); n > 0 {
		line.WriteString(" ")
		line.WriteString(m.Styles.Warn.Render(strconv.Itoa(n) + " selected"))
	}
	if status, failed := m.exact.status(m.Glyphs); status != "" {
		line.WriteString(" ")
		if failed {
			line.WriteString(m.Styles.Error.Render(status))
		} else {
			line.WriteString(m.Styles.Dim.Render(status))
		}
	}
	b.WriteString(table.FitLine(strings.TrimRight(line.String(), " "), m.Width, m.Glyphs.Ellipsis))
}
