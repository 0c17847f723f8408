package kafka_test

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// shareCluster starts a cluster with topic "jobs" (3 partitions, 10 records
// each) and a share group "share-jobs" of two real members that consume
// from the log start and acknowledge everything. It waits until the group
// has acknowledged all 30 records.
func shareCluster(t *testing.T) (*kafkatest.Cluster, []*kafkatest.Member) {
	t.Helper()
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "jobs", 3)
	for p := range int32(3) {
		c.Produce(t, "jobs", p, 10, time.Time{})
	}
	c.ShareEarliest("share-jobs")
	ms := []*kafkatest.Member{
		c.JoinShare(t, "share-jobs", []string{"jobs"}),
		c.JoinShare(t, "share-jobs", []string{"jobs"}),
	}
	cl := c.Client(t)
	waitShare(t, cl, "share-jobs", 2, map[int32]int64{0: 10, 1: 10, 2: 10})
	return c, ms
}

// waitShare polls until the share group has members members and exactly the
// wanted start offsets on topic jobs, and has settled: every member has
// taken the group's epoch in a heartbeat of its own, so a second read of
// the group (the broker's, in TestPollShareGroup) sees the same epochs.
func waitShare(t *testing.T, cl *kafka.Client, group string, members int, want map[int32]int64) *kafka.Group {
	t.Helper()
	deadline := time.Now().Add(kafkatest.WaitTimeout)
	var last *kafka.Group
	var lastErr error
	for time.Now().Before(deadline) {
		s, err := cl.Poll(context.Background())
		lastErr = err
		if g, ok := s.Group(group); err == nil && ok {
			last = g
			if shareAt(g, members, want) {
				return g
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	if last == nil {
		t.Fatalf("%s never polled (last error %v)", group, lastErr)
	}
	t.Fatalf("%s never had %d members at start offsets %v: last state %s, %d members, err %v, partitions %+v", group, members, want, last.State, len(last.Members), last.Err, last.Partitions)
	return nil
}

func shareAt(g *kafka.Group, members int, want map[int32]int64) bool {
	if g.Err != nil || len(g.Members) != members || len(g.Partitions) != len(want) {
		return false
	}
	for _, m := range g.Members {
		if m.MemberEpoch != g.GroupEpoch {
			return false
		}
	}
	for _, p := range g.Partitions {
		if p.Topic != "jobs" || want[p.Partition] != p.Committed {
			return false
		}
	}
	return true
}

// TestPollShareGroup checks a share group of two real kgo members against
// the broker's own view (ShareGroupDescribe through kadm) and the exact
// start offsets and lags, and that start offsets advance as the members
// acknowledge new records.
func TestPollShareGroup(t *testing.T) {
	c, _ := shareCluster(t)
	cl := c.Client(t)
	g := mustGroup(t, poll(t, cl), "share-jobs")
	if g.Type != kafka.TypeShare || !g.IsShare() || g.Share == nil {
		t.Fatalf("type %q share %v, want share", g.Type, g.Share)
	}
	if g.Share.LagSource != kafka.ShareLagBroker {
		t.Errorf("lag source %q, want %q (kfake speaks DescribeShareGroupOffsets v1)", g.Share.LagSource, kafka.ShareLagBroker)
	}

	ctx := context.Background()
	described, err := c.Admin().DescribeShareGroups(ctx, "share-jobs")
	if err != nil {
		t.Fatal(err)
	}
	dg := described["share-jobs"]
	if dg.Err != nil {
		t.Fatal(dg.Err)
	}
	if g.State != dg.GroupState || g.State != kafka.StateStable {
		t.Errorf("state %q, broker says %q, want Stable", g.State, dg.GroupState)
	}
	if g.GroupEpoch != dg.GroupEpoch || g.AssignmentEpoch != dg.AssignmentEpoch || g.GroupEpoch < 1 {
		t.Errorf("epochs %d/%d, broker says %d/%d", g.GroupEpoch, g.AssignmentEpoch, dg.GroupEpoch, dg.AssignmentEpoch)
	}
	if g.Assignor != dg.Assignor || g.Coordinator.ID != dg.Coordinator.NodeID || g.Coordinator.ID != c.CoordinatorFor("share-jobs") {
		t.Errorf("assignor %q coordinator %d, broker says %q %d", g.Assignor, g.Coordinator.ID, dg.Assignor, dg.Coordinator.NodeID)
	}
	if len(g.Members) != 2 || len(dg.Members) != 2 {
		t.Fatalf("members %d, broker %d, want 2", len(g.Members), len(dg.Members))
	}
	owners := map[string][]string{}
	for i, dm := range dg.Members {
		m := g.Members[i]
		if m.MemberID != dm.MemberID || m.ClientID != dm.ClientID || m.ClientID != "share-jobs-member" || m.Host != dm.ClientHost || m.MemberEpoch != dm.MemberEpoch {
			t.Errorf("member %d: %+v, broker %+v", i, m, dm)
		}
		if !slices.Equal(m.Subscribed, []string{"jobs"}) {
			t.Errorf("member %s subscribed %v, want [jobs]", m.MemberID, m.Subscribed)
		}
		var want []string
		for _, tp := range dm.Assignment.Sorted() {
			for _, p := range tp.Partitions {
				s := fmt.Sprintf("%s/%d", tp.Topic, p)
				want = append(want, s)
				owners[s] = append(owners[s], dm.MemberID)
			}
		}
		slices.Sort(want)
		if got := assignmentStrings(m.Assignment); !slices.Equal(got, want) {
			t.Errorf("member %s assignment %v, broker %v", m.MemberID, got, want)
		}
	}
	if len(owners) != 3 {
		t.Errorf("the broker assigned %d partitions, want all 3: %v", len(owners), owners)
	}
	for _, p := range g.Partitions {
		want := owners[fmt.Sprintf("%s/%d", p.Topic, p.Partition)]
		sort.Strings(want)
		if !slices.Equal(p.Owners(), want) {
			t.Errorf("%s/%d owners %v, broker %v", p.Topic, p.Partition, p.Owners(), want)
		}
		if len(want) > 0 && p.MemberID != want[0] {
			t.Errorf("%s/%d member %q, want the first owner %q", p.Topic, p.Partition, p.MemberID, want[0])
		}
		if p.Committed != 10 || p.LogStart != 0 || p.LogEnd != 10 || p.Lag != 0 || p.Err != nil {
			t.Errorf("%s/%d start %d log %d..%d lag %d err %v, want start 10 log 0..10 lag 0", p.Topic, p.Partition, p.Committed, p.LogStart, p.LogEnd, p.Lag, p.Err)
		}
	}

	// New records: the members acknowledge them and the start offsets
	// follow.
	c.Produce(t, "jobs", 0, 5, time.Time{})
	c.Produce(t, "jobs", 2, 7, time.Time{})
	g = waitShare(t, cl, "share-jobs", 2, map[int32]int64{0: 15, 1: 10, 2: 17})
	for _, p := range g.Partitions {
		if p.Lag != 0 || p.LogEnd != p.Committed {
			t.Errorf("%s/%d start %d log end %d lag %d after acknowledging, want lag 0", p.Topic, p.Partition, p.Committed, p.LogEnd, p.Lag)
		}
	}
	if g.TotalLag() != 0 {
		t.Errorf("total lag %d, want 0", g.TotalLag())
	}
}

// TestPollShareGroupLagWithoutV1 reads a share group through a client that
// only speaks DescribeShareGroupOffsets v0, which carries no lag: kgroups
// computes it from the log end and says so.
func TestPollShareGroupLagWithoutV1(t *testing.T) {
	c, ms := shareCluster(t)
	for _, m := range ms {
		m.Close()
	}
	c.Produce(t, "jobs", 1, 4, time.Time{})
	v := kversion.Tip()
	v.SetMaxKeyVersion(77, 1) // Tip predates ShareGroupDescribe
	v.SetMaxKeyVersion(90, 0)
	cl := c.Client(t, kgo.MaxVersions(v))
	g := waitShare(t, cl, "share-jobs", 0, map[int32]int64{0: 10, 1: 10, 2: 10})
	if g.State != kafka.StateEmpty {
		t.Errorf("state %q, want Empty", g.State)
	}
	if g.Share.LagSource != kafka.ShareLagLogEnd {
		t.Errorf("lag source %q, want %q", g.Share.LagSource, kafka.ShareLagLogEnd)
	}
	lags := map[int32]int64{}
	for _, p := range g.Partitions {
		lags[p.Partition] = p.Lag
		if len(p.Owners()) != 0 || p.MemberID != "" {
			t.Errorf("%s/%d owners %v in an Empty group", p.Topic, p.Partition, p.Owners())
		}
	}
	if want := map[int32]int64{0: 0, 1: 4, 2: 0}; fmt.Sprint(lags) != fmt.Sprint(want) {
		t.Errorf("lags %v, want %v", lags, want)
	}

	// The same group read with v1: the broker's lag, the same numbers.
	g = waitShare(t, c.Client(t), "share-jobs", 0, map[int32]int64{0: 10, 1: 10, 2: 10})
	if g.Share.LagSource != kafka.ShareLagBroker || g.TotalLag() != 4 {
		t.Errorf("v1: lag source %q total %d, want broker 4", g.Share.LagSource, g.TotalLag())
	}
}

// shareGroupsAt creates n empty share groups with a start offset on t1
// (AlterShareGroupOffsets creates the group).
func shareGroupsAt(t *testing.T, c *kafkatest.Cluster, n int) {
	t.Helper()
	for i := range n {
		name := fmt.Sprintf("share-%03d", i)
		os := make(kadm.Offsets)
		os.AddOffset("t1", int32(i%6), 1, -1)
		resp, err := c.Admin().AlterShareGroupOffsets(context.Background(), name, os)
		if err == nil {
			err = resp.Error()
		}
		if err != nil {
			t.Fatalf("create share group %s: %v", name, err)
		}
	}
}
