//go:build unix

package receipt

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO planted at the key's name or at a group's lock name is refused
// at once, not waited on until a writer comes: signing, verifying and
// locking return an *UnsafeFileError naming it.
func TestStateFilesRefuseAFIFO(t *testing.T) {
	state := t.TempDir()
	dir := filepath.Join(state, "receipts")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	keyPath := filepath.Join(state, KeyFile)
	lockPath := filepath.Join(dir, lockName(cluster, "g"))
	for _, p := range []string{keyPath, lockPath} {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r := &note{Header: Header{Version: Version, Action: ActionReset, Cluster: []string{"k1:9092"}, Group: "g", Time: at, User: "alice"}, Text: "x"}
	r.Signature = "hmac-sha256:00"
	wantKey := "refusing to use " + keyPath + ": it is not a regular file (a named pipe). kgroups keeps its receipts, locks and key only in files and folders of its own (not links, owned by you, private); remove or fix it and try again"
	wantLock := "refusing to use " + lockPath + ": it is not a regular file (a named pipe). kgroups keeps its receipts, locks and key only in files and folders of its own (not links, owned by you, private); remove or fix it and try again"
	for _, tc := range []struct {
		name string
		do   func() error
		want string
	}{
		{"Write", func() error { _, err := Write(dir, r); return err }, "sign receipt: " + wantKey},
		{"Verify", func() error { _, err := Verify(r, state); return err }, wantKey},
		{"LockGroup", func() error {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_, err := LockGroup(ctx, dir, cluster, "g")
			return err
		}, wantLock},
	} {
		done := make(chan error, 1)
		go func() { done <- tc.do() }()
		select {
		case err := <-done:
			if err == nil || err.Error() != tc.want {
				t.Errorf("%s: %v\nwant %s", tc.name, err, tc.want)
			}
		case <-time.After(3 * time.Second):
			t.Fatalf("%s waits on the FIFO", tc.name)
		}
	}
}

// A state folder others can add files to is refused even with the
// sticky bit (as /tmp has): it stops them replacing the key, not making
// a key, a lock or a link of their own first.
func TestStickySharedStateFolderRefused(t *testing.T) {
	state := filepath.Join(t.TempDir(), "shared")
	if err := os.Mkdir(state, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(state, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(state, 0o700) })
	r := &note{Header: Header{Version: Version, Action: ActionReset, Cluster: []string{"k1:9092"}, Group: "g", Time: at, User: "alice"}, Text: "x"}
	want := "sign receipt: refusing to use " + state + ": it is a shared folder that others can add files to (mode 1777, sticky); fix with: chmod 700 " + state + ", or point XDG_STATE_HOME at a folder of your own. kgroups keeps its receipts, locks and key only in files and folders of its own (not links, owned by you, private); remove or fix it and try again"
	if _, err := Write(filepath.Join(state, "receipts"), r); err == nil || err.Error() != want {
		t.Fatalf("Write: %v\nwant %s", err, want)
	}
	if _, err := os.Stat(filepath.Join(state, KeyFile)); err == nil {
		t.Fatal("a key was made in the shared folder")
	}
}
