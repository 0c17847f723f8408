package kafka_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

func poll(t *testing.T, c *kafka.Client) *kafka.Snapshot {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()
	s, err := c.Poll(ctx)
	if err != nil {
		t.Fatalf("poll: %v", err)
	}
	return s
}

func mustGroup(t *testing.T, s *kafka.Snapshot, name string) *kafka.Group {
	t.Helper()
	g, ok := s.Group(name)
	if !ok {
		t.Fatalf("group %q missing from snapshot (have %d groups)", name, len(s.Groups))
	}
	if g.Err != nil {
		t.Fatalf("group %q: unexpected error %v", name, g.Err)
	}
	return g
}

func assignmentStrings(tps []kafka.TopicPartitions) []string {
	var out []string
	for _, tp := range tps {
		for _, p := range tp.Partitions {
			out = append(out, fmt.Sprintf("%s/%d", tp.Topic, p))
		}
	}
	slices.Sort(out)
	return out
}

// produceCounts writes base+p records to partition p of topic.
func produceCounts(t *testing.T, c *kafkatest.Cluster, topic string, partitions int32, base int) {
	t.Helper()
	for p := range partitions {
		c.Produce(t, topic, p, base+int(p), time.Time{})
	}
}

// TestPollClassicAssignors runs one real group per classic assignor and checks
// every field the snapshot reports against what was produced and committed
// and against the broker's own view of the group.
func TestPollClassicAssignors(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 6)
	produceCounts(t, c, "orders", 6, 10) // LEO of partition p is 10+p

	type tc struct {
		group    string
		balancer kgo.GroupBalancer
		assignor string
		members  int
	}
	cases := []tc{
		{"g-range", kgo.RangeBalancer(), "range", 2},
		{"g-roundrobin", kgo.RoundRobinBalancer(), "roundrobin", 3},
		{"g-sticky", kgo.StickyBalancer(), "sticky", 2},
		{"g-coop", kgo.CooperativeStickyBalancer(), "cooperative-sticky", 2},
	}
	// Commits are made while the groups are still empty: partitions 0-4 at
	// offset p+1, partition 5 never committed.
	commits := map[string]map[int32]int64{"orders": {}}
	for p := int32(0); p < 5; p++ {
		commits["orders"][p] = int64(p) + 1
	}
	for _, k := range cases {
		c.Commit(t, k.group, commits)
		for range k.members {
			c.Join(t, k.group, []string{"orders"}, kgo.Balancers(k.balancer))
		}
	}
	for _, k := range cases {
		c.WaitStable(t, k.group, k.members, 6)
	}

	s := poll(t, c.Client(t))
	if len(s.Brokers) != 3 {
		t.Fatalf("brokers = %d, want 3", len(s.Brokers))
	}
	if s.OffsetsTopicPartitions != kafka.DefaultOffsetsTopicPartitions {
		t.Fatalf("offsets topic partitions = %d, want %d", s.OffsetsTopicPartitions, kafka.DefaultOffsetsTopicPartitions)
	}
	for _, k := range cases {
		g := mustGroup(t, s, k.group)
		gi := c.GroupInfo(k.group)
		if g.Type != kafka.TypeClassic || g.ProtocolType != "consumer" {
			t.Errorf("%s: type %q/%q, want classic/consumer", k.group, g.Type, g.ProtocolType)
		}
		if g.State != kafka.StateStable {
			t.Errorf("%s: state %q, want Stable", k.group, g.State)
		}
		if g.Assignor != k.assignor {
			t.Errorf("%s: assignor %q, want %q", k.group, g.Assignor, k.assignor)
		}
		if want := c.CoordinatorFor(k.group); g.Coordinator.ID != want || g.Coordinator.Host != "127.0.0.1" || g.Coordinator.Port == 0 {
			t.Errorf("%s: coordinator %+v, want id %d on 127.0.0.1", k.group, g.Coordinator, want)
		}
		// abs(Java hashCode) % 50, computed independently of kgroups.
		wantPartition := map[string]int32{"g-range": 49, "g-roundrobin": 44, "g-sticky": 9, "g-coop": 15}
		if want := wantPartition[k.group]; g.OffsetsPartition != want {
			t.Errorf("%s: offsets partition %d, want %d", k.group, g.OffsetsPartition, want)
		}
		if len(g.Members) != k.members {
			t.Fatalf("%s: %d members, want %d", k.group, len(g.Members), k.members)
		}
		owner := map[string]string{}
		for i, m := range g.Members {
			bm := gi.Members[i] // both sorted by member id
			if m.MemberID != bm.MemberID {
				t.Fatalf("%s: member %d id %q, broker says %q", k.group, i, m.MemberID, bm.MemberID)
			}
			if got, want := assignmentStrings(m.Assignment), kafkatest.SortedAssignment(bm.Assignment); !slices.Equal(got, want) {
				t.Errorf("%s: member %s assignment %v, broker says %v", k.group, m.MemberID, got, want)
			}
			if !slices.Equal(m.Subscribed, []string{"orders"}) {
				t.Errorf("%s: member subscribed %v", k.group, m.Subscribed)
			}
			if m.ClientID != "kgo" || m.Host == "" || len(m.JoinMetadata) == 0 {
				t.Errorf("%s: member client %q host %q metadata %d bytes", k.group, m.ClientID, m.Host, len(m.JoinMetadata))
			}
			for _, a := range assignmentStrings(m.Assignment) {
				owner[a] = m.MemberID
			}
		}
		// Range and roundrobin are deterministic over sorted member ids.
		switch k.assignor {
		case "range":
			wantRange := [][]string{{"orders/0", "orders/1", "orders/2"}, {"orders/3", "orders/4", "orders/5"}}
			for i, m := range g.Members {
				if got := assignmentStrings(m.Assignment); !slices.Equal(got, wantRange[i]) {
					t.Errorf("range member %d: %v, want %v", i, got, wantRange[i])
				}
			}
		case "roundrobin":
			for i, m := range g.Members {
				want := []string{fmt.Sprintf("orders/%d", i), fmt.Sprintf("orders/%d", i+3)}
				if got := assignmentStrings(m.Assignment); !slices.Equal(got, want) {
					t.Errorf("roundrobin member %d: %v, want %v", i, got, want)
				}
			}
		}
		if len(g.Partitions) != 6 {
			t.Fatalf("%s: %d partitions, want 6", k.group, len(g.Partitions))
		}
		for i, p := range g.Partitions {
			wantCommitted, wantLag := int64(i)+1, int64(10+i)-int64(i)-1
			if i == 5 {
				wantCommitted, wantLag = kafka.NoOffset, kafka.NoOffset
			}
			if p.Topic != "orders" || p.Partition != int32(i) || p.Committed != wantCommitted || p.LogStart != 0 || p.LogEnd != int64(10+i) || p.Lag != wantLag || p.Err != nil {
				t.Errorf("%s partition %d: %+v, want committed %d log 0..%d lag %d", k.group, i, p, wantCommitted, 10+i, wantLag)
			}
			if want := owner[fmt.Sprintf("orders/%d", i)]; p.MemberID != want || want == "" || p.ClientID() != "kgo" {
				t.Errorf("%s partition %d owner %q/%q, want %q", k.group, i, p.MemberID, p.ClientID(), want)
			}
		}
		// Lags: 9,9,9,9,9 for partitions 0-4; partition 5 has no commit.
		if got := g.TotalLag(); got != 45 {
			t.Errorf("%s: total lag %d, want 45", k.group, got)
		}
	}
}

