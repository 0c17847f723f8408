package simulate

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/render"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/widgets/table"
)

// KeyMap holds the tab's own keys. They are offered as Actions, so the help
// screen lists them with the rest. They avoid the group screen's keys and
// the root's.
type KeyMap struct {
	Leave        key.Binding
	Join         key.Binding
	NextAssignor key.Binding
	// Worst steps through the results, best first, when the runs (the
	// joiners' places, a leader that breaks ties its own way) gave
	// several.
	Worst key.Binding

	// hints are the footer's short words for the same keys.
	hints [4]key.Binding
}

// DefaultKeyMap returns the tab's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Leave:        key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "simulate the selected member leaving")),
		Join:         key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "simulate one more member joining")),
		NextAssignor: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "show the next assignor's moves")),
		Worst:        key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "show the next of the assignor's results")),
		hints: [4]key.Binding{
			key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "leave")),
			key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "join")),
			key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "next assignor")),
			key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "next result")),
		},
	}
}

// ResultMsg carries a finished simulation back to the tab that asked for
// it. ID is the request's: a result for a superseded request is dropped.
type ResultMsg struct {
	Group string
	ID    uint64
	// From is the group as it was when the simulation started.
	From *kafka.Group
	At   time.Time
	Sim  *rebalance.Simulation
	Err  error
}

// Model is the Simulate tab for one group: pick a member and see what each
// assignor would move if it left, or if members joined.
type Model struct {
	ui.Common
	keys KeyMap

	group  string
	g      *kafka.Group // as last seen
	polled time.Time
	// topicIDs and counts are the last poll's topic ids and partition
	// counts: the broker's uniform assignor orders topics by their ids.
	topicIDs map[string]kafka.TopicID
	counts   map[string]int32

	win     table.Window
	members table.Table[*kafka.Member]
	targets table.Table[MemberRow]

	reqID   uint64
	pending bool
	res     *ResultMsg
	pick    int // the prediction whose moves are shown
	result  int // the picked prediction's result shown (0 is the best)

	summary  table.Table[SummaryRow]
	moves    table.Table[rebalance.Move]
	movesWin table.Window
}

// New returns the tab for group.
func New(c ui.Common, group string) *Model {
	m := &Model{Common: c, keys: DefaultKeyMap(), group: group}
	type M = *kafka.Member
	// Members are named by client id and the end of the member id (see
	// label), not by their long member ids.
	m.members.Cols = []table.Col[M]{
		{Column: columns.Column[M]{Title: "MEMBER", Value: func(x M) string { return m.name(x.MemberID) }}},
		{Column: columns.Column[M]{Title: "INSTANCE-ID", Value: func(x M) string { return columns.Text(x.InstanceID) }}, Min: 8, Drop: 2},
		{Column: columns.Column[M]{Title: "PARTS", Align: columns.Right, Value: func(x M) string { return strconv.Itoa(x.PartitionCount()) }}},
		{Column: columns.Column[M]{Title: "ASSIGNMENT", Value: func(x M) string { return columns.Assignment(x.Assignment) }}, Flex: true, Min: 10, Drop: 1},
	}
	for i, c := range ConsumerColumns() {
		tc := table.Col[MemberRow]{Column: c}
		switch i {
		case 0:
			tc.Value = func(r MemberRow) string { return m.name(r.Member.MemberID) }
		case 1:
			continue // the client id is in the member's name
		case 3, 4:
			tc.Flex, tc.Min = true, 10
		}
		m.targets.Cols = append(m.targets.Cols, tc)
	}
	for _, c := range SummaryColumns()[:6] { // up to NOTE
		tc := table.Col[SummaryRow]{Column: c}
		if c.Title == "NOTE" {
			// "the group's assignor", "if the group used sticky":
			// whatever room the numbers leave.
			tc.Flex, tc.Min = true, 10
		}
		m.summary.Cols = append(m.summary.Cols, tc)
	}
	for _, c := range MoveColumns() {
		tc := table.Col[rebalance.Move]{Column: c}
		switch c.Title {
		case "TOPIC":
			tc.Flex, tc.Min = true, 10
		case "FROM":
			tc.Value = func(mv rebalance.Move) string { return m.owner(mv.From) }
		case "TO":
			tc.Value = func(mv rebalance.Move) string { return m.owner(mv.To) }
		}
		m.moves.Cols = append(m.moves.Cols, tc)
	}
	return m
}

