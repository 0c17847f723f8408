package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka/write"
)

// writeFlags are the flags every writing command shares.
type writeFlags struct {
	execute bool
	confirm []string
}

func addWriteFlags(cmd *cobra.Command, w *writeFlags, what string) {
	cmd.Flags().BoolVar(&w.execute, "execute", false, what+" (without it, a dry run that changes nothing)")
	cmd.Flags().StringSliceVar(&w.confirm, "confirm", nil, "the `GROUP` name typed again, required with --execute in a protected context (comma-separated for several)")
}

// checkWrite enforces the context's safety settings before anything is read
// or written: a read-only context refuses --execute outright (exit 1), and a
// protected one needs each group's name typed again with --confirm (a
// missing or wrong --confirm is a usage error, exit 2, as for rebalance).
func checkWrite(c config.Cluster, command string, w writeFlags, groups ...string) error {
	if !w.execute {
		if len(w.confirm) > 0 {
			return usageErrorf("--confirm only applies with --execute")
		}
		return nil
	}
	if c.ReadOnly {
		return fmt.Errorf("context %q is read-only: 'kgroups %s --execute' is refused and nothing was changed; run it without --execute for a dry run, or use a context that is not read-only", c.Name, command)
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
		if !confirmed[g] {
			missing = append(missing, g)
		}
	}
	if len(missing) > 0 {
		if len(w.confirm) == 0 {
			return usageErrorf("context %q is protected: to change %s, type the name again with --confirm %s; nothing was changed", c.Name, groupWord(missing), strings.Join(missing, ","))
		}
		return usageErrorf("context %q is protected and --confirm %s does not name %s: nothing was changed", c.Name, strings.Join(w.confirm, ","), groupWord(missing))
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

// shellQuote quotes a path for copying into a shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-:+=", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// describeCommand is the exact command that shows group's offsets and
// members now, on the same cluster, shell-quoted for pasting.
func describeCommand(c config.Cluster, group string) string {
	var b strings.Builder
	b.WriteString("kgroups ")
	switch {
	case c.Name != "" && c.Name != config.AdHocContext:
		b.WriteString("--context " + shellQuote(c.Name) + " ")
	case len(c.Brokers) > 0:
		b.WriteString("-b " + shellQuote(strings.Join(c.Brokers, ",")) + " ")
	}
	b.WriteString("describe " + shellQuote(group))
	return b.String()
}

// writeVerdict turns the outcome of a write into the command's error and
// exit code: nil when every part was verified; exit 1 when the broker
// refused some and the rest were verified; exit 4 when any outcome is
// unknown or was changed by another writer after ours, with the receipt and
// the command to check. what counts the parts ("partitions", "members");
// see names where the details are ("STATUS").
func writeVerdict(c config.Cluster, group, receiptPath, what, see string, t write.Tally) error {
	var parts []string
	if t.Refused > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d %s refused by the broker", t.Refused, t.Total(), what))
	}
	if t.Unknown > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d %s with an outcome unknown", t.Unknown, t.Total(), what))
	}
	if t.ChangedAfter > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d %s changed by another writer after ours", t.ChangedAfter, t.Total(), what))
	}
	switch t.Worst() {
	case write.Verified:
		return nil
	case write.Refused:
		return fmt.Errorf("%s; see %s above", strings.Join(parts, ", "), see)
	}
	return exitCodeError{code: exitUnknown, err: fmt.Errorf("%s; see %s above. Check what the group holds now with: %s (the receipt of this change: %s)",
		strings.Join(parts, ", "), see, describeCommand(c, group), shellQuote(receiptPath))}
}
