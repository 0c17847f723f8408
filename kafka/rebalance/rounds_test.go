package rebalance

import (
	"reflect"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
)

// classicMember is a Stable classic member whose subscription metadata
// carries gen, the generation it had when it last joined.
func classicMember(id, client string, gen int32, parts ...int32) kafka.Member {
	meta := kmsg.NewConsumerMemberMetadata()
	meta.Version = 3
	meta.Topics = []string{"t"}
	meta.Generation = gen
	m := kafka.Member{MemberID: id, ClientID: client, Host: "/10.0.0.1", JoinMetadata: meta.AppendTo(nil)}
	if len(parts) > 0 {
		m.Assignment = []kafka.TopicPartitions{{Topic: "t", Partitions: parts}}
	}
	return m
}

func stable(members ...kafka.Member) *kafka.Group {
	return &kafka.Group{Name: "g", Type: kafka.TypeClassic, State: kafka.StateStable, Members: members}
}

func countRounds(reads ...*kafka.Group) Rounds {
	var c roundCounter
	for _, g := range reads {
		c.observe(g)
	}
	return c.result()
}

// TestRoundsEager: an eager group settles in one generation, which moves
// the removed member's partitions to the other processes (a, rejoined as
// a2, is the same process and keeps its own).
func TestRoundsEager(t *testing.T) {
	before := stable(classicMember("a", "c1", 4, 0, 1), classicMember("b", "c2", 4, 2, 3), classicMember("c", "c3", 4, 4, 5))
	rebalancing := &kafka.Group{Name: "g", Type: kafka.TypeClassic, State: "PreparingRebalance"}
	after := stable(classicMember("a2", "c1", 5, 0, 1, 4), classicMember("b", "c2", 5, 2, 3, 5))
	got := countRounds(before, rebalancing, before, after, after)
	want := Rounds{Known: true, From: 5, To: 6, Seen: []Round{{Generation: 6, Kind: RoundMove}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rounds %#v, want %#v", got, want)
	}
	if s := got.String(); s != "1 round (reassign)" {
		t.Fatalf("String() = %q", s)
	}
}

// TestRoundsCooperative: a cooperative rebalance first revokes the
// partitions that move (they are owned by nobody for a round), then
// assigns them.
func TestRoundsCooperative(t *testing.T) {
	before := stable(classicMember("a", "c1", 6, 0, 1, 2), classicMember("b", "c2", 6, 3, 4, 5))
	revoke := stable(classicMember("a", "c1", 7, 0, 1), classicMember("b", "c2", 7, 3, 4), classicMember("n", "c3", -1))
	assign := stable(classicMember("a", "c1", 8, 0, 1), classicMember("b", "c2", 8, 3, 4), classicMember("n", "c3", 8, 2, 5))
	got := countRounds(before, revoke, revoke, assign)
	want := Rounds{Known: true, From: 7, To: 9, Seen: []Round{{Generation: 8, Kind: RoundRevoke}, {Generation: 9, Kind: RoundAssign}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rounds %#v, want %#v", got, want)
	}
	if s := got.String(); s != "2 rounds (incremental revoke, then assign)" {
		t.Fatalf("String() = %q", s)
	}
	if s := got.Sentence(); s != "the group rebalanced in 2 rounds (incremental revoke, then assign), generation 7 to 9" {
		t.Fatalf("Sentence() = %q", s)
	}
	// Missing the revoke round between two reads: the generation rises
	// by 2 and the rounds may have been missed.
	got = countRounds(before, assign)
	want = Rounds{Known: true, From: 7, To: 9, Seen: []Round{{Generation: 9, Kind: RoundMove}}, MayBeMissed: true}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rounds with a missed read %#v, want %#v", got, want)
	}
	if s := got.Sentence(); s != "the group rebalanced in 1 round (reassign), generation 7 to 9; rounds may have been missed between reads: the generation rose by more than 1 between two of them" {
		t.Fatalf("Sentence() = %q", s)
	}
	// No new generation: no round.
	if s := countRounds(before, before).Sentence(); s != "the group did not rebalance while kgroups watched (generation 7)" {
		t.Fatalf("Sentence() with no new generation = %q", s)
	}
}

// TestRoundsUnknown: with no generation in the metadata (v0/v1, or
// members that all joined from scratch) nothing is counted.
func TestRoundsUnknown(t *testing.T) {
	old := classicMember("a", "c1", 3, 0)
	meta := kmsg.NewConsumerMemberMetadata()
	meta.Version = 1
	meta.Topics = []string{"t"}
	old.JoinMetadata = meta.AppendTo(nil)
	got := countRounds(stable(old), stable(classicMember("a", "c1", -1, 0)))
	if got.Known || got.Count() != 0 || got.String() != "" {
		t.Fatalf("rounds %+v, want unknown", got)
	}
	// A generation before the removal only: the lone member that
	// rejoined from scratch carries none, so nothing says whether the
	// group rebalanced (it did), and the sentence must not say it did not.
	got = countRounds(stable(classicMember("a", "c1", 1, 0, 1)), stable(classicMember("a2", "c1", -1, 0, 1)))
	if got.Known || got.Sentence() != "" {
		t.Fatalf("rounds after one read with a generation %+v, sentence %q; want unknown and no sentence", got, got.Sentence())
	}
	// A KIP-848 group counts by its group epoch.
	g := func(epoch int32) *kafka.Group {
		return &kafka.Group{Name: "g", Type: kafka.TypeConsumer, State: kafka.StateStable, GroupEpoch: epoch}
	}
	got = countRounds(g(3), g(4), g(4), g(7))
	if !got.Known || got.Count() != 2 || !got.MayBeMissed || got.From != 3 || got.To != 7 {
		t.Fatalf("KIP-848 rounds %+v, want 2 seen from 3 to 7, may be missed", got)
	}
}
