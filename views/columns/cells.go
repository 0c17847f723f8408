package columns

import (
	"strconv"
	"strings"

	"github.com/kgroups/kgroups/kafka"
)

// Assignment formats an assignment compactly as `topic(0,1,2),other(3)`,
// without spaces so that the cell stays one whitespace-separated field.
func Assignment(tps []kafka.TopicPartitions) string {
	var b strings.Builder
	for _, tp := range tps {
		if len(tp.Partitions) == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(tp.Topic)
		b.WriteByte('(')
		for i, p := range tp.Partitions {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(int(p)))
		}
		b.WriteByte(')')
	}
	return Text(b.String())
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

// CoordinatorKnown reports whether b was filled in by a poll: a broker
// without a host is the zero value of a coordinator that could not be found.
func CoordinatorKnown(b kafka.Broker) bool { return b.Host != "" && b.ID >= 0 }

// Coordinator formats a coordinator as kafka-consumer-groups.sh's
// COORDINATOR (ID) column does, `host:port (id)`, or Missing when unknown.
func Coordinator(b kafka.Broker) string {
	if !CoordinatorKnown(b) {
		return Missing
	}
	return b.Host + ":" + strconv.Itoa(int(b.Port)) + " (" + strconv.Itoa(int(b.ID)) + ")"
}

// CoordinatorID formats only the coordinator's broker id (Missing when
// unknown), for tables where the full address would be too wide.
func CoordinatorID(b kafka.Broker) string {
	if !CoordinatorKnown(b) {
		return Missing
	}
	return strconv.Itoa(int(b.ID))
}
