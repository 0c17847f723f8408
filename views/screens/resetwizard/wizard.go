package resetwizard

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/widgets/dialog"
	"github.com/kgroups/kgroups/views/widgets/table"
)

// Backend is the wizard's only way to the cluster. It is called from Cmds,
// never from Update or View; kafka/reset.Service implements it for a
// connected context.
type Backend interface {
	Plan(ctx context.Context, req reset.Request) (*reset.Plan, error)
	Apply(ctx context.Context, p *reset.Plan) (*reset.Result, error)
	PlanDelete(ctx context.Context, group string) (*reset.GroupDeletion, error)
	ApplyDelete(ctx context.Context, d *reset.GroupDeletion) (*reset.DeleteResult, error)
}

// Mode is what the wizard was opened for.
type Mode int

const (
	// ModeGroup resets a group's partitions: all it has commits for, or
	// the topics typed (R on the groups screen).
	ModeGroup Mode = iota
	// ModePartitions resets the partitions chosen on the group screen.
	ModePartitions
	// ModeSeek moves one partition to an offset or a time.
	ModeSeek
	// ModeDelete deletes the group.
	ModeDelete
)

type step int

const (
	stepScenario step = iota
	stepParams
	stepPlanning
	stepPreview
	stepConfirm
	stepApplying
	stepResult
)

// ClosedMsg says the wizard is done and must be closed. Changed is true when
// the cluster was changed, so the root polls at once and every screen shows
// the new offsets; Receipt is the receipt written, if any.
type ClosedMsg struct {
	Group   string
	Changed bool
	Receipt string
	// Note says why nothing changed, for the status line: cancelled, or
	// nothing to change. Empty when Changed.
	Note string
}

// The notes of a wizard that closed without changing anything.
const (
	NoteCancelled = "cancelled, nothing changed"
	NoteNoop      = "nothing to change: every partition already holds its target offset"
)

// planMsg and applyMsg carry the results of the wizard's requests, tagged
// with the request they answer so that a late answer to a cancelled request
// is dropped.
type planMsg struct {
	id   uint64
	plan *reset.Plan
	del  *reset.GroupDeletion
	err  error
}

type applyMsg struct {
	id  uint64
	res *reset.Result
	del *reset.DeleteResult
	err error
}

// RequestID implements ui.Reply.
func (m planMsg) RequestID() uint64 { return m.id }

// RequestID implements ui.Reply.
func (m applyMsg) RequestID() uint64 { return m.id }

// scenario is a choice on the first step.
type scenario struct {
	kind reset.Kind
	desc string
	// param names the value the scenario needs ("" for none); example
	// shows the accepted forms until something is typed.
	param, example string
}

var allScenarios = []scenario{
	{reset.ToEarliest, "the log start", "", ""},
	{reset.ToLatest, "the log end", "", ""},
	{reset.ToCurrent, "the committed offset (the log end where there is none)", "", ""},
	{reset.ToOffset, "an offset, clamped to the log", "Offset", "a whole number, e.g. 1500"},
	{reset.ShiftBy, "the committed offset moved by N records", "Shift", "records, negative to go back, e.g. -100"},
	{reset.ToDatetime, "the first record at or after a time", "Date and time", "yyyy-MM-ddTHH:mm:ss.SSS (UTC unless a zone such as Z or +01:00 follows) or RFC 3339"},
	{reset.ByDuration, "the first record at or after a time that long ago", "Duration", "ISO-8601 such as PT30M or P1DT2H, or Go such as 90m"},
	{reset.FromFile, "offsets from a CSV file (topic,partition,offset)", "File", "the path of a file written by kgroups reset --export"},
}

func pick(kinds ...reset.Kind) []scenario {
	var out []scenario
	for _, k := range kinds {
		for _, s := range allScenarios {
			if s.kind == k {
				out = append(out, s)
			}
		}
	}
	return out
}

