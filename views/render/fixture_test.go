package render_test

import (
	"errors"

	"github.com/kgroups/kgroups/kafka"
)

// ordersGroup is a Stable classic group that exercises every describe row
// rule: members of different assignment sizes (one tie, one with nothing
// assigned), an owned partition without a commit and a committed partition
// nobody owns.
func ordersGroup() *kafka.Group {
	return &kafka.Group{
		Name:             "orders",
		Type:             kafka.TypeClassic,
		ProtocolType:     "consumer",
		State:            kafka.StateStable,
		Assignor:         "range",
		Coordinator:      kafka.Broker{ID: 1, Host: "127.0.0.1", Port: 40001},
		OffsetsPartition: 12,
		Members: []kafka.Member{
			{MemberID: "a-1", ClientID: "app-a", Host: "/10.0.0.1", Subscribed: []string{"orders", "payments"},
				Assignment: []kafka.TopicPartitions{{Topic: "orders", Partitions: []int32{3}}}},
			{MemberID: "b-1", InstanceID: "pod-b", ClientID: "app-b", Host: "/10.0.0.2", Rack: "rack-1", Subscribed: []string{"orders", "payments"},
				Assignment: []kafka.TopicPartitions{{Topic: "orders", Partitions: []int32{0, 1}}, {Topic: "payments", Partitions: []int32{0}}}},
			{MemberID: "c-1", ClientID: "app-c", Host: "/10.0.0.3", Subscribed: []string{"orders", "payments"},
				Assignment: []kafka.TopicPartitions{{Topic: "payments", Partitions: []int32{1}}}},
			{MemberID: "d-1", ClientID: "app-d", Host: "/10.0.0.4", Subscribed: []string{"orders", "payments"}},
		},
		Partitions: []kafka.PartitionOffsets{
			kafka.PartitionOffsets{Topic: "orders", Partition: 0, Committed: 100, LeaderEpoch: -1, LogStart: 0, LogEnd: 150, Lag: 50, MemberID: "b-1"}.WithOwner("app-b", "/10.0.0.2", nil),
			kafka.PartitionOffsets{Topic: "orders", Partition: 1, Committed: 200, LeaderEpoch: -1, LogStart: 10, LogEnd: 200, Lag: 0, MemberID: "b-1"}.WithOwner("app-b", "/10.0.0.2", nil),
			{Topic: "orders", Partition: 2, Committed: 42, LeaderEpoch: -1, LogStart: 0, LogEnd: 50, Lag: 8},
			kafka.PartitionOffsets{Topic: "orders", Partition: 3, Committed: kafka.NoOffset, LeaderEpoch: -1, LogStart: 0, LogEnd: 30, Lag: kafka.NoOffset, MemberID: "a-1"}.WithOwner("app-a", "/10.0.0.1", nil),
			kafka.PartitionOffsets{Topic: "payments", Partition: 0, Committed: 7, LeaderEpoch: 3, Metadata: "m", LogStart: 0, LogEnd: 7, Lag: 0, MemberID: "b-1"}.WithOwner("app-b", "/10.0.0.2", nil),
			kafka.PartitionOffsets{Topic: "payments", Partition: 1, Committed: 1000, LeaderEpoch: -1, LogStart: 900, LogEnd: 1234, Lag: 234, MemberID: "c-1"}.WithOwner("app-c", "/10.0.0.3", nil),
		},
	}
}

// idleGroup is an Empty group that still has commits.
func idleGroup() *kafka.Group {
	return &kafka.Group{
		Name:             "idle",
		Type:             kafka.TypeClassic,
		ProtocolType:     "consumer",
		State:            kafka.StateEmpty,
		Coordinator:      kafka.Broker{ID: 0, Host: "127.0.0.1", Port: 40000},
		OffsetsPartition: 3,
		Partitions: []kafka.PartitionOffsets{
			{Topic: "orders", Partition: 0, Committed: 5, LeaderEpoch: -1, LogStart: 0, LogEnd: 150, Lag: 145},
		},
	}
}

// newGroup is a KIP-848 group in the middle of reconciling: its member's
// target assignment differs from its current one.
func newGroup() *kafka.Group {
	return &kafka.Group{
		Name:             "k848",
		Type:             kafka.TypeConsumer,
		ProtocolType:     "consumer",
		State:            kafka.StateReconciling,
		Assignor:         "uniform",
		GroupEpoch:       4,
		AssignmentEpoch:  4,
		Coordinator:      kafka.Broker{ID: 2, Host: "127.0.0.1", Port: 40002},
		OffsetsPartition: 40,
		Members: []kafka.Member{
			{MemberID: "Zx9", ClientID: "svc", Host: "/10.0.0.9", Subscribed: []string{"payments"}, MemberEpoch: 3,
				Assignment: []kafka.TopicPartitions{{Topic: "payments", Partitions: []int32{0, 1}}},
				Target:     []kafka.TopicPartitions{{Topic: "payments", Partitions: []int32{1}}}},
		},
		Partitions: []kafka.PartitionOffsets{
			kafka.PartitionOffsets{Topic: "payments", Partition: 0, Committed: 3, LeaderEpoch: -1, LogStart: 0, LogEnd: 7, Lag: 4, MemberID: "Zx9"}.WithOwner("svc", "/10.0.0.9", nil),
			kafka.PartitionOffsets{Topic: "payments", Partition: 1, Committed: kafka.NoOffset, LeaderEpoch: -1, LogStart: 900, LogEnd: 1234, Lag: kafka.NoOffset, MemberID: "Zx9"}.WithOwner("svc", "/10.0.0.9", nil),
		},
	}
}

// brokenGroup is a group whose coordinator could not be reached.
func brokenGroup() *kafka.Group {
	return &kafka.Group{
		Name:             "broken",
		Type:             kafka.TypeClassic,
		State:            kafka.StateUnknown,
		OffsetsPartition: -1,
		Err:              errors.New("describe group \"broken\": COORDINATOR_NOT_AVAILABLE"),
	}
}
