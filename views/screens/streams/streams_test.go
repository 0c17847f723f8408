package streams

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka"
)

// streamsInfo is a streams group of two members over two subtopologies:
// m-a runs active tasks as targeted and has a standby it is still to
// get; m-b has active tasks to hand over and a warmup.
func streamsInfo() *kafka.StreamsInfo {
	return &kafka.StreamsInfo{
		GroupEpoch: 7, TargetAssignmentEpoch: 7, TopologyEpoch: 2,
		Subtopologies: []kafka.Subtopology{
			{ID: "0", SourceTopics: []string{"orders"}, RepartitionSinkTopics: []string{"app-repartition"},
				StateChangelogTopics: []kafka.InternalTopic{{Topic: "app-store-changelog", Partitions: 4}}},
			{ID: "1", RepartitionSourceTopics: []kafka.InternalTopic{{Topic: "app-repartition", Partitions: 0}}},
		},
		Members: []kafka.StreamsMember{
			{MemberID: "m-a", ProcessID: "p-1", MemberEpoch: 7,
				Tasks:       kafka.StreamsTasks{Active: []kafka.TaskIDs{{Subtopology: "0", Partitions: []int32{0, 1}}}},
				TargetTasks: kafka.StreamsTasks{Active: []kafka.TaskIDs{{Subtopology: "0", Partitions: []int32{0, 1}}}, Standby: []kafka.TaskIDs{{Subtopology: "1", Partitions: []int32{0}}}}},
			{MemberID: "m-b", ProcessID: "p-2", MemberEpoch: 6,
				Tasks:       kafka.StreamsTasks{Active: []kafka.TaskIDs{{Subtopology: "0", Partitions: []int32{2, 3}}, {Subtopology: "1", Partitions: []int32{0}}}, Warmup: []kafka.TaskIDs{{Subtopology: "1", Partitions: []int32{1}}}},
				TargetTasks: kafka.StreamsTasks{Active: []kafka.TaskIDs{{Subtopology: "0", Partitions: []int32{2, 3}}}}},
		},
	}
}

// TestTaskRows: one row per member and kind it has now or is to have,
// active, standby, then warmup; TARGET is "=" once the member has its
// target, the target's tasks otherwise, "-" for none.
func TestTaskRows(t *testing.T) {
	cols := TaskColumns()
	var titles []string
	for _, c := range cols {
		titles = append(titles, c.Title)
	}
	if got := strings.Join(titles, " "); got != "MEMBER PROCESS EPOCH KIND CURRENT TARGET" {
		t.Fatalf("columns %q", got)
	}
	var b strings.Builder
	for _, r := range TaskRows(streamsInfo()) {
		var cs []string
		for _, c := range cols {
			cs = append(cs, c.Value(r))
		}
		fmt.Fprintf(&b, "%s reconciling=%v\n", strings.Join(cs, " | "), r.Reconciling())
	}
	want := "" +
		"m-a | p-1 | 7 | active | 0:[0,1] | = reconciling=false\n" +
		"m-a | p-1 | 7 | standby | - | 1:[0] reconciling=true\n" +
		"m-b | p-2 | 6 | active | 0:[2,3] 1:[0] | 0:[2,3] reconciling=true\n" +
		"m-b | p-2 | 6 | warmup | 1:[1] | - reconciling=true\n"
	if got := b.String(); got != want {
		t.Errorf("task rows:\n%s\nwant:\n%s", got, want)
	}
	if TaskRows(nil) != nil {
		t.Error("a group without streams information has task rows")
	}
}

// TestTopologyRows: each subtopology's source, repartition source,
// repartition sink and changelog topics, in that order; a partition count
// the broker derives (0) shows "-".
func TestTopologyRows(t *testing.T) {
	cols := TopologyColumns()
	var b strings.Builder
	for _, r := range TopologyRows(streamsInfo()) {
		var cs []string
		for _, c := range cols {
			cs = append(cs, c.Value(r))
		}
		b.WriteString(strings.Join(cs, " | ") + "\n")
	}
	want := "" +
		"0 | source | orders | -\n" +
		"0 | repartition-sink | app-repartition | -\n" +
		"0 | changelog | app-store-changelog | 4\n" +
		"1 | repartition-source | app-repartition | -\n"
	if got := b.String(); got != want {
		t.Errorf("topology rows:\n%s\nwant:\n%s", got, want)
	}
	if TopologyRows(nil) != nil {
		t.Error("a group without streams information has topology rows")
	}
}
