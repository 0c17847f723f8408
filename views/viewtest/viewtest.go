// Package viewtest holds what the screen tests share: a fixed cluster
// snapshot covering every kind of group, large snapshots for benchmarks,
// the common context a screen is built with, and ANSI stripping.
package viewtest

import (
	"errors"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/ui"
)

// Epoch is the fixed time of the fixture's first poll.
var Epoch = time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)

// Brokers are the fixture cluster's brokers.
var Brokers = []kafka.Broker{
	{ID: 1, Host: "kafka-1.internal", Port: 9092, Rack: "a"},
	{ID: 2, Host: "kafka-2.internal", Port: 9092, Rack: "b"},
	{ID: 3, Host: "kafka-3.internal", Port: 9092, Rack: "c"},
}

// Part builds a partition; committed or logEnd may be kafka.NoOffset.
func Part(topic string, p int32, committed, logStart, logEnd int64, owner *kafka.Member) kafka.PartitionOffsets {
	po := kafka.PartitionOffsets{Topic: topic, Partition: p, Committed: committed, LogStart: logStart, LogEnd: logEnd, Lag: kafka.NoOffset}
	if committed >= 0 && logEnd >= 0 {
		po.Lag = max(0, logEnd-committed)
	}
	if owner != nil {
		po.MemberID, po.ClientID, po.Host = owner.MemberID, owner.ClientID, owner.Host
	}
	return po
}

// Member builds a member owning the given partitions of topic.
func Member(id, instance, client, host string, topic string, parts ...int32) kafka.Member {
	m := kafka.Member{MemberID: id, InstanceID: instance, ClientID: client, Host: host, Subscribed: []string{topic}}
	if len(parts) > 0 {
		m.Assignment = []kafka.TopicPartitions{{Topic: topic, Partitions: parts}}
	}
	return m
}

