package diagnose_test

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/rebalance"
)

// requestCounter counts the requests a client sends, by key.
type requestCounter struct {
	mu sync.Mutex
	n  map[int16]int
}

func (r *requestCounter) OnBrokerWrite(_ kgo.BrokerMetadata, key int16, _ int, _, _ time.Duration, _ error) {
	r.mu.Lock()
	r.n[key]++
	r.mu.Unlock()
}

func (r *requestCounter) take() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]int{}
	for k, v := range r.n {
		out[kmsg.NameForKey(k)] = v
	}
	r.n = map[int16]int{}
	return out
}

// session runs diagnose as `kgroups diagnose` does: polls into a History
// and a Timeline, the stable offsets at the start, Gather at the end, and
// the rules with lag.Judge's verdicts.
type session struct {
	cl   *kafka.Client
	rd   *diagnose.Reader
	h    *lag.History
	tl   *rebalance.Timeline
	last *kafka.Snapshot
}

func runDiagnosis(t *testing.T, cl *kafka.Client, names []string, polls int) (map[string][]diagnose.Finding, *session) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()
	cfg := lag.DefaultConfig()
	cfg.Window = 3
	cfg.MinDistance = time.Nanosecond
	// The polls are milliseconds apart and the consumers stuck from the
	// start show no rhythm: a commit that stood past the window is
	// STALL at once, as after RhythmCeiling in a session of minutes.
	cfg.RhythmCeiling = time.Nanosecond
	s := &session{cl: cl, rd: diagnose.NewReader(cl), h: lag.NewHistory(cfg), tl: rebalance.NewTimeline(rebalance.TimelineConfig{})}
	poll := func() *kafka.Snapshot {
		snap, err := cl.PollGroups(ctx, names...)
		if err != nil {
			t.Fatalf("poll: %v", err)
		}
		s.h.Add(snap)
		s.tl.Add(snap)
		// Exact time lags, as the command reads them after each poll.
		if want := s.h.WantExact(lag.DefaultExactBudget, nil); len(want) > 0 {
			if recs, err := cl.CommittedTimestamps(ctx, want); err == nil {
				s.h.AddExact(recs)
			}
		}
		return snap
	}
	first := poll()
	var groups []*kafka.Group
	for _, n := range names {
		g, ok := first.Group(n)
		if !ok {
			t.Fatalf("group %s not polled", n)
		}
		groups = append(groups, g)
	}
	firstGroups := append([]*kafka.Group(nil), groups...)
	for range polls - 1 {
		time.Sleep(time.Millisecond) // distinct poll times
		s.last = poll()
	}
	var verdicts []lag.Verdict
	groups = groups[:0]
	for _, n := range names {
		gh, _ := s.h.Evaluate(n, s.last.Time)
		verdicts = append(verdicts, lag.Judge(gh, cfg.Window))
		g, _ := s.last.Group(n)
		groups = append(groups, g)
	}
	reads, err := s.rd.Gather(ctx, firstGroups, groups, verdicts)
	if err != nil {
		t.Fatalf("gather: %v", err)
	}
	out := make(map[string][]diagnose.Finding)
	for i, g := range groups {
		out[g.Name] = diagnose.Diagnose(diagnose.Input{
			Group: g, PartitionCounts: s.last.PartitionCounts, Verdict: verdicts[i],
			Events: s.tl.Events(g.Name, nil), Since: first.Time, Now: s.last.Time, Reads: reads,
			Bootstrap: "b:9092", Unmoved: unmovedIn(s.h, g.Name),
		})
	}
	return out, s
}

func unmovedIn(h *lag.History, group string) func(string, int32) (time.Time, bool) {
	return func(topic string, partition int32) (time.Time, bool) {
		return h.CommitUnmovedSince(group, topic, partition)
	}
}

// seriesIn is the history's PartitionSeries for one group, as the rules
// take it (diagnose.Input.Series).
func seriesIn(h *lag.History, group string) func(string, int32, []lag.Sample) []lag.Sample {
	return func(topic string, partition int32, dst []lag.Sample) []lag.Sample {
		return h.PartitionSeries(group, topic, partition, dst)
	}
}

func snapMemberOf(s *session, group string) *kafka.Member {
	g, _ := s.last.Group(group)
	return &g.Members[0]
}

func ids(fs []diagnose.Finding) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, f.Severity.String()+" "+f.ID)
	}
	return out
}

func find(t *testing.T, fs []diagnose.Finding, id string) diagnose.Finding {
	t.Helper()
	for _, f := range fs {
		if f.ID == id {
			return f
		}
	}
	t.Fatalf("no %s finding in %v", id, ids(fs))
	return diagnose.Finding{}
}

