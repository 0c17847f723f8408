package main

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
)

// records is how many records each partition holds.
const records = 100

// layout is the cluster's shape, the one cmd/uibench and cmd/floorbench
// seed: groups Empty groups over topics topics of partitions partitions.
// Group i commits every partition of topic i mod topics at the log end,
// or 3 records short when lagEvery > 0 and i is a multiple of it.
type layout struct {
	groups, topics, partitions int
	lagEvery                   int
}

func (l layout) topic(i int) string { return fmt.Sprintf("topic-%02d", i) }
func (l layout) group(i int) string { return fmt.Sprintf("group-%05d", i) }

func (l layout) committed(i int) int64 {
	if l.lagEvery > 0 && i%l.lagEvery == 0 {
		return records - 3
	}
	return records
}

// startCluster runs a three-broker kfake cluster on loopback and fills it
// as l says.
func startCluster(ctx context.Context, l layout) (*kfake.Cluster, error) {
	kc, err := kfake.NewCluster(kfake.NumBrokers(3))
	if err != nil {
		return nil, fmt.Errorf("start kfake: %w", err)
	}
	if err := fill(ctx, kc, l); err != nil {
		kc.Close()
		return nil, err
	}
	return kc, nil
}

func fill(ctx context.Context, kc *kfake.Cluster, l layout) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(kc.ListenAddrs()...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		return fmt.Errorf("client: %w", err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	for t := range l.topics {
		if err := kc.CreateTopic(l.topic(t), int32(l.partitions), nil); err != nil {
			return fmt.Errorf("create %s: %w", l.topic(t), err)
		}
	}
	var recs []*kgo.Record
	for t := range l.topics {
		for p := range l.partitions {
			for range records {
				recs = append(recs, &kgo.Record{Topic: l.topic(t), Partition: int32(p), Value: []byte("v")})
			}
		}
	}
	if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		return fmt.Errorf("produce: %w", err)
	}
	var (
		next    atomic.Int64
		wg      sync.WaitGroup
		errOnce sync.Once
		first   error
	)
	for range 8 {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= l.groups {
					return
				}
				os := make(kadm.Offsets)
				for p := range l.partitions {
					os.AddOffset(l.topic(i%l.topics), int32(p), l.committed(i), -1)
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
