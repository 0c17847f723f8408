package receipt

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestTighten: a receipts folder open to others is made 0700 with a note;
// a private or missing one is left alone; WriteRecord tightens it too.
func TestTighten(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no modes")
	}
	base := t.TempDir()
	dir := filepath.Join(base, "receipts")
	if note, err := Tighten(dir); note != "" || err != nil {
		t.Fatalf("missing folder: %q, %v", note, err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Tighten created the folder: %v", err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []os.FileMode{0o755, 0o750, 0o777, 0o701} {
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
		note, err := Tighten(dir)
		want := fmt.Sprintf("the receipts directory %s had mode %04o, open to others; it is now 0700", dir, mode)
		if err != nil || note != want {
			t.Fatalf("mode %04o: %q, %v; want %q", mode, note, err, want)
		}
		if st, err := os.Stat(dir); err != nil || st.Mode().Perm() != 0o700 {
			t.Fatalf("mode %04o: now %v, %v", mode, st.Mode(), err)
		}
		if note, err := Tighten(dir); note != "" || err != nil {
			t.Fatalf("private folder: %q, %v", note, err)
		}
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteRecord(dir, time.Now(), "reset", "g", map[string]int{"a": 1}); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(dir); err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("after WriteRecord: %v, %v", st.Mode(), err)
	}
}
