package rebalance

import (
	"math/big"
	"reflect"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka"
)

// joined gives a synthetic member the join metadata a kgo client using bal
// would have sent, subscribed to topics and owning its assignment.
func joined(m kafka.Member, bal kgo.GroupBalancer, generation int32, topics ...string) kafka.Member {
	m.Subscribed = topics
	m.JoinMetadata = bal.JoinGroupMetadata(topics, assignmentMap(m.Assignment), generation)
	return m
}

func rangeGroup(members ...kafka.Member) *kafka.Group {
	g := &kafka.Group{Name: "app", Type: kafka.TypeClassic, ProtocolType: "consumer", State: kafka.StateStable, Assignor: "range"}
	for _, m := range members {
		g.Members = append(g.Members, joined(m, kgo.RangeBalancer(), 4, "t"))
	}
	return g
}

// abc is a Stable group of three members owning two partitions of t each.
func abc() *kafka.Group {
	return rangeGroup(mem("a", "ca", "t:0,1"), mem("b", "cb", "t:2,3"), mem("c", "cc", "t:4,5"))
}

func tps(s ...string) []kafka.TopicPartitions {
	return mem("", "", s...).Assignment
}

func movedSet(moves []Move) map[tp]string {
	out := make(map[tp]string)
	for _, m := range moves {
		out[tp{m.Topic, m.Partition}] = m.From
	}
	return out
}