// TestPollConsumerProtocol checks a KIP-848 group: it must be described with
// ConsumerGroupDescribe (classic describe would call it Dead with no
// members), with epochs, the server assignor and topic names resolved.
func TestPollConsumerProtocol(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "payments", 4)
	produceCounts(t, c, "payments", 4, 20) // LEO 20,21,22,23
	c.Commit(t, "g-848", map[string]map[int32]int64{"payments": {0: 5, 1: 21, 3: 30}})
	m1 := c.Join(t, "g-848", []string{"payments"}, kgo.Balancers(kgo.RangeBalancer()), kgo.ServerSideBalancer(), kgo.ClientID("pay-a"))
	m2 := c.Join(t, "g-848", []string{"payments"}, kgo.Balancers(kgo.RangeBalancer()), kgo.ServerSideBalancer(), kgo.ClientID("pay-b"))

	cl := c.Client(t)
	var g *kafka.Group
	kafkatest.Eventually(t, "g-848 to settle with 2 members owning all 4 partitions", func() bool {
		s, err := cl.Poll(context.Background())
		if err != nil {
			return false
		}
		gg, ok := s.Group("g-848")
		if !ok || gg.Err != nil || gg.State != kafka.StateStable || len(gg.Members) != 2 {
			return false
		}
		for _, m := range gg.Members {
			if m.PartitionCount() != 2 || !slices.Equal(assignmentStrings(m.Assignment), assignmentStrings(m.Target)) {
				return false
			}
		}
		g = gg
		return true
	})
	if g.Type != kafka.TypeConsumer || g.ProtocolType != "consumer" {
		t.Errorf("type %q/%q, want consumer/consumer", g.Type, g.ProtocolType)
	}
	if g.Assignor != "range" {
		t.Errorf("assignor %q, want range", g.Assignor)
	}
	if g.GroupEpoch <= 0 || g.AssignmentEpoch != g.GroupEpoch {
		t.Errorf("epochs group %d assignment %d, want equal and > 0 once stable", g.GroupEpoch, g.AssignmentEpoch)
	}
	if want := c.CoordinatorFor("g-848"); g.Coordinator.ID != want {
		t.Errorf("coordinator %d, want %d", g.Coordinator.ID, want)
	}
	ids := map[string]bool{m1.MemberID(): true, m2.MemberID(): true}
	clients := map[string]string{}
	var all []string
	for _, m := range g.Members {
		if !ids[m.MemberID] {
			t.Errorf("member %q is not one of the real members %v", m.MemberID, ids)
		}
		if m.MemberEpoch != g.GroupEpoch {
			t.Errorf("member %s epoch %d, want group epoch %d", m.MemberID, m.MemberEpoch, g.GroupEpoch)
		}
		if !slices.Equal(m.Subscribed, []string{"payments"}) {
			t.Errorf("member %s subscribed %v", m.MemberID, m.Subscribed)
		}
		clients[m.MemberID] = m.ClientID
		all = append(all, assignmentStrings(m.Assignment)...)
	}
	slices.Sort(all)
	if want := []string{"payments/0", "payments/1", "payments/2", "payments/3"}; !slices.Equal(all, want) {
		t.Fatalf("assigned %v, want %v (topic names must be resolved from ids)", all, want)
	}
	type want struct{ committed, end, lag int64 }
	wants := []want{{5, 20, 15}, {21, 21, 0}, {kafka.NoOffset, 22, kafka.NoOffset}, {30, 23, 0}}
	for i, p := range g.Partitions {
		w := wants[i]
		if p.Committed != w.committed || p.LogEnd != w.end || p.Lag != w.lag || p.LogStart != 0 {
			t.Errorf("partition %d: committed %d end %d lag %d, want %+v", i, p.Committed, p.LogEnd, p.Lag, w)
		}
		if p.MemberID == "" || p.ClientID() != clients[p.MemberID] {
			t.Errorf("partition %d owner %q/%q", i, p.MemberID, p.ClientID())
		}
	}
	if g.TotalLag() != 15 {
		t.Errorf("total lag %d, want 15", g.TotalLag())
	}
}

