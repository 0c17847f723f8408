package diagnose

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka"
)

// Reader makes the extra reads the rules need, all of them reads, each
// batched by broker: producers and transactions only for the partitions whose stable offset trails the log end, topic retention once
// per topic for the Reader's life (or for RetentionMaxAge), and records
// only where a finding needs one. A Reader is safe for concurrent use.
type Reader struct {
	cl *kafka.Client
	// RetentionMaxAge, when positive, is how long a topic's retention.ms
	// is kept before a Retention call reads it again; zero keeps it for
	// the Reader's life. Set it before the first call.
	RetentionMaxAge time.Duration
	// Now is the clock of RetentionMaxAge (default time.Now).
	Now func() time.Time

	mu        sync.Mutex
	retention map[string]retained
}

type retained struct {
	ms int64
	at time.Time
}

// NewReader returns a Reader on cl.
func NewReader(cl *kafka.Client) *Reader {
	return &Reader{cl: cl, retention: make(map[string]retained)}
}

func (r *Reader) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// Trailing keeps the partitions of groups (as the last poll saw them)
// whose last stable offset is below their log end, with the stable offset
// the same partitions had in first (the groups as the window's first poll
// saw them; -1 when it was not known then). The polls read the stable
// offsets (kafka.PartitionOffsets.StableTrails), so this costs no request.
func Trailing(first, groups []*kafka.Group) map[TP]StableOffsets {
	before := make(map[TP]int64)
	for _, g := range first {
		for i := range g.Partitions {
			p := &g.Partitions[i]
			switch {
			case p.StableTrails:
				before[TP{p.Topic, p.Partition}] = p.LastStable
			case p.LogEnd >= 0 && p.Err == nil:
				before[TP{p.Topic, p.Partition}] = p.LogEnd
			}
		}
	}
	out := make(map[TP]StableOffsets)
	for _, g := range groups {
		for i := range g.Partitions {
			p := &g.Partitions[i]
			if !p.StableTrails {
				continue
			}
			tp := TP{p.Topic, p.Partition}
			f, ok := before[tp]
			if !ok {
				f = -1
			}
			out[tp] = StableOffsets{First: f, Last: p.LastStable}
		}
	}
	return out
}

// Transactions names the open transactions behind tps: DescribeProducers
// for those partitions (one request per leader), then ListTransactions
// (one per broker) and DescribeTransactions (one per transaction
// coordinator) for the producers with a transaction open. Nothing is read
// when tps is empty.
func (r *Reader) Transactions(ctx context.Context, tps []TP) (map[TP][]Producer, map[int64]Transaction, error) {
	prods := make(map[TP][]Producer)
	txns := make(map[int64]Transaction)
	if len(tps) == 0 {
		return prods, txns, nil
	}
	set := make(kadm.TopicsSet)
	for _, tp := range tps {
		set.Add(tp.Topic, tp.Partition)
	}
	described, err := r.cl.Admin().DescribeProducers(ctx, set)
	if err != nil && len(described) == 0 {
		return prods, txns, featureError{kafka.FeatureProducers, fmt.Errorf("describe producers: %w", err)}
	}
	var ids []int64
	seen := make(map[int64]bool)
	for _, p := range described.SortedProducers() {
		tp := TP{p.Topic, p.Partition}
		if _, want := set[p.Topic][p.Partition]; !want {
			continue
		}
		prods[tp] = append(prods[tp], Producer{
			ProducerID: p.ProducerID, ProducerEpoch: p.ProducerEpoch,
			LastTimestamp: p.LastTimestamp, TxnStartOffset: p.CurrentTxnStartOffset,
		})
		if p.CurrentTxnStartOffset >= 0 && !seen[p.ProducerID] {
			seen[p.ProducerID] = true
			ids = append(ids, p.ProducerID)
		}
	}
	if len(ids) == 0 {
		return prods, txns, nil
	}
	listed, err := r.cl.Admin().ListTransactions(ctx, ids, nil)
	if err != nil && len(listed) == 0 {
		return prods, txns, featureError{kafka.FeatureTransactions, fmt.Errorf("list transactions: %w", err)}
	}
	var names []string
	for _, l := range listed.Sorted() {
		names = append(names, l.TxnID)
		txns[l.ProducerID] = Transaction{TransactionalID: l.TxnID, ProducerID: l.ProducerID, State: l.State, StartTimestamp: -1}
	}
	if len(names) == 0 {
		return prods, txns, nil
	}
	dts, err := r.cl.Admin().DescribeTransactions(ctx, names...)
	if err != nil && len(dts) == 0 {
		return prods, txns, featureError{kafka.FeatureTransactionDetails, fmt.Errorf("describe transactions: %w", err)}
	}
	var derr error
	for _, d := range dts.Sorted() {
		if d.Err != nil {
			if _, ok := kafka.Classify(kafka.FeatureTransactionDetails, d.Err); ok && derr == nil {
				derr = featureError{kafka.FeatureTransactionDetails, fmt.Errorf("describe transaction %q: %w", d.TxnID, d.Err)}
			}
			continue
		}
		txns[d.ProducerID] = Transaction{
			TransactionalID: d.TxnID, ProducerID: d.ProducerID, State: d.State,
			TimeoutMillis: d.TimeoutMillis, StartTimestamp: d.StartTimestamp,
		}
	}
	return prods, txns, derr
}

