package rebalance

import (
	"net"
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

// Process is what identifies the process behind a member across a
// rejoin, when its member id changes: its group.instance.id when it is
// static, else its client id and host address. It is "" when the member
// has neither an instance id nor a client id and host.
//
// The host is the address alone (see hostAddress): Apache Kafka reports a
// member's host as "/10.0.0.1", but other brokers (kfake, which the demo
// runs) report the connection's address with its port, and a client that
// rejoins over a new connection, as franz-go does once its idle group
// connection was closed, comes back from another port. The port names a
// connection, not a process.
func Process(m *kafka.Member) string {
	switch {
	case m.InstanceID != "":
		return "instance\x00" + m.InstanceID
	case m.ClientID != "" || m.Host != "":
		return "client\x00" + m.ClientID + "\x00" + hostAddress(m.Host)
	}
	return ""
}

// hostAddress is a member's host without a port: "127.0.0.1:50312" and
// "[::1]:50312" become "127.0.0.1" and "::1"; a host with no port
// ("/10.0.0.1", "/0:0:0:0:0:0:0:1", "app-1/10.0.0.1") is kept as it is.
func hostAddress(h string) string {
	if host, port, err := net.SplitHostPort(h); err == nil && port != "" {
		return host
	}
	return h
}

// Reassignment is what a rebalance did, counted by process rather than by
// member id: a member that rejoins gets a new member id, and taking that
// at face value would count every partition it keeps as moved.
type Reassignment struct {
	// Moves are the partitions whose owning process changed, with the
	// member ids before and after.
	Moves []Move
	// Rejoined counts processes in both views whose member id changed:
	// members that rejoined with new ids.
	Rejoined int
}

// Reassign compares two views of a group by process (see Process). Two
// members that share a client id and host without instance ids (two
// consumers in one process, or the same client id on one host) cannot be
// told apart: their partitions and ids are compared by member id, so a
// partition that changes hands between them counts as moved. The Timeline
// and the removal outcome both count with it.
func Reassign(before, after []kafka.Member) Reassignment {
	kb, ka := processes(before), processes(after)
	ob, oa := ownersOf(before), ownersOf(after)
	proc := func(keys map[string]string, id string) string {
		if id == "" {
			return ""
		}
		if k := keys[id]; k != "" {
			return k
		}
		return "member\x00" + id
	}
	var r Reassignment
	for _, m := range diff(ob, oa) {
		if m.From == "" || m.To == "" || proc(kb, m.From) != proc(ka, m.To) {
			r.Moves = append(r.Moves, m)
		}
	}
	idBefore := make(map[string]string, len(before))
	for id, k := range kb {
		if k != "" {
			idBefore[k] = id
		}
	}
	for id, k := range ka {
		if old, ok := idBefore[k]; ok && k != "" && old != id {
			r.Rejoined++
		}
	}
	return r
}

// processes maps member ids to their process, leaving out members whose
// process key is empty or shared with another member of the same view.
func processes(members []kafka.Member) map[string]string {
	count := make(map[string]int, len(members))
	for i := range members {
		count[Process(&members[i])]++
	}
	out := make(map[string]string, len(members))
	for i := range members {
		if k := Process(&members[i]); k != "" && count[k] == 1 {
			out[members[i].MemberID] = k
		}
	}
	return out
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
