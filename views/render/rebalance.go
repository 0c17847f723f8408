package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/kafka/write"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/format"
)

// What `kgroups rebalance` prints: the members it would remove and what
// happens then, each member's result, and how the group settled.

// RemovalTargetColumns are the members a removal plan removes, and how.
func RemovalTargetColumns() []Column[rebalance.Target] {
	return []Column[rebalance.Target]{
		{Title: "MEMBER-ID", Align: left, Max: idMax, Value: func(t rebalance.Target) string { return t.Member.MemberID }},
		{Title: "INSTANCE-ID", Align: left, Max: idMax, Value: func(t rebalance.Target) string { return text(t.Member.InstanceID) }},
		{Title: "CLIENT-ID", Align: left, Max: hostMax, Value: func(t rebalance.Target) string { return text(t.Member.ClientID) }},
		{Title: "HOST", Align: left, Max: hostMax, Value: func(t rebalance.Target) string { return text(t.Member.Host) }},
		{Title: "#PARTITIONS", Align: right, Value: func(t rebalance.Target) string { return strconv.Itoa(t.Member.PartitionCount()) }},
		{Title: "REMOVE-BY", Align: left, Value: func(t rebalance.Target) string { return string(t.Method) }},
	}
}

// RemovalPlan prints a removal plan: the group and the change, the members
// to remove, what will happen and the reason the broker will log.
// lay says how long ids are cut.
func RemovalPlan(w io.Writer, p *rebalance.Plan, lay Layout) error {
	var b strings.Builder
	b.WriteString(ChangeHeader(&p.Before, "remove "+format.Count(len(p.Targets), "member", "members")))
	b.WriteString("\n\n")
	b.WriteString(TableWith(RemovalTargetColumns(), p.Targets, lay))
	b.WriteString("\nWhat happens:\n")
	for _, line := range p.Explain() {
		b.WriteString("  - ")
		b.WriteString(format.Sanitize(line))
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "Reason sent to the broker: %q\n", p.Reason)
	return Print(w, b.String())
}

// RemovalResult is the RESULT cell of a member's removal: "removed",
// "removed (answer lost)", "refused" or "outcome unknown".
func RemovalResult(r rebalance.Result) string {
	switch r.Outcome() {
	case write.Verified:
		if r.Err != nil {
			return "removed (answer lost)"
		}
		return "removed"
	case write.Refused:
		return "refused"
	}
	return "outcome unknown"
}

// RemovalResultColumns are each target's result.
func RemovalResultColumns() []Column[rebalance.Result] {
	return []Column[rebalance.Result]{
		{Title: "MEMBER-ID", Align: left, Max: idMax, Value: func(r rebalance.Result) string { return r.Target.Member.MemberID }},
		{Title: "INSTANCE-ID", Align: left, Max: idMax, Value: func(r rebalance.Result) string { return text(r.Target.Member.InstanceID) }},
		{Title: "RESULT", Align: left, Value: RemovalResult},
	}
}

// RemovalResults prints each member's result, after a blank line, then on
// its own line for each member not plainly removed (a table cell would
// mangle it) the broker's answer or why the outcome is unknown. Nothing for
// no results.
func RemovalResults(w io.Writer, results []rebalance.Result, lay Layout) error {
	if len(results) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteByte('\n')
	b.WriteString(TableWith(RemovalResultColumns(), results, lay))
	for _, r := range results {
		id := format.Sanitize(r.Target.Member.MemberID)
		switch r.Outcome() {
		case write.Verified:
			if r.Err != nil {
				fmt.Fprintf(&b, "Result for %s: %s\n", id, format.Sanitize(r.Status()))
			}
		case write.Refused:
			fmt.Fprintf(&b, "Broker's answer for %s: %s\n", id, format.Sanitize(r.Err.Error()))
		default:
			fmt.Fprintf(&b, "Result for %s: %s\n", id, format.Sanitize(r.Status()))
		}
	}
	return Print(w, b.String())
}

// RemovalMemberColumns are the members who left or joined.
func RemovalMemberColumns() []Column[kafka.Member] {
	return []Column[kafka.Member]{
		{Title: "MEMBER-ID", Align: left, Max: idMax, Value: func(m kafka.Member) string { return m.MemberID }},
		{Title: "INSTANCE-ID", Align: left, Max: idMax, Value: func(m kafka.Member) string { return text(m.InstanceID) }},
		{Title: "CLIENT-ID", Align: left, Max: hostMax, Value: func(m kafka.Member) string { return text(m.ClientID) }},
		{Title: "HOST", Align: left, Max: hostMax, Value: func(m kafka.Member) string { return text(m.Host) }},
		{Title: "ASSIGNMENT", Align: left, Value: func(m kafka.Member) string { return columns.Assignment(m.Assignment) }},
	}
}

// RemovalOutcome prints how the group settled after a removal (out may be
// nil when it could not be read), the rebalance rounds counted from the
// generations Wait read (or, when no generation could be read, how often
// the coordinator rebalanced while kgroups watched: events), who left, who joined, how many members
// rejoined with new ids and which partitions moved to another process.
func RemovalOutcome(w io.Writer, p *rebalance.Plan, out *rebalance.Outcome, events []rebalance.Event, lay Layout) error {
	var b strings.Builder
	b.WriteByte('\n')
	group := format.Sanitize(p.Group)
	switch {
	case out == nil || out.After == nil:
		b.WriteString("The group could not be read after the removal.\n")
		return Print(w, b.String())
	case out.Settled && out.Short:
		fmt.Fprintf(&b, "Group %s is %s again after %s, with %s (%d before): the removed members that did not rejoin within the settle time are gone.\n",
			group, format.Sanitize(out.After.State), out.Took.Round(time.Millisecond), format.Count(len(out.After.Members), "member", "members"), len(p.Before.Members))
	case out.Settled:
		fmt.Fprintf(&b, "Group %s is %s again after %s, with %s.\n", group, format.Sanitize(out.After.State), out.Took.Round(time.Millisecond), format.Count(len(out.After.Members), "member", "members"))
	default:
		fmt.Fprintf(&b, "Group %s has not settled after %s: it is %s with %s.\n", group, out.Took.Round(time.Millisecond), format.Sanitize(out.After.State), format.Count(len(out.After.Members), "member", "members"))
	}
	rebalances := 0
	for _, e := range events {
		if e.Kind == rebalance.EventRebalance {
			rebalances++
		}
	}
	if rounds := out.Rounds.Sentence(); rounds != "" {
		fmt.Fprintf(&b, "Counted from the generations kgroups read while it waited, %s.\n", rounds)
	} else if rebalances > 0 {
		fmt.Fprintf(&b, "The coordinator rebalanced the group %s while kgroups watched.\n", format.Count(rebalances, "time", "times"))
	}
	fmt.Fprintf(&b, "\nLeft (%d):\n", len(out.Left))
	if len(out.Left) > 0 {
		b.WriteString(TableWith(RemovalMemberColumns(), out.Left, lay))
	}
	fmt.Fprintf(&b, "\nNew members (%d):\n", len(out.Joined))
	if len(out.Joined) > 0 {
		b.WriteString(TableWith(RemovalMemberColumns(), out.Joined, lay))
	}
	if out.Rejoined > 0 {
		fmt.Fprintf(&b, "\n%s.\n", format.Moved(len(out.Moves), out.Rejoined))
	}
	fmt.Fprintf(&b, "\nPartitions that changed process (%d):\n", len(out.Moves))
	if len(out.Moves) > 0 {
		b.WriteString(TableWith(MoveColumns(), out.Moves, lay))
	}
	return Print(w, b.String())
}
