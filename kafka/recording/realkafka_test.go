//go:build realkafka

package recording

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/realkafka"
	"github.com/kgroups/kgroups/kafka/watch"
)

// TestRealRecordingReplaysAsLive records a real Apache Kafka broker
// while the reference Java client consumes from it, two groups at two
// paces (autocommit keeping up, and a consumer sleeping 200 ms a record)
// and a group committed by hand that no member ever joined, judging
// every poll live at the poll's real time with the exact reads at the
// commits. Replaying the file into a fresh tracker must give every
// verdict, partition health, finding, time lag and series, poll by poll,
// bit for bit: the recordings of the real tier are fixtures as good as
// the live run.
func TestRealRecordingReplaysAsLive(t *testing.T) {
	c := realkafka.Start(t, "", 1)
	topic := c.Name("rec")
	c.CreateTopic(t, topic, 2)
	auto, slow, simple := c.Name("rec-auto"), c.Name("rec-slow"), c.Name("rec-simple")

	c.ProduceSteadily(t, 100*time.Millisecond, func(n int) { c.ProduceAsync(topic, int32(n%2)) })

	j := c.StartClients(t)
	base := []string{"auto.offset.reset=earliest", "session.timeout.ms=10000", "heartbeat.interval.ms=500"}
	j.Consumer(t, "auto", []string{topic}, append([]string{"group.id=" + auto}, base...)...)
	j.Consumer(t, "slow", []string{topic}, append([]string{"group.id=" + slow, "sleep.ms=200", "max.poll.records=2"}, base...)...)
	c.Settled(t, map[string]realkafka.Want{auto: {Members: 1}, slow: {Members: 1}})

	kcl, err := kgo.NewClient(kgo.SeedBrokers(c.Brokers()...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(kcl.Close)
	cl := kafka.NewClient(kcl, c.Brokers(), 10*time.Second)

	h := Header{Version: Version, Started: time.Now(), Refresh: 2 * time.Second, Groups: []string{auto, simple, slow}}
	var file bytes.Buffer
	w, err := NewWriter(&file, h)
	if err != nil {
		t.Fatal(err)
	}
	rec := &Recorder{
		Loop: watch.Loop{
			Poll:    func(ctx context.Context) (*kafka.Snapshot, error) { return cl.PollGroups(ctx, h.Groups...) },
			Read:    cl.CommittedTimestamps,
			Budget:  4,
			Tracker: lag.NewTracker(h.Config()),
		},
		Sink: w,
	}
	const polls = 40
	var live []judged
	statuses := map[lag.Status]int{}
	exact := 0
	pctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for i := range polls {
		if i%5 == 0 {
			c.Commit(t, simple, map[string]map[int32]int64{topic: {0: int64(1 + i)}})
		}
		snap, exactErr, err, werr := rec.Step(pctx)
		if err != nil || werr != nil || exactErr != nil {
			t.Fatalf("poll %d: %v, %v, %v", i, err, werr, exactErr)
		}
		jd := judge(rec.Tracker, snap)
		live = append(live, jd)
		for _, v := range jd.Verdicts {
			statuses[v.Status]++
			if v.MaxTimeLag.Kind == lag.TimeLagExact {
				exact++
			}
		}
		time.Sleep(h.Refresh)
	}
	t.Logf("%d polls of a real broker, %d bytes; group statuses %v; %d exact time lags", polls, file.Len(), statuses, exact)
	if exact == 0 || statuses[lag.StatusOK] == 0 {
		t.Errorf("the live run showed too little to compare: %v, %d exact", statuses, exact)
	}

	replaysAsLive(t, file.Bytes(), live)
}
