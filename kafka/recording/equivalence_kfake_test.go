package recording

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/watch"
)

// judged is everything the tracker answers about one poll: each group's
// verdict, its partitions, its findings at a glance, its time-lag series
// and its catch-up answer.
type judged struct {
	Now      time.Time
	Verdicts []lag.Verdict
	Health   []lag.GroupHealth
	Findings [][]diagnose.Finding
	Series   [][]lag.Point
	Counts   [3]int
	Judging  int
}

func judge(l *lag.Tracker, snap *kafka.Snapshot) judged {
	j := judged{Now: l.Now(), Judging: l.Judging()}
	j.Counts[0], j.Counts[1], j.Counts[2] = l.Counts()
	for i := range snap.Groups {
		name := snap.Groups[i].Name
		j.Verdicts = append(j.Verdicts, l.Group(snap, i))
		gh, _ := l.Evaluate(name, nil)
		j.Health = append(j.Health, gh)
		f, _ := watch.Findings(snap, l, i, nil)
		j.Findings = append(j.Findings, f)
		j.Series = append(j.Series, l.GroupSeries(name, nil))
	}
	return j
}

// TestReplayJudgesAsLive records a kfake cluster (3 brokers) with real
// kgo members, classic and KIP-848, that commit through their own
// clients, stall, rewind, leave and come back, while judging every poll
// live with exact reads at old commits; then replays the file into a new
// tracker. Every verdict, partition health, finding, time lag and series
// must be the same, poll by poll, bit for bit.
func TestReplayJudgesAsLive(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a kfake cluster")
	}
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 3)
	c.CreateTopic(t, "events", 2)
	cl := c.Client(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*kafkatest.WaitTimeout)
	defer cancel()

	start := time.Date(2025, 3, 1, 8, 0, 0, 0, time.Local)
	end := map[string]map[int32]int64{"orders": {}, "events": {}}
	produce := func(topic string, p int32, n int, at time.Time) {
		end[topic][p] = c.Produce(t, topic, p, n, at)
	}
	for p := range int32(3) {
		produce("orders", p, 20, start.Add(-time.Hour))
	}
	for p := range int32(2) {
		produce("events", p, 5, start.Add(-time.Hour))
	}
	commit := func(m *kafkatest.Member, topic string, p int32, off int64) {
		var cerr error
		m.Client.CommitOffsetsSync(ctx, map[string]map[int32]kgo.EpochOffset{topic: {p: {Epoch: -1, Offset: off}}},
			func(_ *kgo.Client, _ *kmsg.OffsetCommitRequest, resp *kmsg.OffsetCommitResponse, err error) {
				if err == nil {
					for _, rt := range resp.Topics {
						for _, rp := range rt.Partitions {
							err = cmp.Or(err, kerr.ErrorForCode(rp.ErrorCode))
						}
					}
				}
				cerr = err
			})
		if cerr != nil {
			t.Fatalf("commit by %s: %v", m.Group, cerr)
		}
	}
	classic := c.Join(t, "classic", []string{"events"}, kgo.Balancers(kgo.RangeBalancer()), kgo.ClientID("ev-1"))
	c.WaitStable(t, "classic", 1, 2)
	modern := c.Join(t, "modern", []string{"orders"}, kgo.ServerSideBalancer(), kgo.ClientID("ord-\x1b[31m"))
	kafkatest.Eventually(t, "modern's member assigned", func() bool {
		s, err := cl.PollGroups(ctx, "modern")
		if err != nil || len(s.Groups) != 1 || len(s.Groups[0].Members) != 1 {
			return false
		}
		return s.Groups[0].Members[0].PartitionCount() == 3
	})

	const polls = 40
	h := Header{Version: Version, Started: start, Refresh: 5 * time.Second, Window: 50 * time.Second, Groups: []string{"audit", "classic", "modern"}}
	var file bytes.Buffer
	w, err := NewWriter(&file, h)
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	rec := &Recorder{
		Loop: watch.Loop{
			Poll: func(ctx context.Context) (*kafka.Snapshot, error) {
				s, err := cl.PollGroups(ctx, h.Groups...)
				if s != nil {
					s.Time = start.Add(time.Duration(i) * h.Refresh)
				}
				return s, err
			},
			Read:    cl.CommittedTimestamps,
			Budget:  4,
			Tracker: lag.NewTracker(h.Config()),
		},
		Sink: w,
	}
	var live []judged
	exact := 0
	for ; i < polls; i++ {
		now := start.Add(time.Duration(i) * h.Refresh)
		produce("orders", int32(i%3), 1+i%4, now)
		if i%10 == 0 {
			produce("events", 1, 200, now)
		}
		switch {
		case i < 12:
			commit(modern, "orders", 0, end["orders"][0])
			commit(modern, "orders", 1, end["orders"][1]-2)
		case i == 20:
			commit(modern, "orders", 0, end["orders"][0]-30) // a rewind
		case i > 30:
			commit(modern, "orders", 2, end["orders"][2])
		}
		if i%2 == 0 && i < 25 {
			commit(classic, "events", 0, end["events"][0])
			commit(classic, "events", 1, min(end["events"][1], int64(5+12*i)))
		}
		if i == 25 {
			classic.Close() // the group goes Empty: STOP in time
		}
		c.Commit(t, "audit", map[string]map[int32]int64{"orders": {2: 3 + int64(i/8)}})
		snap, exactErr, err, werr := rec.Step(ctx)
		if err != nil || werr != nil || exactErr != nil {
			t.Fatalf("poll %d: %v, %v, %v", i, err, werr, exactErr)
		}
		j := judge(rec.Tracker, snap)
		live = append(live, j)
		for _, v := range j.Verdicts {
			if v.MaxTimeLag.Kind == lag.TimeLagExact {
				exact++
			}
		}
	}
	statuses := map[lag.Status]int{}
	for _, j := range live {
		for _, v := range j.Verdicts {
			statuses[v.Status]++
		}
	}
	t.Logf("%d polls, %d bytes; group statuses %v; %d exact time lags", polls, file.Len(), statuses, exact)
	if exact == 0 || statuses[lag.StatusOK] == 0 || statuses[lag.StatusRewind]+statuses[lag.StatusStop]+statuses[lag.StatusStall] == 0 {
		t.Errorf("the live run showed too little to compare: %v, %d exact", statuses, exact)
	}

	replaysAsLive(t, file.Bytes(), live)
}

// replaysAsLive reads the recording in file and replays it into a fresh
// tracker: every poll must be judged as live judged it, bit for bit.
func replaysAsLive(t *testing.T, file []byte, live []judged) {
	t.Helper()
	got, err := ReadAll(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Polls) != len(live) || got.Torn != nil {
		t.Fatalf("read %d polls (torn %v), want %d", len(got.Polls), got.Torn, len(live))
	}
	re := lag.NewTracker(got.Header.Config())
	for i, p := range got.Polls {
		Feed(re, p)
		if j := judge(re, p.Snapshot); !reflect.DeepEqual(j, live[i]) {
			t.Fatalf("poll %d: the replay judges otherwise\n  live %s\nreplay %s", i, show(live[i]), show(j))
		}
	}
}

func show(j judged) string { return fmt.Sprintf("%+v", j) }
