package kafka_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

var peekBase = time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)

// producePeek writes recs to topic/partition with a plain producer; record
// i without a timestamp gets peekBase + i seconds.
func producePeek(t *testing.T, c *kafkatest.Cluster, topic string, partition int32, recs ...*kgo.Record) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	for i, r := range recs {
		r.Topic, r.Partition = topic, partition
		if r.Timestamp.IsZero() {
			r.Timestamp = peekBase.Add(time.Duration(i) * time.Second)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()
	if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		t.Fatalf("produce: %v", err)
	}
}

func peek(t *testing.T, cl *kafka.Client, req kafka.PeekRequest) kafka.PeekResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()
	res, err := cl.Peek(ctx, req)
	if err != nil {
		t.Fatalf("Peek: %v", err)
	}
	if len(res.Partitions) != len(req.Partitions) {
		t.Fatalf("Peek gave %d partitions, want %d", len(res.Partitions), len(req.Partitions))
	}
	return res
}

func textRecords(n int) []*kgo.Record {
	recs := make([]*kgo.Record, n)
	for i := range recs {
		recs[i] = &kgo.Record{Key: fmt.Appendf(nil, "k%d", i), Value: fmt.Appendf(nil, "value-%d", i)}
	}
	return recs
}

// TestPeekAtCommittedOffset reads the record at a group's commit and the two
// after it, exactly, and sends nothing that joins, commits or leaves.
func TestPeekAtCommittedOffset(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 2)
	recs := textRecords(6)
	recs[3].Headers = []kgo.RecordHeader{{Key: "trace", Value: []byte("abc")}, {Key: "n", Value: nil}}
	producePeek(t, c, "orders", 1, recs...)
	c.Commit(t, "billing", map[string]map[int32]int64{"orders": {1: 2}})

	rc := &requestCounter{n: map[int16]int{}}
	cl := c.Client(t, kgo.WithHooks(rc))
	res := peek(t, cl, kafka.PeekRequest{Group: "billing", Topic: "orders", Partitions: []int32{1}, Offset: kafka.OffsetNext, Count: 3})
	p := res.Partitions[0]
	if p.Err != nil {
		t.Fatalf("partition error: %v", p.Err)
	}
	if p.Committed != 2 || p.Start != 2 || p.LogStart != 0 || p.LogEnd != 6 || p.LastStable != 6 {
		t.Fatalf("bounds: committed %d start %d log %d..%d lso %d, want 2 2 0..6 6", p.Committed, p.Start, p.LogStart, p.LogEnd, p.LastStable)
	}
	if len(p.Records) != 3 {
		t.Fatalf("got %d records, want 3", len(p.Records))
	}
	for i, r := range p.Records {
		o := int64(i + 2)
		want := fmt.Sprintf("%d k%d value-%d %s CreateTime", o, o, o, peekBase.Add(time.Duration(o)*time.Second).Format(time.RFC3339))
		got := fmt.Sprintf("%d %s %s %s %s", r.Offset, r.Key, r.Value, r.Timestamp.UTC().Format(time.RFC3339), r.TimestampType())
		if got != want {
			t.Errorf("record %d = %q, want %q", i, got, want)
		}
		if r.Txn != kafka.TxnNone {
			t.Errorf("record %d txn = %v, want none", i, r.Txn)
		}
	}
	if r := p.Records[1]; len(r.Headers) != 2 || r.Headers[0].Key != "trace" || string(r.Headers[0].Value) != "abc" || r.Headers[1].Key != "n" || r.Headers[1].Value != nil {
		t.Errorf("headers of offset 3 = %+v", r.Headers)
	}
	if got := p.Records[1].Size; got != 2+7+5+3+1 {
		t.Errorf("size of offset 3 = %d, want 18", got)
	}
	if got := p.Records[0].Size; got != 9 {
		t.Errorf("size of offset 2 = %d, want 9", got)
	}

	counts := rc.take()
	t.Logf("requests of one peek: %v", counts)
	for _, key := range []string{"JoinGroup", "SyncGroup", "Heartbeat", "LeaveGroup", "OffsetCommit", "ConsumerGroupHeartbeat", "TxnOffsetCommit"} {
		if counts[key] != 0 {
			t.Errorf("peek sent %d %s requests, want none", counts[key], key)
		}
	}
	if counts["Fetch"] == 0 || counts["OffsetFetch"] != 1 {
		t.Errorf("peek sent Fetch %d, OffsetFetch %d; want some and 1", counts["Fetch"], counts["OffsetFetch"])
	}
}