// TestPollEmptyGroup: a group with commits and no members.
func TestPollEmptyGroup(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "audit", 2)
	c.CreateTopic(t, "billing", 3)
	produceCounts(t, c, "audit", 2, 7)
	produceCounts(t, c, "billing", 3, 100)
	c.Commit(t, "archive", map[string]map[int32]int64{"audit": {1: 3}, "billing": {0: 100, 2: 0}})

	s := poll(t, c.Client(t))
	g := mustGroup(t, s, "archive")
	if g.State != kafka.StateEmpty || len(g.Members) != 0 || g.Type != kafka.TypeClassic {
		t.Fatalf("state %q members %d type %q, want Empty/0/classic", g.State, len(g.Members), g.Type)
	}
	got := []string{}
	for _, p := range g.Partitions {
		got = append(got, fmt.Sprintf("%s/%d c=%d end=%d lag=%d owner=%q", p.Topic, p.Partition, p.Committed, p.LogEnd, p.Lag, p.MemberID))
	}
	want := []string{
		`audit/1 c=3 end=8 lag=5 owner=""`,
		`billing/0 c=100 end=100 lag=0 owner=""`,
		`billing/2 c=0 end=102 lag=102 owner=""`,
	}
	if !slices.Equal(got, want) {
		t.Fatalf("partitions\n got %q\nwant %q", got, want)
	}
	if g.TotalLag() != 107 {
		t.Errorf("total lag %d, want 107", g.TotalLag())
	}
	if ts := g.Topics(); !slices.Equal(ts, []string{"audit", "billing"}) {
		t.Errorf("topics %v", ts)
	}
}

