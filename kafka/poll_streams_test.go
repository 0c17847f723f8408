package kafka_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// TestPollStreamsGroup polls a streams group whose listing and
// StreamsGroupDescribe answer are protocol fixtures and whose offsets are
// kfake's real commits, and checks every field kgroups reads.
func TestPollStreamsGroup(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.SetUpStreams(t, "order-enricher")
	srv := c.ServeGroups(t)
	srv.SetStreams(kafkatest.StreamsGroup("order-enricher", kafka.StateReconciling))
	cl := c.Client(t)
	snap, err := cl.Poll(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Groups) != 1 {
		t.Fatalf("polled %d groups, want 1", len(snap.Groups))
	}
	g := &snap.Groups[0]
	if g.Err != nil {
		t.Fatalf("group error: %v", g.Err)
	}
	if g.Type != kafka.TypeStreams || g.State != kafka.StateReconciling || g.ProtocolType != "streams" || g.Assignor != "sticky" {
		t.Errorf("type %q state %q protocol %q assignor %q", g.Type, g.State, g.ProtocolType, g.Assignor)
	}
	if want := c.CoordinatorFor("order-enricher"); g.Coordinator.ID != want || g.Coordinator.Host != "127.0.0.1" {
		t.Errorf("coordinator %+v, want broker %d", g.Coordinator, want)
	}
	si := g.Streams
	if si == nil {
		t.Fatal("no streams info")
	}
	if si.GroupEpoch != 13 || si.TargetAssignmentEpoch != 13 || si.TopologyEpoch != 2 {
		t.Errorf("epochs %d %d %d, want 13 13 2", si.GroupEpoch, si.TargetAssignmentEpoch, si.TopologyEpoch)
	}
	wantTopo := []kafka.Subtopology{
		{ID: "0", SourceTopics: []string{"orders"}, RepartitionSinkTopics: []string{kafkatest.StreamsRepartition},
			StateChangelogTopics: []kafka.InternalTopic{{Topic: kafkatest.StreamsDedupLog, Partitions: 4, ReplicationFactor: 3}}},
		{ID: "1", SourceTopics: []string{"payments"},
			RepartitionSourceTopics: []kafka.InternalTopic{{Topic: kafkatest.StreamsRepartition, Partitions: 4, ReplicationFactor: 3}},
			StateChangelogTopics:    []kafka.InternalTopic{{Topic: kafkatest.StreamsTotalsLog, Partitions: 4, ReplicationFactor: 3}}},
	}
	if !reflect.DeepEqual(si.Subtopologies, wantTopo) {
		t.Errorf("topology\n got %+v\nwant %+v", si.Subtopologies, wantTopo)
	}
	if got := si.InputTopics(); !reflect.DeepEqual(got, []string{"orders", "payments"}) {
		t.Errorf("input topics %v", got)
	}
	if got := si.InternalTopics(); !reflect.DeepEqual(got, []string{kafkatest.StreamsRepartition, kafkatest.StreamsDedupLog, kafkatest.StreamsTotalsLog}) {
		t.Errorf("internal topics %v", got)
	}
	if len(si.Members) != 3 {
		t.Fatalf("%d streams members, want 3", len(si.Members))
	}
	m3 := si.Members[2]
	want3 := kafka.StreamsMember{
		MemberID: "m-3", ProcessID: "9b2d44c1-process-b", ClientID: "order-enricher-b-StreamThread-1", Host: "/10.0.0.12",
		Rack: "use1-az2", UserEndpoint: "10.0.0.12:8080",
		ClientTags:  []kafka.ClientTag{{Key: "env", Value: "prod"}, {Key: "zone", Value: "use1-az2"}},
		MemberEpoch: 12, TopologyEpoch: 2,
		Tasks: kafka.StreamsTasks{
			Active:  []kafka.TaskIDs{{Subtopology: "1", Partitions: []int32{1}}},
			Standby: []kafka.TaskIDs{{Subtopology: "0", Partitions: []int32{0}}},
			Warmup:  []kafka.TaskIDs{{Subtopology: "1", Partitions: []int32{2}}},
		},
		TargetTasks: kafka.StreamsTasks{
			Active:  []kafka.TaskIDs{{Subtopology: "1", Partitions: []int32{1, 2}}},
			Standby: []kafka.TaskIDs{{Subtopology: "0", Partitions: []int32{0}}},
		},
	}
	if !reflect.DeepEqual(m3, want3) {
		t.Errorf("member m-3\n got %+v\nwant %+v", m3, want3)
	}
	if si.Members[1].InstanceID != "order-enricher-a" || si.Members[0].MemberID != "m-1" {
		t.Errorf("members %q %q, instance %q", si.Members[0].MemberID, si.Members[1].MemberID, si.Members[1].InstanceID)
	}
	if got := fmt.Sprint(si.Members[0].Tasks.Active); got != "[0:[0,1] 1:[0]]" {
		t.Errorf("m-1 active tasks %s", got)
	}

	// Active tasks read partition p of each source topic of their
	// subtopology, repartition topics included.
	wantAssign := map[string]string{
		"m-1": "[{order-enricher-by-customer-repartition [0]} {orders [0 1]} {payments [0]}]",
		"m-2": "[{order-enricher-by-customer-repartition [3]} {orders [2 3]} {payments [3]}]",
		"m-3": "[{order-enricher-by-customer-repartition [1]} {payments [1]}]",
	}
	for _, m := range g.Members {
		if got := fmt.Sprint(m.Assignment); got != wantAssign[m.MemberID] {
			t.Errorf("%s assignment %s, want %s", m.MemberID, got, wantAssign[m.MemberID])
		}
	}
	if got := fmt.Sprint(g.Members[2].Target); got != "[{order-enricher-by-customer-repartition [1 2]} {payments [1 2]}]" {
		t.Errorf("m-3 target %s", got)
	}

	// Offsets and lag come from kfake's real OffsetFetch and ListOffsets.
	if len(g.Partitions) != 12 {
		t.Fatalf("%d partitions, want 12", len(g.Partitions))
	}
	for _, p := range g.Partitions {
		wantC := kafkatest.StreamsCommits[p.Topic][p.Partition]
		wantE := kafkatest.StreamsLogEnds[p.Topic][p.Partition]
		if p.Err != nil || p.Committed != wantC || p.LogEnd != wantE || p.Lag != wantE-wantC {
			t.Errorf("%s/%d: committed %d end %d lag %d err %v, want %d %d %d", p.Topic, p.Partition, p.Committed, p.LogEnd, p.Lag, p.Err, wantC, wantE, wantE-wantC)
		}
	}
	if g.TotalLag() != 21 {
		t.Errorf("total lag %d, want 21", g.TotalLag())
	}
	p, _ := findPartition(g, "orders", 2)
	if p.MemberID != "m-2" || p.ClientID() != "order-enricher-a-StreamThread-2" {
		t.Errorf("orders/2 owned by %q %q, want m-2", p.MemberID, p.ClientID())
	}
	if p, _ := findPartition(g, "payments", 2); p.MemberID != "" {
		t.Errorf("payments/2 owned by %q; its task is a warmup, so no member reads it yet", p.MemberID)
	}
}

