package rebalance

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
)

func loadKafkaJSFixture(t *testing.T, name string) kafkajsFixture {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "kafkajs", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var f kafkajsFixture
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return f
}

var kafkajsFixtures = []string{"1-two-members", "2-third-joins", "3-second-leaves"}

// group is the fixture as kgroups's snapshot holds it.
func (f kafkajsFixture) group(t *testing.T) *kafka.Group {
	t.Helper()
	g := &kafka.Group{Name: f.Group, Type: kafka.TypeClassic, ProtocolType: "consumer", State: kafka.StateStable, Assignor: f.Protocol}
	for _, fm := range f.Members {
		m := kafka.Member{MemberID: fm.MemberID, ClientID: fm.ClientID, Host: fm.Host, JoinMetadata: fm.Metadata}
		for _, tp := range wireAssignment(t, fm.Assignment) {
			ps := slices.Clone(tp.Partitions)
			slices.Sort(ps)
			m.Assignment = append(m.Assignment, kafka.TopicPartitions{Topic: tp.Topic, Partitions: ps})
		}
		slices.SortFunc(m.Assignment, func(a, b kafka.TopicPartitions) int { return strings.Compare(a.Topic, b.Topic) })
		g.Members = append(g.Members, m)
	}
	return g
}

// wireAssignment decodes an assignment keeping the order of its topics
// and partitions on the wire.
func wireAssignment(t *testing.T, b []byte) []kafka.TopicPartitions {
	t.Helper()
	a := kmsg.NewConsumerMemberAssignment()
	if err := a.ReadFrom(b); err != nil {
		t.Fatal(err)
	}
	var out []kafka.TopicPartitions
	for _, tp := range a.Topics {
		out = append(out, kafka.TopicPartitions{Topic: tp.Topic, Partitions: tp.Partitions})
	}
	return out
}

// TestKafkaJSFixturesReproduced deals each recorded group with the model
// given what the leader was given (its subscription and its metadata's
// partition order) and demands every member's recorded assignment, down
// to the order kafkajs wrote the partitions in.
func TestKafkaJSFixturesReproduced(t *testing.T) {
	for _, name := range kafkajsFixtures {
		t.Run(name, func(t *testing.T) {
			f := loadKafkaJSFixture(t, name)
			if f.Protocol != ProtocolKafkaJSRoundRobin || f.Client != "kafkajs 2.2.4" {
				t.Fatalf("fixture from %q with protocol %q", f.Client, f.Protocol)
			}
			var members []simMember
			for _, fm := range f.Members {
				meta := kmsg.NewConsumerMemberMetadata()
				if err := meta.ReadFrom(fm.Metadata); err != nil {
					t.Fatal(err)
				}
				// The leader's topics are its subscription, unsorted.
				if !slices.Equal(meta.Topics, f.Leader.Topics) || !slices.Equal(meta.Topics, []string{"js-orders", "js-events"}) {
					t.Fatalf("member %s subscribes %v, leader dealt %v", fm.MemberID, meta.Topics, f.Leader.Topics)
				}
				members = append(members, simMember{id: fm.MemberID, topics: uniqueSorted(meta.Topics), ordered: meta.Topics})
			}
			// Members in the order DescribeGroups gave them, reversed, so
			// that the model's own sort is what the test checks.
			slices.Reverse(members)
			plan := kafkajsDeal(members, f.Leader.Topics, f.Leader.Partitions)
			dealt := 0
			for _, fm := range f.Members {
				var want []string
				for _, tp := range wireAssignment(t, fm.Assignment) {
					want = append(want, fmt.Sprint(tp.Topic, tp.Partitions))
					dealt += len(tp.Partitions)
				}
				var got []string
				for _, topic := range f.Leader.Topics {
					if ps := plan[fm.MemberID][topic]; len(ps) > 0 {
						got = append(got, fmt.Sprint(topic, ps))
					}
				}
				if !slices.Equal(got, want) {
					t.Errorf("member %s: model %v, kafkajs %v", fm.MemberID, got, want)
				}
			}
			if dealt != 10 {
				t.Fatalf("fixture assigns %d partitions, want 10", dealt)
			}
		})
	}
}

// TestKafkaJSRoundRobinByID: topics in subscription order, partitions by
// id, members by member id, whatever order they come in.
func TestKafkaJSRoundRobinByID(t *testing.T) {
	sub := []string{"z", "a"}
	members := []simMember{
		{id: "b", topics: uniqueSorted(sub), ordered: sub},
		{id: "c", topics: uniqueSorted(sub), ordered: sub},
		{id: "a", topics: uniqueSorted(sub), ordered: sub},
	}
	plan, err := kafkajsRoundRobin(members, nil, map[string]int32{"z": 4, "a": 2})
	if err != nil {
		t.Fatal(err)
	}
	// z0 a, z1 b, z2 c, z3 a, then a0 b, a1 c. Java's roundrobin would
	// take topic a first: a0 to a, a1 to b, z0 to c.
	want := map[string]map[string][]int32{
		"a": {"z": {0, 3}},
		"b": {"z": {1}, "a": {0}},
		"c": {"z": {2}, "a": {1}},
	}
	if !reflect.DeepEqual(plan, want) {
		t.Fatalf("plan = %v, want %v", plan, want)
	}

	members[1].ordered = []string{"a", "z"}
	if _, err := kafkajsRoundRobin(members, nil, map[string]int32{"z": 4, "a": 2}); err == nil || !strings.Contains(err.Error(), "members subscribe to different topics (z,a and a,z)") {
		t.Fatalf("different orders: err = %v", err)
	}
}

// TestKafkaJSRoundRobinIsValid: whatever the members and topics, every
// partition goes to exactly one member, and the counts differ by at most
// one between members.
func TestKafkaJSRoundRobinIsValid(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 2))
	for range 2000 {
		nt := 1 + r.IntN(4)
		counts := map[string]int32{}
		var sub []string
		for i := range nt {
			name := fmt.Sprintf("t%d", i)
			counts[name] = int32(1 + r.IntN(9))
			sub = append(sub, name)
		}
		r.Shuffle(len(sub), func(i, j int) { sub[i], sub[j] = sub[j], sub[i] })
		nm := 1 + r.IntN(7)
		var members []simMember
		for i := range nm {
			members = append(members, simMember{id: fmt.Sprintf("kafkajs-%08x-%d", r.Uint32(), i), topics: uniqueSorted(sub), ordered: sub})
		}
		plan, err := kafkajsRoundRobin(members, nil, counts)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[tp]int{}
		total := 0
		lo, hi := 1<<30, 0
		for _, m := range members {
			n := 0
			for topic, ps := range plan[m.id] {
				for _, p := range ps {
					seen[tp{topic, p}]++
					n++
				}
			}
			lo, hi = min(lo, n), max(hi, n)
		}
		for topic, n := range counts {
			total += int(n)
			for p := range n {
				if seen[tp{topic, p}] != 1 {
					t.Fatalf("%s-%d assigned %d times (members %d, counts %v)", topic, p, seen[tp{topic, p}], nm, counts)
				}
			}
		}
		if len(seen) != total || hi-lo > 1 {
			t.Fatalf("%d distinct partitions of %d, members hold %d to %d", len(seen), total, lo, hi)
		}
	}
}