// idWidth is the room a member's name gets in a cell: half of what the
// moves table leaves after the topic (at least 10 cells) and the
// partition, between 12 and 40 cells. FROM and TO get the same.
func (m *Model) idWidth() int {
	return max(12, min(40, (m.Width-2-10-9-3)/2))
}

// name is the member's name in a cell.
func (m *Model) name(id string) string { return label(m.g, id, m.idWidth(), m.Glyphs.Ellipsis) }

// owner is FROM or TO: the member's name, or the missing mark when nobody
// owned or owns the partition.
func (m *Model) owner(id string) string {
	if id == "" {
		return columns.Missing
	}
	return m.name(id)
}

// Group is the group the tab shows.
func (m *Model) Group() string { return m.group }

// Result is the simulation on show, if any.
func (m *Model) Result() *ResultMsg { return m.res }

// Bindings implements ui.Component: the arrows pick a member, the page
// keys scroll the moves.
func (m *Model) Bindings() []ui.Section {
	k := &m.Move
	pgup, pgdn := k.PageUp, k.PageDown
	pgup.SetHelp(pgup.Help().Key, "moves page up")
	pgdn.SetHelp(pgdn.Help().Key, "moves page down")
	return []ui.Section{{Title: "Move", Bindings: []key.Binding{k.Up, k.Down, pgup, pgdn, k.Top, k.Bottom}}}
}

// ShortHelp implements ui.Component: leave and join for a classic group,
// and the next assignor once something is simulated.
func (m *Model) ShortHelp() []key.Binding {
	// A type with nothing to simulate (a share group) offers no keys:
	// each would only say so.
	if m.g == nil || absentWhy(m.g) != "" {
		return nil
	}
	h := m.keys.hints
	switch {
	case m.ranged():
		return h[:]
	case m.predictions() > 0:
		return h[:3]
	}
	return h[:2]
}

// Capturing implements ui.Component: the tab reads no text.
func (m *Model) Capturing() bool { return false }

// SetSize implements ui.Component.
func (m *Model) SetSize(w, h int) {
	m.Common.SetSize(w, h)
	m.clamp()
}

// Actions implements ui.Component. None is Dangerous: a simulation
// only reads the snapshot.
func (m *Model) Actions() []ui.Action {
	classic := func() string {
		switch {
		case m.g == nil:
			return "the group has not been seen yet"
		case absentWhy(m.g) != "":
			return absentWhy(m.g)
		case len(m.g.Members) == 0:
			return "the group has no members"
		}
		return ""
	}
	return []ui.Action{
		{Name: "simulate the selected member leaving", Key: m.keys.Leave, Unavailable: classic, Run: m.leave},
		{Name: "simulate one more member joining", Key: m.keys.Join, Unavailable: classic, Run: m.join},
		{Name: "show the next assignor's moves", Key: m.keys.NextAssignor, Unavailable: func() string {
			if m.res == nil || m.res.Sim == nil {
				return "nothing has been simulated yet"
			}
			return ""
		}, Run: func() tea.Cmd {
			m.pick = (m.pick + 1) % len(m.res.Sim.Predictions)
			m.result = 0
			m.movesWin.Top()
			return nil
		}},
		{Name: "show the next of the assignor's results", Key: m.keys.Worst, Unavailable: func() string {
			if !m.ranged() {
				return "every run of the assignor gives the same result"
			}
			return ""
		}, Run: func() tea.Cmd {
			m.result = (m.result + 1) % len(m.res.Sim.Predictions[m.pick].Results)
			m.movesWin.Top()
			return nil
		}},
	}
}

