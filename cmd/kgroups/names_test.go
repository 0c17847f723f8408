package main

import (
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
)

// TestConfirmExactName: --confirm compares against the exact name, so a
// group named "a,b" is confirmed by the --confirm a,b that the refusal
// suggests (a comma does not split it), and several groups take one
// --confirm each.
func TestConfirmExactName(t *testing.T) {
	rc := startResetCluster(t)
	rc.Commit(t, "a,b", map[string]map[int32]int64{"orders": {0: 5, 1: 10}})
	args := []string{"--protected", "reset", "a,b", "--to-latest", "--all-topics", "--execute"}
	code, _, stderr := rc.kg(t, args...)
	if code != 2 || !strings.Contains(stderr, `context "(ad-hoc)" is protected: to change group "a,b", type the name again with --confirm a,b; nothing was changed`) {
		t.Fatalf("without --confirm: exit %d: %s", code, stderr)
	}
	code, _, stderr = rc.kg(t, append(args, "--confirm", "a")...)
	if code != 2 || !strings.Contains(stderr, `--confirm a does not name group "a,b"`) {
		t.Fatalf("--confirm a: exit %d: %s", code, stderr)
	}
	rc.assertCommits(t, "a,b", initialCommits)
	code, _, stderr = rc.kg(t, append(args, "--confirm", "a,b")...)
	if code != 0 {
		t.Fatalf("--confirm a,b: exit %d: %s", code, stderr)
	}
	rc.assertCommits(t, "a,b", map[string]int64{"orders/0": 10, "orders/1": 20})

	// Two groups: one --confirm each, as the refusal says.
	rc.Commit(t, "c", map[string]map[int32]int64{"orders": {0: 1}})
	del := []string{"--protected", "delete-offsets", "a,b", "--topic", "orders", "--execute"}
	code, _, stderr = rc.kg(t, append(del, "--confirm", "a", "--confirm", "b")...)
	if code != 2 || !strings.Contains(stderr, `--confirm a --confirm b does not name group "a,b"`) {
		t.Fatalf("delete-offsets --confirm a --confirm b: exit %d: %s", code, stderr)
	}
	code, _, stderr = rc.kg(t, "--protected", "delete", "a,b", "c", "--execute")
	if code != 2 || !strings.Contains(stderr, `to change groups "a,b", "c", type the name again with --confirm a,b --confirm c;`) {
		t.Fatalf("delete two groups: exit %d: %s", code, stderr)
	}
}

// TestSuggestionsQuoteNames: every command line kgroups suggests names the
// group shell-quoted, so that pasting it cannot run anything else.
func TestSuggestionsQuoteNames(t *testing.T) {
	const name = "x;touch /tmp/p"
	rc := startResetCluster(t)
	rc.Commit(t, name, map[string]map[int32]int64{"orders": {0: 5, 1: 10}})

	args := []string{"--protected", "reset", name, "--to-latest", "--all-topics", "--execute"}
	code, _, stderr := rc.kg(t, args...)
	if code != 2 || !strings.Contains(stderr, `type the name again with --confirm 'x;touch /tmp/p'; nothing was changed`) {
		t.Fatalf("without --confirm: exit %d: %s", code, stderr)
	}
	code, _, stderr = rc.kg(t, append(args, "--confirm", name)...)
	if code != 0 {
		t.Fatalf("--confirm: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "To undo: kgroups undo ") {
		t.Errorf("no undo suggestion: %s", stderr)
	}

	// A live group: the refusal suggests removing its members.
	m := rc.Join(t, name, []string{"orders"}, kgo.ClientID("live-app"))
	defer m.Close()
	rc.WaitStable(t, name, 1, 3)
	code, _, stderr = rc.kg(t, "reset", name, "--to-earliest", "--all-topics", "--execute")
	if code != 1 || !strings.Contains(stderr, "remove them (then try again) with: kgroups rebalance 'x;touch /tmp/p' --all\n") {
		t.Errorf("live group: exit %d: %s", code, stderr)
	}

	// The dry run of a removal in a protected context says how to confirm.
	code, stdout, stderr := rc.kg(t, "--protected", "rebalance", name, "--all")
	if code != 0 || !strings.Contains(stdout, "is protected: add --confirm 'x;touch /tmp/p' too.") {
		t.Errorf("rebalance dry run: exit %d: %s%s", code, stdout, stderr)
	}
}
