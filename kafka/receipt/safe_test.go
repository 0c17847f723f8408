package receipt

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

func skipWithoutModes(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("needs symbolic links and modes")
	}
}

// A symbolic link planted at a group's lock name is refused with its
// path, and the file it points to is left as it was.
func TestLockRefusesAPlantedLink(t *testing.T) {
	skipWithoutModes(t)
	dir := filepath.Join(t.TempDir(), "receipts")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(target, []byte("keep me\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, lockName(cluster, "g"))
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	_, err := LockGroup(context.Background(), dir, cluster, "g")
	want := "refusing to use " + path + ": it is a symbolic link. kgroups keeps its receipts, locks and key only in files and folders of its own (not links, owned by you, private); remove or fix it and try again"
	if err == nil || err.Error() != want {
		t.Fatalf("LockGroup with a planted link: %v\nwant %s", err, want)
	}
	if data, _ := os.ReadFile(target); string(data) != "keep me\n" {
		t.Fatalf("the link's target now holds %q", data)
	}
	// A dangling link too: nothing is created where it points.
	gone := filepath.Join(t.TempDir(), "made-by-the-lock")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(gone, path); err != nil {
		t.Fatal(err)
	}
	if _, err := LockGroup(context.Background(), dir, cluster, "g"); err == nil || err.Error() != want {
		t.Fatalf("LockGroup with a dangling link: %v\nwant %s", err, want)
	}
	if _, err := os.Lstat(gone); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the dangling link's target was created: %v", err)
	}
}

// A lock file another user could read or write is not used.
func TestLockRefusesALooseFile(t *testing.T) {
	skipWithoutModes(t)
	dir := filepath.Join(t.TempDir(), "receipts")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, lockName(cluster, "g"))
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	_, err := LockGroup(context.Background(), dir, cluster, "g")
	want := "refusing to use " + path + ": its mode is 0666, open to others (kgroups makes it 0600). kgroups keeps its receipts, locks and key only in files and folders of its own (not links, owned by you, private); remove or fix it and try again"
	if err == nil || err.Error() != want {
		t.Fatalf("LockGroup with a loose lock file: %v\nwant %s", err, want)
	}
}

// The receipts folder itself may not be a link: receipts and locks would
// land wherever it points.
func TestReceiptsFolderThatIsALinkIsRefused(t *testing.T) {
	skipWithoutModes(t)
	state := t.TempDir()
	elsewhere := t.TempDir()
	dir := filepath.Join(state, "receipts")
	if err := os.Symlink(elsewhere, dir); err != nil {
		t.Fatal(err)
	}
	want := "refusing to use " + dir + ": it is a symbolic link, not a folder. kgroups keeps its receipts, locks and key only in files and folders of its own (not links, owned by you, private); remove or fix it and try again"
	if _, err := LockGroup(context.Background(), dir, cluster, "g"); err == nil || err.Error() != want {
		t.Fatalf("LockGroup in a linked folder: %v\nwant %s", err, want)
	}
	r := &note{Header: Header{Version: Version, Action: ActionReset, Cluster: []string{"k1:9092"}, Group: "g", Time: at, User: "alice"}}
	if _, err := Write(dir, r); err == nil || err.Error() != want {
		t.Fatalf("Write in a linked folder: %v\nwant %s", err, want)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Fatalf("files written through the link: %v", entries)
	}
}

// Two spellings of one cluster's brokers take the same lock when the
// cluster id is the same: the id is the cluster's identity.
func TestLockKeyedByClusterID(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "receipts")
	a := Cluster{ID: "kfake-1", Brokers: []string{"localhost:9092"}}
	b := Cluster{ID: "kfake-1", Brokers: []string{"127.0.0.1:9092"}}
	l, err := LockGroup(context.Background(), dir, a, "g")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Unlock() }()
	if l.ClusterID != "kfake-1" {
		t.Errorf("lock's cluster id %q", l.ClusterID)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err = LockGroup(ctx, dir, b, "g")
	var le *LockedError
	if !errors.As(err, &le) || le.Path != l.Path {
		t.Fatalf("second spelling of the same cluster: %v, want the lock %s held", err, l.Path)
	}
}

// The signing key is made on first use, 0600, and used again; a key that
// is a link or open to others is refused by path; Verify tells a receipt
// signed with this key from an unsigned one and from one changed since.
func TestSigningKey(t *testing.T) {
	skipWithoutModes(t)
	state := t.TempDir()
	dir := filepath.Join(state, "receipts")
	r := &note{Header: Header{Version: Version, Action: ActionReset, Cluster: []string{"k1:9092"}, Group: "g", Time: at, User: "alice"}, Text: "x"}
	if _, err := Write(dir, r); err != nil {
		t.Fatal(err)
	}
	keyPath := filepath.Join(state, KeyFile)
	st, err := os.Lstat(keyPath)
	if err != nil || st.Mode().Perm() != 0o600 || !st.Mode().IsRegular() {
		t.Fatalf("key %s: %v, %v", keyPath, st, err)
	}
	if sig, err := Verify(r, state); sig != Signed || err != nil {
		t.Fatalf("Verify = %v, %v", sig, err)
	}
	r.Text = "y"
	if sig, err := Verify(r, state); sig != Foreign || err != nil {
		t.Fatalf("Verify after an edit = %v, %v", sig, err)
	}
	r.Signature = ""
	if sig, err := Verify(r, state); sig != Unsigned || err != nil {
		t.Fatalf("Verify without a signature = %v, %v", sig, err)
	}
	// Another user's key (another state directory) did not sign it.
	r.Text = "x"
	if _, err := Write(dir, r); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	if _, err := loadKey(other, true); err != nil {
		t.Fatal(err)
	}
	if sig, err := Verify(r, other); sig != Foreign || err != nil {
		t.Fatalf("Verify with another key = %v, %v", sig, err)
	}
	if sig, err := Verify(r, t.TempDir()); sig != Foreign || err != nil {
		t.Fatalf("Verify without any key = %v, %v", sig, err)
	}

	if err := os.Chmod(keyPath, 0o644); err != nil {
		t.Fatal(err)
	}
	want := "refusing to use " + keyPath + ": its mode is 0644, open to others (kgroups makes it 0600). kgroups keeps its receipts, locks and key only in files and folders of its own (not links, owned by you, private); remove or fix it and try again"
	if _, err := Verify(r, state); err == nil || err.Error() != want {
		t.Fatalf("Verify with a loose key: %v\nwant %s", err, want)
	}
	if _, err := Write(dir, r); err == nil || err.Error() != "sign receipt: "+want {
		t.Fatalf("Write with a loose key: %v\nwant sign receipt: %s", err, want)
	}

	if err := os.Remove(keyPath); err != nil {
		t.Fatal(err)
	}
	planted := filepath.Join(t.TempDir(), "attacker.key")
	if err := os.WriteFile(planted, []byte("5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(planted, keyPath); err != nil {
		t.Fatal(err)
	}
	want = "refusing to use " + keyPath + ": it is a symbolic link. kgroups keeps its receipts, locks and key only in files and folders of its own (not links, owned by you, private); remove or fix it and try again"
	if _, err := Write(dir, r); err == nil || err.Error() != "sign receipt: "+want {
		t.Fatalf("Write with a linked key: %v\nwant sign receipt: %s", err, want)
	}
}