// Model is the reset wizard: scenario, parameters (checked as they are
// typed), preview, confirmation and result, in a dialog frame. It is modal:
// it reads every key while open, and Esc cancels at any step before
// applying, changing nothing.
type Model struct {
	dialog.Model
	// Connection are the words that name the cluster on a kgroups
	// command line (ContextInfo.Connection): the command a refusal
	// suggests carries them, so that it runs pasted.
	Connection []string
	keys       Keys
	backend    Backend
	ctx        context.Context
	cancel     context.CancelFunc

	mode  Mode
	group string
	// share is set once the group is known to be a share group (see
	// ForGroupType).
	share bool
	// fixed is the scope chosen before the wizard opened (selected rows
	// or the partition to seek); nil in ModeGroup, where it is typed.
	fixed *reset.Scope

	step    step
	choices []scenario
	choice  int

	value  ui.Input
	topics ui.Input
	// counts are the topics' partition counts from the last poll, which
	// the typed topics are checked against; nil checks nothing.
	counts      map[string]int32
	focusTopics bool
	// problem is why the wizard cannot go on: a parameter that does not
	// parse, or a plan the cluster refused. It is shown where it applies.
	problem string

	plan    *reset.Plan
	del     *reset.GroupDeletion
	blocked error
	planTab table.Table[PlanRow]
	delTab  table.Table[reset.Row]

	confirm ui.Input
	notice  string

	res      *reset.Result
	delRes   *reset.DeleteResult
	applyErr error
	resTab   table.Table[ResultRow]
}

func newModel(ctx context.Context, c ui.Common, b Backend, mode Mode, group string) *Model {
	m := &Model{Model: dialog.New(c), keys: DefaultKeys(c.Glyphs), backend: b, ctx: ctx, mode: mode, group: group}
	m.value.Prompt = ""
	m.topics.Prompt = ""
	m.planTab.Cols = planCols("")
	m.delTab.Cols = deleteCols()
	m.resTab.Cols = resultCols("")
	return m
}

// NewGroup opens the wizard to reset group: every partition it has a
// commit for, or the topics typed on the parameters step.
func NewGroup(ctx context.Context, c ui.Common, b Backend, group string) *Model {
	m := newModel(ctx, c, b, ModeGroup, group)
	m.choices = allScenarios
	return m
}

// SetPartitionCounts gives the wizard the topics' partition counts (a
// poll's kafka.Snapshot.PartitionCounts), so that the Topics field flags a
// topic or partition that does not exist as it is typed.
func (m *Model) SetPartitionCounts(counts map[string]int32) { m.counts = counts }

// NewPartitions opens the wizard to reset the given partitions of group
// (the rows selected on the group screen).
func NewPartitions(ctx context.Context, c ui.Common, b Backend, group string, tps []reset.TP) *Model {
	m := newModel(ctx, c, b, ModePartitions, group)
	m.choices = pick(reset.ToEarliest, reset.ToLatest, reset.ToCurrent, reset.ToOffset, reset.ShiftBy, reset.ToDatetime, reset.ByDuration)
	var ts []reset.TopicScope
	for _, tp := range tps {
		ts = append(ts, reset.TopicScope{Topic: tp.Topic, Partitions: []int32{tp.Partition}})
	}
	m.fixed = &reset.Scope{Topics: reset.MergeTopicScopes(ts)}
	return m
}

// NewSeek opens the wizard to move one partition of group to an offset or a
// time.
func NewSeek(ctx context.Context, c ui.Common, b Backend, group string, tp reset.TP) *Model {
	m := newModel(ctx, c, b, ModeSeek, group)
	m.choices = pick(reset.ToOffset, reset.ToDatetime, reset.ByDuration, reset.ToEarliest, reset.ToLatest)
	m.fixed = &reset.Scope{Topics: []reset.TopicScope{{Topic: tp.Topic, Partitions: []int32{tp.Partition}}}}
	return m
}

