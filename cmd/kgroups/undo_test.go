package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestUndoNeedsANamedCluster: with no -b/--brokers, no context and no
// configuration file, undo does not connect to the brokers the receipt
// records: it names them and stops (exit 2). --receipt-brokers connects
// there, says so, and puts the offsets back (read back from the broker).
func TestUndoNeedsANamedCluster(t *testing.T) {
	rc := startResetCluster(t)
	code, _, stderr := rc.kg(t, "reset", "g", "--to-earliest", "--topic", "orders:0,1", "--execute")
	if code != 0 {
		t.Fatalf("reset: exit %d: %s", code, stderr)
	}
	rc.assertCommits(t, "g", map[string]int64{"orders/0": 0, "orders/1": 0})
	path := receiptPath(t, stderr)

	code, stdout, stderr := runKgroups(t, "undo", path, "--execute")
	want := "kgroups: no -b/--brokers or context given: undo connects only to a cluster you name, and sends credentials nowhere a file alone names. Receipt " + path + " records the brokers " + rc.brokers + ": to undo there, add -b BROKERS or --context NAME; or add --receipt-brokers to connect to the receipt's brokers without credentials\nRun 'kgroups undo --help' for usage.\n"
	if code != 2 || stdout != "" || stderr != want {
		t.Fatalf("undo without a cluster: exit %d\nstdout %q\nstderr %q\nwant   %q", code, stdout, stderr, want)
	}
	rc.assertCommits(t, "g", map[string]int64{"orders/0": 0, "orders/1": 0})

	code, _, stderr = runKgroups(t, "-b", rc.brokers, "undo", path, "--receipt-brokers")
	if want := "kgroups: --receipt-brokers and -b/--brokers (or KGROUPS_BROKERS) name two clusters: give one\nRun 'kgroups undo --help' for usage.\n"; code != 2 || stderr != want {
		t.Fatalf("--receipt-brokers with -b: exit %d: %q", code, stderr)
	}

	code, _, stderr = runKgroups(t, "undo", path, "--execute", "--receipt-brokers")
	if code != 0 {
		t.Fatalf("undo --receipt-brokers: exit %d: %s", code, stderr)
	}
	rc.assertCommits(t, "g", initialCommits)
	note := "kgroups: connecting to the brokers recorded in the receipt, without credentials: " + rc.brokers + "\n"
	if !strings.HasPrefix(stderr, note) {
		t.Errorf("stderr does not start with the note %q:\n%s", note, stderr)
	}
	undoPath := receiptPath(t, stderr)
	if want := "To undo: kgroups -b " + rc.brokers + " undo " + undoPath + " --execute\n"; !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
	if strings.Contains(stderr, "Warning") {
		t.Errorf("same cluster, signed receipt, yet a warning:\n%s", stderr)
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

// TestUndoReceiptBrokersWithholdsCredentials: on a cluster that answers
// without credentials, --receipt-brokers sends the context's SASL
// credentials only for a receipt signed by this user's kgroups that
// records the cluster's id; for a planted one it says they were withheld.
func TestUndoReceiptBrokersWithholdsCredentials(t *testing.T) {
	rc := startResetCluster(t)
	code, _, stderr := rc.kg(t, "reset", "g", "--to-earliest", "--topic", "orders:0", "--execute")
	if code != 0 {
		t.Fatalf("reset: exit %d: %s", code, stderr)
	}
	path := receiptPath(t, stderr)
	// The same brokers in another order: a change, so not signed.
	brokers := strings.Split(rc.brokers, ",")
	slices.Reverse(brokers)
	planted := plantReceipt(t, path, brokers)
	id := rc.lockCluster(t).ID
	t.Setenv("KGROUPS_SASL_MECHANISM", "PLAIN")
	t.Setenv("KGROUPS_SASL_USERNAME", "ops")
	t.Setenv("KGROUPS_SASL_PASSWORD", "not-for-a-file")

	code, stdout, stderr := runKgroups(t, "undo", planted, "--receipt-brokers")
	want := "kgroups: connecting to the brokers recorded in the receipt, without credentials: " + strings.Join(brokers, ",") + "\n" +
		"kgroups: the context's credentials were not sent: the receipt is not signed by your kgroups\n"
	if code != 0 || !strings.Contains(stderr, want) || !strings.Contains(stdout, "orders") {
		t.Fatalf("planted receipt: exit %d\nstdout %s\nstderr %s\nwant %s", code, stdout, stderr, want)
	}

	_, _, stderr = runKgroups(t, "undo", path, "--receipt-brokers")
	want = "kgroups: connecting to the brokers recorded in the receipt, without credentials: " + rc.brokers + "\n" +
		"kgroups: the cluster has the id the signed receipt records (" + id + "): connecting again with the context's credentials\n"
	if !strings.HasPrefix(stderr, want) {
		t.Fatalf("signed receipt: stderr\n%s\nwant prefix\n%s", stderr, want)
	}
}

// TestUndoUnsignedReceipt: a receipt edited by hand (checksum made right
// again, as anyone can) is shown as not signed; applying it needs --force
// and --confirm GROUP, as a protected context asks; one naming a group
// that does not exist does not create it without --new-group.
func TestUndoUnsignedReceipt(t *testing.T) {
	rc := startResetCluster(t)
	code, _, stderr := rc.kg(t, "reset", "g", "--to-earliest", "--topic", "orders:0", "--execute")
	if code != 0 {
		t.Fatalf("reset: exit %d: %s", code, stderr)
	}
	path := receiptPath(t, stderr)
	edited := editReceipt(t, path, `"before": 5`, `"before": 7`)
	warning := "Warning: receipt " + edited + ": its signature is not your kgroups' (it was changed after it was written, or written with another key)\n"

	code, _, stderr = rc.kg(t, "undo", edited)
	if code != 0 || !strings.HasPrefix(stderr, warning) {
		t.Fatalf("dry run: exit %d: %s", code, stderr)
	}
	code, _, stderr = rc.kg(t, "undo", edited, "--execute")
	want := warning + "kgroups: receipt " + edited + " is not signed by your kgroups: its signature is not your kgroups' (it was changed after it was written, or written with another key). Nothing was changed; check the group and offsets it records, then add --force and --confirm g to apply it\nRun 'kgroups undo --help' for usage.\n"
	if code != 2 || stderr != want {
		t.Fatalf("--execute: exit %d\n%s\nwant\n%s", code, stderr, want)
	}
	code, _, stderr = rc.kg(t, "undo", edited, "--execute", "--force")
	want = warning + "kgroups: receipt " + edited + " is not signed by your kgroups: to apply it, type the group's name again with --confirm g; nothing was changed\nRun 'kgroups undo --help' for usage.\n"
	if code != 2 || stderr != want {
		t.Fatalf("--execute --force: exit %d\n%s\nwant\n%s", code, stderr, want)
	}
	rc.assertCommits(t, "g", map[string]int64{"orders/0": 0, "orders/1": 10})
	code, _, stderr = rc.kg(t, "undo", edited, "--execute", "--force", "--confirm", "g")
	if code != 0 {
		t.Fatalf("--execute --force --confirm g: exit %d: %s", code, stderr)
	}
	rc.assertCommits(t, "g", map[string]int64{"orders/0": 7, "orders/1": 10})

	// A group that does not exist.
	ghost := editReceipt(t, path, `"group": "g"`, `"group": "ghost"`)
	code, _, stderr = rc.kg(t, "undo", ghost, "--execute", "--force", "--confirm", "ghost")
	want = "kgroups: receipt " + ghost + ` names group "ghost", which does not exist on this cluster, and the receipt is not signed by your kgroups: restoring it would create the group. Nothing was changed; check the name, or pass --new-group to create it` + "\n"
	if code != 1 || !strings.HasSuffix(stderr, want) {
		t.Fatalf("unsigned, new group: exit %d\n%s\nwant suffix\n%s", code, stderr, want)
	}
	if rc.GroupInfo("ghost") != nil {
		t.Fatal("group ghost was created")
	}
	code, _, stderr = rc.kg(t, "undo", ghost, "--execute", "--force", "--confirm", "ghost", "--new-group")
	if code != 0 {
		t.Fatalf("with --new-group: exit %d: %s", code, stderr)
	}
	rc.assertCommits(t, "ghost", map[string]int64{"orders/0": 5})
}