func wantEvidence(t *testing.T, f diagnose.Finding, want diagnose.Evidence) {
	t.Helper()
	if !reflect.DeepEqual(f.Evidence, want) {
		t.Errorf("%s evidence\n got %#v\nwant %#v", f.ID, f.Evidence, want)
	}
}

func committed(t *testing.T, c *kafkatest.Cluster, group, topic string, p int32) int64 {
	t.Helper()
	os, err := c.Admin().FetchOffsets(context.Background(), group)
	if err != nil {
		return -1
	}
	o, ok := os.Lookup(topic, p)
	if !ok {
		return -1
	}
	return o.At
}

// TestDiagnoseFixtures builds each cause as a real cluster would produce it
// and checks each finding's evidence exactly, that a healthy group has no
// ERR or WARN finding, and that the whole diagnosis sent no write.
func TestDiagnoseFixtures(t *testing.T) {
	c := kafkatest.NewCluster(t, kfake.BrokerConfigs(map[string]string{"transaction.max.timeout.ms": "3600000"}))
	ctx := context.Background()
	base := time.Now().Add(-time.Minute).Truncate(time.Millisecond)

	// records-lost-to-retention: an Empty group committed at 3, then
	// DeleteRecords moved the log start to 7.
	c.CreateTopic(t, "lost", 1)
	c.Produce(t, "lost", 0, 10, time.Time{})
	c.Commit(t, "g-lost", map[string]map[int32]int64{"lost": {0: 3}})
	del := make(kadm.Offsets)
	del.AddOffset("lost", 0, 7, -1)
	if resp, err := c.Admin().DeleteRecords(ctx, del); err != nil || resp.Error() != nil {
		t.Fatalf("delete records: %v %v", err, resp.Error())
	}

	// stuck-behind-open-transaction: 3 committed records, then a
	// transaction that produced 5 records and never ends; a read_committed
	// member consumed and committed up to the stable offset.
	c.CreateTopic(t, "txn", 1)
	c.Produce(t, "txn", 0, 3, time.Time{})
	txp, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...), kgo.TransactionalID("tx-open"),
		kgo.TransactionTimeout(30*time.Minute), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(txp.Close)
	if err := txp.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if err := txp.ProduceSync(ctx, &kgo.Record{Topic: "txn", Partition: 0, Value: fmt.Appendf(nil, "t%d", i)}).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	txm := c.Join(t, "g-txn", []string{"txn"}, kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	c.WaitStable(t, "g-txn", 1, 1)
	kafkatest.Eventually(t, "g-txn commits 3", func() bool {
		_ = txm.Client.CommitUncommittedOffsets(ctx)
		return committed(t, c, "g-txn", "txn", 0) == 3
	})

	// stalled-at-record: a member commits each record and stops at the
	// record at offset 5, staying in the group.
	c.CreateTopic(t, "stall", 1)
	c.Produce(t, "stall", 0, 10, base)
	stallCl, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...), kgo.ConsumerGroup("g-stall"), kgo.ConsumeTopics("stall"),
		kgo.DisableAutoCommit(), kgo.HeartbeatInterval(100*time.Millisecond), kgo.SessionTimeout(6*time.Second),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.ClientID("worker-1"))
	if err != nil {
		t.Fatal(err)
	}
	sctx, scancel := context.WithCancel(ctx)
	sdone := make(chan struct{})
	go func() {
		defer close(sdone)
		for sctx.Err() == nil {
			stop := false
			stallCl.PollFetches(sctx).EachRecord(func(r *kgo.Record) {
				if stop {
					return
				}
				if string(r.Value) == "v5" {
					stop = true
					return
				}
				_ = stallCl.CommitRecords(sctx, r)
			})
			if stop {
				<-sctx.Done()
			}
		}
	}()
	t.Cleanup(func() { scancel(); <-sdone; stallCl.Close() })
	c.WaitStable(t, "g-stall", 1, 1)
	kafkatest.Eventually(t, "g-stall commits 5", func() bool { return committed(t, c, "g-stall", "stall", 0) == 5 })

	// unassigned-partitions: a settled group on 2 partitions, then 2 more
	// partitions added; the member has not refreshed its metadata yet.
	c.CreateTopic(t, "grow", 2)
	c.Commit(t, "g-grow", map[string]map[int32]int64{"grow": {0: 0, 1: 0}})
	c.Join(t, "g-grow", []string{"grow"}, kgo.MetadataMaxAge(time.Hour))
	c.WaitStable(t, "g-grow", 1, 2)
	if _, err := c.Admin().CreatePartitions(ctx, 2, "grow"); err != nil {
		t.Fatal(err)
	}

	// lag-skew: two members, one partition each; all the lag is on one.
	c.CreateTopic(t, "skew", 2)
	c.Produce(t, "skew", 0, 200, time.Time{})
	c.Produce(t, "skew", 1, 5, time.Time{})
	c.Commit(t, "g-skew", map[string]map[int32]int64{"skew": {0: 0, 1: 5}})
	sk1 := c.Join(t, "g-skew", []string{"skew"}, kgo.Balancers(kgo.RangeBalancer()), kgo.ClientID("skew-a"))
	sk2 := c.Join(t, "g-skew", []string{"skew"}, kgo.Balancers(kgo.RangeBalancer()), kgo.ClientID("skew-b"))
	c.WaitStable(t, "g-skew", 2, 2)

	// offset-beyond-log-end: the topic was recreated with fewer records
	// than the group had committed.
	c.CreateTopic(t, "recreated", 1)
	c.Produce(t, "recreated", 0, 4, time.Time{})
	c.Commit(t, "g-beyond", map[string]map[int32]int64{"recreated": {0: 9}})

	// no-commits: a live member owns a partition and never commits.
	c.CreateTopic(t, "nc", 1)
	c.Produce(t, "nc", 0, 3, time.Time{})
	nc := c.Join(t, "g-nc", []string{"nc"}, kgo.ClientID("nc-worker"))
	c.WaitStable(t, "g-nc", 1, 1)

	// consumer-behind-retention: records 9m30s old on a topic that keeps
	// them 10 minutes, an Empty group at the first of them.
	if _, err := c.Admin().CreateTopic(ctx, 1, 1, map[string]*string{"retention.ms": kadm.StringPtr("600000")}, "short"); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-570 * time.Second).Truncate(time.Millisecond)
	c.Produce(t, "short", 0, 3, old)
	c.Commit(t, "g-old", map[string]map[int32]int64{"short": {0: 0}})

	// A healthy group: caught up, committed, owned.
	c.CreateTopic(t, "fine", 1)
	c.Produce(t, "fine", 0, 5, time.Time{})
	c.Commit(t, "g-fine", map[string]map[int32]int64{"fine": {0: 5}})
	c.Join(t, "g-fine", []string{"fine"})
	c.WaitStable(t, "g-fine", 1, 1)

	rc := &requestCounter{n: map[int16]int{}}
	cl := c.Client(t, kgo.WithHooks(rc))
	names := []string{"g-beyond", "g-fine", "g-grow", "g-lost", "g-nc", "g-old", "g-skew", "g-stall", "g-txn"}
	got, s := runDiagnosis(t, cl, names, 5)
	sent := rc.take()
	t.Logf("requests: %v", sent)
	for _, key := range []string{"OffsetCommit", "JoinGroup", "SyncGroup", "LeaveGroup", "AlterShareGroupOffsets", "OffsetDelete", "DeleteGroups", "EndTxn", "AddPartitionsToTxn", "InitProducerID", "Produce"} {
		if sent[key] != 0 {
			t.Errorf("diagnose sent %d %s requests: it must only read", sent[key], key)
		}
	}
	for _, key := range []string{"ListOffsets", "DescribeProducers", "DescribeConfigs", "Fetch"} {
		if sent[key] == 0 {
			t.Errorf("diagnose sent no %s request; the test does not exercise it", key)
		}
	}

	wantIDs := map[string][]string{
		"g-beyond": {"ERR offset-beyond-log-end"},
		"g-nc":     {"WARN no-commits"},
		"g-old":    {"WARN consumer-behind-retention"},
		"g-fine":   {},
		"g-grow":   {"WARN unassigned-partitions"},
		"g-lost":   {"ERR records-lost-to-retention"},
		"g-skew":   {"ERR stalled-at-record", "WARN lag-skew"},
		"g-stall":  {"ERR stalled-at-record"},
		"g-txn":    {"ERR stuck-behind-open-transaction"},
	}
	for g, want := range wantIDs {
		if !reflect.DeepEqual(ids(got[g]), want) {
			t.Errorf("%s findings %v, want %v", g, ids(got[g]), want)
		}
	}

	f := find(t, got["g-beyond"], diagnose.IDBeyondLogEnd)
	wantEvidence(t, f, diagnose.Evidence{
		{Key: "committedOffset", Value: int64(9)}, {Key: "logStartOffset", Value: int64(0)}, {Key: "logEndOffset", Value: int64(4)},
		{Key: "beyondBy", Value: int64(5)},
	})

	ncm := snapMemberOf(s, "g-nc")
	f = find(t, got["g-nc"], diagnose.IDNoCommits)
	wantEvidence(t, f, diagnose.Evidence{
		{Key: "memberId", Value: nc.MemberID()}, {Key: "clientId", Value: "nc-worker"}, {Key: "host", Value: ncm.Host},
		{Key: "partitions", Value: int64(1)}, {Key: "observations", Value: int64(3)}, {Key: "uncommitted", Value: []string{"nc:0"}},
	})
	if f.Topic != "nc" || f.Partition != 0 || f.Member != nc.MemberID() {
		t.Errorf("no-commits at %s:%d member %s", f.Topic, f.Partition, f.Member)
	}

	f = find(t, got["g-old"], diagnose.IDBehindRetention)
	gh, _ := s.h.Evaluate("g-old", s.last.Time)
	tl := gh.Partitions[0].TimeLag
	if tl.Kind != lag.TimeLagExact || tl.Seconds < 570 {
		t.Fatalf("g-old time lag %+v, want an exact one of at least 570s", tl)
	}
	wantEvidence(t, f, diagnose.Evidence{
		{Key: "timeLagSeconds", Value: math.Round(tl.Seconds*1000) / 1000}, {Key: "timeLagKind", Value: "exact"},
		{Key: "retentionMs", Value: int64(600000)}, {Key: "marginMs", Value: int64(60000)},
		{Key: "secondsLeft", Value: (600000 - int64(math.Round(tl.Seconds*1000))) / 1000},
		{Key: "committedOffset", Value: int64(0)}, {Key: "logStartOffset", Value: int64(0)},
	})

	f = find(t, got["g-lost"], diagnose.IDRecordsLost)
	wantEvidence(t, f, diagnose.Evidence{
		{Key: "committedOffset", Value: int64(3)}, {Key: "logStartOffset", Value: int64(7)}, {Key: "logEndOffset", Value: int64(10)},
		{Key: "recordsLost", Value: int64(4)}, {Key: "restartEarliest", Value: int64(7)}, {Key: "restartLatest", Value: int64(10)},
	})
	if f.Topic != "lost" || f.Partition != 0 || !reflect.DeepEqual(f.Next, [][]string{{"kgroups", "reset", "g-lost", "--to-earliest", "--topic", "lost:0"}}) {
		t.Errorf("records-lost: %+v", f)
	}

	// The open transaction, named as the producer itself knows it.
	pid, epoch, err := txp.ProducerID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dps, err := c.Admin().DescribeProducers(ctx, kadm.TopicsSet{"txn": {0: {}}})
	if err != nil {
		t.Fatal(err)
	}
	var lastTS int64 = -2
	dps.EachProducer(func(p kadm.DescribedProducer) {
		if p.ProducerID == pid {
			lastTS = p.LastTimestamp
		}
	})
	dts, err := c.Admin().DescribeTransactions(ctx, "tx-open")
	if err != nil {
		t.Fatal(err)
	}
	start := dts["tx-open"].StartTimestamp
	// The poll itself sees the stable offset trail the log end.
	gt, _ := s.last.Group("g-txn")
	if p := gt.Partitions[0]; !p.StableTrails || p.LastStable != 3 || p.StableLag() != 0 || p.Lag != 5 {
		t.Errorf("g-txn partition %+v: want stable offset 3 trailing the log end 8, lag 5, lag to stable 0", p)
	}
	if gl, _ := s.last.Group("g-lost"); gl.Partitions[0].StableTrails {
		t.Errorf("g-lost partition %+v: no transaction, the stable offset is the log end", gl.Partitions[0])
	}
	f = find(t, got["g-txn"], diagnose.IDOpenTransaction)
	wantEvidence(t, f, diagnose.Evidence{
		{Key: "lastStableOffset", Value: int64(3)}, {Key: "logEndOffset", Value: int64(8)},
		{Key: "committedOffset", Value: int64(3)}, {Key: "lagToStable", Value: int64(0)},
		{Key: "producerId", Value: pid}, {Key: "producerEpoch", Value: int64(epoch)},
		{Key: "transactionalId", Value: "tx-open"}, {Key: "transactionState", Value: "Ongoing"},
		{Key: "transactionStartOffset", Value: int64(3)}, {Key: "lastTimestamp", Value: lastTS},
		{Key: "timeoutMs", Value: int64(1800000)},
		{Key: "openForSeconds", Value: (s.last.Time.UnixMilli() - start) / 1000},
	})
	if f.Offset != 3 || !reflect.DeepEqual(f.Next, [][]string{{"kafka-transactions.sh", "--bootstrap-server", "b:9092", "describe", "--transactional-id", "tx-open"}}) {
		t.Errorf("open transaction: %+v", f)
	}

	sm := snapMemberOf(s, "g-stall")
	f = find(t, got["g-stall"], diagnose.IDStalledAtRecord)
	wantEvidence(t, f, diagnose.Evidence{
		{Key: "committedOffset", Value: int64(5)}, {Key: "logEndOffset", Value: int64(10)}, {Key: "lag", Value: int64(5)},
		{Key: "memberId", Value: sm.MemberID}, {Key: "clientId", Value: "worker-1"}, {Key: "host", Value: sm.Host},
		// One partition: nothing else of the member's advances, and the
		// commit has stood since the first poll, milliseconds ago.
		{Key: "memberPartitions", Value: int64(1)}, {Key: "memberAdvancing", Value: int64(0)}, {Key: "lastCommitAgeSeconds", Value: int64(0)},
		{Key: "recordOffset", Value: int64(5)}, {Key: "recordTimestamp", Value: base.Add(5 * time.Second).UnixMilli()},
		{Key: "recordKey", Value: nil}, {Key: "recordKeyEncoding", Value: nil}, {Key: "recordKeySize", Value: int64(0)},
		{Key: "recordValuePreview", Value: "v5"}, {Key: "recordValueEncoding", Value: "text"}, {Key: "recordValueSize", Value: int64(2)},
	})
	if id, _ := stallCl.GroupMetadata(); sm.MemberID != id || f.Member != id || f.Offset != 5 {
		t.Errorf("stalled member %q offset %d, want %q at 5", f.Member, f.Offset, id)
	}
	// A single partition that stalls: both explanations, the record
	// shown, no "likely cause" and no skip suggested.
	wantMsg := diagnose.Message{
		Format: "the commit of member %s stayed at %d over the window while %s: either it is stuck on the record at offset %d (%s, produced %s), " +
			"or the member stopped committing; nothing else it owns advances, so the polls cannot tell which",
		Args: []any{"worker-1", int64(5), diagnose.Count{N: 5, One: "record waits", Many: "records wait"}, int64(5), diagnose.Size(2), diagnose.Instant(base.Add(5 * time.Second).UnixMilli())},
	}
	if !reflect.DeepEqual(f.Message, wantMsg) {
		t.Errorf("stalled message %#v\nwant %#v", f.Message, wantMsg)
	}
	if !reflect.DeepEqual(f.Next, [][]string{{"kgroups", "peek", "g-stall", "--topic", "stall:0"}, {"kgroups", "describe", "g-stall", "--members"}}) {
		t.Errorf("stalled next %q", f.Next)
	}

	f = find(t, got["g-grow"], diagnose.IDUnassigned)
	wantEvidence(t, f, diagnose.Evidence{
		{Key: "partitions", Value: int64(4)}, {Key: "assigned", Value: int64(2)}, {Key: "unassigned", Value: int64(2)},
		{Key: "unassignedPartitions", Value: []int64{2, 3}}, {Key: "members", Value: int64(1)},
	})

	g, _ := s.last.Group("g-skew")
	var heavy, light *kafka.Member
	for i := range g.Members {
		m := &g.Members[i]
		if len(m.Assignment) == 1 && reflect.DeepEqual(m.Assignment[0].Partitions, []int32{0}) {
			heavy = m
		} else {
			light = m
		}
	}
	if heavy == nil || light == nil {
		t.Fatalf("skew assignment %+v", g.Members)
	}
	if heavy.MemberID != sk1.MemberID() && heavy.MemberID != sk2.MemberID() {
		t.Fatalf("heavy member %s is neither member", heavy.MemberID)
	}
	f = find(t, got["g-skew"], diagnose.IDLagSkew)
	per := func(m *kafka.Member, lagN int64) diagnose.Evidence {
		return diagnose.Evidence{{Key: "memberId", Value: m.MemberID}, {Key: "clientId", Value: m.ClientID}, {Key: "host", Value: m.Host}, {Key: "partitions", Value: int64(1)}, {Key: "lag", Value: lagN}}
	}
	members := []diagnose.Evidence{per(&g.Members[0], 0), per(&g.Members[1], 0)}
	for i := range members {
		if g.Members[i].MemberID == heavy.MemberID {
			members[i] = per(heavy, 200)
		}
	}
	wantEvidence(t, f, diagnose.Evidence{
		{Key: "totalLag", Value: int64(200)}, {Key: "memberId", Value: heavy.MemberID}, {Key: "memberLag", Value: int64(200)},
		{Key: "sharePercent", Value: int64(100)}, {Key: "members", Value: members},
	})
}
