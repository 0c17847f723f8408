package kafka_test

import (
	"context"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// TestSetMidPoll: the function SetMidPoll gives runs once in every poll,
// whether the poll reads every group, some or none, and the poll's
// answer is the same with it as without.
func TestSetMidPoll(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "a", 3)
	c.Commit(t, "g1", map[string]map[int32]int64{"a": {0: 1, 1: 2, 2: 3}})
	c.Commit(t, "g2", map[string]map[int32]int64{"a": {0: 4}})

	var runs atomic.Int32
	with := c.Client(t, kgo.MaxVersions(kversion.V3_9_0()))
	with.SetMidPoll(func() { runs.Add(1) })
	without := c.Client(t, kgo.MaxVersions(kversion.V3_9_0()))

	got, want := poll(t, with), poll(t, without)
	if n := runs.Load(); n != 1 {
		t.Fatalf("after one poll the function ran %d times, want 1", n)
	}
	if !reflect.DeepEqual(got.Groups, want.Groups) {
		t.Errorf("the poll's groups differ with the function set:\n%+v\nwant\n%+v", got.Groups, want.Groups)
	}
	poll(t, with)
	if n := runs.Load(); n != 2 {
		t.Fatalf("after two polls the function ran %d times, want 2", n)
	}

	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()
	for _, names := range [][]string{{"g2"}, {"absent"}} {
		before := runs.Load()
		if _, err := with.PollGroups(ctx, names...); err != nil {
			t.Fatalf("poll %v: %v", names, err)
		}
		if n := runs.Load() - before; n != 1 {
			t.Errorf("a poll of %v ran the function %d times, want 1", names, n)
		}
	}

	empty := kafkatest.NewCluster(t).Client(t)
	var emptyRuns atomic.Int32
	empty.SetMidPoll(func() { emptyRuns.Add(1) })
	poll(t, empty)
	if n := emptyRuns.Load(); n != 1 {
		t.Errorf("a poll of a cluster without groups ran the function %d times, want 1", n)
	}
}
