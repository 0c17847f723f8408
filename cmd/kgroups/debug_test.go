package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/kgroups/kgroups/config"
)

// saslCluster is a three-broker kfake cluster that takes only SASL with
// mech, user and pass.
func saslCluster(t *testing.T, mech, user, pass string) []string {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(3), kfake.EnableSASL(), kfake.Superuser(mech, user, pass))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c.ListenAddrs()
}

// checkTrace reads the trace at path and checks what every trace of a
// `list` holds and what none may hold.
func checkTrace(t *testing.T, path string, secrets ...string) string {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatalf("no debug log: %v", err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("debug log mode %v, want 0600", st.Mode().Perm())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := string(b)
	for _, s := range secrets {
		if strings.Contains(out, s) {
			t.Errorf("the debug log holds the secret %q:\n%s", s, out)
		}
	}
	for _, want := range []string{
		// kgroups: the build and command, the connection, the poll.
		`level=DEBUG msg=start version=`,
		`command="kgroups list"`,
		`msg=connect context=`,
		`msg=connected context=`,
		`msg="broker connection" broker=`,
		`msg=poll duration=`,
		` groups=0 partitions=0 group_errors=0 partition_errors=0`,
		`msg=exit code=0`,
		// franz-go's own log, through kgo.WithLogger.
		`msg="opening connection to broker" src=kgo`,
		`msg="beginning sasl authentication" src=kgo`,
		`msg="connection initialized successfully" src=kgo`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the debug log lacks %q:\n%s", want, out)
		}
	}
	for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if !strings.HasPrefix(line, "time=") || !strings.Contains(line, " level=") {
			t.Errorf("line %d is not one slog record: %q", i+1, line)
		}
	}
	return out
}

// TestDebugLogSASLPlain: `list --debug FILE` against a SASL/PLAIN cluster
// writes kgo's records and kgroups' own to FILE (0600), and the password,
// given in the environment, appears nowhere in it.
func TestDebugLogSASLPlain(t *testing.T) {
	const user, pass = "ops", "Pl41n-pa55word-xyz"
	isolateConfig(t)
	brokers := saslCluster(t, config.MechanismPlain, user, pass)
	path := filepath.Join(t.TempDir(), "kgroups-debug.log")
	t.Setenv("KGROUPS_SASL_PASSWORD", pass)

	code, stdout, stderr := runKgroups(t, "-b", strings.Join(brokers, ","), "--sasl-mechanism", "PLAIN", "--sasl-username", user,
		"--debug", path, "list")
	if code != 0 {
		t.Fatalf("list: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	if strings.Contains(stdout+stderr, "level=") {
		t.Fatalf("trace records reached the terminal: %q %q", stdout, stderr)
	}
	out := checkTrace(t, path, pass)
	for _, want := range []string{
		`flags="[--brokers --debug --sasl-mechanism --sasl-username]"`,
		`msg=context name=`,
		`sasl=PLAIN`,
		`mechanism=PLAIN`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the debug log lacks %q:\n%s", want, out)
		}
	}

	// A second run appends.
	if code, _, stderr := runKgroups(t, "-b", strings.Join(brokers, ","), "--sasl-mechanism", "PLAIN", "--sasl-username", user,
		"--debug", path, "list"); code != 0 {
		t.Fatalf("second list: exit %d: %s", code, stderr)
	}
	again := checkTrace(t, path, pass)
	if !strings.HasPrefix(again, out) || strings.Count(again, "msg=start ") != 2 {
		t.Errorf("the second run did not append to the first:\n%s", again)
	}
}

// TestDebugLogSCRAMPasswordCmd: KGROUPS_DEBUG names the file as --debug
// does; with SCRAM and a password_cmd, neither the password nor the
// command (whose text holds it here) reaches the log.
func TestDebugLogSCRAMPasswordCmd(t *testing.T) {
	const user, pass = "svc", "Scr4m-pa55word-abc"
	cfgPath := isolateConfig(t)
	brokers := saslCluster(t, config.MechanismScramSHA256, user, pass)
	command := "printf %s " + pass
	writeFile(t, cfgPath, fmt.Sprintf(`current-context: secure
contexts:
  - name: secure
    brokers: [%s]
    sasl:
      mechanism: SCRAM-SHA-256
      username: %s
      password_cmd: %q
`, strings.Join(brokers, ", "), user, command))
	path := filepath.Join(t.TempDir(), "trace.log")
	t.Setenv("KGROUPS_DEBUG", path)

	code, stdout, stderr := runKgroups(t, "list")
	if code != 0 {
		t.Fatalf("list: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	out := checkTrace(t, path, pass, command)
	if !strings.Contains(out, `msg=context name=secure`) || !strings.Contains(out, `mechanism=SCRAM-SHA-256`) {
		t.Errorf("the debug log lacks the context or the mechanism:\n%s", out)
	}
}

// TestNoDebugLogWithoutTheFlag: without --debug or KGROUPS_DEBUG, a run
// makes no file; a bad path is a usage error naming it, and nothing runs.
func TestNoDebugLogWithoutTheFlag(t *testing.T) {
	isolateConfig(t)
	dir := t.TempDir()
	t.Chdir(dir) // where a file with a relative default name would go
	c := saslCluster(t, config.MechanismPlain, "u", "p4ssword-none")
	t.Setenv("KGROUPS_SASL_PASSWORD", "p4ssword-none")
	code, _, stderr := runKgroups(t, "-b", strings.Join(c, ","), "--sasl-mechanism", "PLAIN", "--sasl-username", "u", "list")
	if code != 0 {
		t.Fatalf("list: exit %d: %s", code, stderr)
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 0 {
		t.Fatalf("a run without --debug made files: %v %v", entries, err)
	}

	for _, tc := range []struct{ path, want string }{
		{dir, "kgroups: debug log " + dir + " is a directory: give a file to append to\n"},
		{filepath.Join(dir, "missing", "debug.log"), "kgroups: debug log " + filepath.Join(dir, "missing", "debug.log") + " cannot be written: no such file or directory\n"},
	} {
		code, stdout, stderr := runKgroups(t, "-b", strings.Join(c, ","), "--debug", tc.path, "list")
		if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, tc.want) {
			t.Errorf("--debug %s: exit %d stdout %q stderr %q, want exit 2 and %q", tc.path, code, stdout, stderr, tc.want)
		}
	}
}
