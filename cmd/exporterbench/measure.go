package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// result is what one measured run of an exporter showed.
type result struct {
	ready   time.Duration // from start to the first scrape with every group
	scrapes []scrape      // once ready, every interval
	cpu     time.Duration // CPU time (user + system) over the measured window
	wall    time.Duration
	peakRSS int64 // VmHWM over the whole run, bytes
	rss     []int64
	// families is the series of each metric in the last scrape.
	families map[string]int
}

// scrape is one scrape of the metrics URL.
type scrape struct {
	took        time.Duration // request sent to the last byte read
	bytes       int64         // the body, decompressed
	series      int           // sample lines
	groupSeries int           // of them, series of the group metric
	status      int
	body        []byte
}

// measure runs the exporter, waits until it is ready (a scrape holds a
// series of the group metric for every group), then scrapes it every
// interval for duration and reads its CPU time and RSS from /proc.
func measure(ctx context.Context, o options, argv, env []string) (*result, error) {
	dir, err := os.MkdirTemp("", "exporterbench-")
	if err != nil {
		return nil, err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	logPath := o.logFile
	if logPath == "" {
		logPath = filepath.Join(dir, "exporter.log")
	}
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer func() { _ = logf.Close() }()

	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}, env...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", argv[0], err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// How the exporter ends once measured is not measured: an interrupt,
	// then a kill after 10 s.
	defer func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case err := <-exited:
			_ = err
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			err := <-exited
			_ = err
		}
	}()
	pid := cmd.Process.Pid
	failed := func(err error) error {
		if o.logFile == "" {
			_ = logf.Sync()
			if tail := lastLines(logPath, 10); tail != "" {
				err = fmt.Errorf("%w\nthe exporter's last output:\n%s", err, tail)
			}
		}
		return err
	}

	client := &http.Client{Timeout: 2 * time.Minute}
	r := &result{}
	var last scrape
	for {
		select {
		case err := <-exited:
			exited <- err
			return nil, failed(fmt.Errorf("the exporter ended before it was ready: %w", exitErr(err)))
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
		s, err := get(ctx, client, o.url, o.groupMetric)
		if err == nil && s.status == http.StatusOK && s.groupSeries >= o.readySeries {
			break
		}
		if err == nil {
			last = s
		}
		if time.Since(start) > o.readyTimeout {
			if err == nil {
				err = fmt.Errorf("the last scrape answered %d with %d series of the group metric, want %d", last.status, last.groupSeries, o.readySeries)
			}
			return nil, failed(fmt.Errorf("not ready within %s: %w", o.readyTimeout, err))
		}
	}
	r.ready = time.Since(start)

	cpu0, err := cpuTime(pid)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	next := t0
	for time.Since(t0) < o.duration {
		select {
		case err := <-exited:
			exited <- err
			return nil, failed(fmt.Errorf("the exporter ended while it was measured: %w", exitErr(err)))
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Until(next)):
		}
		s, err := get(ctx, client, o.url, o.groupMetric)
		if err != nil {
			return nil, failed(fmt.Errorf("scrape %d: %w", len(r.scrapes)+1, err))
		}
		r.families = families(s.body)
		s.body = nil
		r.scrapes = append(r.scrapes, s)
		rss, err := statusBytes(pid, "VmRSS")
		if err != nil {
			return nil, err
		}
		r.rss = append(r.rss, rss)
		next = next.Add(o.interval)
	}
	cpu1, err := cpuTime(pid)
	if err != nil {
		return nil, err
	}
	r.cpu, r.wall = cpu1-cpu0, time.Since(t0)
	if r.peakRSS, err = statusBytes(pid, "VmHWM"); err != nil {
		return nil, err
	}
	return r, nil
}

// exitErr is the error of an exporter that ended, err from its Wait.
func exitErr(err error) error {
	if err == nil {
		return errors.New("it exited with status 0")
	}
	return err
}

// get scrapes url once, as Prometheus does (text format, gzip), and
// counts the samples.
func get(ctx context.Context, client *http.Client, url string, groupMetric *regexp.Regexp) (scrape, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return scrape{}, err
	}
	req.Header.Set("Accept", "text/plain;version=0.0.4;q=0.9,*/*;q=0.1")
	t := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return scrape{}, err
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	s := scrape{took: time.Since(t), bytes: int64(len(body)), status: resp.StatusCode, body: body}
	if err != nil {
		return s, err
	}
	s.series, s.groupSeries = countSeries(body, groupMetric)
	return s, nil
}

