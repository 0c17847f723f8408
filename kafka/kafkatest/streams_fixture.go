package kafkatest

import (
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// Topics of the streams fixture: two input topics of 4 partitions, one
// repartition topic between the two subtopologies and two changelogs.
const (
	StreamsOrders      = "orders"
	StreamsPayments    = "payments"
	StreamsRepartition = "order-enricher-by-customer-repartition"
	StreamsDedupLog    = "order-enricher-dedup-store-changelog"
	StreamsTotalsLog   = "order-enricher-totals-store-changelog"
)

// StreamsGroup is a StreamsGroupDescribe answer for a realistic Kafka Streams
// application in state: subtopology 0 reads orders, deduplicates it and
// repartitions it by customer; subtopology 1 joins payments with the
// repartitioned orders into totals. Three members of two processes run 8
// active tasks with standbys; member m-3 is in reconciliation (epoch 12 of
// 13): its task 1_2 is still a warmup that its target makes active.
//
// With state Empty the group has no members, as a stopped application.
func StreamsGroup(name, state string) kmsg.StreamsGroupDescribeResponseGroup {
	g := kmsg.NewStreamsGroupDescribeResponseGroup()
	g.Group = name
	g.State = state
	g.Epoch = 13
	g.AssignmentEpoch = 13
	g.AssignorName = kmsg.StringPtr("sticky")
	topo := kmsg.NewStreamsGroupDescribeResponseGroupTopology()
	topo.Epoch = 2
	st0 := kmsg.NewStreamsGroupDescribeResponseGroupTopologySubtopology()
	st0.SubtopologyID = "0"
	st0.SourceTopics = []string{StreamsOrders}
	st0.RepartitionSinkTopics = []string{StreamsRepartition}
	st0.StateChangelogTopics = []kmsg.TopicInfo{topicInfo(StreamsDedupLog, 4, 3)}
	st1 := kmsg.NewStreamsGroupDescribeResponseGroupTopologySubtopology()
	st1.SubtopologyID = "1"
	st1.SourceTopics = []string{StreamsPayments}
	st1.RepartitionSourceTopics = []kmsg.TopicInfo{topicInfo(StreamsRepartition, 4, 3)}
	st1.StateChangelogTopics = []kmsg.TopicInfo{topicInfo(StreamsTotalsLog, 4, 3)}
	// The broker's order, not sorted: kgroups sorts.
	topo.Subtopologies = []kmsg.StreamsGroupDescribeResponseGroupTopologySubtopology{st1, st0}
	g.Topology = &topo
	if state == "Empty" {
		return g
	}
	m1 := member("m-1", "5f1c0a9e-process-a", "order-enricher-a-StreamThread-1", "/10.0.0.11", "", "use1-az1", "10.0.0.11", 8080, 13,
		tasks([]kmsg.TaskIDs{task("0", 0, 1), task("1", 0)}, []kmsg.TaskIDs{task("0", 2)}, nil),
		tasks([]kmsg.TaskIDs{task("0", 0, 1), task("1", 0)}, []kmsg.TaskIDs{task("0", 2)}, nil))
	m2 := member("m-2", "5f1c0a9e-process-a", "order-enricher-a-StreamThread-2", "/10.0.0.11", "order-enricher-a", "use1-az1", "10.0.0.11", 8080, 13,
		tasks([]kmsg.TaskIDs{task("0", 2, 3), task("1", 3)}, []kmsg.TaskIDs{task("1", 0)}, nil),
		tasks([]kmsg.TaskIDs{task("0", 2, 3), task("1", 3)}, []kmsg.TaskIDs{task("1", 0)}, nil))
	m3 := member("m-3", "9b2d44c1-process-b", "order-enricher-b-StreamThread-1", "/10.0.0.12", "", "use1-az2", "10.0.0.12", 8080, 12,
		tasks([]kmsg.TaskIDs{task("1", 1)}, []kmsg.TaskIDs{task("0", 0)}, []kmsg.TaskIDs{task("1", 2)}),
		tasks([]kmsg.TaskIDs{task("1", 1, 2)}, []kmsg.TaskIDs{task("0", 0)}, nil))
	// The broker's order, not sorted: kgroups sorts.
	g.Members = []kmsg.StreamsGroupDescribeResponseGroupMember{m3, m1, m2}
	return g
}

func topicInfo(topic string, partitions int32, rf int16) kmsg.TopicInfo {
	t := kmsg.NewTopicInfo()
	t.Topic, t.NumPartitions, t.ReplicationFactor = topic, partitions, rf
	return t
}

func task(subtopology string, partitions ...int32) kmsg.TaskIDs {
	t := kmsg.NewTaskIDs()
	t.SubtopologyID, t.Partitions = subtopology, partitions
	return t
}

func tasks(active, standby, warmup []kmsg.TaskIDs) kmsg.StreamsAssignment {
	a := kmsg.NewStreamsAssignment()
	a.ActiveTasks, a.StandbyTasks, a.WarmupTasks = active, standby, warmup
	return a
}

func member(id, process, client, host, instance, rack, epHost string, epPort uint16, epoch int32, current, target kmsg.StreamsAssignment) kmsg.StreamsGroupDescribeResponseGroupMember {
	m := kmsg.NewStreamsGroupDescribeResponseGroupMember()
	m.MemberID, m.ProcessID, m.ClientID, m.ClientHost = id, process, client, host
	if instance != "" {
		m.InstanceID = kmsg.StringPtr(instance)
	}
	m.RackID = kmsg.StringPtr(rack)
	ep := kmsg.NewStreamsGroupDescribeResponseGroupMemberUserEndpoint()
	ep.Host, ep.Port = epHost, epPort
	m.UserEndpoint = &ep
	zone := kmsg.NewStreamsGroupDescribeResponseGroupMemberClientTag()
	zone.Key, zone.Value = "zone", rack
	env := kmsg.NewStreamsGroupDescribeResponseGroupMemberClientTag()
	env.Key, env.Value = "env", "prod"
	m.ClientTags = []kmsg.StreamsGroupDescribeResponseGroupMemberClientTag{zone, env}
	m.MemberEpoch = epoch
	m.TopologyEpoch = 2
	m.Assignment, m.TargetAssignment = current, target
	return m
}

// StreamsLogEnds are the log-end offsets SetUpStreams produces, by topic and
// partition.
var StreamsLogEnds = map[string][]int64{
	StreamsOrders:      {20, 21, 22, 23},
	StreamsPayments:    {10, 11, 12, 13},
	StreamsRepartition: {5, 6, 7, 8},
}

// StreamsCommits are the offsets SetUpStreams commits for the group: lag 5
// and 12 on orders 0 and 2, 3 on payments 1, 1 on the repartition topic's
// partition 3; 21 in all.
var StreamsCommits = map[string]map[int32]int64{
	StreamsOrders:      {0: 15, 1: 21, 2: 10, 3: 23},
	StreamsPayments:    {0: 10, 1: 8, 2: 12, 3: 13},
	StreamsRepartition: {0: 5, 1: 6, 2: 7, 3: 7},
}

// SetUpStreams creates the fixture's topics, fills them to StreamsLogEnds
// and commits StreamsCommits for group with a real OffsetCommit, as the
// application's members would have.
func (c *Cluster) SetUpStreams(t testing.TB, group string) {
	t.Helper()
	for _, topic := range []string{StreamsOrders, StreamsPayments, StreamsRepartition, StreamsDedupLog, StreamsTotalsLog} {
		c.CreateTopic(t, topic, 4)
	}
	for topic, ends := range StreamsLogEnds {
		for p, end := range ends {
			c.Produce(t, topic, int32(p), int(end), time.Time{})
		}
	}
	c.Commit(t, group, StreamsCommits)
}
