package demo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// topic describes one demo topic and how fast it is written.
type topic struct {
	name       string
	partitions int32
	perSecond  int    // records written per second
	keyPrefix  string // records are keyed keyPrefix-N, N < keys
	keys       int
}

var topics = []topic{
	{name: "orders", partitions: 6, perSecond: 5, keyPrefix: "customer", keys: 40},
	{name: "payments", partitions: 3, perSecond: 2, keyPrefix: "account", keys: 20},
	{name: "clicks", partitions: 12, perSecond: 8, keyPrefix: "user", keys: 100},
	{name: "audit", partitions: 2, perSecond: 1, keyPrefix: "actor", keys: 10},
	{name: "inventory", partitions: 4, perSecond: 2, keyPrefix: "sku", keys: 30},
	{name: "search", partitions: 6, perSecond: 3, keyPrefix: "session", keys: 50},
	jobsTopic,
}

// seedPerPartition records are written to every partition before the
// workload starts, so that every group has something to consume and
// billing-archive's commits point inside the log.
const seedPerPartition = 10

// billingArchive is the Empty group: an archived consumer, whose one
// member joined and left at startup, and these commits.
const billingArchive = "billing-archive"

func billingArchiveOffsets() kadm.Offsets {
	var os kadm.Offsets
	os.AddOffset("payments", 0, 10, -1) // caught up with the seed data
	os.AddOffset("payments", 1, 4, -1)  // partition 2 is never committed
	return os
}

// seed writes seedPerPartition records to every partition and commits
// billing-archive's offsets once its one member has joined and left, all
// before any other member exists, so the offsets are exact and the commit
// is accepted (a group with members rejects it). The member makes it an
// archived consumer's group, which keeps the protocol type its member
// joined with (Kafka's groups that only ever had commits have none: a
// simple group, which the verdicts let wait for its rhythm).
func seed(ctx context.Context, addrs []string) error {
	cl, err := kgo.NewClient(
		kgo.SeedBrokers(addrs...),
		kgo.ClientID("demo-seed"),
		kgo.RecordPartitioner(kgo.ManualPartitioner()),
	)
	if err != nil {
		return fmt.Errorf("create demo seed client: %w", err)
	}
	defer cl.Close()

	var recs []*kgo.Record
	for _, t := range topics {
		for p := range t.partitions {
			for i := range seedPerPartition {
				recs = append(recs, record(t, i, p))
			}
		}
	}
	if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		return fmt.Errorf("seed demo topics: %w", err)
	}

	if err := joinAndLeave(ctx, addrs, billingArchive, "payments"); err != nil {
		return err
	}
	resp, err := kadm.NewClient(cl).CommitOffsets(ctx, billingArchive, billingArchiveOffsets())
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		return fmt.Errorf("commit offsets for group %s: %w", billingArchive, err)
	}
	return nil
}

// joinAndLeave has one member join group, consuming topic without
// committing, and leave once it is given its partitions.
func joinAndLeave(ctx context.Context, addrs []string, group, topic string) error {
	assigned := make(chan struct{})
	var once sync.Once
	cl, err := kgo.NewClient(
		kgo.SeedBrokers(addrs...),
		kgo.ClientID("demo-archived"),
		kgo.ConsumerGroup(group),
		kgo.ConsumeTopics(topic),
		kgo.DisableAutoCommit(),
		kgo.OnPartitionsAssigned(func(context.Context, *kgo.Client, map[string][]int32) {
			once.Do(func() { close(assigned) })
		}),
	)
	if err != nil {
		return fmt.Errorf("create the member of %s: %w", group, err)
	}
	defer cl.Close() // leaves the group
	polled := make(chan struct{})
	pctx, stop := context.WithCancel(ctx)
	go func() {
		defer close(polled)
		for pctx.Err() == nil {
			cl.PollFetches(pctx)
		}
	}()
	defer func() { stop(); <-polled }()
	select {
	case <-assigned:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("the member of %s was given no partitions: %w", group, ctx.Err())
	}
}

