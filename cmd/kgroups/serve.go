package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/render"
	"github.com/kgroups/kgroups/views/render/metrics"
)

func init() { register(newServeCmd) }

// serveOptions is a validated `kgroups serve`.
type serveOptions struct {
	listen      string
	granularity metrics.Granularity
	filter      kafka.GroupFilter
	maxSeries   int
	// interval is the time between polls (the refresh setting); timeout
	// bounds one poll.
	interval, timeout time.Duration
	// window, when not zero, judges over that window of polls as
	// `kgroups health --window` does; zero judges with the groups
	// screen's history (lag.DefaultConfig).
	window time.Duration
	// record keeps a rolling recording of every poll (--record).
	record serveRecord
	// cluster names the cluster in the recording's header.
	cluster []string
}

// serveRecord is --record DIR and its bounds.
type serveRecord struct {
	dir string
	// keep and maxBytes bound what the folder holds: the oldest files
	// go first. fileAge and fileBytes end each file.
	keep      time.Duration
	maxBytes  int64
	fileAge   time.Duration
	fileBytes int64
}

func newServeCmd(a *app) *cobra.Command {
	var window time.Duration
	var rf serveRecordFlags
	cmd := &cobra.Command{
		Use:   "serve [--listen 127.0.0.1:9308] [--granularity group|topic|partition] [--allow-groups RE,...] [--deny-groups RE,...] [--skip-empty] [--max-series N] [--window DURATION]",
		Short: "Export the groups' lag, time lag and verdicts to Prometheus",
		Long: `Poll the cluster every --refresh (5s by default) and serve what the polls
judge on HTTP, for Prometheus:

  /metrics   the Prometheus text format, or OpenMetrics when the scraper asks
  /healthz   200 while the process runs
  /readyz    200 once the first poll is in and judged, 503 before

The polls, the history, the exact time-lag reads, the verdicts and the
findings are those of the UI and 'kgroups health': the same code judges
them. The history is the groups screen's (a verdict rests on 10
observations of a group at least 5s apart, and a consumer's rhythm is
remembered over 60 polls), so serve and the UI give the same verdicts at
any --refresh; --window judges over that window of polls instead, as
'kgroups health --window' does. A scrape never polls: it is served the bytes rendered once per poll,
so scraping more often costs nothing and a slow cluster cannot time a
scrape out. When a poll fails, the last values stay served with
kgroups_poll_success 0, and kgroups_last_poll_age_seconds says how old
they are. docs/serve.md lists every metric, the alert rules and the
dashboard.

Settings (flags, KGROUPS_* variables, or the serve and groups sections of
a context in the configuration file; the groups section is shared with
'kgroups health --all-groups'):

` + serveSettingsHelp() + `
The groups exported are those --allow-groups match (all without it), less
those --deny-groups match, less Empty and Dead ones with --skip-empty;
the patterns are Go regular expressions matched against the whole group
id, and a list is split at the commas outside (), [] and {} (or repeat the
flag). Past --max-series series of groups, whole groups are left out in name
order, counted in kgroups_series_dropped_total and logged on stderr.

SIGHUP reads the configuration file again and applies its group filters,
granularity and series cap from the next poll (flags and variables still
win; the address and the connection stay); a file that does not load, is
not a regular file or is not read within 2s keeps the settings in force,
logs why and sets kgroups_config_reload_success 0. SIGTERM or Ctrl+C stops
the server within a second.

The server answers GET and HEAD only (405 otherwise), closes idle
connections after 60s and slow requests after 10s (headers) or 30s, and
keeps at most 256 connections open. --refresh is at least 1s.

--record DIR also keeps a rolling recording of every poll in DIR (created
0700 when missing), as 'kgroups record' writes it: one file an hour
(kgroups-20261202T030000Z.kgrec, by its first poll in UTC), the oldest
removed once the folder holds more than --record-keep (24h) or
--record-max-size (1GB). After an alert, 'kgroups replay' on the file of
that hour shows what led to it, judged as serve judged it.`,
		Example: `  kgroups serve -b kafka-1:9092
  kgroups serve --context prod --listen :9308 --granularity topic --deny-groups 'console-consumer-.*'
  KGROUPS_SERVE_LISTEN=0.0.0.0:9308 kgroups serve --context prod`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rec, err := parseServeRecord(rf)
			if err != nil {
				return err
			}
			check := func(cc config.Cluster) error {
				_, err := parseServeWindow(cc, window)
				return err
			}
			return a.connected(cmd.Context(), check, func(cl *kafka.Client, cc config.Cluster) error {
				o, err := parseServeWindow(cc, window)
				if err != nil {
					return err
				}
				o.record = rec
				o.cluster = cl.Brokers()
				// serve lets go of each poll before the next
				// (exporter.pollOnce): nothing is left to share.
				cl.ForgetRows()
				return runServe(cmd.Context(), a, o, cl.Poll, cl.CommittedTimestamps)
			})
		},
	}
	cmd.Flags().DurationVar(&window, "window", 0, "judge over this window of polls, as 'kgroups health --window' does (default: the groups screen's history)")
	completeFlag(cmd, "window", none)
	addServeRecordFlags(cmd, &rf)
	return cmd
}

// parseServeWindow is parseServe with the --window flag.
func parseServeWindow(cc config.Cluster, window time.Duration) (serveOptions, error) {
	o, err := parseServe(cc)
	if err != nil {
		return o, err
	}
	switch {
	case window < 0:
		return o, usageErrorf("invalid --window %s: it must be above zero (or left out for the groups screen's history)", window)
	case window > 0 && window < o.interval:
		return o, usageErrorf("--window %s is shorter than --refresh %s: the window must hold at least two polls", window, o.interval)
	}
	o.window = window
	return o, nil
}

