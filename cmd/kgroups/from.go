package main

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/kafka/recording"
	"github.com/kgroups/kgroups/kafka/watch"
	"github.com/kgroups/kgroups/views/render"
)

// fromFlags are --from and --at, which make a command read a recording
// instead of the cluster.
type fromFlags struct {
	file string
	at   string
}

// addFromFlags declares --from and --at with their completions.
func addFromFlags(cmd *cobra.Command, f *fromFlags, what string) {
	cmd.Flags().StringVar(&f.file, "from", "", "read a recording (kgroups record) `FILE` instead of the cluster: "+what)
	cmd.Flags().StringVar(&f.at, "at", "", "with --from, the poll to read: the last one at or before `TIME` (2026-12-02T03:10:00Z, 03:10, +10m from the start, -5m before the end; default: the last)")
	completeFlag(cmd, "from", files)
	completeFlag(cmd, "at", fixed("+10m\t10 minutes after the start", "-5m\t5 minutes before the end"))
}

// check refuses --at without --from.
func (f fromFlags) check() error {
	if f.at != "" && f.file == "" {
		return usageErrorf("--at picks a poll of a recording: give --from FILE with it")
	}
	return nil
}

// loadRecording reads a recording whole. A torn tail (a recording cut by
// a crash, or one still being written) is a note: the polls before it
// are read.
func loadRecording(a *app, path string) (*recording.Recording, error) {
	rec, err := recording.Load(path)
	if err != nil {
		var ve *recording.VersionError
		switch {
		case errors.As(err, &ve):
			return nil, fmt.Errorf("%s: %w", path, ve)
		case errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("no recording at %s: give a file written by kgroups record", path)
		}
		return nil, fmt.Errorf("read recording %w", err)
	}
	if rec.Torn != nil && len(rec.Polls) > 0 {
		a.notef("kgroups: %s ends in a torn poll (%v): the %s before it are read", path, rec.Torn, pollCount(len(rec.Polls)))
	}
	switch {
	case len(rec.Polls) == 0:
		return nil, fmt.Errorf("%s holds no whole poll yet", path)
	case rec.Snapshots() == 0:
		return nil, fmt.Errorf("%s holds no poll that read the cluster (%s, all failed)", path, pollCount(len(rec.Polls)))
	}
	return rec, nil
}

func pollCount(n int) string {
	if n == 1 {
		return "1 poll"
	}
	return fmt.Sprintf("%d polls", n)
}

// atIndex is the poll --at names: the last poll with a snapshot at or
// before it, the last such poll without --at. A time before the first
// poll, or one that does not parse, is a usage error that says what is
// accepted and what the recording spans.
func atIndex(rec *recording.Recording, at string) (int, error) {
	if at == "" {
		return rec.Index(rec.End()), nil
	}
	t, err := parseAt(at, rec.Start(), rec.End())
	if err != nil {
		return 0, err
	}
	i := rec.Index(t)
	if i < 0 {
		return 0, usageErrorf("--at %s is before the recording's first poll: it spans %s to %s", at, rec.Start().UTC().Format(time.RFC3339), rec.End().UTC().Format(time.RFC3339))
	}
	return i, nil
}

// openAt reads the recording file and finds the poll at names (atIndex).
func openAt(a *app, file, at string) (*recording.Recording, int, error) {
	rec, err := loadRecording(a, file)
	if err != nil {
		return nil, 0, err
	}
	i, err := atIndex(rec, at)
	return rec, i, err
}

// fromHealthFlags are health's or diagnose's flags as --from takes them:
// --interval has no meaning for a recording, and no group named means
// every recorded group.
func fromHealthFlags(cmd *cobra.Command, args []string, f healthFlags) (healthFlags, error) {
	if cmd.Flags().Changed("interval") {
		return f, usageErrorf("--interval paces live polls: a recording's polls are as recorded; leave it out with --from")
	}
	if !f.all && len(args) == 0 {
		f.all = true
	}
	// Unused with --from; keeps the checks of the flags to the window.
	f.interval = min(f.interval, f.window)
	return f, nil
}

