package recording

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestRotating: a full file is closed and the next one starts, named
// after the first, each a whole recording with its own first poll.
func TestRotating(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "night.kgrec")
	polls := evolvingPolls(12)
	maxBytes := int64(len(record(t, Header{Refresh: 5 * time.Second}, polls[:3])))
	r := &Rotating{Name: Numbered(base), Header: Header{Refresh: 5 * time.Second}, MaxBytes: maxBytes}
	for _, p := range polls {
		if err := r.Write(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	files := r.Files()
	if len(files) < 3 || files[0] != base || files[1] != filepath.Join(dir, "night.2.kgrec") || files[2] != filepath.Join(dir, "night.3.kgrec") {
		t.Fatalf("files %q", files)
	}
	for _, f := range files[:len(files)-1] {
		if st, err := os.Stat(f); err != nil || st.Size() < maxBytes {
			t.Errorf("%s was closed before it was full (%d bytes): %v", f, maxBytes, err)
		}
	}
	n := 0
	for i, f := range files {
		rec, err := Load(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !rec.Header.Started.Equal(polls[n].Time) || rec.Header.Refresh != 5*time.Second {
			t.Errorf("%s: header %+v, want it started at poll %d", f, rec.Header, n)
		}
		for _, p := range rec.Polls {
			if !p.Time.Equal(polls[n].Time) {
				t.Fatalf("file %d: poll at %v, want poll %d at %v", i, p.Time, n, polls[n].Time)
			}
			n++
		}
		if st, err := os.Stat(f); err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v, %v", f, st, err)
		}
	}
	if n != len(polls) {
		t.Errorf("the files hold %d polls, want %d", n, len(polls))
	}

	// By age alone: 20s at 5s a poll is five polls a file.
	r = &Rotating{Name: Numbered(filepath.Join(dir, "age.kgrec")), MaxAge: 20 * time.Second}
	for _, p := range polls {
		if err := r.Write(p); err != nil {
			t.Fatal(err)
		}
	}
	_ = r.Close()
	if got := len(r.Files()); got != 3 {
		t.Errorf("by age: %d files, want 3 (5, 5 and 2 polls)", got)
	}
}

// TestPruneDir removes the oldest files past the size cap, never the
// current one.
func TestPruneDir(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	var names []string
	for i := range 5 {
		name := InDir(dir)(i+1, start.Add(time.Duration(i)*time.Hour))
		if err := os.WriteFile(name, make([]byte, 100), 0o600); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	removed, err := PruneDir(dir, names[4], 250, 0, start.Add(5*time.Hour))
	if err != nil || len(removed) != 3 || removed[0] != names[0] || removed[2] != names[2] {
		t.Fatalf("removed %q: %v", removed, err)
	}
	// By age: a file whose polls ended more than keep ago.
	removed, err = PruneDir(dir, names[4], 0, 30*time.Minute, start.Add(5*time.Hour))
	if err != nil || len(removed) != 1 || removed[0] != names[3] {
		t.Fatalf("removed %q: %v", removed, err)
	}
	left, _ := DirFiles(dir)
	if len(left) != 1 || left[0].Path != names[4] {
		t.Errorf("left %+v", left)
	}
	if _, err := os.Stat(filepath.Join(dir, "notes.txt")); err != nil {
		t.Errorf("a file not of the recording went: %v", err)
	}
}
