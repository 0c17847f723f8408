package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// command is one measured command line.
type command struct {
	name string
	args []string // after the program
	// floor runs the harness itself in -floor mode instead of kgroups.
	floor bool
	// bin is the kgroups binary to run.
	bin string
	// wallRatio and rssRatio are the targets against the floor (0: none);
	// wallMax is an absolute target (0: none).
	wallRatio, rssRatio float64
	wallMax             time.Duration
}

// sample is one run's cost.
type sample struct {
	wall time.Duration
	// cpu is user and system time: less disturbed than wall time by
	// other work on the machine.
	cpu time.Duration
	rss int64 // peak resident set, KiB
}

func compare(ctx context.Context, s shape, runs int, bin, baseline, extraEnv string) error {
	if err := s.check(runs); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "floorbench-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	if bin == "" {
		bin = filepath.Join(dir, "kgroups")
		fmt.Fprintln(os.Stderr, "building kgroups ...")
		build := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/kgroups/kgroups/cmd/kgroups")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("go build: %w", err)
		}
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}

	// The cluster runs in a process of its own: a child's peak RSS on
	// Linux starts at its parent's, so the parent that starts the measured
	// processes must stay small.
	srv, addrs, err := startServer(ctx, self, s, bin)
	if err != nil {
		return err
	}
	defer srv.stop()
	env, err := kgroupsEnv(dir, addrs)
	if err != nil {
		return err
	}
	if extraEnv != "" {
		env = append(env, strings.Split(extraEnv, ",")...)
	}
	brokers := strings.Join(addrs, ",")

	cmds := []command{{name: "floor (bare kadm reads)", floor: true}}
	cmds = append(cmds, kgroupsCommands("kgroups", bin)...)
	if baseline != "" {
		// The same commands from another build, measured in the same
		// rounds: a before-and-after with the same load on both.
		cmds = append(cmds, kgroupsCommands("baseline", baseline)...)
	}
	samples := make([][]sample, len(cmds))
	// One unmeasured round warms the page cache and the brokers; then
	// the commands take turns, so that load from elsewhere falls on all.
	for round := range runs + 1 {
		for i, cm := range cmds {
			var cmd *exec.Cmd
			if cm.floor {
				cmd = exec.CommandContext(ctx, self, "-floor", "-brokers", brokers)
			} else {
				cmd = exec.CommandContext(ctx, cm.bin, cm.args...)
				cmd.Env = env
			}
			sm, err := measure(cmd)
			if err != nil {
				return fmt.Errorf("%s: %w", cm.name, err)
			}
			if round > 0 {
				samples[i] = append(samples[i], sm)
			}
		}
	}

	floor := median(samples[0])
	fmt.Printf("\n%d groups, %d topics × %d partitions (%d committed partitions), median of %d runs; targets are on wall time and peak RSS\n\n", s.groups, s.topics, s.partitions, s.committedPartitions(), runs)
	fmt.Printf("%-38s %8s %8s %9s %6s %6s %6s  %-21s %s\n", "COMMAND", "WALL", "CPU", "PEAK-RSS", "WALL×", "CPU×", "RSS×", "TARGET", "MET")
	for i, cm := range cmds {
		m := median(samples[i])
		wr := float64(m.wall) / float64(floor.wall)
		rr := float64(m.rss) / float64(floor.rss)
		cr := float64(m.cpu) / float64(floor.cpu)
		target, met := "", "-"
		switch {
		case cm.wallMax > 0:
			target = fmt.Sprintf("wall ≤ %s", cm.wallMax)
			met = yes(m.wall <= cm.wallMax)
		case cm.rssRatio > 0:
			target = fmt.Sprintf("wall ≤ %.1f×, RSS ≤ %.1f×", cm.wallRatio, cm.rssRatio)
			met = yes(wr <= cm.wallRatio && rr <= cm.rssRatio)
		case cm.wallRatio > 0:
			target = fmt.Sprintf("wall ≤ %.1f×", cm.wallRatio)
			met = yes(wr <= cm.wallRatio)
		}
		fmt.Printf("%-38s %6.1fms %6.1fms %6.1fMiB %5.2f× %5.2f× %5.2f×  %-21s %s\n", cm.name, ms(m.wall), ms(m.cpu), float64(m.rss)/1024, wr, cr, rr, target, met)
	}
	return nil
}

// kgroupsCommands are the measured commands of the kgroups binary bin,
// named with prefix, and their targets.
func kgroupsCommands(prefix, bin string) []command {
	return []command{
		{name: prefix + " describe --all-groups -o json", bin: bin, args: []string{"describe", "--all-groups", "-o", "json"}, wallRatio: 1.3, rssRatio: 1.5},
		{name: prefix + " describe --all-groups", bin: bin, args: []string{"describe", "--all-groups"}, wallRatio: 1.3},
		{name: prefix + " list", bin: bin, args: []string{"list"}, wallRatio: 1.2},
		{name: prefix + " version", bin: bin, args: []string{"version"}, wallMax: 20 * time.Millisecond},
	}
}

func yes(ok bool) string {
	if ok {
		return "yes"
	}
	return "no"
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// measure runs cmd with its output discarded and returns its wall time and
// peak resident set.
func measure(cmd *exec.Cmd) (sample, error) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return sample{}, err
	}
	defer func() { _ = null.Close() }()
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = null, &stderr
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return sample{}, fmt.Errorf("%w: %s", err, stderr.String())
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return sample{}, fmt.Errorf("no resource usage on this system")
	}
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return sample{wall: wall, cpu: cpu, rss: ru.Maxrss}, nil
}