// NewDelete opens the wizard to delete group, showing what it holds first.
// It starts reading the group at once: call Init for the first Cmd.
func NewDelete(ctx context.Context, c ui.Common, b Backend, group string) *Model {
	return newModel(ctx, c, b, ModeDelete, group)
}

// Init returns the wizard's first Cmd: the delete wizard reads the group
// straight away; the others wait for a scenario.
func (m *Model) Init() tea.Cmd {
	if m.mode == ModeDelete {
		return m.startPlan()
	}
	return nil
}

// Group is the group the wizard acts on.
func (m *Model) Group() string { return m.group }

// Bindings implements ui.Component: the step's keys, which the wizard also
// shows on its last line, and the scrolling keys.
func (m *Model) Bindings() []ui.Section {
	return m.KeySections("Wizard", m.keys.hints(m.step, m.Protected, m.noop(), m.mode != ModeDelete))
}

// noop reports whether the previewed reset changes no offset: there is
// nothing to apply, so the wizard asks nothing.
func (m *Model) noop() bool {
	return m.mode != ModeDelete && m.plan != nil && m.plan.Summary().Changed == 0
}

// ShortHelp implements ui.Component: the wizard draws its own hints.
func (m *Model) ShortHelp() []key.Binding { return nil }

// Capturing implements ui.Component: the wizard is modal and reads
// text, so every key comes to it (Ctrl+C still quits).
func (m *Model) Capturing() bool { return true }

// Actions implements ui.Component: the wizard's steps are its keys.
func (m *Model) Actions() []ui.Action { return nil }

// Update implements ui.Component.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case planMsg:
		if m.Answers(msg) {
			m.onPlan(msg)
		}
	case applyMsg:
		if m.Answers(msg) {
			m.onApply(msg)
		}
	case tea.KeyMsg:
		return m.onKey(msg)
	}
	return nil
}

// setStep moves to step s, showing it from the top.
func (m *Model) setStep(s step) {
	m.step = s
	m.Top()
}

// scroll gives msg to the frame, which scrolls on its keys.
func (m *Model) scroll(msg tea.KeyMsg) {
	c := m.content()
	m.Scroll(msg, &c)
}

func (m *Model) current() scenario {
	if m.mode == ModeDelete || len(m.choices) == 0 {
		return scenario{}
	}
	return m.choices[m.choice]
}

// hasParams reports whether the chosen scenario has a parameters step: a
// value to type, or in ModeGroup the topics.
func (m *Model) hasParams() bool {
	return m.mode == ModeGroup || m.current().param != ""
}

func (m *Model) onKey(msg tea.KeyMsg) tea.Cmd {
	k := &m.keys
	m.notice = ""
	if key.Matches(msg, k.Cancel) {
		switch m.step {
		case stepApplying:
			m.notice = "applying cannot be interrupted: wait for the result"
			return nil
		case stepResult:
			return m.close()
		}
		return m.abandon()
	}
	switch m.step {
	case stepScenario:
		return m.keyScenario(msg)
	case stepParams:
		return m.keyParams(msg)
	case stepPreview:
		return m.keyPreview(msg)
	case stepConfirm:
		return m.keyConfirm(msg)
	case stepResult:
		if key.Matches(msg, k.Close) {
			return m.close()
		}
		m.scroll(msg)
	}
	return nil
}

// abandon cancels the wizard before anything was applied: any read in
// flight is cancelled and its answer will be dropped.
func (m *Model) abandon() tea.Cmd {
	if m.cancel != nil {
		m.cancel()
		m.cancel = nil
	}
	m.Drop()
	group := m.group
	return func() tea.Msg { return ClosedMsg{Group: group, Note: NoteCancelled} }
}

// close closes the wizard after a result.
func (m *Model) close() tea.Cmd {
	msg := ClosedMsg{Group: m.group}
	switch {
	case m.res != nil:
		msg.Changed, msg.Receipt = true, m.res.ReceiptPath
	case m.delRes != nil:
		msg.Changed, msg.Receipt = true, m.delRes.ReceiptPath
	}
	return func() tea.Msg { return msg }
}

