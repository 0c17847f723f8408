package main

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Records is how many records each partition holds.
const records = 100

// cluster is the cluster the UI is measured against: in process, with a
// count of the polls it has served, or a real one (kc nil), whose polls
// are not counted.
type cluster struct {
	kc    *kfake.Cluster
	addrs []string
	polls *pollClock
}

// layout is the cluster's shape: groups Empty groups over topics topics of
// partitions partitions each. Group i commits every partition of topic
// i mod topics, so groups×partitions partitions carry a commit (2,000 × 12
// = 24,000 by default). Every partition holds 100 records and every group
// has consumed them all (lag 0), except with lagEvery n > 0, when every
// nth group commits 3 records short: its time lag then grows with the
// clock, so its row changes at each refresh. Nothing is produced or
// committed afterwards.
type layout struct {
	groups, topics, partitions int
	lagEvery                   int
}

func (l layout) topic(i int) string { return fmt.Sprintf("topic-%02d", i) }
func (l layout) group(i int) string { return fmt.Sprintf("group-%05d", i) }

// committed is what group i commits on each partition of its topic.
func (l layout) committed(i int) int64 {
	if l.lagEvery > 0 && i%l.lagEvery == 0 {
		return records - 3
	}
	return records
}

// startCluster runs a three-broker kfake cluster and fills it as layout
// says, or, given the brokers of a real cluster, seeds that one (fillReal).
func startCluster(ctx context.Context, l layout, brokers []string) (*cluster, error) {
	if len(brokers) > 0 {
		c := &cluster{addrs: brokers, polls: &pollClock{}}
		if err := fillReal(ctx, brokers, l); err != nil {
			return nil, err
		}
		return c, nil
	}
	kc, err := kfake.NewCluster(kfake.NumBrokers(3))
	if err != nil {
		return nil, fmt.Errorf("start kfake: %w", err)
	}
	c := &cluster{kc: kc, addrs: kc.ListenAddrs(), polls: &pollClock{}}
	if err := c.fill(ctx, l); err != nil {
		kc.Close()
		return nil, err
	}
	// A poll sends ListGroups to every broker at its start: the first of
	// them after a quiet moment starts a poll.
	kc.ControlKey(int16(kmsg.ListGroups), func(kmsg.Request) (kmsg.Response, error, bool) {
		c.polls.seen(time.Now())
		return nil, nil, false
	})
	return c, nil
}

func (c *cluster) close() {
	if c.kc != nil {
		c.kc.Close()
	}
}

// real reports whether the cluster is a real one, outside this process.
func (c *cluster) real() bool { return c.kc == nil }

func (c *cluster) fill(ctx context.Context, l layout) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.addrs...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		return fmt.Errorf("client: %w", err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	for t := range l.topics {
		if err := c.kc.CreateTopic(l.topic(t), int32(l.partitions), nil); err != nil {
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

// pollClock records when each poll of the cluster started.
type pollClock struct {
	mu     sync.Mutex
	starts []time.Time
	last   time.Time
}

// quiet is the gap after which a ListGroups belongs to a new poll.
const quiet = 300 * time.Millisecond

func (p *pollClock) seen(t time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.last.IsZero() || t.Sub(p.last) > quiet {
		p.starts = append(p.starts, t)
	}
	p.last = t
}

// since returns the starts of the polls from t on.
func (p *pollClock) since(t time.Time) []time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []time.Time
	for _, s := range p.starts {
		if !s.Before(t) {
			out = append(out, s)
		}
	}
	return out
}
