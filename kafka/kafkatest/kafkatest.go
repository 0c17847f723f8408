// Package kafkatest runs a real Kafka-protocol cluster in the test process
// (franz-go's kfake, three brokers on 127.0.0.1) and real kgo consumer-group
// members against it, so that kgroups is tested against the protocol rather
// than against mocks.
package kafkatest

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka"
)

// WaitTimeout bounds every wait helper. It is generous on purpose: the race
// detector on a busy two-core machine is slow, and a wait only takes this
// long when something is broken.
const WaitTimeout = 60 * time.Second

// Cluster is a three-broker kfake cluster that closes itself when the test
// ends.
type Cluster struct {
	*kfake.Cluster
	Addrs []string

	admCl *kgo.Client
	adm   *kadm.Client
}

// NewCluster starts the cluster. Extra kfake options are applied after the
// defaults (three brokers, fast KIP-848 heartbeats).
func NewCluster(t testing.TB, opts ...kfake.Opt) *Cluster {
	t.Helper()
	all := append([]kfake.Opt{
		kfake.NumBrokers(3),
		kfake.BrokerConfigs(map[string]string{
			"group.consumer.heartbeat.interval.ms": "100",
			"group.consumer.session.timeout.ms":    "6000",
			"group.share.heartbeat.interval.ms":    "100",
		}),
	}, opts...)
	kc, err := kfake.NewCluster(all...)
	if err != nil {
		t.Fatalf("start kfake: %v", err)
	}
	c := &Cluster{Cluster: kc, Addrs: kc.ListenAddrs()}
	c.admCl, err = kgo.NewClient(kgo.SeedBrokers(c.Addrs...))
	if err != nil {
		kc.Close()
		t.Fatalf("admin client: %v", err)
	}
	c.adm = kadm.NewClient(c.admCl)
	t.Cleanup(func() {
		c.admCl.Close()
		kc.Close()
	})
	return c
}

// Admin is a kadm client for setting up and checking state in tests.
func (c *Cluster) Admin() *kadm.Client { return c.adm }

// Client returns a kgroups client on the cluster, closed at the end of the
// test. Extra kgo options (hooks, for example) are added to the defaults.
func (c *Cluster) Client(t testing.TB, opts ...kgo.Opt) *kafka.Client {
	t.Helper()
	all := append([]kgo.Opt{kgo.SeedBrokers(c.Addrs...), kgo.MetadataMinAge(250 * time.Millisecond)}, opts...)
	cl, err := kgo.NewClient(all...)
	if err != nil {
		t.Fatalf("kgo client: %v", err)
	}
	t.Cleanup(cl.Close)
	return kafka.NewClient(cl, c.Addrs, 10*time.Second)
}

// CreateTopic creates a topic with the given number of partitions, and makes
// broker p%3 the leader of partition p. kfake picks leaders at random, which
// would make per-leader request counts vary from run to run.
func (c *Cluster) CreateTopic(t testing.TB, topic string, partitions int32) {
	t.Helper()
	if err := c.Cluster.CreateTopic(topic, partitions, nil); err != nil {
		t.Fatalf("create topic %s: %v", topic, err)
	}
	for p := range partitions {
		if err := c.MoveTopicPartition(topic, p, p%int32(len(c.Addrs))); err != nil {
			t.Fatalf("move %s/%d to broker %d: %v", topic, p, p%int32(len(c.Addrs)), err)
		}
	}
}

// Produce writes n records to one partition and returns the log-end offset
// afterwards. Record i gets the timestamp base+i seconds when base is not
// zero.
func (c *Cluster) Produce(t testing.TB, topic string, partition int32, n int, base time.Time) int64 {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatalf("producer: %v", err)
	}
	defer cl.Close()
	recs := make([]*kgo.Record, n)
	for i := range recs {
		r := &kgo.Record{Topic: topic, Partition: partition, Value: fmt.Appendf(nil, "v%d", i)}
		if !base.IsZero() {
			r.Timestamp = base.Add(time.Duration(i) * time.Second)
		}
		recs[i] = r
	}
	ctx, cancel := context.WithTimeout(context.Background(), WaitTimeout)
	defer cancel()
	var last int64 = -1
	for _, r := range cl.ProduceSync(ctx, recs...) {
		if r.Err != nil {
			t.Fatalf("produce %s/%d: %v", topic, partition, r.Err)
		}
		last = r.Record.Offset
	}
	return last + 1
}

