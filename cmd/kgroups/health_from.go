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
	if cmd.Flags().Changed("interval") {
		return usageErrorf("--interval paces live polls: a recording's polls are as recorded; leave it out with --from")
	}
	if !f.all && len(args) == 0 {
		f.all = true // every recorded group
	}
	if f.interval > f.window {
		f.interval = f.window // unused with --from; keeps parseHealth's checks to the window
	}
	o, err := parseHealth(args, f)
	if err != nil {
		return err
	}
	rec, err := loadRecording(a, f.from.file)
	if err != nil {
		return err
	}
	last, err := atIndex(rec, f.from.at)
	if err != nil {
		return err
	}
	cfg := recordedConfig(rec.Header, o.window, cmd.Flags().Changed("window"))
	o.cfg = cfg
	if f.from.at != "" {
		h := replayHistory(rec, last, cfg, nil)
		w := recordedWindow(rec, last, o.window, h, o.names, o.filter, o.all)
		o.polls = w.failed
		for i := 0; i <= last; i++ {
			if p := rec.Polls[i]; p.Snapshot != nil && !p.Time.Before(w.first.Time) {
				o.polls++
			}
		}
		return reportHealth(a, o, w)
	}

	// The timeline: every group's verdict at each poll, kept where its
	// words change.
	var changes []render.VerdictChange
	var final *sampledWindow
	words := map[string]string{}
	replayHistory(rec, last, cfg, func(i int, h *lag.History) {
		w := recordedWindow(rec, i, o.window, h, o.names, o.filter, o.all)
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
