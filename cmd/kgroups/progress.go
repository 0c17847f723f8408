package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/views/format"
)

// windowProgress is where the progress of a sampled window (health,
// diagnose) goes: w when it is a terminal (tty) and --quiet was not given,
// else nowhere (nil), so that logs and pipes stay clean. When it goes
// somewhere, it first says how long the window will take.
func windowProgress(w io.Writer, tty, quiet bool, what string, window, interval time.Duration, polls int) io.Writer {
	if !tty || quiet {
		return nil
	}
	_, _ = io.WriteString(w, windowStart(what, window, interval, polls)+"\n")
	return w
}

// windowStart is the line said before a window is sampled: what, for how
// long, and how many polls.
func windowStart(what string, window, interval time.Duration, polls int) string {
	return fmt.Sprintf("kgroups: sampling %s for %s (%s, one every %s); Ctrl+C stops",
		format.Sanitize(what), shortDuration(window), format.Count(polls, "poll", "polls"), shortDuration(interval))
}

// shortDuration is d as a person writes it: 1m, 90s as 1m30s, 2h, 500ms.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// addQuietFlag declares --quiet on a command that samples a window.
func addQuietFlag(cmd *cobra.Command, quiet *bool) {
	cmd.Flags().BoolVarP(quiet, "quiet", "q", false, "no progress line on a terminal while the window is sampled")
}
