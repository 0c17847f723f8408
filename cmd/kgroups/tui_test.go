package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/tui"
)

// screenBuffer collects what the UI writes while the test reads it.
type screenBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *screenBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *screenBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitScreen waits for the UI to draw want. The deadline only stops a
// broken test; it measures nothing.
func waitScreen(t *testing.T, out *screenBuffer, want string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(out.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("the UI never drew %q; it wrote:\n%q", want, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestTUIOnACluster opens `kgroups tui --group` on an in-process cluster,
// sees the group's partitions, and quits with q q: the first goes back from
// the group to the groups screen, the second quits.
func TestTUIOnACluster(t *testing.T) {
	isolateConfig(t)
	t.Setenv("LC_ALL", "C") // ASCII glyphs, whatever the machine's locale
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 2)
	c.Produce(t, "orders", 0, 5, time.Now())
	c.Produce(t, "orders", 1, 3, time.Now())
	c.Commit(t, "tui-group", map[string]map[int32]int64{"orders": {0: 2, 1: 3}})

	in, keys := io.Pipe()
	var out, errOut screenBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), []string{"-b", strings.Join(c.Addrs, ","), "tui", "--group", "tui-group"}, in, &out, &errOut)
	}()
	waitScreen(t, &out, "tui-group | Empty | classic | assignor -")
	waitScreen(t, &out, "0 members | 2 partitions\r\n")
	// The first poll: one observation (JUDGING, not OK), no rates; the
	// commit that lags is older than that poll, so the record at it is
	// read right away and the time lag is exact (the records were written
	// just now).
	waitScreen(t, &out, "health JUDGING 1/10 | lag 3 | time lag =")
	waitScreen(t, &out, "> orders    0         2       5   3      =")
	waitScreen(t, &out, "  orders    1         3       3   0       0s      -      - OK     -      -")
	if _, err := keys.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	waitScreen(t, &out, "1 group")
	if _, err := keys.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, errOut.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatal("q did not end kgroups tui")
	}
	s := out.String()
	if enter, leave := strings.Index(s, "\x1b[?1049h"), strings.LastIndex(s, "\x1b[?1049l"); enter < 0 || enter > strings.Index(s, "tui-group") || leave < enter {
		t.Fatalf("the UI did not draw inside the alternate screen: enter at %d, leave at %d", enter, leave)
	}
	if errOut.String() != "" {
		t.Fatalf("stderr %q", errOut.String())
	}
}

