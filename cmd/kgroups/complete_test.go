package main

import (
	"encoding/base64"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// complete runs `kgroups __complete args...` as the shell scripts do and
// returns the completions (without the directive line) and the directive.
func complete(t *testing.T, args ...string) (got []string, directive string) {
	t.Helper()
	code, stdout, stderr := runKgroups(t, append([]string{"__complete"}, args...)...)
	if code != exitOK || stderr != "" {
		t.Fatalf("__complete %q: exit %d, stderr %q", args, code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	return lines[:len(lines)-1], lines[len(lines)-1]
}

// names drops the descriptions.
func names(completions []string) []string {
	out := make([]string, len(completions))
	for i, c := range completions {
		out[i], _, _ = strings.Cut(c, "\t")
	}
	return out
}

// TestCompletionOnKfake: every kind of argument completes from the cluster
// the command line names (KGROUPS_BROKERS), filtered by what the command
// accepts.
func TestCompletionOnKfake(t *testing.T) {
	isolateConfig(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 3)
	c.CreateTopic(t, "payments", 2)
	c.Produce(t, "orders", 0, 3, resetBase)
	c.Commit(t, "idle-app", map[string]map[int32]int64{"orders": {0: 1}})
	c.Commit(t, "billing", map[string]map[int32]int64{"orders": {0: 1}})
	c.Commit(t, "bad\x1bname", map[string]map[int32]int64{"orders": {0: 1}})
	m1 := c.Join(t, "live-app", []string{"orders"}, kgo.InstanceID("inst-1"), kgo.ClientID("app-a"))
	m2 := c.Join(t, "live-app", []string{"orders"}, kgo.ClientID("app-b"))
	c.WaitStable(t, "live-app", 2, 3)
	c.JoinShare(t, "share-jobs", []string{"payments"})
	kafkatest.Eventually(t, "the share group listed", func() bool {
		listed, err := c.Admin().ListGroups(t.Context())
		return err == nil && listed["share-jobs"].State == "Stable"
	})
	t.Setenv("KGROUPS_BROKERS", strings.Join(c.Addrs, ","))

	t.Run("groups", func(t *testing.T) {
		got, dir := complete(t, "describe", "")
		if want := []string{"billing\tEmpty classic group", "idle-app\tEmpty classic group", "live-app\tStable classic group", "share-jobs\tStable share group"}; !slices.Equal(got, want) || dir != ":36" {
			t.Errorf("describe: %q %s, want %q :36", got, dir, want)
		}
		// Names already given are not offered again; the prefix filters.
		if got, _ := complete(t, "describe", "billing", "i"); !slices.Equal(names(got), []string{"idle-app"}) {
			t.Errorf("describe billing i: %q", got)
		}
		// reset: Empty groups first, in that order (KeepOrder).
		if got, _ := complete(t, "reset", ""); !slices.Equal(names(got), []string{"billing", "idle-app", "live-app", "share-jobs"}) {
			t.Errorf("reset: %q", got)
		}
		if got, _ := complete(t, "reset", "billing", ""); len(got) != 0 {
			t.Errorf("reset takes one group, yet offers %q", got)
		}
		// rebalance: groups with members whose type can be rebalanced.
		if got, _ := complete(t, "rebalance", ""); !slices.Equal(names(got), []string{"live-app"}) {
			t.Errorf("rebalance: %q", got)
		}
		if got, _ := complete(t, "simulate", ""); !slices.Equal(names(got), []string{"live-app"}) {
			t.Errorf("simulate: %q", got)
		}
		if got, _ := complete(t, "tui", "--group", "s"); !slices.Equal(names(got), []string{"share-jobs"}) {
			t.Errorf("tui --group: %q", got)
		}
	})

	t.Run("topics", func(t *testing.T) {
		got, dir := complete(t, "reset", "billing", "--topic", "")
		if !slices.Equal(got, []string{"orders", "payments"}) || dir != ":4" {
			t.Errorf("reset --topic: %q %s", got, dir)
		}
		got, dir = complete(t, "peek", "billing", "--topic", "o")
		if !slices.Equal(got, []string{"orders:"}) || dir != ":6" {
			t.Errorf("peek --topic o: %q %s, want orders: with no space", got, dir)
		}
		if got, _ := complete(t, "peek", "billing", "--topic", "orders:"); !slices.Equal(got, []string{"orders:0", "orders:1", "orders:2"}) {
			t.Errorf("peek --topic orders: %q", got)
		}
		if got, _ := complete(t, "reset", "billing", "--to-earliest", "--topic", "orders:0,"); !slices.Equal(got, []string{"orders:0,1", "orders:0,2"}) {
			t.Errorf("--topic orders:0,: %q", got)
		}
		if got, _ := complete(t, "delete-offsets", "billing", "--topic", "nosuch:"); len(got) != 0 {
			t.Errorf("unknown topic: %q", got)
		}
	})

	t.Run("members", func(t *testing.T) {
		id1, id2 := m1.MemberID(), m2.MemberID()
		want := []string{id1, id2}
		slices.Sort(want)
		got, _ := complete(t, "rebalance", "live-app", "--member", "")
		if g := names(got); !slices.Equal(sorted(g), want) {
			t.Errorf("rebalance --member: %q, want %q", g, want)
		}
		for _, c := range got {
			if id, desc, _ := strings.Cut(c, "\t"); id == id1 && !strings.HasPrefix(desc, "app-a ") {
				t.Errorf("member %s described %q", id, desc)
			}
		}
		if got, _ := complete(t, "rebalance", "live-app", "--instance", ""); !slices.Equal(names(got), []string{"inst-1"}) {
			t.Errorf("rebalance --instance: %q", got)
		}
		// The group named by --group-base64 works as well.
		b64 := base64.StdEncoding.EncodeToString([]byte("live-app"))
		got, _ = complete(t, "simulate", "--group-base64", b64, "--leave", "")
		if g := names(got); !slices.Equal(sorted(g), sorted([]string{id1, id2, "inst-1"})) {
			t.Errorf("simulate --leave: %q", g)
		}
		got, _ = complete(t, "simulate", "live-app", "--leave", id1+",")
		if g := names(got); !slices.Equal(sorted(g), sorted([]string{id1 + "," + id2, id1 + ",inst-1"})) {
			t.Errorf("simulate --leave %s,: %q", id1, g)
		}
	})

	t.Run("values", func(t *testing.T) {
		for _, tc := range []struct {
			args []string
			want []string
		}{
			{[]string{"list", "--state", "Stable,E"}, []string{"Stable,Empty"}},
			{[]string{"list", "--type", "s"}, []string{"share", "streams"}},
			{[]string{"peek", "g", "--format", ""}, []string{"text", "json", "hex", "base64"}},
			{[]string{"health", "g", "--fail-on", ""}, []string{"WARN", "ERR"}},
			{[]string{"reset", "g", "--by-duration", "PT1"}, []string{"PT15M", "PT1H"}},
			{[]string{"reset", "g", "-o", ""}, []string{"table", "json", "csv"}},
			{[]string{"describe", "g", "-o", ""}, []string{"table", "json"}},
			{[]string{"version", "-o", ""}, []string{"text", "json"}},
			{[]string{"simulate", "g", "--assignor", ""}, []string{"range", "roundrobin", "sticky", "cooperative-sticky"}},
			{[]string{"simulate", "g", "--assignor", "r"}, []string{"range", "roundrobin"}},
		} {
			if got, _ := complete(t, tc.args...); !slices.Equal(names(got), tc.want) {
				t.Errorf("%q: %q, want %q", tc.args, got, tc.want)
			}
		}
		got, _ := complete(t, "reset", "g", "--to-datetime", "")
		if len(got) != 3 || !strings.HasSuffix(got[2], "\tnow") {
			t.Errorf("--to-datetime: %q", got)
		}
		for _, c := range got {
			v, _, _ := strings.Cut(c, "\t")
			if code, _, stderr := runKgroups(t, "reset", "billing", "--to-datetime", v, "--all-topics"); code != 0 {
				t.Errorf("--to-datetime %s refused: %s", v, stderr)
			}
		}
	})
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// TestCompletionOfContexts: --context and config use complete the
// configuration file's contexts, without connecting.
func TestCompletionOfContexts(t *testing.T) {
	path := isolateConfig(t)
	writeFile(t, path, "current-context: dev\ncontexts:\n  - name: dev\n    brokers: [127.0.0.1:1]\n  - name: prod-eu\n    brokers: [127.0.0.1:1]\n  - name: prod-us\n    brokers: [127.0.0.1:1]\n")
	if got, dir := complete(t, "list", "--context", "prod"); !slices.Equal(got, []string{"prod-eu", "prod-us"}) || dir != ":4" {
		t.Errorf("--context prod: %q %s", got, dir)
	}
	if got, _ := complete(t, "config", "use", ""); !slices.Equal(got, []string{"dev", "prod-eu", "prod-us"}) {
		t.Errorf("config use: %q", got)
	}
}

// TestCompletionOfAnUnansweringCluster: a cluster that accepts connections
// but never answers, or is not there, completes nothing, quietly: exit 0,
// only the directive on stdout, nothing on stderr.
func TestCompletionOfAnUnansweringCluster(t *testing.T) {
	isolateConfig(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c) // held open, never answered
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close()
		}
	})
	for _, brokers := range []string{ln.Addr().String(), "no-such-host.invalid:9092", "127.0.0.1:1"} {
		t.Setenv("KGROUPS_BROKERS", brokers)
		for _, args := range [][]string{
			{"describe", ""},
			{"reset", "g", "--topic", ""},
			{"rebalance", "g", "--member", ""},
		} {
			code, stdout, stderr := runKgroups(t, append([]string{"__complete"}, args...)...)
			if code != 0 || stdout != ":4\n" || stderr != "" {
				t.Errorf("%s %q: exit %d stdout %q stderr %q, want exit 0, \":4\" and nothing else", brokers, args, code, stdout, stderr)
			}
		}
	}
	// A bad setting is as quiet.
	t.Setenv("KGROUPS_BROKERS", "localhost")
	if code, stdout, stderr := runKgroups(t, "__complete", "describe", ""); code != 0 || stdout != ":4\n" || stderr != "" {
		t.Errorf("bad brokers: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
}

// TestCompletionOfReceipts: undo is offered the receipts it takes, newest
// first, and not a member removal's, which it refuses.
func TestCompletionOfReceipts(t *testing.T) {
	isolateConfig(t)
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	dir := filepath.Join(state, "kgroups", "receipts")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	names := []string{
		"20261202T031415.000Z-reset-orders-app.json",
		"20261202T031416.000Z-remove-members-orders-app.json",
		"20261202T031417.000Z-undo-orders-app.json",
	}
	for i, n := range names {
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, []byte("{}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		at := time.Date(2026, 12, 2, 3, 14, 15+i, 0, time.UTC)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	got, dirv := complete(t, "undo", "")
	want := []string{filepath.Join(dir, names[2]), filepath.Join(dir, names[0])}
	if !slices.Equal(got, want) || dirv != ":36" {
		t.Errorf("undo: %q %s, want %q :36", got, dirv, want)
	}
}
