package diagnose_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/rebalance"
)

// clocked runs diagnose over polls of a real cluster whose times are a
// fake clock: poll k is at t0 + k*step, whatever the wall clock says, so
// rates and ages come out exact. Before each poll but the first, act(k)
// makes the cluster move (produce, commit) as if step had passed.
func clocked(t *testing.T, c *kafkatest.Cluster, group string, t0 time.Time, step time.Duration, polls int, act func(k int)) ([]diagnose.Finding, lag.Verdict, *kafka.Snapshot) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()
	cl := c.Client(t)
	cfg := lag.DefaultConfig()
	cfg.Window = 3
	cfg.MinDistance = time.Nanosecond
	h := lag.NewHistory(cfg)
	tl := rebalance.NewTimeline(rebalance.TimelineConfig{})
	var first, last *kafka.Snapshot
	for k := range polls {
		if k > 0 && act != nil {
			act(k)
		}
		snap, err := cl.PollGroups(ctx, group)
		if err != nil {
			t.Fatalf("poll: %v", err)
		}
		snap.Time = t0.Add(time.Duration(k) * step)
		h.Add(snap)
		tl.Add(snap)
		if want := h.WantExact(lag.DefaultExactBudget, nil); len(want) > 0 {
			if recs, err := cl.CommittedTimestamps(ctx, want); err == nil {
				h.AddExact(recs)
			}
		}
		if first == nil {
			first = snap
		}
		last = snap
	}
	gh, _ := h.Evaluate(group, last.Time)
	v := lag.Judge(gh, cfg.Window)
	g0, _ := first.Group(group)
	g, _ := last.Group(group)
	reads, err := diagnose.NewReader(cl).Gather(ctx, []*kafka.Group{g0}, []*kafka.Group{g}, []lag.Verdict{v})
	if err != nil {
		t.Fatalf("gather: %v", err)
	}
	fs := diagnose.Diagnose(diagnose.Input{
		Group: g, PartitionCounts: last.PartitionCounts, Verdict: v,
		Events: tl.Events(group, nil), Since: first.Time, Now: last.Time, Reads: reads,
		Bootstrap: "b:9092", Unmoved: unmovedIn(h, group), Series: seriesIn(h, group),
	})
	return fs, v, last
}

// produceAt writes n records to one partition, record i stamped from +
// i*every.
func produceAt(t *testing.T, c *kafkatest.Cluster, topic string, partition int32, n int, from time.Time, every time.Duration) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	recs := make([]*kgo.Record, n)
	for i := range recs {
		recs[i] = &kgo.Record{Topic: topic, Partition: partition, Value: fmt.Appendf(nil, "r%d", i), Timestamp: from.Add(time.Duration(i) * every)}
	}
	if err := cl.ProduceSync(context.Background(), recs...).FirstErr(); err != nil {
		t.Fatal(err)
	}
}

// commitAs commits offsets as the live member m does (its generation), so
// the coordinator takes it as the member's commit.
func commitAs(t *testing.T, m *kafkatest.Member, topic string, offsets map[int32]int64) {
	t.Helper()
	eo := make(map[int32]kgo.EpochOffset, len(offsets))
	for p, o := range offsets {
		eo[p] = kgo.EpochOffset{Epoch: -1, Offset: o}
	}
	var cerr error
	m.Client.CommitOffsetsSync(context.Background(), map[string]map[int32]kgo.EpochOffset{topic: eo},
		func(_ *kgo.Client, _ *kmsg.OffsetCommitRequest, resp *kmsg.OffsetCommitResponse, err error) {
			cerr = err
			if err == nil {
				for _, tp := range resp.Topics {
					for _, p := range tp.Partitions {
						if p.ErrorCode != 0 {
							cerr = fmt.Errorf("commit %s/%d: error code %d", tp.Topic, p.Partition, p.ErrorCode)
						}
					}
				}
			}
		})
	if cerr != nil {
		t.Fatal(cerr)
	}
}