func TestTUIErrors(t *testing.T) {
	isolateConfig(t)
	code, stdout, stderr := runKgroups(t, "tui", "extra")
	if code != 2 || stdout != "" || !strings.HasPrefix(stderr, `kgroups: unknown command "extra" for "kgroups tui"`) {
		t.Errorf("tui extra: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	// A bad setting still ends kgroups before the UI opens.
	code, stdout, stderr = runKgroups(t, "-b", "127.0.0.1:1", "--tls-ca-file", "/nonexistent/ca.pem", "tui")
	if code != 1 || stdout != "" || !strings.Contains(stderr, "/nonexistent/ca.pem") {
		t.Errorf("missing CA file: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	code, _, stderr = runKgroups(t, "-b", "127.0.0.1:1", "--refresh", "-1s", "tui")
	if code != 2 || !strings.Contains(stderr, "--refresh") || !strings.Contains(stderr, "must be positive") {
		t.Errorf("negative refresh: exit %d stderr %q", code, stderr)
	}
}

func TestPollTimeout(t *testing.T) {
	if got := pollTimeout(0); got != pollRounds*config.DefaultRequestTimeout {
		t.Errorf("pollTimeout(0) = %v", got)
	}
	if got := pollTimeout(3 * time.Second); got != 12*time.Second {
		t.Errorf("pollTimeout(3s) = %v", got)
	}
}

// TestSwitcher: `:ctx NAME` connects to the named context with the file's
// settings and the command line's general ones, never the command line's
// connection settings (brokers, TLS, SASL).
func TestSwitcher(t *testing.T) {
	isolateConfig(t)
	c := kafkatest.NewCluster(t)
	path := filepath.Join(t.TempDir(), "config.yaml")
	body := "current-context: a\ncontexts:\n" +
		"  - name: a\n    brokers: [127.0.0.1:1]\n" +
		"  - name: b\n    brokers: [" + strings.Join(c.Addrs, ", ") + "]\n    refresh: 7s\n    request_timeout: 2s\n    protected: true\n"
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path, true)
	if err != nil {
		t.Fatal(err)
	}
	sel := config.Selection{Config: path, Overrides: []config.Override{
		{Key: "brokers", Value: "127.0.0.1:2", Source: config.Flag("brokers")},
		{Key: "read_only", Value: "true", Source: config.Flag("read-only")},
		// A connection setting: it would make the switch fail if kept.
		{Key: "tls.ca_file", Value: "/nonexistent/ca.pem", Source: config.Flag("tls-ca-file")},
	}}
	sw := switcher(cfg, sel, nil)
	p, info, err := sw(context.Background(), "b")
	if err != nil {
		t.Fatalf("switch to b: %v", err)
	}
	defer p.(interface{ Close() }).Close()
	want := tui.ContextInfo{Name: "b", Brokers: c.Addrs, Connection: []string{"--config", path, "--context", "b"}, ReadOnly: true, Protected: true, Refresh: 7 * time.Second, Timeout: 8 * time.Second}
	if strings.Join(info.Brokers, ",") != strings.Join(want.Brokers, ",") || info.Name != want.Name || info.ReadOnly != want.ReadOnly ||
		strings.Join(info.Connection, " ") != strings.Join(want.Connection, " ") ||
		info.Protected != want.Protected || info.Refresh != want.Refresh || info.Timeout != want.Timeout {
		t.Fatalf("info = %+v\nwant %+v", info, want)
	}
	snap, err := p.Poll(context.Background())
	if err != nil || snap == nil {
		t.Fatalf("poll after switch: %v", err)
	}
	if _, _, err := sw(context.Background(), "nope"); err == nil || !strings.Contains(err.Error(), `unknown context "nope"`) {
		t.Fatalf("switch to an unknown context: %v", err)
	}
}

// TestTUIOpensWhenUnreachable: with nothing listening on the brokers, the UI
// opens anyway, says why, and fills in once a cluster listens there.
func TestTUIOpensWhenUnreachable(t *testing.T) {
	isolateConfig(t)
	t.Setenv("LC_ALL", "C")
	ports := make([]int, 3)
	addrs := make([]string, 3)
	for i := range ports {
		addrs[i] = freeAddr(t) // nothing listens there now
		_, port, _ := net.SplitHostPort(addrs[i])
		ports[i], _ = strconv.Atoi(port)
	}
	in, keys := io.Pipe()
	var out, errOut screenBuffer
	done := make(chan int, 1)
	go func() {
		// One seed broker: kgo gives up on a single refused seed at once,
		// and finds the other two in the metadata once they listen.
		done <- run(context.Background(), []string{"-b", addrs[0], "--refresh", "1s", "tui"}, in, &out, &errOut)
	}()
	waitScreen(t, &out, "x unreachable | retry ")
	waitScreen(t, &out, "connection refused by "+addrs[0])

	c := kafkatest.NewCluster(t, kfake.Ports(ports...))
	c.CreateTopic(t, "orders", 1)
	c.Produce(t, "orders", 0, 4, time.Now())
	c.Commit(t, "late-group", map[string]map[int32]int64{"orders": {0: 1}})
	waitScreen(t, &out, "late-group")
	waitScreen(t, &out, "* connected | 3 brokers")
	if _, err := keys.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, errOut.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatal("q did not end kgroups tui")
	}
	if errOut.String() != "" {
		t.Fatalf("stderr %q", errOut.String())
	}
}

// TestDemoUICtx: in the demo's UI, `:ctx NAME` says the demo has one
// context and how to watch another cluster.
func TestDemoUICtx(t *testing.T) {
	isolateConfig(t)
	t.Setenv("LC_ALL", "C")
	c := kafkatest.NewCluster(t)
	in, keys := io.Pipe()
	var out, errOut screenBuffer
	a := newApp(in, &out, &errOut, os.Getenv)
	done := make(chan error, 1)
	go func() { done <- openDemoUI(context.Background(), a, c.Addrs) }()
	waitScreen(t, &out, "* connected")
	if _, err := keys.Write([]byte(":ctx prod\r")); err != nil {
		t.Fatal(err)
	}
	waitScreen(t, &out, "the demo has one context: quit, then kgroups --context NAME for another cluster")
	if _, err := keys.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("q did not end the demo UI")
	}
}
