package main

import (
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// TestDidYouMeanCommandsAndFlags: a mistyped command or flag names the
// closest ones, and the error points at the help of the command called.
func TestDidYouMeanCommandsAndFlags(t *testing.T) {
	isolateConfig(t)
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"lsit"}, "kgroups: unknown command \"lsit\" for \"kgroups\"; did you mean \"list\"?\nRun 'kgroups --help' for usage.\n"},
		{[]string{"desribe", "g"}, "kgroups: unknown command \"desribe\" for \"kgroups\"; did you mean \"describe\"?\nRun 'kgroups --help' for usage.\n"},
		{[]string{"zzzz"}, "kgroups: unknown command \"zzzz\" for \"kgroups\"\nRun 'kgroups --help' for usage.\n"},
		{[]string{"describe", "g", "--stat"}, "kgroups: unknown flag: --stat; did you mean --state?\nRun 'kgroups describe --help' for usage.\n"},
		{[]string{"list", "--wdie"}, "kgroups: unknown flag: --wdie; did you mean --wide?\nRun 'kgroups list --help' for usage.\n"},
		{[]string{"list", "--broker", "k:1"}, "kgroups: unknown flag: --broker; did you mean --brokers?\nRun 'kgroups list --help' for usage.\n"},
		{[]string{"list", "--nothing-like-it"}, "kgroups: unknown flag: --nothing-like-it\nRun 'kgroups list --help' for usage.\n"},
		{[]string{"config", "use"}, "kgroups: config use needs exactly one context name (got 0 arguments); kgroups config contexts lists them\nRun 'kgroups config use --help' for usage.\n"},
		{[]string{"config", "vew"}, "kgroups: unknown command \"vew\" for \"kgroups config\"; did you mean \"view\"?\nRun 'kgroups config --help' for usage.\n"},
		// A value that does not parse says what is accepted, in words.
		{[]string{"health", "--all-groups", "--window", "10x"}, "kgroups: --window \"10x\": want a duration like 500ms, 10s or 1m (units ns, us, ms, s, m, h)\nRun 'kgroups health --help' for usage.\n"},
		{[]string{"peek", "g", "-n", "two"}, "kgroups: --count \"two\": want a whole number like 10\nRun 'kgroups peek --help' for usage.\n"},
		{[]string{"list", "--timeout=1\x1b[2J"}, "kgroups: --timeout \"1\\x1b[2J\": want a duration like 500ms, 10s or 1m (units ns, us, ms, s, m, h)\nRun 'kgroups list --help' for usage.\n"},
	} {
		code, stdout, stderr := runKgroups(t, tc.args...)
		if code != exitUsage || stdout != "" || stderr != tc.stderr {
			t.Errorf("%q: exit %d stdout %q stderr %q\nwant exit 2 and %q", tc.args, code, stdout, stderr, tc.stderr)
		}
	}
}

// TestDidYouMeanGroups: every command that names a group says an unknown
// one the same way, with the closest listed names.
func TestDidYouMeanGroups(t *testing.T) {
	isolateConfig(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 1)
	c.Produce(t, "orders", 0, 3, resetBase)
	for _, g := range []string{"live-range", "live-ranges", "billing"} {
		c.Commit(t, g, map[string]map[int32]int64{"orders": {0: 1}})
	}
	b := strings.Join(c.Addrs, ",")
	const both = `group "live-rang" not found; did you mean "live-range" or "live-ranges"?`
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"describe", "live-rang"}, 1, "kgroups: " + both + "\n"},
		{[]string{"describe", "live-rang", "bilin", "zzz"}, 1, "kgroups: " + both + "\n" +
			"kgroups: group \"bilin\" not found; did you mean \"billing\"?\n" +
			"kgroups: group \"zzz\" not found\n"},
		{[]string{"health", "live-rang"}, 1, "kgroups: " + both + "\n"},
		{[]string{"health", "zzz", "live-rang"}, 1, "kgroups: group \"zzz\" not found\nkgroups: " + both + "\n"},
		{[]string{"diagnose", "live-rang"}, 1, "kgroups: " + both + "\n"},
		{[]string{"simulate", "live-rang", "--join", "1"}, 1, "kgroups: " + both + "\n"},
		{[]string{"rebalance", "live-rang", "--all"}, 1, "kgroups: " + both + "\n"},
		{[]string{"peek", "live-rang", "--topic", "orders:0"}, 1, "kgroups: " + both + "\n"},
		{[]string{"reset", "live-rang", "--to-earliest", "--all-topics"}, 1, "kgroups: " + both + " To give a new group its first offsets, pass --new-group\n"},
		{[]string{"reset", "zzz", "--to-earliest", "--all-topics"}, 1, "kgroups: group \"zzz\" not found: check the name with 'kgroups list'; to give a new group its first offsets, pass --new-group\n"},
		{[]string{"delete-offsets", "bilin", "--topic", "orders", "--execute"}, 1, "kgroups: group \"bilin\" not found; did you mean \"billing\"?\n"},
	} {
		code, stdout, stderr := runKgroups(t, append([]string{"-b", b}, tc.args...)...)
		if code != tc.code || stderr != tc.stderr {
			t.Errorf("%q: exit %d stdout %q stderr %q\nwant exit %d and %q", tc.args, code, stdout, stderr, tc.code, tc.stderr)
		}
	}
}
