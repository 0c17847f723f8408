package main

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/reset"
)

func init() { register(newUndoCmd) }

// undoOptions is a validated `kgroups undo`.
type undoOptions struct {
	receipt string
	format  string
	write   writeFlags
	// force accepts a receipt whose checksum does not match or whose
	// action is unknown, with a warning.
	force bool
}

func newUndoCmd(a *app) *cobra.Command {
	var w writeFlags
	var format string
	var force bool
	cmd := &cobra.Command{
		Use:   "undo RECEIPT [--execute] [--force] [--wide] [-o table|json|csv]",
		Short: "Put back the offsets a reset or delete receipt recorded",
		Long: `Restore the offsets a receipt recorded from before a change made by
kgroups reset, undo, delete or delete-offsets: the receipt's path is printed
when the change is made, and receipts are kept in
$XDG_STATE_HOME/kgroups/receipts/.

A partition that had a commit gets it back (clamped to the log as it is now,
with a NOTE); one that had none has its commit removed. A NOTE also marks
partitions whose offset moved since the receipt, and a warning says when the
receipt was written for other brokers than this context's. With no
-b/--brokers, context or current-context, undo connects to the brokers the
receipt recorded and says so (TLS and SASL still come from flags and the
environment).

Undo is a reset like any other: a dry run unless --execute, applied only to
an Empty group (or one that no longer exists), with its own receipt, and
verified partition by partition. A read-only context refuses --execute; a
protected one also needs --confirm GROUP.

Each receipt records a SHA-256 checksum of its contents. A receipt that was
edited since kgroups wrote it (its checksum does not match), or that names an
action kgroups does not write, is refused; --force uses it anyway, with a
warning. A receipt from a kgroups older than checksums is used with a note.
Receipts over 16 MiB are refused.`,
		Example: `  kgroups undo ~/.local/state/kgroups/receipts/20240301T093000.000Z-reset-orders.json
  kgroups undo RECEIPT --execute`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 || args[0] == "" {
				return usageErrorf("undo needs exactly one receipt file (got %d arguments)", len(args))
			}
			o := undoOptions{receipt: args[0], write: w, force: force}
			var err error
			if o.format, err = parseWriteFormat(format, false, false); err != nil {
				return err
			}
			return runUndo(cmd.Context(), a, o)
		},
	}
	cmd.Flags().StringVarP(&format, "output", "o", formatTable, "output format: table, json or csv")
	cmd.Flags().BoolVar(&force, "force", false, "use a receipt whose checksum does not match its contents or whose action is unknown (with a warning)")
	addWriteFlags(cmd, &w, "restore the offsets")
	return cmd
}

func runUndo(ctx context.Context, a *app, o undoOptions) error {
	rc, notes, err := reset.ReadReceipt(ctx, o.receipt, o.force)
	if err != nil {
		return err
	}
	for _, n := range notes {
		if n.Warning {
			a.notef("Warning: %s", n.Text)
		} else {
			a.notef("Note: %s", n.Text)
		}
	}
	c, err := a.undoCluster(rc)
	if err != nil {
		return err
	}
	check := func(c config.Cluster) error { return checkWrite(c, "undo", o.write, rc.Group) }
	return a.connectedTo(ctx, c, check, func(cl *kafka.Client, c config.Cluster) error {
		p, err := reset.PrepareUndo(ctx, cl, rc, time.Now())
		if err != nil {
			return err
		}
		return a.showPlan(ctx, cl, c, p, o.write, o.format)
	})
}
