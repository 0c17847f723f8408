package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
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

// processRun is what one run of the kgroups binary in a pty showed.
type processRun struct {
	started   time.Time
	drawn     time.Duration // from exec to the first frame listing groups
	polls     []time.Time   // starts of the polls the binary sent
	refreshes []int64       // bytes written between consecutive polls, after the window filled
	cpu       time.Duration // CPU time from the first frame to the end
	cpuWall   time.Duration
	// settledCPU is the CPU time from settle after the first frame to the
	// end (settledWall of it): the idle UI once the verdicts stopped
	// changing; 0 when the run is shorter than settle.
	settledCPU  time.Duration
	settledWall time.Duration
	peakRSS     int64 // VmHWM, bytes
	finalRSS    int64 // VmRSS at the end, bytes
	anonRSS     int64 // RssAnon at the end: heap, stacks, runtime
	fileRSS     int64 // RssFile at the end: the binary's pages
	liveHeap    []int64
	totalBytes  int64
	// curve is RSS and CPU sampled every curveEvery after the first
	// frame (empty when it is 0).
	curve []curvePoint
}

// curvePoint is one sample of the binary's memory and CPU over a run.
type curvePoint struct {
	at       time.Duration // since the first frame
	rss, hwm int64
	cpu      time.Duration // since the first frame
}

// clockTicks is the kernel's USER_HZ, the unit of /proc/PID/stat times.
const clockTicks = 100

