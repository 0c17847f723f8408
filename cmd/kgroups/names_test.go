package main

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"regexp"
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

// TestConfirmShownName: a name with a control character is printed with it
// escaped; --confirm takes it as printed, as the UI does.
func TestConfirmShownName(t *testing.T) {
	const name = "evil\x1b[31m"
	rc := startResetCluster(t)
	rc.Commit(t, name, map[string]map[int32]int64{"orders": {0: 5, 1: 10}})
	args := []string{"--protected", "reset", name, "--to-latest", "--all-topics", "--execute"}
	code, _, stderr := rc.kg(t, args...)
	if code != 2 || !strings.Contains(stderr, `type the name again with --confirm 'evil\x1b[31m'; nothing was changed`) {
		t.Fatalf("without --confirm: exit %d: %s", code, stderr)
	}
	code, _, stderr = rc.kg(t, append(args, "--confirm", `evil\x1b[31m`)...)
	if code != 0 {
		t.Fatalf("--confirm as shown: exit %d: %s", code, stderr)
	}
	rc.assertCommits(t, name, map[string]int64{"orders/0": 10, "orders/1": 20})
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
	if path := receiptPath(t, stderr); !strings.Contains(stderr, "To undo: kgroups -b "+rc.brokers+" --protected=true undo "+path+" --execute --confirm 'x;touch /tmp/p'\n") {
		t.Errorf("no undo suggestion: %s", stderr)
	}

	// A live group: the refusal suggests removing its members.
	m := rc.Join(t, name, []string{"orders"}, kgo.ClientID("live-app"))
	defer m.Close()
	rc.WaitStable(t, name, 1, 3)
	code, _, stderr = rc.kg(t, "reset", name, "--to-earliest", "--all-topics", "--execute")
	if code != 1 || !strings.Contains(stderr, "remove them (then try again) with: kgroups -b "+rc.brokers+" rebalance 'x;touch /tmp/p' --all\n") {
		t.Errorf("live group: exit %d: %s", code, stderr)
	}

	// The dry run of a removal in a protected context says how to confirm.
	code, stdout, stderr := rc.kg(t, "--protected", "rebalance", name, "--all")
	if code != 0 || !strings.Contains(stdout, "is protected: add --confirm 'x;touch /tmp/p' too.") {
		t.Errorf("rebalance dry run: exit %d: %s%s", code, stdout, stderr)
	}
}

