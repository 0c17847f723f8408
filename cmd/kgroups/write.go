package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/config"
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
