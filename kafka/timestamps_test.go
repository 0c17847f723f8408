package kafka_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// tsBase is the timestamp of record 0 in the timestamp tests; record i is
// stamped tsBase + i seconds (kafkatest.Produce).
var tsBase = time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)

func committedTimestamps(t *testing.T, cl *kafka.Client, parts []kafka.PartitionOffsets) map[kafka.CommitKey]kafka.RecordTime {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()
	got, err := cl.CommittedTimestamps(ctx, parts)
	if err != nil {
		t.Fatalf("CommittedTimestamps: %v", err)
	}
	return got
}

// groupParts polls the named groups and returns all their partitions.
func groupParts(t *testing.T, cl *kafka.Client, groups ...string) []kafka.PartitionOffsets {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()
	s, err := cl.PollGroups(ctx, groups...)
	if err != nil {
		t.Fatalf("poll: %v", err)
	}
	var out []kafka.PartitionOffsets
	for _, name := range groups {
		g, ok := s.Group(name)
		if !ok {
			t.Fatalf("group %s not in the snapshot", name)
		}
		if g.Err != nil {
			t.Fatalf("group %s: %v", name, g.Err)
		}
		out = append(out, g.Partitions...)
	}
	return out
}

func key(topic string, p int32, off int64) kafka.CommitKey {
	return kafka.CommitKey{Topic: topic, Partition: p, Offset: off}
}

func expectRecords(t *testing.T, got, want map[kafka.CommitKey]kafka.RecordTime) {
	t.Helper()
	keys := slices.SortedFunc(maps.Keys(got), func(a, b kafka.CommitKey) int {
		return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
	})
	if len(got) != len(want) {
		t.Errorf("read %d commits %v, want %d", len(got), keys, len(want))
	}
	for k, w := range want {
		g, ok := got[k]
		switch {
		case !ok:
			t.Errorf("%v: not read", k)
		case g.Err != nil:
			t.Errorf("%v: %v", k, g.Err)
		case g.Offset != w.Offset || !g.Timestamp.Equal(w.Timestamp) || g.NoRecords != w.NoRecords:
			t.Errorf("%v: got offset %d at %s (no records %v), want offset %d at %s (no records %v)",
				k, g.Offset, g.Timestamp.UTC().Format(time.RFC3339Nano), g.NoRecords, w.Offset, w.Timestamp.UTC().Format(time.RFC3339Nano), w.NoRecords)
		}
	}
}

func at(sec int) time.Time { return tsBase.Add(time.Duration(sec) * time.Second) }

