package columns

import (
	"testing"

	"github.com/kgroups/kgroups/kafka"
)

func TestOffsetAndText(t *testing.T) {
	for _, tc := range []struct {
		in   int64
		want string
	}{{kafka.NoOffset, "-"}, {0, "0"}, {42, "42"}, {9223372036854775807, "9223372036854775807"}} {
		if got := Offset(tc.in); got != tc.want {
			t.Errorf("Offset(%d) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := Text(""); got != "-" {
		t.Errorf(`Text("") = %q, want "-"`, got)
	}
	if got := Text("x"); got != "x" {
		t.Errorf(`Text("x") = %q, want "x"`, got)
	}
}

func TestCoordinator(t *testing.T) {
	b := kafka.Broker{ID: 2, Host: "broker-2.example", Port: 9093}
	if got := Coordinator(b); got != "broker-2.example:9093 (2)" {
		t.Errorf("Coordinator = %q", got)
	}
	if got := CoordinatorID(b); got != "2" {
		t.Errorf("CoordinatorID = %q", got)
	}
	zero := kafka.Broker{ID: 0, Host: "h", Port: 1}
	if got := Coordinator(zero); got != "h:1 (0)" {
		t.Errorf("broker 0: Coordinator = %q", got)
	}
	for _, unknown := range []kafka.Broker{{}, {ID: -1, Host: "h", Port: 1}} {
		if got := Coordinator(unknown); got != "-" {
			t.Errorf("Coordinator(%+v) = %q, want -", unknown, got)
		}
		if got := CoordinatorID(unknown); got != "-" {
			t.Errorf("CoordinatorID(%+v) = %q, want -", unknown, got)
		}
	}
}

func TestAssignment(t *testing.T) {
	got := Assignment([]kafka.TopicPartitions{{Topic: "a", Partitions: []int32{0, 2}}, {Topic: "b"}, {Topic: "c", Partitions: []int32{7}}})
	if got != "a(0,2),c(7)" {
		t.Errorf("Assignment = %q", got)
	}
	if got := Assignment(nil); got != "-" {
		t.Errorf("Assignment(nil) = %q", got)
	}
}

func TestGroupLag(t *testing.T) {
	g := &kafka.Group{Partitions: []kafka.PartitionOffsets{
		{Lag: kafka.NoOffset}, {Lag: 0}, {Lag: 5}, {Lag: 7},
	}}
	if got := GroupLag(g); got != 12 {
		t.Errorf("GroupLag = %d, want 12", got)
	}
	caughtUp := &kafka.Group{Partitions: []kafka.PartitionOffsets{{Lag: 0}}}
	if got := GroupLag(caughtUp); got != 0 {
		t.Errorf("caught up GroupLag = %d, want 0", got)
	}
	never := &kafka.Group{Partitions: []kafka.PartitionOffsets{{Lag: kafka.NoOffset}}}
	if got := GroupLag(never); got != kafka.NoOffset {
		t.Errorf("never committed GroupLag = %d, want NoOffset", got)
	}
}