// median is the median wall time, CPU time and peak RSS, each on its own.
func median(ss []sample) sample {
	walls := make([]time.Duration, len(ss))
	cpus := make([]time.Duration, len(ss))
	rss := make([]int64, len(ss))
	for i, s := range ss {
		walls[i], cpus[i], rss[i] = s.wall, s.cpu, s.rss
	}
	slices.Sort(walls)
	slices.Sort(cpus)
	slices.Sort(rss)
	return sample{wall: walls[len(walls)/2], cpu: cpus[len(cpus)/2], rss: rss[len(rss)/2]}
}

// kgroupsEnv is the environment kgroups runs in: a private home, a
// configuration file with one context on the cluster and no secrets, a
// UTF-8 locale.
func kgroupsEnv(dir string, addrs []string) ([]string, error) {
	cfg := filepath.Join(dir, "config.yaml")
	text := "current-context: floorbench\ncontexts:\n  - name: floorbench\n    brokers: [" + strings.Join(addrs, ", ") + "]\n"
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		return nil, err
	}
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + dir,
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "config"),
		"XDG_STATE_HOME=" + filepath.Join(dir, "state"),
		"KGROUPS_CONFIG=" + cfg,
		"LANG=C.UTF-8",
	}, nil
}

// countDocument counts the groups of a describe document and their
// partitions with a committed offset.
func countDocument(b []byte) (groups, committed int, err error) {
	var doc struct {
		Groups []struct {
			Partitions []struct {
				CommittedOffset *int64 `json:"committedOffset"`
			} `json:"partitions"`
		} `json:"groups"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return 0, 0, fmt.Errorf("kgroups' document: %w", err)
	}
	for _, g := range doc.Groups {
		for _, p := range g.Partitions {
			if p.CommittedOffset != nil {
				committed++
			}
		}
	}
	return len(doc.Groups), committed, nil
}

// server is the process that holds the cluster.
type server struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
}

// stop closes the server's standard input, which ends it, and waits.
func (s *server) stop() {
	_ = s.stdin.Close()
	_ = s.cmd.Wait()
}

// startServer starts `floorbench -serve`, which seeds the cluster, checks
// that the floor and kgroups read all of it, prints what they read and then
// the brokers' addresses on a line of their own.
func startServer(ctx context.Context, self string, s shape, bin string) (*server, []string, error) {
	cmd := exec.CommandContext(ctx, self, "-serve", "-kgroups", bin,
		"-groups", fmt.Sprint(s.groups), "-topics", fmt.Sprint(s.topics),
		"-partitions", fmt.Sprint(s.partitions), "-records", fmt.Sprint(s.records), "-cluster", s.cluster)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	srv := &server{cmd: cmd, stdin: stdin}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		line := sc.Text()
		if addrs, ok := strings.CutPrefix(line, "brokers "); ok {
			return srv, strings.Split(addrs, ","), nil
		}
		fmt.Println(line)
	}
	srv.stop()
	return nil, nil, fmt.Errorf("the cluster process ended before it was ready")
}

// serve seeds the cluster, checks it, prints the brokers' addresses and
// keeps the cluster up until standard input closes.
func serve(ctx context.Context, s shape, bin string) error {
	c, err := seed(ctx, s)
	if err != nil {
		return err
	}
	defer c.close()
	if err := c.check(ctx, s, bin); err != nil {
		return err
	}
	fmt.Printf("brokers %s\n", strings.Join(c.addrs, ","))
	_, _ = io.Copy(io.Discard, os.Stdin)
	return nil
}

// check makes sure that the floor and kgroups each read every group and
// every committed partition.
func (c *seeded) check(ctx context.Context, s shape, bin string) error {
	n, err := floorOn(ctx, c.addrs)
	if err != nil {
		return fmt.Errorf("floor: %w", err)
	}
	fmt.Printf("floor read %d groups, described %d, %d committed partitions, log bounds of %d partitions, in %d requests\n",
		n.groups, n.described, n.committed, n.partitions, n.requests)
	if n.groups != s.groups || n.described != s.groups || n.committed != s.committedPartitions() {
		return fmt.Errorf("the floor read %d groups and %d committed partitions, the cluster has %d and %d", n.groups, n.committed, s.groups, s.committedPartitions())
	}
	dir, err := os.MkdirTemp("", "floorbench-check-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	env, err := kgroupsEnv(dir, c.addrs)
	if err != nil {
		return err
	}
	var doc bytes.Buffer
	dj := exec.CommandContext(ctx, bin, "describe", "--all-groups", "-o", "json")
	var stderr bytes.Buffer
	dj.Env, dj.Stdout, dj.Stderr = env, &doc, &stderr
	if err := dj.Run(); err != nil {
		return fmt.Errorf("kgroups describe: %w: %s", err, stderr.String())
	}
	groups, committed, err := countDocument(doc.Bytes())
	if err != nil {
		return err
	}
	fmt.Printf("kgroups describe --all-groups -o json read %d groups, %d committed partitions: %d bytes\n", groups, committed, doc.Len())
	if groups != s.groups || committed != s.committedPartitions() {
		return fmt.Errorf("kgroups read %d groups and %d committed partitions, the cluster has %d and %d", groups, committed, s.groups, s.committedPartitions())
	}
	return nil
}
