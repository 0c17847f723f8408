package rebalance

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
)

func metadata(version int16, userData []byte, topics ...string) []byte {
	m := kmsg.NewConsumerMemberMetadata()
	m.Version, m.Topics, m.UserData = version, topics, userData
	return m.AppendTo(nil)
}

func member(id, client string, meta []byte) kafka.Member {
	return kafka.Member{MemberID: id, ClientID: client, JoinMetadata: meta}
}

func TestIdentify(t *testing.T) {
	kgoCoop := kgo.CooperativeStickyBalancer().JoinGroupMetadata([]string{"t"}, nil, 3)
	v0 := metadata(0, nil, "t")
	v1 := metadata(1, nil, "t")
	v2 := metadata(2, nil, "t")
	rdkRange := metadata(1, []byte{}, "t")
	v0empty := metadata(0, []byte{}, "t")
	kgoRange := kgo.RangeBalancer().JoinGroupMetadata([]string{"t"}, nil, 3)
	kafkaGoV1 := v1[:len(v1)-4] // kafka-go stops after the user data, before the owned partitions
	for _, c := range []struct {
		name     string
		protocol string
		members  []kafka.Member
		want     Impl
		partial  bool
		label    string
	}{
		{"franz-go members", "cooperative-sticky", []kafka.Member{member("a", "kgo", kgoCoop), member("b", "kgo", kgoCoop)},
			ImplJava, false, "assignor cooperative-sticky (Java/franz-go leader)"},
		// The Java client's default client id names the group ("g").
		{"Java default client ids", "range", []kafka.Member{member("a", "consumer-g-1", v1), member("b", "consumer-g-2", v1)},
			ImplJava, false, "assignor range (Java/franz-go leader, by client id; sarama sends the same metadata)"},
		// A static Java member's default client id names its instance
		// id: the Java client 2.4 to 3.3 (recorded on Kafka 2.8.2 with its
		// own console consumer) sends sarama's layout under it.
		{"Java default client ids of static members", "range", []kafka.Member{
			{MemberID: "st-a-1", InstanceID: "st-a", ClientID: "consumer-g-st-a", JoinMetadata: v1},
			{MemberID: "st-b-1", InstanceID: "st-b", ClientID: "consumer-g-st-b", JoinMetadata: v1}},
			ImplJava, false, "assignor range (Java/franz-go leader, by client id; sarama sends the same metadata)"},
		{"another member's instance id is a chosen client id", "range", []kafka.Member{
			{MemberID: "st-a-1", InstanceID: "st-a", ClientID: "consumer-g-st-b", JoinMetadata: v1}},
			ImplSarama, false, "assignor range (sarama leader, by metadata the Java client 2.4 to 3.3 also sends)"},
		{"librdkafka default client id", "cooperative-sticky", []kafka.Member{member("a", "rdkafka", v1), member("b", "rdkafka", v1)},
			ImplLibrdkafka, false, "assignor cooperative-sticky (librdkafka leader, by client id only)"},
		{"kcat", "roundrobin", []kafka.Member{member("a", "kcat", v0)},
			ImplLibrdkafka, false, "assignor roundrobin (librdkafka leader, by client id only)"},
		{"kafkajs by protocol name, custom client id", "RoundRobinAssigner", []kafka.Member{member("a", "orders-svc", v0)},
			ImplKafkaJS, false, "assignor RoundRobinAssigner (kafkajs leader)"},
		{"kafkajs client id with a custom assignor", "my-assignor", []kafka.Member{member("a", "kafkajs", v0)},
			ImplKafkaJS, false, "assignor my-assignor (kafkajs leader, by client id only)"},
		{"RoundRobinAssigner with user data is not kafkajs's", "RoundRobinAssigner", []kafka.Member{member("a", "svc", metadata(0, []byte{1}, "t"))},
			ImplUnknown, false, "assignor RoundRobinAssigner (leader unknown)"},
		{"cooperative metadata at version 0 is no known client", "cooperative-sticky", []kafka.Member{member("a", "rdkafka", v0)},
			ImplUnknown, false, "assignor cooperative-sticky (leader unknown)"},
		{"custom client ids", "range", []kafka.Member{member("a", "orders-svc", v2)},
			ImplUnknown, false, "assignor range (leader unknown)"},
		// Version 1, null user data, no owned partitions: sarama's
		// layout, and the Java client's from 2.4 to 3.3; a client id that
		// is neither's default leaves it sarama, in doubt.
		{"sarama's layout, custom client ids", "range", []kafka.Member{member("a", "orders-svc", v1)},
			ImplSarama, false, "assignor range (sarama leader, by metadata the Java client 2.4 to 3.3 also sends)"},
		// kafka-go's truncated metadata re-encoded in full (as the poll
		// once did): kafka-go's default client id says kafka-go, in doubt.
		{"kafka-go's metadata re-encoded", "range", []kafka.Member{member("a", "svc@host (github.com/segmentio/kafka-go)", v1)},
			ImplKafkaGo, false, "assignor range (kafka-go leader, by client id; sarama sends the same metadata)"},
		// A client id is the user's to set: sarama's own still leaves the
		// Java client 2.4 to 3.3 possible.
		{"sarama's layout, sarama's client id", "range", []kafka.Member{member("a", "sarama", v1)},
			ImplSarama, false, "assignor range (sarama leader, by metadata the Java client 2.4 to 3.3 also sends)"},
		// kafka-go's own layout, kept as sent, outweighs another
		// library's client id.
		{"kafka-go's layout, sarama's client id", "range", []kafka.Member{member("a", "sarama", kafkaGoV1)},
			ImplKafkaGo, false, "assignor range (kafka-go leader, by metadata against client ids)"},
		{"kafka-go's layout, the Java client's default client id", "roundrobin", []kafka.Member{member("a", "consumer-g-1", kafkaGoV1)},
			ImplKafkaGo, false, "assignor roundrobin (kafka-go leader, by metadata against client ids)"},
		// "consumer-billing-1" in a group not named billing is a chosen id.
		{"sarama's layout, consumer- id of another group", "roundrobin", []kafka.Member{member("a", "consumer-billing-1", v1)},
			ImplSarama, false, "assignor roundrobin (sarama leader, by metadata the Java client 2.4 to 3.3 also sends)"},
		{"mixed clients", "range", []kafka.Member{member("a", "rdkafka", v1), member("b", "kgo", v1)},
			ImplMixed, false, "assignor range (mixed clients: leader unknown)"},
		// The unidentified member may be the leader: never "probably".
		{"one member unidentified", "range", []kafka.Member{member("a", "rdkafka", v1), member("b", "orders-svc", v2)},
			ImplUnknown, true, "assignor range (leader unknown: 1 of 2 members not identified)"},
		// librdkafka writes empty, not null, user data at version 1.
		{"librdkafka by metadata, custom client ids", "range", []kafka.Member{member("a", "billing-1", rdkRange), member("b", "billing-2", rdkRange)},
			ImplLibrdkafka, false, "assignor range (librdkafka leader)"},
		{"librdkafka metadata under Java's default client id", "roundrobin", []kafka.Member{member("a", "consumer-g-1", rdkRange), member("b", "consumer-g-2", rdkRange)},
			ImplLibrdkafka, false, "assignor roundrobin (librdkafka leader, by metadata against client ids)"},
		{"franz-go's version 3 layout, custom client ids", "range", []kafka.Member{member("a", "orders-svc", kgoRange), member("b", "orders-svc", kgoRange)},
			ImplJava, false, "assignor range (Java/franz-go leader)"},
		// kafka-python's layout (version 0, empty user data): one
		// kafka-python member and two librdkafka members are mixed,
		// never "probably librdkafka".
		{"one kafka-python and two librdkafka members", "range", []kafka.Member{member("a", "kafka-python-2.0.2", v0empty), member("b", "rdkafka", rdkRange), member("c", "rdkafka", rdkRange)},
			ImplMixed, false, "assignor range (mixed clients: leader unknown)"},
		{"kafka-python by metadata, custom client ids", "roundrobin", []kafka.Member{member("a", "consumer-billing-1", v0empty), member("b", "consumer-billing-2", v0empty)},
			ImplKafkaPython, false, "assignor roundrobin (kafka-python leader)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := &kafka.Group{Name: "g", Assignor: c.protocol, Members: c.members}
			id := Identify(g)
			if id.Impl != c.want || id.Partial != c.partial || id.Label() != c.label {
				t.Fatalf("Identify = %s partial %v %q, want %s partial %v %q", id.Impl, id.Partial, id.Label(), c.want, c.partial, c.label)
			}
		})
	}
}

