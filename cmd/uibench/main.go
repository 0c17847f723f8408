// Command uibench measures kgroups' live UI against an in-process cluster
// (or, with -cluster, a real Kafka cluster it seeds the same way):
// how soon the groups screen is drawn after the first poll's result, how
// many bytes an unchanged refresh writes to the terminal, the idle CPU, and
// the peak RSS and live heap after a run of polls. It is a measuring tool
// kept with the code, not part of the kgroups binary.
//
//	go run ./cmd/uibench [-groups 2000] [-refresh 2s] [-duration 60s] [-size 120x40] [-cluster BROKERS]
//
// The cluster is three kfake brokers in this process; the UI is measured
// twice: in this process (tui.Run on a pty, for the first frame, timed from
// the poller's return) and as the kgroups binary on a pty, measured from
// outside (/proc and GODEBUG=gctrace=1), which is what a user runs. Linux
// only: it reads /proc and opens /dev/ptmx.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kgroups/kgroups/cmd/benchseed"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "uibench:", err)
		os.Exit(1)
	}
}

type options struct {
	benchseed.Layout
	scale      bool // -scale: benchseed.ScaleGroups groups
	cols, rows int
	refresh    time.Duration
	duration   time.Duration
	curve      time.Duration
	env        []string // extra environment for the binary (-env)
	frames     int
	bin        string
	skipFrame  bool
	skipBinary bool
	heapPolls  int
	heapFile   string
	ttyLog     string
	cpuFile    string
	brokers    []string // -cluster: a real cluster's brokers
}

func parseFlags() (options, error) {
	var o options
	var size string
	flag.IntVar(&o.Groups, "groups", 2000, "Empty groups in the cluster")
	flag.IntVar(&o.Topics, "topics", 20, "topics; group i commits every partition of topic i mod topics")
	flag.IntVar(&o.Partitions, "partitions", 12, "partitions a topic")
	flag.IntVar(&o.LagEvery, "lag-every", 0, "every nth group lags 3 records a partition (0: none lags)")
	flag.BoolVar(&o.scale, "scale", false, "scale mode: 50,000 groups, 600,000 committed partitions (-groups 50000)")
	flag.StringVar(&size, "size", "120x40", "terminal size, COLSxROWS")
	flag.DurationVar(&o.refresh, "refresh", 2*time.Second, "the binary's --refresh")
	flag.DurationVar(&o.duration, "duration", 90*time.Second, "how long the binary runs after its first frame (refreshes are counted from 60s on)")
	flag.DurationVar(&o.curve, "curve", 0, "print the binary's RSS, peak RSS and CPU this often over the run (0: not)")
	flag.IntVar(&o.frames, "frames", 3, "in-process first-frame runs (the median is reported)")
	flag.StringVar(&o.bin, "kgroups", "", "kgroups binary to measure (default: go build ./cmd/kgroups)")
	flag.BoolVar(&o.skipFrame, "skip-frame", false, "skip the in-process first-frame runs")
	flag.BoolVar(&o.skipBinary, "skip-binary", false, "skip the run of the binary")
	flag.IntVar(&o.heapPolls, "heap-polls", 12, "polls of the in-process UI before its retained heap is measured (0: skip)")
	flag.StringVar(&o.heapFile, "heapprofile", "", "write the in-process UI's heap profile here after -heap-polls polls")
	flag.StringVar(&o.cpuFile, "cpuprofile", "", "write a CPU profile of the in-process runs (first frames and -heap-polls polls) here")
	flag.StringVar(&o.ttyLog, "ttylog", "", "copy everything the binary writes to its terminal to this file")
	var env, brokers string
	flag.StringVar(&brokers, "cluster", "", "seed and measure this real Kafka cluster (brokers, comma-separated; .ci/kafka up --nodes 3 starts one) instead of an in-process kfake cluster; topics that exist are kept, so a second run measures the same groups; polls are not counted there, so the bytes per refresh are not measured")
	flag.StringVar(&env, "env", "", "extra environment for the binary, comma-separated NAME=VALUE pairs (GOMEMLIMIT=1GiB, for example)")
	flag.Parse()
	if o.scale {
		o.Groups = benchseed.ScaleGroups
	}
	if brokers != "" {
		o.brokers = strings.Split(brokers, ",")
	}
	var err error
	if o.env, err = parseEnv(env); err != nil {
		return o, err
	}
	if flag.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q: every setting is a flag (-h lists them)", flag.Args())
	}
	c, r, ok := strings.Cut(size, "x")
	var err1, err2 error
	o.cols, err1 = strconv.Atoi(c)
	o.rows, err2 = strconv.Atoi(r)
	if !ok || err1 != nil || err2 != nil || o.cols < 20 || o.rows < 10 || o.cols > 1000 || o.rows > 1000 {
		return o, fmt.Errorf("-size %q: want COLSxROWS, e.g. 120x40 (20x10 to 1000x1000)", size)
	}
	switch {
	case o.Layout.Check() != nil:
		// Every group's name must start with groupMark.
		return o, o.Layout.Check()
	case o.refresh <= 0 || o.duration <= 0:
		return o, fmt.Errorf("-refresh and -duration must be positive (got %s, %s)", o.refresh, o.duration)
	case o.frames < 1 && !o.skipFrame:
		return o, fmt.Errorf("-frames must be at least 1 (got %d)", o.frames)
	}
	return o, nil
}