// requestCounter counts requests sent, by API key, through kgo hooks.
type requestCounter struct {
	mu sync.Mutex
	n  map[int16]int
}

func (r *requestCounter) OnBrokerWrite(_ kgo.BrokerMetadata, key int16, _ int, _, _ time.Duration, _ error) {
	r.mu.Lock()
	r.n[key]++
	r.mu.Unlock()
}

func (r *requestCounter) take() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]int{}
	for k, v := range r.n {
		out[kmsg.NameForKey(k)] = v
	}
	r.n = map[int16]int{}
	return out
}

// countingClient is a client whose requests rc counts, with kgo's metadata
// cache kept for the whole test. kgo reads again the metadata a sharded
// request needs (each ListOffsets read) once its cache is older than
// MetadataMinAge, which kafkatest sets short, and refreshes it on its own
// at MetadataMaxAge: a poll slowed down by a loaded machine then sends more
// Metadata requests than a quick one, whatever its number of groups (and,
// since kgo sends them to any broker, it may open one more connection).
// With the cache kept, every request counted is one the poll's own phases
// send, so the counts compare exactly.
func countingClient(t testing.TB, c *kafkatest.Cluster, rc *requestCounter) *kafka.Client {
	t.Helper()
	return c.Client(t, kgo.WithHooks(rc), kgo.MetadataMinAge(time.Hour), kgo.MetadataMaxAge(time.Hour))
}