func (m *Model) keyScenario(msg tea.KeyMsg) tea.Cmd {
	k := &m.keys
	n := len(m.choices)
	switch {
	case key.Matches(msg, k.Up):
		m.choice = (m.choice + n - 1) % n
	case key.Matches(msg, k.Down):
		m.choice = (m.choice + 1) % n
	case key.Matches(msg, k.Choose):
		return m.chosen()
	case msg.Type == tea.KeyRunes && len(msg.Runes) == 1 && msg.Runes[0] >= '1' && msg.Runes[0] <= '9':
		if i := int(msg.Runes[0] - '1'); i < n {
			m.choice = i
			return m.chosen()
		}
		return nil
	default:
		m.scroll(msg)
		return nil
	}
	// The choice stays in sight on a short terminal.
	c, first := m.build()
	m.Reveal(&c, first+m.choice)
	return nil
}

// chosen moves on from the scenario step.
func (m *Model) chosen() tea.Cmd {
	m.problem = ""
	if m.hasParams() {
		m.setStep(stepParams)
		m.value.SetValue("")
		m.focusTopics = m.current().param == ""
		return nil
	}
	return m.startPlan()
}

func (m *Model) keyParams(msg tea.KeyMsg) tea.Cmd {
	k := &m.keys
	switch {
	case key.Matches(msg, k.Choose):
		if _, err := m.request(); err != nil {
			m.problem = err.Error()
			return nil
		}
		return m.startPlan()
	case key.Matches(msg, k.NextItem):
		if m.mode == ModeGroup && m.current().param != "" {
			m.focusTopics = !m.focusTopics
		}
		return nil
	}
	in := &m.value
	if m.focusTopics {
		in = &m.topics
	}
	if in.Update(msg) {
		m.problem = ""
	} else {
		m.scroll(msg)
	}
	return nil
}

// valueCheck parses the parameter as typed: the scenario it makes, a short
// confirmation of what was understood, or why it is not accepted ("" and nil
// while nothing is typed).
func (m *Model) valueCheck() (sc reset.Scenario, understood string, err error) {
	cur := m.current()
	sc.Kind = cur.kind
	text := strings.TrimSpace(m.value.Value())
	if cur.param == "" {
		return sc, "", nil
	}
	if text == "" {
		return sc, "", errEmpty
	}
	switch cur.kind {
	case reset.ToOffset:
		sc.Offset, err = reset.ParseOffset(text)
		understood = fmt.Sprintf("offset %d, clamped to each partition's log", sc.Offset)
	case reset.ShiftBy:
		sc.Shift, err = reset.ParseShift(text)
		understood = fmt.Sprintf("%+d records from each committed offset", sc.Shift)
	case reset.ToDatetime:
		sc.Time, err = reset.ParseDatetime(text)
		understood = reset.FormatTime(sc.Time)
	case reset.ByDuration:
		sc.Duration, err = reset.ParseDuration(text)
		understood = sc.Duration.String() + " ago: " + reset.FormatTime(m.now().Add(-sc.Duration))
	case reset.FromFile:
		sc.Source = text
		understood = "read when the plan is made"
	}
	return sc, understood, err
}

var errEmpty = errors.New("nothing typed yet")

