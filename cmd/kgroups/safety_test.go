package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/kafka/receipt"
)

// TestGuardCannotBeLoosened: a context the file makes read-only stays
// read-only whatever --read-only=false or KGROUPS_READ_ONLY=0 say. The
// write is refused with exit 1, nothing changes, no receipt is written,
// stderr says once that the override could not loosen the guard, and the
// refusal says how to write.
func TestGuardCannotBeLoosened(t *testing.T) {
	rc := startResetCluster(t)
	path := isolateConfig(t)
	writeFile(t, path, "current-context: prod\ncontexts:\n  - name: prod\n    brokers: ["+rc.brokers+"]\n    read_only: true\n")
	for _, tc := range []struct {
		env   map[string]string
		args  []string
		tried string
	}{
		{args: []string{"--read-only=false"}, tried: "--read-only=false"},
		{env: map[string]string{"KGROUPS_READ_ONLY": "0"}, tried: "KGROUPS_READ_ONLY=0"},
		{env: map[string]string{"KGROUPS_READ_ONLY": "false"}, args: []string{"--read-only=false"}, tried: "--read-only=false"},
	} {
		for k, v := range tc.env {
			t.Setenv(k, v)
		}
		code, stdout, stderr := runKgroups(t, append(tc.args, "reset", "g", "--to-earliest", "--all-topics", "--execute")...)
		note := "kgroups: context prod is read-only (config " + path + ": contexts[prod].read_only: true); " + tc.tried + " cannot loosen it: edit the file or use another context\n"
		refusal := `kgroups: context "prod" is read-only: 'kgroups reset --execute' is refused and nothing was changed; run it without --execute for a dry run; to write, edit the file (config ` + path + `: contexts[prod].read_only: false; a flag or variable cannot loosen it) or use another context` + "\n"
		if code != 1 || stdout != "" || stderr != note+refusal {
			t.Errorf("%v %v: exit %d\nstdout %q\nstderr %q\nwant   %q", tc.env, tc.args, code, stdout, stderr, note+refusal)
		}
		rc.assertCommits(t, "g", initialCommits)
		if n := rc.receiptCount(t); n != 0 {
			t.Fatalf("a refused reset wrote %d receipts", n)
		}
		for k := range tc.env {
			t.Setenv(k, "")
		}
	}

	// protected: true holds against --protected=false: --execute still
	// needs --confirm.
	writeFile(t, path, "current-context: prod\ncontexts:\n  - name: prod\n    brokers: ["+rc.brokers+"]\n    protected: true\n")
	code, _, stderr := runKgroups(t, "--protected=false", "reset", "g", "--to-earliest", "--all-topics", "--execute")
	if code != 2 || strings.Count(stderr, "--protected=false cannot loosen it") != 1 || !strings.Contains(stderr, `context "prod" is protected`) {
		t.Errorf("--protected=false: exit %d: %s", code, stderr)
	}
	rc.assertCommits(t, "g", initialCommits)
}