// TestPollRequestsDoNotGrowWithGroups polls a cluster with 10 consumer and 10
// share groups and one with 200 of each, and requires the same number of
// requests of every kind, cold (a new client) and warm (coordinators
// cached), Metadata included: the warm poll sends exactly its own one.
func TestPollRequestsDoNotGrowWithGroups(t *testing.T) {
	counts := func(groups int) (cold, warm map[string]int) {
		c := kafkatest.NewCluster(t)
		c.CreateTopic(t, "t1", 6)
		c.CreateTopic(t, "t2", 6)
		produceCounts(t, c, "t1", 6, 3)
		coords := map[int32]bool{}
		for i := range groups {
			name := fmt.Sprintf("group-%03d", i)
			c.Commit(t, name, map[string]map[int32]int64{"t1": {int32(i % 6): 1}, "t2": {int32(i % 6): 0}})
			coords[c.CoordinatorFor(name)] = true
		}
		shareGroupsAt(t, c, groups)
		if len(coords) != 3 {
			t.Fatalf("%d groups use %d coordinators; the test needs all 3 so the comparison is fair", groups, len(coords))
		}
		rc := &requestCounter{n: map[int16]int{}}
		cl := countingClient(t, c, rc)
		ctx := context.Background()
		if _, err := cl.Poll(ctx); err != nil {
			t.Fatal(err)
		}
		cold = rc.take()
		s, err := cl.Poll(ctx)
		if err != nil {
			t.Fatal(err)
		}
		warm = rc.take()
		if len(s.Groups) != 2*groups {
			t.Fatalf("polled %d groups, want %d", len(s.Groups), 2*groups)
		}
		shares := 0
		for i := range s.Groups {
			if s.Groups[i].Type == kafka.TypeShare {
				shares++
				if p := s.Groups[i].Partitions; len(p) != 1 || p[0].Committed != 1 {
					t.Fatalf("share group %s partitions %+v, want one at start offset 1", s.Groups[i].Name, p)
				}
			}
		}
		if shares != groups {
			t.Fatalf("polled %d share groups, want %d", shares, groups)
		}
		for i := range s.Groups {
			if s.Groups[i].Err != nil {
				t.Fatalf("group %s: %v", s.Groups[i].Name, s.Groups[i].Err)
			}
		}
		return cold, warm
	}
	cold10, warm10 := counts(10)
	cold200, warm200 := counts(200)
	t.Logf("10 groups: cold %v warm %v", cold10, warm10)
	t.Logf("200 groups: cold %v warm %v", cold200, warm200)
	if fmt.Sprint(cold10) != fmt.Sprint(cold200) {
		t.Errorf("cold poll requests differ: 10 groups %v, 200 groups %v", cold10, cold200)
	}
	if fmt.Sprint(warm10) != fmt.Sprint(warm200) {
		t.Errorf("warm poll requests differ: 10 groups %v, 200 groups %v", warm10, warm200)
	}
	if warm200["Metadata"] != 1 {
		t.Errorf("warm poll sent %d Metadata requests, want the poll's one", warm200["Metadata"])
	}
	for _, key := range []string{"DescribeGroups", "OffsetFetch", "ListGroups", "ShareGroupDescribe", "DescribeShareGroupOffsets"} {
		if warm200[key] == 0 || warm200[key] > 3 {
			t.Errorf("warm poll sent %d %s requests, want 1..3 (at most one per broker)", warm200[key], key)
		}
	}
	// Log start, log end and last stable offset (read_committed): one
	// ListOffsets per leader each.
	if n := warm200["ListOffsets"]; n == 0 || n > 9 {
		t.Errorf("warm poll sent %d ListOffsets requests, want 1..9 (three rounds, at most one per broker each)", n)
	}
}

// TestPollGroupErrorIsolated: one group's describe fails; the poll succeeds
// and only that group carries the error.
func TestPollGroupErrorIsolated(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "t", 2)
	produceCounts(t, c, "t", 2, 4)
	c.Commit(t, "good", map[string]map[int32]int64{"t": {0: 1}})
	c.Commit(t, "bad", map[string]map[int32]int64{"t": {1: 2}})
	c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.DescribeGroups}, Group: "bad", Err: kerr.UnknownServerError, Count: -1})

	s := poll(t, c.Client(t))
	good := mustGroup(t, s, "good")
	if good.TotalLag() != 3 {
		t.Errorf("good: total lag %d, want 3", good.TotalLag())
	}
	bad, ok := s.Group("bad")
	if !ok || bad.Err == nil {
		t.Fatalf("bad group: present %v err %v; want present with an error", ok, bad)
	}
	// Its offsets were still read.
	if len(bad.Partitions) != 1 || bad.Partitions[0].Committed != 2 || bad.Partitions[0].Lag != 3 {
		t.Errorf("bad group partitions %+v", bad.Partitions)
	}
}