func fieldOf(t *testing.T, f diagnose.Finding, key string) any {
	t.Helper()
	v, ok := f.Evidence.Get(key)
	if !ok {
		t.Fatalf("%s has no %s", f.ID, key)
	}
	return v
}

// TestMemberNotCommittingOnKfake: one live member owns six partitions and
// stopped committing on all of them at once: one member-not-committing on
// the member, no stalled-at-record, and nothing suggests skipping records.
func TestMemberNotCommittingOnKfake(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "many", 6)
	offsets := map[int32]int64{}
	for p := range int32(6) {
		c.Produce(t, "many", p, 10, time.Time{})
		offsets[p] = 3
	}
	m := c.Join(t, "g-many", []string{"many"}, kgo.ClientID("stuck-worker"))
	c.WaitStable(t, "g-many", 1, 6)
	commitAs(t, m, "many", offsets)

	// It commits one more record on every partition at each of the next
	// three polls (a 5s rhythm, seen twice), then nothing while it stays
	// a member.
	t0 := time.Now().Truncate(time.Millisecond)
	fs, _, last := clocked(t, c, "g-many", t0, 5*time.Second, 7, func(k int) {
		if k <= 3 {
			for p := range offsets {
				offsets[p] = int64(3 + k)
			}
			commitAs(t, m, "many", offsets)
		}
	})
	if got := ids(fs); !reflect.DeepEqual(got, []string{"ERR member-not-committing"}) {
		t.Fatalf("findings %v, want one member-not-committing", got)
	}
	f := fs[0]
	g, _ := last.Group("g-many")
	wantEvidence(t, f, diagnose.Evidence{
		{Key: "memberId", Value: m.MemberID()}, {Key: "clientId", Value: "stuck-worker"}, {Key: "host", Value: g.Members[0].Host},
		{Key: "partitions", Value: int64(6)}, {Key: "stalled", Value: int64(6)}, {Key: "advancing", Value: int64(0)},
		// Ten records on each of six partitions, committed up to 6.
		{Key: "lag", Value: int64(24)},
		{Key: "stalledPartitions", Value: []string{"many:0", "many:1", "many:2", "many:3", "many:4", "many:5"}},
		// The commit last moved at the fourth poll (15s); the last poll
		// is at 30s.
		{Key: "lastCommitAgeSeconds", Value: int64(15)},
		// It moved at 5s, 10s and 15s before: a 5s rhythm.
		{Key: "commitRhythmSeconds", Value: int64(5)},
	})
	want := diagnose.Message{
		Format: "member %s on %s stopped committing on %d of its %s while %s; last commit at least %s ago " +
			"(it committed at least every %s before): " +
			"the member is stuck or its commits are off, not a record; read its logs and commit settings",
		Args: []any{"stuck-worker", g.Members[0].Host, 6, diagnose.Count{N: 6, One: "partition", Many: "partitions"}, diagnose.Count{N: 24, One: "record waits", Many: "records wait"}, diagnose.Span(15 * time.Second), diagnose.Span(5 * time.Second)},
	}
	if !reflect.DeepEqual(f.Message, want) {
		t.Errorf("message %#v\nwant    %#v", f.Message, want)
	}
	if f.Member != m.MemberID() || f.Topic != "" || f.Partition != -1 || f.Offset != -1 {
		t.Errorf("member finding at %q %s:%d offset %d", f.Member, f.Topic, f.Partition, f.Offset)
	}
	wantNext := [][]string{{"kgroups", "describe", "g-many", "--members"}, {"kgroups", "rebalance", "g-many", "--member", m.MemberID()}}
	if !reflect.DeepEqual(f.Next, wantNext) {
		t.Errorf("next %q, want %q", f.Next, wantNext)
	}
}

