package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/kafka/receipt"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/output"
	"github.com/kgroups/kgroups/views/simulate"
)

func init() { register(newRebalanceCmd) }

// rebalanceFlags are the flags of `kgroups rebalance`.
type rebalanceFlags struct {
	members   []string
	instances []string
	all       bool
	reason    string
	write     writeFlags
	timeout   time.Duration
	settle    time.Duration
}

func newRebalanceCmd(a *app) *cobra.Command {
	var f rebalanceFlags
	cmd := &cobra.Command{
		Use:   "rebalance GROUP (--member ID... | --instance ID... | --all) [--reason TEXT] [--execute] [--timeout D]",
		Short: "Trigger a rebalance by removing members from a group",
		Long: `Make the group coordinator rebalance a group by removing members from it:
Kafka has no "rebalance" request, and removing a member is how an
administrator starts one.

  --member ID     remove members by member id (LeaveGroup v3+, Kafka 2.4+)
  --instance ID   remove static members by group.instance.id
  --all           remove every member

A static member is always removed by its instance id. A removed dynamic
member rejoins with a new member id at its next heartbeat; a removed static
member rejoins under its instance id with a new member id, and keeps its
partitions only if it rejoins within the session timeout. Removing a member
whose process is gone hands its partitions to the others at once instead of
after the session timeout. Brokers may refuse to remove consumer-protocol
(KIP-848) members by member id; kgroups then prints the broker's answer.

Without --execute this is a dry run: it prints what it would do and sends
nothing. With --execute it first writes a receipt of the group's members
and their assignment to $XDG_STATE_HOME/kgroups/receipts/ (no receipt, no
removal), then removes the members, polls until the group is Stable again
(at most --timeout) and reports who left, who joined and which partitions
moved. Read-only contexts refuse --execute; protected contexts also need
--confirm GROUP.`,
		Example: `  kgroups rebalance orders-app --member consumer-1-4f9c0e
  kgroups rebalance orders-app --instance orders-app-2 --reason "stuck consumer" --execute
  kgroups rebalance orders-app --all --execute --timeout 2m`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			group, sel, err := rebalanceOptions(args, &f)
			if err != nil {
				return err
			}
			// The write policy is checked before connecting, so that a
			// refused command cannot be mistaken for a half-done one.
			cctx, err := a.context()
			if err != nil {
				return err
			}
			if err := checkWrite(cctx, "rebalance", f.write, group); err != nil {
				return err
			}
			cl, cctx, err := a.connect(cmd.Context())
			if err != nil {
				return err
			}
			defer cl.Close()

			g, err := readLiveGroup(cmd, cl, group)
			if err != nil {
				return err
			}
			plan, err := rebalance.PlanRemoval(g, sel, f.reason)
			if err != nil {
				return err
			}
			if err := writeRemovalPlan(a.stdout, plan); err != nil {
				return err
			}
			if !f.write.execute {
				note := "\nDry run: nothing was sent. Add --execute to remove " + removalCount(len(plan.Targets), "member", "members") + "."
				if cctx.ReadOnly {
					note += " (The context " + cctx.Name + " is read-only and would refuse.)"
				} else if cctx.Protected {
					note += " The context " + cctx.Name + " is protected: add --confirm " + group + " too."
				}
				_, err := fmt.Fprintln(a.stdout, note)
				return err
			}

			dir, err := receipt.DefaultDir()
			if err != nil {
				return fmt.Errorf("nothing was sent: %w", err)
			}
			svc := &rebalance.Service{Client: cl, ReceiptDir: dir, Context: cctx.Name}
			removal, err := svc.Remove(cmd.Context(), plan)
			if removal == nil {
				return err
			}
			if _, werr := fmt.Fprintf(a.stdout, "\nReceipt: %s\n", removal.Receipt); werr != nil {
				return werr
			}
			if werr := writeRemovalResults(a.stdout, removal.Results); werr != nil {
				return werr
			}
			removed := removal.Removed()
			if err != nil {
				return err
			}
			if len(removed) == 0 {
				return errors.New("the broker removed no member: its answers are above; the group is unchanged")
			}

			tl := rebalance.NewTimeline(rebalance.TimelineConfig{})
			tl.Add(&kafka.Snapshot{Time: time.Now(), Groups: []kafka.Group{plan.Before}})
			out, werr := svc.Wait(cmd.Context(), plan, removed, rebalance.WaitOptions{
				Timeout:    f.timeout,
				Settle:     f.settle,
				OnSnapshot: tl.Add,
			})
			if err := writeRemovalOutcome(a.stdout, plan, out, tl.Events(group, nil)); err != nil {
				return err
			}
			if werr != nil {
				return werr
			}
			if len(removed) < len(removal.Results) {
				return fmt.Errorf("the broker removed %d of %d members; its answers are above", len(removed), len(removal.Results))
			}
			return nil
		},
	}
	fs := cmd.Flags()
	fs.StringSliceVar(&f.members, "member", nil, "member ids to remove, comma-separated or repeated")
	fs.StringSliceVar(&f.instances, "instance", nil, "group.instance.ids of static members to remove, comma-separated or repeated")
	fs.BoolVar(&f.all, "all", false, "remove every member of the group")
	fs.StringVar(&f.reason, "reason", "", "reason sent to the broker, which logs it (default \""+rebalance.DefaultReason+"\")")
	fs.DurationVar(&f.timeout, "timeout", rebalance.DefaultWaitTimeout, "how long to wait for the group to be Stable again")
	fs.DurationVar(&f.settle, "settle", rebalance.DefaultWaitSettle, "how long a Stable group short of members is watched for the removed members to rejoin")
	addWriteFlags(cmd, &f.write, "remove the members and wait for the group to settle")
	_ = fs.MarkHidden("settle")
	return cmd
}

