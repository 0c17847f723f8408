package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/receipt"
	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/kafka/watch"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/render"
)

func init() { register(newHealthCmd) }

const (
	defaultHealthWindow   = time.Minute
	defaultHealthInterval = 5 * time.Second
	// healthMaxSamples caps the polls each partition's history keeps
	// (watch.MaxSamples).
	healthMaxSamples = watch.MaxSamples
)

// healthFlags are `kgroups health`'s flags as given.
type healthFlags struct {
	all              bool
	window, interval time.Duration
	format, failOn   string
	wide             bool
	b64              []string
	quiet            bool
	// command names the command in errors: "diagnose" shares these
	// flags; "" is health.
	command string
	// from reads a recording instead of the cluster (--from, --at).
	from fromFlags
}

// healthOptions is a validated `kgroups health`.
type healthOptions struct {
	names            []string
	all              bool
	window, interval time.Duration
	polls            int
	cfg              lag.Config
	format           string
	// failOn is the severity from which the command exits 3; failSet is
	// false without --fail-on, when it never does.
	failOn  lag.Severity
	failSet bool
	// wide shows long names whole (--wide).
	wide bool
	// quiet turns the progress line off (--quiet).
	quiet bool
	// cluster is the connection's bootstrap brokers: only its receipts
	// explain a REWIND.
	cluster []string
	// read reads the records at committed offsets for exact time lags
	// (the client's CommittedTimestamps); nil reads nothing.
	read readRecords
	// filter chooses among all groups (--all-groups) those judged: the
	// context's groups settings, which kgroups serve applies too.
	filter kafka.GroupFilter
}

// readRecords reads the records at the committed offsets of parts.
type readRecords func(ctx context.Context, parts []kafka.PartitionOffsets) (map[kafka.CommitKey]kafka.RecordTime, error)

