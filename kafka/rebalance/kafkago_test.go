package rebalance

import (
	"maps"
	"slices"
	"testing"
)

// TestKafkaGoFixtures replays the recorded kafka-go groups
// (testdata/kafka-go). kafka-go's leader takes each topic's partitions in
// the order the broker's metadata lists them; kfake lists them in map
// order, which the capture recorded (the fixture's leader input), so the
// replay feeds the model that order. The registered models assume the
// order by id; where the recorded order was not by id
// the test requires that it made a difference, so the recorded order is
// seen to matter rather than assumed.
func TestKafkaGoFixtures(t *testing.T) {
	fixtures := loadClientFixtures(t, "kafka-go")
	if got, want := slices.Sorted(maps.Keys(fixtures)), fixtureNames([]string{"range", "roundrobin"}, []string{"billing", "default", "javaid", "saramaid"}); !slices.Equal(got, want) {
		t.Errorf("fixtures %v, want %v", got, want)
	}
	rules := map[string]func(map[string]map[string][]int32, []simMember, string, []int32){
		AssignorRange:      kafkagoRangeTopic,
		AssignorRoundRobin: kafkagoRoundRobinTopic,
	}
	for name, f := range fixtures {
		t.Run(name, func(t *testing.T) {
			if f.Library != "kafka-go" || f.Versions["kafka-go"] != "v0.4.51" {
				t.Fatalf("recorded with %s %v", f.Library, f.Versions)
			}
			if f.Leader == nil {
				t.Fatal("no leader input recorded")
			}
			members := f.changed(t)
			want := f.recorded(t)
			ids := make([]string, len(members))
			for i, m := range members {
				ids[i] = m.id
			}
			slices.Sort(ids)
			if !slices.Equal(ids, f.Leader.Members) {
				t.Fatalf("leader saw members %v, the group has %v", f.Leader.Members, ids)
			}
			got := kafkagoAssign(members, f.Partitions, f.Leader.Partitions, rules[f.Protocol])
			if !equalPlans(got, want) {
				t.Errorf("model assigned\n%s\nkafka-go assigned\n%s", planString(got), planString(want))
			}
			md, ok := lookupModel(ImplKafkaGo, f.Protocol)
			if !ok {
				t.Fatalf("no kafka-go model for %s", f.Protocol)
			}
			byID, _, err := runModel(md, members, f.Partitions)
			if err != nil {
				t.Fatal(err)
			}
			sorted := true
			for _, ps := range f.Leader.Partitions {
				sorted = sorted && slices.IsSorted(ps)
			}
			if sorted != equalPlans(byID, want) {
				t.Errorf("broker listed partitions by id: %v, the by-id model matches: %v", sorted, !sorted)
			}
		})
	}
}

// TestKafkaGoRemainderLast: kafka-go's range gives a topic's remainder to
// the last subscribers (5 partitions over 2 members: 2 then 3), where the
// Java client gives it to the first.
func TestKafkaGoRemainderLast(t *testing.T) {
	members := []simMember{{id: "a", topics: []string{"t5", "t7"}}, {id: "b", topics: []string{"t5", "t7"}}}
	got, err := kafkagoRange(members, nil, map[string]int32{"t5": 5, "t7": 7})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string][]int32{"a": {"t5": {0, 1}, "t7": {0, 1, 2}}, "b": {"t5": {2, 3, 4}, "t7": {3, 4, 5, 6}}}
	if !equalPlans(got, want) {
		t.Errorf("got\n%s", planString(got))
	}
	got, err = kafkagoRoundRobin(members, nil, map[string]int32{"t5": 5, "t7": 7})
	if err != nil {
		t.Fatal(err)
	}
	want = map[string]map[string][]int32{"a": {"t5": {0, 2, 4}, "t7": {0, 2, 4, 6}}, "b": {"t5": {1, 3}, "t7": {1, 3, 5}}}
	if !equalPlans(got, want) {
		t.Errorf("roundrobin got\n%s", planString(got))
	}
}
