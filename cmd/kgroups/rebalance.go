package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/kafka/receipt"
	"github.com/kgroups/kgroups/kafka/write"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/render"
)

func init() { register(newRebalanceCmd) }

// rebalanceOptions is a validated `kgroups rebalance`.
type rebalanceOptions struct {
	group   string
	sel     rebalance.Selection
	reason  string
	write   writeFlags
	timeout time.Duration
	settle  time.Duration
	format  string
}

// rebalanceFlags are the flags of `kgroups rebalance`.
type rebalanceFlags struct {
	members   []string
	instances []string
	all       bool
	reason    string
	write     writeFlags
	timeout   time.Duration
	settle    time.Duration
	b64       []string
	format    string
}

func newRebalanceCmd(a *app) *cobra.Command {
	var f rebalanceFlags
	cmd := &cobra.Command{
		Use:   "rebalance GROUP (--member ID... | --instance ID... | --all) [--reason TEXT] [--execute] [--timeout D] [--wide] [-o table|json]",
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
(at most --timeout) and reports who left, who joined, which partitions
changed process and the rebalance rounds counted from the generations it
read every 200ms (saying when rounds may have been missed between reads).
-o json prints one document: the targets, and with --execute the receipt,
each member's result and the outcome. Read-only contexts refuse --execute; protected contexts also need
--confirm GROUP.`,
		Example: `  kgroups rebalance orders-app --member consumer-1-4f9c0e
  kgroups rebalance orders-app --instance orders-app-2 --reason "stuck consumer" --execute
  kgroups rebalance orders-app --all --execute --timeout 2m`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			args, err := withGroupBase64(args, f.b64)
			if err != nil {
				return err
			}
			o, err := parseRebalance(args, &f)
			if err != nil {
				return err
			}
			return runRebalance(cmd.Context(), a, o)
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
	addGroupBase64Flag(cmd, &f.b64, false)
	addFormatFlag(cmd, &f.format)
	_ = fs.MarkHidden("settle")
	cmd.ValidArgsFunction = a.completeGroups(supports(kafka.ActionRebalance), false)
	completeFlag(cmd, "member", a.completeMembers(memberIDField))
	completeFlag(cmd, "instance", a.completeMembers(instanceIDField))
	completeFlag(cmd, "reason", none)
	completeFlag(cmd, "timeout", none)
	completeFlag(cmd, "settle", none)
	return cmd
}

// parseRebalance validates the arguments; every mistake is a usage error
// that says what is accepted.
func parseRebalance(args []string, f *rebalanceFlags) (rebalanceOptions, error) {
	o := rebalanceOptions{reason: f.reason, write: f.write, timeout: f.timeout, settle: f.settle}
	if len(args) != 1 {
		return o, usageErrorf("rebalance needs exactly one group name, got %d", len(args))
	}
	if args[0] == "" {
		return o, usageErrorf("a group name cannot be empty")
	}
	n := 0
	for _, used := range []bool{len(f.members) > 0, len(f.instances) > 0, f.all} {
		if used {
			n++
		}
	}
	if n != 1 {
		return o, usageErrorf("say which members to remove with exactly one of --member ID..., --instance ID... or --all")
	}
	for _, id := range append(append([]string(nil), f.members...), f.instances...) {
		if strings.TrimSpace(id) == "" {
			return o, usageErrorf("a member or instance id cannot be empty")
		}
	}
	if f.timeout <= 0 {
		return o, usageErrorf("invalid --timeout %s: give a positive duration such as 30s or 2m", f.timeout)
	}
	if f.settle <= 0 {
		return o, usageErrorf("invalid --settle %s: give a positive duration such as 10s", f.settle)
	}
	var err error
	if o.format, err = parseFormat(f.format); err != nil {
		return o, err
	}
	o.group = args[0]
	o.sel.MemberIDs, o.sel.InstanceIDs, o.sel.All = uniqueNames(f.members), uniqueNames(f.instances), f.all
	return o, nil
}

// runRebalance prints the removal plan and, with --execute, removes the
// members (receipt first), prints each member's result and waits for the
// group to settle. The write policy is checked before connecting, so that
// a refused command cannot be mistaken for a half-done one.
func runRebalance(ctx context.Context, a *app, o rebalanceOptions) error {
	check := func(c config.Cluster) error { return checkWrite(c, "rebalance", o.write, o.group) }
	return a.connected(ctx, check, func(cl *kafka.Client, c config.Cluster) error {
		g, err := readGroup(ctx, cl, o.group)
		if err != nil {
			return err
		}
		if err := g.Type.Check(g.Name, kafka.ActionRebalance); err != nil {
			return err
		}
		plan, err := rebalance.PlanRemoval(g, o.sel, o.reason)
		if err != nil {
			return err
		}
		json := o.format == formatJSON
		if !json {
			if err := render.RemovalPlan(a.stdout, plan, a.layout(o.write.wide)); err != nil {
				return err
			}
		}
		if !o.write.execute && json {
			return render.RemovalJSON(a.stdout, plan, nil, nil)
		}
		if !o.write.execute {
			note := "\nDry run: nothing was sent. Add --execute to remove " + format.Count(len(plan.Targets), "member", "members") + "."
			if err := unsupported(ctx, cl, kafka.FeatureRemoveMembers); err != nil {
				note += " (It would be refused: " + err.Error() + ".)"
			} else if c.ReadOnly {
				note += " (The context " + c.Name + " is read-only and would refuse.)"
			} else if c.Protected {
				note += " The context " + c.Name + " is protected: add " + confirmFlags([]string{o.group}) + " too."
			}
			return render.Print(a.stdout, note)
		}

		dir, err := receipt.DefaultDir()
		if err != nil {
			return fmt.Errorf("nothing was sent: %w", err)
		}
		svc := &rebalance.Service{Client: cl, ReceiptDir: dir, Context: receiptContext(c), Note: a.lockNote}
		removal, err := svc.Remove(ctx, plan)
		if removal == nil {
			return err
		}
		// A request that failed as a whole is in each member's result;
		// the re-read decides what happened.
		if !json {
			if werr := render.Printf(a.stdout, "\nReceipt: %s", removal.Receipt); werr != nil {
				return werr
			}
			if werr := render.RemovalResults(a.stdout, removal.Results, a.layout(o.write.wide)); werr != nil {
				return werr
			}
		}
		removed := removal.Removed()
		verdict := a.writeVerdict(c, o.group, removal.Receipt, "member", "members", "RESULT", tally(removal.Results))
		if len(removed) == 0 {
			if json {
				if werr := render.RemovalJSON(a.stdout, plan, removal, nil); werr != nil {
					return werr
				}
			}
			if removal.Outcome() == write.Refused {
				return errors.New("the broker removed no member: its answers are above; the group is unchanged")
			}
			return verdict
		}

		tl := rebalance.NewTimeline(rebalance.TimelineConfig{})
		tl.Add(&kafka.Snapshot{Time: time.Now(), Groups: []kafka.Group{plan.Before}})
		out, werr := svc.Wait(ctx, plan, removed, rebalance.WaitOptions{
			Timeout:    o.timeout,
			Settle:     o.settle,
			OnSnapshot: tl.Add,
		})
		if json {
			err = render.RemovalJSON(a.stdout, plan, removal, out)
		} else {
			err = render.RemovalOutcome(a.stdout, plan, out, tl.Events(o.group, nil), a.layout(o.write.wide))
		}
		if err != nil {
			return err
		}
		if verdict != nil {
			return verdict
		}
		if errors.Is(werr, rebalance.ErrInterrupted) {
			return fmt.Errorf("%w. The removal itself was sent and verified (RESULT above); the receipt: %s. See what the group does now with: %s", werr, shellQuote(removal.Receipt), a.describeCommand(c, o.group))
		}
		if werr != nil {
			return werr
		}
		return nil
	})
}

// tally counts the removal's outcomes.
func tally(results []rebalance.Result) write.Tally {
	var t write.Tally
	for _, r := range results {
		t.Add(r.Outcome())
	}
	return t
}