// ranged reports whether the picked prediction's runs gave different
// results, so there is more than one to show.
func (m *Model) ranged() bool {
	return m.predictions() > 0 && m.res.Sim.Predictions[m.pick].Ranged()
}

func (m *Model) leave() tea.Cmd {
	if m.win.Cursor >= len(m.g.Members) {
		return nil
	}
	return m.start(rebalance.Change{Leave: []string{m.g.Members[m.win.Cursor].MemberID}})
}

func (m *Model) join() tea.Cmd {
	n := 1
	if m.res != nil && m.res.Sim != nil && m.res.Sim.Change.Join > 0 {
		n = min(m.res.Sim.Change.Join+1, rebalance.MaxJoin)
	}
	return m.start(rebalance.Change{Join: n})
}

// RequestID implements ui.Reply.
func (r ResultMsg) RequestID() uint64 { return r.ID }

// start runs the simulation off the Update loop, as a request to the root;
// a new request supersedes one still running, whose result is then
// dropped: kgo's sticky balancer is quick for ordinary groups but not free
// for thousands of partitions. The work captures the snapshot's group,
// which is never modified.
func (m *Model) start(ch rebalance.Change) tea.Cmd {
	m.pending = true
	g, at, ids, polled := m.g, m.polled, m.topicIDs, m.counts
	var cmd tea.Cmd
	m.reqID, cmd = ui.Ask(m, func(id uint64) ui.Reply {
		counts := rebalance.PartitionCountsFromGroup(g)
		if g.Type == kafka.TypeConsumer {
			// The broker's assignors deal every partition of a topic:
			// the poll's counts, where it read them.
			for t, n := range polled {
				if _, ok := counts[t]; ok && n > counts[t] {
					counts[t] = n
				}
			}
		}
		sim, err := rebalance.SimulateWithTopicIDs(g, counts, ids, ch)
		return ResultMsg{Group: g.Name, ID: id, From: g, At: at, Sim: sim, Err: err}
	})
	return cmd
}

// Update implements ui.Component.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case ui.DataMsg:
		if g, ok := msg.Snapshot.Group(m.group); ok {
			m.g, m.polled = g, msg.Snapshot.Time
			m.topicIDs, m.counts = msg.Snapshot.TopicIDs, msg.Snapshot.PartitionCounts
		}
		m.clamp()
	case ResultMsg:
		if msg.ID != m.reqID || msg.Group != m.group {
			return nil
		}
		m.pending = false
		r := msg
		m.res = &r
		m.movesWin.Top()
		m.result = 0
		if m.pick >= m.predictions() {
			m.pick = 0
		}
	case tea.KeyMsg:
		k := &m.Move
		n, h := m.memberCount(), m.memberRows()
		switch {
		case key.Matches(msg, k.Up):
			m.win.Move(-1, n, h)
		case key.Matches(msg, k.Down):
			m.win.Move(1, n, h)
		case key.Matches(msg, k.Top):
			m.win.Top()
		case key.Matches(msg, k.Bottom):
			m.win.Bottom(n, h)
		case key.Matches(msg, k.PageUp):
			m.movesWin.Page(-1, len(m.shownMoves()), m.moveRows())
		case key.Matches(msg, k.PageDown):
			m.movesWin.Page(1, len(m.shownMoves()), m.moveRows())
		}
	}
	return nil
}

func (m *Model) memberCount() int {
	if m.g == nil {
		return 0
	}
	return len(m.g.Members)
}

func (m *Model) predictions() int {
	if m.res == nil || m.res.Sim == nil {
		return 0
	}
	return len(m.res.Sim.Predictions)
}

// targetsShown reports whether the tab shows a KIP-848 group's current and
// target assignments: until something is simulated for it.
func (m *Model) targetsShown() bool {
	return m.g != nil && m.g.Type == kafka.TypeConsumer && m.res == nil
}

