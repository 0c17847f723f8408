//go:build unix

package debuglog

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A FIFO would block the open until a reader came, and a device may be the
// terminal the UI draws on: both are refused.
func TestOpenRefusesFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(fifo); err == nil || !strings.Contains(err.Error(), fifo) || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("FIFO: %v", err)
	}
	if _, err := Open("/dev/null"); err == nil || !strings.Contains(err.Error(), "/dev/null is not a regular file") {
		t.Errorf("device: %v", err)
	}
}

// A symbolic link at the log's path is refused, dangling or not: the file
// it points to is neither appended to nor made private, and a dangling
// link's target is not created.
func TestOpenRefusesSymbolicLinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "precious")
	if err := os.WriteFile(target, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(target, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "debug.log")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	want := "debug log " + link + " is a symbolic link: give the path of a file of your own (kgroups does not follow links for its log)"
	if _, err := Open(link); err == nil || err.Error() != want {
		t.Fatalf("link: %v\nwant %s", err, want)
	}
	if st, err := os.Stat(target); err != nil || st.Mode().Perm() != 0o644 || st.Size() != 5 {
		t.Fatalf("the link's target was changed: %v %v", st.Mode(), err)
	}
	dangling := filepath.Join(dir, "dangling.log")
	gone := filepath.Join(dir, "made-by-the-log")
	if err := os.Symlink(gone, dangling); err != nil {
		t.Fatal(err)
	}
	want = "debug log " + dangling + " is a symbolic link: give the path of a file of your own (kgroups does not follow links for its log)"
	if _, err := Open(dangling); err == nil || err.Error() != want {
		t.Fatalf("dangling link: %v\nwant %s", err, want)
	}
	if _, err := os.Lstat(gone); !os.IsNotExist(err) {
		t.Fatalf("the dangling link's target was created: %v", err)
	}
}
