package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/recording"
	"github.com/kgroups/kgroups/kafka/watch"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/render"
)

func init() { register(newRecordCmd) }

// recordFlags are `kgroups record`'s flags as given.
type recordFlags struct {
	all        bool
	out        string
	dur        time.Duration
	window     time.Duration
	rotateSize string
	rotateAge  time.Duration
	b64        []string
	redact     bool
}

// recordOptions is a validated `kgroups record`.
type recordOptions struct {
	names      []string
	all        bool
	out        string
	dur        time.Duration
	window     time.Duration
	rotateSize int64
	rotateAge  time.Duration
	redact     bool
}

func newRecordCmd(a *app) *cobra.Command {
	var f recordFlags
	cmd := &cobra.Command{
		Use:   "record (GROUP... | --all-groups) -o FILE [--for 1h] [--window 1m] [--rotate-size 100MB] [--rotate-age 1h]",
		Short: "Record every poll of groups to a file, to replay and judge later",
		Long: `Poll the groups every --refresh (5s by default) and append each poll to FILE:
the groups' state, members and assignments, committed offsets, log start,
end and last stable offsets, the records read at old commits for exact time
lags (their offsets and timestamps only: never a record's key or value), and
the poll's time, or its error when it failed. Names are kept byte for byte,
as in JSON.

Each poll is judged as 'kgroups serve' judges it (--window as there), and
written as a change from the one before: a group that did not change costs
a byte a poll, a partition whose offsets did not move a bit. Each poll is
one checksummed frame, written at once: a crash or a kill loses at most the
poll being written, and the file can be read (kgroups replay, health
--from) while it is written.

kgroups record never writes over a file: FILE must not exist. With
--rotate-size or --rotate-age, a full file is closed and the next one is
FILE.2, FILE.3 ... before its extension (incident.kgrec, incident.2.kgrec),
each a whole recording of its own. The file is readable by its owner only:
it names the cluster's groups, members and hosts.

--redact replaces group, topic, member, instance, client and host names
(and the cluster's) with stable pseudonyms (group-1, topic-2, host-3:9092)
and drops commit and join metadata, keeping the structure, the counts and
every number, so the file can be attached to a bug report; 'kgroups redact'
does the same to a file already recorded.

It records until --for has passed (one poll at each end) or until
interrupted (Ctrl-C), then says how many polls it wrote. Named groups that
do not exist yet are recorded once they appear. A failed poll is recorded
with its error, and the recording goes on.

Exit codes: 0 when the recording ended (--for), 130 or 143 when
interrupted, 1 when the file cannot be written or the cluster cannot be
reached at the start, 2 for bad flags.`,
		Example: `  kgroups record orders payments -o incident.kgrec
  kgroups record --all-groups -o night.kgrec --for 8h --rotate-size 200MB
  kgroups replay incident.kgrec`,
		RunE: func(cmd *cobra.Command, args []string) error {
			args, err := withGroupBase64(args, f.b64)
			if err != nil {
				return err
			}
			o, err := parseRecord(args, f)
			if err != nil {
				return err
			}
			return a.connected(cmd.Context(), nil, func(cl *kafka.Client, cc config.Cluster) error {
				poll := func(ctx context.Context) (*kafka.Snapshot, error) {
					if o.all {
						return cl.Poll(ctx)
					}
					return cl.PollGroups(ctx, o.names...)
				}
				return runRecord(cmd.Context(), a, o, recordInterval(cc), cl.Brokers(), poll, cl.CommittedTimestamps)
			})
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&f.all, "all-groups", false, "record every group in the cluster")
	fs.StringVarP(&f.out, "output", "o", "", "the recording `FILE` to create (required; never written over)")
	fs.DurationVar(&f.dur, "for", 0, "stop after this long (default: until interrupted)")
	fs.DurationVar(&f.window, "window", 0, "judge over this window of polls, as 'kgroups serve --window' (default: the groups screen's history)")
	fs.StringVar(&f.rotateSize, "rotate-size", "", "start the next file once one holds this much: 100MB, 1GiB (default: no limit)")
	fs.DurationVar(&f.rotateAge, "rotate-age", 0, "start the next file once one spans this long (default: no limit)")
	fs.BoolVar(&f.redact, "redact", false, "replace group, topic, member, client and host names with stable pseudonyms, to attach the file to a bug report")
	addGroupBase64Flag(cmd, &f.b64, true)
	cmd.ValidArgsFunction = a.completeGroups(anyGroup, true)
	completeFlag(cmd, "output", files)
	completeFlag(cmd, "for", fixed("10m", "1h", "8h", "24h"))
	completeFlag(cmd, "window", none)
	completeFlag(cmd, "rotate-size", fixed("100MB", "1GB"))
	completeFlag(cmd, "rotate-age", fixed("1h", "24h"))
	return cmd
}

// recordInterval is the time between polls: the refresh setting.
func recordInterval(cc config.Cluster) time.Duration {
	if cc.Refresh > 0 {
		return cc.Refresh
	}
	return config.DefaultRefresh
}

// parseRecord validates the arguments before anything connects.
func parseRecord(args []string, f recordFlags) (recordOptions, error) {
	o := recordOptions{all: f.all, out: f.out, dur: f.dur, window: f.window, rotateAge: f.rotateAge, redact: f.redact}
	switch {
	case f.all && len(args) > 0:
		return o, usageErrorf("give either group names or --all-groups, not both")
	case !f.all && len(args) == 0:
		return o, usageErrorf("record needs one or more group names, or --all-groups")
	case f.out == "":
		return o, usageErrorf("record needs -o FILE: the recording to create")
	case f.dur < 0:
		return o, usageErrorf("invalid --for %s: it must be above zero (or left out to record until interrupted)", f.dur)
	case f.window < 0:
		return o, usageErrorf("invalid --window %s: it must be above zero (or left out for the groups screen's history)", f.window)
	case f.rotateAge < 0:
		return o, usageErrorf("invalid --rotate-age %s: it must be above zero", f.rotateAge)
	}
	var err error
	if o.names, err = groupNames(args); err != nil {
		return o, err
	}
	if f.rotateSize != "" {
		if o.rotateSize, err = parseSize(f.rotateSize); err != nil || o.rotateSize <= 0 {
			return o, usageErrorf("invalid --rotate-size %q: give a size above zero such as 500KB, 100MB, 2GiB", f.rotateSize)
		}
	}
	if _, err := os.Lstat(f.out); err == nil {
		return o, usageErrorf("%s already exists: kgroups never writes over a recording; give another file name", f.out)
	}
	if dir := filepath.Dir(f.out); dir != "" {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return o, usageErrorf("cannot create %s: its folder %s does not exist", f.out, dir)
		}
	}
	return o, nil
}

