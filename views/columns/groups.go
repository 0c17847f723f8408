package columns

import (
	"strconv"

	"github.com/kgroups/kgroups/kafka"
)

// GroupColumns are the columns of `kgroups list`, one row per group.
// kafka-consumer-groups.sh --list prints only names; these add what an
// operator otherwise needs a --describe per group for, so one screen answers
// "which groups are unhealthy and where do they live".
func GroupColumns() []Column[*kafka.Group] {
	return []Column[*kafka.Group]{
		{Title: "GROUP", Align: Left, Value: func(g *kafka.Group) string { return Text(g.Name) }},
		{Title: "TYPE", Align: Left, Value: func(g *kafka.Group) string { return Text(string(g.Type)) }},
		{Title: "STATE", Align: Left, Value: func(g *kafka.Group) string { return Text(g.State) }},
		{Title: "ASSIGNOR", Align: Left, Value: func(g *kafka.Group) string { return Text(g.Assignor) }},
		{Title: "MEMBERS", Align: Right, Value: func(g *kafka.Group) string { return strconv.Itoa(len(g.Members)) }},
		{Title: "TOPICS", Align: Right, Value: func(g *kafka.Group) string { return strconv.Itoa(len(g.Topics())) }},
		{Title: "PARTITIONS", Align: Right, Value: func(g *kafka.Group) string { return strconv.Itoa(len(g.Partitions)) }},
		{Title: "LAG", Align: Right, Value: func(g *kafka.Group) string { return Offset(GroupLag(g)) }},
		{Title: "COORDINATOR", Align: Right, Value: func(g *kafka.Group) string { return CoordinatorID(g.Coordinator) }},
	}
}

// StateColumns are the columns of `kgroups describe --state`, exactly those
// of kafka-consumer-groups.sh --describe --state, so scripts written against
// the Kafka tool keep working.
func StateColumns() []Column[*kafka.Group] {
	return []Column[*kafka.Group]{
		{Title: "GROUP", Align: Left, Value: func(g *kafka.Group) string { return Text(g.Name) }},
		{Title: "COORDINATOR (ID)", Align: Left, Value: func(g *kafka.Group) string { return Coordinator(g.Coordinator) }},
		{Title: "ASSIGNMENT-STRATEGY", Align: Left, Value: func(g *kafka.Group) string { return Text(g.Assignor) }},
		{Title: "STATE", Align: Left, Value: func(g *kafka.Group) string { return Text(g.State) }},
		{Title: "#MEMBERS", Align: Right, Value: func(g *kafka.Group) string { return strconv.Itoa(len(g.Members)) }},
	}
}

// GroupLag is the group's total lag, or kafka.NoOffset when no partition has
// a known lag: a group that never committed is not "caught up", and showing
// 0 would say it is.
func GroupLag(g *kafka.Group) int64 {
	for i := range g.Partitions {
		if g.Partitions[i].HasLag() {
			return g.TotalLag()
		}
	}
	return kafka.NoOffset
}

// coordinatorKnown reports whether b was filled in by a poll: a broker
// without a host is the zero value of a coordinator that could not be found.
func coordinatorKnown(b kafka.Broker) bool { return b.Host != "" && b.ID >= 0 }

// Coordinator formats a coordinator as kafka-consumer-groups.sh's
// COORDINATOR (ID) column does, `host:port (id)`, or Missing when unknown.
func Coordinator(b kafka.Broker) string {
	if !coordinatorKnown(b) {
		return Missing
	}
	return b.Host + ":" + strconv.Itoa(int(b.Port)) + " (" + strconv.Itoa(int(b.ID)) + ")"
}

// CoordinatorID formats only the coordinator's broker id (Missing when
// unknown), for tables where the full address would be too wide.
func CoordinatorID(b kafka.Broker) string {
	if !coordinatorKnown(b) {
		return Missing
	}
	return strconv.Itoa(int(b.ID))
}
