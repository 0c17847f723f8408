package resetwizard

import (
	"errors"
	"fmt"
	"strings"

	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/kafka/write"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/render"
	"github.com/kgroups/kgroups/views/widgets/dialog"
	"github.com/kgroups/kgroups/views/widgets/table"
)

// View implements ui.Component: a title, the step's text, the table of the
// plan or result when there is one (only its visible rows are drawn), and
// the step's keys on the last line, in the dialog frame, which scrolls
// what does not fit.
func (m *Model) View() string {
	c := m.content()
	return m.Render(&c)
}

// content is what the wizard shows at its step.
func (m *Model) content() dialog.Content {
	c, _ := m.build()
	return c
}

// build makes the content, and says which item of its text is the first
// scenario, so that the chosen one can be kept in sight.
func (m *Model) build() (c dialog.Content, firstChoice int) {
	s := m.Styles
	t := &c.Text
	t.Line(m.title())
	t.Blank()
	switch m.step {
	case stepScenario:
		what := "offsets"
		if m.share {
			what = "start offsets"
		}
		t.Para(nil, "Move the "+what+" of "+m.scopeText()+" to:")
		firstChoice = t.Item()
		for i, ch := range m.choices {
			mark := "  "
			if i == m.choice {
				mark = m.Glyphs.Cursor + " "
			}
			line := fmt.Sprintf("%s%d  %-12s %s", mark, i+1, ch.kind, ch.desc)
			if i == m.choice {
				line = s.Selected.Render(line)
			}
			t.Line(line)
		}
		if m.problem != "" {
			t.Blank()
			t.Para(&s.Error, m.problem)
		}
	case stepParams:
		cur := m.current()
		t.Line(s.Label.Render("Scenario: ") + string(cur.kind) + " " + s.Dim.Render("("+cur.desc+")"))
		if cur.param != "" {
			t.Line(s.Label.Render(cur.param+": ") + m.value.View(!m.focusTopics, m.Glyphs.Caret))
			_, understood, err := m.valueCheck()
			switch {
			case errors.Is(err, errEmpty):
				t.Para(&s.Dim, "  "+cur.example)
			case err != nil:
				// The accepted formats are in the example line; the
				// error need not repeat them while typing.
				msg := err.Error()
				for _, f := range []string{reset.DatetimeFormats, reset.DurationFormats} {
					if short, found := strings.CutSuffix(msg, f); found {
						msg = strings.TrimRight(short, ":; ")
					}
				}
				t.Para(&s.Error, "  "+m.Glyphs.Fail+" "+msg)
				if msg != err.Error() {
					t.Para(&s.Dim, "  accepted: "+cur.example)
				}
			default:
				t.Para(&s.OK, "  "+m.Glyphs.OK+" "+understood)
			}
		}
		if m.mode == ModeGroup {
			t.Line(s.Label.Render("Topics: ") + m.topics.View(m.focusTopics, m.Glyphs.Caret))
			if _, err := m.scopeCheck(); err != nil {
				t.Para(&s.Error, "  "+m.Glyphs.Fail+" "+err.Error())
			} else if strings.TrimSpace(m.topics.Value()) == "" {
				switch {
				case cur.kind == reset.FromFile:
					t.Para(&s.Dim, "  empty: every row of the file; or TOPIC[:P,...] separated by spaces to keep only those")
				case m.share:
					t.Para(&s.Dim, "  empty: every partition the group has a start offset for; or TOPIC[:P,...] separated by spaces")
				default:
					t.Para(&s.Dim, "  empty: every partition the group has a commit for; or TOPIC[:P,...] separated by spaces")
				}
			}
		} else {
			t.Line(s.Label.Render("Partitions: ") + format.Sanitize(m.scopeText()))
		}
		if m.problem != "" {
			t.Blank()
			t.Para(&s.Error, m.problem)
		}
	case stepPlanning:
		t.Para(&s.Dim, "Reading the group, its offsets and the logs"+m.Glyphs.Ellipsis+" (nothing is written, and the group is not joined)")
	case stepPreview, stepConfirm, stepApplying:
		m.preview(t)
		switch m.step {
		case stepPreview:
			switch {
			case m.noop():
				t.Blank()
				t.Para(&s.OK, m.Glyphs.OK+" Nothing to change: every partition already holds its target offset. Enter closes; nothing is written.")
			case m.ReadOnly:
				t.Para(&s.Warn, "The context is read-only: preview only.")
			}
		case stepConfirm:
			t.Blank()
			t.Para(nil, m.consequence())
			if m.Protected {
				t.Line(s.Warn.Render("The context is protected. Type the group's name"+dialog.NameHint(m.group)+" to apply: ") + m.confirm.View(true, m.Glyphs.Caret))
			} else {
				t.Line(s.Warn.Render("Apply? y to apply, b to go back, esc to cancel"))
			}
		case stepApplying:
			t.Blank()
			t.Para(&s.Dim, "Writing the receipt, applying and re-reading"+m.Glyphs.Ellipsis)
		}
	case stepResult:
		m.result(t)
	}
	if m.notice != "" {
		t.Para(&s.Warn, m.notice)
	}
	c.Table = m.table()
	c.Hints = m.keys.hints(m.step, m.Protected, m.noop(), m.mode != ModeDelete)
	return c, firstChoice
}

