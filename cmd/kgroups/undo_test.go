package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka/receipt"
	"github.com/kgroups/kgroups/kafka/reset"
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
	if want := "To undo: kgroups --config " + cfg + " --context prod undo " + undoPath + " --execute\n"; !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
}

// resign writes the receipt at path again, signed with this user's key,
// as this user's kgroups would have written it: a signed receipt whose
// brokers are a listener of someone else's.
func resign(t *testing.T, path string) string {
	t.Helper()
	rc, _, err := reset.ReadReceipt(context.Background(), path, true)
	if err != nil {
		t.Fatal(err)
	}
	rc.Checksum, rc.Signature = "", ""
	dir, err := receipt.DefaultDir()
	if err != nil {
		t.Fatal(err)
	}
	out, err := receipt.Write(dir, rc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestUndoReceiptBrokersWithholdsCredentials: --receipt-brokers never
// sends credentials to brokers the context does not list, whatever the
// receipt: not for a planted one, and not for one signed by this user's
// kgroups whose cluster id the brokers answer (a listener relaying to the
// real cluster answers its id). A catcher in front of the cluster hears
// no password. Only brokers the context itself lists get its credentials.
func TestUndoReceiptBrokersWithholdsCredentials(t *testing.T) {
	rc := startResetCluster(t)
	relay := startRecordingRelay(t, strings.Split(rc.brokers, ",")[0])
	code, _, stderr := rc.kg(t, "reset", "g", "--to-earliest", "--topic", "orders:0", "--execute")
	if code != 0 {
		t.Fatalf("reset: exit %d: %s", code, stderr)
	}
	signed := resign(t, plantReceipt(t, receiptPath(t, stderr), []string{relay.addr}))
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	writeFile(t, cfg, "current-context: ops\ncontexts:\n  - name: ops\n    brokers: [127.0.0.1:1]\n    sasl: {mechanism: PLAIN, username: "+plantedUser+", password: "+plantedPass+"}\n")

	for _, args := range [][]string{
		{"--config", cfg, "undo", signed, "--receipt-brokers"},
		{"--config", cfg, "--context", "ops", "undo", signed, "--receipt-brokers"},
	} {
		code, stdout, stderr := runKgroups(t, args...)
		want := "kgroups: the brokers " + relay.addr + " (receipt " + signed + ": cluster) are not context ops's: its credentials (sasl.mechanism, sasl.username, sasl.password) are not sent to them; to use them, name the cluster with --context ops or -b\n" +
			"kgroups: connecting to the brokers recorded in the receipt, without credentials: " + relay.addr + "\n"
		if code != 0 || stderr[:len(want)] != want || !strings.Contains(stdout, "orders") {
			t.Fatalf("%v: exit %d\nstdout %s\nstderr %s\nwant prefix %s", args, code, stdout, stderr, want)
		}
		if n, data := relay.received(); n == 0 || bytes.Contains(data, []byte(plantedPass)) || bytes.Contains(data, []byte(plantedUser)) {
			t.Fatalf("%v: the receipt's listener got %d connections, the password: %v", args, n, bytes.Contains(data, []byte(plantedPass)))
		}
	}

	// Credentials from the environment, no context: withheld too.
	t.Setenv("KGROUPS_SASL_MECHANISM", "PLAIN")
	t.Setenv("KGROUPS_SASL_USERNAME", plantedUser)
	t.Setenv("KGROUPS_SASL_PASSWORD", plantedPass)
	code, _, stderr = runKgroups(t, "undo", signed, "--receipt-brokers")
	want := "kgroups: connecting to the brokers recorded in the receipt, without credentials: " + relay.addr + "\n" +
		"kgroups: the credentials were not sent: a receipt's brokers get none unless the context names them; to use yours, name the cluster with -b or --context\n"
	if code != 0 || !strings.HasPrefix(stderr, want) {
		t.Fatalf("variables: exit %d\nstderr %s\nwant prefix %s", code, stderr, want)
	}
	if _, data := relay.received(); bytes.Contains(data, []byte(plantedPass)) {
		t.Fatal("the receipt's listener got the password from the environment")
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

// TestUndoRefusesDuplicateKeys: a signed receipt with a key inserted
// again (a duplicate "group", or "Group" before the real one) still had
// a valid checksum and signature, computed over what encoding/json
// decoded (the last value), while its text showed the first: refused,
// with nothing changed.
func TestUndoRefusesDuplicateKeys(t *testing.T) {
	rc := startResetCluster(t)
	code, _, stderr := rc.kg(t, "reset", "g", "--to-earliest", "--topic", "orders:0", "--execute")
	if code != 0 {
		t.Fatalf("reset: exit %d: %s", code, stderr)
	}
	path := receiptPath(t, stderr)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ insert, why string }{
		{`"group": "payments-PROD",`, `key "group" appears twice`},
		{`"Group": "payments-PROD",`, `key "group" appears twice (also as "Group")`},
		{`"GROUP": "payments-PROD",`, `key "group" appears twice (also as "GROUP")`},
	} {
		edited := filepath.Join(t.TempDir(), "dup.json")
		writeFile(t, edited, strings.Replace(string(data), `"group": "g",`, tc.insert+"\n  "+`"group": "g",`, 1))
		code, stdout, stderr := rc.kg(t, "undo", edited, "--execute")
		want := "kgroups: receipt " + edited + ": " + tc.why + ": a receipt whose text can say one thing while kgroups reads another is refused; kgroups never writes one, so check where it came from; nothing was changed\n"
		if code != 1 || stdout != "" || stderr != want {
			t.Fatalf("%s: exit %d\nstdout %q\nstderr %q\nwant   %q", tc.insert, code, stdout, stderr, want)
		}
	}
	rc.assertCommits(t, "g", map[string]int64{"orders/0": 0, "orders/1": 10})
}

// TestUndoWithoutAReceiptSaysWhereTheyAre: undo with no receipt names
// the folder kgroups writes them in, before connecting.
func TestUndoWithoutAReceiptSaysWhereTheyAre(t *testing.T) {
	isolateConfig(t)
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	code, stdout, stderr := runKgroups(t, "-b", "127.0.0.1:1", "undo")
	want := "kgroups: undo needs exactly one receipt file (got 0 arguments); kgroups writes them in " +
		filepath.Join(state, "kgroups", "receipts") + " (Tab completes them)\nRun 'kgroups undo --help' for usage.\n"
	if code != exitUsage || stdout != "" || stderr != want {
		t.Fatalf("exit %d stdout %q stderr %q, want exit 2 and %q", code, stdout, stderr, want)
	}
}