// TestSimulateRecordedKafkaJSLeave feeds the recorded three-member kafkajs
// group to Simulate with the member that really left next leaving: the
// group's own RoundRobinAssigner comes first, exact, and predicts what
// kafkajs really did (the next fixture); the Java rows follow as
// approximate what-ifs.
func TestSimulateRecordedKafkaJSLeave(t *testing.T) {
	g := loadKafkaJSFixture(t, "2-third-joins").group(t)
	leaving := "kafkajs-a99c1eafbbf461ee5cc416c4b86a18f9"
	sim, err := Simulate(g, map[string]int32{"js-orders": 6, "js-events": 4}, Change{Leave: []string{leaving}})
	if err != nil {
		t.Fatal(err)
	}
	if sim.Leader.Impl != ImplKafkaJS || sim.Leader.Label() != "assignor RoundRobinAssigner (kafkajs leader)" {
		t.Fatalf("leader %s %q", sim.Leader.Impl, sim.Leader.Label())
	}
	var names []string
	for _, p := range sim.Predictions {
		// How many results franz-go's sticky balancers gave varies
		// from run to run: they break ties at random.
		note, _, _ := strings.Cut(p.Note, ": ")
		names = append(names, p.Assignor+"/"+string(p.Impl)+"/"+string(p.Confidence)+"/"+note)
	}
	want := []string{
		"RoundRobinAssigner/kafkajs/exact/the group's assignor",
		"range/java/approximate/if the group used range",
		"roundrobin/java/approximate/if the group used roundrobin",
		"sticky/java/approximate/if the group used sticky; the leader breaks ties its own way (franz-go's at random)",
		"cooperative-sticky/java/approximate/if the group used cooperative-sticky; the leader breaks ties its own way (franz-go's at random)",
	}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("predictions\n%v\nwant\n%v", names, want)
	}
	p := sim.Predictions[0]
	// Sorted members 0212…, a621…; js-orders dealt first (subscription
	// order), partitions by id, then js-events.
	wantA := map[string][]kafka.TopicPartitions{
		"kafkajs-0212e77429f3178247db92b218e77e0f": tps("js-events:0,2", "js-orders:0,2,4"),
		"kafkajs-a6219e7b5926411872f64294927dac4d": tps("js-events:1,3", "js-orders:1,3,5"),
	}
	if p.Err != nil || p.Rounds != 1 || !reflect.DeepEqual(p.Assignment, wantA) {
		t.Fatalf("RoundRobinAssigner: err %v rounds %d assignment %v, want %v", p.Err, p.Rounds, p.Assignment, wantA)
	}
	after := loadKafkaJSFixture(t, "3-second-leaves").group(t)
	for _, m := range after.Members {
		if !reflect.DeepEqual(p.Assignment[m.MemberID], m.Assignment) {
			t.Errorf("%s: predicted %v, kafkajs assigned %v", m.MemberID, p.Assignment[m.MemberID], m.Assignment)
		}
	}
	// Before: 0212 orders 0,3 events 2,3; a621 orders 1,4 events 0;
	// a99c orders 2,5 events 1.
	a, b := "kafkajs-0212e77429f3178247db92b218e77e0f", "kafkajs-a6219e7b5926411872f64294927dac4d"
	wantMoves := map[tp]string{
		{"js-orders", 2}: leaving,
		{"js-orders", 3}: a,
		{"js-orders", 4}: b,
		{"js-orders", 5}: leaving,
		{"js-events", 0}: b,
		{"js-events", 1}: leaving,
		{"js-events", 3}: a,
	}
	if got := movedSet(p.Moves); !reflect.DeepEqual(got, wantMoves) {
		t.Fatalf("moves %v, want %v", got, wantMoves)
	}
}

