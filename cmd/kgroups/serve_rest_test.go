package main

import (
	"bytes"
	"context"
	"runtime"
	"testing"
	"time"
	"weak"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// TestServeKeepsRowsAtRest: serve lets go of its last snapshot as a poll
// starts, but keeps the poll's rows, so that the next poll of a group
// that did not change takes them instead of making its own, however
// many collections ran in between; a group whose commit moved gets rows
// of its own, and the rows of the poll before are let go.
func TestServeKeepsRowsAtRest(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "rest-topic", 3)
	c.CreateTopic(t, "moves-topic", 2)
	base := time.Now().Add(-time.Hour)
	for p := range int32(3) {
		c.Produce(t, "rest-topic", p, 5, base)
	}
	for p := range int32(2) {
		c.Produce(t, "moves-topic", p, 5, base)
	}
	c.Commit(t, "rest", map[string]map[int32]int64{"rest-topic": {0: 5, 1: 5, 2: 5}})
	c.Commit(t, "moves", map[string]map[int32]int64{"moves-topic": {0: 1, 1: 1}})
	cl := c.Client(t, kgo.MaxVersions(kversion.V3_9_0()))
	// first is each poll's first row of a group, weakly: the test must
	// keep nothing alive itself.
	var first []map[string]weak.Pointer[kafka.PartitionOffsets]
	poll := func(ctx context.Context) (*kafka.Snapshot, error) {
		// Collections between the tracker's release and the poll: the
		// rows before are alive only if serve keeps them.
		runtime.GC()
		runtime.GC()
		s, err := cl.Poll(ctx)
		if err == nil {
			m := map[string]weak.Pointer[kafka.PartitionOffsets]{}
			for i := range s.Groups {
				if g := &s.Groups[i]; len(g.Partitions) > 0 {
					m[g.Name] = weak.Make(&g.Partitions[0])
				}
			}
			first = append(first, m)
		}
		return s, err
	}
	e := newExporter(serveOptions{interval: 5 * time.Second, timeout: kafkatest.WaitTimeout}, poll, nil, [2]string{"test", "go"})

	e.pollOnce(context.Background())
	c.Commit(t, "moves", map[string]map[int32]int64{"moves-topic": {0: 2, 1: 1}})
	e.pollOnce(context.Background())
	if len(first) != 2 {
		t.Fatalf("%d polls, want 2", len(first))
	}
	if a, b := first[0]["rest"].Value(), first[1]["rest"].Value(); a == nil || a != b {
		t.Errorf("rest did not change, but the second poll made rows of its own (the first's alive: %v)", a != nil)
	}
	if a, b := first[0]["moves"].Value(), first[1]["moves"].Value(); b == nil || a == b || b.Committed != 2 {
		t.Errorf("moves: the second poll's rows %p, the first's %p: want rows of its own, committed at 2", b, a)
	}
	if len(e.lastRows) != 2 {
		t.Errorf("%d groups' rows kept, want the last poll's 2", len(e.lastRows))
	}
}

// TestServeServesAnUnchangedPageAgain: on a cluster at rest, every group
// caught up, once the verdicts settle a poll changes no line of the
// groups' page, and serve serves the bytes of the poll before instead of
// copying them into a new page; they are still the full rendering of the
// poll's families, and the next poll writes its families into the ones
// left over. The first commit that moves writes a page again.
func TestServeServesAnUnchangedPageAgain(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "a", 3)
	base := time.Now().Add(-time.Hour)
	for p := range int32(3) {
		c.Produce(t, "a", p, 5, base)
	}
	c.Commit(t, "rest", map[string]map[int32]int64{"a": {0: 5, 1: 5, 2: 5}})
	c.Commit(t, "other", map[string]map[int32]int64{"a": {0: 5, 1: 5, 2: 5}})
	cl := c.Client(t, kgo.MaxVersions(kversion.V3_9_0()))
	e := newExporter(serveOptions{interval: 5 * time.Second, timeout: kafkatest.WaitTimeout}, cl.Poll, nil, [2]string{"test", "go"})
	for range 15 {
		e.pollOnce(context.Background())
	}
	if e.unchanged == 0 {
		t.Fatal("15 polls of a cluster at rest, and every one wrote a page")
	}
	before, n := &e.groupText[0], e.unchanged
	e.pollOnce(context.Background())
	if e.unchanged != n+1 || &e.groupText[0] != before {
		t.Fatal("a poll at rest wrote a new page")
	}
	if !bytes.Equal(e.groupText, e.groupFams.AppendText(nil)) {
		t.Fatal("the page served again is not the rendering of the poll's families")
	}
	// The families of a poll that changed no line are written again by
	// the next poll, which makes none of its own.
	scratch := e.scratch
	if scratch == nil {
		t.Fatal("no families kept from the poll that changed no line")
	}
	e.pollOnce(context.Background())
	n++
	if len(scratch.DTO()) != 0 || e.scratch == nil || e.scratch == scratch {
		t.Fatal("the poll at rest did not write its families into those of the poll before")
	}
	if !bytes.Contains(e.page.Load().text.bytes(), e.groupText) {
		t.Fatal("the page served does not hold the groups' bytes")
	}
	c.Commit(t, "other", map[string]map[int32]int64{"a": {0: 4, 1: 5, 2: 5}})
	e.pollOnce(context.Background())
	if e.unchanged != n+1 || &e.groupText[0] == before {
		t.Fatal("a commit moved, and the page of the poll before was served again")
	}
	if !bytes.Contains(e.groupText, []byte(`kgroups_group_lag_records{group="other"} 1`)) {
		t.Fatalf("the new page does not say other's lag:\n%s", e.groupText)
	}
}
