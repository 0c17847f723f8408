package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/receipt"
	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/kafka/write"
	"github.com/kgroups/kgroups/views/render"
)

func init() {
	register(newDeleteCmd)
	register(newDeleteOffsetsCmd)
}

// deleteOptions is a validated `kgroups delete`.
type deleteOptions struct {
	groups []string
	write  writeFlags
}

// deleteOffsetsOptions is a validated `kgroups delete-offsets`.
type deleteOffsetsOptions struct {
	group  string
	scope  reset.Scope
	format string
	write  writeFlags
}

func newDeleteCmd(a *app) *cobra.Command {
	var w writeFlags
	var b64 []string
	cmd := &cobra.Command{
		Use:   "delete GROUP... [--execute] [--wide]",
		Short: "Delete Empty consumer groups, keeping a receipt of their offsets",
		Long: `Delete consumer groups as kafka-consumer-groups.sh --delete does. Kafka
deletes only Empty groups; a group with members, or one that does not exist,
is reported with the reason and left alone.

Without --execute this is a dry run: it lists each group, its state, members
and committed partitions, and whether it can be deleted. With --execute each
deletable group's offsets are first written to a receipt in
$XDG_STATE_HOME/kgroups/receipts/ ('kgroups undo RECEIPT' brings them back),
then the group is deleted and re-read to check that it is gone (a share
group's start offsets go into the receipt the same way). A read-only
context refuses --execute; a protected one also needs --confirm naming every
group.`,
		Example: `  kgroups delete old-orders
  kgroups delete old-orders old-payments --execute`,
		RunE: func(cmd *cobra.Command, args []string) error {
			args, err := withGroupBase64(args, b64)
			if err != nil {
				return err
			}
			if len(args) == 0 {
				return usageErrorf("delete needs one or more group names")
			}
			groups, err := groupNames(args)
			if err != nil {
				return err
			}
			return runDelete(cmd.Context(), a, deleteOptions{groups: groups, write: w})
		},
	}
	addWriteFlags(cmd, &w, "delete the groups")
	addGroupBase64Flag(cmd, &b64, true)
	cmd.ValidArgsFunction = a.completeGroups(emptyFirst, true)
	return cmd
}

func newDeleteOffsetsCmd(a *app) *cobra.Command {
	var w writeFlags
	var b64 []string
	var topics []string
	var format string
	cmd := &cobra.Command{
		Use:   "delete-offsets GROUP --topic T[:P,...]... [--execute] [--wide] [-o table|json]",
		Short: "Delete a group's committed offsets for some topics or partitions",
		Long: `Delete a group's committed offsets as kafka-consumer-groups.sh
--delete-offsets does: for the partitions named, which must have a commit.
Kafka allows it on an Empty group, or for topics none of the group's live
members subscribes to (the usual case: a topic the group stopped reading,
whose stale offsets show as lag for ever).

For a share group (KIP-932) this deletes start offsets with
DeleteShareGroupOffsets, which takes whole topics (--topic TOPIC, no
partitions) and needs the group Empty.

Without --execute this is a dry run that lists the commits to be removed.
With --execute a receipt of them is written to
$XDG_STATE_HOME/kgroups/receipts/ first ('kgroups undo RECEIPT' puts them
back), then they are deleted and re-read. A read-only context refuses
--execute; a protected one also needs --confirm GROUP.`,
		Example: `  kgroups delete-offsets orders --topic old-topic
  kgroups delete-offsets orders --topic payments:0,3 --execute`,
		RunE: func(cmd *cobra.Command, args []string) error {
			args, err := withGroupBase64(args, b64)
			if err != nil {
				return err
			}
			o, err := parseDeleteOffsets(args, topics, format, w)
			if err != nil {
				return err
			}
			return runDeleteOffsets(cmd.Context(), a, o)
		},
	}
	cmd.Flags().StringArrayVar(&topics, "topic", nil, "`TOPIC` or TOPIC:P,P,... whose commits to delete (repeatable)")
	cmd.Flags().StringVarP(&format, "output", "o", formatTable, "output format: table or json")
	addWriteFlags(cmd, &w, "delete the offsets")
	addGroupBase64Flag(cmd, &b64, false)
	cmd.ValidArgsFunction = a.completeGroups(emptyFirst, false)
	completeFlag(cmd, "topic", a.completeTopics(false))
	completeFlag(cmd, "output", fixed(formatTable, formatJSON))
	return cmd
}