// Snapshot is the fixture cluster as polled at t: eight groups covering
// every state colour, both protocols, a partition without a commit, a group
// with an error and an empty, a dead and a rebalancing group. lagBump is
// added to every log end, so successive polls can show lag moving.
func Snapshot(t time.Time, lagBump int64) *kafka.Snapshot {
	s := &kafka.Snapshot{Time: t, Duration: 42 * time.Millisecond, Brokers: Brokers, OffsetsTopicPartitions: 50}
	add := func(g kafka.Group) { s.Groups = append(s.Groups, g) }

	// analytics-etl: KIP-848, stable, everyone at target.
	{
		m1 := Member("Zk3vQ2pLR0uYw6c1tHh8aA", "", "etl-worker-1", "/10.0.4.11", "clicks", 0, 1)
		m2 := Member("b7TqN1xWSJ2d9kF4mPo5Vg", "", "etl-worker-2", "/10.0.4.12", "clicks", 2, 3)
		for _, m := range []*kafka.Member{&m1, &m2} {
			m.MemberEpoch = 12
			m.Target = m.Assignment
		}
		add(kafka.Group{
			Name: "analytics-etl", Type: kafka.TypeConsumer, ProtocolType: "consumer", State: kafka.StateStable,
			Assignor: "uniform", GroupEpoch: 12, AssignmentEpoch: 12, Coordinator: Brokers[1], OffsetsPartition: 31,
			Members: []kafka.Member{m1, m2},
			Partitions: []kafka.PartitionOffsets{
				Part("clicks", 0, 88_120, 0, 88_120+lagBump, &m1),
				Part("clicks", 1, 87_990, 0, 88_004+lagBump, &m1),
				Part("clicks", 2, 88_301, 0, 88_301+lagBump, &m2),
				Part("clicks", 3, 88_200, 0, 88_215+lagBump, &m2),
			},
		})
	}
	// billing-reconciler: classic range, stable, behind on one partition.
	{
		m1 := Member("billing-reconciler-1-0c6f3e1a-5b0d-4a8e-9f27-3d1c8b6e2f40", "", "billing-reconciler-1", "/10.0.3.21", "invoices", 0, 1)
		m2 := Member("billing-reconciler-2-94a2d7b3-1e6c-4f05-8b3a-6c7d2e9f1a58", "", "billing-reconciler-2", "/10.0.3.22", "invoices", 2, 3)
		add(kafka.Group{
			Name: "billing-reconciler", Type: kafka.TypeClassic, ProtocolType: "consumer", State: kafka.StateStable,
			Assignor: "range", Coordinator: Brokers[0], OffsetsPartition: 7,
			Members: []kafka.Member{m1, m2},
			Partitions: []kafka.PartitionOffsets{
				Part("invoices", 0, 15_230, 1_200, 15_230+lagBump, &m1),
				Part("invoices", 1, 15_102, 1_180, 15_871+lagBump, &m1),
				Part("invoices", 2, 15_377, 1_210, 15_377+lagBump, &m2),
				Part("invoices", 3, 15_290, 1_190, 15_290+lagBump, &m2),
			},
		})
	}
	// fraud-scoring: classic roundrobin in the middle of a rebalance.
	{
		m1 := Member("fraud-scoring-1-3b9e0f2c-7a14-4d6b-a2c8-5e1f9d3b7a60", "", "fraud-scoring", "/10.0.5.31", "payments", 0, 2)
		m2 := Member("fraud-scoring-2-c41d8a7e-2f5b-4c93-b6e0-8a3f1d7c9b25", "", "fraud-scoring", "/10.0.5.32", "payments", 1)
		m3 := Member("fraud-scoring-3-e8b2c6d1-9a3f-4e70-8d15-2c6b4a9e1f03", "", "fraud-scoring", "/10.0.5.33", "payments")
		add(kafka.Group{
			Name: "fraud-scoring", Type: kafka.TypeClassic, ProtocolType: "consumer", State: kafka.StatePreparingRebalance,
			Assignor: "roundrobin", Coordinator: Brokers[2], OffsetsPartition: 44,
			Members: []kafka.Member{m1, m2, m3},
			Partitions: []kafka.PartitionOffsets{
				Part("payments", 0, 40_010, 0, 40_890+lagBump, &m1),
				Part("payments", 1, 39_870, 0, 40_770+lagBump, &m2),
				Part("payments", 2, 40_120, 0, 40_960+lagBump, &m1),
			},
		})
	}
	// inventory-sync: KIP-848, reconciling: one member not yet at target.
	{
		m1 := Member("q0Wm4XcB9TfK2uYl7sRe3A", "inventory-sync-a", "inventory-sync", "/10.0.6.41", "stock", 0, 1, 2)
		m2 := Member("Hn6pV8rJ1dQz5gLc0aEw2B", "inventory-sync-b", "inventory-sync", "/10.0.6.42", "stock", 3)
		m1.MemberEpoch, m2.MemberEpoch = 8, 7
		m1.Target = []kafka.TopicPartitions{{Topic: "stock", Partitions: []int32{0, 1}}}
		m2.Target = []kafka.TopicPartitions{{Topic: "stock", Partitions: []int32{2, 3}}}
		m1.Assignment = m1.Target
		add(kafka.Group{
			Name: "inventory-sync", Type: kafka.TypeConsumer, ProtocolType: "consumer", State: kafka.StateReconciling,
			Assignor: "range", GroupEpoch: 8, AssignmentEpoch: 8, Coordinator: Brokers[0], OffsetsPartition: 3,
			Members: []kafka.Member{m1, m2},
			Partitions: []kafka.PartitionOffsets{
				Part("stock", 0, 5_400, 0, 5_400+lagBump, &m1),
				Part("stock", 1, 5_388, 0, 5_391+lagBump, &m1),
				Part("stock", 2, 5_377, 0, 5_380+lagBump, nil),
				Part("stock", 3, 5_402, 0, 5_402+lagBump, &m2),
			},
		})
	}
	// legacy-audit: empty group with old commits far behind.
	add(kafka.Group{
		Name: "legacy-audit", Type: kafka.TypeClassic, ProtocolType: "consumer", State: kafka.StateEmpty,
		Assignor: "", Coordinator: Brokers[1], OffsetsPartition: 18,
		Partitions: []kafka.PartitionOffsets{
			Part("audit-log", 0, 1_000, 900, 250_000+lagBump, nil),
			Part("audit-log", 1, 1_020, 910, 249_870+lagBump, nil),
		},
	})
	// orders-app: classic cooperative-sticky on two topics, one partition
	// never committed.
	{
		m1 := Member("orders-app-1-7d1c0a52-3f4e-4b8a-9c61-2b5f0e8d4a11", "", "orders-app", "/10.0.2.15", "orders", 0, 1, 2)
		m2 := Member("orders-app-2-1f8e3b6d-0c2a-4e9f-b5d7-4a6c8e0b2d93", "", "orders-app", "/10.0.2.16", "orders", 3, 4, 5)
		m1.Assignment = append(m1.Assignment, kafka.TopicPartitions{Topic: "refunds", Partitions: []int32{0}})
		m1.Subscribed = []string{"orders", "refunds"}
		m2.Subscribed = []string{"orders", "refunds"}
		add(kafka.Group{
			Name: "orders-app", Type: kafka.TypeClassic, ProtocolType: "consumer", State: kafka.StateStable,
			Assignor: "cooperative-sticky", Coordinator: Brokers[2], OffsetsPartition: 12,
			Members: []kafka.Member{m1, m2},
			Partitions: []kafka.PartitionOffsets{
				Part("orders", 0, 120_443, 0, 120_450+lagBump, &m1),
				Part("orders", 1, 119_876, 0, 119_876+lagBump, &m1),
				Part("orders", 2, 121_002, 0, 121_120+lagBump, &m1),
				Part("orders", 3, 120_333, 0, 120_333+lagBump, &m2),
				Part("orders", 4, 119_990, 0, 120_004+lagBump, &m2),
				Part("orders", 5, 120_777, 0, 120_777+lagBump, &m2),
				Part("refunds", 0, kafka.NoOffset, 0, 3_214+lagBump, &m1),
			},
		})
	}
	// search-indexer: dead, nothing left.
	add(kafka.Group{
		Name: "search-indexer", Type: kafka.TypeClassic, ProtocolType: "consumer", State: kafka.StateDead,
		Coordinator: Brokers[0], OffsetsPartition: 27,
	})
	// shipping-notifier: its offsets could not be fetched.
	{
		m1 := Member("shipping-notifier-1-5c0b9e3a-8d2f-4a61-9e7b-1f3d5a8c2e74", "shipper-1", "shipping-notifier", "/10.0.7.51", "shipments", 0, 1)
		add(kafka.Group{
			Name: "shipping-notifier", Type: kafka.TypeClassic, ProtocolType: "consumer", State: kafka.StateStable,
			Assignor: "sticky", Coordinator: Brokers[1], OffsetsPartition: 40,
			Members: []kafka.Member{m1},
			Partitions: []kafka.PartitionOffsets{
				Part("shipments", 0, kafka.NoOffset, 0, 8_812+lagBump, &m1),
				Part("shipments", 1, kafka.NoOffset, 0, 8_790+lagBump, &m1),
			},
			Err: errors.New("fetch offsets: NOT_COORDINATOR: this is not the correct coordinator"),
		})
	}
	return s
}