func TestCommittedTimestamps(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "ts", 4)
	c.Produce(t, "ts", 0, 10, tsBase)               // offsets 0-9 at base+0..9s
	c.Produce(t, "ts", 1, 5, tsBase.Add(time.Hour)) // caught up below
	c.Produce(t, "ts", 2, 4, tsBase.Add(2*time.Hour))
	c.Produce(t, "ts", 3, 6, tsBase)
	// Two groups on the same partition at different offsets, a caught-up
	// partition, a partition without a commit in one group, and ts/3
	// that nobody asks about.
	c.Commit(t, "g-a", map[string]map[int32]int64{"ts": {0: 3, 1: 5}})
	c.Commit(t, "g-b", map[string]map[int32]int64{"ts": {0: 7, 2: 0}})
	c.Commit(t, "g-c", map[string]map[int32]int64{"ts": {3: 2}})

	// Count fetches of partitions nobody asked about, and of one that was.
	unasked := c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Fetch}, Topic: "ts", Partitions: []int32{1, 3}, Observe: true, Count: -1})
	asked := c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Fetch}, Topic: "ts", Partitions: []int32{0}, Observe: true, Count: -1})
	defer unasked.Remove()
	defer asked.Remove()

	cl := c.Client(t)
	parts := groupParts(t, cl, "g-a", "g-b")
	got := committedTimestamps(t, cl, parts)
	expectRecords(t, got, map[kafka.CommitKey]kafka.RecordTime{
		key("ts", 0, 3): {Offset: 3, Timestamp: at(3)},
		key("ts", 0, 7): {Offset: 7, Timestamp: at(7)},
		key("ts", 2, 0): {Offset: 0, Timestamp: at(7200)},
	})
	if n := unasked.Hits(); n != 0 {
		t.Errorf("%d fetches of partitions nobody asked for (ts/1 is caught up, ts/3 belongs to g-c)", n)
	}
	if asked.Hits() == 0 {
		t.Error("the fetch observer saw no fetch of ts/0: it cannot vouch for the check above")
	}

	// The reads never joined a group: the cluster still knows only the
	// three groups the test committed for, all Empty.
	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()
	listed, err := c.Admin().ListGroups(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if names := slices.Sorted(maps.Keys(listed)); !slices.Equal(names, []string{"g-a", "g-b", "g-c"}) {
		t.Errorf("groups after reading = %v, want [g-a g-b g-c]", names)
	}
	for name, g := range listed {
		if g.State != "Empty" {
			t.Errorf("group %s is %s, want Empty", name, g.State)
		}
	}

	// Nothing to read: no commit, caught up, unknown log end.
	none := committedTimestamps(t, cl, []kafka.PartitionOffsets{
		{Topic: "ts", Partition: 0, Committed: kafka.NoOffset, LogEnd: 10},
		{Topic: "ts", Partition: 0, Committed: 10, LogEnd: 10},
		{Topic: "ts", Partition: 0, Committed: 12, LogEnd: 10},
		{Topic: "ts", Partition: 0, Committed: 3, LogEnd: kafka.NoOffset},
	})
	if len(none) != 0 {
		t.Errorf("read %v for partitions with nothing to read", none)
	}
}

func TestCommittedTimestampsTruncated(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "ts", 1)
	c.Produce(t, "ts", 0, 10, tsBase)
	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()
	del := make(kadm.Offsets)
	del.AddOffset("ts", 0, 6, -1)
	resp, err := c.Admin().DeleteRecords(ctx, del)
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		t.Fatalf("delete records: %v", err)
	}
	c.Commit(t, "g", map[string]map[int32]int64{"ts": {0: 2}})
	cl := c.Client(t)

	// Retention deleted the record at the commit: the oldest message the
	// group can still consume is the first one left.
	parts := groupParts(t, cl, "g")
	if len(parts) != 1 || parts[0].LogStart != 6 || parts[0].Committed != 2 {
		t.Fatalf("partition %+v, want commit 2 below log start 6", parts)
	}
	expectRecords(t, committedTimestamps(t, cl, parts), map[kafka.CommitKey]kafka.RecordTime{
		key("ts", 0, 2): {Offset: 6, Timestamp: at(6)},
	})

	// The same when the caller's log start is stale: the broker answers
	// out of range and the read resumes at the log start.
	stale := parts[0]
	stale.LogStart = 0
	expectRecords(t, committedTimestamps(t, cl, []kafka.PartitionOffsets{stale}), map[kafka.CommitKey]kafka.RecordTime{
		key("ts", 0, 2): {Offset: 6, Timestamp: at(6)},
	})
}

func TestCommittedTimestampsTransactionMarkers(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "tx", 1)
	p, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...), kgo.TransactionalID("kgroups-test"),
		kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()
	txn := func(first, n int) {
		t.Helper()
		if err := p.BeginTransaction(); err != nil {
			t.Fatal(err)
		}
		for i := first; i < first+n; i++ {
			r := &kgo.Record{Topic: "tx", Partition: 0, Value: []byte("v"), Timestamp: at(i)}
			if err := p.ProduceSync(ctx, r).FirstErr(); err != nil {
				t.Fatal(err)
			}
		}
		if err := p.EndTransaction(ctx, kgo.TryCommit); err != nil {
			t.Fatal(err)
		}
	}
	// Offsets 0-2 data, 3 a commit marker, 4-5 data, 6 a commit marker.
	txn(0, 3)
	txn(10, 2)
	cl := c.Client(t)
	kafkatest.Eventually(t, "the second commit marker", func() bool {
		ends, err := c.Admin().ListEndOffsets(ctx, "tx")
		if err != nil {
			return false
		}
		o, ok := ends.Lookup("tx", 0)
		return ok && o.Offset == 7
	})
	// g-mid committed at a marker with records after it: the next record
	// it will consume is offset 4. g-end committed at the last marker:
	// only the marker is left, nothing to consume.
	c.Commit(t, "g-mid", map[string]map[int32]int64{"tx": {0: 3}})
	c.Commit(t, "g-end", map[string]map[int32]int64{"tx": {0: 6}})
	c.Commit(t, "g-data", map[string]map[int32]int64{"tx": {0: 1}})
	expectRecords(t, committedTimestamps(t, cl, groupParts(t, cl, "g-mid", "g-end", "g-data")), map[kafka.CommitKey]kafka.RecordTime{
		key("tx", 0, 3): {Offset: 4, Timestamp: at(10)},
		key("tx", 0, 6): {Offset: 6, NoRecords: true},
		key("tx", 0, 1): {Offset: 1, Timestamp: at(1)},
	})
}

