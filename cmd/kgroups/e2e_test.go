package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// e2eWait bounds every wait on the terminal. It stops a broken test; it
// measures nothing.
const e2eWait = 90 * time.Second

// tmuxSession drives one detached tmux session on a private server: its own
// socket name and socket directory, no configuration file, a fixed size.
type tmuxSession struct {
	t      *testing.T
	socket string
	env    []string
	name   string
}

func (s *tmuxSession) tmux(args ...string) (string, error) {
	cmd := exec.Command("tmux", append([]string{"-L", s.socket, "-f", "/dev/null"}, args...)...)
	cmd.Env = s.env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("tmux %s: %w: %s", strings.Join(args, " "), err, errOut.String())
	}
	return out.String(), nil
}

func (s *tmuxSession) must(args ...string) string {
	s.t.Helper()
	out, err := s.tmux(args...)
	if err != nil {
		s.t.Fatal(err)
	}
	return out
}

// send types one key. Each key goes on its own, so that the terminal never
// reads an Escape followed by a letter as Alt+letter.
func (s *tmuxSession) send(key string) {
	s.t.Helper()
	if key == "Enter" || key == "Escape" {
		s.must("send-keys", "-t", s.name, key)
		return
	}
	s.must("send-keys", "-t", s.name, "-l", key)
}