func run() error {
	o, err := parseFlags()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	// The in-process UI picks its colours from the environment, as the
	// binary does from the one it is given.
	if err := os.Setenv("TERM", "xterm-256color"); err != nil {
		return err
	}
	if err := os.Unsetenv("NO_COLOR"); err != nil {
		return err
	}

	dir, err := os.MkdirTemp("", "uibench-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(dir) }()

	bin := o.bin
	if bin == "" && !o.skipBinary {
		bin = filepath.Join(dir, "kgroups")
		fmt.Fprintln(os.Stderr, "building ./cmd/kgroups")
		build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/kgroups")
		// As released (.goreleaser.yaml): static, no C library mapped.
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			return fmt.Errorf("go build ./cmd/kgroups (run uibench from the repository's root): %w\n%s", err, out)
		}
	}

	t0 := time.Now()
	c, err := startCluster(ctx, o.Layout, o.brokers)
	if err != nil {
		return err
	}
	defer c.close()
	brokersName := "3 kfake brokers"
	if c.real() {
		brokersName = fmt.Sprintf("real Kafka, %d brokers (%s)", len(c.addrs), strings.Join(c.addrs, ","))
	}
	fmt.Printf("cluster: %s, %s (filled in %s)\n", brokersName, o.Layout.Describe(), time.Since(t0).Round(time.Millisecond))
	fmt.Printf("terminal: %dx%d, xterm-256color, UTF-8\n", o.cols, o.rows)

	if o.cpuFile != "" && (!o.skipFrame || o.heapPolls > 0) {
		f, err := os.Create(o.cpuFile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer func() { _ = f.Close() }()
	}
	if !o.skipFrame {
		var runs []time.Duration
		for range o.frames {
			d, err := firstFrame(ctx, c, o.cols, o.rows)
			if err != nil {
				return fmt.Errorf("first frame: %w", err)
			}
			runs = append(runs, d)
		}
		fmt.Printf("first frame after the first poll result (in process, median of %d): %s  runs %s  target <= 150ms\n",
			len(runs), medianDuration(runs).Round(100*time.Microsecond), durations(runs))
	}
	if o.heapPolls > 0 {
		const every = time.Second
		b, snaps, err := retainedHeap(ctx, c, o.cols, o.rows, o.heapPolls, every, o.heapFile)
		if err != nil {
			return fmt.Errorf("retained heap: %w", err)
		}
		fmt.Printf("live heap the UI keeps after %d polls (in process, every %s; the cluster's excluded): %.1f MiB = %d bytes a committed partition; %d of the polls' snapshots alive\n",
			o.heapPolls, every, mib(int64(b)), int64(b)/int64(o.Groups*o.Partitions), snaps)
	}
	pprof.StopCPUProfile()
	if o.skipBinary {
		return nil
	}

	fmt.Fprintf(os.Stderr, "running kgroups --refresh %s for %s\n", o.refresh, o.duration)
	var log io.Writer
	if o.ttyLog != "" {
		f, err := os.Create(o.ttyLog)
		if err != nil {
			return err
		}
		defer func() { _ = f.Close() }()
		log = f
	}
	r, err := runProcess(ctx, c, bin, o.cols, o.rows, o.refresh, o.duration, o.curve, dir, log, o.env)
	if err != nil {
		return err
	}
	polls := fmt.Sprintf("%d polls", len(r.polls))
	if c.real() {
		polls = "polls not counted on a real cluster"
	}
	fmt.Printf("binary: kgroups --refresh %s, %s after the first frame, %s\n", o.refresh, o.duration, polls)
	fmt.Printf("  groups drawn after start: %s (start-up, connection and first poll included)\n", r.drawn.Round(time.Millisecond))
	switch {
	case len(r.refreshes) > 0:
		fmt.Printf("  bytes written per unchanged refresh (poll to poll, from %s after the first poll): median %d, max %d over %d refreshes  target <= 1024\n",
			settle, median(r.refreshes), slices.Max(r.refreshes), len(r.refreshes))
		fmt.Printf("    each: %v\n", r.refreshes)
	case c.real():
		fmt.Println("  bytes per unchanged refresh: not measured on a real cluster (the in-process brokers count the polls)")
	default:
		fmt.Printf("  bytes per unchanged refresh: not measured (the verdicts settle %s after the first poll: raise -duration)\n", settle)
	}
	fmt.Printf("  bytes written in all: %d\n", r.totalBytes)
	fmt.Printf("  CPU after the first frame: %s in %s = %.2f%% of one core\n",
		r.cpu, r.cpuWall.Round(time.Millisecond), 100*r.cpu.Seconds()/r.cpuWall.Seconds())
	if r.settledWall > 0 {
		fmt.Printf("  CPU once the verdicts settled (from %s after the first frame): %s in %s = %.2f%% of one core  target <= 2%% at --refresh 5s\n",
			settle, r.settledCPU, r.settledWall.Round(time.Millisecond), 100*r.settledCPU.Seconds()/r.settledWall.Seconds())
	}
	fmt.Printf("  peak RSS (VmHWM): %.1f MiB  final RSS: %.1f MiB (anonymous %.1f, the binary's pages %.1f)  target <= 64 MiB\n",
		mib(r.peakRSS), mib(r.finalRSS), mib(r.anonRSS), mib(r.fileRSS))
	if len(r.curve) > 0 {
		fmt.Println("  over the run (since the first frame): RSS, peak RSS, CPU in the last interval")
		var prev curvePoint
		for _, p := range r.curve {
			fmt.Printf("    %8s  RSS %6.1f MiB  peak %6.1f MiB  CPU %5.2f%% of a core\n",
				p.at, mib(p.rss), mib(p.hwm), 100*(p.cpu-prev.cpu).Seconds()/(p.at-prev.at).Seconds())
			prev = p
		}
	}
	if len(r.liveHeap) > 0 {
		fmt.Printf("  live heap after GC: last %.0f MiB, max %.0f MiB (%d collections)\n",
			mib(r.liveHeap[len(r.liveHeap)-1]), mib(slices.Max(r.liveHeap)), len(r.liveHeap))
	}
	return nil
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

func medianDuration(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func durations(ds []time.Duration) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.Round(100 * time.Microsecond).String()
	}
	return strings.Join(parts, " ")
}

// parseEnv splits -env's comma-separated NAME=VALUE pairs.
func parseEnv(env string) ([]string, error) {
	if env == "" {
		return nil, nil
	}
	var out []string
	for _, kv := range strings.Split(env, ",") {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return nil, fmt.Errorf("-env %q: want NAME=VALUE pairs separated by commas", kv)
		}
		out = append(out, kv)
	}
	return out, nil
}
