package recording

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka/lag"
)

// TestCatalog: a catalog lists every poll's time and whether it took a
// snapshot without decoding them, and Walk reads the polls ReadAll reads.
func TestCatalog(t *testing.T) {
	polls := evolvingPolls(9)
	polls[4] = Poll{Time: polls[4].Time, Err: errors.New("dial tcp: refused")}
	b := record(t, Header{Refresh: 5e9}, polls)
	file := filepath.Join(t.TempDir(), "r.kgrec")
	if err := os.WriteFile(file, b[:len(b)-3], 0o600); err != nil { // the last poll torn
		t.Fatal(err)
	}
	c, err := OpenCatalog(file)
	if err != nil {
		t.Fatal(err)
	}
	if c.Len() != 8 || c.Snapshots() != 7 || c.Torn == nil || c.Header.Refresh != 5e9 {
		t.Fatalf("%d polls, %d snapshots, torn %v, header %+v", c.Len(), c.Snapshots(), c.Torn, c.Header)
	}
	for i := range c.Len() {
		if !c.Times[i].Equal(polls[i].Time) || c.Taken[i] != (polls[i].Snapshot != nil) {
			t.Errorf("poll %d: %v %v", i, c.Times[i], c.Taken[i])
		}
	}
	if c.Index(polls[4].Time) != 3 || c.Index(polls[5].Time) != 5 || !c.Start().Equal(polls[0].Time) || !c.End().Equal(polls[7].Time) {
		t.Errorf("Index %d %d, Start %v, End %v", c.Index(polls[4].Time), c.Index(polls[5].Time), c.Start(), c.End())
	}
	_, whole := readAll(t, b)
	n := 0
	if err := c.Walk(6, func(i int, p *Poll) {
		if i != n || !reflect.DeepEqual(p, whole[i]) {
			t.Errorf("Walk gives poll %d as %+v", i, p)
		}
		n++
	}); err != nil || n != 7 {
		t.Fatalf("Walk read %d polls: %v", n, err)
	}
	// A file cut shorter since: Walk says so.
	if err := os.WriteFile(file, b[:len(b)/3], 0o600); err != nil {
		t.Fatal(err)
	}
	if err := c.Walk(7, func(int, *Poll) {}); err == nil || !strings.Contains(err.Error(), "when it was read") {
		t.Errorf("Walk past the end: %v", err)
	}
}

// TestCatalogOfAFolder: a folder of serve --record's files reads as one
// recording (14 polls at 5s, a file every 20s: 4, 4, 4 and 2), judged
// across the files as one tracker judged the polls.
func TestCatalogOfAFolder(t *testing.T) {
	dir := t.TempDir()
	polls := evolvingPolls(14)
	live := lag.NewTracker(Header{}.Config())
	r := &Rotating{Name: InDir(dir), MaxAge: 20 * time.Second}
	for _, p := range polls {
		Feed(live, &p)
		if err := r.Write(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	c, err := OpenCatalog(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Files()) != 4 || c.Len() != len(polls) || c.Torn != nil {
		t.Fatalf("%d files, %d polls, torn %v", len(c.Files()), c.Len(), c.Torn)
	}
	re := lag.NewTracker(c.Header.Config())
	var last *Poll
	if err := c.Walk(c.Len()-1, func(i int, p *Poll) {
		if !p.Time.Equal(polls[i].Time) {
			t.Fatalf("poll %d at %v, want %v", i, p.Time, polls[i].Time)
		}
		Feed(re, p)
		last = p
	}); err != nil {
		t.Fatal(err)
	}
	for gi := range last.Snapshot.Groups {
		if a, b := re.Group(last.Snapshot, gi), live.Group(last.Snapshot, gi); !reflect.DeepEqual(a, b) {
			t.Errorf("%s: %+v across the files, %+v in one", last.Snapshot.Groups[gi].Name, a, b)
		}
	}
	if _, err := OpenCatalog(t.TempDir()); err == nil || !strings.Contains(err.Error(), "holds no recording (files named kgroups-*.kgrec)") {
		t.Errorf("an empty folder: %v", err)
	}
}
