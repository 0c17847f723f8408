package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

// fillReal seeds a real Kafka cluster with l's shape: the topics (three
// replicas, or one a broker when there are fewer; the cluster places the
// leaders), records on every partition of a topic it creates, and every
// group's commits at the log end (3 records short for the lagging ones),
// with the admin API, which leaves each group Empty. A topic that exists
// is kept as it is and its log ends are read, so a second run finds the
// same offsets and measures the same groups; a group whose commits are
// already those is not committed again, so that a run does not leave the
// brokers writing and compacting 120,000 commits as the measuring starts.
func fillReal(ctx context.Context, addrs []string, l layout) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		return fmt.Errorf("client: %w", err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	rf := int16(min(len(addrs), 3))
	var created []string
	for t := range l.topics {
		name := l.topic(t)
		resp, err := adm.CreateTopic(ctx, int32(l.partitions), rf, nil, name)
		if err == nil {
			err = resp.Err
		}
		switch {
		case err == nil:
			created = append(created, name)
		case errors.Is(err, kerr.TopicAlreadyExists):
		default:
			return fmt.Errorf("create %s: %w", name, err)
		}
	}
	var recs []*kgo.Record
	for _, name := range created {
		for p := range l.partitions {
			for range records {
				recs = append(recs, &kgo.Record{Topic: name, Partition: int32(p), Value: []byte("v")})
			}
		}
	}
	if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		return fmt.Errorf("produce: %w", err)
	}
	topics := make([]string, l.topics)
	for t := range topics {
		topics[t] = l.topic(t)
	}
	ends, err := adm.ListEndOffsets(ctx, topics...)
	if err == nil {
		err = ends.Error()
	}
	if err != nil {
		return fmt.Errorf("log ends: %w", err)
	}
	names := make([]string, l.groups)
	for i := range names {
		names[i] = l.group(i)
	}
	// A group that cannot be read is committed.
	have := adm.FetchManyOffsets(ctx, names...)
	var (
		next    atomic.Int64
		wg      sync.WaitGroup
		errOnce sync.Once
		first   error
	)
	for range 16 {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= l.groups {
					return
				}
				topic := l.topic(i % l.topics)
				os := make(kadm.Offsets)
				for p := range l.partitions {
					end, ok := ends.Lookup(topic, int32(p))
					if !ok {
						errOnce.Do(func() { first = fmt.Errorf("no log end for %s/%d", topic, p) })
						return
					}
					os.AddOffset(topic, int32(p), end.Offset-(records-l.committed(i)), -1)
				}
				if same(have[l.group(i)], os) {
					continue
				}
				resp, err := adm.CommitOffsets(ctx, l.group(i), os)
				if err == nil {
					err = resp.Error()
				}
				if err != nil {
					errOnce.Do(func() { first = fmt.Errorf("commit %s: %w", l.group(i), err) })
					return
				}
			}
		})
	}
	wg.Wait()
	return first
}

// same reports whether a group's fetched commits are exactly want.
func same(have kadm.FetchOffsetsResponse, want kadm.Offsets) bool {
	if have.Err != nil {
		return false
	}
	n := 0
	for _, ps := range have.Fetched {
		n += len(ps)
	}
	ok := true
	want.Each(func(o kadm.Offset) {
		got, found := have.Fetched.Lookup(o.Topic, o.Partition)
		n--
		ok = ok && found && got.Err == nil && got.At == o.At
	})
	return ok && n == 0
}