// runProcess runs the kgroups binary bin on a pty against the cluster for
// d with the given refresh, and measures it from outside: bytes written to
// the terminal, CPU time and RSS from /proc, and the live heap after each
// collection from GODEBUG=gctrace=1.
func runProcess(ctx context.Context, c *cluster, bin string, cols, rows int, refresh, d, curveEvery time.Duration, dir string, log io.Writer, extraEnv []string) (*processRun, error) {
	master, slave, err := openPTY(cols, rows)
	if err != nil {
		return nil, err
	}
	defer func() { _ = master.Close() }()
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, err
	}
	gcLog, err := os.Create(filepath.Join(dir, "gctrace.log"))
	if err != nil {
		return nil, err
	}
	defer func() { _ = gcLog.Close() }()
	cmd := exec.CommandContext(ctx, bin, "-b", strings.Join(c.addrs, ","), "--refresh", refresh.String())
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, "config"),
		"XDG_STATE_HOME=" + filepath.Join(home, "state"), "TERM=xterm-256color", "LANG=C.UTF-8",
		"GODEBUG=gctrace=1",
	}
	cmd.Env = append(cmd.Env, extraEnv...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, gcLog
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	term := watch(master, log, groupMark)
	r := &processRun{started: time.Now()}
	if err := cmd.Start(); err != nil {
		_ = slave.Close()
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	_ = slave.Close() // the child holds it
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	pid := cmd.Process.Pid

	var drawnAt time.Time
	for drawnAt.IsZero() {
		select {
		case err := <-exited:
			return nil, fmt.Errorf("kgroups ended before it drew the groups: %w (see %s)", err, gcLog.Name())
		case <-time.After(5 * time.Millisecond):
		}
		if at, ok := term.mark(groupMark); ok {
			drawnAt = at
		} else if time.Since(r.started) > 2*time.Minute {
			_ = cmd.Process.Kill()
			return nil, errors.New("kgroups did not draw the groups within 2m")
		}
	}
	r.drawn = drawnAt.Sub(r.started)
	cpu0, err := cpuTime(pid)
	if err != nil {
		return nil, err
	}

	end := drawnAt.Add(d)
	var settledAt time.Time
	var cpuSettled time.Duration
	nextCurve := drawnAt.Add(curveEvery)
	for time.Now().Before(end) {
		select {
		case err := <-exited:
			return nil, fmt.Errorf("kgroups ended early: %w", err)
		case <-time.After(min(time.Second, time.Until(end))):
		}
		if curveEvery > 0 && !time.Now().Before(nextCurve) {
			p := curvePoint{at: time.Since(drawnAt).Round(time.Second)}
			var err1, err2, err3 error
			p.rss, err1 = statusBytes(pid, "VmRSS")
			p.hwm, err2 = statusBytes(pid, "VmHWM")
			p.cpu, err3 = cpuTime(pid)
			if err := errors.Join(err1, err2, err3); err != nil {
				return nil, err
			}
			p.cpu -= cpu0
			r.curve = append(r.curve, p)
			nextCurve = nextCurve.Add(curveEvery)
		}
		if settledAt.IsZero() && time.Since(drawnAt) >= settle && time.Until(end) > 0 {
			if cpuSettled, err = cpuTime(pid); err != nil {
				return nil, err
			}
			settledAt = time.Now()
		}
	}
	cpu1, err := cpuTime(pid)
	if err != nil {
		return nil, err
	}
	r.cpu, r.cpuWall = cpu1-cpu0, time.Since(drawnAt)
	if !settledAt.IsZero() {
		r.settledCPU, r.settledWall = cpu1-cpuSettled, time.Since(settledAt)
	}
	if r.peakRSS, err = statusBytes(pid, "VmHWM"); err != nil {
		return nil, err
	}
	if r.finalRSS, err = statusBytes(pid, "VmRSS"); err != nil {
		return nil, err
	}
	if r.anonRSS, err = statusBytes(pid, "RssAnon"); err != nil {
		return nil, err
	}
	if r.fileRSS, err = statusBytes(pid, "RssFile"); err != nil {
		return nil, err
	}
	stopAt := time.Now()

	// q quits from the groups screen.
	if _, err := master.WriteString("q"); err != nil {
		return nil, fmt.Errorf("send q: %w", err)
	}
	select {
	case err := <-exited:
		if err != nil {
			return nil, fmt.Errorf("kgroups exited with %w", err)
		}
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		return nil, errors.New("kgroups did not quit on q within 30s")
	}

	r.polls = c.polls.since(r.started)
	r.refreshes = refreshBytes(term, r.polls, stopAt)
	r.totalBytes = term.between(r.started, stopAt)
	if r.liveHeap, err = liveHeaps(gcLog.Name()); err != nil {
		return nil, err
	}
	return r, nil
}

// settle is how long verdicts take to stop changing on an unchanged
// cluster: a group shows JUDGING n/10 until its window holds 10 commit
// observations, and a commit that does not move counts once every 5s
// (lag.DefaultConfig's Window and MinDistance), so every row changes about
// every 5s for the first 50s. Refreshes are counted from settle after the
// first poll.
const settle = 60 * time.Second

// refreshBytes counts the bytes written from each poll's start to the
// next one's, once the verdicts have settled: the cost of a refresh that
// brings nothing new, age line and clock included.
func refreshBytes(term *terminal, polls []time.Time, end time.Time) []int64 {
	var out []int64
	for i := 0; i+1 < len(polls) && polls[i+1].Before(end); i++ {
		if polls[i].Sub(polls[0]) >= settle {
			out = append(out, term.between(polls[i], polls[i+1]))
		}
	}
	return out
}

// cpuTime is the process's user and system time from /proc/PID/stat.
func cpuTime(pid int) (time.Duration, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name may hold spaces: fields count from its ')'.
	i := strings.LastIndexByte(string(raw), ')')
	if i < 0 {
		return 0, errors.New("cannot parse /proc stat")
	}
	f := strings.Fields(string(raw[i+1:]))
	// After ')': state is field 3 of stat, utime 14, stime 15.
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

// gcLine matches gctrace's heap sizes: before, after, and live (marked) MB.
var gcLine = regexp.MustCompile(`(\d+)->(\d+)->(\d+) MB`)

// liveHeaps is the live heap after each collection, in bytes.
func liveHeaps(path string) ([]int64, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []int64
	for line := range strings.Lines(string(raw)) {
		if !strings.HasPrefix(line, "gc ") {
			continue
		}
		if m := gcLine.FindStringSubmatch(line); m != nil {
			mb, _ := strconv.ParseInt(m[3], 10, 64)
			out = append(out, mb<<20)
		}
	}
	return out, nil
}

func median(xs []int64) int64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
