package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/render"
)

// runHealthFrom is `kgroups health --from FILE`: the recording's verdict
// timeline, or with --at its health table as of one poll.
func runHealthFrom(a *app, cmd *cobra.Command, args []string, f healthFlags) error {
	f, err := fromHealthFlags(cmd, args, f)
	if err != nil {
		return err
	}
	o, err := parseHealth(args, f)
	if err != nil {
		return err
	}
	rec, last, err := openAt(a, f.from.file, f.from.at)
	if err != nil {
		return err
	}
	cfg := recordedConfig(rec.Header, o.window, cmd.Flags().Changed("window"))
	o.cfg = cfg
	if f.from.at != "" {
		h := replayHistory(rec, last, cfg, nil)
		var w *sampledWindow
		w, o.polls = recordedWindow(rec, last, o.window, h, o.names, o.filter, o.all, nil)
		return reportHealth(a, o, w)
	}

	// The timeline: every group's verdict at each poll, kept where its
	// words change.
	var changes []render.VerdictChange
	var final *sampledWindow
	words := map[string]string{}
	replayHistory(rec, last, cfg, func(i int, h *lag.History) {
		w, _ := recordedWindow(rec, i, o.window, h, o.names, o.filter, o.all, nil)
		final = w
		var causes []string
		for k := range w.verdicts {
			v := &w.verdicts[k]
			// JUDGING n/m counts up every poll: one row while it waits.
			text := v.Text()
			if v.Judging() {
				text = lag.JudgingText
			}
			if old, ok := words[v.Group]; ok && old == text {
				continue
			}
			words[v.Group] = text
			if causes == nil {
				causes = healthCauses(w, o.names)
			}
			c := render.VerdictChange{Time: w.last.Time, Verdict: *v, Cause: causes[k]}
			c.Verdict.Partitions = nil
			changes = append(changes, c)
		}
	})
	if o.format == formatJSON {
		err = render.VerdictTimelineJSON(a.stdout, changes)
	} else {
		err = render.VerdictTimeline(a.stdout, changes, a.atLeast(), a.layout(o.wide))
	}
	if err != nil {
		return err
	}
	var bad []string
	for i := range final.verdicts {
		if v := &final.verdicts[i]; o.failSet && v.Severity >= o.failOn {
			bad = append(bad, fmt.Sprintf("%s (%s)", format.Sanitize(v.Group), v.Text()))
		}
	}
	if len(bad) > 0 {
		return exitCodeError{code: exitUnhealthy, err: fmt.Errorf("%s at or above %s at the last poll: %s", groupCount(len(bad)), o.failOn, strings.Join(bad, ", "))}
	}
	return nil
}