// TestStalledAtOneRecordOnKfake: one live member owns three partitions; it
// keeps committing two of them while the third stays at one record:
// stalled-at-record there only, blaming the record, which it shows.
func TestStalledAtOneRecordOnKfake(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "several", 3)
	t0 := time.Now().Add(-time.Hour).Truncate(time.Millisecond)
	for p := range int32(3) {
		produceAt(t, c, "several", p, 10, t0.Add(-10*time.Second), time.Second)
	}
	m := c.Join(t, "g-several", []string{"several"}, kgo.ClientID("picky-worker"))
	c.WaitStable(t, "g-several", 1, 3)
	commitAs(t, m, "several", map[int32]int64{0: 4, 1: 10, 2: 10})

	end := int64(10)
	fs, _, last := clocked(t, c, "g-several", t0, 5*time.Second, 5, func(k int) {
		// Two records a step on every partition; the member reads and
		// commits partitions 1 and 2 up to the log end, and stays on
		// offset 4 of partition 0.
		for p := range int32(3) {
			produceAt(t, c, "several", p, 2, t0.Add(time.Duration(k)*5*time.Second-2*time.Second), time.Second)
		}
		end += 2
		commitAs(t, m, "several", map[int32]int64{1: end, 2: end})
	})
	if got := ids(fs); !reflect.DeepEqual(got, []string{"ERR stalled-at-record"}) {
		t.Fatalf("findings %v, want one stalled-at-record", got)
	}
	f := fs[0]
	g, _ := last.Group("g-several")
	wantEvidence(t, f, diagnose.Evidence{
		{Key: "committedOffset", Value: int64(4)}, {Key: "logEndOffset", Value: int64(18)}, {Key: "lag", Value: int64(14)},
		{Key: "memberId", Value: m.MemberID()}, {Key: "clientId", Value: "picky-worker"}, {Key: "host", Value: g.Members[0].Host},
		{Key: "memberPartitions", Value: int64(3)}, {Key: "memberAdvancing", Value: int64(2)}, {Key: "lastCommitAgeSeconds", Value: int64(20)},
		{Key: "recordOffset", Value: int64(4)}, {Key: "recordTimestamp", Value: t0.Add(-6 * time.Second).UnixMilli()},
		{Key: "recordKey", Value: nil}, {Key: "recordKeyEncoding", Value: nil}, {Key: "recordKeySize", Value: int64(0)},
		{Key: "recordValuePreview", Value: "r4"}, {Key: "recordValueEncoding", Value: "text"}, {Key: "recordValueSize", Value: int64(2)},
	})
	if f.Topic != "several" || f.Partition != 0 || f.Offset != 4 || f.Member != m.MemberID() {
		t.Errorf("finding at %s:%d offset %d member %q", f.Topic, f.Partition, f.Offset, f.Member)
	}
	want := diagnose.Message{
		Format: "member %s commits on its other partitions but this commit stayed at %d over the window while %s: " +
			"the record at offset %d (%s, produced %s) is the likely cause",
		Args: []any{"picky-worker", int64(4), diagnose.Count{N: 14, One: "record waits", Many: "records wait"}, int64(4), diagnose.Size(2), diagnose.Instant(t0.Add(-6 * time.Second).UnixMilli())},
	}
	if !reflect.DeepEqual(f.Message, want) {
		t.Errorf("message %#v\nwant    %#v", f.Message, want)
	}
	wantNext := [][]string{{"kgroups", "peek", "g-several", "--topic", "several:0"}, {"kgroups", "reset", "g-several", "--shift-by", "1", "--topic", "several:0"}}
	if !reflect.DeepEqual(f.Next, wantNext) {
		t.Errorf("next %q, want %q", f.Next, wantNext)
	}
}