// TestPollGroupsDoesNotDisturbMembers: describing a live group must not
// change its members or generation (reads never join).
func TestPollGroupsDoesNotDisturbMembers(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "t", 3)
	for range 2 {
		c.Join(t, "live", []string{"t"}, kgo.Balancers(kgo.RangeBalancer()))
	}
	before := c.WaitStable(t, "live", 2, 3)
	cl := c.Client(t)
	for range 3 {
		s, err := cl.PollGroups(context.Background(), "live", "missing")
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Groups) != 1 {
			t.Fatalf("PollGroups returned %d groups, want only \"live\"", len(s.Groups))
		}
	}
	after := c.GroupInfo("live")
	if after.Epoch != before.Epoch || after.State != "Stable" || len(after.Members) != 2 ||
		after.Members[0].MemberID != before.Members[0].MemberID || after.Members[1].MemberID != before.Members[1].MemberID {
		t.Fatalf("group changed by reads: before %+v after %+v", before, after)
	}
}

// TestPollUnreachable fails within the timeout and names the brokers.
func TestPollUnreachable(t *testing.T) {
	cl, err := kgo.NewClient(kgo.SeedBrokers("127.0.0.1:1"), kgo.RetryTimeout(time.Second), kgo.RequestRetries(1))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	c := kafka.NewClient(cl, []string{"127.0.0.1:1"}, time.Second)
	_, err = c.Poll(context.Background())
	if err == nil {
		t.Fatal("poll of a closed port succeeded")
	}
	if want := "127.0.0.1:1"; !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q does not name %s", err, want)
	}
}

// TestPollOffsetsTopicPartitions: the offsets partition uses the real
// partition count of __consumer_offsets when metadata shows the topic.
func TestPollOffsetsTopicPartitions(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "__consumer_offsets", 10)
	c.CreateTopic(t, "audit", 1)
	c.Commit(t, "archive", map[string]map[int32]int64{"audit": {0: 0}})

	s := poll(t, c.Client(t))
	if s.OffsetsTopicPartitions != 10 {
		t.Fatalf("offsets topic partitions = %d, want 10", s.OffsetsTopicPartitions)
	}
	// abs(hashCode("archive")) % 10 == 8 (% 50 would be 38).
	if g := mustGroup(t, s, "archive"); g.OffsetsPartition != 8 {
		t.Fatalf("offsets partition = %d, want 8", g.OffsetsPartition)
	}
}

// TestPollPartitionCounts: a poll records every topic's partition count,
// consumed or not.
func TestPollPartitionCounts(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "payments", 6)
	c.CreateTopic(t, "audit", 1)
	c.Commit(t, "archive", map[string]map[int32]int64{"audit": {0: 0}})

	s := poll(t, c.Client(t))
	if got := s.PartitionCounts["payments"]; got != 6 {
		t.Errorf("payments: %d partitions, want 6", got)
	}
	if got := s.PartitionCounts["audit"]; got != 1 {
		t.Errorf("audit: %d partitions, want 1", got)
	}
	if _, ok := s.PartitionCounts["nope"]; ok {
		t.Error("a topic that does not exist has a count")
	}
}

// TestPollSharesTopicStrings polls twice, with the OffsetFetch of Kafka 3.9
// (v9, which names topics in each group's answer, where v10 sends topic IDs
// that resolve to the metadata's names): every group committing to a topic
// holds one copy of its name, and the second snapshot holds the first
// one's, so a poll kept alive costs one string per topic.
func TestPollSharesTopicStrings(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "shared", 2)
	for _, g := range []string{"a", "b", "c"} {
		c.Commit(t, g, map[string]map[int32]int64{"shared": {0: 0, 1: 0}})
	}
	cl := c.Client(t, kgo.MaxVersions(kversion.V3_9_0()))
	ctx := context.Background()
	s1, err := cl.Poll(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := cl.Poll(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := unsafe.StringData(s1.Groups[0].Partitions[0].Topic)
	n := 0
	for _, s := range []*kafka.Snapshot{s1, s2} {
		for _, g := range s.Groups {
			for _, p := range g.Partitions {
				n++
				if p.Topic != "shared" || unsafe.StringData(p.Topic) != want {
					t.Errorf("%s %s/%d holds its own copy of the topic's name", g.Name, p.Topic, p.Partition)
				}
			}
		}
	}
	if n != 12 {
		t.Errorf("%d partitions in two polls, want 12", n)
	}
}