func newHealthCmd(a *app) *cobra.Command {
	var f healthFlags
	cmd := &cobra.Command{
		Use:   "health (GROUP... | --all-groups [--skip-empty] [--allow-groups RE] [--deny-groups RE]) [--window 1m] [--interval 5s] [--wide] [-o table|json] [--fail-on WARN|ERR]",
		Short: "Judge groups' lag health over a sampling window, for cron and CI",
		Long: `Poll the groups every --interval for --window, then judge each one with
Burrow's statuses, from how its committed offsets, lag and time lag moved:

  OK          no lag, keeping up with the producers, or none of the below
  WARN        falling behind: the time lag at its commits climbs, and its lag
              in records too, over at least three commits spanning the window
  NO-COMMITS  a live member owned the partition all window and never committed
  STALL       the committed offset stood while a member owned the partition and
              records waited, longer than the window and twice the consumer's
              own rhythm (the longest wait between its commits; with no rhythm
              seen, 5 minutes)
  REWIND      the committed offset went backwards within the window and has not
              recovered (the messages between are consumed twice)
  STOP        no member and no commit, longer than the window and twice the
              consumer's rhythm: the consumer is gone

A group takes its worst partition's status; STALL, REWIND and STOP count as
ERR, WARN and NO-COMMITS as WARN. Each consumer is judged on its own commit
rhythm: one that commits every 30s or on checkpoints minutes apart is not
stalled between commits. Where the window cannot decide (it is shorter than
the consumer's rhythm, or holds too few commits for a trend), the verdict is
JUDGING and the CAUSE column says why and how long a window would decide.
The rules look at the last 10 observations (fewer when the window holds
fewer polls); no group is OK before it was seen that many times, so give
the window at least ten intervals.

The output has one row per group (status, total lag, maximum time lag, produce
and consume rates in messages per second), then the partitions that are not OK
with their status; a REWIND shows the offsets involved as high->low. The
group's status reads as in the UI: OK, WARN, WARN NO-COMMITS, or ERR and
the worst partition status (ERR STALL); "JUDGING n/m" while the verdict
rests on n of the m observations it needs and "JUDGING" while the window
cannot decide (severity OK: it never trips --fail-on), and "-" while
nothing can be judged (no member and nothing committed, or offsets that
could not be read). Time lag is estimated from how the log end grew while
sampling, in at most two units (12s, 3m04s, 2h05m). A commit older than
the first poll is read instead: the record at it gives the exact time lag,
marked "=" (at most 256 partitions a poll, the most lagging first, batched
per broker, each commit read once). "≥" (">=" outside a UTF-8 locale)
marks a lower bound (a commit older than the polls not read yet, or a
lagging partition whose time lag is not known yet), "-" unknown, never 0s
for a group that lags. No time lag is ever extrapolated.
Rates read as in the UI: 0.3, 5.0, 35, 1.2k messages per second.
When the polls already know why a WARN or ERR group lags, a CAUSE column
says so in a few words, as the groups screen does: open txn, lost to
retention, member not committing, slower than producers, past log end, near
retention, unassigned partitions, rebalance storm, topic recreated
('kgroups diagnose' gives the evidence); only a finding at least as severe
as the verdict is named.
-o json prints every partition of every group, unknown values as null,
"judging": {"observations": n, "window": m, "reason": "..."} while a
verdict is JUDGING, "cause" where a WARN or ERR has one, and "catchUp"
({state, seconds,
capped, behindRate}: caught-up, keeping-up, catching-up with the seconds
to go, at most a day, or falling-behind by so many records a second; null
while unknown), the group screen's header's answer.

With --all-groups, the groups judged are chosen as 'kgroups serve' chooses
the groups it exports, from the same settings (flags, variables, or the
groups section of the context in the configuration file):

` + sectionsHelp("groups") + `
so that --all-groups --skip-empty --fail-on ERR leaves out archived groups
(Empty, no members, their commits kept) instead of failing on their ERR
STOP, and --allow-groups names the groups that must be running. Named
groups are always judged: the filters as flags need --all-groups.

While sampling on a terminal, kgroups first says how long the window will
take, then shows the time left and the polls done on stderr, cleared at the
end; nothing is shown when stderr is not a terminal, or with --quiet.

--from FILE reads a recording (kgroups record) instead of the cluster and
judges its polls with the same rules, as the recorder judged them live (a
--window given then judges over that window instead). Without --at it
prints the verdict timeline: one row per group at its first poll and at
each poll where its verdict changed (TIME in UTC), and -o json gives
{"changes":[...]}. With --at TIME it prints the health table as of the
last poll at or before TIME. Groups named, or every recorded group;
--fail-on judges the last poll shown.

Exit codes: 0 healthy (or no --fail-on), 3 when a group's severity is at or
above --fail-on (WARN or ERR), 1 when the cluster or a group could not be read
(3 wins when both apply), 2 for bad flags.`,
		Example: `  kgroups health orders payments
  kgroups health --all-groups --fail-on ERR
  kgroups health --all-groups --skip-empty --deny-groups 'console-consumer-.*' --fail-on ERR
  kgroups health orders --window 2m --interval 10s -o json | jq '.groups[].status'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			args, err := withGroupBase64(args, f.b64)
			if err != nil {
				return err
			}
			if f.from.file != "" {
				return runHealthFrom(a, cmd, args, f)
			}
			if err := f.from.check(); err != nil {
				return err
			}
			o, err := parseHealth(args, f)
			if err != nil {
				return err
			}
			return runHealth(cmd.Context(), a, o)
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&f.all, "all-groups", false, "judge every group in the cluster")
	fs.DurationVar(&f.window, "window", defaultHealthWindow, "how long to sample for")
	fs.DurationVar(&f.interval, "interval", defaultHealthInterval, "time between polls (at most --window)")
	fs.StringVar(&f.failOn, "fail-on", "", "exit 3 when a group's severity is at or above this: WARN or ERR (any case)")
	addFormatFlag(cmd, &f.format)
	addWideFlag(cmd, &f.wide)
	addGroupBase64Flag(cmd, &f.b64, true)
	cmd.ValidArgsFunction = a.completeGroups(anyGroup, true)
	completeFlag(cmd, "window", none)
	completeFlag(cmd, "interval", none)
	completeFlag(cmd, "fail-on", fixed("WARN", "ERR"))
	addQuietFlag(cmd, &f.quiet)
	addFromFlags(cmd, &f.from, "the verdict timeline of every group, or with --at the health table as of that poll")
	return cmd
}

// parseHealth validates the arguments before anything connects, so a typo
// costs nothing and exits 2.
func parseHealth(args []string, f healthFlags) (healthOptions, error) {
	p := healthOptions{all: f.all, window: f.window, interval: f.interval, wide: f.wide, quiet: f.quiet}
	switch {
	case f.all && len(args) > 0:
		return p, usageErrorf("give either group names or --all-groups, not both")
	case !f.all && len(args) == 0:
		cmd := f.command
		if cmd == "" {
			cmd = "health"
		}
		return p, usageErrorf("%s needs one or more group names, or --all-groups", cmd)
	case f.window <= 0:
		return p, usageErrorf("invalid --window %s: it must be above zero", f.window)
	case f.interval <= 0:
		return p, usageErrorf("invalid --interval %s: it must be above zero", f.interval)
	case f.interval > f.window:
		return p, usageErrorf("--interval %s is longer than --window %s: the window must hold at least two polls", f.interval, f.window)
	}
	for _, name := range args {
		if name == "" {
			return p, usageErrorf("a group name cannot be empty")
		}
	}
	p.names = uniqueNames(args)
	format, err := parseFormat(f.format)
	if err != nil {
		return p, err
	}
	p.format = format
	if f.failOn != "" {
		var s lag.Severity
		if err := s.UnmarshalText([]byte(strings.TrimSpace(f.failOn))); err != nil || s == lag.SeverityOK {
			return p, usageErrorf("invalid --fail-on %q: accepted values are WARN, ERR (any case)", f.failOn)
		}
		p.failOn, p.failSet = s, true
	}
	p.cfg, p.polls = healthConfig(f.window, f.interval)
	return p, nil
}

// healthConfig derives the history's configuration from the sampling
// flags (watch.Config, which `kgroups serve` uses too). The window holds
// window/interval+1 polls (one at each end). Every poll of a partition a
// live member owns should count as a commit observation, so MinDistance
// is half the interval: polls are never closer than one interval, and the
// half absorbs clock jitter. W stays Burrow's 10 unless the window holds
// fewer polls; then it is the number of polls, so that STALL and WARN can
// still be reached. Rates cover the whole window (up to
// watch.MaxSamples polls).
func healthConfig(window, interval time.Duration) (lag.Config, int) {
	return watch.Config(window, interval)
}

// healthSampler polls on a fixed schedule and feeds a History.
type healthSampler struct {
	poll     pollFunc
	polls    int
	interval time.Duration
	// progress, when not nil (stderr is a terminal), shows the time left
	// and the polls done on one line, rewritten in place.
	progress io.Writer
	what     string // "3 groups", "all groups"
	// read, when not nil, reads after every poll the records the
	// History wants for exact time lags, as the UI does (see readExact).
	read readRecords
	// added, when not nil, is given every snapshot after the History
	// took it.
	added func(*kafka.Snapshot)
}

// readExact reads the records at the commits the History cannot place
// within its points (watch.ReadExact: at most lag.DefaultExactBudget a
// poll, as in the UI and `kgroups serve`) and stores them, so that the
// command and the UI show the same time lag for the same polls. A read
// that fails leaves lower bounds, never an error: the verdicts do not
// depend on it.
func (s *healthSampler) readExact(ctx context.Context, h *lag.History) {
	if s.read == nil {
		return
	}
	_ = watch.ReadExact(ctx, watch.ForHistory(h), watch.Reader(s.read), lag.DefaultExactBudget)
}

// sample feeds first and polls-1 more snapshots, interval apart, to h. The
// next poll is scheduled an interval after the previous one started, so
// polls are never closer than one interval (the History's MinDistance
// relies on it) and a slow poll delays the schedule rather than cramming
// two together. A failed poll is skipped and counted: the window still
// ends on time, with fewer observations. It returns the last snapshot
// added, or an error when ctx ends.
func (s *healthSampler) sample(ctx context.Context, h *lag.History, first *kafka.Snapshot) (last *kafka.Snapshot, failed int, lastErr error, err error) {
	h.Add(first)
	s.readExact(ctx, h)
	last = first
	end := first.Time.Add(time.Duration(s.polls-1) * s.interval)
	next := first.Time
	for done := 1; done < s.polls; done++ {
		next = next.Add(s.interval)
		s.show(end, done)
		if err := s.waitUntil(ctx, next, func() { s.show(end, done) }); err != nil {
			s.clear()
			return nil, failed, lastErr, err
		}
		snap, perr := s.poll(ctx)
		if ctx.Err() != nil {
			s.clear()
			return nil, failed, lastErr, ctx.Err()
		}
		if perr != nil {
			failed, lastErr = failed+1, perr
			continue
		}
		h.Add(snap)
		if s.added != nil {
			s.added(snap)
		}
		s.readExact(ctx, h)
		last = snap
		next = snap.Time
	}
	s.clear()
	return last, failed, lastErr, nil
}

// waitUntil sleeps until t, calling tick about once a second when there is
// progress to refresh.
func (s *healthSampler) waitUntil(ctx context.Context, t time.Time, tick func()) error {
	for {
		d := time.Until(t)
		if d <= 0 {
			return nil
		}
		if s.progress != nil && d > time.Second {
			d = time.Second
		}
		timer := time.NewTimer(d)
		select {
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		case <-timer.C:
		}
		if s.progress != nil {
			tick()
		}
	}
}

func (s *healthSampler) show(end time.Time, done int) {
	if s.progress != nil {
		_, _ = fmt.Fprint(s.progress, healthProgress(s.what, time.Until(end), done, s.polls))
	}
}

func (s *healthSampler) clear() {
	if s.progress != nil {
		_, _ = fmt.Fprint(s.progress, "\r\x1b[K")
	}
}

// healthProgress is the progress line: it returns to the start of the line
// and clears it, so each refresh overwrites the previous one.
func healthProgress(what string, left time.Duration, done, total int) string {
	if left < 0 {
		left = 0
	}
	return fmt.Sprintf("\r\x1b[Ksampling %s: %s left, %d/%d polls", format.Sanitize(what), left.Round(time.Second), done, total)
}

// isTerminal reports whether w is a terminal, where progress can be
// redrawn in place; a pipe or file gets none, so logs stay clean.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// groupFilterKeys are the settings of the groups section, with their
// flags, for the check that named groups take none of them as a flag.
var groupFilterKeys = []struct{ key, flag string }{
	{"groups.allow", "--allow-groups"}, {"groups.deny", "--deny-groups"}, {"groups.skip_empty", "--skip-empty"},
}

// healthFilter compiles the groups settings of cc into o.filter for
// --all-groups. Named groups are judged as named: a filter given as a
// flag with them is a usage error rather than a flag silently ignored
// (one from the file or a variable is the context's, and does not apply
// to groups the user names).
func healthFilter(o *healthOptions, cc config.Cluster) error {
	if !o.all {
		for _, k := range groupFilterKeys {
			if cc.FromFlag(k.key) {
				return usageErrorf("%s chooses among all groups: give --all-groups with it, or name the groups without it", k.flag)
			}
		}
		return nil
	}
	f, err := kafka.CompileGroupFilter(cc.Groups.Allow, cc.Groups.Deny, cc.Groups.SkipEmpty)
	if err != nil {
		return usageErrorf("%v", err)
	}
	o.filter = f
	return nil
}

func runHealth(ctx context.Context, a *app, o healthOptions) error {
	check := func(cc config.Cluster) error { return healthFilter(&o, cc) }
	return a.connected(ctx, check, func(cl *kafka.Client, _ config.Cluster) error {
		o.cluster = cl.Brokers()
		o.read = cl.CommittedTimestamps
		return explainMissing(ctx, a, cl, sampleHealth(ctx, a, windowPoll(cl, o), o))
	})
}

// sampleHealth samples with poll (the cluster's groups, or the named ones),
// judges and prints.
func sampleHealth(ctx context.Context, a *app, poll pollFunc, p healthOptions) error {
	w, err := sampleWindow(ctx, a, "health", poll, p, nil)
	if err != nil {
		return err
	}
	return reportHealth(a, p, w)
}

// reportHealth prints the judged window, its notes and failures, and
// returns the exit code they make: a window sampled live, or read from
// a recording.
func reportHealth(a *app, p healthOptions, w *sampledWindow) error {
	verdicts := w.verdicts
	var err error
	var bad []string
	for i := range verdicts {
		if v := &verdicts[i]; p.failSet && v.Severity >= p.failOn {
			bad = append(bad, fmt.Sprintf("%s (%s)", format.Sanitize(v.Group), v.Status))
		}
	}
	causes := healthCauses(w, p.names)
	if p.format == formatJSON {
		err = render.HealthJSONWith(a.stdout, verdicts, causes)
	} else {
		err = render.HealthWith(a.stdout, verdicts, causes, a.atLeast(), a.layout(p.wide))
	}
	if err != nil {
		return err
	}

	for _, n := range render.HealthResetNotes(verdicts) {
		a.notef("kgroups: %s", n)
	}
	failedRead := w.noteFailures(a, p.polls)
	if len(bad) > 0 {
		return exitCodeError{code: exitUnhealthy, err: fmt.Errorf("%s at or above %s: %s", groupCount(len(bad)), p.failOn, strings.Join(bad, ", "))}
	}
	if failedRead {
		return exitCodeError{code: exitError}
	}
	return nil
}

// healthCauses is the short cause of each judged group's WARN or ERR
// that the window's polls know (diagnose.GlanceAt, as the groups screen
// asks it; the stable offsets of the first and last polls tell an open
// transaction), "" for none.
func healthCauses(w *sampledWindow, names []string) []string {
	out := make([]string, len(w.verdicts))
	var reads *diagnose.Reads
	for i := range w.verdicts {
		v := &w.verdicts[i]
		if v.Judging() {
			out[i] = judgingCause(v, w.history.Config())
			continue
		}
		if sev, ok := v.Decided(); !ok || sev < lag.SeverityWarn {
			continue
		}
		if reads == nil {
			reads = &diagnose.Reads{Stable: diagnose.Trailing(selected(w.first, names), w.judged)}
		}
		g := w.judged[i]
		in := diagnose.Input{
			Group: g, PartitionCounts: w.last.PartitionCounts, Verdict: *v,
			Since: w.first.Time, Now: w.last.Time, Reads: reads, Unmoved: unmoved(w.history, g.Name),
			Series: commitSeries(w.history, g.Name),
		}
		if v.Status == lag.StatusStop {
			// An Empty group: how long it has had no members says whether
			// it stopped or was never running while watched.
			if since, whole, ok := w.history.NoMembersSince(v.Group); ok {
				in.NoMembersSince, in.NoMembersWhole = since, whole
			}
		}
		out[i] = diagnose.GlanceAt(in).For(v)
	}
	return out
}

// noteResets tells h of the resets and undos of cluster whose receipts in
// the receipts folder are from since on. A folder that cannot be read is a
// note, not a failure: the verdicts stand without it.
func noteResets(ctx context.Context, a *app, h *lag.History, cluster []string, since time.Time) {
	dir, err := receipt.DefaultDir()
	if err != nil {
		return
	}
	rs, err := reset.RecentResets(ctx, dir, cluster, since)
	if err != nil {
		a.notef("kgroups: the receipts folder %s was not read (%v): a REWIND made by a kgroups reset is not told apart", dir, err)
	}
	for _, r := range rs {
		h.NoteReset(r.Group, r.LagReset())
	}
}

// judgeHealth judges the named groups as of the last poll, with lag.Judge
// over the History's evaluation: the rule and the words the UI's tracker
// uses, so that the command and the UI cannot disagree about a group. It
// also returns the judged groups as last seen, and the names that the last
// poll did not find.
func judgeHealth(h *lag.History, last *kafka.Snapshot, names []string) (verdicts []lag.Verdict, judged []*kafka.Group, gone []string) {
	window := h.Config().Window
	for _, name := range names {
		gh, ok := h.Evaluate(name, last.Time)
		g, inLast := last.Group(name)
		if !ok || !inLast || absent(g) {
			gone = append(gone, name)
			continue
		}
		verdicts = append(verdicts, lag.Judge(gh, window))
		judged = append(judged, g)
	}
	return verdicts, judged, gone
}

// groupCount is "1 group" or "n groups".
func groupCount(n int) string { return format.Count(n, "group", "groups") }

// judgingCause is why a JUDGING verdict waits, and, when a longer window
// would decide it, the --window to give: "no commit in 55s and no rhythm
// seen yet: STALL after 5m unless it commits; widen --window to 6m".
func judgingCause(v *lag.Verdict, cfg lag.Config) string {
	r := v.Reason()
	if need := v.Wait.Need; v.Wait.Kind != lag.WaitNone && need > 0 {
		// The verdict needs the evidence to span more than need, and
		// the window spans (Window-1) polls: a window of need and a poll
		// more, in whole minutes past need.
		window := (need + cfg.MinDistance*2).Round(time.Minute)
		if window <= need {
			window += time.Minute
		}
		r += "; widen --window to " + format.Span(window)
	}
	return r
}