func TestSimulateLeave(t *testing.T) {
	sim, err := Simulate(abc(), map[string]int32{"t": 6}, Change{Leave: []string{"b"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "c"}; !reflect.DeepEqual(sim.Members, want) {
		t.Errorf("members = %v, want %v", sim.Members, want)
	}
	if got := sim.Change.String(); got != "leave b" {
		t.Errorf("change = %q, want %q", got, "leave b")
	}
	var order []string
	for _, p := range sim.Predictions {
		order = append(order, p.Assignor)
		if p.Err != nil {
			t.Errorf("%s: %v", p.Assignor, p.Err)
		}
	}
	if !reflect.DeepEqual(order, Assignors) {
		t.Fatalf("assignors = %v, want %v", order, Assignors)
	}

	// range: a takes 0-2, c takes 3-5: partitions 2 and 3 leave b.
	rng, _ := sim.Prediction(AssignorRange)
	wantRange := map[string][]kafka.TopicPartitions{"a": tps("t:0,1,2"), "c": tps("t:3,4,5")}
	if !reflect.DeepEqual(rng.Assignment, wantRange) {
		t.Errorf("range assignment = %v, want %v", rng.Assignment, wantRange)
	}
	wantMoves := []Move{{"t", 2, "b", "a"}, {"t", 3, "b", "c"}}
	if !reflect.DeepEqual(rng.Moves, wantMoves) {
		t.Errorf("range moves = %v, want %v", rng.Moves, wantMoves)
	}
	if rng.Rounds != 1 {
		t.Errorf("range rounds = %d, want 1", rng.Rounds)
	}

	// roundrobin deals 0..5 alternately: a 0,2,4 and c 1,3,5, moving four.
	rr, _ := sim.Prediction(AssignorRoundRobin)
	wantRR := map[string][]kafka.TopicPartitions{"a": tps("t:0,2,4"), "c": tps("t:1,3,5")}
	if !reflect.DeepEqual(rr.Assignment, wantRR) {
		t.Errorf("roundrobin assignment = %v, want %v", rr.Assignment, wantRR)
	}
	wantMoves = []Move{{"t", 1, "a", "c"}, {"t", 2, "b", "a"}, {"t", 3, "b", "c"}, {"t", 4, "c", "a"}}
	if !reflect.DeepEqual(rr.Moves, wantMoves) {
		t.Errorf("roundrobin moves = %v, want %v", rr.Moves, wantMoves)
	}

	// sticky and cooperative-sticky move only b's partitions, one each to
	// a and c (which of the two goes where is the balancer's choice).
	for _, name := range []string{AssignorSticky, AssignorCooperativeSticky} {
		p, _ := sim.Prediction(name)
		if got, want := movedSet(p.Moves), map[tp]string{{"t", 2}: "b", {"t", 3}: "b"}; !reflect.DeepEqual(got, want) {
			t.Errorf("%s moved %v, want b's partitions 2 and 3", name, p.Moves)
		}
		if len(p.Assignment["a"]) != 1 || len(p.Assignment["a"][0].Partitions) != 3 ||
			len(p.Assignment["c"]) != 1 || len(p.Assignment["c"][0].Partitions) != 3 {
			t.Errorf("%s assignment %v is not 3 and 3", name, p.Assignment)
		}
		if p.Rounds != 1 {
			t.Errorf("%s rounds = %d, want 1: nothing needs revoking", name, p.Rounds)
		}
	}
}

func TestSimulateJoin(t *testing.T) {
	g := rangeGroup(mem("a", "ca", "t:0,1,2"), mem("b", "cb", "t:3,4,5"))
	sim, err := Simulate(g, map[string]int32{"t": 6}, Change{Join: 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"new-1"}; !reflect.DeepEqual(sim.Joiners, want) {
		t.Errorf("joiners = %v, want %v", sim.Joiners, want)
	}
	if want := []string{"a", "b", "new-1"}; !reflect.DeepEqual(sim.Members, want) {
		t.Errorf("members = %v, want %v", sim.Members, want)
	}
	// The joiner's member id may sort before a, between a and b, or
	// after b: range moves 2 partitions at best (between), 3 at worst
	// (first, the first of the two worst places), so it is approximate.
	rng, _ := sim.Prediction(AssignorRange)
	if rng.Places != 3 || rng.PlacesOf.Cmp(big.NewInt(3)) != 0 || rng.Confidence != ConfidenceApproximate ||
		rng.Note != "the group's assignor; joiners' member ids decide the result: 3 results in 3 places run" {
		t.Errorf("range: places %d of %d, %s %q", rng.Places, rng.PlacesOf, rng.Confidence, rng.Note)
	}
	wantRange := map[string][]kafka.TopicPartitions{"a": tps("t:0,1"), "new-1": tps("t:2,3"), "b": tps("t:4,5")}
	if !reflect.DeepEqual(rng.Assignment, wantRange) {
		t.Errorf("range assignment = %v, want %v", rng.Assignment, wantRange)
	}
	wantMoves := []Move{{"t", 2, "a", "new-1"}, {"t", 3, "b", "new-1"}}
	if !reflect.DeepEqual(rng.Moves, wantMoves) {
		t.Errorf("range moves = %v, want %v", rng.Moves, wantMoves)
	}
	// Every result, best first: the joiner between a and b (2 moves),
	// then first and last (3 each, in the order the places were run);
	// the worst is the last of them, never a copy of the best.
	wantResults := []map[string][]kafka.TopicPartitions{
		wantRange,
		{"new-1": tps("t:0,1"), "a": tps("t:2,3"), "b": tps("t:4,5")},
		{"a": tps("t:0,1"), "b": tps("t:2,3"), "new-1": tps("t:4,5")},
	}
	if len(rng.Results) != len(wantResults) {
		t.Fatalf("range: %d results, want %d", len(rng.Results), len(wantResults))
	}
	for i, want := range wantResults {
		if got := rng.Results[i]; !reflect.DeepEqual(got.Assignment, want) || len(got.ByProcess.Moves) != []int{2, 3, 3}[i] {
			t.Errorf("range result %d = %v moving %d, want %v moving %d", i, got.Assignment, len(got.ByProcess.Moves), want, []int{2, 3, 3}[i])
		}
	}
	if rng.Worst == nil || !reflect.DeepEqual(rng.Worst.Assignment, wantResults[2]) {
		t.Errorf("range worst = %v, want the last result", rng.Worst)
	}

	// Cooperative-sticky needs a second round: the first revokes one
	// partition from a and one from b, the second gives both to the
	// joiner.
	coop, _ := sim.Prediction(AssignorCooperativeSticky)
	if coop.Err != nil {
		t.Fatal(coop.Err)
	}
	if coop.Rounds != 2 {
		t.Errorf("cooperative-sticky rounds = %d, want 2", coop.Rounds)
	}
	if len(coop.Moves) != 2 {
		t.Fatalf("cooperative-sticky moves = %v, want 2", coop.Moves)
	}
	from := map[string]int{}
	for _, m := range coop.Moves {
		if m.To != "new-1" {
			t.Errorf("cooperative-sticky moved %v to %q, want new-1", m, m.To)
		}
		from[m.From]++
	}
	if from["a"] != 1 || from["b"] != 1 {
		t.Errorf("cooperative-sticky took %v from a and b, want one each", from)
	}
	sticky, _ := sim.Prediction(AssignorSticky)
	if sticky.Rounds != 1 || len(sticky.Moves) != 2 {
		t.Errorf("sticky: %d rounds, moves %v; want 1 round and 2 moves", sticky.Rounds, sticky.Moves)
	}
}

func TestSimulateOrdersStaticMembersByInstanceID(t *testing.T) {
	// kgo's leader sorts static members by instance id, not member id:
	// z (instance "a-0") comes first and range gives it the low half.
	z, y := mem("z", "cz", "t:0,1"), mem("y", "cy", "t:2,3")
	z.InstanceID, y.InstanceID = "a-0", "b-0"
	g := rangeGroup(z, y, mem("x", "cx", "t:4,5"))
	sim, err := Simulate(g, map[string]int32{"t": 6}, Change{Leave: []string{"x"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"z", "y"}; !reflect.DeepEqual(sim.Members, want) {
		t.Errorf("members = %v, want %v", sim.Members, want)
	}
	rng, _ := sim.Prediction(AssignorRange)
	want := map[string][]kafka.TopicPartitions{"z": tps("t:0,1,2"), "y": tps("t:3,4,5")}
	if !reflect.DeepEqual(rng.Assignment, want) {
		t.Errorf("range assignment = %v, want %v", rng.Assignment, want)
	}
}

func TestSimulateEveryoneLeaves(t *testing.T) {
	sim, err := Simulate(abc(), map[string]int32{"t": 6}, Change{Leave: []string{"c", "a", "b", "a"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := sim.Change.String(); got != "leave a, b, c" {
		t.Errorf("change = %q", got)
	}
	for _, p := range sim.Predictions {
		if p.Err != nil || len(p.Moves) != 6 || Count(p.Moves).Unassigned != 6 || len(p.Assignment) != 0 {
			t.Errorf("%s: err %v, moves %v, assignment %v; want all 6 unassigned", p.Assignor, p.Err, p.Moves, p.Assignment)
		}
	}
}

func TestSimulateRejects(t *testing.T) {
	counts := map[string]int32{"t": 6}
	nometa := abc()
	nometa.Members[1].JoinMetadata = nil
	garbled := abc()
	garbled.Members[2].JoinMetadata = []byte{0, 3, 0xff}
	connect := abc()
	connect.ProtocolType = "connect"
	empty := &kafka.Group{Name: "app", Type: kafka.TypeClassic, ProtocolType: "consumer", State: kafka.StateEmpty}
	k848 := &kafka.Group{Name: "app", Type: kafka.TypeConsumer, State: kafka.StateStable, Assignor: AssignorUniform}
	k848regex := &kafka.Group{Name: "app", Type: kafka.TypeConsumer, State: kafka.StateStable, Assignor: AssignorUniform,
		Members: []kafka.Member{{MemberID: "a", SubscribedRegex: "t.*", Target: []kafka.TopicPartitions{{Topic: "t", Partitions: []int32{0}}}}}}

	tests := []struct {
		name   string
		g      *kafka.Group
		counts map[string]int32
		change Change
		want   string
	}{
		{"unknown member", abc(), counts, Change{Leave: []string{"zz"}}, `member "zz" is not in group "app"; its members are: a, b, c`},
		{"empty member id", abc(), counts, Change{Leave: []string{""}}, "a member id cannot be empty"},
		{"both", abc(), counts, Change{Leave: []string{"a"}, Join: 1}, "either members leaving or members joining, not both"},
		{"neither", abc(), counts, Change{}, "nothing to simulate"},
		{"negative join", abc(), counts, Change{Join: -1}, "cannot simulate -1 members joining: the number must be from 1 to 1000"},
		{"too many", abc(), counts, Change{Join: MaxJoin + 1}, "the number must be from 1 to 1000"},
		{"no metadata", nometa, counts, Change{Join: 1}, `member "b" sent no subscription metadata`},
		{"garbled metadata", garbled, counts, Change{Join: 1}, `member "c": decode its subscription metadata`},
		{"unknown topic size", abc(), map[string]int32{"u": 3}, Change{Join: 1}, "partition count unknown for subscribed topic(s) t"},
		{"connect group", connect, counts, Change{Join: 1}, `protocol type "connect", not consumer`},
		{"no members", empty, counts, Change{Join: 1}, `group "app" has no members (state Empty)`},
		{"KIP-848 no members", k848, counts, Change{Join: 1}, `group "app" has no members (state Stable)`},
		{"KIP-848 regex", k848regex, counts, Change{Join: 1}, `member "a" subscribes by regular expression "t.*"`},
		{"KIP-848 unknown topic size", k848regex, map[string]int32{"u": 3}, Change{Leave: []string{"zz"}}, `member "zz" is not in group "app"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Simulate(tc.g, tc.counts, tc.change)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestSimulateJoinerIDsAvoidRealOnes(t *testing.T) {
	g := rangeGroup(mem("new-1", "c1", "t:0,1,2"), mem("b", "cb", "t:3,4,5"))
	sim, err := Simulate(g, map[string]int32{"t": 6}, Change{Join: 2})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"new-2", "new-3"}; !reflect.DeepEqual(sim.Joiners, want) {
		t.Errorf("joiners = %v, want %v", sim.Joiners, want)
	}
}

func TestReconciliation(t *testing.T) {
	a, b := mem("a", "ca", "t:0,1,2,3"), mem("b", "cb")
	a.Target, b.Target = tps("t:0,1"), tps("t:2,3")
	g := &kafka.Group{Name: "app", Type: kafka.TypeConsumer, State: kafka.StateReconciling, Members: []kafka.Member{a, b}}
	want := []Move{{"t", 2, "a", "b"}, {"t", 3, "a", "b"}}
	if got := Reconciliation(g); !reflect.DeepEqual(got, want) {
		t.Errorf("Reconciliation = %v, want %v", got, want)
	}
	b.Assignment = b.Target
	a.Assignment = a.Target
	g.Members = []kafka.Member{a, b}
	if got := Reconciliation(g); len(got) != 0 {
		t.Errorf("reconciled group still has moves %v", got)
	}
}

func TestPartitionCountsFromGroup(t *testing.T) {
	g := abc()
	g.Partitions = []kafka.PartitionOffsets{{Topic: "t", Partition: 7}, {Topic: "u", Partition: 0}}
	want := map[string]int32{"t": 8, "u": 1}
	if got := PartitionCountsFromGroup(g); !reflect.DeepEqual(got, want) {
		t.Errorf("counts = %v, want %v", got, want)
	}
	if got, want := Subscriptions(g), []string{"t"}; !reflect.DeepEqual(got, want) {
		t.Errorf("subscriptions = %v, want %v", got, want)
	}
}
