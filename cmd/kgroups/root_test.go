package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// TestUsageErrorsAreTyped: every way of calling kgroups wrongly exits 2
// with "Run 'kgroups COMMAND --help'" for the command called, whichever
// part of cobra finds the mistake.
func TestUsageErrorsAreTyped(t *testing.T) {
	isolateConfig(t)
	for _, tc := range []struct {
		args   []string
		stderr string
		help   string
	}{
		{[]string{"bogus"}, `kgroups: unknown command "bogus" for "kgroups"` + "\n", "kgroups"},
		{[]string{"version", "extra"}, `kgroups: unknown command "extra" for "kgroups version"` + "\n", "kgroups version"},
		{[]string{"config", "use"}, "kgroups: config use needs exactly one context name (got 0 arguments); kgroups config contexts lists them\n", "kgroups config use"},
		{[]string{"config", "use", "a", "b"}, "kgroups: config use needs exactly one context name (got 2 arguments); kgroups config contexts lists them\n", "kgroups config use"},
		{[]string{"peek", "a", "b"}, "kgroups: peek reads the records of one group (got 2 group names)\n", "kgroups peek"},
		// A command that only groups others refuses an unknown one, as
		// the root does, rather than printing its help with exit 0.
		{[]string{"config", "use-context", "prod"}, `kgroups: unknown command "use-context" for "kgroups config"; did you mean "use"?` + "\n", "kgroups config"},
		{[]string{"config", "get-contexts"}, `kgroups: unknown command "get-contexts" for "kgroups config"; did you mean "contexts"?` + "\n", "kgroups config"},
		{[]string{"completion", "bsah"}, `kgroups: unknown command "bsah" for "kgroups completion"; did you mean "bash"?` + "\n", "kgroups completion"},
		{[]string{"completion", "bash", "extra"}, `kgroups: unknown command "extra" for "kgroups completion bash"` + "\n", "kgroups completion bash"},
		{[]string{"list", "--bogus"}, "kgroups: unknown flag: --bogus\n", "kgroups list"},
		{[]string{"--bogus", "list"}, "kgroups: unknown flag: --bogus\n", "kgroups"},
		{[]string{"list", "-o"}, "kgroups: flag needs an argument: 'o' in -o\n", "kgroups list"},
		{[]string{"health", "g", "--window", "soon"}, `kgroups: --window "soon": want a duration like 500ms, 10s or 1m (units ns, us, ms, s, m, h)` + "\n", "kgroups health"},
	} {
		want := tc.stderr + "Run '" + tc.help + " --help' for usage.\n"
		code, stdout, stderr := runKgroups(t, tc.args...)
		if code != exitUsage || stdout != "" || stderr != want {
			t.Errorf("%q: exit %d stdout %q stderr %q, want exit 2 and %q", tc.args, code, stdout, stderr, want)
		}
	}
}

// TestRuntimeErrorsAreNotUsage: an error is a usage error because of where
// it arose, never because of its text. A group whose name reads like one of
// cobra's messages is still just a group that was not found: exit 1.
func TestRuntimeErrorsAreNotUsage(t *testing.T) {
	isolateConfig(t)
	c := kafkatest.NewCluster(t)
	for _, name := range []string{"unknown command \"x\" for \"kgroups\"", "accepts 1 arg(s), received 0", "invalid argument"} {
		code, stdout, stderr := runKgroups(t, "-b", strings.Join(c.Addrs, ","), "simulate", name, "--join", "1")
		want := "kgroups: group " + quote(name) + " not found\n"
		if code != exitError || stdout != "" || stderr != want {
			t.Errorf("%q: exit %d stdout %q stderr %q, want exit 1 and %q", name, code, stdout, stderr, want)
		}
	}
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// TestUINeedsATerminal: the UI (bare kgroups, tui, demo) on a standard
// input that is no terminal (/dev/null, a pipe: ssh without -t) says so
// and what works without one, before connecting or starting the demo.
func TestUINeedsATerminal(t *testing.T) {
	isolateConfig(t)
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = null.Close() }()
	const head = "kgroups: the terminal UI needs a terminal, and standard input is not one (in ssh, add -t); "
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-b", "127.0.0.1:1"}, head + "kgroups list, describe and health print what it shows without one\n"},
		{[]string{"-b", "127.0.0.1:1", "tui", "--group", "g"}, head + "kgroups list, describe and health print what it shows without one\n"},
		{[]string{"demo"}, head + "kgroups demo --headless serves the cluster without one\n"},
	} {
		var out, errOut bytes.Buffer
		code := run(context.Background(), tc.args, null, &out, &errOut)
		if code != exitError || out.String() != "" || errOut.String() != tc.want {
			t.Errorf("%q: exit %d stdout %q stderr %q, want exit 1 and %q", tc.args, code, out.String(), errOut.String(), tc.want)
		}
	}
}