// TestSimulateRecordedKafkaJSJoin: a joiner's real member id is random and
// decides its place in kafkajs's order: before 0212…, between the two, or
// after a621…; the three places give three results, so the join is a
// range, approximate. The best place (after a621…) moves 6 partitions, the worst 8.
func TestSimulateRecordedKafkaJSJoin(t *testing.T) {
	g := loadKafkaJSFixture(t, "3-second-leaves").group(t)
	sim, err := Simulate(g, map[string]int32{"js-orders": 6, "js-events": 4}, Change{Join: 1})
	if err != nil {
		t.Fatal(err)
	}
	p := sim.Predictions[0]
	if p.Assignor != ProtocolKafkaJSRoundRobin || p.Confidence != ConfidenceApproximate || p.Note != "the group's assignor; joiners' member ids decide the result: 3 results in 3 places run" || len(p.Results) != 3 {
		t.Fatalf("first row %s %s %q", p.Assignor, p.Confidence, p.Note)
	}
	wantA := map[string][]kafka.TopicPartitions{
		"kafkajs-0212e77429f3178247db92b218e77e0f": tps("js-events:0,3", "js-orders:0,3"),
		"kafkajs-a6219e7b5926411872f64294927dac4d": tps("js-events:1", "js-orders:1,4"),
		"new-1": tps("js-events:2", "js-orders:2,5"),
	}
	if !reflect.DeepEqual(p.Assignment, wantA) {
		t.Fatalf("assignment %v, want %v", p.Assignment, wantA)
	}
	if p.Worst == nil || len(p.ByProcess.Moves) != 6 || len(p.Worst.ByProcess.Moves) != 8 {
		t.Fatalf("worst place %+v, best moves %d; want moves 6 to 8", p.Worst, len(p.ByProcess.Moves))
	}
}

