// Package removal is the member removal dialog: it says whom it removes
// and what the coordinator will do (kafka/rebalance.Plan.Explain), asks for
// confirmation (the group's name in a protected context), removes the
// members, waits for the group to settle and shows who left, who joined and
// which partitions moved, or the broker's answer verbatim when it refuses.
package removal

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/kafka/write"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/render"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/widgets/dialog"
)

// Backend is the dialog's only way to the cluster, called from Cmds, never
// from Update or View. kafka/rebalance.Service implements it for a
// context's connection: Remove writes the receipt and removes, Wait waits
// for the group to settle.
type Backend interface {
	Remove(ctx context.Context, p *rebalance.Plan) (*rebalance.Removal, error)
	Wait(ctx context.Context, p *rebalance.Plan, removed []string, opts rebalance.WaitOptions) (*rebalance.Outcome, error)
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
	removal *rebalance.Removal
	err     error
}

type waitedMsg struct {
	id  uint64
	out *rebalance.Outcome
	err error
}

// RequestID implements ui.Reply.
func (m removedMsg) RequestID() uint64 { return m.id }

// RequestID implements ui.Reply.
func (m waitedMsg) RequestID() uint64 { return m.id }

// Keys are the dialog's bindings; its hint line is generated from them.
// The dialog frame adds its scrolling keys.
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

// Model is the dialog, in a dialog frame. It is modal: it reads every key
// while open. Esc before confirming changes nothing; while the removal is
// sent it waits for the broker's answer; while waiting for the group to
// settle, Esc stops watching (the members are already removed). The arrows
// and page keys scroll what does not fit, at every step.
type Model struct {
	dialog.Model
	keys    Keys
	backend Backend
	ctx     context.Context
	cancel  context.CancelFunc

	group   string
	plan    *rebalance.Plan
	planErr error

	step    step
	confirm ui.Input
	notice  string

	results   []rebalance.Result
	receipt   string // written before the removal was sent
	removeErr error
	removed   []string
	out       *rebalance.Outcome
	waitErr   error
	stopped   bool // Esc while waiting
}

// New opens the dialog for removing sel from g (the group as the screen
// showed it). The plan is made here from g alone; nothing is sent before
// the user confirms.
func New(ctx context.Context, c ui.Common, b Backend, g *kafka.Group, sel rebalance.Selection) *Model {
	m := &Model{Model: dialog.New(c), keys: DefaultKeys(), backend: b, ctx: ctx, group: g.Name}
	m.plan, m.planErr = rebalance.PlanRemoval(g, sel, "")
	return m
}

// Group is the group the dialog acts on.
func (m *Model) Group() string { return m.group }

// Bindings implements ui.Component: the step's keys, which the dialog
// also shows on its last line, and the scrolling keys.
func (m *Model) Bindings() []ui.Section {
	return m.KeySections("Remove members", m.hints())
}

// ShortHelp implements ui.Component: the dialog draws its own hints.
func (m *Model) ShortHelp() []key.Binding { return nil }

// Capturing implements ui.Component: the dialog is modal.
func (m *Model) Capturing() bool { return true }

// Actions implements ui.Component: the dialog's steps are its keys.
func (m *Model) Actions() []ui.Action { return nil }