// shownMoves are the moves in the lower table: the picked assignor's, or a
// KIP-848 group's partitions still to move.
func (m *Model) shownMoves() []rebalance.Move {
	if m.targetsShown() {
		return rebalance.Reconciliation(m.g)
	}
	if m.predictions() == 0 {
		return nil
	}
	return m.res.Sim.Predictions[m.pick].Result(m.result).Moves
}

// Layout. Classic, with a result: status line, members (header + rows),
// summary (header + one row per assignor: the group's own first when it is
// not a Java one, then the four Java/franz-go ones), the moves title,
// moves (header + rows). Without a result the members take the whole
// height.
func (m *Model) summaryLines() int {
	return 1 + max(len(rebalance.Assignors), m.predictions())
}

func (m *Model) lowerShown() bool {
	return m.g != nil && (m.targetsShown() || m.res != nil)
}

func (m *Model) memberRows() int {
	avail := m.Height - 2 // status line, member header
	if m.lowerShown() {
		fixed := 2 // moves title, moves header
		if !m.targetsShown() {
			fixed += m.summaryLines()
		}
		avail = (avail - fixed) / 2
		avail = min(avail, max(1, m.memberCount()))
	}
	return max(1, avail)
}

func (m *Model) moveRows() int {
	fixed := 2 + m.memberRows() + 2
	if m.g != nil && !m.targetsShown() {
		fixed += m.summaryLines()
	}
	return max(1, m.Height-fixed)
}

func (m *Model) clamp() {
	m.win.Clamp(m.memberCount(), m.memberRows())
	m.movesWin.Clamp(len(m.shownMoves()), m.moveRows())
}

// View implements ui.Component.
func (m *Model) View() string {
	var b strings.Builder
	fit := func(s string) string { return table.FitLine(s, m.Width, m.Glyphs.Ellipsis) }
	st := table.NewStyles(m.Styles, m.Glyphs)
	if m.g == nil {
		b.WriteString(m.Styles.Dim.Render(fit("waiting for a poll that lists group " + format.Sanitize(strconv.Quote(m.group)) + m.Glyphs.Ellipsis)))
		return b.String()
	}
	g := m.g
	members := g.Members
	if why := absentWhy(g); why != "" {
		b.WriteString(m.Styles.Label.Render(fit("Simulate is not available for this group")))
		b.WriteByte('\n')
		for _, l := range format.Wrap(why, m.Width) {
			b.WriteString(m.Styles.Dim.Render(fit(l)))
			b.WriteByte('\n')
		}
		return strings.TrimSuffix(b.String(), "\n")
	}
	if m.targetsShown() {
		b.WriteString(m.Styles.Label.Render(fit("KIP-848: the broker assigns partitions; current and target per member")))
		b.WriteByte('\n')
		rows := ConsumerRows(g)
		m.targets.Render(&b, st, m.Width, m.memberRows()+1, m.win, len(rows), func(i int) MemberRow { return rows[i] }, true)
		pending := m.shownMoves()
		b.WriteByte('\n')
		if len(pending) == 0 {
			b.WriteString(m.Styles.OK.Render(fit("every member holds its target assignment")))
			return b.String()
		}
		b.WriteString(m.Styles.Warn.Render(fit(format.Count(len(pending), "partition", "partitions") + " still to move")))
		b.WriteByte('\n')
		m.moves.Render(&b, st, m.Width, m.moveRows()+1, m.movesWin, len(pending), func(i int) rebalance.Move { return pending[i] }, false)
		return b.String()
	}

	b.WriteString(m.statusLine(fit))
	b.WriteByte('\n')
	m.members.Render(&b, st, m.Width, m.memberRows()+1, m.win, len(members), func(i int) *kafka.Member { return &members[i] }, true)
	if m.res == nil {
		return b.String()
	}
	b.WriteByte('\n')
	if m.res.Err != nil {
		b.WriteString(m.Styles.Error.Render(fit("! " + safe(m.res.Err.Error()))))
		return b.String()
	}
	rows := SummaryRows(m.res.Sim)
	m.summary.Render(&b, st, m.Width, m.summaryLines(), table.Window{Cursor: m.pick}, len(rows), func(i int) SummaryRow { return rows[i] }, true)
	p := &m.res.Sim.Predictions[m.pick]
	b.WriteByte('\n')
	var title string
	switch {
	case p.Err != nil:
		title = p.Assignor + ": " + p.Err.Error()
	default:
		title = render.ResultTitle(p, m.result)
	}
	title = safe(title) + m.Glyphs.Sep + "a: next assignor"
	if p.Ranged() {
		title += m.Glyphs.Sep + "w: next result"
	}
	if r := m.res.Sim.StaticRejoin; r != nil {
		// A static member that comes back in time keeps its partitions.
		who := "if it rejoins in time: "
		if r.Rejoined > 1 {
			who = "if they rejoin in time: "
		}
		title += m.Glyphs.Sep + who + format.Predicted(len(r.Moves), r.Rejoined)
	}
	b.WriteString(m.Styles.Title.Render(fit(title)))
	if mv := p.Result(m.result).Moves; p.Err == nil && len(mv) > 0 {
		b.WriteByte('\n')
		m.moves.Render(&b, st, m.Width, m.moveRows()+1, m.movesWin, len(mv), func(i int) rebalance.Move { return mv[i] }, false)
	}
	return b.String()
}

