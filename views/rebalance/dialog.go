// Package rebalance is the member removal dialog: it says whom it removes
// and what the coordinator will do (kafka/rebalance.Plan.Explain), asks for
// confirmation (the group's name in a protected context), removes the
// members, waits for the group to settle and shows who left, who joined and
// which partitions moved, or the broker's answer verbatim when it refuses.
package rebalance

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka"
	krebalance "github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/table"
	"github.com/kgroups/kgroups/views/ui"
)

// Backend is the dialog's only way to the cluster, called from Cmds, never
// from Update or View. kafka/rebalance.Service implements it for a
// context's connection: Remove writes the receipt and removes, Wait waits
// for the group to settle.
type Backend interface {
	Remove(ctx context.Context, p *krebalance.Plan) (*krebalance.Removal, error)
	Wait(ctx context.Context, p *krebalance.Plan, removed []string, opts krebalance.WaitOptions) (*krebalance.Outcome, error)
}

// ClosedMsg says the dialog is done. Changed is true when a member was
// removed, so the root polls at once; Summary says what happened, for the
// status line.
type ClosedMsg struct {
	Group   string
	Changed bool
	Summary string
}

type step int

const (
	stepConfirm step = iota
	stepRemoving
	stepWaiting
	stepResult
)

// removedMsg and waitedMsg carry the results of the dialog's requests,
// tagged with the request so that a late answer (after Esc) is dropped.
type removedMsg struct {
	id      uint64
	removal *krebalance.Removal
	err     error
}

type waitedMsg struct {
	id  uint64
	out *krebalance.Outcome
	err error
}

// RequestID implements ui.Reply.
func (m removedMsg) RequestID() uint64 { return m.id }

// RequestID implements ui.Reply.
func (m waitedMsg) RequestID() uint64 { return m.id }

// Keys are the dialog's bindings; its hint line is generated from them.
type Keys struct {
	Confirm key.Binding
	Enter   key.Binding
	Cancel  key.Binding
	Close   key.Binding
}

// DefaultKeys returns the dialog's bindings.
func DefaultKeys() Keys {
	return Keys{
		Confirm: key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "remove")),
		Enter:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "remove")),
		Cancel:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Close:   key.NewBinding(key.WithKeys("esc", "enter"), key.WithHelp("enter/esc", "close")),
	}
}

// Model is the dialog. It is modal: it reads every key while open. Esc
// before confirming changes nothing; while the removal is sent it waits for
// the broker's answer; while waiting for the group to settle, Esc stops
// watching (the members are already removed).
type Model struct {
	ui.Common
	keys    Keys
	backend Backend
	ctx     context.Context
	cancel  context.CancelFunc
	pending uint64 // the request in flight, 0 for none

	group   string
	plan    *krebalance.Plan
	planErr error

	step    step
	confirm ui.Input
	notice  string

	results   []krebalance.Result
	receipt   string // written before the removal was sent
	removeErr error
	removed   []string
	out       *krebalance.Outcome
	waitErr   error
	stopped   bool // Esc while waiting

	offset int // first line shown, when the text is taller than the area
}

// New opens the dialog for removing sel from g (the group as the screen
// showed it). The plan is made here from g alone; nothing is sent before
// the user confirms.
func New(c ui.Common, b Backend, ctx context.Context, g *kafka.Group, sel krebalance.Selection) *Model {
	m := &Model{Common: c, keys: DefaultKeys(), backend: b, ctx: ctx, group: g.Name}
	m.plan, m.planErr = krebalance.PlanRemoval(g, sel, "")
	return m
}

// Group is the group the dialog acts on.
func (m *Model) Group() string { return m.group }

// Bindings implements ui.Component: the step's keys, which the dialog
// also shows on its last line.
func (m *Model) Bindings() []ui.Section {
	return []ui.Section{{Title: "Remove members", Bindings: m.hints()}}
}

