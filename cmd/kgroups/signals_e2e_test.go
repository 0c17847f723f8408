package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// built is the kgroups binary the end-to-end tests run, built once per
// test process into a folder TestMain removes.
var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// buildKgroups builds the binary once for every test that runs it, and
// returns its path. Tests run it; none changes it.
func buildKgroups(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "kgroups-bin")
		if built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "kgroups")
		if out, err := exec.Command("go", "build", "-o", built.bin, ".").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %w\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// hang makes the cluster stop answering requests of key until the test
// ends (each one waits outside the cluster's loop), like a broker that
// accepted a connection and then hung. The channel it returns is closed
// when the first such request has reached the cluster.
func hang(t *testing.T, c *kafkatest.Cluster, key kmsg.Key) <-chan struct{} {
	t.Helper()
	release, arrived := make(chan struct{}), make(chan struct{})
	var once, first sync.Once
	t.Cleanup(func() { once.Do(func() { close(release) }) })
	c.ControlKey(int16(key), func(kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		first.Do(func() { close(arrived) })
		c.SleepControl(func() { <-release })
		return nil, nil, false
	})
	return arrived
}

// tuiRun is kgroups' UI in a tmux pane, its pid and exit status in files.
type tuiRun struct {
	*tmuxSession
	pidFile, exitFile string
}

