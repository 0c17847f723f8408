package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// TestSuggestionsNameTheBrokersGiven: with -b while the file's
// current-context is another cluster, every command kgroups suggests
// names the brokers given, never the context (pasted, --context local
// would go to local's brokers): the diagnose NEXT, the rebalance a
// refused reset suggests, the undo a write prints. Errors do not start
// with the context's name. --context NAME with -b names both.
func TestSuggestionsNameTheBrokersGiven(t *testing.T) {
	isolateConfig(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	c := kafkatest.NewCluster(t)
	b := strings.Join(c.Addrs, ",")
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	writeFile(t, cfg, "current-context: local\ncontexts:\n  - name: local\n    brokers: [127.0.0.1:1]\n")
	c.CreateTopic(t, "lost", 1)
	c.Produce(t, "lost", 0, 10, zeroTime)
	c.Commit(t, "g-lost", map[string]map[int32]int64{"lost": {0: 3}})
	del := make(kadm.Offsets)
	del.AddOffset("lost", 0, 7, -1)
	if resp, err := c.Admin().DeleteRecords(context.Background(), del); err != nil || resp.Error() != nil {
		t.Fatalf("delete records: %v", err)
	}
	c.Join(t, "live", []string{"lost"}, kgo.ClientID("live-app"))
	c.WaitStable(t, "live", 1, 1)

	for _, tc := range []struct {
		conn    []string // as given
		want    string   // as suggested
		context string   // as the receipt records it
	}{
		{[]string{"--config", cfg, "-b", b}, "-b " + b, config.AdHocContext},
		{[]string{"--config", cfg, "--context", "local", "-b", b}, "--config " + cfg + " --context local -b " + b, "local"},
	} {
		run := func(args ...string) (int, string, string) {
			return runKgroups(t, append(append([]string{}, tc.conn...), args...)...)
		}
		c.Commit(t, "g-lost", map[string]map[int32]int64{"lost": {0: 3}})
		// diagnose NEXT
		code, stdout, stderr := run("diagnose", "g-lost", "--window", "200ms", "--interval", "100ms")
		if want := "kgroups " + tc.want + " reset g-lost --to-earliest --topic lost:0"; code != 0 || !strings.Contains(stdout, want) {
			t.Fatalf("%v diagnose: exit %d: stdout %s\nstderr %s\nwant %s", tc.conn, code, stdout, stderr, want)
		}
		// The rebalance a refused reset suggests.
		code, _, stderr = run("reset", "live", "--to-earliest", "--topic", "lost", "--execute")
		if want := "with: kgroups " + tc.want + " rebalance live --all\n"; code != 1 || !strings.HasSuffix(stderr, want) {
			t.Fatalf("%v reset of a live group: exit %d: %s\nwant suffix %s", tc.conn, code, stderr, want)
		}
		// The undo a write prints, which runs pasted.
		code, _, stderr = run("reset", "g-lost", "--to-latest", "--topic", "lost", "--execute")
		m := regexp.MustCompile(`To undo: (.*)\n`).FindStringSubmatch(stderr)
		if code != 0 || m == nil {
			t.Fatalf("%v reset: exit %d: %s", tc.conn, code, stderr)
		}
		if want := "kgroups " + tc.want + " undo " + receiptPath(t, stderr) + " --execute"; m[1] != want {
			t.Fatalf("%v: To undo: %s\nwant %s", tc.conn, m[1], want)
		}
		data, err := os.ReadFile(receiptPath(t, stderr))
		if err != nil {
			t.Fatal(err)
		}
		if want := `"context": "` + tc.context + `"`; !strings.Contains(string(data), want) {
			t.Fatalf("%v: the receipt lacks %s:\n%s", tc.conn, want, data)
		}
		runPasted(t, "undo", m[1])
		// Back from 10: to 3, clamped to the log start, 7.
		if got := c.GroupInfo("g-lost").Commits["lost"][0].Offset; got != 7 {
			t.Fatalf("after the pasted undo, g-lost commits %d, want 7", got)
		}
	}

	// A connection error names what the user gave, not the context.
	code, _, stderr := runKgroups(t, "--config", cfg, "-b", "127.0.0.1:9", "--timeout", "500ms", "describe", "g")
	if code == 0 || strings.HasPrefix(stderr, "kgroups: context local") {
		t.Fatalf("unreachable -b: exit %d: %s", code, stderr)
	}
	code, _, stderr = runKgroups(t, "--config", cfg, "--timeout", "500ms", "describe", "g")
	if code == 0 || !strings.HasPrefix(stderr, "kgroups: context local: ") {
		t.Fatalf("unreachable context: exit %d: %s", code, stderr)
	}
}

// TestClusterArgs: the words that name the cluster in a suggestion, for
// each way of naming it (the UI's dialogs and the Diagnosis tab take the
// same words).
func TestClusterArgs(t *testing.T) {
	cfg, err := config.Parse([]byte("current-context: local\ncontexts:\n  - name: local\n    brokers: [l:1]\n  - name: prod\n    brokers: [p:1, p:2]\n    sasl: {mechanism: PLAIN, username: u, password_env: PW}\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	b := func(v string) config.Override {
		return config.Override{Key: "brokers", Value: v, Source: config.Flag("brokers")}
	}
	named := func(n string) (string, config.Source) { return n, config.Flag("context") }
	for _, tc := range []struct {
		sel  config.Selection
		want string
	}{
		{config.Selection{}, "--context local"},
		{config.Selection{Overrides: []config.Override{b("x:1")}}, "-b x:1"},
		{config.Selection{Overrides: []config.Override{{Key: "brokers", Value: "x:1", Source: config.Env("KGROUPS_BROKERS")}}}, "-b x:1"},
		{func() config.Selection { n, s := named("prod"); return config.Selection{Context: n, ContextSource: s} }(), "--context prod"},
		{func() config.Selection {
			n, s := named("prod")
			return config.Selection{Context: n, ContextSource: s, Overrides: []config.Override{b("127.0.0.1:19092")}}
		}(), "--context prod -b 127.0.0.1:19092"},
		// A receipt's brokers with the context's credentials withheld:
		// pasted, --context prod -b would send them.
		{func() config.Selection {
			n, s := named("prod")
			return config.Selection{Context: n, ContextSource: s, Overrides: []config.Override{{Key: "brokers", Value: "r:1", Source: config.Source{Kind: config.SourceFile, Name: "receipt r: cluster"}}}}
		}(), "-b r:1"},
	} {
		c, err := cfg.Effective(tc.sel)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(clusterArgs(c), " "); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.sel, got, tc.want)
		}
	}
}

