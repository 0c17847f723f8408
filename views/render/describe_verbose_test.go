package render_test

import (
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/render"
)

// kip848Group is a consumer-protocol group one of whose members is still
// moving to its target.
func kip848Group() *kafka.Group {
	return &kafka.Group{
		Name: "k", Type: kafka.TypeConsumer, ProtocolType: "consumer", State: kafka.StateReconciling,
		Assignor: "uniform", GroupEpoch: 7, AssignmentEpoch: 6,
		Coordinator: kafka.Broker{ID: 2, Host: "127.0.0.1", Port: 40002},
		Members: []kafka.Member{
			{MemberID: "m1", ClientID: "c1", Host: "/h1", MemberEpoch: 6,
				Assignment: []kafka.TopicPartitions{{Topic: "b", Partitions: []int32{2, 0}}, {Topic: "a-b", Partitions: []int32{1}}},
				Target:     []kafka.TopicPartitions{{Topic: "b", Partitions: []int32{0}}}},
			{MemberID: "m2", ClientID: "c2", Host: "/h2", MemberEpoch: 5},
		},
	}
}

// The --verbose columns are kafka-consumer-groups.sh --verbose's, at its
// places, with its cells: epochs "-" in a classic group, assignments as
// topic:partitions joined by ";" in text order, "-" for none.
func TestDescribeVerbose(t *testing.T) {
	fields := func(out string) [][]string {
		var rows [][]string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			rows = append(rows, strings.Fields(l))
		}
		return rows
	}
	stdout, _ := describe(t, []*kafka.Group{kip848Group()}, render.DescribeOptions{View: render.Members, Verbose: true})
	got := fields(stdout)
	want := [][]string{
		{"GROUP", "CONSUMER-ID", "GROUP-INSTANCE-ID", "HOST", "CLIENT-ID", "#PARTITIONS", "CURRENT-EPOCH", "CURRENT-ASSIGNMENT", "TARGET-EPOCH", "TARGET-ASSIGNMENT"},
		{"k", "m1", "-", "/h1", "c1", "3", "6", "a-b:1;b:0,2", "6", "b:0"},
		{"k", "m2", "-", "/h2", "c2", "0", "5", "-", "6", "-"},
	}
	assertText(t, "members --verbose", strings.TrimSpace(strings.Join(join(got), "\n")), strings.Join(join(want), "\n"))

	stdout, _ = describe(t, []*kafka.Group{kip848Group(), ordersGroup()}, render.DescribeOptions{View: render.State, Verbose: true})
	got = fields(stdout)
	if h := strings.Join(got[0], " "); h != "GROUP COORDINATOR (ID) ASSIGNMENT-STRATEGY STATE GROUP-EPOCH TARGET-ASSIGNMENT-EPOCH #MEMBERS LEADER" {
		t.Errorf("state --verbose header %q", h)
	}
	if r := strings.Join(got[1], " "); r != "k 127.0.0.1:40002 (2) uniform Reconciling 7 6 2 -" {
		t.Errorf("state --verbose KIP-848 row %q", r)
	}
	if r := strings.Join(got[4], " "); !strings.HasPrefix(r, "orders 127.0.0.1:40001 (1) range Stable - - 4 ") {
		t.Errorf("state --verbose classic row %q", r)
	}

	stdout, _ = describe(t, []*kafka.Group{ordersGroup()}, render.DescribeOptions{Verbose: true})
	got = fields(stdout)
	if h := strings.Join(got[0], " "); h != "GROUP TOPIC PARTITION LEADER-EPOCH CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST CLIENT-ID" {
		t.Errorf("describe --verbose header %q", h)
	}
	epochs := map[string]string{}
	for _, r := range got[1:] {
		epochs[r[1]+"/"+r[2]] = r[3]
	}
	// payments/0 committed with leader epoch 3; the rest without one,
	// orders/3 not at all.
	for tp, e := range map[string]string{"payments/0": "3", "orders/0": "-", "orders/3": "-"} {
		if epochs[tp] != e {
			t.Errorf("LEADER-EPOCH of %s = %q, want %q", tp, epochs[tp], e)
		}
	}
	if got := render.KafkaAssignment(nil); got != "-" {
		t.Errorf("KafkaAssignment(nil) = %q", got)
	}
}

func join(rows [][]string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.Join(r, " ")
	}
	return out
}

// A streams member's --verbose ASSIGNMENTS are kafka-streams-groups.sh's:
// every kind it has, then every kind of its target, each task followed by
// "; ".
func TestKafkaStreamsAssignments(t *testing.T) {
	m := &kafka.StreamsMember{
		Tasks:       kafka.StreamsTasks{Active: []kafka.TaskIDs{{Subtopology: "0", Partitions: []int32{0, 1}}, {Subtopology: "1", Partitions: []int32{0}}}},
		TargetTasks: kafka.StreamsTasks{Active: []kafka.TaskIDs{{Subtopology: "0", Partitions: []int32{0}}}, Standby: []kafka.TaskIDs{{Subtopology: "1", Partitions: []int32{2}}}},
	}
	want := "ACTIVE: 0:[0,1]; 1:[0]; TARGET-ACTIVE: 0:[0]; TARGET-STANDBY: 1:[2];"
	if got := render.KafkaStreamsAssignments(m); got != want {
		t.Errorf("KafkaStreamsAssignments = %q, want %q", got, want)
	}
	if got := render.KafkaStreamsAssignments(&kafka.StreamsMember{}); got != "-" {
		t.Errorf("no tasks: %q, want -", got)
	}
	var titles []string
	for _, c := range render.StreamsVerbosePartitionColumns(false) {
		titles = append(titles, c.Title)
	}
	if got := strings.Join(titles, " "); got != "GROUP TOPIC PARTITION CURRENT-OFFSET LEADER-EPOCH LOG-END-OFFSET OFFSET-LAG" {
		t.Errorf("streams --verbose columns %q", got)
	}
}