// TestGroupBase64 on a real cluster: a group whose id is not valid UTF-8
// comes back from -o json with its exact bytes in groupBase64, and
// --group-base64 gives those bytes back to every command that takes a
// group, so the group can be described, judged and reset.
func TestGroupBase64(t *testing.T) {
	const bad = "bad\xff\xfename"
	b64 := base64.StdEncoding.EncodeToString([]byte(bad))
	rc := startResetCluster(t)
	rc.Commit(t, bad, map[string]map[int32]int64{"orders": {0: 5, 1: 10}})

	type doc struct {
		Group       string  `json:"group"`
		GroupBase64 *string `json:"groupBase64"`
	}
	var list struct{ Groups []doc }
	code, stdout, stderr := rc.kg(t, "list", "-o", "json")
	if err := json.Unmarshal([]byte(stdout), &list); err != nil || code != 0 {
		t.Fatalf("list: exit %d, %v: %s", code, err, stderr)
	}
	found := false
	for _, g := range list.Groups {
		switch {
		case g.Group == "bad\ufffd\ufffdname":
			found = true
			if g.GroupBase64 == nil || *g.GroupBase64 != b64 {
				t.Errorf("list: groupBase64 %v, want %s", g.GroupBase64, b64)
			}
		case g.GroupBase64 != nil:
			t.Errorf("list: groupBase64 on %q", g.Group)
		}
	}
	if !found {
		t.Fatalf("list does not show the group:\n%s", stdout)
	}

	// describe --group-base64 finds the group by its exact bytes.
	code, stdout, stderr = rc.kg(t, "describe", "--group-base64", b64)
	expectRun(t, code, stderr, 0, `Consumer group 'bad\xff\xfename' has no active members.`+"\n")
	expectText(t, "describe", stdout, lines(
		`GROUP            TOPIC   PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST  CLIENT-ID`,
		`bad\xff\xfename  orders          0               5              10    5  -            -     -`,
		`bad\xff\xfename  orders          1              10              20   10  -            -     -`,
	))
	var described struct{ Groups []doc }
	code, stdout, _ = rc.kg(t, "describe", "g", "--group-base64", b64, "-o", "json")
	if err := json.Unmarshal([]byte(stdout), &described); err != nil || code != 0 || len(described.Groups) != 2 || described.Groups[0].Group != "g" || described.Groups[0].GroupBase64 != nil {
		t.Fatalf("describe -o json: exit %d, %v:\n%s", code, err, stdout)
	}
	if g := described.Groups[1]; g.GroupBase64 == nil || *g.GroupBase64 != b64 {
		t.Errorf("describe -o json: %+v", g)
	}

	// So does health.
	var health struct{ Groups []doc }
	code, stdout, stderr = rc.kg(t, "health", "--group-base64", b64, "--window", "400ms", "--interval", "200ms", "-o", "json")
	if err := json.Unmarshal([]byte(stdout), &health); err != nil || code != 0 || len(health.Groups) != 1 || health.Groups[0].GroupBase64 == nil || *health.Groups[0].GroupBase64 != b64 {
		t.Fatalf("health: exit %d, %v, %+v: %s", code, err, health, stderr)
	}

	// reset takes it too, and its documents carry it.
	code, stdout, stderr = rc.kg(t, "reset", "--group-base64", b64, "--to-latest", "--all-topics", "--execute", "-o", "json")
	var plan doc
	if err := json.Unmarshal([]byte(stdout), &plan); err != nil || code != 0 || plan.GroupBase64 == nil || *plan.GroupBase64 != b64 {
		t.Fatalf("reset: exit %d, %v, %+v: %s", code, err, plan, stderr)
	}
	rc.assertCommits(t, bad, map[string]int64{"orders/0": 10, "orders/1": 20})

	// Its receipt names the exact bytes: undo restores that group's offsets,
	// not those of a group named with U+FFFD.
	m := regexp.MustCompile(`"receipt": "([^"]+)"`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("reset: no receipt in\n%s", stdout)
	}
	code, stdout, stderr = rc.kg(t, "undo", m[1], "--execute")
	if code != 0 {
		t.Fatalf("undo: exit %d:\n%s%s", code, stdout, stderr)
	}
	rc.assertCommits(t, bad, map[string]int64{"orders/0": 5, "orders/1": 10})

	// Bad base64 is a usage error that says what is accepted.
	code, _, stderr = rc.kg(t, "describe", "--group-base64", "not base64!")
	if code != 2 || !strings.Contains(stderr, `invalid --group-base64 "not base64!": give the group id's bytes in base64, as the groupBase64 field of -o json`) {
		t.Errorf("bad base64: exit %d: %s", code, stderr)
	}
}

func TestWithGroupBase64(t *testing.T) {
	for _, in := range []string{"YmFk//5uYW1l", "YmFk__5uYW1l", " YmFk//5uYW1l\n"} {
		got, err := withGroupBase64([]string{"g"}, []string{in})
		if err != nil || len(got) != 2 || got[0] != "g" || got[1] != "bad\xff\xfename" {
			t.Errorf("withGroupBase64(%q) = %q, %v", in, got, err)
		}
	}
	if got, err := withGroupBase64([]string{"g"}, []string{"YQ", "YQ=="}); err != nil || len(got) != 3 || got[1] != "a" || got[2] != "a" {
		t.Errorf("unpadded and padded: %q, %v", got, err)
	}
	for _, in := range []string{"", "!!", "YQ="} {
		var u usageError
		if _, err := withGroupBase64(nil, []string{in}); !errors.As(err, &u) {
			t.Errorf("withGroupBase64(%q): %v, want a usage error", in, err)
		}
	}
}
