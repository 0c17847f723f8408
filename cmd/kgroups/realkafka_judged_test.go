//go:build realkafka

package main

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/realkafka"
)

// judgedOnRealKafka runs a world on a real Apache Kafka broker: a topic
// of records stamped at written(o) seconds, endAt(sec) of them by second
// sec; a real member of the group commits commitAt(sec) at each poll
// (the same offset again between its commits); each poll is stamped 5 s
// after the one before (the records' and the polls' times lie in the
// past, so that half an hour passes in seconds), judged as it is added,
// then the records at its commits are read from the broker
// (Client.CommittedTimestamps), as the UI and serve read them. It
// returns each poll's verdict and reason, by second, to last.
func judgedOnRealKafka(t *testing.T, name string, written func(o int64) float64, endAt, commitAt func(sec int) int64, last int) map[int]string {
	t.Helper()
	c := realkafka.Start(t, "", 1)
	topic, group := c.Name(name), c.Name(name+"-g")
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

	cl := pollingClient(t, c)
	base := time.Now().Add(-time.Hour).Truncate(time.Second)
	h := lag.NewHistory(lag.DefaultConfig())
	end := int64(0)
	got := map[int]string{}
	for sec := 0; sec <= last; sec += 5 {
		if want := endAt(sec); want > end {
			recs := make([]*kgo.Record, 0, want-end)
			for o := end; o < want; o++ {
				stamp := base.Add(time.Duration(written(o) * float64(time.Second)))
				recs = append(recs, &kgo.Record{Topic: topic, Partition: 0, Value: []byte("v"), Timestamp: stamp})
			}
			if err := c.Client().ProduceSync(ctx, recs...).FirstErr(); err != nil {
				t.Fatalf("produce: %v", err)
			}
			end = want
		}
		commit := commitAt(sec)
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
		v := judgePoll(ctx, t, cl, h, group, s)
		got[sec] = v.Text() + " " + v.Reason()
	}
	return got
}

// pollingClient is a kgroups client of c's brokers, as the UI and serve
// poll with, closed when the test ends.
func pollingClient(t *testing.T, c *realkafka.Cluster) *kafka.Client {
	t.Helper()
	kcl, err := kgo.NewClient(kgo.SeedBrokers(c.Brokers()...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(kcl.Close)
	return kafka.NewClient(kcl, c.Brokers(), 10*time.Second)
}

// judgePoll adds the poll s to h, reads the records at the commits h
// then wants (Client.CommittedTimestamps), as the UI and serve read them
// after each poll, and judges group as of s.Time, as they do.
func judgePoll(ctx context.Context, t *testing.T, cl *kafka.Client, h *lag.History, group string, s *kafka.Snapshot) lag.Verdict {
	t.Helper()
	h.Add(s)
	if want := h.WantExact(0, nil); len(want) > 0 {
		recs, err := cl.CommittedTimestamps(ctx, want)
		if err != nil {
			t.Fatalf("%s: read the records at the commits: %v", s.Time.Format(time.TimeOnly), err)
		}
		h.AddExact(recs)
	}
	gh, _ := h.Evaluate(group, s.Time)
	return lag.Judge(gh, h.Config().Window)
}

// TestRealCatchUpWhoseTimeLagGrows is kafka/lag's
// TestACatchUpWhoseTimeLagGrowsIsNoOK on a real Apache Kafka broker
// (judgedOnRealKafka): records stamped ten a second for ten minutes, a
// five-minute pause, ten more minutes, then none (production stops at
// 1,500 s); the member commits four records a second. From 1,500 s the
// consumer's lag falls and its time lag grows 0.6 s a second: WARN
// before, JUDGING from 1,565 s (its time lag grew 1m21s in the last
// 2m15s), never OK.
func TestRealCatchUpWhoseTimeLagGrows(t *testing.T) {
	var log kafkatest.PausedLog
	got := judgedOnRealKafka(t, "judged", log.Written, log.End, func(sec int) int64 { return int64(4 * sec) }, 1800)
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

// TestRealCommitFurtherBehindEachTime is kafka/lag's
// TestACommitFurtherBehindEachTime on a real Apache Kafka broker
// (judgedOnRealKafka): records stamped ten a second; the member commits
// every two minutes, at the log end until 600 s and at 90% of the
// producers' rate after. OK until its first commit past the noise above
// every one before it (the poll after 720 s), JUDGING from there (a step
// or a climb, then, from its fourth commit further behind than the one
// before at 960 s, its time lag rose at each of them) until the trend
// calls WARN.
func TestRealCommitFurtherBehindEachTime(t *testing.T) {
	committed := func(sec int) int64 {
		k := sec / 120 * 120
		if k <= 600 {
			return int64(10 * k)
		}
		return 6000 + int64(9*(k-600))
	}
	got := judgedOnRealKafka(t, "climb", func(o int64) float64 { return float64(o) / 10 }, func(sec int) int64 { return int64(10 * sec) }, committed, 1500)
	var seq []string
	last := ""
	for sec := 600; sec <= 1500; sec += 5 {
		if v := got[sec]; v != last {
			seq = append(seq, strconv.Itoa(sec)+" "+v)
			last = v
		}
	}
	const rose = "JUDGING its time lag rose at each of its last "
	want := []string{"600 OK ",
		"725 JUDGING its latest commit is 12s further behind than the ones before: its next commit, ~2m after it, tells a step from a climb",
		"960 " + rose + "4 commits, 36s in 6m: not OK while it climbs",
		"1080 " + rose + "5 commits, 48s in 8m: not OK while it climbs",
		"1200 " + rose + "6 commits, 1m in 10m: not OK while it climbs",
		"1320 " + rose + "7 commits, 1m12s in 12m: not OK while it climbs", "1360 WARN "}
	if !slices.Equal(seq, want) {
		t.Errorf("from 600 s:\n got %q\nwant %q", seq, want)
	}
}
