package main

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// TestServeServesAnUnchangedPageAgain: on a cluster at rest, every group
// caught up, once the verdicts settle a poll changes no line of the
// groups' page, and serve serves the bytes of the poll before instead of
// copying them into a new page; they are still the full rendering of the
// poll's families. The first commit that moves writes a page again.
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

// TestServeCollectsAsAPollStarts: each poll starts with a collection,
// made once the tracker has let go of the last poll, before the poll
// reads anything.
func TestServeCollectsAsAPollStarts(t *testing.T) {
	polls, collected := 0, 0
	var e *exporter
	poll := func(context.Context) (*kafka.Snapshot, error) {
		polls++
		if collected != polls {
			t.Errorf("poll %d read after %d collections, want %d", polls, collected, polls)
		}
		return &kafka.Snapshot{Time: time.Unix(int64(polls), 0)}, nil
	}
	e = newExporter(serveOptions{interval: 5 * time.Second, timeout: time.Minute}, poll, nil, [2]string{"test", "go"})
	e.gc = func() {
		if e.loop.Tracker.Now() != (time.Time{}) {
			t.Error("a collection while the tracker holds the last poll")
		}
		collected++
	}
	for range 3 {
		e.pollOnce(context.Background())
	}
	if polls != 3 || collected != 3 {
		t.Errorf("%d polls, %d collections, want 3 of each", polls, collected)
	}
}