// TestPeekAtOffset reads where --offset says, without the group's commit.
func TestPeekAtOffset(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 1)
	producePeek(t, c, "orders", 0, textRecords(8)...)
	cl := c.Client(t)
	res := peek(t, cl, kafka.PeekRequest{Group: "nobody", Topic: "orders", Partitions: []int32{0}, Offset: 6, Count: 5})
	p := res.Partitions[0]
	if p.Err != nil || p.Committed != kafka.NoOffset {
		t.Fatalf("err %v committed %d", p.Err, p.Committed)
	}
	if len(p.Records) != 2 || p.Records[0].Offset != 6 || p.Records[1].Offset != 7 {
		t.Fatalf("records %+v, want offsets 6 and 7 (the log ends at 8)", p.Records)
	}

	// A group that has committed: a read at another offset still says
	// where the group stands, as a read at its commit does.
	c.Commit(t, "billing", map[string]map[int32]int64{"orders": {0: 2}})
	res = peek(t, cl, kafka.PeekRequest{Group: "billing", Topic: "orders", Partitions: []int32{0}, Offset: 5, Count: 1})
	if p := res.Partitions[0]; p.Err != nil || p.Committed != 2 || p.Start != 5 || len(p.Records) != 1 || p.Records[0].Offset != 5 {
		t.Fatalf("at 5 for billing: err %v committed %d start %d records %+v, want committed 2 and the record at 5", p.Err, p.Committed, p.Start, p.Records)
	}
}

// TestPeekErrors: no commit, a commit below the log start after
// DeleteRecords, an offset at and beyond the log end, a partition the topic
// does not have.
func TestPeekErrors(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 3)
	producePeek(t, c, "orders", 0, textRecords(10)...)
	producePeek(t, c, "orders", 1, textRecords(4)...)
	c.Commit(t, "billing", map[string]map[int32]int64{"orders": {0: 2, 1: 4}})
	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()
	del := kadm.Offsets{}
	del.AddOffset("orders", 0, 7, -1)
	if _, err := c.Admin().DeleteRecords(ctx, del); err != nil {
		t.Fatal(err)
	}
	cl := c.Client(t)
	res := peek(t, cl, kafka.PeekRequest{Group: "billing", Topic: "orders", Partitions: []int32{0, 1, 2, 9}, Offset: kafka.OffsetNext, Count: 1})
	want := []string{
		"offset 2 is below the log start 7: the record is gone (deleted by retention or DeleteRecords)",
		"offset 4 is the log end: no record has been written there yet",
		`group "billing" has no committed offset on orders/2: give --offset to read elsewhere`,
		`topic "orders" has 3 partitions (0-2); partition 9 does not exist`,
	}
	for i, p := range res.Partitions {
		if p.Err == nil || p.Err.Error() != want[i] {
			t.Errorf("partition %d: err %v, want %q", p.Partition, p.Err, want[i])
		}
		if len(p.Records) != 0 {
			t.Errorf("partition %d: %d records, want none", p.Partition, len(p.Records))
		}
	}
	var gone *kafka.RecordGoneError
	if !errors.As(res.Partitions[0].Err, &gone) || gone.LogStart != 7 || gone.Offset != 2 {
		t.Errorf("partition 0: %#v", res.Partitions[0].Err)
	}
	var nc *kafka.NoCommitError
	if !errors.As(res.Partitions[2].Err, &nc) {
		t.Errorf("partition 2: %#v", res.Partitions[2].Err)
	}

	// A topic that does not exist says so, not that it lacks the
	// partition.
	res = peek(t, cl, kafka.PeekRequest{Topic: "nosuch", Partitions: []int32{0}, Offset: 0, Count: 1})
	if err := res.Partitions[0].Err; err == nil || err.Error() != `topic "nosuch" does not exist` {
		t.Errorf("a topic that does not exist: %v", err)
	}

	res = peek(t, cl, kafka.PeekRequest{Group: "billing", Topic: "orders", Partitions: []int32{0}, Offset: 12, Count: 1})
	if err := res.Partitions[0].Err; err == nil || err.Error() != "offset 12 is beyond the log end 10" {
		t.Errorf("offset 12: %v", err)
	}
	if _, err := cl.Peek(ctx, kafka.PeekRequest{Topic: "orders", Partitions: []int32{0}, Offset: 0, Count: 0}); err == nil {
		t.Error("count 0 accepted")
	}
}

// TestPeekCompactedGap: compaction removed the record at the offset asked
// for, and the error names the offset of the next record, which is shown.
func TestPeekCompactedGap(t *testing.T) {
	c := kafkatest.NewCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()
	if _, err := c.Admin().CreateTopic(ctx, 1, 1, map[string]*string{"cleanup.policy": kadm.StringPtr("compact")}, "accounts"); err != nil {
		t.Fatal(err)
	}
	// Recent timestamps, so that retention (7 days) keeps them.
	now := time.Now()
	producePeek(t, c, "accounts", 0,
		&kgo.Record{Key: []byte("a"), Value: []byte("a0"), Timestamp: now},
		&kgo.Record{Key: []byte("b"), Value: []byte("b1"), Timestamp: now},
		&kgo.Record{Key: []byte("a"), Value: []byte("a2"), Timestamp: now},
	)
	producePeek(t, c, "accounts", 0, &kgo.Record{Key: []byte("c"), Value: []byte("c3"), Timestamp: now})
	c.Compact()
	cl := c.Client(t)
	res := peek(t, cl, kafka.PeekRequest{Topic: "accounts", Partitions: []int32{0}, Offset: 0, Count: 2})
	p := res.Partitions[0]
	var gap *kafka.NoRecordAtError
	if !errors.As(p.Err, &gap) || gap.Offset != 0 || gap.Next != 1 || gap.Marker {
		t.Fatalf("err = %v, want no record at 0, next 1", p.Err)
	}
	if p.Err.Error() != "no record is stored at offset 0 (deleted by compaction); the next record is at offset 1" {
		t.Errorf("message %q", p.Err)
	}
	if len(p.Records) != 2 || p.Records[0].Offset != 1 || p.Records[1].Offset != 2 || string(p.Records[1].Value) != "a2" {
		t.Errorf("records %+v, want offsets 1 and 2", p.Records)
	}
}

