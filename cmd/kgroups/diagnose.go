package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/render"
)

func init() { register(newDiagnoseCmd) }

// diagnoseOptions is a validated `kgroups diagnose`: the sampling of
// `kgroups health` plus the rules' thresholds and its own --fail-on.
type diagnoseOptions struct {
	healthOptions
	storm   int
	failOn  lag.Severity
	failSet bool
	// conn names the cluster in the suggested commands (connectionArgs).
	conn []string
}

func newDiagnoseCmd(a *app) *cobra.Command {
	var (
		f      healthFlags
		storm  int
		failOn string
	)
	cmd := &cobra.Command{
		Use:   "diagnose (GROUP... | --all-groups) [--window 1m] [--interval 5s] [--storm N] [--wide] [-o table|json] [--fail-on WARN|ERR]",
		Short: "Name the likely cause of a group's lag from evidence, read-only",
		Long: `Sample the groups as 'kgroups health' does (every --interval for --window,
judged by the same rules), read a little more where a rule needs it, and
report findings: one line each, grouped by group, most severe first.

  records-lost-to-retention      ERR   the commit is below the log start
  stuck-behind-open-transaction  ERR   the last stable offset trails the log end and did
                                       not move (WARN while the group still reads below it)
  member-not-committing          ERR   all or nearly all partitions of a live member stalled
                                       together: the member is the cause, not a record
  stalled-at-record              ERR   a live member's commit did not move while records wait
                                       (the record is blamed only when its other partitions advance)
  offset-beyond-log-end          ERR   the commit is past the log end
  unassigned-partitions          WARN  a Stable group subscribes to partitions nobody owns
  lag-skew                       WARN  one member holds >= 80% of the lag, the rest near 0
  rebalance-storm                WARN  more than --storm rebalances in the window
  no-commits                     WARN  a live member owns partitions never committed
  consumer-behind-retention      WARN  the time lag is within 10% of the topic's retention.ms
  slower-than-producers          WARN  the group consumes >10% slower than records arrive
                                       with a lag past what is in flight
  log-replaced                   WARN  a partition's log was replaced (the topic recreated,
                                       or another cluster at the address)

A group without a finding reads "no findings", or "no findings yet: judging
3/10" while the window held too few observations for the rules that judge
a trend. docs/findings.md describes every finding.
Each finding carries its evidence (the numbers it rests on) and a suggested
next step: always a read or a dry run (kgroups peek, kgroups reset or
kgroups rebalance without --execute, kafka-transactions.sh describe), never
a write. diagnose itself only reads: it never joins a group, commits or
aborts a transaction.

Extra reads, each batched by broker: the polls read the last stable offsets
(ListOffsets, read_committed, one request per leader); producers and
transactions only for partitions whose stable offset trails the log end;
retention.ms once per topic with a known time lag; the record at the commit
of a stalled partition only.

--from FILE reads a recording (kgroups record) instead of the cluster: the
findings as of its last poll (or the last at or before --at TIME), over the
--window of polls before it, judged as the recorder judged them. A
recording holds the polls only: the rules that need producers,
transactions, retention.ms or the record at a stalled commit find nothing,
and a note says so.

Exit codes: 0 no finding at or above --fail-on (or no --fail-on), 3 a finding
at or above it (WARN or ERR), 1 when the cluster or a group could not be read
(3 wins when both apply), 2 for bad flags.`,
		Example: `  kgroups diagnose orders
  kgroups diagnose --all-groups --window 2m --fail-on ERR
  kgroups diagnose orders -o json | jq '.groups[].findings[] | select(.severity == "ERR")'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			args, err := withGroupBase64(args, f.b64)
			if err != nil {
				return err
			}
			if f.from.file != "" {
				return runDiagnoseFrom(a, cmd, args, f, storm, failOn)
			}
			if err := f.from.check(); err != nil {
				return err
			}
			o, err := parseDiagnose(args, f, storm, failOn)
			if err != nil {
				return err
			}
			return runDiagnose(cmd.Context(), a, o)
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&f.all, "all-groups", false, "diagnose every group in the cluster")
	fs.DurationVar(&f.window, "window", defaultHealthWindow, "how long to sample for")
	fs.DurationVar(&f.interval, "interval", defaultHealthInterval, "time between polls (at most --window)")
	fs.IntVar(&storm, "storm", 3, "a rebalance storm is more than this many rebalances in the window")
	fs.StringVar(&failOn, "fail-on", "", "exit 3 when a finding's severity is at or above this: WARN or ERR (any case)")
	addFormatFlag(cmd, &f.format)
	addWideFlag(cmd, &f.wide)
	addGroupBase64Flag(cmd, &f.b64, true)
	cmd.ValidArgsFunction = a.completeGroups(anyGroup, true)
	completeFlag(cmd, "window", none)
	completeFlag(cmd, "interval", none)
	completeFlag(cmd, "storm", none)
	completeFlag(cmd, "fail-on", fixed("WARN", "ERR"))
	addQuietFlag(cmd, &f.quiet)
	addFromFlags(cmd, &f.from, "the findings as of its last poll, or of --at, over the --window before it")
	return cmd
}

// parseDiagnose validates the arguments before anything connects.
func parseDiagnose(args []string, f healthFlags, storm int, failOn string) (diagnoseOptions, error) {
	var o diagnoseOptions
	f.command = "diagnose"
	h, err := parseHealth(args, f)
	if err != nil {
		return o, err
	}
	o.healthOptions = h
	if storm < 1 {
		return o, usageErrorf("invalid --storm %d: it must be 1 or more", storm)
	}
	o.storm = storm
	if failOn != "" {
		var s lag.Severity
		if err := s.UnmarshalText([]byte(strings.TrimSpace(failOn))); err != nil || s == lag.SeverityOK {
			return o, usageErrorf("invalid --fail-on %q: accepted values are WARN, ERR (any case)", failOn)
		}
		o.failOn, o.failSet = s, true
	}
	return o, nil
}

func runDiagnose(ctx context.Context, a *app, o diagnoseOptions) error {
	return a.connected(ctx, nil, func(cl *kafka.Client, c config.Cluster) error {
		o.cluster = cl.Brokers()
		o.read = cl.CommittedTimestamps
		o.conn = connectionArgs(c, a.selection())
		return explainMissing(ctx, a, cl, sampleDiagnose(ctx, a, windowPoll(cl, o.healthOptions), diagnose.NewReader(cl), o))
	})
}

// sampleDiagnose samples as health does, feeding the rebalance timeline
// too, then gathers the extra reads and applies the rules.
func sampleDiagnose(ctx context.Context, a *app, poll pollFunc, rd *diagnose.Reader, o diagnoseOptions) error {
	tl := rebalance.NewTimeline(rebalance.TimelineConfig{})
	w, err := sampleWindow(ctx, a, "diagnose", poll, o.healthOptions, tl.Add)
	if err != nil {
		return err
	}
	failedRead := false
	reads, err := rd.Gather(ctx, selected(w.first, o.names), w.judged, w.verdicts)
	if err != nil {
		a.notef("kgroups: %v", err)
		failedRead = true
	}
	return reportDiagnose(a, o, w, tl, reads, failedRead)
}

// reportDiagnose applies the rules to the judged window with its
// timeline and extra reads, prints the findings and returns the exit
// code they make: a window sampled live, or read from a recording.
func reportDiagnose(a *app, o diagnoseOptions, w *sampledWindow, tl *rebalance.Timeline, reads *diagnose.Reads, failedRead bool) error {
	first, last, verdicts, judged := w.first, w.last, w.verdicts, w.judged
	var err error
	// A read the brokers cannot answer (too old, denied) drops only the
	// rules that need it: a note says so, and the exit code stays the
	// findings'.
	missing := reads.Missing
	bootstrap := ""
	if len(o.cluster) > 0 {
		bootstrap = o.cluster[0]
	}
	out := make([]render.DiagnosedGroup, len(judged))
	var bad []string
	for i, g := range judged {
		events := tl.Events(g.Name, nil)
		fs := diagnose.Diagnose(diagnose.Input{
			Group: g, PartitionCounts: last.PartitionCounts, Verdict: verdicts[i],
			Events: events, Since: first.Time, Now: last.Time, Reads: reads,
			Config: diagnose.Config{StormRebalances: o.storm}, Bootstrap: bootstrap,
			Unmoved:    unmoved(w.history, g.Name),
			Series:     commitSeries(w.history, g.Name),
			Connection: o.conn,
		})
		out[i] = render.DiagnosedGroup{Group: g.Name, Findings: fs, Verdict: verdicts[i]}
		if w, ok := diagnose.Worst(fs); ok && o.failSet && w >= o.failOn {
			bad = append(bad, fmt.Sprintf("%s (%s)", format.Sanitize(g.Name), w))
		}
	}
	if o.format == formatJSON {
		err = render.DiagnoseJSON(a.stdout, out, missing...)
	} else {
		err = render.Diagnose(a.stdout, out, a.layout(o.wide))
		if err == nil {
			err = render.MissingNotes(a.stderr, missing)
		}
	}
	if err != nil {
		return err
	}
	if w.noteFailures(a, o.polls) {
		failedRead = true
	}
	if len(bad) > 0 {
		return exitCodeError{code: exitUnhealthy, err: fmt.Errorf("%s with findings at or above %s: %s", groupCount(len(bad)), o.failOn, strings.Join(bad, ", "))}
	}
	if failedRead {
		return exitCodeError{code: exitError}
	}
	return nil
}

// unmoved is the history's CommitUnmovedSince for one group, as the
// rules take it (diagnose.Input.Unmoved).
func unmoved(h *lag.History, group string) func(string, int32) (time.Time, bool) {
	return func(topic string, partition int32) (time.Time, bool) {
		return h.CommitUnmovedSince(group, topic, partition)
	}
}

// commitSeries is the history's PartitionSeries for one group, as the rules
// take it (diagnose.Input.Series): the commits' rhythm.
func commitSeries(h *lag.History, group string) func(string, int32, []lag.Sample) []lag.Sample {
	return func(topic string, partition int32, dst []lag.Sample) []lag.Sample {
		return h.PartitionSeries(group, topic, partition, dst)
	}
}

// selected returns the named groups of snap (every present group when
// names is empty).
func selected(snap *kafka.Snapshot, names []string) []*kafka.Group {
	var out []*kafka.Group
	if len(names) == 0 {
		for i := range snap.Groups {
			if !absent(&snap.Groups[i]) {
				out = append(out, &snap.Groups[i])
			}
		}
		return out
	}
	for _, n := range names {
		if g, ok := snap.Group(n); ok && !absent(g) {
			out = append(out, g)
		}
	}
	return out
}
