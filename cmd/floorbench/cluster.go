package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
)

// shape is the cluster the comparison runs on. Every group commits on every
// partition of exactly one topic, group i on topic i mod topics, so the
// committed partitions number groups × partitions (2,000 × 12 = 24,000 by
// default) and every topic has groups/topics groups on it.
type shape struct {
	groups     int
	topics     int
	partitions int32
	// records are written to every partition, so log ends are not zero.
	records int
	// cluster, when set, names the brokers of a real Kafka cluster to seed
	// and measure instead of an in-process kfake cluster (a fresh one:
	// the checks count every group it has).
	cluster string
}

func (s shape) topic(i int) string { return fmt.Sprintf("topic-%02d", i) }
func (s shape) group(i int) string { return fmt.Sprintf("group-%05d", i) }

// committedPartitions is how many (group, partition) pairs have a commit.
func (s shape) committedPartitions() int { return s.groups * int(s.partitions) }

// commitOffset is what group g commits on partition p: spread over
// 0..records, so that lags differ and some are zero.
func (s shape) commitOffset(g int, p int32) int64 {
	return int64((g + int(p)) % (s.records + 1))
}

// seeded is a running cluster with the shape's topics, records and commits.
type seeded struct {
	cluster *kfake.Cluster // nil for a real cluster (shape.cluster)
	addrs   []string
}

func (c *seeded) close() {
	if c.cluster != nil {
		c.cluster.Close()
	}
}

// seed starts three brokers on 127.0.0.1, creates the topics (partition p
// led by broker p mod 3, so requests per leader do not vary from run to
// run), writes s.records records to every partition and commits every
// group's offsets with the admin API, which leaves each group Empty.
func seed(ctx context.Context, s shape) (*seeded, error) {
	if s.cluster != "" {
		c := &seeded{addrs: strings.Split(s.cluster, ",")}
		return c, c.fill(ctx, s)
	}
	kc, err := kfake.NewCluster(kfake.NumBrokers(3))
	if err != nil {
		return nil, fmt.Errorf("start kfake: %w", err)
	}
	c := &seeded{cluster: kc, addrs: kc.ListenAddrs()}
	if err := c.fill(ctx, s); err != nil {
		kc.Close()
		return nil, err
	}
	return c, nil
}

func (c *seeded) fill(ctx context.Context, s shape) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.addrs...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		return fmt.Errorf("client: %w", err)
	}
	defer cl.Close()
	for t := range s.topics {
		name := s.topic(t)
		if c.cluster == nil {
			// A real cluster spreads the leaders itself.
			rf := int16(min(len(c.addrs), 3))
			resp, err := kadm.NewClient(cl).CreateTopic(ctx, s.partitions, rf, nil, name)
			if err == nil {
				err = resp.Err
			}
			// Seeded by an earlier run: the commits are the same, the
			// log ends grow by records.
			if err != nil && !errors.Is(err, kerr.TopicAlreadyExists) {
				return fmt.Errorf("create topic %s: %w", name, err)
			}
			continue
		}
		if err := c.cluster.CreateTopic(name, s.partitions, nil); err != nil {
			return fmt.Errorf("create topic %s: %w", name, err)
		}
		for p := range s.partitions {
			if err := c.cluster.MoveTopicPartition(name, p, p%int32(len(c.addrs))); err != nil {
				return fmt.Errorf("move %s/%d: %w", name, p, err)
			}
		}
	}

	if s.records > 0 {
		recs := make([]*kgo.Record, 0, s.topics*int(s.partitions)*s.records)
		for t := range s.topics {
			for p := range s.partitions {
				for i := range s.records {
					recs = append(recs, &kgo.Record{Topic: s.topic(t), Partition: p, Value: fmt.Appendf(nil, "v%d", i)})
				}
			}
		}
		for _, r := range cl.ProduceSync(ctx, recs...) {
			if r.Err != nil {
				return fmt.Errorf("produce %s/%d: %w", r.Record.Topic, r.Record.Partition, r.Err)
			}
		}
	}

	adm := kadm.NewClient(cl)
	work := make(chan int)
	errs := make(chan error, 1)
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for g := range work {
				if err := commit(ctx, adm, s, g); err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}
		})
	}
	for g := range s.groups {
		work <- g
	}
	close(work)
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
	}
	return nil
}

func commit(ctx context.Context, adm *kadm.Client, s shape, g int) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	os := make(kadm.Offsets)
	topic := s.topic(g % s.topics)
	for p := range s.partitions {
		os.AddOffset(topic, p, s.commitOffset(g, p), -1)
	}
	resp, err := adm.CommitOffsets(ctx, s.group(g), os)
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		return fmt.Errorf("commit %s: %w", s.group(g), err)
	}
	return nil
}
