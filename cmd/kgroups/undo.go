package main

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka/receipt"
	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/views/format"
)

func init() { register(newUndoCmd) }

// undoOptions is a validated `kgroups undo`.
type undoOptions struct {
	receipt string
	format  string
	write   writeFlags
	// force accepts a receipt whose checksum does not match, whose
	// action is unknown, that was written for another cluster, or that is
	// not signed by this user's kgroups, with a warning.
	force bool
	// newGroup allows an unsigned receipt, or one of another cluster,
	// to create its group.
	newGroup bool
	// receiptBrokers connects to the brokers the receipt records,
	// without credentials unless the context lists them all.
	receiptBrokers bool
}

func newUndoCmd(a *app) *cobra.Command {
	var w writeFlags
	var format string
	var force, newGroup, receiptBrokers bool
	cmd := &cobra.Command{
		Use:   "undo RECEIPT [--execute] [--force] [--new-group] [--receipt-brokers] [--wide] [-o table|json|csv]",
		Short: "Put back the offsets a reset or delete receipt recorded",
		Long: `Restore the offsets a receipt recorded from before a change made by
kgroups reset, undo, delete or delete-offsets: the receipt's path is printed
when the change is made, and receipts are kept in
$XDG_STATE_HOME/kgroups/receipts/.

A partition that had a commit gets it back (clamped to the log as it is now,
with a NOTE); one that had none has its commit removed. A NOTE also marks
partitions whose offset moved since the receipt.

Undo connects only to the cluster you name: -b/--brokers, --context or
current-context. A receipt is a file that can come from anywhere, so the
brokers it records are never sent credentials: with no cluster named, undo
says which brokers the receipt records and stops. --receipt-brokers
connects to them without credentials (no SASL, no TLS client certificate),
unless every one is a broker the selected context itself lists; the
cluster id a receipt records never unlocks them. A receipt written for
another cluster (its cluster id differs; for receipts without one, its
context or brokers) is refused; --force goes ahead with a warning, and
creates a group that does not exist there only with --new-group.

Undo is a reset like any other: a dry run unless --execute, applied only to
an Empty group (or one that no longer exists), with its own receipt, and
verified partition by partition. A read-only context refuses --execute; a
protected one also needs --confirm GROUP.

Each receipt records a SHA-256 checksum of its contents and is signed with a
key of yours (HMAC-SHA256; the key is kept, 0600, in
$XDG_STATE_HOME/kgroups/receipts.key). A receipt that was edited (its
checksum does not match), or that names an action kgroups does not write,
is refused; --force uses it anyway, with a warning. A receipt that is not
signed by your kgroups (another user's, an older kgroups', or edited) is
shown with a warning; applying it needs --force and the group's name typed
again with --confirm GROUP, and it creates a group that does not exist only
with --new-group. Receipts over 16 MiB are refused.`,
		Example: `  kgroups --context prod undo ~/.local/state/kgroups/receipts/20240301T093000.000Z-reset-orders.json
  kgroups --context prod undo RECEIPT --execute
  kgroups undo RECEIPT --receipt-brokers`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 || args[0] == "" {
				where := ""
				if dir := receiptsDir(); dir != "" {
					where = "; kgroups writes them in " + dir + " (Tab completes them)"
				}
				return usageErrorf("undo needs exactly one receipt file (got %d arguments)%s", len(args), where)
			}
			o := undoOptions{receipt: args[0], write: w, force: force, newGroup: newGroup, receiptBrokers: receiptBrokers}
			var err error
			if o.format, err = parseWriteFormat(format, false, false); err != nil {
				return err
			}
			return runUndo(cmd.Context(), a, o)
		},
	}
	cmd.Flags().StringVarP(&format, "output", "o", formatTable, "output format: table, json or csv")
	cmd.Flags().BoolVar(&force, "force", false, "use a receipt that is edited, unsigned, for another cluster or of an unknown action (with a warning)")
	cmd.Flags().BoolVar(&newGroup, "new-group", false, "let a receipt not signed by your kgroups, or written for another cluster, create a group that does not exist")
	cmd.Flags().BoolVar(&receiptBrokers, "receipt-brokers", false, "connect to the brokers the receipt records, without credentials unless the context lists them all")
	addWriteFlags(cmd, &w, "restore the offsets")
	cmd.ValidArgsFunction = completeReceipts
	completeFlag(cmd, "output", fixed(formatTable, formatJSON, formatCSV))
	return cmd
}

// unsignedError refuses to apply a receipt that this user's kgroups did not
// sign without --force and the group's name typed again, as a protected
// context asks.
func unsignedError(rc *reset.Receipt, o undoOptions) error {
	if rc.Authenticity == receipt.Signed || !o.write.execute {
		return nil
	}
	if !o.force {
		return usageErrorf("receipt %s is not signed by your kgroups: %s. Nothing was changed; check the group and offsets it records, then add --force and %s to apply it", rc.Path, rc.Authenticity.Note(), confirmFlags([]string{rc.Group}))
	}
	for _, s := range o.write.confirm {
		if s == rc.Group || s == format.Sanitize(rc.Group) {
			return nil
		}
	}
	return usageErrorf("receipt %s is not signed by your kgroups: to apply it, type the group's name again with %s; nothing was changed", rc.Path, confirmFlags([]string{rc.Group}))
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
	check := func(c config.Cluster) error {
		if err := checkWrite(c, "undo", o.write, rc.Group); err != nil {
			return err
		}
		return unsignedError(rc, o)
	}
	cl, c, err := a.undoConnect(ctx, rc, o.receiptBrokers, check)
	if err != nil {
		return err
	}
	defer cl.Close()
	name := receiptContext(c)
	if name == config.AdHocContext {
		name = ""
	}
	p, err := reset.PrepareUndo(ctx, cl, rc, reset.UndoOptions{Now: time.Now(), Context: name, NewGroup: o.newGroup, Force: o.force})
	if err != nil {
		return err
	}
	return a.showPlan(ctx, cl, c, p, o.write, o.format)
}
