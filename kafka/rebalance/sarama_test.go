package rebalance

import "testing"

// TestSaramaFixtures replays the recorded sarama groups (testdata/sarama)
// through the sarama models.
func TestSaramaFixtures(t *testing.T) {
	fixtures := replayClientFixtures(t, ImplSarama, "sarama",
		fixtureNames([]string{"range", "roundrobin", "sticky"}, []string{"billing", "default", "javaid", "static"}))
	for name, f := range fixtures {
		if f.Library != "sarama" || f.Versions["sarama"] != "v1.61.1" {
			t.Errorf("%s: recorded with %s %v", name, f.Library, f.Versions)
		}
	}
}

// TestSaramaRoundRobinTextOrder: the recorded roundrobin joins show
// sarama's text order of partitions (t12-10 and t12-11 before t12-2): the
// same deal to three members in numeric order, as kafka-python and the
// Java client make it, gives other partitions. (Between two members the
// two orders deal the same sets: t12's evens to one, odds to the other.)
func TestSaramaRoundRobinTextOrder(t *testing.T) {
	for name, f := range loadClientFixtures(t, "sarama") {
		if f.Protocol != AssignorRoundRobin || f.Join == "" {
			continue
		}
		members := f.changed(t)
		numeric, err := kafkaPythonRoundRobin(members, nil, f.Partitions)
		if err != nil {
			t.Fatal(err)
		}
		if equalPlans(numeric, f.recorded(t)) {
			t.Errorf("%s: a numeric-order deal gives sarama's assignment:\n%s", name, planString(numeric))
		}
	}
	two := []simMember{{id: "a", topics: []string{"t12"}}, {id: "b", topics: []string{"t12"}}}
	got, err := saramaRoundRobin(two, nil, map[string]int32{"t12": 12})
	if err != nil {
		t.Fatal(err)
	}
	// Text order: 0 1 10 11 2 3 4 5 6 7 8 9.
	want := map[string]map[string][]int32{"a": {"t12": {0, 10, 2, 4, 6, 8}}, "b": {"t12": {1, 11, 3, 5, 7, 9}}}
	if !equalPlans(got, want) {
		t.Errorf("got\n%s", planString(got))
	}
}