// serveSettingsHelp lists the serve and groups sections' settings from
// config.Settings, as flag help would.
func serveSettingsHelp() string { return sectionsHelp("serve", "groups") }

// sectionsHelp lists the settings of the sections named from
// config.Settings, as flag help would, older names left out.
func sectionsHelp(sections ...string) string {
	var b strings.Builder
	for i := range config.Settings {
		s := &config.Settings[i]
		if !slices.Contains(sections, s.Section()) || s.AliasOf != "" || s.Flag == "" {
			continue
		}
		fmt.Fprintf(&b, "  --%s  %s [$%s]\n", s.Flag, s.Help(), s.Env)
	}
	return b.String()
}

// parseServe reads the serve section of the effective context (which
// config already validated, so errors here are rare).
func parseServe(cc config.Cluster) (serveOptions, error) {
	o := serveOptions{listen: cc.Serve.Listen, interval: cc.Refresh, timeout: pollTimeout(cc.RequestTimeout)}
	if o.listen == "" {
		o.listen = config.DefaultServeListen
	}
	if o.interval <= 0 {
		o.interval = config.DefaultRefresh
	}
	g, err := metrics.ParseGranularity(orDefault(cc.Serve.Granularity, "group"))
	if err != nil {
		return o, usageErrorf("invalid granularity: %v", err)
	}
	o.granularity = g
	o.filter, err = kafka.CompileGroupFilter(cc.Groups.Allow, cc.Groups.Deny, cc.Groups.SkipEmpty)
	if err != nil {
		return o, usageErrorf("%v", err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(orDefault(cc.Serve.MaxSeries, config.DefaultServeMaxSeries)))
	if err != nil || n < 0 {
		return o, usageErrorf("invalid series cap %q: want a whole number, 0 for no cap", cc.Serve.MaxSeries)
	}
	o.maxSeries = n
	return o, nil
}

func orDefault(s, d string) string {
	if strings.TrimSpace(s) == "" {
		return d
	}
	return s
}

// runServe listens, then polls until ctx ends; it returns nil on a
// signal, once the server has shut down.
func runServe(ctx context.Context, a *app, o serveOptions, poll func(context.Context) (*kafka.Snapshot, error), read func(context.Context, []kafka.PartitionOffsets) (map[kafka.CommitKey]kafka.RecordTime, error)) error {
	ln, err := net.Listen("tcp", o.listen)
	if err != nil {
		return fmt.Errorf("serve: cannot listen on %s: %w", o.listen, err)
	}
	e := newExporter(o, poll, read, buildVersion())
	e.note = func(msg string) { a.notef("kgroups serve: %s", msg) }
	if o.record.dir != "" {
		e.startRecording()
		a.notef("kgroups serve: recording every poll in %s (a file an hour; kept %s, at most %s)", o.record.dir, format.Span(o.record.keep), render.Size(o.record.maxBytes))
	}
	// SIGHUP reads the configuration file again for the group filters,
	// the granularity and the cap; flags and variables still win.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	e.hup = hup
	e.reload = func() (serveOptions, error) {
		cc, err := a.reloadCluster(ctx, reloadTimeout)
		if err != nil {
			return serveOptions{}, err
		}
		return parseServe(cc)
	}
	// Like the UI, the exporter keeps one poll, the history and the
	// page, and makes a poll's worth of garbage each refresh: hold the
	// heap near what it keeps (GOMEMLIMIT still wins).
	mctx, stop := context.WithCancel(ctx)
	defer stop()
	keepMemoryNearLive(mctx, a.getenv, o.interval)
	e.gc = runtime.GC
	a.notef("kgroups serve: listening on http://%s/metrics", ln.Addr())
	return e.run(ctx, limitListener(ln, maxConnections))
}

// reloadTimeout bounds reading the configuration again on SIGHUP, so
// that a file that never answers (a FIFO put in its place, a hung network
// file system) delays the polls by this much at most.
const reloadTimeout = 2 * time.Second

// reloadCluster resolves the context again with the file read anew,
// within timeout; on any error the configuration in force stays. A path
// that is not a regular file is refused before it is opened.
func (a *app) reloadCluster(ctx context.Context, timeout time.Duration) (config.Cluster, error) {
	old, oldCtx := a.cfg, a.ctx
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	a.cfg, a.ctx = nil, rctx
	defer func() { a.ctx = oldCtx }()
	path, explicit := a.globals.ConfigPath()
	if !explicit {
		p, err := config.DefaultPath()
		if err != nil {
			a.cfg = old
			return config.Cluster{}, err
		}
		path = p
	}
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		a.cfg = old
		return config.Cluster{}, fmt.Errorf("config %s is %s, not a regular file: kgroups reads only a regular file again", path, modeName(st.Mode()))
	}
	cc, err := a.cluster()
	if err != nil {
		a.cfg = old
		if rctx.Err() != nil && ctx.Err() == nil {
			return config.Cluster{}, fmt.Errorf("config %s: not read within %s", path, timeout)
		}
		return config.Cluster{}, err
	}
	return cc, nil
}

// modeName names what a file that is not a regular file is.
func modeName(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a folder"
	}
	return "not a plain file"
}

// buildVersion is the version kgroups_build_info carries.
func buildVersion() [2]string {
	bi, _ := debug.ReadBuildInfo()
	info := resolveBuildInfo(version, commit, date, bi)
	return [2]string{info.Version, info.GoVersion}
}

// pollErrorKind is the kind of kgroups_poll_errors_total a failed poll
// counts as.
func pollErrorKind(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "timeout"
	}
	return "poll"
}