// TestSimulateUnmodelledAssignor: a custom assignor, and librdkafka's
// cooperative-sticky where no librdkafka model is registered, get a
// counts-only row first; the Java rows stay as what-ifs.
func TestSimulateUnmodelledAssignor(t *testing.T) {
	for _, c := range []struct {
		protocol, client, want string
		java                   Confidence
		meta                   []byte
	}{
		// A custom assignor under franz-go's client id, with metadata
		// no recording shows franz-go sending (version 1): only the
		// client id says franz-go, so its range row is a what-if, not
		// exact.
		{"my-assignor", "kgo", "counts only: this group's leader runs my-assignor, which kgroups does not model", ConfidenceApproximate, metadata(1, nil, "t")},
		// The same with franz-go's own layout (version 3): exact.
		{"my-assignor", "kgo", "counts only: this group's leader runs my-assignor, which kgroups does not model", ConfidenceExact, kgo.RangeBalancer().JoinGroupMetadata([]string{"t"}, nil, 3)},
		// kafkajs configured with a range assignor of its own: kgroups
		// models only kafkajs's RoundRobinAssigner.
		// (kafkajs writes version 0 with empty user data.)
		{"range", "kafkajs", "counts only: this group's leader runs kafkajs's range, which kgroups does not model", ConfidenceApproximate, metadata(0, []byte{}, "t")},
		// A librdkafka leader with a custom assignor.
		{"my-assignor", "rdkafka", "counts only: this group's leader runs my-assignor, which kgroups does not model", ConfidenceApproximate, metadata(1, nil, "t")},
	} {
		g := &kafka.Group{Name: "g", Type: kafka.TypeClassic, ProtocolType: "consumer", State: kafka.StateStable, Assignor: c.protocol}
		a := member("a", c.client, c.meta)
		a.Assignment = tps("t:0,1")
		b := member("b", c.client, c.meta)
		b.Assignment = tps("t:2,3")
		g.Members = []kafka.Member{a, b}
		sim, err := Simulate(g, map[string]int32{"t": 4}, Change{Leave: []string{"b"}})
		if err != nil {
			t.Fatal(err)
		}
		p := sim.Predictions[0]
		var ue *UnmodelledError
		if p.Assignor != c.protocol || p.Confidence != ConfidenceUnknown || !errors.As(p.Err, &ue) || p.Err.Error() != c.want || p.Assignment != nil {
			t.Fatalf("%s: first row %s %s %v", c.protocol, p.Assignor, p.Confidence, p.Err)
		}
		if len(sim.Predictions) != 5 || !strings.HasPrefix(sim.Predictions[1].Note, "if the group used range") || sim.Predictions[1].Confidence != c.java || len(sim.Predictions[1].Moves) != 2 {
			t.Fatalf("%s: Java rows %+v", c.protocol, sim.Predictions[1])
		}
	}
}

// TestSimulateSaysMetadataOutweighsClientID: librdkafka members with the
// Java client's default client id get the librdkafka model, and the row
// says why.
func TestSimulateSaysMetadataOutweighsClientID(t *testing.T) {
	g := &kafka.Group{Name: "billing", Type: kafka.TypeClassic, ProtocolType: "consumer", State: kafka.StateStable, Assignor: AssignorRoundRobin}
	for i, id := range []string{"a", "b"} {
		m := member(id, fmt.Sprintf("consumer-billing-%d", i+1), metadata(1, []byte{}, "t"))
		m.Assignment = tps(fmt.Sprintf("t:%d,%d", 2*i, 2*i+1))
		g.Members = append(g.Members, m)
	}
	sim, err := Simulate(g, map[string]int32{"t": 4}, Change{Leave: []string{"b"}})
	if err != nil {
		t.Fatal(err)
	}
	p := sim.Predictions[0]
	want := "the group's assignor; identified by metadata: client id consumer-billing-1 is Java/franz-go's default form, but its metadata is librdkafka's"
	if p.Impl != ImplLibrdkafka || p.Confidence != ConfidenceExact || p.Note != want {
		t.Fatalf("first row %s %s %q, want librdkafka exact %q", p.Impl, p.Confidence, p.Note, want)
	}
}