// table is the plan's, the deletion's or the result's table, if the step
// has one.
func (m *Model) table() *dialog.Table {
	st := table.NewStyles(m.Styles, m.Glyphs)
	window := func(first int) table.Window { return table.Window{Cursor: first, Offset: first} }
	switch {
	case m.step == stepResult && m.res != nil:
		rows := ResultRows(m.res)
		return &dialog.Table{Rows: len(rows), Render: func(b *strings.Builder, width, height, first int) {
			m.resTab.Render(b, st, width, height, window(first), len(rows), func(i int) ResultRow { return rows[i] }, false)
		}}
	case m.step == stepResult:
		return nil
	case m.plan != nil:
		rows, group := m.plan.Rows, m.group
		return &dialog.Table{Rows: len(rows), Render: func(b *strings.Builder, width, height, first int) {
			m.planTab.Render(b, st, width, height, window(first), len(rows), func(i int) PlanRow { return PlanRow{Group: group, Row: rows[i]} }, false)
		}}
	case m.del != nil:
		rows := m.del.Offsets
		return &dialog.Table{Rows: len(rows), Render: func(b *strings.Builder, width, height, first int) {
			m.delTab.Render(b, st, width, height, window(first), len(rows), func(i int) reset.Row { return rows[i] }, false)
		}}
	}
	return nil
}

// steps are the wizard's steps, for its title.
var (
	steps       = dialog.Steps{"scenario", "parameters", "preview", "confirm", "result"}
	deleteSteps = dialog.Steps{"preview", "confirm", "result"}
)

func (m *Model) title() string {
	s, sep := m.Styles, m.Glyphs.Sep
	var what string
	switch m.mode {
	case ModeGroup:
		what = "Reset offsets"
	case ModePartitions:
		what = "Reset partitions"
	case ModeSeek:
		what = "Seek partition"
	case ModeDelete:
		what = "Delete group"
	}
	// A long name is cut so that the step stays in sight.
	step := m.stepName()
	room := m.Width - format.Width(what) - 2*format.Width(sep) - len("group ") - format.Width(step)
	name := format.Truncate(format.Sanitize(m.group), max(8, room), m.Glyphs.Ellipsis)
	return s.Title.Render(what) + sep + s.Label.Render("group ") + name + sep + s.Dim.Render(step)
}

// stepName says where in the wizard the user is.
func (m *Model) stepName() string {
	var at string
	switch m.step {
	case stepScenario:
		at = "scenario"
	case stepParams:
		at = "parameters"
	case stepPlanning, stepPreview:
		at = "preview"
	case stepConfirm, stepApplying:
		at = "confirm"
	case stepResult:
		at = "result"
	}
	if m.mode == ModeDelete {
		return deleteSteps.At(at)
	}
	return steps.At(at)
}

// scopeText says which partitions the wizard acts on.
func (m *Model) scopeText() string {
	if m.fixed == nil {
		return "group " + m.group
	}
	var parts []string
	for _, ts := range m.fixed.Topics {
		parts = append(parts, ts.String())
	}
	return strings.Join(parts, " ")
}

