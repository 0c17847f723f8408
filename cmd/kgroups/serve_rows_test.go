package main

import (
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
