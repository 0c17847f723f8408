package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/screens/diagnosis"
	"github.com/kgroups/kgroups/views/screens/groupdetail"
	"github.com/kgroups/kgroups/views/screens/removal"
	"github.com/kgroups/kgroups/views/screens/resetwizard"
	"github.com/kgroups/kgroups/views/screens/simulate"
	"github.com/kgroups/kgroups/views/screens/timeline"
	"github.com/kgroups/kgroups/views/ui"
)

// groupTabs are the tabs the group screen hosts after its own: the
// rebalance timeline, read from the root's timeline so it shows what
// happened before the screen opened, the simulator, and the diagnosis
// (findings from the same polls and timeline).
func (m *Model) groupTabs(name string) []groupdetail.Extra {
	tabs := []groupdetail.Extra{{Title: "Timeline", Tab: timeline.New(m.base, name, frontTimeline{m})}}
	dt := diagnosis.New(m.base, name, frontTimeline{m})
	if len(m.opts.Brokers) > 0 {
		dt.Bootstrap = m.opts.Brokers[0]
	}
	dt.Connection = m.opts.Connection
	diag := groupdetail.Extra{Title: "Diagnosis", Tab: dt}
	if st := m.streamsTabs(name); st != nil {
		// Assignors are not simulated for streams groups.
		return append(append(tabs, st...), diag)
	}
	return append(tabs, groupdetail.Extra{Title: "Simulate", Tab: simulate.New(m.base, name)}, diag)
}

// writeRefused says why a write cannot start, or "" when it can. Screens
// only ask from Dangerous actions, which a read-only context disables;
// the root checks again so that the rule holds in one place.
func (m *Model) writeRefused(available bool, what string) string {
	switch {
	case m.replay != nil:
		return what + ": " + ReplayReadOnly
	case m.base.ReadOnly:
		return what + ": " + ui.ReadOnlyReason
	case !available:
		return what + ": not available on this connection"
	}
	return ""
}

// openReset pushes the reset wizard for msg. Its own results come back as
// messages only it understands, while it is on top.
func (m *Model) openReset(msg ui.ResetMsg) tea.Cmd {
	what := "reset offsets"
	if msg.Kind == ui.DeleteGroup {
		what = "delete group"
	}
	if why := m.writeRefused(m.opts.Writers.Reset != nil, what); why != "" {
		return m.flashError("%s", why)
	}
	b := recordResets{Backend: m.opts.Writers.Reset, log: m.resets}
	var w *resetwizard.Model
	switch msg.Kind {
	case ui.ResetPartitions:
		w = resetwizard.NewPartitions(m.ctx, m.base, b, msg.Group, msg.Partitions)
	case ui.SeekPartition:
		if len(msg.Partitions) != 1 {
			return m.flashError("seek: choose one partition")
		}
		w = resetwizard.NewSeek(m.ctx, m.base, b, msg.Group, msg.Partitions[0])
	case ui.DeleteGroup:
		w = resetwizard.NewDelete(m.ctx, m.base, b, msg.Group)
	default:
		w = resetwizard.NewGroup(m.ctx, m.base, b, msg.Group)
		if m.snap != nil {
			w.SetPartitionCounts(m.snap.PartitionCounts)
		}
	}
	if m.snap != nil {
		if g, ok := m.snap.Group(msg.Group); ok {
			w.ForGroupType(g.Type)
		}
	}
	w.Connection = m.opts.Connection
	m.push(w)
	return w.Init()
}

// openRemove pushes the member removal dialog, unless the group's type
// refuses removal: kafka.GroupType.Check words why, as it does for cmd's
// rebalance.
func (m *Model) openRemove(msg ui.RemoveMembersMsg) tea.Cmd {
	if why := m.writeRefused(m.opts.Writers.Members != nil, "remove members"); why != "" {
		return m.flashError("%s", why)
	}
	if msg.Group == nil {
		return m.flashError("remove members: the group is not known yet")
	}
	if err := msg.Group.Type.Check(msg.Group.Name, kafka.ActionRebalance); err != nil {
		return m.flashError("remove members: %s", format.Sanitize(err.Error()))
	}
	sel := rebalance.Selection{MemberIDs: msg.MemberIDs, All: msg.All}
	m.push(removal.New(m.ctx, m.base, m.opts.Writers.Members, msg.Group, sel))
	return nil
}

// closeDialog pops the dialog on top, if it is one, and after a change
// polls at once so every screen shows it, saying what was done.
func (m *Model) closeDialog(changed bool, text string) tea.Cmd {
	switch m.top().(type) {
	case *resetwizard.Model, *removal.Model:
		m.pop()
	}
	if !changed {
		if text != "" {
			m.flash = ui.FlashMsg{Text: text}
		}
		return nil
	}
	if text != "" {
		m.flash = ui.FlashMsg{Text: text}
	}
	return m.refreshNow()
}

// resetClosed words the wizard's outcome for the footer: where the receipt
// is, for an undo. A long group name is cut so that the receipt shows.
func (m *Model) resetClosed(msg resetwizard.ClosedMsg) string {
	if !msg.Changed {
		return msg.Note
	}
	group := format.Truncate(format.Sanitize(msg.Group), max(8, m.width/3), m.base.Glyphs.Ellipsis)
	if msg.Receipt == "" {
		return group + " changed"
	}
	return group + " changed; receipt " + msg.Receipt
}