// scopeCheck parses the topics typed in ModeGroup; empty means every
// partition the group has a commit for.
func (m *Model) scopeCheck() (reset.Scope, error) {
	if m.fixed != nil {
		return *m.fixed, nil
	}
	fields := strings.Fields(m.topics.Value())
	if len(fields) == 0 {
		return reset.Scope{AllTopics: true}, nil
	}
	scope, err := reset.ParseScope(false, fields)
	if err != nil {
		return scope, err
	}
	if err := reset.CheckScope(scope, m.counts); err != nil {
		return scope, errors.New(strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	return scope, nil
}

// request assembles the plan request from what was chosen and typed.
func (m *Model) request() (reset.Request, error) {
	sc, _, err := m.valueCheck()
	if errors.Is(err, errEmpty) {
		return reset.Request{}, fmt.Errorf("%s: %s", m.current().param, "type "+m.current().example)
	}
	if err != nil {
		return reset.Request{}, err
	}
	scope, err := m.scopeCheck()
	if err != nil {
		return reset.Request{}, err
	}
	if sc.Kind == reset.FromFile && m.fixed == nil && scope.AllTopics {
		// The file names its partitions; typed topics filter them.
		scope = reset.Scope{}
	}
	return reset.Request{Group: m.group, Scenario: sc, Scope: scope, Now: m.now()}, nil
}

func (m *Model) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

// startPlan starts reading the cluster for a plan. The Cmd captures the
// request and the backend; it reads the offsets file, if any, there too.
func (m *Model) startPlan() tea.Cmd {
	var req reset.Request
	if m.mode != ModeDelete {
		var err error
		if req, err = m.request(); err != nil {
			m.problem = err.Error()
			return nil
		}
	}
	m.setStep(stepPlanning)
	m.problem = ""
	ctx, cancel := context.WithCancel(m.ctx)
	m.cancel = cancel
	b, group, mode := m.backend, m.group, m.mode
	return m.Ask(m, func(id uint64) ui.Reply {
		defer cancel()
		msg := planMsg{id: id}
		if mode == ModeDelete {
			msg.del, msg.err = b.PlanDelete(ctx, group)
			return msg
		}
		if req.Scenario.Kind == reset.FromFile {
			rows, err := readOffsetsFile(ctx, req.Scenario.Source)
			if err != nil {
				msg.err = err
				return msg
			}
			req.Scenario.Rows = rows
		}
		msg.plan, msg.err = b.Plan(ctx, req)
		return msg
	})
}

func readOffsetsFile(ctx context.Context, path string) ([]reset.FileRow, error) {
	rows, err := reset.ReadCSVFile(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rows, nil
}

func (m *Model) onPlan(msg planMsg) {
	if m.step != stepPlanning {
		return
	}
	m.cancel = nil
	if m.learnType(msg.plan, msg.del, msg.err) {
		m.problem = msg.err.Error()
		m.setStep(stepScenario)
		return
	}
	if msg.err != nil {
		m.problem = msg.err.Error()
		switch {
		case m.mode == ModeDelete:
			m.setStep(stepResult)
			m.applyErr = msg.err
		case m.hasParams():
			m.setStep(stepParams)
		default:
			m.setStep(stepScenario)
		}
		return
	}
	m.plan, m.del = msg.plan, msg.del
	if m.del != nil {
		m.blocked = m.del.Blocker()
	} else {
		m.blocked = m.plan.Blocker()
	}
	if live, ok := errors.AsType[*reset.LiveGroupError](m.blocked); ok && live.Connection == nil {
		live.Connection = m.Connection
	}
	m.setStep(stepPreview)
}

func (m *Model) keyPreview(msg tea.KeyMsg) tea.Cmd {
	k := &m.keys
	switch {
	case key.Matches(msg, k.Choose):
		switch {
		case m.noop():
			group := m.group
			return func() tea.Msg { return ClosedMsg{Group: group, Note: NoteNoop} }
		case m.ReadOnly:
			m.notice = "the context is read-only: this is a preview only, and nothing can be applied"
		case m.blocked != nil:
			m.notice = "cannot apply now: see the reason above"
		default:
			m.setStep(stepConfirm)
			m.confirm.SetValue("")
		}
	case key.Matches(msg, k.Edit) && m.mode != ModeDelete:
		m.plan = nil
		if m.hasParams() {
			m.setStep(stepParams)
		} else {
			m.setStep(stepScenario)
		}
	default:
		m.scroll(msg)
	}
	return nil
}

func (m *Model) keyConfirm(msg tea.KeyMsg) tea.Cmd {
	k := &m.keys
	if m.Protected {
		if key.Matches(msg, k.Choose) {
			if !dialog.NameConfirmed(m.confirm.Value(), m.group) {
				m.notice = "type the group's name exactly to apply: " + format.Sanitize(m.group)
				if !format.Safe(m.group) {
					m.notice = "type the group's name exactly, or as shown, to apply: " + format.Sanitize(m.group)
				}
				return nil
			}
			return m.startApply()
		}
		// Letters are the name; the arrows still scroll.
		if !m.confirm.Update(msg) {
			m.scroll(msg)
		}
		return nil
	}
	switch {
	case key.Matches(msg, k.Apply):
		return m.startApply()
	case key.Matches(msg, k.Edit) || msg.String() == "n":
		m.setStep(stepPreview)
	default:
		m.scroll(msg)
	}
	return nil
}

// startApply applies the previewed plan. It is the only place the wizard
// writes, and it refuses in a read-only context whatever led here.
func (m *Model) startApply() tea.Cmd {
	if m.ReadOnly || m.blocked != nil || m.noop() {
		m.setStep(stepPreview)
		return nil
	}
	m.setStep(stepApplying)
	b, ctx := m.backend, m.ctx
	plan, del := m.plan, m.del
	return m.Ask(m, func(id uint64) ui.Reply {
		msg := applyMsg{id: id}
		if del != nil {
			msg.del, msg.err = b.ApplyDelete(ctx, del)
		} else {
			msg.res, msg.err = b.Apply(ctx, plan)
		}
		return msg
	})
}

func (m *Model) onApply(msg applyMsg) {
	if m.step != stepApplying {
		return
	}
	m.setStep(stepResult)
	m.res, m.delRes, m.applyErr = msg.res, msg.del, msg.err
}

func planCols(t kafka.GroupType) []table.Col[PlanRow] {
	cs := planColumnsFor(t)[1:] // the group is in the title
	out := make([]table.Col[PlanRow], len(cs))
	for i, c := range cs {
		out[i] = table.Col[PlanRow]{Column: c}
	}
	// Narrow terminals lose the log bounds first; the note shrinks.
	out[4].Drop, out[5].Drop = 2, 1 // LOG-START, LOG-END
	out[7].Flex, out[7].Min = true, 8
	out[0].Flex, out[0].Min = true, 8
	return out
}

func resultCols(t kafka.GroupType) []table.Col[ResultRow] {
	cs := resultColumnsFor(t)[1:]
	out := make([]table.Col[ResultRow], len(cs))
	for i, c := range cs {
		out[i] = table.Col[ResultRow]{Column: c}
	}
	// The verdict stays; the offset before goes first, then the one
	// re-read (the verdict says whether it matches).
	out[3].Drop, out[4].Drop = 2, 1
	out[0].Flex, out[0].Min = true, 8
	out[5].Flex, out[5].Min = true, 8
	return out
}

func deleteCols() []table.Col[reset.Row] {
	return []table.Col[reset.Row]{
		{Column: columns.Column[reset.Row]{Title: "TOPIC", Align: columns.Left, Value: func(r reset.Row) string { return columns.Text(r.Topic) }}, Flex: true, Min: 8},
		{Column: columns.Column[reset.Row]{Title: "PARTITION", Align: columns.Right, Value: func(r reset.Row) string { return fmt.Sprint(r.Partition) }}},
		{Column: columns.Column[reset.Row]{Title: "CURRENT-OFFSET", Align: columns.Right, Value: func(r reset.Row) string { return columns.Offset(r.Current) }}},
	}
}

// stateText names a group's state for the preview, including that it does
// not exist.
func stateText(exists bool, state string) string {
	if !exists {
		return "does not exist"
	}
	if state == "" {
		return kafka.StateUnknown
	}
	return state
}
