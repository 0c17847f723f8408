package recording

import (
	"bytes"
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/demo"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/watch"
)

// TestReplayOfTheDemoJudgesAsLive records the demo cluster (classic
// groups of every assignor, a KIP-848 group, a share group, static
// members, a member that comes and goes, a group that never commits)
// while judging it live, polls stamped 5s apart, and replays the file:
// every verdict, partition, finding and series is the live one.
func TestReplayOfTheDemoJudgesAsLive(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the demo cluster")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	d, err := demo.Start(ctx, demo.Options{ChurnInterval: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	cl, err := kafka.Connect(ctx, config.Cluster{Brokers: d.Addrs()})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()

	start := time.Date(2026, 12, 2, 3, 0, 0, 0, time.Local)
	h := Header{Version: Version, Started: start, Refresh: 5 * time.Second}
	var file bytes.Buffer
	w, err := NewWriter(&file, h)
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	rec := &Recorder{Loop: watch.Loop{
		Poll: func(ctx context.Context) (*kafka.Snapshot, error) {
			s, err := cl.Poll(ctx)
			if s != nil {
				s.Time = start.Add(time.Duration(i) * h.Refresh)
			}
			return s, err
		},
		Read:    cl.CommittedTimestamps,
		Tracker: lag.NewTracker(h.Config()),
	}, Sink: w}
	const polls = 24
	var live []judged
	types := map[kafka.GroupType]bool{}
	for ; i < polls; i++ {
		snap, _, err, werr := rec.Step(ctx)
		if err != nil || werr != nil {
			t.Fatalf("poll %d: %v, %v", i, err, werr)
		}
		for _, g := range snap.Groups {
			types[g.Type] = true
		}
		live = append(live, judge(rec.Tracker, snap))
		time.Sleep(150 * time.Millisecond) // the workload moves between polls
	}
	if !types[kafka.TypeClassic] || !types[kafka.TypeConsumer] || !types[kafka.TypeShare] {
		t.Errorf("the demo's polls lack a group type: %v", types)
	}
	got, err := ReadAll(bytes.NewReader(file.Bytes()))
	if err != nil || len(got.Polls) != polls {
		t.Fatalf("read %d polls: %v", len(got.Polls), err)
	}
	re := lag.NewTracker(got.Header.Config())
	for i, p := range got.Polls {
		Feed(re, p)
		if j := judge(re, p.Snapshot); !reflect.DeepEqual(j, live[i]) {
			t.Fatalf("poll %d: the replay judges otherwise\n live %s\nreplay %s", i, show(live[i]), show(j))
		}
	}
	t.Logf("%d polls of the demo, %d bytes", polls, file.Len())
}