// parseAt reads --at: an RFC 3339 time; a time of day (15:04 or
// 15:04:05, in the local zone) on the first day of the recording that
// puts it within the recording; +DURATION after the start; -DURATION
// before the end.
func parseAt(s string, start, end time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	bad := usageErrorf("invalid --at %q: give a time such as 2026-12-02T03:10:00Z, a time of day such as 03:10 or 03:10:30, +10m after the start or -5m before the end", s)
	if strings.HasPrefix(s, "+") || strings.HasPrefix(s, "-") {
		d, err := time.ParseDuration(s[1:])
		if err != nil || d < 0 {
			return time.Time{}, bad
		}
		if s[0] == '+' {
			return start.Add(d), nil
		}
		return end.Add(-d), nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	for _, layout := range []string{"15:04:05", "15:04"} {
		tod, err := time.ParseInLocation(layout, s, time.Local)
		if err != nil {
			continue
		}
		day := start.Local()
		for t := time.Date(day.Year(), day.Month(), day.Day(), tod.Hour(), tod.Minute(), tod.Second(), 0, time.Local); !t.After(end); t = t.AddDate(0, 0, 1) {
			if !t.Before(start) {
				return t, nil
			}
		}
		return time.Time{}, usageErrorf("--at %s: the recording spans %s to %s and holds no such time of day", s, start.Format(time.RFC3339), end.Format(time.RFC3339))
	}
	return time.Time{}, bad
}

// recordedConfig is the lag configuration to replay with: the recorder's
// own (what it judged live) unless --window asks for another window, at
// the recording's refresh.
func recordedConfig(h recording.Header, window time.Duration, windowSet bool) lag.Config {
	if windowSet && h.Refresh > 0 {
		cfg, _ := watch.Config(window, h.Refresh)
		return cfg
	}
	return h.Config()
}

// replayHistory feeds the polls of rec up to and including index last to
// a History configured by cfg, as the recorder fed its tracker, calling
// each (when not nil) after every poll with a snapshot.
func replayHistory(rec *recording.Recording, last int, cfg lag.Config, each func(i int, h *lag.History)) *lag.History {
	h := lag.NewHistory(cfg)
	j := recording.ForHistory(h)
	for i := 0; i <= last && i < len(rec.Polls); i++ {
		recording.Feed(j, rec.Polls[i])
		if each != nil && rec.Polls[i].Snapshot != nil {
			each(i, h)
		}
	}
	return h
}

// recordedWindow is the window of a recording ending at poll last, as
// sampleWindow makes it live: its first poll is the first with a
// snapshot from span before the last one on.
//
// It also returns how many polls the window holds, failed ones included,
// and gives added (when not nil) each of its snapshots.
func recordedWindow(rec *recording.Recording, last int, span time.Duration, h *lag.History, names []string, filter kafka.GroupFilter, all bool, added func(*kafka.Snapshot)) (*sampledWindow, int) {
	w := &sampledWindow{last: rec.Polls[last].Snapshot, history: h}
	from := w.last.Time.Add(-span)
	start := sort.Search(last+1, func(i int) bool { return !rec.Polls[i].Time.Before(from) })
	for i := start; i <= last; i++ {
		p := rec.Polls[i]
		if p.Snapshot == nil {
			w.failed++
			w.lastErr = p.Err
			continue
		}
		if w.first == nil {
			w.first = p.Snapshot
		}
		if added != nil {
			added(p.Snapshot)
		}
	}
	if all {
		names = nil
		for _, g := range selected(w.last, nil) {
			if filter.Keep(g) {
				names = append(names, g.Name)
			}
		}
	}
	w.verdicts, w.judged, w.gone = judgeHealth(h, w.last, names)
	return w, last - start + 1
}

// describeFrom is `kgroups describe --from FILE [--at TIME]`: the poll's
// groups through the same renderer, their time lags as the recording's
// judging gave them at that poll.
func describeFrom(a *app, o describeOptions) error {
	rec, last, err := openAt(a, o.from.file, o.from.at)
	if err != nil {
		return err
	}
	snap := rec.Polls[last].Snapshot
	h := replayHistory(rec, last, rec.Header.Config(), nil)
	timeLags := func(groups []*kafka.Group) (render.TimeLagFunc, []string, error) {
		type key struct {
			group, topic string
			partition    int32
		}
		lags := map[key]lag.TimeLag{}
		for _, g := range groups {
			gh, ok := h.Evaluate(g.Name, snap.Time)
			if !ok {
				continue
			}
			for _, p := range gh.Partitions {
				lags[key{g.Name, p.Topic, p.Partition}] = p.TimeLag
			}
		}
		return func(g *kafka.Group, p *kafka.PartitionOffsets) lag.TimeLag {
			if tl, ok := lags[key{g.Name, p.Topic, p.Partition}]; ok {
				return tl
			}
			return lag.TimeLag{}
		}, nil, nil
	}
	similar := func(missing []string) map[string][]string {
		names := make([]string, 0, len(snap.Groups))
		for i := range snap.Groups {
			names = append(names, snap.Groups[i].Name)
		}
		out := map[string][]string{}
		for _, m := range missing {
			out[m] = kafka.SimilarNames(m, names)
		}
		return out
	}
	return writeDescribe(a, o, snap, timeLags, similar)
}

// runDiagnoseFrom is `kgroups diagnose --from FILE [--at TIME]`: the
// findings as of that poll over the window before it, from the polls
// alone.
func runDiagnoseFrom(a *app, cmd *cobra.Command, args []string, f healthFlags, storm int, failOn string) error {
	f, err := fromHealthFlags(cmd, args, f)
	if err != nil {
		return err
	}
	o, err := parseDiagnose(args, f, storm, failOn)
	if err != nil {
		return err
	}
	rec, last, err := openAt(a, f.from.file, f.from.at)
	if err != nil {
		return err
	}
	o.cfg = recordedConfig(rec.Header, o.window, cmd.Flags().Changed("window"))
	o.cluster = rec.Header.Cluster
	h := replayHistory(rec, last, o.cfg, nil)
	// The timeline of the window's polls, as live diagnose feeds it.
	tl := rebalance.NewTimeline(rebalance.TimelineConfig{})
	var w *sampledWindow
	w, o.polls = recordedWindow(rec, last, o.window, h, o.names, o.filter, o.all, tl.Add)
	for _, name := range w.gone {
		if len(o.names) > 0 {
			a.notef("kgroups: group %q is not in the recording's poll", name)
		}
	}
	w.gone = nil
	a.notef("kgroups: note: a recording holds the polls only: producers, transactions, retention.ms and the records at stalled commits were not recorded, so the findings that need them are not made")
	reads := &diagnose.Reads{Stable: diagnose.Trailing(selected(w.first, o.names), w.judged)}
	return reportDiagnose(a, o, w, tl, reads, false)
}

// simulateFrom is `kgroups simulate GROUP --from FILE [--at TIME]`: the
// prediction from the group and the partition counts a recorded poll
// read.
func simulateFrom(a *app, o simulateOptions) error {
	rec, last, err := openAt(a, o.from.file, o.from.at)
	if err != nil {
		return err
	}
	snap := rec.Polls[last].Snapshot
	g, ok := snap.Group(o.group)
	if !ok || absent(g) {
		names := make([]string, 0, len(snap.Groups))
		for i := range snap.Groups {
			names = append(names, snap.Groups[i].Name)
		}
		return fmt.Errorf("%s in the recording's poll at %s", kafka.GroupNotFound(o.group, kafka.SimilarNames(o.group, names)), snap.Time.UTC().Format(time.RFC3339))
	}
	if g.Err != nil {
		return fmt.Errorf("read group %q: %w (as recorded)", o.group, g.Err)
	}
	counts := func(topics []string) (map[string]int32, error) {
		out := make(map[string]int32, len(topics))
		for _, t := range topics {
			n, ok := snap.PartitionCounts[t]
			if !ok {
				return nil, fmt.Errorf("the recording's poll has no partition count for topic %q: its metadata was not read", t)
			}
			out[t] = n
		}
		return out, nil
	}
	return simulateGroup(a, o, g, snap.TopicIDs, counts)
}