// countSeries counts the sample lines of a text exposition, and those of
// the metrics whose name matches groupMetric.
func countSeries(body []byte, groupMetric *regexp.Regexp) (series, group int) {
	for name := range sampleNames(body) {
		series++
		if groupMetric.Match(name) {
			group++
		}
	}
	return series, group
}

// families counts the sample lines of each metric name.
func families(body []byte) map[string]int {
	n := make(map[string]int)
	for name := range sampleNames(body) {
		n[string(name)]++
	}
	return n
}

// sampleNames yields the metric name of every sample line.
func sampleNames(body []byte) func(yield func([]byte) bool) {
	return func(yield func([]byte) bool) {
		for line := range bytes.Lines(body) {
			line = bytes.TrimSpace(line)
			if len(line) == 0 || line[0] == '#' {
				continue
			}
			name := line
			if i := bytes.IndexAny(line, "{ "); i >= 0 {
				name = line[:i]
			}
			if !yield(name) {
				return
			}
		}
	}
}

func (r *result) print(o options) {
	fmt.Printf("exporter: %s\n", strings.Join(o.exporter, " "))
	fmt.Printf("  ready (a %s series for every group) after %s\n", o.metricName, r.ready.Round(time.Millisecond))
	took := make([]time.Duration, len(r.scrapes))
	for i, s := range r.scrapes {
		took[i] = s.took
	}
	slices.Sort(took)
	last := r.scrapes[len(r.scrapes)-1]
	fmt.Printf("  %d scrapes every %s over %s: time median %s, p99 %s, max %s\n",
		len(r.scrapes), o.interval, r.wall.Round(time.Second), percentile(took, 50), percentile(took, 99), took[len(took)-1].Round(100*time.Microsecond))
	fmt.Printf("  series a scrape: %d (%d of the group metric), %d bytes\n", last.series, last.groupSeries, last.bytes)
	names := make([]string, 0, len(r.families))
	for name := range r.families {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int {
		if d := r.families[b] - r.families[a]; d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	for i, name := range names {
		if i == 12 {
			fmt.Printf("    ... and %d metrics more\n", len(names)-i)
			break
		}
		fmt.Printf("    %7d %s\n", r.families[name], name)
	}
	fmt.Printf("  CPU: %s in %s = %.2f s a minute = %.2f%% of one core\n",
		r.cpu, r.wall.Round(time.Second), r.cpu.Seconds()/r.wall.Minutes(), 100*r.cpu.Seconds()/r.wall.Seconds())
	fmt.Printf("  RSS: peak (VmHWM) %.1f MiB; after each scrape min %.1f, max %.1f, last %.1f MiB\n",
		mib(r.peakRSS), mib(slices.Min(r.rss)), mib(slices.Max(r.rss)), mib(r.rss[len(r.rss)-1]))
}

// percentile is the p-th percentile of sorted ds, nearest rank.
func percentile(ds []time.Duration, p int) time.Duration {
	i := (p*len(ds) + 99) / 100
	return ds[max(0, min(len(ds), i)-1)].Round(100 * time.Microsecond)
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

// clockTicks is the kernel's USER_HZ, the unit of /proc/PID/stat times.
const clockTicks = 100

// cpuTime is the process's user and system time from /proc/PID/stat.
func cpuTime(pid int) (time.Duration, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name may hold spaces: fields count from its ')'.
	i := bytes.LastIndexByte(raw, ')')
	if i < 0 {
		return 0, errors.New("cannot parse /proc stat")
	}
	f := strings.Fields(string(raw[i+1:]))
	if len(f) < 13 {
		return 0, errors.New("short /proc stat")
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return time.Duration(ut+st) * time.Second / clockTicks, nil
}

// statusBytes reads a kB field of /proc/PID/status.
func statusBytes(pid int, field string) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer func() { _ = f.Close() }()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), field+":")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		return kb << 10, err
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", field, pid)
}

// lastLines is the last n lines of the file at path.
func lastLines(path string, n int) string {
	raw, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(raw), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