// TestPasswordCmdObeysTimeout: `--timeout 1s list` with a password_cmd
// that sleeps for a minute fails long before the minute, naming the
// setting and the timeout; `config view` shows that a command is set, not
// its text.
func TestPasswordCmdObeysTimeout(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("sh and sleep")
	}
	path := isolateConfig(t)
	writeFile(t, path, `current-context: p
contexts:
  - name: p
    brokers: [127.0.0.1:1]
    sasl: {mechanism: PLAIN, username: u, password_cmd: "sleep 60; echo TOKEN-abc"}
`)
	start := time.Now()
	code, stdout, stderr := runKgroups(t, "--timeout", "1s", "list")
	if took := time.Since(start); took >= 60*time.Second {
		t.Fatalf("list took %s: it waited for the password command", took)
	}
	want := "kgroups: context p: connect: sasl.password_cmd: command did not finish in time and was killed: context deadline exceeded (the request timeout is 1s: --timeout or request_timeout)\n"
	if code != 1 || stdout != "" || stderr != want {
		t.Fatalf("exit %d\nstdout %q\nstderr %q\nwant   %q", code, stdout, stderr, want)
	}
	code, stdout, stderr = runKgroups(t, "config", "view")
	if code != 0 || strings.Contains(stdout+stderr, "sleep") || strings.Contains(stdout+stderr, "TOKEN") || !strings.Contains(stdout, "password_cmd: <set>\n") {
		t.Fatalf("config view: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestPermissionWarningsOnce: a configuration file others can write, and
// a receipts folder open to others, are each warned about once on stderr;
// the folder is made private.
func TestPermissionWarningsOnce(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no modes")
	}
	rc := startResetCluster(t)
	path := isolateConfig(t)
	writeFile(t, path, "current-context: p\ncontexts:\n  - name: p\n    brokers: ["+rc.brokers+"]\n    sasl: {mechanism: PLAIN, username: u, password: hunter2}\n")
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(rc.receipts, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(rc.receipts, 0o755); err != nil {
		t.Fatal(err)
	}
	// config view reads the file and resolves the context more than once.
	code, _, stderr := runKgroups(t, "config", "view")
	want := "kgroups: warning: config " + path + " can be written by its group and others (mode 0666): they could change what kgroups runs and where it connects; chmod 600 " + path + "\n" +
		"kgroups: warning: config " + path + " holds an inline password or token and can be read by its group and others (mode 0666); chmod 600 " + path + ", or use password_env, password_file or token_file\n" +
		"kgroups: warning: the receipts directory " + rc.receipts + " had mode 0755, open to others; it is now 0700\n"
	if code != 0 || stderr != want {
		t.Fatalf("exit %d\nstderr %q\nwant   %q", code, stderr, want)
	}
	if st, err := os.Stat(rc.receipts); err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("receipts folder: %v, %v", st.Mode(), err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runKgroups(t, "config", "view"); code != 0 || stderr != "" {
		t.Fatalf("private again: exit %d: %q", code, stderr)
	}
}

// TestResetRefusedWhileLocked: while another kgroups holds the group's
// lock, `reset --execute` waits a short time, then is refused with exit 1,
// naming the holder's pid, and changes nothing.
func TestResetRefusedWhileLocked(t *testing.T) {
	rc := startResetCluster(t)
	held, err := receipt.LockGroup(context.Background(), rc.receipts, rc.lockCluster(t), "g")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = held.Unlock() }()
	code, stdout, stderr := rc.kg(t, "reset", "g", "--to-earliest", "--all-topics", "--execute")
	want := fmt.Sprintf(`kgroups: group "g" is being changed by another kgroups (pid %d on `, os.Getpid())
	if code != 1 || !strings.HasPrefix(stderr, want) || !strings.HasSuffix(stderr, "): nothing was changed; try again when it has finished\n") {
		t.Fatalf("exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
	rc.assertCommits(t, "g", initialCommits)
	if err := held.Unlock(); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := rc.kg(t, "reset", "g", "--to-earliest", "--all-topics", "--execute"); code != 0 {
		t.Fatalf("after the lock is released: exit %d: %s", code, stderr)
	}
}

// TestSwitcherKeepsGuards: `:ctx NAME` in the UI applies the command
// line's --read-only=false and --protected=false the same way: they
// cannot loosen a context the file guards.
func TestSwitcherKeepsGuards(t *testing.T) {
	isolateConfig(t)
	c := kafkatest.NewCluster(t)
	path := filepath.Join(t.TempDir(), "config.yaml")
	writeFile(t, path, "current-context: a\ncontexts:\n  - name: a\n    brokers: [127.0.0.1:1]\n"+
		"  - name: prod\n    brokers: ["+strings.Join(c.Addrs, ", ")+"]\n    read_only: true\n    protected: true\n")
	cfg, err := config.Load(path, true)
	if err != nil {
		t.Fatal(err)
	}
	sel := config.Selection{Overrides: []config.Override{
		{Key: "read_only", Value: "false", Source: config.Flag("read-only")},
		{Key: "protected", Value: "false", Source: config.Env("KGROUPS_PROTECTED")},
	}}
	p, info, err := switcher(cfg, sel, nil)(context.Background(), "prod")
	if err != nil {
		t.Fatal(err)
	}
	defer p.(interface{ Close() }).Close()
	if !info.ReadOnly || !info.Protected {
		t.Fatalf("info = %+v: the file's guards were loosened", info)
	}
	// Without the file's guards, the same overrides leave the context
	// open: they are applied, just not allowed to loosen.
	writeFile(t, path, "contexts:\n  - name: dev\n    brokers: ["+strings.Join(c.Addrs, ", ")+"]\n")
	if cfg, err = config.Load(path, true); err != nil {
		t.Fatal(err)
	}
	p2, info, err := switcher(cfg, sel, nil)(context.Background(), "dev")
	if err != nil {
		t.Fatal(err)
	}
	defer p2.(interface{ Close() }).Close()
	if info.ReadOnly || info.Protected {
		t.Fatalf("dev info = %+v", info)
	}
}

// lockCluster is the cluster as the writers' locks name it: by its id,
// read with an independent client.
func (rc *resetCluster) lockCluster(t *testing.T) receipt.Cluster {
	t.Helper()
	m, err := rc.Admin().Metadata(context.Background())
	if err != nil || m.Cluster == "" {
		t.Fatalf("cluster id %q: %v", m.Cluster, err)
	}
	return receipt.Cluster{ID: m.Cluster, Brokers: strings.Split(rc.brokers, ",")}
}

// TestLockSameForEverySpellingOfTheBrokers: the lock another kgroups took
// with -b localhost:P holds off a reset with -b 127.0.0.1:P, because the
// lock is keyed by the cluster's id.
func TestLockSameForEverySpellingOfTheBrokers(t *testing.T) {
	rc := startResetCluster(t)
	lc := rc.lockCluster(t)
	var localhost []string
	for _, b := range lc.Brokers {
		_, port, err := net.SplitHostPort(b)
		if err != nil {
			t.Fatal(err)
		}
		localhost = append(localhost, net.JoinHostPort("localhost", port))
	}
	held, err := receipt.LockGroup(context.Background(), rc.receipts, receipt.Cluster{ID: lc.ID, Brokers: localhost}, "g")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = held.Unlock() }()
	if !strings.HasPrefix(rc.brokers, "127.0.0.1:") {
		t.Fatalf("brokers %s", rc.brokers)
	}
	code, _, stderr := rc.kg(t, "reset", "g", "--to-earliest", "--all-topics", "--execute")
	want := fmt.Sprintf(`kgroups: group "g" is being changed by another kgroups (pid %d on `, os.Getpid())
	if code != 1 || !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, "lock "+held.Path+"): nothing was changed; try again when it has finished\n") {
		t.Fatalf("exit %d\nstderr %q", code, stderr)
	}
	rc.assertCommits(t, "g", initialCommits)
}
