package reset_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka/receipt"
	"github.com/kgroups/kgroups/kafka/reset"
)

// receiptsDir is the receipts folder of a state directory of the test's
// own (XDG_STATE_HOME), so that receipts are signed and verified with its
// key.
func receiptsDir(t *testing.T) string {
	t.Helper()
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	return filepath.Join(state, "kgroups", "receipts")
}

// sealed writes a reset receipt as kgroups does and returns its path and
// text.
func sealed(t *testing.T) (string, string) {
	t.Helper()
	five, zero := int64(5), int64(0)
	r := &reset.Receipt{
		Header: receipt.Header{Version: receipt.Version, Action: receipt.ActionReset, Cluster: []string{"k1:9092"},
			Group: "orders", Time: time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC), User: "alice"},
		Scenario: "--to-earliest", Scope: "--topic t", GroupState: "Empty",
		Offsets: []reset.ReceiptOffset{{Topic: "t", Partition: 0, Before: &five, After: &zero}},
	}
	path, err := reset.WriteReceipt(receiptsDir(t), r)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"checksum": "sha256:`) {
		t.Fatalf("receipt without a checksum:\n%s", data)
	}
	return path, string(data)
}

func rewrite(t *testing.T, path, data, old, repl string) {
	t.Helper()
	if !strings.Contains(data, old) {
		t.Fatalf("%q not in the receipt", old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(data, old, repl, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestReceiptAsWrittenLoadsWithoutNotes(t *testing.T) {
	path, _ := sealed(t)
	r, notes, err := reset.ReadReceipt(context.Background(), path, false)
	if err != nil || len(notes) != 0 || r.Group != "orders" || r.Authenticity != receipt.Signed {
		t.Fatalf("ReadReceipt = %+v, %v, %v", r, notes, err)
	}
}

func TestTamperedReceiptIsRefused(t *testing.T) {
	path, data := sealed(t)
	rewrite(t, path, data, `"group": "orders"`, `"group": "payments"`)
	_, _, err := reset.ReadReceipt(context.Background(), path, false)
	if err == nil || !strings.Contains(err.Error(), "receipt "+path+": its checksum does not match its contents") ||
		!strings.Contains(err.Error(), "add --force to use it anyway") {
		t.Fatalf("ReadReceipt of an edited receipt: %v", err)
	}
	if _, err := reset.LoadReceipt(path); err == nil {
		t.Fatal("LoadReceipt accepted an edited receipt")
	}

	// --force goes ahead, with a warning naming the mismatch.
	r, notes, err := reset.ReadReceipt(context.Background(), path, true)
	if err != nil || r.Group != "payments" {
		t.Fatalf("ReadReceipt with force: %+v, %v", r, err)
	}
	if len(notes) != 2 || !notes[0].Warning || !strings.Contains(notes[0].Text, "checksum does not match") || !strings.HasSuffix(notes[0].Text, "going ahead because of --force") {
		t.Fatalf("notes %+v, want a warning about the checksum, then the signature", notes)
	}
	if want := (reset.ReceiptNote{Warning: true, Text: "receipt " + path + ": its signature is not your kgroups' (it was changed after it was written, or written with another key)"}); notes[1] != want || r.Authenticity != receipt.Foreign {
		t.Fatalf("signature note %+v (%v), want %+v", notes[1], r.Authenticity, want)
	}
}

// An unknown action is refused even when the checksum was recomputed: the
// action is checked on its own.
func TestUnknownActionIsRefused(t *testing.T) {
	path, data := sealed(t)
	rewrite(t, path, data, `"action": "reset"`, `"action": "rewind"`)
	// Re-seal it, so that only the action is wrong.
	edited, _, err := reset.ReadReceipt(context.Background(), path, true)
	if err != nil {
		t.Fatal(err)
	}
	resealed, err := receipt.Write(filepath.Dir(path), edited)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = reset.ReadReceipt(context.Background(), resealed, false)
	want := `receipt ` + resealed + `: unknown action "rewind"; undo restores the offsets recorded by reset, undo, delete-offsets, delete-group. Add --force to use it anyway`
	if err == nil || err.Error() != want {
		t.Fatalf("ReadReceipt of an unknown action: %v\nwant %s", err, want)
	}
	_, notes, err := reset.ReadReceipt(context.Background(), resealed, true)
	if err != nil || len(notes) != 1 || !notes[0].Warning || !strings.Contains(notes[0].Text, `unknown action "rewind"`) {
		t.Fatalf("with force: %+v, %v", notes, err)
	}
}

// A receipt written before checksums loads, with a note saying so.
func TestOldReceiptLoadsWithANote(t *testing.T) {
	receiptsDir(t)
	path := "testdata/20240101T010000.000Z-reset-g.json"
	r, notes, err := reset.ReadReceipt(context.Background(), path, false)
	if err != nil || r.Group != "g" {
		t.Fatalf("ReadReceipt(%s) = %+v, %v", path, r, err)
	}
	want := []reset.ReceiptNote{
		{Text: "receipt " + path + ": no checksum (written by an older kgroups)"},
		{Warning: true, Text: "receipt " + path + ": it is unsigned: not written by your kgroups (another user's, a kgroups before signed receipts, or made by hand)"},
	}
	if !reflect.DeepEqual(notes, want) || r.Authenticity != receipt.Unsigned {
		t.Fatalf("notes %+v, want %+v", notes, want)
	}
}

// A receipt that is a link to /dev/zero is refused before anything is
// read: a receipt is a regular file (a FIFO would hold the read until a
// writer came, a device never ends).
func TestReceiptLinkedToDevZeroIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "20260301T093000.000Z-reset-g.json")
	if err := os.Symlink("/dev/zero", path); err != nil {
		t.Skip(err)
	}
	_, _, err := reset.ReadReceipt(context.Background(), path, false)
	want := "receipt " + path + " is a device, not a regular file: give the path of a receipt kgroups wrote"
	if err == nil || err.Error() != want {
		t.Fatalf("ReadReceipt of a link to /dev/zero: %v\nwant %s", err, want)
	}
}

// A receipt over 16 MiB is refused, not read whole.
func TestReceiptTooLargeIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "20260301T093000.000Z-reset-g.json")
	if err := os.WriteFile(path, make([]byte, config.MaxReceiptBytes+1), 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err := reset.ReadReceipt(context.Background(), path, false)
	var tl *config.TooLargeError
	if !errors.As(err, &tl) || tl.Limit != config.MaxReceiptBytes || tl.Name != path || !strings.Contains(err.Error(), "is larger than 16 MiB") {
		t.Fatalf("ReadReceipt of 16 MiB and a byte: %v, want a *config.TooLargeError at 16 MiB", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := reset.ReadReceipt(ctx, path, false); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v, want context.Canceled", err)
	}
}

// TestReceiptKeepsAGroupIDThatIsNotUTF8 checks that a group id with bytes
// JSON cannot carry reads back exactly, so that undo acts on that group and
// not on one named with U+FFFD, and that its checksum still holds.
func TestReceiptKeepsAGroupIDThatIsNotUTF8(t *testing.T) {
	five, zero := int64(5), int64(0)
	group := "bad\xff\xfename"
	r := &reset.Receipt{
		Header: receipt.Header{Version: receipt.Version, Action: receipt.ActionReset, Cluster: []string{"k1:9092"},
			Group: group, Time: time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC), User: "alice"},
		Scenario: "--to-earliest", Scope: "--topic t", GroupState: "Empty",
		Offsets: []reset.ReceiptOffset{{Topic: "t", Partition: 0, Before: &five, After: &zero}},
	}
	path, err := reset.WriteReceipt(receiptsDir(t), r)
	if err != nil {
		t.Fatal(err)
	}
	if r.Group != group {
		t.Fatalf("WriteReceipt changed the caller's group to %q", r.Group)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"group": "bad`+"\uFFFD"+`name"`) || !strings.Contains(string(data), `"groupBase64": "YmFk//5uYW1l"`) {
		t.Fatalf("receipt text:\n%s", data)
	}
	got, notes, err := reset.ReadReceipt(context.Background(), path, false)
	if err != nil || len(notes) != 0 || got.Group != group {
		t.Fatalf("ReadReceipt = %q, %v, %v; want the exact bytes %q", got.Group, notes, err, group)
	}

	// groupBase64 naming another group than "group" is an edit: the
	// checksum refuses it, and --force does not paper over the mismatch.
	rewrite(t, path, string(data), `"groupBase64": "YmFk//5uYW1l"`, `"groupBase64": "b3JkZXJz"`)
	if _, _, err := reset.ReadReceipt(context.Background(), path, true); err == nil || !strings.Contains(err.Error(), "name different groups") {
		t.Fatalf("ReadReceipt of a receipt whose group and groupBase64 disagree: %v", err)
	}
}