// rebalanceOptions validates the arguments; every mistake is a usage error
// that says what is accepted.
func rebalanceOptions(args []string, f *rebalanceFlags) (string, rebalance.Selection, error) {
	var sel rebalance.Selection
	if len(args) != 1 {
		return "", sel, usageErrorf("rebalance needs exactly one group name, got %d", len(args))
	}
	if args[0] == "" {
		return "", sel, usageErrorf("a group name cannot be empty")
	}
	n := 0
	for _, used := range []bool{len(f.members) > 0, len(f.instances) > 0, f.all} {
		if used {
			n++
		}
	}
	if n != 1 {
		return "", sel, usageErrorf("say which members to remove with exactly one of --member ID..., --instance ID... or --all")
	}
	for _, id := range append(append([]string(nil), f.members...), f.instances...) {
		if strings.TrimSpace(id) == "" {
			return "", sel, usageErrorf("a member or instance id cannot be empty")
		}
	}
	if f.timeout <= 0 {
		return "", sel, usageErrorf("invalid --timeout %s: give a positive duration such as 30s or 2m", f.timeout)
	}
	if f.settle <= 0 {
		return "", sel, usageErrorf("invalid --settle %s: give a positive duration such as 10s", f.settle)
	}
	sel.MemberIDs, sel.InstanceIDs, sel.All = uniqueNames(f.members), uniqueNames(f.instances), f.all
	return args[0], sel, nil
}

type removalTargetRow = rebalance.Target

func removalTargetColumns() []columns.Column[removalTargetRow] {
	return []columns.Column[removalTargetRow]{
		{Title: "MEMBER-ID", Align: columns.Left, Value: func(t removalTargetRow) string { return t.Member.MemberID }},
		{Title: "INSTANCE-ID", Align: columns.Left, Value: func(t removalTargetRow) string { return columns.Text(t.Member.InstanceID) }},
		{Title: "CLIENT-ID", Align: columns.Left, Value: func(t removalTargetRow) string { return columns.Text(t.Member.ClientID) }},
		{Title: "HOST", Align: columns.Left, Value: func(t removalTargetRow) string { return columns.Text(t.Member.Host) }},
		{Title: "#PARTITIONS", Align: columns.Right, Value: func(t removalTargetRow) string { return strconv.Itoa(t.Member.PartitionCount()) }},
		{Title: "REMOVE-BY", Align: columns.Left, Value: func(t removalTargetRow) string { return string(t.Method) }},
	}
}

func writeRemovalPlan(w io.Writer, p *rebalance.Plan) error {
	var b strings.Builder
	b.WriteString(simulate.Header(&p.Before, "remove "+removalCount(len(p.Targets), "member", "members")))
	b.WriteString("\n\n")
	b.WriteString(output.Table(removalTargetColumns(), p.Targets))
	b.WriteString("\nWhat happens:\n")
	for _, line := range p.Explain() {
		b.WriteString("  - ")
		b.WriteString(line)
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "Reason sent to the broker: %q\n", p.Reason)
	_, err := io.WriteString(w, b.String())
	return err
}