// TestUndoForcedOnAnotherClusterCreatesNoGroup: --force takes a receipt
// written for another cluster, with a warning, but creating its group
// there, where it never was, needs --new-group too.
func TestUndoForcedOnAnotherClusterCreatesNoGroup(t *testing.T) {
	rc := startResetCluster(t)
	code, _, stderr := rc.kg(t, "reset", "g", "--to-earliest", "--topic", "orders:0", "--execute")
	if code != 0 {
		t.Fatalf("reset: exit %d: %s", code, stderr)
	}
	path := receiptPath(t, stderr)
	other := kafkatest.NewCluster(t, kfake.ClusterID("other-cluster"))
	other.CreateTopic(t, "orders", 3)
	ob := strings.Join(other.Addrs, ",")

	code, stdout, stderr := runKgroups(t, "-b", ob, "undo", path, "--execute", "--force")
	want := "kgroups: receipt " + path + ` names group "g", which does not exist on this cluster, and the receipt was written for another cluster: restoring it would create the group here. Nothing was changed; check the cluster, or pass --new-group to create it` + "\n"
	if code != 1 || stdout != "" || stderr != want {
		t.Fatalf("--force on another cluster: exit %d\nstdout %s\nstderr %s\nwant suffix %s", code, stdout, stderr, want)
	}
	if other.GroupInfo("g") != nil {
		t.Fatal("group g was created on the other cluster")
	}
	code, _, stderr = runKgroups(t, "-b", ob, "undo", path, "--execute", "--force", "--new-group")
	if code != 0 || other.GroupInfo("g") == nil {
		t.Fatalf("with --new-group: exit %d: %s", code, stderr)
	}
}

// TestCurrentContextCredentialsStayWithItsBrokers: -b OTHER while the
// file's current-context holds a password sends OTHER no credentials (a
// catcher in front of it hears none) and says so; the context's own
// brokers get them as before.
func TestCurrentContextCredentialsStayWithItsBrokers(t *testing.T) {
	rc := startResetCluster(t)
	relay := startRecordingRelay(t, strings.Split(rc.brokers, ",")[0])
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	writeFile(t, cfg, "current-context: ops\ncontexts:\n  - name: ops\n    brokers: [127.0.0.1:1]\n    sasl: {mechanism: PLAIN, username: "+plantedUser+", password: "+plantedPass+"}\n")
	code, stdout, stderr := runKgroups(t, "--config", cfg, "-b", relay.addr, "describe", "g")
	want := "kgroups: the brokers " + relay.addr + " (--brokers) are not context ops's: its credentials (sasl.mechanism, sasl.username, sasl.password) are not sent to them; to send them there, type both: --context ops -b " + relay.addr + "\nConsumer group 'g' has no active members.\n"
	if code != 0 || stderr != want || !strings.Contains(stdout, "orders") {
		t.Fatalf("exit %d\nstdout %s\nstderr %q\nwant   %q", code, stdout, stderr, want)
	}
	if n, data := relay.received(); n == 0 || bytes.Contains(data, []byte(plantedPass)) || bytes.Contains(data, []byte(plantedUser)) {
		t.Fatalf("the catcher got %d connections; the password: %v", n, bytes.Contains(data, []byte(plantedPass)))
	}
}

// TestTUINamesTheBrokersGiven: the UI run with -b while another context
// is current does not call itself that context: its status bar says the
// cluster is ad-hoc, as its suggested commands (-b HOSTS) and receipts do.
func TestTUINamesTheBrokersGiven(t *testing.T) {
	isolateConfig(t)
	t.Setenv("LC_ALL", "C")
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 1)
	c.Commit(t, "g-one", map[string]map[int32]int64{"orders": {0: 0}})
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	writeFile(t, cfg, "current-context: local\ncontexts:\n  - name: local\n    brokers: [127.0.0.1:1]\n")
	in, keys := io.Pipe()
	var out, errOut screenBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), []string{"--config", cfg, "-b", strings.Join(c.Addrs, ","), "--refresh", "1s", "tui"}, in, &out, &errOut)
	}()
	waitScreen(t, &out, "g-one")
	waitScreen(t, &out, "ctx "+config.AdHocContext)
	if strings.Contains(out.String(), "ctx local") {
		t.Error("the status bar names context local for the brokers given with -b")
	}
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
}
