package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/kafka/receipt"
	kreset "github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/views/output"
	resetview "github.com/kgroups/kgroups/views/reset"
)

func init() {
	register(newDeleteCmd)
	register(newDeleteOffsetsCmd)
}

func newDeleteCmd(a *app) *cobra.Command {
	var w writeFlags
	cmd := &cobra.Command{
		Use:   "delete GROUP... [--execute]",
		Short: "Delete Empty consumer groups, keeping a receipt of their offsets",
		Long: `Delete consumer groups as kafka-consumer-groups.sh --delete does. Kafka
deletes only Empty groups; a group with members, or one that does not exist,
is reported with the reason and left alone.

Without --execute this is a dry run: it lists each group, its state, members
and committed partitions, and whether it can be deleted. With --execute each
deletable group's offsets are first written to a receipt in
$XDG_STATE_HOME/kgroups/receipts/ ('kgroups undo RECEIPT' brings them back),
then the group is deleted and re-read to check that it is gone. A read-only
context refuses --execute; a protected one also needs --confirm naming every
group.`,
		Example: `  kgroups delete old-orders
  kgroups delete old-orders old-payments --execute`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("delete needs one or more group names")
			}
			for _, g := range args {
				if g == "" {
					return usageErrorf("a group name cannot be empty")
				}
			}
			groups := uniqueNames(args)
			c, err := a.context()
			if err != nil {
				return err
			}
			if err := checkWrite(c, "delete", w, groups...); err != nil {
				return err
			}
			cl, c, err := a.connect(cmd.Context())
			if err != nil {
				return err
			}
			defer cl.Close()
			ds, err := kreset.PrepareDeleteGroups(cmd.Context(), cl, groups, time.Now())
			if err != nil {
				return err
			}
			var refused []error
			var deletable []*kreset.GroupDeletion
			for _, d := range ds {
				if err := d.Blocker(); err != nil {
					refused = append(refused, err)
				} else {
					deletable = append(deletable, d)
				}
			}
			if !w.execute {
				if err := output.WriteTable(a.stdout, resetview.DeletionColumns(), ds); err != nil {
					return fmt.Errorf("write table: %w", err)
				}
				for _, err := range refused {
					fmt.Fprintln(a.stderr, "Note: --execute would be refused:", err)
				}
				fmt.Fprintln(a.stderr, "Dry run: nothing was deleted. Add --execute to delete.")
				return nil
			}
			dir, err := receipt.DefaultDir()
			if err != nil {
				return err
			}
			failed := refused
			for _, d := range deletable {
				res, err := kreset.ApplyDeleteGroup(cmd.Context(), cl, d, kreset.ApplyOptions{ReceiptDir: dir, Context: c.Name, Now: time.Now})
				switch {
				case err != nil:
					failed = append(failed, err)
				case res.Err != nil:
					failed = append(failed, fmt.Errorf("delete group %q: %w (its receipt: %s)", d.Group, res.Err, res.ReceiptPath))
				default:
					fmt.Fprintf(a.stdout, "Deleted group %q; its %d committed offset(s) are in the receipt %s\n", d.Group, len(d.Offsets), res.ReceiptPath)
					fmt.Fprintf(a.stderr, "To undo: kgroups undo %s --execute\n", shellQuote(res.ReceiptPath))
				}
			}
			if len(failed) > 0 {
				return errors.Join(failed...)
			}
			return nil
		},
	}
	addWriteFlags(cmd, &w, "delete the groups")
	return cmd
}

func newDeleteOffsetsCmd(a *app) *cobra.Command {
	var w writeFlags
	var topics []string
	var format string
	cmd := &cobra.Command{
		Use:   "delete-offsets GROUP --topic T[:P,...]... [--execute] [-o table|json]",
		Short: "Delete a group's committed offsets for some topics or partitions",
		Long: `Delete a group's committed offsets as kafka-consumer-groups.sh
--delete-offsets does: for the partitions named, which must have a commit.
Kafka allows it on an Empty group, or for topics none of the group's live
members subscribes to (the usual case: a topic the group stopped reading,
whose stale offsets show as lag for ever).

Without --execute this is a dry run that lists the commits to be removed.
With --execute a receipt of them is written to
$XDG_STATE_HOME/kgroups/receipts/ first ('kgroups undo RECEIPT' puts them
back), then they are deleted and re-read. A read-only context refuses
--execute; a protected one also needs --confirm GROUP.`,
		Example: `  kgroups delete-offsets orders --topic old-topic
  kgroups delete-offsets orders --topic payments:0,3 --execute`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 || args[0] == "" {
				return usageErrorf("delete-offsets needs exactly one group name (got %d arguments)", len(args))
			}
			group := args[0]
			if len(topics) == 0 {
				return usageErrorf("delete-offsets needs one or more --topic TOPIC[:P,...]")
			}
			scope, err := kreset.ParseScope(false, topics)
			if err != nil {
				return usageError{err}
			}
			format, err := parseWriteFormat(cmd, format, false)
			if err != nil {
				return err
			}
			if format == formatCSV {
				return usageErrorf("delete-offsets has no offsets to print as CSV: use -o table or -o json")
			}
			c, err := a.context()
			if err != nil {
				return err
			}
			if err := checkWrite(c, "delete-offsets", w, group); err != nil {
				return err
			}
			cl, c, err := a.connect(cmd.Context())
			if err != nil {
				return err
			}
			defer cl.Close()
			p, err := kreset.PrepareDeleteOffsets(cmd.Context(), cl, group, scope, time.Now())
			if err != nil {
				return err
			}
			return a.showPlan(cmd, cl, c, p, w.execute, format)
		},
	}
	cmd.Flags().StringArrayVar(&topics, "topic", nil, "`TOPIC` or TOPIC:P,P,... whose commits to delete (repeatable)")
	cmd.Flags().StringVarP(&format, "output", "o", formatTable, "output format: table or json")
	addWriteFlags(cmd, &w, "delete the offsets")
	return cmd
}