type removalResultRow = rebalance.Result

func removalResultColumns() []columns.Column[removalResultRow] {
	return []columns.Column[removalResultRow]{
		{Title: "MEMBER-ID", Align: columns.Left, Value: func(r removalResultRow) string { return r.Target.Member.MemberID }},
		{Title: "INSTANCE-ID", Align: columns.Left, Value: func(r removalResultRow) string { return columns.Text(r.Target.Member.InstanceID) }},
		{Title: "RESULT", Align: columns.Left, Value: func(r removalResultRow) string {
			if r.Err != nil {
				return "refused"
			}
			return "removed"
		}},
	}
}

// writeRemovalResults prints each member's result, and the broker's answer
// verbatim on its own line for each refusal (a table cell would mangle it).
func writeRemovalResults(w io.Writer, results []rebalance.Result) error {
	if len(results) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteByte('\n')
	b.WriteString(output.Table(removalResultColumns(), results))
	for _, r := range results {
		if r.Err != nil {
			fmt.Fprintf(&b, "Broker's answer for %s: %v\n", r.Target.Member.MemberID, r.Err)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

type removalMemberRow = kafka.Member

func removalMemberColumns() []columns.Column[removalMemberRow] {
	return []columns.Column[removalMemberRow]{
		{Title: "MEMBER-ID", Align: columns.Left, Value: func(m removalMemberRow) string { return m.MemberID }},
		{Title: "INSTANCE-ID", Align: columns.Left, Value: func(m removalMemberRow) string { return columns.Text(m.InstanceID) }},
		{Title: "CLIENT-ID", Align: columns.Left, Value: func(m removalMemberRow) string { return columns.Text(m.ClientID) }},
		{Title: "HOST", Align: columns.Left, Value: func(m removalMemberRow) string { return columns.Text(m.Host) }},
		{Title: "ASSIGNMENT", Align: columns.Left, Value: func(m removalMemberRow) string { return columns.Assignment(m.Assignment) }},
	}
}

func writeRemovalOutcome(w io.Writer, p *rebalance.Plan, out *rebalance.Outcome, events []rebalance.Event) error {
	var b strings.Builder
	b.WriteByte('\n')
	switch {
	case out == nil || out.After == nil:
		b.WriteString("The group could not be read after the removal.\n")
		_, err := io.WriteString(w, b.String())
		return err
	case out.Settled && out.Short:
		fmt.Fprintf(&b, "Group %s is %s again after %s, with %d members (%d before): the removed members that did not rejoin within the settle time are gone.\n",
			p.Group, out.After.State, out.Took.Round(time.Millisecond), len(out.After.Members), len(p.Before.Members))
	case out.Settled:
		fmt.Fprintf(&b, "Group %s is %s again after %s, with %d members.\n", p.Group, out.After.State, out.Took.Round(time.Millisecond), len(out.After.Members))
	default:
		fmt.Fprintf(&b, "Group %s has not settled after %s: it is %s with %d members.\n", p.Group, out.Took.Round(time.Millisecond), out.After.State, len(out.After.Members))
	}
	rebalances := 0
	for _, e := range events {
		if e.Kind == rebalance.EventRebalance {
			rebalances++
		}
	}
	if rebalances > 0 {
		fmt.Fprintf(&b, "The coordinator rebalanced the group %s while kgroups watched.\n", removalCount(rebalances, "time", "times"))
	}
	fmt.Fprintf(&b, "\nLeft (%d):\n", len(out.Left))
	if len(out.Left) > 0 {
		b.WriteString(output.Table(removalMemberColumns(), out.Left))
	}
	fmt.Fprintf(&b, "\nNew members (%d):\n", len(out.Joined))
	if len(out.Joined) > 0 {
		b.WriteString(output.Table(removalMemberColumns(), out.Joined))
	}
	fmt.Fprintf(&b, "\nMoved partitions (%d):\n", len(out.Moves))
	if len(out.Moves) > 0 {
		b.WriteString(output.Table(simulate.MoveColumns(), out.Moves))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func removalCount(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
