package main

import (
	"context"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/tui"
)

func init() { register(newReplayCmd) }

// replayNoSwitch is what `:ctx NAME` says in a replay.
const replayNoSwitch = "a replay shows one recording: quit, then kgroups replay another file, or kgroups --context NAME for a cluster"

func newReplayCmd(a *app) *cobra.Command {
	var at, group string
	cmd := &cobra.Command{
		Use:   "replay FILE [--at TIME] [--group NAME]",
		Short: "Open the terminal UI on a recording, with a time bar",
		Long: `Open the terminal UI on a recording made by 'kgroups record' (or a file
'kgroups serve --record' keeps): every screen and tab works as it did live,
judged poll by poll with the recorder's own configuration, so the verdicts,
time lags and findings are the ones the recorder saw. It connects to no
cluster and writes nothing: every write key says so.

The status bar shows the recording's clock instead of now, the poll shown
and how far into the recording it is. The time bar's keys:

  p or space  play from here, or pause (at the recording's own pace times the speed)
  + and -     faster and slower: 1x, 2x, 5x, 10x, 30x, 60x
  . and ,     one poll forward and back
  ] and [     the next and the previous poll at which a group's verdict changed
  > and <     the last and the first poll

It opens paused on the first poll, or with --at on the last poll at or
before TIME (2026-12-02T03:10:00Z, a time of day such as 03:10 within the
recording, +10m after its first poll, -5m before its last). A recording cut
by a crash opens up to its last whole poll, with a note. The Diagnosis tab
shows what the recorded polls support: its extra reads (producers,
retention, the record at a stalled commit) were not recorded and say so.`,
		Example: `  kgroups replay incident.kgrec
  kgroups replay night.kgrec --at 03:10 --group billing`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReplay(cmd.Context(), a, args[0], at, group)
		},
	}
	cmd.Flags().StringVar(&at, "at", "", "open on the last poll at or before `TIME` (2026-12-02T03:10:00Z, 03:10, +10m from the start, -5m before the end; default: the first poll)")
	cmd.Flags().StringVar(&group, "group", "", "open this group's screen first")
	cmd.ValidArgsFunction = func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"kgrec"}, cobra.ShellCompDirectiveFilterFileExt
	}
	completeFlag(cmd, "at", fixed("+10m\t10 minutes after the start", "-5m\t5 minutes before the end"))
	completeFlag(cmd, "group", none)
	return cmd
}

// runReplay reads the recording and opens the UI on it.
func runReplay(ctx context.Context, a *app, file, at, group string) error {
	if err := needTerminal(a, "kgroups health --from and describe --from print a recording without one"); err != nil {
		return err
	}
	rec, start, err := openAt(a, file, at)
	if err != nil {
		return err
	}
	if at == "" {
		start = 0 // the first poll, where atIndex gives the last
	}
	opts := tui.Options{
		ContextInfo: tui.ContextInfo{Name: filepath.Base(file), Brokers: rec.Header.Cluster, Refresh: rec.Header.Refresh, ReadOnly: true},
		Replay:      &tui.Replay{Recording: rec, Start: start},
		Lag:         rec.Header.Config(),
		NoSwitch:    replayNoSwitch,
	}
	opts.InitialGroup = group
	return runTUI(ctx, a, opts)
}
