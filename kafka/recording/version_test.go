package recording

import (
	"bytes"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka/fixture"
)

// pinnedPolls are the polls of testdata/v1.kgrec: the evolving fixture
// as it was when the file was written, when fraud-scoring's payments/1
// stood from poll 1 on as its other partitions do.
func pinnedPolls() (Header, []Poll) {
	polls := evolvingPolls(6)
	for i := 2; i < len(polls); i++ {
		for gi := range polls[i].Snapshot.Groups {
			g := &polls[i].Snapshot.Groups[gi]
			for pi := range g.Partitions {
				if p := &g.Partitions[pi]; g.Name == "fraud-scoring" && p.Partition == 1 {
					p.Committed = p.LogEnd - 25*int64(i-1)
					p.Lag = p.LogEnd - p.Committed
				}
			}
		}
	}
	polls[3].Snapshot = hostile(polls[3].Snapshot.Time)
	h := Header{Version: 1, Started: fixture.Epoch.In(time.Local), Refresh: fixture.PollEvery, Window: time.Minute, Groups: []string{"orders-app"}, Cluster: []string{"kafka-1.internal:9092"}, Program: "kgroups pinned"}
	return h, polls
}

// TestReadsVersion1 reads a recording written in format version 1 and
// kept as written: every later build must read it the same. The writer
// must still write it byte for byte; a change to the layout takes a new
// Version, and this file stays for the reader.
func TestReadsVersion1(t *testing.T) {
	b, err := os.ReadFile("testdata/v1.kgrec")
	if err != nil {
		t.Fatal(err)
	}
	h, polls := pinnedPolls()
	r, got := readAll(t, b)
	if !reflect.DeepEqual(r.Header, h) || len(got) != len(polls) {
		t.Fatalf("header %+v, %d polls", r.Header, len(got))
	}
	for i, p := range polls {
		if want := asRecorded(p.Snapshot); !reflect.DeepEqual(got[i].Snapshot, want) || !reflect.DeepEqual(got[i].Exact, p.Exact) {
			t.Fatalf("poll %d reads otherwise than it was written", i)
		}
	}
	if now := record(t, h, polls); !bytes.Equal(now, b) {
		t.Fatalf("the writer no longer writes version 1 as it did (%d bytes, pinned %d): a new layout takes a new Version", len(now), len(b))
	}
}