// TestSlowerThanProducersOnKfake: one member on three partitions that
// each get 12 records a second; it handles a third of them and commits in
// batches every fourth poll, larger than what a poll's step produces (a
// sawtooth: the lag drops at each of those commits on its way up, so
// "the lag never decreased" does not hold). slower-than-producers with the exact
// rates: 36/s produced, 12/s consumed, the lag growing 24/s and the time
// lag 2/3 of a second each second.
func TestSlowerThanProducersOnKfake(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "slow", 3)
	t0 := time.Now().Add(-time.Hour).Truncate(time.Millisecond)
	// A backlog of 200 records a partition, two a second up to t0.
	for p := range int32(3) {
		produceAt(t, c, "slow", p, 200, t0.Add(-100*time.Second), 500*time.Millisecond)
	}
	m := c.Join(t, "g-slow", []string{"slow"}, kgo.ClientID("slow-worker"))
	c.WaitStable(t, "g-slow", 1, 3)
	commitAs(t, m, "slow", map[int32]int64{0: 0, 1: 0, 2: 0})

	var done int64
	fs, v, last := clocked(t, c, "g-slow", t0, 5*time.Second, 9, func(k int) {
		for p := range int32(3) {
			produceAt(t, c, "slow", p, 60, t0.Add(time.Duration(k-1)*5*time.Second), 5*time.Second/60)
		}
		if k%4 == 0 {
			done += 80 // four steps' worth of 4 records a second
			commitAs(t, m, "slow", map[int32]int64{0: done, 1: done, 2: done})
		}
	})
	if got := ids(fs); !reflect.DeepEqual(got, []string{"WARN slower-than-producers"}) {
		t.Fatalf("findings %v, want one slower-than-producers", got)
	}
	f := fs[0]
	g, _ := last.Group("g-slow")
	if g.Partitions[0].Committed != 160 {
		t.Fatalf("committed %d, want 160", g.Partitions[0].Committed)
	}
	// At the last poll (t0+40s) the commit is at 160 on each partition:
	// the record at 160 was stamped t0-20s, 60s before.
	if v.MaxTimeLag.Kind != lag.TimeLagExact || v.MaxTimeLag.Seconds != 60 {
		t.Fatalf("time lag %+v, want an exact 60s", v.MaxTimeLag)
	}
	wantEvidence(t, f, diagnose.Evidence{
		{Key: "produceRate", Value: 36.0}, {Key: "consumeRate", Value: 12.0}, {Key: "lagGrowthPerSecond", Value: 24.0},
		{Key: "lag", Value: int64(3 * (200 + 8*60 - 160))},
		{Key: "timeLagSeconds", Value: 60.0}, {Key: "timeLagKind", Value: "exact"},
		{Key: "timeLagGrowthPerSecond", Value: 0.667},
		{Key: "members", Value: int64(1)}, {Key: "partitions", Value: int64(3)}, {Key: "membersCanHelp", Value: true},
		{Key: "catchUpSeconds", Value: nil},
	})
	want := diagnose.Message{
		Format: "the group consumes %s while %s is produced: its lag grows %s and its time lag (%s) %.2fs a second; " +
			"it never catches up at these rates; %s %s %s: more members, or faster ones, would help",
		Args: []any{diagnose.Rate(12), diagnose.Rate(36), diagnose.Rate(24), diagnose.Span(60 * time.Second), 0.667, diagnose.Count{N: 1, One: "member", Many: "members"}, "shares", diagnose.Count{N: 3, One: "partition", Many: "partitions"}},
	}
	if !reflect.DeepEqual(f.Message, want) {
		t.Errorf("message %#v\nwant    %#v", f.Message, want)
	}
	if fieldOf(t, f, "consumeRate").(float64)*3 != fieldOf(t, f, "produceRate").(float64) {
		t.Errorf("the member handles a third: %v of %v", fieldOf(t, f, "consumeRate"), fieldOf(t, f, "produceRate"))
	}
}

