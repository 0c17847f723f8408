package reset

import (
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"

	kreset "github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/table"
)

// View implements common.Component: a title, the step's text, the table of
// the plan or result when there is one (only its visible rows are drawn),
// and the step's keys on the last line.
func (m *Model) View() string {
	var b strings.Builder
	lines := m.lines()
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(table.FitLine(l, m.Width, m.Glyphs.Ellipsis))
	}
	if n := m.rowCount(); n > 0 {
		b.WriteByte('\n')
		st := table.Styles{Header: &m.Styles.TableHeader, Selected: &m.Styles.Selected, Cursor: m.Glyphs.Cursor, Ellipsis: m.Glyphs.Ellipsis}
		h := m.tableRows() + 1
		switch {
		case m.step == stepResult:
			rows := ResultRows(m.res)
			m.resTab.Render(&b, st, m.Width, h, m.win, n, func(i int) ResultRow { return rows[i] }, false)
		case m.plan != nil:
			rows := m.plan.Rows
			group := m.group
			m.planTab.Render(&b, st, m.Width, h, m.win, n, func(i int) PlanRow { return PlanRow{Group: group, Row: rows[i]} }, false)
		case m.del != nil:
			rows := m.del.Offsets
			m.delTab.Render(&b, st, m.Width, h, m.win, n, func(i int) kreset.Row { return rows[i] }, false)
		}
		if first, last := m.win.Visible(n, h-1); first > 0 || last < n {
			b.WriteString("\n" + m.Styles.Dim.Render(fmt.Sprintf("  rows %d-%d of %d", first+1, last, n)))
		}
	}
	b.WriteString("\n" + m.hintLine())
	return b.String()
}

// lines are the text above the table for the current step.
func (m *Model) lines() []string {
	s := m.Styles
	var out []string
	out = append(out, m.title())
	add := func(style *lipgloss.Style, text string) {
		for _, l := range format.Wrap(text, max(20, m.Width-2)) {
			if style != nil {
				l = style.Render(l)
			}
			out = append(out, l)
		}
	}
	out = append(out, "")
	switch m.step {
	case stepScenario:
		add(nil, "Move the offsets of "+m.scopeText()+" to:")
		for i, c := range m.choices {
			mark := "  "
			if i == m.choice {
				mark = m.Glyphs.Cursor + " "
			}
			line := fmt.Sprintf("%s%d  %-12s %s", mark, i+1, c.kind, c.desc)
			if i == m.choice {
				line = s.Selected.Render(line)
			}
			out = append(out, line)
		}
		if m.problem != "" {
			out = append(out, "")
			add(&s.Error, m.problem)
		}
	case stepParams:
		cur := m.current()
		out = append(out, s.Label.Render("Scenario: ")+string(cur.kind)+" "+s.Dim.Render("("+cur.desc+")"))
		if cur.param != "" {
			out = append(out, s.Label.Render(cur.param+": ")+m.value.View(!m.focusTopics, m.Glyphs.Caret))
			_, understood, err := m.valueCheck()
			switch {
			case errors.Is(err, errEmpty):
				add(&s.Dim, "  "+cur.example)
			case err != nil:
				// The accepted formats are in the example line; the
				// error need not repeat them while typing.
				msg := err.Error()
				for _, f := range []string{kreset.DatetimeFormats, kreset.DurationFormats} {
					if short, found := strings.CutSuffix(msg, f); found {
						msg = strings.TrimRight(short, ":; ")
					}
				}
				add(&s.Error, "  "+m.Glyphs.Fail+" "+msg)
				if msg != err.Error() {
					add(&s.Dim, "  accepted: "+cur.example)
				}
			default:
				add(&s.OK, "  "+m.Glyphs.OK+" "+understood)
			}
		}
		if m.mode == ModeGroup {
			out = append(out, s.Label.Render("Topics: ")+m.topics.View(m.focusTopics, m.Glyphs.Caret))
			if _, err := m.scopeCheck(); err != nil {
				add(&s.Error, "  "+m.Glyphs.Fail+" "+err.Error())
			} else if strings.TrimSpace(m.topics.Value()) == "" {
				if cur.kind == kreset.FromFile {
					add(&s.Dim, "  empty: every row of the file; or TOPIC[:P,...] separated by spaces to keep only those")
				} else {
					add(&s.Dim, "  empty: every partition the group has a commit for; or TOPIC[:P,...] separated by spaces")
				}
			}
		} else {
			out = append(out, s.Label.Render("Partitions: ")+m.scopeText())
		}
		if m.problem != "" {
			out = append(out, "")
			add(&s.Error, m.problem)
		}
	case stepPlanning:
		add(&s.Dim, "Reading the group, its offsets and the logs"+m.Glyphs.Ellipsis+" (nothing is written, and the group is not joined)")
	case stepPreview, stepConfirm, stepApplying:
		out = append(out, m.previewLines()...)
		switch m.step {
		case stepPreview:
			if m.ReadOnly {
				add(&s.Warn, "The context is read-only: preview only.")
			}
		case stepConfirm:
			out = append(out, "")
			add(nil, m.consequence())
			if m.Protected {
				out = append(out, s.Warn.Render("The context is protected. Type the group's name to apply: ")+m.confirm.View(true, m.Glyphs.Caret))
			} else {
				out = append(out, s.Warn.Render("Apply? y to apply, b to go back, esc to cancel"))
			}
		case stepApplying:
			out = append(out, "")
			add(&s.Dim, "Writing the receipt, applying and re-reading"+m.Glyphs.Ellipsis)
		}
	case stepResult:
		out = append(out, m.resultLines()...)
	}
	if m.notice != "" {
		add(&s.Warn, m.notice)
	}
	return out
}

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
	return s.Title.Render(what) + sep + s.Label.Render("group ") + m.group + sep + s.Dim.Render(m.stepName())
}