// screen is what the pane shows now, trailing blanks removed.
func (s *tmuxSession) screen() string {
	s.t.Helper()
	out := s.must("capture-pane", "-p", "-t", s.name)
	ls := strings.Split(strings.TrimRight(out, "\n"), "\n")
	for i, l := range ls {
		ls[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(ls, "\n")
}

// waitFor polls the pane until ok accepts it, and returns that screen.
func (s *tmuxSession) waitFor(what string, ok func(screen string) bool) string {
	s.t.Helper()
	deadline := time.Now().Add(e2eWait)
	for {
		sc := s.screen()
		if ok(sc) {
			return sc
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the terminal never showed %s; it shows:\n%s", what, sc)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// lineMatching returns the first line of screen that re matches.
func lineMatching(screen string, re *regexp.Regexp) (string, bool) {
	for _, l := range strings.Split(screen, "\n") {
		if re.MatchString(l) {
			return l, true
		}
	}
	return "", false
}

func hasLines(res ...*regexp.Regexp) func(string) bool {
	return func(screen string) bool {
		for _, re := range res {
			if _, ok := lineMatching(screen, re); !ok {
				return false
			}
		}
		return true
	}
}

// needTmux skips the test on a developer machine without tmux, and fails
// it in CI, where .ci/run installs tmux: the end-to-end test must not
// vanish silently there.
func needTmux(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "" {
			t.Skip("tmux is not installed (CI installs it)")
		}
		t.Fatalf("tmux is required in CI: %v", err)
	}
}

func e2eQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// TestEndToEndInTmux runs the built kgroups binary in a real terminal
// (tmux, 120x40, UTF-8) against an in-process cluster with live members:
// the groups screen lists the groups, / filters as one types, Enter keeps
// the filter and Enter opens the group, whose partitions show the exact
// offsets and lag; x reads the exact time lag from the record at the
// commit; Esc goes back to the filtered list and q quits with exit code 0,
// leaving the terminal as it was.
func TestEndToEndInTmux(t *testing.T) {
	// Parallel: it changes no process-wide state (environment, working
	// directory, memory limit), so it runs beside the other parallel
	// tests once the sequential ones are done, instead of after them.
	t.Parallel()
	needTmux(t)
	dir := t.TempDir()
	bin := buildKgroups(t)

	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 3)
	c.CreateTopic(t, "payments", 2)
	c.CreateTopic(t, "audit-log", 1)
	// Records on orders/0 were written an hour ago, one a second: the one
	// at the committed offset 3 is 3s younger than the first.
	written := time.Now().Add(-time.Hour)
	c.Produce(t, "orders", 0, 7, written)
	c.Produce(t, "orders", 1, 4, time.Time{})
	c.Produce(t, "orders", 2, 5, time.Time{})
	c.Produce(t, "payments", 0, 6, time.Time{})
	c.Produce(t, "payments", 1, 6, time.Time{})
	c.Produce(t, "audit-log", 0, 9, time.Time{})
	// Commits first: the broker takes admin commits only while a group is
	// empty. The members never commit, so these offsets stay exact.
	c.Commit(t, "orders-app", map[string]map[int32]int64{"orders": {0: 3, 1: 4}})
	c.Commit(t, "payments-etl", map[string]map[int32]int64{"payments": {0: 6, 1: 1}})
	c.Commit(t, "audit-archive", map[string]map[int32]int64{"audit-log": {0: 2}})
	orders := c.Join(t, "orders-app", []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()), kgo.ClientID("orders-worker"))
	c.Join(t, "payments-etl", []string{"payments"}, kgo.Balancers(kgo.RangeBalancer()))
	c.WaitStable(t, "orders-app", 1, 3)
	c.WaitStable(t, "payments-etl", 1, 2)
	memberID := orders.MemberID()

	sockDir := filepath.Join(dir, "tmux")
	if err := os.Mkdir(sockDir, 0o700); err != nil {
		t.Fatal(err)
	}
	s := &tmuxSession{
		t:      t,
		socket: fmt.Sprintf("kgroups-e2e-%d-%d", os.Getpid(), time.Now().UnixNano()),
		name:   "e2e",
		env: []string{
			"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TMUX_TMPDIR=" + sockDir,
			"SHELL=/bin/sh", "TERM=xterm-256color", "LANG=C.UTF-8",
		},
	}
	exitFile := filepath.Join(dir, "exit")
	// The program sees only what this line gives it: a UTF-8 locale, an
	// xterm, an empty configuration directory. The markers around it show
	// on the normal screen once kgroups has left the alternate one.
	script := strings.Join([]string{
		"printf 'before-kgroups\\n'",
		"env -i PATH=" + e2eQuote(os.Getenv("PATH")) + " HOME=" + e2eQuote(dir) +
			" XDG_CONFIG_HOME=" + e2eQuote(filepath.Join(dir, "config")) +
			" LANG=C.UTF-8 TERM=xterm-256color " + e2eQuote(bin) + " -b " + e2eQuote(strings.Join(c.Addrs, ",")) + " --refresh 1s",
		"echo EXIT=$? > " + e2eQuote(exitFile),
		"printf 'after-kgroups\\n'",
		// Keep the pane alive, so its modes can be read after the exit.
		"read done",
	}, "; ")
	s.must("new-session", "-d", "-s", s.name, "-x", "120", "-y", "40", script)
	t.Cleanup(func() {
		if _, err := s.tmux("kill-server"); err != nil {
			t.Logf("kill the tmux server: %v", err)
		}
	})

	// The groups screen lists every group with its state.
	s.waitFor("the three groups", hasLines(
		regexp.MustCompile(`^▶ audit-archive\s+classic\s+Empty\s`),
		// At 120 columns HEALTH keeps room for a cause: TOPICS and PARTS
		// do not show (docs/tui.md), whatever the rows say.
		regexp.MustCompile(`^  NAME↑\s+TYPE\s+STATE\s+HEALTH\s+ASSIGNOR\s+MEMBERS\s+LAG\s+TIME-LAG\s+TREND$`),
		regexp.MustCompile(`^  orders-app\s+classic\s+Stable\s.*\srange\s+1\s+4\s`),
		regexp.MustCompile(`^  payments-etl\s+classic\s+Stable\s.*\srange\s+1\s+5\s`),
		regexp.MustCompile(`^3 groups: 2 Stable · 1 Empty`),
	))

	// / filters as one types.
	for _, k := range []string{"/", "o", "r", "d"} {
		s.send(k)
	}
	onlyOrders := func(sc string) bool {
		return strings.Contains(sc, "orders-app") && !strings.Contains(sc, "payments-etl") && !strings.Contains(sc, "audit-archive")
	}
	sc := s.waitFor("the filter narrowing to orders-app", func(sc string) bool {
		_, typing := lineMatching(sc, regexp.MustCompile(`^/ord█  1 of 3 match · enter keep · esc clear$`))
		return typing && onlyOrders(sc)
	})
	if _, ok := lineMatching(sc, regexp.MustCompile(`^▶ orders-app\s`)); !ok {
		t.Fatalf("orders-app is not selected:\n%s", sc)
	}

	// Enter keeps the filter...
	s.send("Enter")
	s.waitFor("the kept filter", func(sc string) bool {
		_, kept := lineMatching(sc, regexp.MustCompile(`^/ord  1 of 3 match$`))
		return kept && onlyOrders(sc)
	})

	// ...and Enter opens the group: exact offsets, lag, and the owner
	// (after the time lag, the rates and the health, which depend on how
	// many polls the history holds by then).
	s.send("Enter")
	idPrefix := regexp.QuoteMeta(memberID[:min(len(memberID), 12)])
	sc = s.waitFor("the partitions of orders-app", hasLines(
		// kgo's range metadata identifies the leader whatever the
		// client id.
		regexp.MustCompile(`^orders-app · Stable · classic · assignor range \(Java/franz-go leader\)$`),
		regexp.MustCompile(`^1 member · 3 partitions$`),
		regexp.MustCompile(`^health (OK|JUDGING \d+/10) · lag 4 · `),
		regexp.MustCompile(`^\[Partitions 3\]  Members 1   Chart   Timeline   Simulate   Diagnosis$`),
		regexp.MustCompile(`^▶ orders\s+0\s+3\s+0\s+7\s+4(\s+\S+){4}\s+`+idPrefix),
		regexp.MustCompile(`^  orders\s+1\s+4\s+0\s+4\s+0\s+0s\s+\S+\s+\S+\s+OK\s+`+idPrefix),
		// No commit under a live owner: judging, then NO-COMMITS.
		regexp.MustCompile(`^  orders\s+2\s+-\s+0\s+5\s+-\s+-\s+\S+\s+-\s+(-|NO-COMMITS)\s+`+idPrefix),
	))
	if !strings.Contains(sc, "orders-worker") {
		t.Fatalf("the owning client is not shown:\n%s", sc)
	}

	// x reads the record at each lagging commit on screen: orders/0's is
	// just under an hour old. The other rows keep what they showed.
	s.send("x")
	s.waitFor("the exact time lag of orders/0", hasLines(
		regexp.MustCompile(`^\[Partitions 3\]  Members 1   Chart   Timeline   Simulate   Diagnosis   exact time lag$`),
		regexp.MustCompile(`^▶ orders\s+0\s+3\s+0\s+7\s+4\s+=(59m5[0-9]s|1h00m)\s`),
		regexp.MustCompile(`^  orders\s+1\s+4\s+0\s+4\s+0\s+0s\s`),
	))

	// Esc goes back to the list, still filtered. The wait for the list is
	// also the pause that keeps the next key from reading as Alt+key.
	s.send("Escape")
	s.waitFor("the filtered list again", func(sc string) bool {
		_, kept := lineMatching(sc, regexp.MustCompile(`^/ord  1 of 3 match$`))
		_, sel := lineMatching(sc, regexp.MustCompile(`^▶ orders-app\s`))
		return kept && sel && onlyOrders(sc)
	})

	// q quits with exit code 0.
	s.send("q")
	deadline := time.Now().Add(e2eWait)
	var code []byte
	for {
		b, err := os.ReadFile(exitFile)
		if err == nil && bytes.HasSuffix(b, []byte("\n")) {
			code = b
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("kgroups did not exit after q; the terminal shows:\n%s", s.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got := string(code); got != "EXIT=0\n" {
		t.Fatalf("exit file = %q, want EXIT=0", got)
	}

	// The terminal is restored: off the alternate screen, cursor visible,
	// and the normal screen holds the shell's lines and nothing of the UI.
	// The shell still runs, so these are the modes kgroups left behind.
	sc = s.waitFor("the normal screen", func(sc string) bool { return strings.Contains(sc, "after-kgroups") })
	if state := strings.TrimSpace(s.must("display-message", "-p", "-t", s.name, "#{alternate_on} #{cursor_flag}")); state != "0 1" {
		t.Fatalf("alternate screen and cursor flags = %q, want %q", state, "0 1")
	}
	for _, ui := range []string{"orders-app", "kgroups ·", "Partitions"} {
		if strings.Contains(sc, ui) {
			t.Fatalf("the UI (%q) is still on the normal screen:\n%s", ui, sc)
		}
	}
	if !strings.HasPrefix(sc, "before-kgroups\nafter-kgroups") {
		t.Fatalf("normal screen after exit:\n%s", sc)
	}
}