func findPartition(g *kafka.Group, topic string, partition int32) (kafka.PartitionOffsets, bool) {
	for _, p := range g.Partitions {
		if p.Topic == topic && p.Partition == partition {
			return p, true
		}
	}
	return kafka.PartitionOffsets{}, false
}

// TestPollUnknownGroupType: a group of a type kgroups does not know is
// listed with its type and state, never described, and the poll and the
// other groups are unaffected.
func TestPollUnknownGroupType(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.SetUpStreams(t, "order-enricher")
	srv := c.ServeGroups(t)
	srv.SetStreams(kafkatest.StreamsGroup("order-enricher", kafka.StateStable))
	srv.SetListed("future-work", "queue", "queue", "Active")
	rc := &requestCounter{n: map[int16]int{}}
	cl := c.Client(t, kgo.WithHooks(rc))
	snap, err := cl.Poll(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Groups) != 2 {
		t.Fatalf("polled %d groups, want 2", len(snap.Groups))
	}
	g, ok := snap.Group("future-work")
	if !ok {
		t.Fatal("the group of unknown type disappeared")
	}
	if g.Type != "queue" || g.State != "Active" || g.ProtocolType != "queue" || g.Err != nil || len(g.Members) != 0 || len(g.Partitions) != 0 || g.Streams != nil {
		t.Errorf("unknown group %+v", *g)
	}
	if g.Type.Known() {
		t.Error("type queue counts as describable")
	}
	if want := c.CoordinatorFor("future-work"); g.Coordinator.ID != want {
		t.Errorf("coordinator %d, want %d", g.Coordinator.ID, want)
	}
	s, _ := snap.Group("order-enricher")
	if s.Err != nil || s.TotalLag() != 21 {
		t.Errorf("streams group beside it: lag %d err %v", s.TotalLag(), s.Err)
	}
	counts := rc.take()
	if counts["DescribeGroups"] != 0 || counts["ConsumerGroupDescribe"] != 0 || counts["StreamsGroupDescribe"] != 1 {
		t.Errorf("requests %v: the unknown group must not be described", counts)
	}
}

// TestPollStreamsRequestsDoNotGrowWithGroups polls 10 and then 200 streams
// groups spread over the three brokers and requires the same number of
// requests of every kind, Metadata included (see countingClient): one
// StreamsGroupDescribe per coordinator.
func TestPollStreamsRequestsDoNotGrowWithGroups(t *testing.T) {
	counts := func(groups int) (cold, warm map[string]int) {
		c := kafkatest.NewCluster(t)
		c.SetUpStreams(t, "streams-000")
		srv := c.ServeGroups(t)
		coords := map[int32]bool{}
		for i := range groups {
			name := fmt.Sprintf("streams-%03d", i)
			if i > 0 {
				c.Commit(t, name, map[string]map[int32]int64{"orders": {int32(i % 4): 1}})
			}
			srv.SetStreams(kafkatest.StreamsGroup(name, kafka.StateStable))
			coords[c.CoordinatorFor(name)] = true
		}
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
		if len(s.Groups) != groups {
			t.Fatalf("polled %d groups, want %d", len(s.Groups), groups)
		}
		for i := range s.Groups {
			if s.Groups[i].Err != nil || s.Groups[i].Streams == nil || len(s.Groups[i].Members) != 3 {
				t.Fatalf("group %s: %d members, err %v", s.Groups[i].Name, len(s.Groups[i].Members), s.Groups[i].Err)
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
	if warm200["StreamsGroupDescribe"] != 3 {
		t.Errorf("warm poll sent %d StreamsGroupDescribe requests, want 3 (one per coordinator)", warm200["StreamsGroupDescribe"])
	}
	if warm200["DescribeGroups"] != 0 || warm200["ConsumerGroupDescribe"] != 0 {
		t.Errorf("warm poll described streams groups as other types: %v", warm200)
	}
}