func startTUI(t *testing.T, dir, bin string, c *kafkatest.Cluster) *tuiRun {
	t.Helper()
	// A short socket directory: a subtest's temporary directory is
	// longer than a socket path may be.
	sockDir, err := os.MkdirTemp("", "kgs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(sockDir) })
	s := &tmuxSession{
		t:      t,
		socket: fmt.Sprintf("sig-%d", time.Now().UnixNano()%1e9),
		name:   "sig",
		env: []string{
			"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TMUX_TMPDIR=" + sockDir,
			"SHELL=/bin/sh", "TERM=xterm-256color", "LANG=C.UTF-8",
		},
	}
	r := &tuiRun{tmuxSession: s, pidFile: filepath.Join(dir, "pid"), exitFile: filepath.Join(dir, "exit")}
	// The inner shell writes its pid, then becomes kgroups (exec, twice).
	inner := "echo $$ > " + e2eQuote(r.pidFile) + "; exec env -i PATH=" + e2eQuote(os.Getenv("PATH")) + " HOME=" + e2eQuote(dir) +
		" XDG_CONFIG_HOME=" + e2eQuote(filepath.Join(dir, "config")) + " XDG_STATE_HOME=" + e2eQuote(filepath.Join(dir, "state")) +
		" LANG=C.UTF-8 TERM=xterm-256color " + e2eQuote(bin) + " -b " + e2eQuote(strings.Join(c.Addrs, ",")) + " --refresh 1s"
	script := strings.Join([]string{
		"printf 'before-kgroups\\n'",
		"sh -c " + e2eQuote(inner),
		"echo EXIT=$? > " + e2eQuote(r.exitFile),
		"printf 'after-kgroups\\n'",
		"read done",
	}, "; ")
	s.must("new-session", "-d", "-s", s.name, "-x", "120", "-y", "40", script)
	t.Cleanup(func() {
		if _, err := s.tmux("kill-server"); err != nil {
			t.Logf("kill the tmux server: %v", err)
		}
	})
	return r
}

// signal sends sig to kgroups and waits, at most e2eWait (a hang
// detector, not a measure), for it to end; it returns the exit status.
func (r *tuiRun) signal(sig syscall.Signal) string {
	r.t.Helper()
	b, err := os.ReadFile(r.pidFile)
	if err != nil {
		r.t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		r.t.Fatal(err)
	}
	if err := syscall.Kill(pid, sig); err != nil {
		r.t.Fatalf("kill %d: %v", pid, err)
	}
	deadline := time.Now().Add(e2eWait)
	for {
		b, err := os.ReadFile(r.exitFile)
		if err == nil && bytes.HasSuffix(b, []byte("\n")) {
			return strings.TrimSpace(string(b))
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("kgroups did not end after %v; the terminal shows:\n%s", sig, r.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// restored checks that the terminal left the alternate screen.
func (r *tuiRun) restored() {
	r.t.Helper()
	sc := r.waitFor("the normal screen", func(sc string) bool { return strings.Contains(sc, "after-kgroups") })
	if state := strings.TrimSpace(r.must("display-message", "-p", "-t", r.name, "#{alternate_on} #{cursor_flag}")); state != "0 1" {
		r.t.Fatalf("alternate screen and cursor flags = %q, want %q; screen:\n%s", state, "0 1", sc)
	}
}

// TestSignalsEndTheUIInEveryState: SIGTERM or SIGINT ends the UI, and
// leaves the terminal as it was, in the record viewer on a hostile
// record, with the reset wizard open, and while the cluster has stopped
// answering.
func TestSignalsEndTheUIInEveryState(t *testing.T) {
	// Parallel: it changes no process-wide state (environment, working
	// directory, memory limit), so it runs beside the other parallel
	// tests once the sequential ones are done, instead of after them.
	t.Parallel()
	needTmux(t)
	bin := buildKgroups(t)
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 1)
	prod, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...))
	if err != nil {
		t.Fatal(err)
	}
	defer prod.Close()
	value := []byte(strings.Repeat("[", 9999) + strings.Repeat("]", 9999))
	for i := range 3 {
		rec := &kgo.Record{Topic: "orders", Partition: 0, Key: fmt.Appendf(nil, "k%d", i), Value: value}
		if err := prod.ProduceSync(context.Background(), rec).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	c.Commit(t, "nested", map[string]map[int32]int64{"orders": {0: 1}})
	groupOpen := hasLines(regexp.MustCompile(`^nested · Empty · classic`))

	for _, tc := range []struct {
		name  string
		sig   syscall.Signal
		reach func(r *tuiRun)
	}{
		{"the record viewer", syscall.SIGTERM, func(r *tuiRun) {
			r.send("Enter")
			r.waitFor("the group", groupOpen)
			r.send("v")
			r.waitFor("the record", func(sc string) bool { return strings.Contains(sc, "value        json, 19998 bytes") })
		}},
		{"the reset wizard", syscall.SIGINT, func(r *tuiRun) {
			r.send("Enter")
			r.waitFor("the group", groupOpen)
			r.send("R")
			r.waitFor("the wizard", func(sc string) bool { return strings.Contains(sc, "step 1 of 5: scenario") })
		}},
		{"a hung cluster", syscall.SIGTERM, func(r *tuiRun) {
			r.send("Enter")
			r.waitFor("the group", groupOpen)
			hang(t, c, kmsg.OffsetFetch)
			hang(t, c, kmsg.DescribeGroups)
			// At --refresh 1s the next poll now waits on the cluster.
			r.waitFor("a poll waiting", func(sc string) bool {
				return regexp.MustCompile(`refreshed [3-9]s ago|refreshed \d\d+s ago`).MatchString(sc)
			})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			r := startTUI(t, dir, bin, c)
			r.waitFor("the groups screen", hasLines(regexp.MustCompile(`^▶ nested\s+classic\s+Empty\s`)))
			tc.reach(r)
			status := r.signal(tc.sig)
			if want := fmt.Sprintf("EXIT=%d", 128+int(tc.sig)); status != want {
				t.Errorf("exit status %q, want %q", status, want)
			}
			r.restored()
		})
	}
}

// TestSignalEndsAWriteInFlight: SIGTERM during a reset whose OffsetCommit
// never gets an answer ends kgroups; it says the outcome is unknown and
// names the receipt, exit 4.
func TestSignalEndsAWriteInFlight(t *testing.T) {
	// Parallel: it changes no process-wide state (environment, working
	// directory, memory limit), so it runs beside the other parallel
	// tests once the sequential ones are done, instead of after them.
	t.Parallel()
	dir := t.TempDir()
	bin := buildKgroups(t)
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 2)
	c.Produce(t, "orders", 0, 5, time.Time{})
	c.Produce(t, "orders", 1, 5, time.Time{})
	c.Commit(t, "billing", map[string]map[int32]int64{"orders": {0: 4, 1: 4}})
	committing := hang(t, c, kmsg.OffsetCommit)
	state := filepath.Join(dir, "state")
	cmd := exec.Command(bin, "-b", strings.Join(c.Addrs, ","), "reset", "billing", "--to-earliest", "--all-topics", "--execute")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "XDG_CONFIG_HOME=" + filepath.Join(dir, "config"), "XDG_STATE_HOME=" + state, "LANG=C.UTF-8"}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	receipt := ""
	kafkatest.Eventually(t, "the receipt to be written", func() bool {
		_ = filepath.WalkDir(state, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") && strings.Contains(filepath.Base(p), "billing") {
				receipt = p
			}
			return nil
		})
		return receipt != ""
	})
	// The commit is sent after the receipt: wait until the cluster holds
	// it, so the signal lands on a write in flight.
	select {
	case <-committing:
	case <-time.After(e2eWait):
		_ = cmd.Process.Kill()
		<-done //nolint:errcheck // killed: how it ends says nothing here
		t.Fatalf("kgroups sent no OffsetCommit; stderr:\n%s", stderr.String())
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatalf("wait: %v", err)
		}
	case <-time.After(e2eWait):
		_ = cmd.Process.Kill()
		t.Fatalf("kgroups did not end after SIGTERM; stderr:\n%s", stderr.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != exitUnknown {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, exitUnknown, stderr.String())
	}
	if !strings.Contains(stderr.String(), "unknown") || !strings.Contains(stderr.String(), receipt) {
		t.Errorf("stderr does not say the outcome is unknown with the receipt %s:\n%s", receipt, stderr.String())
	}
	t.Logf("stderr:\n%s", stderr.String())
}
