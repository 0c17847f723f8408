//go:build realkafka

package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/realkafka"
)

// TestRealCatchUpWhoseTimeLagGrows is kafka/lag's
// TestACatchUpWhoseTimeLagGrowsIsNoOK on a real Apache Kafka broker: a
// topic of records stamped ten a second for ten minutes, a five-minute
// pause, ten more minutes, then none (production stops at 1,500 s); a
// real member of the group commits four records a second; each poll is
// stamped 5 s after the one before (the records' and the polls' times
// lie in the past, so that 30 minutes pass in seconds), judged as it is
// added, then the records at its commits are read from the broker
// (Client.CommittedTimestamps), as the UI and serve read them. From
// 1,500 s the consumer's lag falls and its time lag grows 0.6 s a second:
// WARN before, JUDGING from 1,565 s (its time lag grew 1m21s in the last
// 2m15s), never OK.
func TestRealCatchUpWhoseTimeLagGrows(t *testing.T) {
	c := realkafka.Start(t, "", 1)
	topic, group := c.Name("judged"), c.Name("judged-g")
	c.CreateTopic(t, topic, 1)

	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	member, err := kgo.NewClient(kgo.SeedBrokers(c.Brokers()...), kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic),
		kgo.DisableAutoCommit(), kgo.SessionTimeout(10*time.Second), kgo.HeartbeatInterval(500*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			member.PollFetches(ctx)
		}
	}()
	t.Cleanup(func() { cancel(); <-done; member.Close() })
	c.Settled(t, map[string]realkafka.Want{group: {Members: 1}})

	kcl, err := kgo.NewClient(kgo.SeedBrokers(c.Brokers()...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(kcl.Close)
	cl := kafka.NewClient(kcl, c.Brokers(), 10*time.Second)

	base := time.Now().Add(-time.Hour).Truncate(time.Second)
	var log kafkatest.PausedLog
	written := func(o int64) time.Time {
		return base.Add(time.Duration(log.Written(o) * float64(time.Second)))
	}
	h := lag.NewHistory(lag.DefaultConfig())
	end := int64(0)
	got := map[int]string{}
	for sec := 0; sec <= 1800; sec += 5 {
		if want := log.End(sec); want > end {
			recs := make([]*kgo.Record, 0, want-end)
			for o := end; o < want; o++ {
				recs = append(recs, &kgo.Record{Topic: topic, Partition: 0, Value: []byte("v"), Timestamp: written(o)})
			}
			if err := c.Client().ProduceSync(ctx, recs...).FirstErr(); err != nil {
				t.Fatalf("produce: %v", err)
			}
			end = want
		}
		commit := int64(4 * sec)
		if err := kafkatest.CommitAs(ctx, member, topic, 0, commit); err != nil {
			t.Fatalf("%d s: commit %d: %v", sec, commit, err)
		}
		s, err := cl.PollGroups(ctx, group)
		if err != nil {
			t.Fatalf("%d s: poll: %v", sec, err)
		}
		g, ok := s.Group(group)
		if !ok || g.Err != nil || len(g.Partitions) != 1 || g.Partitions[0].Committed != commit || g.Partitions[0].LogEnd != end || g.Partitions[0].MemberID == "" {
			t.Fatalf("%d s: group %+v; want committed %d, log end %d, owned", sec, g, commit, end)
		}
		s.Time = base.Add(time.Duration(sec) * time.Second)
		h.Add(s)
		if want := h.WantExact(0, nil); len(want) > 0 {
			recs, err := cl.CommittedTimestamps(ctx, want)
			if err != nil {
				t.Fatalf("%d s: read: %v", sec, err)
			}
			h.AddExact(recs)
		}
		gh, _ := h.Evaluate(group, s.Time)
		v := lag.Judge(gh, h.Config().Window)
		got[sec] = v.Text() + " " + v.Reason()
	}
	for sec := 1300; sec <= 1800; sec += 5 {
		switch v := got[sec]; {
		case sec < 1565 && v != "WARN ":
			t.Errorf("%d s: %q, want WARN up to the crossing's trend", sec, v)
		case sec >= 1565 && !strings.HasPrefix(v, "JUDGING its time lag grew "):
			t.Errorf("%d s: %q, want JUDGING: its time lag grew ...", sec, v)
		}
	}
	if want := "JUDGING its time lag grew 1m21s in the last 2m15s: not OK while it grows"; got[1800] != want {
		t.Errorf("1800 s: %q, want %q", got[1800], want)
	}
}