// record builds one small keyed record. partition only matters to a client
// with the manual partitioner.
func record(t topic, seq int, partition int32) *kgo.Record {
	key := fmt.Sprintf("%s-%d", t.keyPrefix, rand.IntN(t.keys))
	return &kgo.Record{
		Topic:     t.name,
		Partition: partition,
		Key:       []byte(key),
		Value:     fmt.Appendf(nil, `{"seq":%d,"%s":%q}`, seq, t.keyPrefix, key),
	}
}

// produce writes t's records at its steady rate until ctx is done.
func (c *Cluster) produce(ctx context.Context, t topic) {
	tick := time.NewTicker(time.Second / time.Duration(t.perSecond))
	defer tick.Stop()
	for seq := 0; ; seq++ {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		c.producer.Produce(ctx, record(t, seq, 0), func(_ *kgo.Record, err error) {
			if !benign(err) {
				c.log.printf("produce to %s: %v", t.name, err)
			}
		})
	}
}

// consumeMode is how a member treats what it consumes.
type consumeMode int

const (
	keepUp      consumeMode = iota // poll everything, autocommit
	fallBehind                     // process slowPerSecond records a second, autocommit what was processed
	neverCommit                    // poll everything, autocommit disabled
)

// slowPerSecond is how many records analytics-slow processes per second;
// far fewer than the 8/s written to clicks.
const slowPerSecond = 2

// slowPollMax bounds what analytics-slow holds in memory while it works
// through its backlog.
const slowPollMax = 500

// member is one group member's identity and client options.
type member struct {
	group    string
	clientID string
	mode     consumeMode
	opts     []kgo.Opt
}

// groupSpec describes one demo group; members are derived from it.
type groupSpec struct {
	name     string
	topics   []string
	members  int
	balancer kgo.GroupBalancer
	mode     consumeMode
	static   bool // give each member a group.instance.id
	kip848   bool // use the consumer (KIP-848) protocol
}

var groupSpecs = []groupSpec{
	{name: "orders-range", topics: []string{"orders"}, members: 2, balancer: kgo.RangeBalancer()},
	{name: "orders-roundrobin", topics: []string{"orders", "payments"}, members: 3, balancer: kgo.RoundRobinBalancer()},
	{name: "clicks-sticky", topics: []string{"clicks"}, members: 2, balancer: kgo.StickyBalancer()},
	{name: "clicks-cooperative", topics: []string{"clicks"}, members: 3, balancer: kgo.CooperativeStickyBalancer()},
	// With the server-side protocol the first balancer only names the
	// broker's assignor: sticky flavours map to "uniform".
	{name: "payments-848", topics: []string{"payments"}, members: 2, balancer: kgo.CooperativeStickyBalancer(), kip848: true},
	{name: "inventory-static", topics: []string{"inventory"}, members: 2, balancer: kgo.CooperativeStickyBalancer(), static: true},
	{name: "analytics-slow", topics: []string{"clicks"}, members: 1, balancer: kgo.RangeBalancer(), mode: fallBehind},
	{name: "audit-nocommit", topics: []string{"audit"}, members: 1, balancer: kgo.CooperativeStickyBalancer(), mode: neverCommit},
	{name: churnGroup.name, topics: churnGroup.topics, members: churnGroup.members, balancer: churnGroup.balancer},
}

// churnGroup has steady members plus one more that comes and goes (see
// churnMember). An eager assignor makes each change a full rebalance.
var churnGroup = groupSpec{name: "search-churn", topics: []string{"search"}, members: 2, balancer: kgo.RangeBalancer()}

// members lists every steady member of every group.
func members(addrs []string) []member {
	var ms []member
	for _, g := range groupSpecs {
		for i := 1; i <= g.members; i++ {
			ms = append(ms, newMember(addrs, g, i))
		}
	}
	return ms
}

