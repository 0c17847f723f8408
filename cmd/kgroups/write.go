package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/write"
	"github.com/kgroups/kgroups/views/format"
)

// writeFlags are the flags every writing command shares.
type writeFlags struct {
	execute bool
	// dryRun is kafka-consumer-groups.sh's --dry-run: what a writing
	// command does anyway without --execute, said out loud.
	dryRun  bool
	confirm []string
	// wide shows long ids and hosts whole in the tables (--wide).
	wide bool
}

func addWriteFlags(cmd *cobra.Command, w *writeFlags, what string) {
	cmd.Flags().BoolVar(&w.execute, "execute", false, what+" (without it, a dry run that changes nothing)")
	cmd.Flags().BoolVar(&w.dryRun, "dry-run", false, "print the plan and change nothing: the default without --execute (as kafka-consumer-groups.sh --dry-run)")
	if run := cmd.RunE; run != nil {
		cmd.RunE = func(c *cobra.Command, args []string) error {
			if w.dryRun && w.execute {
				return usageErrorf("give --dry-run or --execute, not both: without --execute %s is a dry run", c.Name())
			}
			return run(c, args)
		}
	}
	// StringArray, not StringSlice: a group may be named "a,b", and
	// --confirm compares against the exact name.
	cmd.Flags().StringArrayVar(&w.confirm, "confirm", nil, "the `GROUP` name typed again, exactly, required with --execute in a protected context (repeat for several groups)")
	// Typed again on purpose: completing it would defeat the check.
	completeFlag(cmd, "confirm", none)
	addWideFlag(cmd, &w.wide)
}

// checkWrite enforces the context's safety settings before anything is read
// or written: a read-only context refuses --execute outright (exit 1), and a
// protected one needs each group's name typed again with --confirm (a
// missing or wrong --confirm is a usage error, exit 2, as for rebalance).
// --confirm is the exact name or, for a name a terminal shows with escapes
// (a control character, bytes that are not UTF-8), the name as shown, as
// in the UI: what the refusal prints is what can be typed back.
func checkWrite(c config.Cluster, command string, w writeFlags, groups ...string) error {
	if !w.execute {
		if len(w.confirm) > 0 {
			return usageErrorf("--confirm only applies with --execute")
		}
		return nil
	}
	if c.ReadOnly {
		return fmt.Errorf("context %q is read-only: 'kgroups %s --execute' is refused and nothing was changed; run it without --execute for a dry run; to write, %s", c.Name, command, c.HowToWrite("read_only"))
	}
	if !c.Protected {
		return nil
	}
	confirmed := make(map[string]bool, len(w.confirm))
	for _, s := range w.confirm {
		confirmed[s] = true
	}
	var missing []string
	for _, g := range groups {
		if !confirmed[g] && !confirmed[format.Sanitize(g)] {
			missing = append(missing, g)
		}
	}
	if len(missing) > 0 {
		if len(w.confirm) == 0 {
			return usageErrorf("context %q is protected: to change %s, type the name again with %s; nothing was changed", c.Name, groupWord(missing), confirmFlags(missing))
		}
		return usageErrorf("context %q is protected and %s does not name %s: nothing was changed", c.Name, confirmFlags(w.confirm), groupWord(missing))
	}
	return nil
}

func groupWord(gs []string) string {
	q := make([]string, len(gs))
	for i, g := range gs {
		q[i] = fmt.Sprintf("%q", g)
	}
	if len(gs) == 1 {
		return "group " + q[0]
	}
	return "groups " + strings.Join(q, ", ")
}

// confirmFlags is "--confirm NAME", repeated for each name, each one as a
// terminal shows it and shell-quoted, so that it can be pasted as printed.
func confirmFlags(names []string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = "--confirm " + shellQuote(format.Sanitize(n))
	}
	return strings.Join(parts, " ")
}

// shellQuote quotes a word (a path, a group name) for copying into a POSIX
// shell when it needs it (format.ShellQuote).
func shellQuote(s string) string { return format.ShellQuote(s) }

// describeCommand is the exact command that shows group's offsets and
// members now, on the same cluster, shell-quoted for pasting.
func (a *app) describeCommand(c config.Cluster, group string) string {
	return commandLine(c, a.selection(), "describe", kafka.GroupArgs(group)...)
}

// writeVerdict turns the outcome of a write into the command's error and
// exit code: nil when every part was verified; exit 1 when the broker
// refused some and the rest were verified; exit 4 when any outcome is
// unknown or was changed by another writer after ours, with the receipt and
// the command to check, and "interrupted" first when Ctrl+C or SIGTERM
// ended the run's context. one and many name the parts ("partition",
// "partitions"); see names where the details are ("STATUS").
func (a *app) writeVerdict(c config.Cluster, group, receiptPath, one, many, see string, t write.Tally) error {
	of := format.Count(t.Total(), one, many)
	var parts []string
	if t.Refused > 0 {
		parts = append(parts, fmt.Sprintf("%d of %s refused by the broker", t.Refused, of))
	}
	if t.Unknown > 0 {
		parts = append(parts, fmt.Sprintf("%d of %s with an outcome unknown", t.Unknown, of))
	}
	if t.ChangedAfter > 0 {
		parts = append(parts, fmt.Sprintf("%d of %s changed by another writer after ours", t.ChangedAfter, of))
	}
	switch t.Worst() {
	case write.Verified:
		return nil
	case write.Refused:
		return fmt.Errorf("%s; see %s above", strings.Join(parts, ", "), see)
	}
	lead := strings.Join(parts, ", ")
	if a.ctx != nil && a.ctx.Err() != nil {
		// Ctrl+C or SIGTERM cut the write or its re-read short.
		lead = "interrupted before the write was verified: " + lead
	}
	return exitCodeError{code: exitUnknown, err: fmt.Errorf("%s; see %s above. Check what the group holds now with: %s (the receipt of this change: %s)",
		lead, see, a.describeCommand(c, group), shellQuote(receiptPath))}
}

// unsupported is the refusal a write of f would meet because the brokers
// are too old for it (a kafka.MissingError), for a dry run to say before
// --execute; nil when they answer it or their versions could not be read
// (the write checks again before sending anything).
func unsupported(ctx context.Context, cl *kafka.Client, f kafka.Feature) error {
	var m kafka.MissingError
	if err := cl.Require(ctx, f); errors.As(err, &m) {
		return m
	}
	return nil
}
