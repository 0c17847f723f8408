package rebalance

import (
	"sort"

	"github.com/kgroups/kgroups/kafka"
)

// Move is one partition changing owner. From or To is "" when nobody owned
// the partition before or owns it after.
type Move struct {
	Topic     string
	Partition int32
	From      string
	To        string
}

// tp is a topic partition used as a map key.
type tp struct {
	topic     string
	partition int32
}

// owners maps every assigned partition to the member id that owns it.
type owners map[tp]string

// ownersOf reads who owns what from members' current assignments.
func ownersOf(members []kafka.Member) owners {
	o := make(owners)
	for i := range members {
		for _, a := range members[i].Assignment {
			for _, p := range a.Partitions {
				o[tp{a.Topic, p}] = members[i].MemberID
			}
		}
	}
	return o
}

// ownersOfAssignment reads ownership from member id -> assignment.
func ownersOfAssignment(assignment map[string][]kafka.TopicPartitions) owners {
	o := make(owners)
	for id, tps := range assignment {
		for _, a := range tps {
			for _, p := range a.Partitions {
				o[tp{a.Topic, p}] = id
			}
		}
	}
	return o
}

// diff lists every partition whose owner differs between before and after,
// sorted by topic and partition, so that output and tests are stable.
func diff(before, after owners) []Move {
	var moves []Move
	for k, from := range before {
		if to := after[k]; to != from {
			moves = append(moves, Move{Topic: k.topic, Partition: k.partition, From: from, To: to})
		}
	}
	for k, to := range after {
		if _, ok := before[k]; !ok {
			moves = append(moves, Move{Topic: k.topic, Partition: k.partition, To: to})
		}
	}
	SortMoves(moves)
	return moves
}

// Diff lists the partitions whose owning member id differs between two
// views of a group. A member that rejoins gets a new id, so its partitions
// count as moved even when the same client ends up holding them: that is
// what the coordinator and the member's offsets-in-flight see.
func Diff(before, after []kafka.Member) []Move {
	return diff(ownersOf(before), ownersOf(after))
}

// SortMoves orders moves by topic, then partition.
func SortMoves(moves []Move) {
	sort.Slice(moves, func(i, j int) bool {
		if moves[i].Topic != moves[j].Topic {
			return moves[i].Topic < moves[j].Topic
		}
		return moves[i].Partition < moves[j].Partition
	})
}

// MoveCounts splits moves into partitions that went from one member to
// another, partitions newly assigned (nobody owned them), and partitions
// that nobody owns any more.
type MoveCounts struct {
	Moved, Assigned, Unassigned int
}

// Count classifies moves.
func Count(moves []Move) MoveCounts {
	var c MoveCounts
	for _, m := range moves {
		switch {
		case m.From == "":
			c.Assigned++
		case m.To == "":
			c.Unassigned++
		default:
			c.Moved++
		}
	}
	return c
}