// staticInstanceIDs maps each static group to its members' instance ids.
func staticInstanceIDs() map[string][]string {
	ids := make(map[string][]string)
	for _, g := range groupSpecs {
		if g.static {
			for i := 1; i <= g.members; i++ {
				ids[g.name] = append(ids[g.name], memberID(g, i))
			}
		}
	}
	return ids
}

// memberID is both the client id and, for static groups, the instance id.
func memberID(g groupSpec, i int) string { return fmt.Sprintf("%s-%d", g.name, i) }

// churnMember is search-churn's member that joins and leaves.
func churnMember(addrs []string) member {
	return newMember(addrs, churnGroup, churnGroup.members+1)
}

func newMember(addrs []string, g groupSpec, i int) member {
	id := memberID(g, i)
	opts := []kgo.Opt{
		kgo.SeedBrokers(addrs...),
		kgo.ClientID(id),
		kgo.ConsumerGroup(g.name),
		kgo.ConsumeTopics(g.topics...),
		kgo.Balancers(g.balancer),
		kgo.HeartbeatInterval(time.Second),
		kgo.SessionTimeout(10 * time.Second),
		kgo.AutoCommitInterval(time.Second),
	}
	if g.kip848 {
		opts = append(opts, kgo.ServerSideBalancer())
	}
	if g.static {
		opts = append(opts, kgo.InstanceID(id))
	}
	if g.mode == fallBehind {
		// Commit only what has been processed, not all that was polled.
		opts = append(opts, kgo.AutoCommitMarks())
	}
	if g.mode == neverCommit {
		opts = append(opts, kgo.DisableAutoCommit())
	}
	return member{group: g.name, clientID: id, mode: g.mode, opts: opts}
}

// consume polls cl as m's mode says until ctx is done. The caller closes cl,
// which leaves the group (static members stay until their session expires).
func (c *Cluster) consume(ctx context.Context, cl *kgo.Client, m member) {
	for {
		var fs kgo.Fetches
		if m.mode == fallBehind {
			fs = cl.PollRecords(ctx, slowPollMax)
		} else {
			fs = cl.PollFetches(ctx)
		}
		if ctx.Err() != nil || fs.IsClientClosed() {
			return
		}
		fs.EachError(func(t string, p int32, err error) {
			if !benign(err) {
				c.log.printf("%s (group %s) fetch %s/%d: %v", m.clientID, m.group, t, p, err)
			}
		})
		if m.mode != fallBehind {
			continue
		}
		// Process slowly, taking partitions in turn so that every
		// partition's commit advances and its lag stays visible.
		for _, r := range interleave(fs) {
			if !sleepCtx(ctx, time.Second/slowPerSecond) {
				return
			}
			cl.MarkCommitRecords(r)
		}
	}
}

// interleave orders the fetched records round-robin over their partitions,
// keeping each partition's own order.
func interleave(fs kgo.Fetches) []*kgo.Record {
	var parts [][]*kgo.Record
	total := 0
	fs.EachPartition(func(p kgo.FetchTopicPartition) {
		if len(p.Records) > 0 {
			parts = append(parts, p.Records)
			total += len(p.Records)
		}
	})
	out := make([]*kgo.Record, 0, total)
	for i := 0; len(out) < total; i++ {
		for _, rs := range parts {
			if i < len(rs) {
				out = append(out, rs[i])
			}
		}
	}
	return out
}

// churn makes m join its group, stay a while, leave, stay away a while, and
// so on until ctx is done. every is the time in and out; zero means 20-30s
// chosen at random each time.
func (c *Cluster) churn(ctx context.Context, m member, every time.Duration) {
	wait := func() time.Duration {
		if every > 0 {
			return every
		}
		return 20*time.Second + rand.N(10*time.Second)
	}
	for sleepCtx(ctx, wait()) {
		cl, err := kgo.NewClient(m.opts...)
		if err != nil {
			c.log.printf("create member %s of group %s: %v", m.clientID, m.group, err)
			return
		}
		mctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			c.consume(mctx, cl, m)
		}()
		sleepCtx(ctx, wait())
		cancel()
		<-done
		closeMember(cl)
	}
}