// featureError is a failed read with the feature it was made for, so that
// Read can tell a read the brokers will never answer (kafka.Classify)
// from one that failed this time.
type featureError struct {
	f   kafka.Feature
	err error
}

func (e featureError) Error() string { return e.err.Error() }
func (e featureError) Unwrap() error { return e.err }

// Retention returns retention.ms of topics (-1 for unlimited), reading
// with DescribeConfigs only the topics this Reader has not read before
// (or read longer than RetentionMaxAge ago): once per topic for the
// Reader's life. Concurrent calls may read the same topic twice.
func (r *Reader) Retention(ctx context.Context, topics []string) (map[string]int64, error) {
	var want []string
	now := r.now()
	r.mu.Lock()
	for _, t := range topics {
		if v, ok := r.retention[t]; !ok || (r.RetentionMaxAge > 0 && now.Sub(v.at) >= r.RetentionMaxAge) {
			want = append(want, t)
		}
	}
	r.mu.Unlock()
	var rerr error
	if len(want) > 0 {
		sort.Strings(want)
		rcs, err := r.cl.Admin().DescribeTopicConfigs(ctx, want...)
		if err != nil && len(rcs) == 0 {
			rerr = featureError{kafka.FeatureRetention, fmt.Errorf("describe topic configs: %w", err)}
		}
		for _, rc := range rcs {
			if rc.Err != nil {
				if _, ok := kafka.Classify(kafka.FeatureRetention, rc.Err); ok && rerr == nil {
					rerr = featureError{kafka.FeatureRetention, fmt.Errorf("describe configs of topic %q: %w", rc.Name, rc.Err)}
				}
				continue
			}
			for _, c := range rc.Configs {
				if c.Key != "retention.ms" || c.Value == nil {
					continue
				}
				if v, err := strconv.ParseInt(*c.Value, 10, 64); err == nil {
					r.mu.Lock()
					r.retention[rc.Name] = retained{ms: v, at: now}
					r.mu.Unlock()
				}
			}
		}
	}
	out := make(map[string]int64, len(topics))
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, t := range topics {
		if v, ok := r.retention[t]; ok {
			out[t] = v.ms
		}
	}
	return out, rerr
}

// Bounds of a record read: enough for one record's preview, never a
// partition.
const (
	recordFetchMaxBytes          = 1 << 20
	recordFetchMaxPartitionBytes = 256 << 10
)

// Records reads the record at each of keys with one group-less direct
// consumer (it never joins or commits), bounded in bytes per fetch and by
// the client's timeout, one record per partition. A key whose offset holds
// no record (compaction, a transaction marker) gets the next record. A
// partition read at two offsets is read at the lowest only.
func (r *Reader) Records(ctx context.Context, keys []kafka.CommitKey) (map[kafka.CommitKey]Record, error) {
	out := make(map[kafka.CommitKey]Record, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	offsets := make(map[string]map[int32]kgo.Offset)
	pending := make(map[TP]kafka.CommitKey)
	for _, k := range keys {
		tp := TP{k.Topic, k.Partition}
		if old, ok := pending[tp]; ok && old.Offset <= k.Offset {
			continue
		}
		pending[tp] = k
		if offsets[k.Topic] == nil {
			offsets[k.Topic] = make(map[int32]kgo.Offset)
		}
		offsets[k.Topic][k.Partition] = kgo.NewOffset().At(k.Offset)
	}
	ctx, cancel := context.WithTimeout(ctx, r.cl.Timeout())
	defer cancel()
	base := r.cl.Kgo().Opts()
	cl, err := kgo.NewClient(append(base[:len(base):len(base)],
		kgo.ConsumePartitions(offsets),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchIsolationLevel(kgo.ReadUncommitted()),
		kgo.FetchMaxBytes(recordFetchMaxBytes),
		kgo.FetchMaxPartitionBytes(recordFetchMaxPartitionBytes),
	)...)
	if err != nil {
		return nil, fmt.Errorf("read records: %w", err)
	}
	defer cl.Close()
	for len(pending) > 0 {
		fs := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			break
		}
		fs.EachError(func(topic string, partition int32, err error) {
			k, ok := pending[TP{topic, partition}]
			var dl *kgo.ErrDataLoss
			if !ok || errors.As(err, &dl) {
				return
			}
			delete(pending, TP{topic, partition})
			out[k] = Record{Offset: k.Offset, Err: err}
			cl.PauseFetchPartitions(map[string][]int32{topic: {partition}})
		})
		fs.EachRecord(func(rec *kgo.Record) {
			tp := TP{rec.Topic, rec.Partition}
			k, ok := pending[tp]
			if !ok || rec.Offset < k.Offset {
				return
			}
			delete(pending, tp)
			out[k] = Record{
				Offset: rec.Offset, Timestamp: rec.Timestamp.UnixMilli(),
				Key: cut(rec.Key), Value: cut(rec.Value), KeySize: len(rec.Key), ValueSize: len(rec.Value),
				NullKey: rec.Key == nil, NullValue: rec.Value == nil,
			}
			cl.PauseFetchPartitions(map[string][]int32{rec.Topic: {rec.Partition}})
		})
	}
	for _, k := range pending {
		out[k] = Record{Offset: k.Offset, Err: fmt.Errorf("read %s/%d at offset %d: no record within %s", k.Topic, k.Partition, k.Offset, r.cl.Timeout())}
	}
	return out, nil
}

func cut(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte{}, b[:min(len(b), previewBytes)]...)
}