// ShortHelp implements ui.Component: the dialog draws its own hints.
func (m *Model) ShortHelp() []key.Binding { return nil }

// Capturing implements ui.Component: the dialog is modal.
func (m *Model) Capturing() bool { return true }

// Actions implements ui.Component: the dialog's steps are its keys.
func (m *Model) Actions() []ui.Action { return nil }

// SetSize implements ui.Component.
func (m *Model) SetSize(w, h int) { m.Common.SetSize(w, h) }

// Update implements ui.Component.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case removedMsg:
		return m.onRemoved(msg)
	case waitedMsg:
		m.onWaited(msg)
	case tea.KeyMsg:
		return m.onKey(msg)
	}
	return nil
}

func (m *Model) onKey(msg tea.KeyMsg) tea.Cmd {
	k := &m.keys
	m.notice = ""
	switch m.step {
	case stepConfirm:
		switch {
		case key.Matches(msg, k.Cancel):
			return m.closed(false)
		case m.planErr != nil:
			return nil
		case m.Protected && key.Matches(msg, k.Enter):
			if m.confirm.Value() != m.group {
				m.notice = "type the group's name exactly to confirm"
				return nil
			}
			return m.startRemove()
		case m.Protected:
			// Letters are the name; the arrows still reach the prompt.
			if !m.confirm.Update(msg) {
				m.scroll(msg)
			}
		case key.Matches(msg, k.Confirm):
			return m.startRemove()
		default:
			m.scroll(msg)
		}
	case stepRemoving:
		if key.Matches(msg, k.Cancel) {
			m.notice = "the removal is being sent and cannot be interrupted: wait for the broker's answer"
		}
	case stepWaiting:
		if key.Matches(msg, k.Cancel) {
			m.stopWaiting()
			m.stopped = true
			m.step = stepResult
		}
	case stepResult:
		if key.Matches(msg, k.Close) {
			return m.closed(len(m.removed) > 0)
		}
		m.scroll(msg)
	}
	return nil
}

func (m *Model) scroll(msg tea.KeyMsg) {
	switch {
	case key.Matches(msg, m.Move.Up):
		m.offset--
	case key.Matches(msg, m.Move.Down):
		m.offset++
	}
	// Not past the last page, so that Up after overshooting moves at once.
	m.offset = max(0, min(m.offset, len(m.lines())-max(1, m.Height-1)))
}

func (m *Model) stopWaiting() {
	if m.cancel != nil {
		m.cancel()
		m.cancel = nil
	}
	m.pending = 0
}

func (m *Model) closed(changed bool) tea.Cmd {
	m.stopWaiting()
	msg := ClosedMsg{Group: m.group, Changed: changed, Summary: m.summary()}
	return func() tea.Msg { return msg }
}

// startRemove sends the removal in a Cmd that captures the plan and the
// backend, never the model.
func (m *Model) startRemove() tea.Cmd {
	m.step = stepRemoving
	b, p, ctx := m.backend, m.plan, m.ctx
	var cmd tea.Cmd
	m.pending, cmd = ui.Ask(m, func(id uint64) ui.Reply {
		r, err := b.Remove(ctx, p)
		return removedMsg{id: id, removal: r, err: err}
	})
	return cmd
}

func (m *Model) onRemoved(msg removedMsg) tea.Cmd {
	if msg.id != m.pending || m.step != stepRemoving {
		return nil
	}
	m.pending = 0
	m.removeErr = msg.err
	if msg.removal != nil {
		m.results, m.receipt = msg.removal.Results, msg.removal.Receipt
	}
	m.notice = "" // "being sent" no longer holds
	m.removed = krebalance.Removed(m.results)
	if len(m.removed) == 0 {
		m.step = stepResult
		return nil
	}
	m.step = stepWaiting
	ctx, cancel := context.WithCancel(m.ctx)
	m.cancel = cancel
	b, p, removed := m.backend, m.plan, m.removed
	var cmd tea.Cmd
	m.pending, cmd = ui.Ask(m, func(id uint64) ui.Reply {
		out, err := b.Wait(ctx, p, removed, krebalance.WaitOptions{})
		return waitedMsg{id: id, out: out, err: err}
	})
	return cmd
}