func runDelete(ctx context.Context, a *app, o deleteOptions) error {
	check := func(c config.Cluster) error { return checkWrite(c, "delete", o.write, o.groups...) }
	return a.connected(ctx, check, func(cl *kafka.Client, c config.Cluster) error {
		ds, err := reset.PrepareDeleteGroups(ctx, cl, o.groups, time.Now())
		if err != nil {
			return err
		}
		var refused []error
		var deletable []*reset.GroupDeletion
		for _, d := range ds {
			if err := d.Blocker(); err != nil {
				refused = append(refused, err)
			} else {
				deletable = append(deletable, d)
			}
		}
		fillSimilar(ctx, cl, refused)
		for _, err := range refused {
			_ = a.withConnection(c, err) // fills the refusal's suggestion in place
		}
		if !o.write.execute {
			if err := render.Deletions(a.stdout, ds, a.layout(o.write.wide)); err != nil {
				return err
			}
			for _, err := range refused {
				a.notef("Note: --execute would be refused: %v", err)
			}
			if len(deletable) == 0 {
				a.notef("Dry run: nothing was deleted, and --execute would delete nothing.")
				return nil
			}
			a.notef("Dry run: nothing was deleted. Add --execute to delete.")
			return nil
		}
		dir, err := receipt.DefaultDir()
		if err != nil {
			return err
		}
		failed := refused
		unknown := false
		for _, d := range deletable {
			res, err := reset.ApplyDeleteGroup(ctx, cl, d, reset.ApplyOptions{ReceiptDir: dir, Context: receiptContext(c), Now: time.Now, Note: a.lockNote})
			if err != nil {
				failed = append(failed, a.withConnection(c, err))
				continue
			}
			switch res.Outcome() {
			case write.Verified:
				what := "committed"
				if d.Type == kafka.TypeShare {
					what = "start"
				}
				line := fmt.Sprintf("Deleted group %q; its %d %s offset(s) are in the receipt %s", d.Group, len(d.Offsets), what, res.ReceiptPath)
				if res.Err != nil {
					line += "\n  " + res.Status()
				}
				if err := render.Printf(a.stdout, "%s", line); err != nil {
					return err
				}
				a.notef("To undo: %s", undoCommand(c, a.selection(), res.ReceiptPath, d.Group))
			case write.Refused:
				failed = append(failed, fmt.Errorf("delete group %q: %s (its receipt: %s)", d.Group, res.Status(), res.ReceiptPath))
			default:
				unknown = true
				failed = append(failed, fmt.Errorf("delete group %q: %s. Check with: %s (the receipt of this change: %s)", d.Group, res.Status(), a.describeCommand(c, d.Group), shellQuote(res.ReceiptPath)))
			}
		}
		switch {
		case unknown:
			return exitCodeError{code: exitUnknown, err: errors.Join(failed...)}
		case len(failed) > 0:
			return errors.Join(failed...)
		}
		return nil
	})
}

// parseDeleteOffsets validates delete-offsets' arguments before anything
// connects.
func parseDeleteOffsets(args, topics []string, format string, w writeFlags) (deleteOffsetsOptions, error) {
	o := deleteOffsetsOptions{write: w}
	if len(args) != 1 || args[0] == "" {
		return o, usageErrorf("delete-offsets needs exactly one group name (got %d arguments)", len(args))
	}
	o.group = args[0]
	if len(topics) == 0 {
		return o, usageErrorf("delete-offsets needs one or more --topic TOPIC[:P,...]")
	}
	var err error
	if o.scope, err = reset.ParseScope(false, topics); err != nil {
		return o, usageError{err}
	}
	if o.format, err = parseWriteFormat(format, false, false); err != nil {
		return o, err
	}
	if o.format == formatCSV {
		return o, usageErrorf("delete-offsets has no offsets to print as CSV: use -o table or -o json")
	}
	return o, nil
}

func runDeleteOffsets(ctx context.Context, a *app, o deleteOffsetsOptions) error {
	check := func(c config.Cluster) error { return checkWrite(c, "delete-offsets", o.write, o.group) }
	return a.connected(ctx, check, func(cl *kafka.Client, c config.Cluster) error {
		p, err := reset.PrepareDeleteOffsets(ctx, cl, o.group, o.scope, time.Now())
		if err != nil {
			return a.withConnection(c, withSimilar(ctx, cl, err))
		}
		return a.showPlan(ctx, cl, c, p, o.write, o.format)
	})
}