func (m *Model) statusLine(fit func(string) string) string {
	switch {
	case m.pending:
		return m.Styles.Warn.Render(fit("simulating" + m.Glyphs.Ellipsis))
	case m.res == nil:
		return m.Styles.Label.Render(fit("press l to predict the selected member leaving, n a member joining"))
	case m.res.Err != nil:
		return m.Styles.Label.Render(fit("the simulation failed; pick a member and press l, or n"))
	}
	return m.Styles.Label.Render(fit(m.changeLine()))
}

// changeLine says what was simulated, as of which poll, in the tab's
// width: the leaving members' names are shortened (never the rest), and
// the note on partition counts is left out when there is no room for it.
func (m *Model) changeLine() string {
	ch := m.res.Sim.Change
	at := " (poll of " + m.res.At.Format("15:04:05")
	note := "; partition counts as the group's partitions show them"
	if m.res.From != nil && m.res.From.Type == kafka.TypeConsumer {
		note = "; the broker's assignors, partition counts as the poll read them"
	}
	var head string
	if len(ch.Leave) > 0 {
		verb := " leaves"
		if len(ch.Leave) > 1 {
			verb = " leave"
		}
		// Each name as the tables show it, unless the line has less room.
		room := min(m.Width-format.Width("if "+verb+at+")"), len(ch.Leave)*(m.idWidth()+2)-2)
		head = "if " + labels(m.res.From, ch.Leave, room, m.Glyphs.Ellipsis) + verb
	} else {
		head = "if " + format.Count(ch.Join, "member joins", "members join")
	}
	if format.Width(head+at+note+")") <= m.Width {
		return head + at + note + ")"
	}
	return head + at + ")"
}

// safe makes text that holds a broker's words (errors, member ids,
// assignor names) one line a terminal only draws.
func safe(s string) string {
	return format.Sanitize(strings.Join(strings.Fields(s), " "))
}

// absentWhy says why the group's type has nothing to simulate (a share
// group: the broker assigns), or "" when it does. kafka.GroupType.Check
// decides, as it does for `kgroups simulate`.
func absentWhy(g *kafka.Group) string {
	var ue *kafka.UnsupportedError
	if err := g.Type.Check(g.Name, kafka.ActionSimulate); errors.As(err, &ue) {
		if ue.Why == "" {
			return "kgroups does not know " + format.Sanitize(string(g.Type)) + " groups."
		}
		return "This is a " + format.Sanitize(string(g.Type)) + " group: " + ue.Why + "."
	}
	return ""
}