// stepName says where in the wizard the user is.
func (m *Model) stepName() string {
	names := []string{"scenario", "parameters", "preview", "confirm", "result"}
	if m.mode == ModeDelete {
		names = []string{"preview", "confirm", "result"}
	}
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
	for i, n := range names {
		if n == at {
			return fmt.Sprintf("step %d of %d: %s", i+1, len(names), n)
		}
	}
	return at
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

// previewLines describe the plan above its table: the group's state, what
// was asked, the summary, warnings, and why it cannot be applied if so.
func (m *Model) previewLines() []string {
	s, sep := m.Styles, m.Glyphs.Sep
	var out []string
	add := func(style *lipgloss.Style, text string) {
		for _, l := range format.Wrap(text, max(20, m.Width-2)) {
			if style != nil {
				l = style.Render(l)
			}
			out = append(out, l)
		}
	}
	if d := m.del; d != nil {
		out = append(out, s.Label.Render("state ")+s.State(d.State, false).Render(stateText(d.Exists, d.State))+sep+
			format.Count(len(d.Members), "member", "members")+sep+format.Count(len(d.Offsets), "committed offset", "committed offsets"))
	} else if p := m.plan; p != nil {
		out = append(out, s.Label.Render("state ")+s.State(p.State, false).Render(stateText(p.Exists, p.State))+sep+
			s.Label.Render("scope ")+p.Scope.String())
		out = append(out, s.Label.Render("scenario ")+p.Scenario.String())
		add(nil, p.Summary().String()+".")
		for _, w := range p.Warnings {
			add(&s.Warn, "Warning: "+w)
		}
	}
	if m.blocked != nil {
		add(&s.Error, m.Glyphs.Fail+" Cannot apply now: "+m.blocked.Error())
	}
	return out
}

// consequence says what confirming does, before the user confirms.
func (m *Model) consequence() string {
	if d := m.del; d != nil {
		return fmt.Sprintf("This deletes group %s and its %s. A receipt keeps them first; kgroups undo RECEIPT brings them back.", d.Group, format.Count(len(d.Offsets), "committed offset", "committed offsets"))
	}
	sum := m.plan.Summary()
	return fmt.Sprintf("This commits %s to group %s (%d will change). A receipt of the offsets before and after is written first; kgroups undo RECEIPT puts them back.",
		format.Count(len(m.plan.Rows), "offset", "offsets"), m.group, sum.Changed)
}

func (m *Model) resultLines() []string {
	s := m.Styles
	var out []string
	add := func(style *lipgloss.Style, text string) {
		for _, l := range format.Wrap(text, max(20, m.Width-2)) {
			if style != nil {
				l = style.Render(l)
			}
			out = append(out, l)
		}
	}
	switch {
	case m.applyErr != nil:
		add(&s.Error, m.Glyphs.Fail+" Nothing was changed: "+m.applyErr.Error())
	case m.delRes != nil && m.delRes.Err != nil:
		add(&s.Error, m.Glyphs.Fail+" Group "+m.group+" may not be deleted: "+m.delRes.Err.Error())
		add(nil, "Receipt: "+m.delRes.ReceiptPath)
	case m.delRes != nil:
		add(&s.OK, m.Glyphs.OK+" Group "+m.group+" deleted; it is gone from the cluster.")
		add(nil, "Receipt: "+m.delRes.ReceiptPath)
	case m.res != nil:
		if failed := m.res.Failed(); len(failed) > 0 {
			add(&s.Error, fmt.Sprintf("%s %d of %d partitions do not hold the new offset: see STATUS.", m.Glyphs.Fail, len(failed), len(m.res.Partitions)))
		} else {
			add(&s.OK, fmt.Sprintf("%s All %s verified: each holds its new offset.", m.Glyphs.OK, format.Count(len(m.res.Partitions), "partition", "partitions")))
		}
		add(nil, "Receipt: "+m.res.ReceiptPath)
	}
	return out
}

// hintLine is the step's keys, generated from the bindings.
func (m *Model) hintLine() string {
	var parts []string
	for _, b := range m.keys.hints(m.step, m.Protected) {
		if !b.Enabled() {
			continue
		}
		parts = append(parts, m.Styles.HelpKey.Render(b.Help().Key)+" "+m.Styles.Dim.Render(b.Help().Desc))
	}
	return table.FitLine(strings.Join(parts, m.Glyphs.Sep), m.Width, m.Glyphs.Ellipsis)
}