// Commit commits offsets for a group with the admin API. It only works on a
// group that is Empty or does not exist yet: the broker rejects admin commits
// to a live classic group.
func (c *Cluster) Commit(t testing.TB, group string, offsets map[string]map[int32]int64) {
	t.Helper()
	os := make(kadm.Offsets)
	for topic, ps := range offsets {
		for p, o := range ps {
			os.AddOffset(topic, p, o, -1)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), WaitTimeout)
	defer cancel()
	resp, err := c.adm.CommitOffsets(ctx, group, os)
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		t.Fatalf("commit %s: %v", group, err)
	}
}

// Member is a real consumer-group member: a kgo client polling in the
// background.
type Member struct {
	Client *kgo.Client
	Group  string

	cancel context.CancelFunc
	done   chan struct{}
	once   sync.Once
}

// Join starts a member of group consuming topics. By default it never
// commits (so tests control offsets exactly); pass kgo.AutoCommitInterval or
// drop kgo.DisableAutoCommit through opts to change that. Balancers, instance
// ids and the KIP-848 protocol come through opts, e.g.
// kgo.Balancers(kgo.RangeBalancer()) or kgo.ServerSideBalancer().
func (c *Cluster) Join(t testing.TB, group string, topics []string, opts ...kgo.Opt) *Member {
	t.Helper()
	all := append([]kgo.Opt{
		kgo.SeedBrokers(c.Addrs...),
		kgo.ConsumerGroup(group),
		kgo.ConsumeTopics(topics...),
		kgo.DisableAutoCommit(),
		kgo.HeartbeatInterval(100 * time.Millisecond),
		kgo.SessionTimeout(6 * time.Second),
		kgo.RebalanceTimeout(6 * time.Second),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
	}, opts...)
	cl, err := kgo.NewClient(all...)
	if err != nil {
		t.Fatalf("member of %s: %v", group, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &Member{Client: cl, Group: group, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(m.done)
		for ctx.Err() == nil {
			cl.PollFetches(ctx)
		}
	}()
	t.Cleanup(m.Close)
	return m
}

// JoinAndLeave has one member join group, consuming topics, and leave
// once the group is Stable: the group is then Empty and keeps the
// protocol type its member joined with, as an archived consumer's group
// does on Kafka, where a group that only ever had offsets committed has
// none (kafka.Group.Simple).
func (c *Cluster) JoinAndLeave(t testing.TB, group string, topics []string) {
	t.Helper()
	m := c.Join(t, group, topics)
	c.WaitStable(t, group, 1, 0)
	m.Close()
}

// Close stops polling and leaves the group (dynamic members send LeaveGroup;
// static members do not, as real clients behave).
func (m *Member) Close() {
	m.once.Do(func() {
		m.cancel()
		<-m.done
		m.Client.Close()
	})
}

// MemberID is the member id the coordinator gave this member.
func (m *Member) MemberID() string {
	id, _ := m.Client.GroupMetadata()
	return id
}

// WaitStable waits until the group is Stable with exactly members members,
// every member has an assignment and, when wantAssigned > 0, exactly that
// many partitions are assigned in total. It returns kfake's view of the
// group.
func (c *Cluster) WaitStable(t testing.TB, group string, members, wantAssigned int) *kfake.GroupInfo {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), WaitTimeout)
	defer cancel()
	gi, err := c.WaitGroupInfo(ctx, group, func(gi *kfake.GroupInfo) bool {
		if gi == nil || gi.State != "Stable" || len(gi.Members) != members {
			return false
		}
		for i := range gi.Members {
			if gi.Members[i].NumAssigned() == 0 && wantAssigned >= members {
				return false
			}
		}
		return wantAssigned <= 0 || gi.NumAssigned() == wantAssigned
	})
	if err != nil {
		last := c.GroupInfo(group)
		t.Fatalf("group %s never became Stable with %d members and %d partitions assigned: %v (last: %+v)", group, members, wantAssigned, err, last)
	}
	return gi
}

// Eventually polls cond every 50ms until it is true or WaitTimeout passes.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(WaitTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// SortedAssignment flattens a kfake member assignment to "topic/p" strings,
// sorted, for comparisons.
func SortedAssignment(a map[string][]int32) []string {
	var out []string
	for topic, ps := range a {
		for _, p := range ps {
			out = append(out, fmt.Sprintf("%s/%d", topic, p))
		}
	}
	sort.Strings(out)
	return out
}
