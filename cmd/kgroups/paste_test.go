package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// shellWords has a POSIX shell read line, as it would when the line is
// pasted, and returns the words of each kgroups command in it: kgroups is
// a shell function there that prints its arguments, so nothing runs.
func shellWords(t *testing.T, line string) [][]string {
	t.Helper()
	script := `kgroups() { for a in "$@"; do printf '%s\0' "$a"; done; printf '\001\0'; }` + "\n" + line
	out, err := exec.Command("sh", "-c", script).Output()
	if err != nil {
		t.Fatalf("sh does not read %q: %v", line, err)
	}
	var cmds [][]string
	var cur []string
	for w := range strings.SplitSeq(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if w == "\x01" {
			cmds = append(cmds, cur)
			cur = nil
			continue
		}
		cur = append(cur, w)
	}
	if len(cur) > 0 || len(cmds) == 0 {
		t.Fatalf("%q is not kgroups commands: %q", line, out)
	}
	return cmds
}

// runPasted runs every kgroups command of a suggested line as the shell
// splits it, in a shell whose environment names no cluster, and wants each
// accepted (exit 0).
func runPasted(t *testing.T, what, line string) {
	t.Helper()
	if line == "" {
		t.Fatalf("%s: no suggestion", what)
	}
	for _, args := range shellWords(t, line) {
		code, _, stderr := runKgroups(t, args...)
		if code != 0 {
			t.Errorf("%s: pasted %q: exit %d: %s", what, args, code, stderr)
		}
	}
}

// TestSuggestedCommandsRunPasted: every command kgroups suggests (the
// NEXT of diagnose, the rebalance a refused reset suggests, the undo a
// write prints) runs as printed in a shell where KGROUPS_BROKERS is not
// set, with -b or --context as the user gave them, and names a group that
// cannot be typed by --group-base64.
func TestSuggestedCommandsRunPasted(t *testing.T) {
	path := isolateConfig(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	c := kafkatest.NewCluster(t)
	b := strings.Join(c.Addrs, ",")
	writeFile(t, path, "contexts:\n  - name: dev\n    brokers: ["+strings.Join(c.Addrs, ", ")+"]\n")
	c.CreateTopic(t, "lost", 1)
	c.Produce(t, "lost", 0, 10, zeroTime)
	const evil = "evil\x1b]0;owned\x07"
	const invalid = "bad\xff\xfe"
	for _, g := range []string{"g-lost", evil, invalid} {
		c.Commit(t, g, map[string]map[int32]int64{"lost": {0: 3}})
	}
	del := make(kadm.Offsets)
	del.AddOffset("lost", 0, 7, -1)
	if resp, err := c.Admin().DeleteRecords(context.Background(), del); err != nil || resp.Error() != nil {
		t.Fatalf("delete records: %v", err)
	}

	next := func(t *testing.T, conn []string, groupArgs ...string) string {
		t.Helper()
		args := append(append(append([]string{}, conn...), "diagnose"), groupArgs...)
		code, stdout, stderr := runKgroups(t, append(args, "--window", "200ms", "--interval", "100ms", "-o", "json")...)
		if code != 0 {
			t.Fatalf("diagnose %q: exit %d: %s", groupArgs, code, stderr)
		}
		var doc struct {
			Groups []struct {
				Findings []struct {
					Next string `json:"next"`
				} `json:"findings"`
			} `json:"groups"`
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil || len(doc.Groups) != 1 || len(doc.Groups[0].Findings) != 1 {
			t.Fatalf("diagnose %q: %v\n%s", groupArgs, err, stdout)
		}
		return doc.Groups[0].Findings[0].Next
	}
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

	t.Run("diagnose NEXT", func(t *testing.T) {
		for _, tc := range []struct {
			conn  []string
			group []string
			want  string
		}{
			{[]string{"-b", b}, []string{"g-lost"}, "kgroups -b " + b + " reset g-lost --to-earliest --topic lost:0"},
			{[]string{"--context", "dev"}, []string{"g-lost"}, "kgroups --context dev reset g-lost --to-earliest --topic lost:0"},
			{[]string{"-b", b}, []string{"--group-base64", b64(evil)}, "kgroups -b " + b + " reset --group-base64 " + b64(evil) + " --to-earliest --topic lost:0"},
			{[]string{"-b", b}, []string{"--group-base64", b64(invalid)}, "kgroups -b " + b + " reset --group-base64 " + b64(invalid) + " --to-earliest --topic lost:0"},
		} {
			line := next(t, tc.conn, tc.group...)
			if line != tc.want {
				t.Errorf("NEXT = %q, want %q", line, tc.want)
			}
			runPasted(t, "diagnose NEXT", line)
		}
	})

	t.Run("rebalance of a live group", func(t *testing.T) {
		for _, g := range []string{"live", evil} {
			c.Join(t, g, []string{"lost"}, kgo.ClientID("live-app"))
			c.WaitStable(t, g, 1, 1)
			for _, conn := range [][]string{{"-b", b}, {"--context", "dev"}} {
				args := append(append([]string{}, conn...), "reset", "--group-base64", b64(g), "--to-earliest", "--topic", "lost", "--execute")
				code, _, stderr := runKgroups(t, args...)
				i := strings.LastIndex(stderr, "with: ")
				if code != 1 || i < 0 {
					t.Fatalf("reset of live %q: exit %d: %s", g, code, stderr)
				}
				line := strings.TrimSuffix(stderr[i+len("with: "):], "\n")
				want := "kgroups " + strings.Join(conn, " ") + " rebalance " + g + " --all"
				if g == evil {
					want = "kgroups " + strings.Join(conn, " ") + " rebalance --group-base64 " + b64(g) + " --all"
				}
				if line != want {
					t.Errorf("suggestion %q, want %q", line, want)
				}
				runPasted(t, "reset refusal", line)
			}
		}
	})

	t.Run("undo", func(t *testing.T) {
		code, _, stderr := runKgroups(t, "-b", b, "--protected", "reset", "--group-base64", b64(evil), "--to-latest", "--all-topics", "--execute", "--confirm", `evil\x1b]0;owned\x07`)
		m := regexp.MustCompile(`To undo: (.*)\n`).FindStringSubmatch(stderr)
		if code != 0 || m == nil {
			t.Fatalf("reset: exit %d: %s", code, stderr)
		}
		words := shellWords(t, m[1])
		if len(words) != 1 || !slices.Contains(words[0], "undo") {
			t.Fatalf("undo suggestion %q", m[1])
		}
		runPasted(t, "undo", m[1])
	})
}
