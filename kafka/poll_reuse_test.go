package kafka_test

import (
	"context"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// rowsOf is the address of a group's first row: two snapshots whose
// group has the same one share its rows.
func rowsOf(t *testing.T, s *kafka.Snapshot, name string) *kafka.PartitionOffsets {
	t.Helper()
	g := mustGroup(t, s, name)
	if len(g.Partitions) == 0 {
		t.Fatalf("group %q has no rows", name)
	}
	return &g.Partitions[0]
}

// TestPollSharesUnchangedRows: a poll gives a group whose rows did not
// change since the poll before that poll's rows, so a process keeping
// the previous snapshot while the next is judged holds them once; a
// group whose commit moved, or whose log grew, gets rows of its own, and
// the rows shared are exactly the poll's. The client keeps no snapshot
// alive for it: rows no one holds any more are collected, and the next
// poll makes its own.
func TestPollSharesUnchangedRows(t *testing.T) {
	collected := make(chan struct{}, 1)
	func() {
		// The snapshots live only in this function.
		c := kafkatest.NewCluster(t)
		c.CreateTopic(t, "a", 3)
		c.CreateTopic(t, "b", 2)
		base := time.Now().Add(-time.Hour)
		for p := range int32(3) {
			c.Produce(t, "a", p, 5, base)
		}
		c.Commit(t, "rest", map[string]map[int32]int64{"a": {0: 5, 1: 5, 2: 5}})
		c.Commit(t, "moves", map[string]map[int32]int64{"a": {0: 1, 1: 1, 2: 1}})
		c.Commit(t, "grows", map[string]map[int32]int64{"b": {0: 0, 1: 0}})
		cl := c.Client(t, kgo.MaxVersions(kversion.V3_9_0()))

		s1 := poll(t, cl)
		c.Commit(t, "moves", map[string]map[int32]int64{"a": {0: 2, 1: 1, 2: 1}})
		c.Produce(t, "b", 1, 1, base)
		s2 := poll(t, cl)

		if rowsOf(t, s2, "rest") != rowsOf(t, s1, "rest") {
			t.Error("rest did not change, but the second poll holds rows of its own")
		}
		for _, name := range []string{"moves", "grows"} {
			if rowsOf(t, s2, name) == rowsOf(t, s1, name) {
				t.Errorf("%s changed, but the second poll shares the first's rows", name)
			}
		}
		if g := mustGroup(t, s2, "moves"); g.Partitions[0].Committed != 2 || g.Partitions[1].Committed != 1 {
			t.Errorf("moves: committed %d and %d, want 2 and 1", g.Partitions[0].Committed, g.Partitions[1].Committed)
		}
		if g := mustGroup(t, s2, "grows"); g.Partitions[1].LogEnd != 1 || g.Partitions[1].Lag != 1 {
			t.Errorf("grows/b-1: log end %d, lag %d, want 1 and 1", g.Partitions[1].LogEnd, g.Partitions[1].Lag)
		}

		// A one-group poll shares too, and leaves the memo to full polls.
		one, err := cl.PollGroups(context.Background(), "rest")
		if err != nil {
			t.Fatal(err)
		}
		if rowsOf(t, one, "rest") != rowsOf(t, s1, "rest") {
			t.Error("a one-group poll holds rows of its own for a group that did not change")
		}

		// Once nothing holds them, the client must not keep the rows
		// alive.
		runtime.AddCleanup(rowsOf(t, s1, "rest"), func(ch chan struct{}) { ch <- struct{}{} }, collected)
	}()
	deadline := time.After(kafkatest.WaitTimeout)
	for {
		runtime.GC()
		select {
		case <-collected:
			return
		case <-time.After(10 * time.Millisecond):
		case <-deadline:
			t.Fatal("the rows of snapshots no one holds were not collected: the client keeps them")
		}
	}
}

// TestPollForgetsRowsWhenAsked: a client told to forget rows (serve,
// which lets go of each poll before the next) gives every poll rows of
// its own, the same rows field for field as a client that remembers.
func TestPollForgetsRowsWhenAsked(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "a", 3)
	base := time.Now().Add(-time.Hour)
	for p := range int32(3) {
		c.Produce(t, "a", p, 5, base)
	}
	c.Commit(t, "rest", map[string]map[int32]int64{"a": {0: 5, 1: 4, 2: 3}})
	remembers := c.Client(t, kgo.MaxVersions(kversion.V3_9_0()))
	forgets := c.Client(t, kgo.MaxVersions(kversion.V3_9_0()))
	forgets.ForgetRows()

	s1, f1 := poll(t, remembers), poll(t, forgets)
	s2, f2 := poll(t, remembers), poll(t, forgets)
	if rowsOf(t, s2, "rest") != rowsOf(t, s1, "rest") {
		t.Error("the client that remembers gave the second poll rows of its own")
	}
	if rowsOf(t, f2, "rest") == rowsOf(t, f1, "rest") {
		t.Error("the client told to forget gave the second poll the first's rows")
	}
	for _, s := range []*kafka.Snapshot{f1, f2} {
		if got, want := mustGroup(t, s, "rest").Partitions, mustGroup(t, s2, "rest").Partitions; !slices.Equal(got, want) {
			t.Errorf("rows %+v, the remembering client's %+v", got, want)
		}
	}
}