// TestSteadyDelayHasNoFindingOnKfake: a member that handles each record
// 20s after it was written and commits at every poll keeps pace with a
// lag that is never zero: OK, and nothing to find.
func TestSteadyDelayHasNoFindingOnKfake(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "steady", 1)
	t0 := time.Now().Add(-time.Hour).Truncate(time.Millisecond)
	// Two records a second from t0-20s: 40 written before the first poll.
	produceAt(t, c, "steady", 0, 40, t0.Add(-20*time.Second), 500*time.Millisecond)
	m := c.Join(t, "g-steady", []string{"steady"}, kgo.ClientID("steady-worker"))
	c.WaitStable(t, "g-steady", 1, 1)
	commitAs(t, m, "steady", map[int32]int64{0: 0})
	end := int64(40)
	fs, v, last := clocked(t, c, "g-steady", t0, 5*time.Second, 12, func(k int) {
		produceAt(t, c, "steady", 0, 10, t0.Add(time.Duration(k-1)*5*time.Second), 500*time.Millisecond)
		end += 10
		commitAs(t, m, "steady", map[int32]int64{0: end - 40})
	})
	if len(fs) != 0 {
		t.Fatalf("findings %v, want none", ids(fs))
	}
	if got := v.Text(); got != "OK" {
		t.Fatalf("verdict %s, want OK", got)
	}
	if g, _ := last.Group("g-steady"); g.Partitions[0].Lag != 40 {
		t.Fatalf("lag %d, want 40", g.Partitions[0].Lag)
	}
}

// TestSlowMemberInTurnOnKfake is the demo's analytics-slow on real
// members: one member owns three partitions that each get 10 records a
// step, and reads 15 a step, one partition at a time, four steps on each
// before the next. At the last poll it serves partition 2; partitions 0
// and 1 wait their turn, their commits standing past their own rhythm,
// so the verdict's rules call them STALL. The group falls behind (the
// header's catch-up says so), and the findings agree: one
// slower-than-producers counting every partition, never
// member-not-committing (the member commits) nor a record to blame on
// the waiting partitions (the member is behind on the one it serves too).
func TestSlowMemberInTurnOnKfake(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "turns", 3)
	t0 := time.Now().Add(-time.Hour).Truncate(time.Millisecond)
	for p := range int32(3) {
		produceAt(t, c, "turns", p, 50, t0.Add(-50*time.Second), time.Second)
	}
	m := c.Join(t, "g-turns", []string{"turns"}, kgo.ClientID("slow-worker"))
	c.WaitStable(t, "g-turns", 1, 3)
	committed := map[int32]int64{0: 0, 1: 0, 2: 0}
	commitAs(t, m, "turns", committed)

	fs, v, _ := clocked(t, c, "g-turns", t0, 5*time.Second, 12, func(k int) {
		for p := range int32(3) {
			produceAt(t, c, "turns", p, 10, t0.Add(time.Duration(k)*5*time.Second-5*time.Second), 500*time.Millisecond)
		}
		p := int32((k - 1) / 4 % 3)
		committed[p] += 15
		commitAs(t, m, "turns", map[int32]int64{p: committed[p]})
	})
	stalled := 0
	for _, p := range v.Partitions {
		if p.Status == lag.StatusStall {
			stalled++
		}
	}
	if stalled == 0 {
		// The verdict's rules may call the waiting partitions what
		// they are; the findings below must hold either way (the
		// table tests cover STALL waiting partitions on their own).
		t.Logf("no partition STALL in the verdict: the findings are judged without waiting STALL partitions")
	}
	if got := ids(fs); !reflect.DeepEqual(got, []string{"WARN slower-than-producers"}) {
		t.Fatalf("findings %v, want slower-than-producers alone", got)
	}
	// 30 records a step produced over the three, 15 read: 6/s and 3/s.
	if got, want := fieldOf(t, fs[0], "produceRate"), 6.0; got != want {
		t.Errorf("produceRate %v, want %v", got, want)
	}
	if got, want := fieldOf(t, fs[0], "consumeRate"), 3.0; got != want {
		t.Errorf("consumeRate %v, want %v", got, want)
	}
	if v.CatchUp.State != lag.FallingBehind || v.CatchUp.Behind != 3 {
		t.Errorf("catch-up %+v, want falling behind 3/s", v.CatchUp)
	}
}