func TestCommittedTimestampsErrors(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "ok", 1)
	c.CreateTopic(t, "denied", 1)
	c.CreateTopic(t, "slow", 1)
	for _, topic := range []string{"ok", "denied", "slow"} {
		c.Produce(t, topic, 0, 3, tsBase)
	}
	c.Commit(t, "g", map[string]map[int32]int64{"ok": {0: 1}, "denied": {0: 1}, "slow": {0: 1}})

	kcl, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...))
	if err != nil {
		t.Fatal(err)
	}
	defer kcl.Close()
	const timeout = 2 * time.Second
	cl := kafka.NewClient(kcl, c.Addrs, timeout)
	parts := groupParts(t, cl, "g")

	// A partition the client may not read fails alone; one whose leader
	// keeps failing is given up on at the request timeout. The other
	// partition is still read.
	denied := c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Fetch}, Topic: "denied", Err: kerr.TopicAuthorizationFailed, Count: -1})
	defer denied.Remove()
	slow := c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Fetch}, Topic: "slow", Err: kerr.NotLeaderForPartition, Count: -1})
	defer slow.Remove()

	got := committedTimestamps(t, cl, parts)
	if r := got[key("ok", 0, 1)]; r.Err != nil || r.Offset != 1 || !r.Timestamp.Equal(at(1)) {
		t.Errorf("ok/0: %+v, want offset 1 at %s", r, at(1))
	}
	if r := got[key("denied", 0, 1)]; !errors.Is(r.Err, kerr.TopicAuthorizationFailed) {
		t.Errorf("denied/0: error %v, want TOPIC_AUTHORIZATION_FAILED", r.Err)
	}
	r := got[key("slow", 0, 1)]
	if want := "read slow/0 at offset 1: no record read within 2s"; r.Err == nil || r.Err.Error() != want {
		t.Errorf("slow/0: error %v, want %q", r.Err, want)
	}
	if len(got) != 3 {
		t.Errorf("got %d results, want 3: %v", len(got), got)
	}
}

// BenchmarkCommittedTimestamps measures an exact time-lag read for a
// screenful of partitions (30, each committed halfway through 100
// records): one direct consumer, one record per partition.
func BenchmarkCommittedTimestamps(b *testing.B) {
	c := kafkatest.NewCluster(b)
	const partitions = 30
	c.CreateTopic(b, "bench", partitions)
	parts := make([]kafka.PartitionOffsets, partitions)
	for p := range int32(partitions) {
		end := c.Produce(b, "bench", p, 100, tsBase)
		parts[p] = kafka.PartitionOffsets{Topic: "bench", Partition: p, Committed: 50, LogStart: 0, LogEnd: end}
	}
	cl := c.Client(b)
	ctx := context.Background()
	for b.Loop() {
		got, err := cl.CommittedTimestamps(ctx, parts)
		if err != nil || len(got) != partitions {
			b.Fatalf("read %d of %d: %v", len(got), partitions, err)
		}
		for k, r := range got {
			if r.Err != nil || r.Offset != 50 {
				b.Fatalf("%v: %+v", k, r)
			}
		}
	}
}