// Update implements ui.Component.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case removedMsg:
		if m.Answers(msg) {
			return m.onRemoved(msg)
		}
	case waitedMsg:
		if m.Answers(msg) {
			m.onWaited(msg)
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

func (m *Model) onKey(msg tea.KeyMsg) tea.Cmd {
	k := &m.keys
	m.notice = ""
	switch m.step {
	case stepConfirm:
		switch {
		case key.Matches(msg, k.Cancel):
			return m.closed(false)
		case m.planErr != nil:
			m.scroll(msg)
		case m.Protected && key.Matches(msg, k.Enter):
			if !dialog.NameConfirmed(m.confirm.Value(), m.group) {
				m.notice = "type the group's name exactly to confirm"
				if !format.Safe(m.group) {
					m.notice = "type the group's name exactly, or as shown, to confirm"
				}
				return nil
			}
			return m.startRemove()
		case m.Protected:
			// Letters are the name; the arrows still scroll to the
			// prompt.
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
			return nil
		}
		m.scroll(msg)
	case stepWaiting:
		if key.Matches(msg, k.Cancel) {
			m.stopWaiting()
			m.stopped = true
			m.setStep(stepResult)
			return nil
		}
		m.scroll(msg)
	case stepResult:
		if key.Matches(msg, k.Close) {
			return m.closed(len(m.removed) > 0)
		}
		m.scroll(msg)
	}
	return nil
}

// stopWaiting cancels the wait in flight, if any: its answer is dropped.
func (m *Model) stopWaiting() {
	if m.cancel != nil {
		m.cancel()
		m.cancel = nil
	}
	m.Drop()
}

func (m *Model) closed(changed bool) tea.Cmd {
	m.stopWaiting()
	msg := ClosedMsg{Group: m.group, Changed: changed, Summary: m.summary()}
	return func() tea.Msg { return msg }
}

// startRemove sends the removal in a request that captures the plan and
// the backend, never the model.
func (m *Model) startRemove() tea.Cmd {
	m.setStep(stepRemoving)
	b, p, ctx := m.backend, m.plan, m.ctx
	return m.Ask(m, func(id uint64) ui.Reply {
		r, err := b.Remove(ctx, p)
		return removedMsg{id: id, removal: r, err: err}
	})
}

func (m *Model) onRemoved(msg removedMsg) tea.Cmd {
	if m.step != stepRemoving {
		return nil
	}
	m.removeErr = msg.err
	if msg.removal != nil {
		m.results, m.receipt = msg.removal.Results, msg.removal.Receipt
	}
	m.notice = "" // "being sent" no longer holds
	m.removed = rebalance.Removed(m.results)
	if len(m.removed) == 0 {
		m.setStep(stepResult)
		return nil
	}
	m.setStep(stepWaiting)
	ctx, cancel := context.WithCancel(m.ctx)
	m.cancel = cancel
	b, p, removed := m.backend, m.plan, m.removed
	return m.Ask(m, func(id uint64) ui.Reply {
		out, err := b.Wait(ctx, p, removed, rebalance.WaitOptions{})
		return waitedMsg{id: id, out: out, err: err}
	})
}

func (m *Model) onWaited(msg waitedMsg) {
	if m.step != stepWaiting {
		return
	}
	if m.cancel != nil {
		m.cancel()
		m.cancel = nil
	}
	m.out, m.waitErr = msg.out, msg.err
	m.setStep(stepResult)
}

// summary is one line for the status bar once the dialog closes, with the
// receipt's path when one was written. A long group name is cut, so that
// what happened shows.
func (m *Model) summary() string {
	s := m.outcomeLine()
	if s != "" && m.receipt != "" {
		s += "; receipt " + m.receipt
	}
	return s
}

// outcomeLine says what the removal did, in one line ("" when nothing was
// sent).
func (m *Model) outcomeLine() string {
	group := format.Truncate(format.Sanitize(m.group), max(8, m.Width/3), m.Glyphs.Ellipsis)
	members := format.Count(len(m.removed), "member", "members")
	unknown := rebalance.WorstOutcome(m.results) == write.Unknown
	switch {
	case unknown:
		return "outcome unknown for some members of " + group + ": check the group"
	case len(m.removed) == 0 && (m.receipt == "" || (len(m.results) == 0 && m.removeErr == nil)):
		return ""
	case len(m.removed) == 0:
		return "no member removed from " + group
	case m.out != nil && m.waitErr == nil:
		return "removed " + members + " from " + group + "; " + format.Moved(len(m.out.Moves), m.out.Rejoined)
	}
	return "removed " + members + " from " + group
}

// View implements ui.Component: the text of the step, scrolled when it
// is taller than the area, and the step's keys on the last line.
func (m *Model) View() string {
	c := m.content()
	return m.Render(&c)
}

// content is what the dialog shows at its step. The broker's words and the
// members' ids are sanitized: paragraphs by the frame, lines here.
func (m *Model) content() dialog.Content {
	s, sep, safe := m.Styles, m.Glyphs.Sep, format.Sanitize
	var c dialog.Content
	t := &c.Text
	c.Hints = m.hints()
	title := "Remove members from "
	if m.plan != nil && len(m.plan.Targets) == 1 {
		title = "Remove a member from "
	}
	t.Line(s.Title.Render(title + safe(m.group)))
	if m.planErr != nil {
		t.Blank()
		t.Para(&s.Error, m.planErr.Error())
		return c
	}
	p := m.plan
	t.Line(s.Label.Render("state ") + safe(p.State) + sep + s.Label.Render("assignor ") + safe(columns.Text(p.Assignor)) + sep + safe(string(p.Type)))
	t.Blank()
	for _, tg := range p.Targets {
		line := "  " + safe(tg.Member.MemberID)
		if tg.Member.InstanceID != "" {
			line += " (instance " + safe(tg.Member.InstanceID) + ")"
		}
		line += sep + format.Count(tg.Member.PartitionCount(), "partition", "partitions") + sep + "by " + safe(string(tg.Method))
		t.Line(line)
	}
	t.Blank()
	switch m.step {
	case stepConfirm:
		for _, e := range p.Explain() {
			t.Para(nil, e)
		}
		t.Blank()
		if m.Protected {
			t.Line(s.Warn.Render("Protected context: type the group's name"+dialog.NameHint(m.group)+" to confirm: ") + m.confirm.View(true, m.Glyphs.Caret))
		} else {
			t.Line(s.Warn.Render("Remove " + format.Count(len(p.Targets), "member", "members") + "? The group will rebalance."))
		}
	case stepRemoving:
		t.Line(s.Dim.Render("sending the removal to the coordinator" + m.Glyphs.Ellipsis))
	case stepWaiting:
		t.Para(nil, "removed: "+strings.Join(m.removed, ", "))
		t.Line(s.Dim.Render("waiting for the group to settle" + m.Glyphs.Ellipsis))
	case stepResult:
		m.result(t)
	}
	if m.notice != "" {
		t.Blank()
		t.Para(&s.Warn, m.notice)
	}
	return c
}

// receiptLine says where the receipt of the removal is, once written.
func (m *Model) receiptLine(t *dialog.Text) {
	if m.receipt != "" {
		t.Para(nil, "Receipt: "+m.receipt)
	}
}

// result gives the broker's answers verbatim, then who left, who joined
// and the partitions that moved.
func (m *Model) result(t *dialog.Text) {
	s, safe := m.Styles, format.Sanitize
	// The broker's words are kept whole, wrapped rather than cut.
	if m.removeErr != nil && len(m.results) == 0 {
		t.Para(&s.Error, "the broker refused: "+m.removeErr.Error())
	}
	unknown := 0
	for _, r := range m.results {
		switch r.Outcome() {
		case write.Verified:
			if r.Err != nil {
				t.Para(&s.Warn, r.Target.Member.MemberID+": "+r.Status())
			}
		case write.Refused:
			t.Para(&s.Error, "not removed: "+r.Target.Member.MemberID+": "+r.Err.Error())
		default:
			unknown++
			t.Para(&s.Error, r.Target.Member.MemberID+": "+r.Status())
		}
	}
	if unknown > 0 {
		t.Para(&s.Error, m.Glyphs.Fail+" The outcome is unknown for "+format.Count(unknown, "member", "members")+": check the group screen, or run "+
			render.DescribeCommand(m.group)+", to see whether they were removed.")
	}
	if len(m.removed) == 0 {
		if unknown == 0 {
			t.Line("Nothing changed.")
		}
		m.receiptLine(t)
		return
	}
	t.Para(nil, "removed: "+strings.Join(m.removed, ", "))
	m.receiptLine(t)
	if m.stopped {
		t.Para(&s.Dim, "stopped waiting for the group to settle; the group screen shows what follows")
		return
	}
	if m.waitErr != nil {
		msg := m.waitErr.Error()
		if errors.Is(m.waitErr, rebalance.ErrNotSettled) {
			msg = "not settled: " + msg
		}
		t.Para(&s.Warn, msg)
	}
	o := m.out
	if o == nil {
		return
	}
	if o.After != nil {
		t.Line("now " + safe(o.After.State) + " with " + format.Count(len(o.After.Members), "member", "members") + m.Glyphs.Sep + "took " + format.Span(o.Took))
	}
	if o.Short {
		t.Line(s.Warn.Render("some removed members did not rejoin: their processes may be gone"))
	}
	t.Para(nil, "left: "+memberList(o.Left))
	t.Para(nil, "joined: "+memberList(o.Joined))
	if rounds := o.Rounds.Sentence(); rounds != "" {
		t.Para(nil, rounds)
	}
	t.Line(format.Moved(len(o.Moves), o.Rejoined))
	for _, mv := range o.Moves {
		t.Line("  " + safe(mv.Topic) + "/" + strconv.Itoa(int(mv.Partition)) + " " + safe(columns.Text(mv.From)) + " " + m.Glyphs.Arrow + " " + safe(columns.Text(mv.To)))
	}
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
	switch m.step {
	case stepConfirm:
		switch {
		case m.planErr != nil:
			c := k.Cancel
			c.SetHelp("esc", "close")
			return []key.Binding{c}
		case m.Protected:
			return []key.Binding{k.Enter, k.Cancel}
		}
		return []key.Binding{k.Confirm, k.Cancel}
	case stepWaiting:
		c := k.Cancel
		c.SetHelp("esc", "stop waiting")
		return []key.Binding{c}
	case stepResult:
		return []key.Binding{k.Close}
	}
	return nil
}