func (m *Model) onWaited(msg waitedMsg) {
	if msg.id != m.pending || m.step != stepWaiting {
		return
	}
	m.pending = 0
	if m.cancel != nil {
		m.cancel()
		m.cancel = nil
	}
	m.out, m.waitErr = msg.out, msg.err
	m.step = stepResult
}

// summary is one line for the status bar once the dialog closes.
func (m *Model) summary() string {
	switch {
	case len(m.removed) == 0:
		return ""
	case m.out != nil && m.waitErr == nil:
		return "removed " + format.Count(len(m.removed), "member", "members") + " from " + m.group + "; " + format.Count(len(m.out.Moves), "partition", "partitions") + " moved"
	}
	return "removed " + format.Count(len(m.removed), "member", "members") + " from " + m.group
}

// View implements ui.Component: the text of the step, scrolled when it
// is taller than the area, and the step's keys on the last line.
func (m *Model) View() string {
	lines := m.lines()
	h := max(1, m.Height-1)
	off := min(m.offset, max(0, len(lines)-h))
	end := min(len(lines), off+h)
	var b strings.Builder
	for _, l := range lines[off:end] {
		b.WriteString(table.FitLine(l, m.Width, m.Glyphs.Ellipsis))
		b.WriteByte('\n')
	}
	b.WriteString(m.hintLine())
	return b.String()
}

func (m *Model) lines() []string {
	s := m.Styles
	var out []string
	add := func(text string) {
		out = append(out, format.Wrap(text, max(20, m.Width-2))...)
	}
	title := "Remove members from " + m.group
	if m.plan != nil && len(m.plan.Targets) == 1 {
		title = "Remove a member from " + m.group
	}
	out = append(out, s.Title.Render(title))
	if m.planErr != nil {
		out = append(out, "")
		for _, l := range format.Wrap(m.planErr.Error(), max(20, m.Width-2)) {
			out = append(out, s.Error.Render(l))
		}
		return out
	}
	p := m.plan
	out = append(out, s.Label.Render("state ")+p.State+m.Glyphs.Sep+s.Label.Render("assignor ")+columns.Text(p.Assignor)+m.Glyphs.Sep+string(p.Type), "")
	for _, t := range p.Targets {
		line := "  " + t.Member.MemberID
		if t.Member.InstanceID != "" {
			line += " (instance " + t.Member.InstanceID + ")"
		}
		line += m.Glyphs.Sep + format.Count(t.Member.PartitionCount(), "partition", "partitions") + m.Glyphs.Sep + "by " + string(t.Method)
		out = append(out, line)
	}
	out = append(out, "")
	switch m.step {
	case stepConfirm:
		for _, e := range p.Explain() {
			add(e)
		}
		out = append(out, "")
		if m.Protected {
			out = append(out, s.Warn.Render("Protected context: type the group's name to confirm: ")+m.confirm.View(true, m.Glyphs.Caret))
		} else {
			out = append(out, s.Warn.Render("Remove "+format.Count(len(p.Targets), "member", "members")+"? The group will rebalance."))
		}
	case stepRemoving:
		out = append(out, s.Dim.Render("sending the removal to the coordinator"+m.Glyphs.Ellipsis))
	case stepWaiting:
		out = append(out, "removed: "+strings.Join(m.removed, ", "))
		out = append(out, s.Dim.Render("waiting for the group to settle"+m.Glyphs.Ellipsis))
	case stepResult:
		out = append(out, m.resultLines()...)
	}
	if m.notice != "" {
		out = append(out, "", s.Warn.Render(m.notice))
	}
	return out
}