// ManyGroups is a cluster of n groups (named group-00000, ...), each with
// one member and four partitions, for benchmarks.
func ManyGroups(n int) *kafka.Snapshot {
	s := &kafka.Snapshot{Time: Epoch, Brokers: Brokers, OffsetsTopicPartitions: 50, Groups: make([]kafka.Group, n)}
	states := []string{kafka.StateStable, kafka.StateStable, kafka.StateEmpty, kafka.StatePreparingRebalance}
	for i := range s.Groups {
		name := fmt.Sprintf("group-%05d", i)
		m := Member(name+"-member-1", "", name, "/10.1.0.1", "topic-"+name, 0, 1, 2, 3)
		g := kafka.Group{
			Name: name, Type: kafka.TypeClassic, ProtocolType: "consumer", State: states[i%len(states)],
			Assignor: "range", Coordinator: Brokers[i%3], OffsetsPartition: int32(i % 50),
			Members: []kafka.Member{m},
		}
		for p := int32(0); p < 4; p++ {
			g.Partitions = append(g.Partitions, Part("topic-"+name, p, int64(1000*i), 0, int64(1000*i+int(p)*7), &m))
		}
		s.Groups[i] = g
	}
	return s
}

// BigGroup is a cluster with one group, "big", owning n partitions over 100
// topics and 50 members, for benchmarks.
func BigGroup(n int) *kafka.Snapshot {
	g := kafka.Group{
		Name: "big", Type: kafka.TypeClassic, ProtocolType: "consumer", State: kafka.StateStable,
		Assignor: "range", Coordinator: Brokers[0], OffsetsPartition: 5,
	}
	for i := 0; i < 50; i++ {
		g.Members = append(g.Members, Member(fmt.Sprintf("big-%02d-member", i), "", fmt.Sprintf("big-%02d", i), "/10.2.0.1", "t"))
	}
	perTopic := max(1, n/100)
	for i := 0; i < n; i++ {
		m := &g.Members[i%50]
		g.Partitions = append(g.Partitions, Part(fmt.Sprintf("topic-%03d", i/perTopic), int32(i%perTopic), int64(i*10), 0, int64(i*10+i%13), m))
	}
	return &kafka.Snapshot{Time: Epoch, Brokers: Brokers, OffsetsTopicPartitions: 50, Groups: []kafka.Group{g}}
}

// History is a fixed lag history: the series per group name.
type History map[string][]int64

// GroupLagSeries implements ui.LagHistory.
func (h History) GroupLagSeries(group string, dst []int64) []int64 {
	return append(dst, h[group]...)
}

// Common is a screen context for tests, built by ui.NewCommon as the root
// builds the real one: styles from lipgloss's default renderer (set its
// colour profile to termenv.Ascii for plain text), the given glyphs and a
// fixed clock, sized width x height.
func Common(width, height int, utf8 bool) ui.Common {
	c := ui.NewCommon(lipgloss.DefaultRenderer(), true, utf8, func() time.Time { return Epoch })
	c.SetSize(width, height)
	return c
}

// Do runs cmd as the root would, for a screen's request: the request's work
// is run and its answer returned. Any other message is returned as it is,
// and nil for a nil cmd.
func Do(cmd tea.Cmd) tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if req, ok := msg.(ui.Request); ok {
		return req.Run()
	}
	return msg
}

// Strip removes escape sequences and trailing blanks of every line, so
// tests compare what a user reads.
func Strip(s string) string {
	lines := strings.Split(ansi.Strip(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}
