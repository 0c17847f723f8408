// Package benchseed seeds the cluster that cmd/uibench and
// cmd/exporterbench measure against: an in-process kfake cluster or a real
// Kafka cluster, in one shape. It imports no kgroups package, so that
// exporterbench, which measures kgroups from outside as any other
// exporter, may use it (cmd/kgroups/layering_test.go).
package benchseed

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Records is how many records each partition holds.
const Records = 100

// ScaleGroups is the scale mode's number of groups (-scale): over the
// default 20 topics of 12 partitions, 600,000 committed partitions.
const ScaleGroups = 50000

// Layout is the cluster's shape: Groups Empty groups over Topics topics of
// Partitions partitions each. Group i commits every partition of topic
// i mod Topics, so Groups×Partitions partitions carry a commit (2,000 × 12
// = 24,000 by default). Every partition holds 100 records and every group
// has consumed them all (lag 0), except with LagEvery n > 0, when every
// nth group commits 3 records short: its time lag then grows with the
// clock, so its row changes at each refresh. Nothing is produced or
// committed afterwards.
type Layout struct {
	Groups, Topics, Partitions int
	LagEvery                   int
}

// Topic names topic i.
func (l Layout) Topic(i int) string { return fmt.Sprintf("topic-%02d", i) }

// Group names group i.
func (l Layout) Group(i int) string { return fmt.Sprintf("group-%05d", i) }

// behind is how many records short of the log end group i commits on
// each partition of its topic: 0, or 3 for a lagging group.
func (l Layout) behind(i int) int64 {
	if l.LagEvery > 0 && i%l.LagEvery == 0 {
		return 3
	}
	return 0
}

// Check refuses a shape the names cannot spell or the cluster cannot hold.
func (l Layout) Check() error {
	switch {
	case l.Groups < 1 || l.Topics < 1 || l.Partitions < 1:
		return fmt.Errorf("-groups, -topics and -partitions must be at least 1 (got %d, %d, %d)", l.Groups, l.Topics, l.Partitions)
	case l.Groups > 99999 || l.Topics > 99:
		return fmt.Errorf("-groups goes up to 99999 and -topics to 99 (got %d, %d)", l.Groups, l.Topics)
	case l.LagEvery < 0:
		return fmt.Errorf("-lag-every must be 0 (no group lags) or more (got %d)", l.LagEvery)
	}
	return nil
}

// Describe says the shape in a line: "N Empty groups, T topics x P
// partitions, C committed partitions, every group caught up".
func (l Layout) Describe() string {
	lagging := "every group caught up"
	if l.LagEvery > 0 {
		lagging = fmt.Sprintf("every %dth group 3 records behind", l.LagEvery)
	}
	return fmt.Sprintf("%d Empty groups, %d topics x %d partitions, %d committed partitions, %s",
		l.Groups, l.Topics, l.Partitions, l.Groups*l.Partitions, lagging)
}

// StartKfake runs a three-broker kfake cluster on loopback and fills it as
// l says.
func StartKfake(ctx context.Context, l Layout) (*kfake.Cluster, error) {
	kc, err := kfake.NewCluster(kfake.NumBrokers(3))
	if err != nil {
		return nil, fmt.Errorf("start kfake: %w", err)
	}
	create := func(name string) (bool, error) { return true, kc.CreateTopic(name, int32(l.Partitions), nil) }
	if err := fill(ctx, kc.ListenAddrs(), l, create, false); err != nil {
		kc.Close()
		return nil, err
	}
	return kc, nil
}

// FillReal seeds a real Kafka cluster with l's shape: the topics (three
// replicas, or one a broker when there are fewer; the cluster places the
// leaders), records on every partition of a topic it creates, and every
// group's commits at the log end (3 records short for the lagging ones),
// with the admin API, which leaves each group Empty. A topic that exists
// is kept as it is and its log ends are read, so a second run finds the
// same offsets and measures the same groups; a group whose commits are
// already those is not committed again, so that a run does not leave the
// brokers writing and compacting 120,000 commits as the measuring starts.
func FillReal(ctx context.Context, addrs []string, l Layout) error {
	return fill(ctx, addrs, l, nil, true)
}

// fill creates the topics (through create, or the admin API when it is
// nil), writes the records to each topic it created, and commits every
// group at its log end less behind. Only a real cluster (isReal) reads
// the commits first and leaves alone the groups that already have them.
func fill(ctx context.Context, addrs []string, l Layout, create func(string) (bool, error), isReal bool) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		return fmt.Errorf("client: %w", err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	if create == nil {
		rf := int16(min(len(addrs), 3))
		create = func(name string) (bool, error) {
			resp, err := adm.CreateTopic(ctx, int32(l.Partitions), rf, nil, name)
			if err == nil {
				err = resp.Err
			}
			if errors.Is(err, kerr.TopicAlreadyExists) {
				return false, nil
			}
			return err == nil, err
		}
	}
	topics := make([]string, l.Topics)
	var recs []*kgo.Record
	for t := range topics {
		topics[t] = l.Topic(t)
		made, err := create(topics[t])
		if err != nil {
			return fmt.Errorf("create %s: %w", topics[t], err)
		}
		if !made {
			continue
		}
		for p := range l.Partitions {
			for range Records {
				recs = append(recs, &kgo.Record{Topic: topics[t], Partition: int32(p), Value: []byte("v")})
			}
		}
	}
	if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		return fmt.Errorf("produce: %w", err)
	}
	ends, err := adm.ListEndOffsets(ctx, topics...)
	if err == nil {
		err = ends.Error()
	}
	if err != nil {
		return fmt.Errorf("log ends: %w", err)
	}
	var have kadm.FetchOffsetsResponses
	if isReal {
		names := make([]string, l.Groups)
		for i := range names {
			names[i] = l.Group(i)
		}
		// A group that cannot be read is committed.
		have = adm.FetchManyOffsets(ctx, names...)
	}
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
				if i >= l.Groups {
					return
				}
				topic := l.Topic(i % l.Topics)
				os := make(kadm.Offsets)
				for p := range l.Partitions {
					end, ok := ends.Lookup(topic, int32(p))
					if !ok {
						errOnce.Do(func() { first = fmt.Errorf("no log end for %s/%d", topic, p) })
						return
					}
					os.AddOffset(topic, int32(p), end.Offset-l.behind(i), -1)
				}
				if isReal && same(have[l.Group(i)], os) {
					continue
				}
				resp, err := adm.CommitOffsets(ctx, l.Group(i), os)
				if err == nil {
					err = resp.Error()
				}
				if err != nil {
					errOnce.Do(func() { first = fmt.Errorf("commit %s: %w", l.Group(i), err) })
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