// resultLines give the broker's answers verbatim, then who left, who joined
// and the partitions that moved.
func (m *Model) resultLines() []string {
	s := m.Styles
	var out []string
	// The broker's words are kept whole, wrapped rather than cut.
	refused := func(text string) {
		for _, l := range format.Wrap(text, max(20, m.Width-2)) {
			out = append(out, s.Error.Render(l))
		}
	}
	if m.removeErr != nil && len(m.results) == 0 {
		refused("the broker refused: " + m.removeErr.Error())
	}
	for _, r := range m.results {
		if r.Err != nil {
			refused("not removed: " + r.Target.Member.MemberID + ": " + r.Err.Error())
		}
	}
	receipt := func() {
		if m.receipt != "" {
			out = append(out, format.Wrap("Receipt: "+m.receipt, max(20, m.Width-2))...)
		}
	}
	if len(m.removed) == 0 {
		out = append(out, "Nothing changed.")
		receipt()
		return out
	}
	out = append(out, "removed: "+strings.Join(m.removed, ", "))
	receipt()
	if m.stopped {
		out = append(out, s.Dim.Render("stopped waiting for the group to settle; the group screen shows what follows"))
		return out
	}
	if m.waitErr != nil {
		msg := m.waitErr.Error()
		if errors.Is(m.waitErr, krebalance.ErrNotSettled) {
			msg = "not settled: " + msg
		}
		for _, l := range format.Wrap(msg, max(20, m.Width-2)) {
			out = append(out, s.Warn.Render(l))
		}
	}
	o := m.out
	if o == nil {
		return out
	}
	if o.After != nil {
		out = append(out, "now "+o.After.State+" with "+format.Count(len(o.After.Members), "member", "members")+m.Glyphs.Sep+"took "+format.Span(o.Took))
	}
	if o.Short {
		out = append(out, s.Warn.Render("some removed members did not rejoin: their processes may be gone"))
	}
	out = append(out, "left: "+memberList(o.Left), "joined: "+memberList(o.Joined))
	out = append(out, format.Count(len(o.Moves), "partition", "partitions")+" moved")
	for _, mv := range o.Moves {
		out = append(out, "  "+mv.Topic+"/"+strconv.Itoa(int(mv.Partition))+" "+columns.Text(mv.From)+" "+arrow(m.Glyphs)+" "+columns.Text(mv.To))
	}
	return out
}

func arrow(g ui.Glyphs) string {
	if g.Cursor == ui.ASCIIGlyphs.Cursor {
		return "->"
	}
	return "→"
}

func memberList(ms []kafka.Member) string {
	if len(ms) == 0 {
		return columns.Missing
	}
	ids := make([]string, len(ms))
	for i, mb := range ms {
		ids[i] = mb.MemberID
		if mb.ClientID != "" {
			ids[i] += " (" + mb.ClientID + ")"
		}
	}
	return strings.Join(ids, ", ")
}

// hints are the step's keys.
func (m *Model) hints() []key.Binding {
	k := &m.keys
	var bs []key.Binding
	switch m.step {
	case stepConfirm:
		switch {
		case m.planErr != nil:
			c := k.Cancel
			c.SetHelp("esc", "close")
			bs = []key.Binding{c}
		case m.Protected:
			bs = []key.Binding{k.Enter, k.Cancel}
		default:
			bs = []key.Binding{k.Confirm, k.Cancel}
		}
	case stepWaiting:
		c := k.Cancel
		c.SetHelp("esc", "stop waiting")
		bs = []key.Binding{c}
	case stepResult:
		bs = []key.Binding{k.Close}
	}
	return bs
}

// hintLine is the step's keys, generated from the bindings.
func (m *Model) hintLine() string {
	bs := m.hints()
	parts := make([]string, 0, len(bs))
	for _, b := range bs {
		parts = append(parts, m.Styles.HelpKey.Render(b.Help().Key)+" "+m.Styles.Dim.Render(b.Help().Desc))
	}
	return table.FitLine(strings.Join(parts, m.Glyphs.Sep), m.Width, m.Glyphs.Ellipsis)
}