func txnProducer(t *testing.T, c *kafkatest.Cluster, id string) *kgo.Client {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...), kgo.TransactionalID(id),
		kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.TransactionTimeout(60*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl
}

// TestPeekTransactions writes with real transactional producers: one
// transaction committed, one aborted and one left open, and peek names
// each record's state; a marker at the offset asked for is named too.
func TestPeekTransactions(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "payments", 1)
	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()
	run := func(id string, end kgo.TransactionEndTry, open bool, values ...string) {
		p := txnProducer(t, c, id)
		if err := p.BeginTransaction(); err != nil {
			t.Fatal(err)
		}
		for _, v := range values {
			if err := p.ProduceSync(ctx, &kgo.Record{Topic: "payments", Partition: 0, Value: []byte(v)}).FirstErr(); err != nil {
				t.Fatal(err)
			}
		}
		if open {
			return
		}
		if err := p.EndTransaction(ctx, end); err != nil {
			t.Fatal(err)
		}
	}
	run("tx-commit", kgo.TryCommit, false, "c0", "c1") // 0, 1, marker 2
	run("tx-abort", kgo.TryAbort, false, "a3")         // 3, marker 4
	run("tx-open", kgo.TryCommit, true, "o5")          // 5, open

	cl := c.Client(t)
	res := peek(t, cl, kafka.PeekRequest{Topic: "payments", Partitions: []int32{0}, Offset: 0, Count: 10})
	p := res.Partitions[0]
	if p.Err != nil {
		t.Fatal(p.Err)
	}
	if p.LogEnd != 6 || p.LastStable != 5 {
		t.Errorf("log end %d, last stable %d; want 6 and 5", p.LogEnd, p.LastStable)
	}
	var got []string
	for _, r := range p.Records {
		got = append(got, fmt.Sprintf("%d:%s:%s", r.Offset, r.Value, r.Txn))
	}
	if want := "[0:c0:committed 1:c1:committed 3:a3:aborted 5:o5:open]"; fmt.Sprint(got) != want {
		t.Errorf("records %v, want %s", got, want)
	}

	res = peek(t, cl, kafka.PeekRequest{Topic: "payments", Partitions: []int32{0}, Offset: 2, Count: 1})
	p = res.Partitions[0]
	if p.Err == nil || p.Err.Error() != "offset 2 holds a transaction marker, not a record; the next record is at offset 3" {
		t.Errorf("err %v", p.Err)
	}
	if len(p.Records) != 1 || p.Records[0].Offset != 3 || p.Records[0].Txn != kafka.TxnAborted {
		t.Errorf("records %+v", p.Records)
	}
}

// TestPeekShareGroupAtStartOffset: a share group has no committed offset;
// it resumes at its share-partition start offset, which peek reads at.
// The group is made Empty with start offset 4 on orders/1 through
// AlterShareGroupOffsets, as an admin would.
func TestPeekShareGroupAtStartOffset(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 2)
	producePeek(t, c, "orders", 1, textRecords(6)...)
	cl := c.Client(t)
	offs := make(kadm.Offsets)
	offs.AddOffset("orders", 1, 4, -1)
	if _, err := cl.Admin().AlterShareGroupOffsets(context.Background(), "jobs-share", offs); err != nil {
		t.Fatalf("alter share group offsets: %v", err)
	}
	g := mustGroup(t, poll(t, cl), "jobs-share")
	if g.Type != kafka.TypeShare {
		t.Fatalf("type %q, want share", g.Type)
	}
	res := peek(t, cl, kafka.PeekRequest{Group: "jobs-share", Topic: "orders", Partitions: []int32{1, 0}, Offset: kafka.OffsetNext, Count: 2})
	p := res.Partitions[0]
	if p.Err != nil || p.Committed != 4 || p.Start != 4 || len(p.Records) != 2 || p.Records[0].Offset != 4 || p.Records[1].Offset != 5 {
		t.Fatalf("orders/1: err %v start %d, %d records, want the records at 4 and 5", p.Err, p.Start, len(p.Records))
	}
	if string(p.Records[0].Value) != "value-4" {
		t.Errorf("value at the start offset = %q, want value-4", p.Records[0].Value)
	}
	// orders/0 has no start offset: nothing to read there.
	var nc *kafka.NoCommitError
	if q := res.Partitions[1]; !errors.As(q.Err, &nc) {
		t.Errorf("orders/0: err %v, want no start offset", q.Err)
	}
}