// preview describes the plan above its table: the group's state, what was
// asked, the summary, warnings, and why it cannot be applied if so.
func (m *Model) preview(t *dialog.Text) {
	s, sep := m.Styles, m.Glyphs.Sep
	if d := m.del; d != nil {
		one, many := m.offsetNoun()
		t.Line(s.Label.Render("state ") + s.State(d.State, false).Render(format.Sanitize(stateText(d.Exists, d.State))) + sep +
			format.Count(len(d.Members), "member", "members") + sep + format.Count(len(d.Offsets), one, many))
	} else if p := m.plan; p != nil {
		t.Line(s.Label.Render("state ") + s.State(p.State, false).Render(format.Sanitize(stateText(p.Exists, p.State))) + sep +
			s.Label.Render("scope ") + format.Sanitize(p.Scope.String()))
		t.Line(s.Label.Render("scenario ") + format.Sanitize(p.Scenario.String()))
		t.Para(nil, p.Summary().String()+".")
		for _, w := range p.Warnings {
			t.Para(&s.Warn, "Warning: "+w)
		}
	}
	if m.blocked != nil && !m.noop() {
		t.Para(&s.Error, m.Glyphs.Fail+" Cannot apply now: "+m.blocked.Error())
	}
}

// consequence says what confirming does, before the user confirms.
func (m *Model) consequence() string {
	if d := m.del; d != nil {
		one, many := m.offsetNoun()
		return fmt.Sprintf("This deletes group %s and its %s. A receipt keeps them first; kgroups undo RECEIPT brings them back.", d.Group, format.Count(len(d.Offsets), one, many))
	}
	sum := m.plan.Summary()
	if m.share {
		return fmt.Sprintf("This sets %s of share group %s (%d will change). A receipt of the start offsets before and after is written first; kgroups undo RECEIPT puts them back.",
			format.Count(len(m.plan.Rows), "start offset", "start offsets"), m.group, sum.Changed)
	}
	return fmt.Sprintf("This commits %s to group %s (%d will change). A receipt of the offsets before and after is written first; kgroups undo RECEIPT puts them back.",
		format.Count(len(m.plan.Rows), "offset", "offsets"), m.group, sum.Changed)
}

func (m *Model) result(t *dialog.Text) {
	s := m.Styles
	switch {
	case m.applyErr != nil:
		t.Para(&s.Error, m.Glyphs.Fail+" Nothing was changed: "+m.applyErr.Error())
	case m.delRes != nil:
		switch d := m.delRes; d.Outcome() {
		case write.Verified:
			t.Para(&s.OK, m.Glyphs.OK+" Group "+m.group+" deleted; it is gone from the cluster.")
			if d.Err != nil {
				t.Para(&s.Warn, d.Status())
			}
		case write.Refused:
			t.Para(&s.Error, m.Glyphs.Fail+" Group "+m.group+" was not deleted: "+d.Status())
		default:
			t.Para(&s.Error, m.Glyphs.Fail+" Group "+m.group+" may not be deleted: "+d.Status())
			t.Para(&s.Error, "Check the groups list, or run "+m.describeCommand()+".")
		}
		t.Para(nil, "Receipt: "+m.delRes.ReceiptPath)
		if m.delRes.LockNote != "" {
			t.Para(&s.Warn, "Note: "+m.delRes.LockNote)
		}
	case m.res != nil:
		tl := m.res.Tally()
		n := len(m.res.Partitions)
		switch tl.Worst() {
		case write.Verified:
			t.Para(&s.OK, fmt.Sprintf("%s All %s verified: each holds its new offset.", m.Glyphs.OK, format.Count(n, "partition", "partitions")))
		case write.Refused:
			t.Para(&s.Error, fmt.Sprintf("%s %d of %s refused by the broker (they keep their offset): see STATUS.", m.Glyphs.Fail, tl.Refused, format.Count(n, "partition", "partitions")))
		default:
			var parts []string
			if tl.Refused > 0 {
				parts = append(parts, fmt.Sprintf("%d refused by the broker", tl.Refused))
			}
			if tl.Unknown > 0 {
				parts = append(parts, fmt.Sprintf("%d with an outcome unknown", tl.Unknown))
			}
			if tl.ChangedAfter > 0 {
				parts = append(parts, fmt.Sprintf("%d changed by another writer after ours", tl.ChangedAfter))
			}
			t.Para(&s.Error, fmt.Sprintf("%s Of %s, %s: see STATUS. Check what the group holds now on the group screen, or run %s.",
				m.Glyphs.Fail, format.Count(n, "partition", "partitions"), strings.Join(parts, ", "), m.describeCommand()))
		}
		t.Para(nil, "Receipt: "+m.res.ReceiptPath)
		if m.res.LockNote != "" {
			t.Para(&s.Warn, "Note: "+m.res.LockNote)
		}
	}
}

// describeCommand is the command that shows the group as it is now.
func (m *Model) describeCommand() string {
	return render.DescribeCommand(m.group)
}
