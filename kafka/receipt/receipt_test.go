package receipt

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// note is a receipt as a writer defines one: the header, then its own
// fields.
type note struct {
	Header
	Text string `json:"text"`
}

var at = time.Date(2026, 3, 1, 9, 30, 0, 123_000_000, time.FixedZone("CET", 3600))

func TestWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "receipts")
	key := plantKey(t, filepath.Dir(dir))
	r := &note{Header: Header{Version: Version, Action: ActionReset, Cluster: []string{"k1:9092"}, Group: "orders app", Time: at, User: "alice"}, Text: "x"}
	path, err := Write(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	// The name is the UTC time, the action and the group made file-safe.
	if want := filepath.Join(dir, "20260301T083000.123Z-reset-orders_app.json"); path != want {
		t.Fatalf("path %s, want %s", path, want)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "version": 1,
  "action": "reset",
  "cluster": [
    "k1:9092"
  ],
  "group": "orders app",
  "time": "2026-03-01T09:30:00.123+01:00",
  "user": "alice",
  "checksum": "sha256:c1ec75b56e17ddd969a7a96b53a8b09fc7723af9d8c415cc350bedc3469f3a38",
  "signature": "SIG",
  "text": "x"
}
`
	want = strings.Replace(want, "SIG", compactMAC(t, key, []byte(want)), 1)
	if string(data) != want {
		t.Fatalf("receipt =\n%s\nwant\n%s", data, want)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("receipt mode %v, want 0600", st.Mode().Perm())
	}
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o700 {
		t.Errorf("directory mode %v, want 0700", st.Mode().Perm())
	}
	var back note
	if err := json.Unmarshal(data, &back); err != nil || back.Group != "orders app" || !back.Time.Equal(at) || back.Text != "x" {
		t.Fatalf("read back %+v, %v", back, err)
	}
	// The checksum is the SHA-256 of the file without its checksum line,
	// compacted, as docs/cli.md#receipt-checksums-and-signatures says.
	if got, want := compactSum(t, data), back.Checksum; got != want {
		t.Fatalf("checksum of the compacted body %s, recorded %s", got, want)
	}
	if note, err := Check(&back); note != "" || err != nil {
		t.Fatalf("Check of the receipt as written: %q, %v", note, err)
	}
	if sig, err := Verify(&back, filepath.Dir(dir)); sig != Signed || err != nil {
		t.Fatalf("Verify of the receipt as written: %v, %v", sig, err)
	}
}

// plantKey writes a known signing key into the state directory dir.
func plantKey(t *testing.T, dir string) []byte {
	t.Helper()
	key := bytes.Repeat([]byte{0x5a}, 32)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, KeyFile), []byte(hex.EncodeToString(key)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return key
}

// compactMAC is the signature
// docs/cli.md#receipt-checksums-and-signatures describes, computed from a
// receipt file's text: drop the "signature" line, compact, HMAC-SHA256
// with the key.
func compactMAC(t *testing.T, key, file []byte) string {
	t.Helper()
	var kept []string
	for _, line := range strings.Split(string(file), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), `"signature":`) {
			kept = append(kept, line)
		}
	}
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(strings.Join(kept, "\n"))); err != nil {
		t.Fatal(err)
	}
	m := hmac.New(sha256.New, key)
	m.Write(b.Bytes())
	return "hmac-sha256:" + hex.EncodeToString(m.Sum(nil))
}

// compactSum is the checksum
// docs/cli.md#receipt-checksums-and-signatures describes, computed from a
// receipt file's text: drop the "checksum" line, compact, SHA-256.
func compactSum(t *testing.T, file []byte) string {
	t.Helper()
	var kept []string
	for _, line := range strings.Split(string(file), "\n") {
		if l := strings.TrimSpace(line); !strings.HasPrefix(l, `"checksum":`) && !strings.HasPrefix(l, `"signature":`) {
			kept = append(kept, line)
		}
	}
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(strings.Join(kept, "\n"))); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b.Bytes())
	return "sha256:" + hex.EncodeToString(sum[:])
}

// A changed receipt fails Check; one without a checksum passes with a note.
func TestCheck(t *testing.T) {
	r := &note{Header: Header{Version: Version, Action: ActionReset, Cluster: []string{"k1:9092"}, Group: "orders", Time: at, User: "alice"}, Text: "x"}
	if note, err := Check(r); note != NoChecksumNote || err != nil {
		t.Fatalf("Check without a checksum = %q, %v; want %q", note, err, NoChecksumNote)
	}
	sum, err := Sum(r)
	if err != nil {
		t.Fatal(err)
	}
	r.Checksum = sum
	if again, _ := Sum(r); again != sum {
		t.Fatalf("Sum depends on the checksum field: %s then %s", sum, again)
	}
	r.Group = "payments"
	_, err = Check(r)
	var ce *ChecksumError
	if !errors.As(err, &ce) || ce.Recorded != sum || ce.Computed == sum {
		t.Fatalf("Check of a changed receipt = %v, want a *ChecksumError with recorded %s", err, sum)
	}
	if !strings.Contains(err.Error(), "checksum does not match") {
		t.Fatalf("error %q", err)
	}
}

// A receipt never replaces another: the same time, action and group get
// a numbered name, and the first file keeps its content.
func TestWriteRecordNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i := range 3 {
		p, err := WriteRecord(dir, at, ActionRemoveMembers, "g", map[string]int{"n": i})
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, filepath.Base(p))
	}
	want := []string{
		"20260301T083000.123Z-remove-members-g.json",
		"20260301T083000.123Z-remove-members-g-2.json",
		"20260301T083000.123Z-remove-members-g-3.json",
	}
	if strings.Join(paths, " ") != strings.Join(want, " ") {
		t.Fatalf("names %q, want %q", paths, want)
	}
	for i, name := range want {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if got, w := string(data), "{\n  \"n\": "+string(rune('0'+i))+"\n}\n"; got != w {
			t.Errorf("%s = %q, want %q", name, got, w)
		}
	}
}

func TestWriteRecordFailures(t *testing.T) {
	if _, err := WriteRecord("", at, ActionReset, "g", 1); err == nil || err.Error() != "no receipts directory" {
		t.Errorf("no directory: %v", err)
	}
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteRecord(filepath.Join(blocker, "receipts"), at, ActionReset, "g", 1); err == nil || !strings.Contains(err.Error(), "create receipts directory") {
		t.Errorf("directory under a file: %v", err)
	}
	dir := t.TempDir()
	if _, err := WriteRecord(dir, at, ActionReset, "g", func() {}); err == nil || !strings.Contains(err.Error(), "encode receipt") {
		t.Errorf("unencodable value: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a failed write left %d files", len(entries))
	}
}

func TestFileSafe(t *testing.T) {
	long := strings.Repeat("a", 150)
	for _, tt := range []struct{ in, want string }{
		{"orders-app_v2.1", "orders-app_v2.1"},
		{"a/b\\c d", "a_b_c_d"},
		{"../etc", ".._etc"},
		{"grüße", "gr__e"},
		{"", "_"},
		{long, long[:100]},
	} {
		if got := fileSafe(tt.in); got != tt.want {
			t.Errorf("fileSafe(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDefaultDir(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/var/lib/someone/state")
	if got, err := DefaultDir(); err != nil || got != "/var/lib/someone/state/kgroups/receipts" {
		t.Errorf("DefaultDir = %q, %v", got, err)
	}
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "/home/someone")
	if got, err := DefaultDir(); err != nil || got != "/home/someone/.local/state/kgroups/receipts" {
		t.Errorf("DefaultDir without XDG_STATE_HOME = %q, %v", got, err)
	}
}

func TestCurrentUser(t *testing.T) {
	if u := CurrentUser(); u == "" {
		t.Error("CurrentUser is empty")
	}
}
