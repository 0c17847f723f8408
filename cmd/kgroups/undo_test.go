package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestUndoUsesReceiptBrokers: with no -b/--brokers, no context and no
// configuration file, undo connects to the brokers the receipt recorded,
// says so on stderr, and puts the offsets back (read back from the broker).
func TestUndoUsesReceiptBrokers(t *testing.T) {
	rc := startResetCluster(t)
	code, _, stderr := rc.kg(t, "reset", "g", "--to-earliest", "--topic", "orders:0,1", "--execute")
	if code != 0 {
		t.Fatalf("reset: exit %d: %s", code, stderr)
	}
	rc.assertCommits(t, "g", map[string]int64{"orders/0": 0, "orders/1": 0})
	path := receiptPath(t, stderr)

	code, _, stderr = runKgroups(t, "undo", path, "--execute")
	if code != 0 {
		t.Fatalf("undo: exit %d: %s", code, stderr)
	}
	rc.assertCommits(t, "g", initialCommits)
	note := "kgroups: no -b/--brokers or context given: using the brokers recorded in the receipt: " + rc.brokers + "\n"
	if !strings.HasPrefix(stderr, note) {
		t.Errorf("stderr does not start with the note %q:\n%s", note, stderr)
	}
	undoPath := receiptPath(t, stderr)
	if want := "To undo: kgroups -b " + rc.brokers + " undo " + undoPath + " --execute\n"; !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
	if strings.Contains(stderr, "Warning") {
		t.Errorf("same brokers, yet a warning:\n%s", stderr)
	}
}

// TestUndoReceiptBrokersOnlyWithoutContext: a current context wins over
// the receipt's brokers (no note), and an unknown --context is still an
// error, not a fallback.
func TestUndoReceiptBrokersOnlyWithoutContext(t *testing.T) {
	rc := startResetCluster(t)
	code, _, stderr := rc.kg(t, "reset", "g", "--to-earliest", "--topic", "orders:0", "--execute")
	if code != 0 {
		t.Fatalf("reset: exit %d: %s", code, stderr)
	}
	path := receiptPath(t, stderr)
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	writeFile(t, cfg, "current-context: prod\ncontexts:\n  - name: prod\n    brokers: ["+rc.brokers+"]\n")

	code, _, stderr = runKgroups(t, "--config", cfg, "--context", "nope", "undo", path)
	if code != 2 || !strings.Contains(stderr, `unknown context "nope"`) || strings.Contains(stderr, "recorded in the receipt") {
		t.Errorf("unknown context: exit %d: %s", code, stderr)
	}
	code, _, stderr = runKgroups(t, "--config", cfg, "undo", path, "--execute")
	if code != 0 || strings.Contains(stderr, "recorded in the receipt") {
		t.Fatalf("current context: exit %d: %s", code, stderr)
	}
	rc.assertCommits(t, "g", initialCommits)
	undoPath := receiptPath(t, stderr)
	if want := "To undo: kgroups --context prod undo " + undoPath + " --execute\n"; !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
}