// parseSize reads a size in bytes: a whole number with an optional unit,
// B, KB, MB, GB (powers of 1000) or KiB, MiB, GiB (powers of 1024), in
// any case.
func parseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		return 0, err
	}
	units := map[string]int64{"": 1, "b": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9, "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "k": 1e3, "m": 1e6, "g": 1e9}
	mult, ok := units[strings.ToLower(strings.TrimSpace(s[i:]))]
	if !ok {
		return 0, fmt.Errorf("unknown unit %q", s[i:])
	}
	if n > (1<<63-1)/mult {
		return 0, errors.New("too large")
	}
	return n * mult, nil
}

// runRecord polls every interval and records each poll until ctx ends or
// o.dur has passed.
func runRecord(ctx context.Context, a *app, o recordOptions, interval time.Duration, cluster []string, poll pollFunc, read readRecords) error {
	h := recording.Header{Version: recording.Version, Refresh: interval, Window: o.window, Groups: o.names, Cluster: cluster, Program: "kgroups " + buildVersion()[0]}
	sink := &recording.Rotating{Name: recording.Numbered(o.out), Header: h, MaxBytes: o.rotateSize, MaxAge: o.rotateAge}
	rec := &recording.Recorder{
		Loop: watch.Loop{Poll: poll, Read: watch.Reader(read), Tracker: lag.NewTracker(h.Config())},
		Sink: sink,
	}
	if o.redact {
		r := recording.NewRedactor()
		sink.Header = r.Header(h)
		rec.Sink = recording.Redacting{Sink: sink, Redactor: r}
	}
	what := "all groups"
	if !o.all {
		what = groupCount(len(o.names))
	}
	a.notef("kgroups record: recording %s every %s to %s", what, format.Span(interval), o.out)
	polls, failed := 0, 0
	var last time.Time
	var end time.Time
	seen := map[string]bool{}
	for {
		snap, _, perr, werr := rec.Step(ctx)
		if werr != nil {
			_ = sink.Close()
			return fmt.Errorf("record: %w", werr)
		}
		if ctx.Err() != nil {
			break
		}
		polls++
		if perr != nil {
			failed++
			a.notef("kgroups record: poll %d failed (recorded): %v", polls, perr)
		} else {
			noteMissing(a, o.names, snap, seen)
		}
		now := time.Now()
		if polls == 1 {
			last = now
			if o.dur > 0 {
				end = now.Add(o.dur)
			}
		} else {
			last = last.Add(interval)
		}
		next := last.Add(interval)
		if o.dur > 0 && next.After(end) {
			break
		}
		if err := sleepUntil(ctx, next); err != nil {
			break
		}
	}
	files := sink.Files()
	cerr := sink.Close()
	var size int64
	for _, f := range files {
		if st, err := os.Stat(f); err == nil {
			size += st.Size()
		}
	}
	where := strings.Join(files, ", ")
	a.notef("kgroups record: %s (%d failed), %s in %s", format.Count(polls, "poll", "polls"), failed, render.Size(size), where)
	if cerr != nil {
		return fmt.Errorf("record: %w", cerr)
	}
	return nil
}

// noteMissing tells stderr once of each named group the poll did not
// find, and again when it appears.
func noteMissing(a *app, names []string, snap *kafka.Snapshot, seen map[string]bool) {
	for _, name := range names {
		g, ok := snap.Group(name)
		here := ok && !absent(g)
		if was, known := seen[name]; !known || was != here {
			if !here {
				a.notef("kgroups record: group %q not found: recording it once it appears", name)
			} else if known {
				a.notef("kgroups record: group %q appeared", name)
			}
		}
		seen[name] = here
	}
}

// sleepUntil waits until t or until ctx ends.
func sleepUntil(ctx context.Context, t time.Time) error {
	d := time.Until(t)
	if d <= 0 {
		return nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}
