package columns

import (
	"sort"
	"strconv"
	"strings"

	"github.com/kgroups/kgroups/kafka"
)

// PartitionColumns are the columns of `kgroups describe`: exactly
// kafka-consumer-groups.sh --describe's, in its order, so that eyes and
// scripts trained on the Kafka tool carry over. wide appends kgroups' extras
// after them, never between them, so field positions stay put.
func PartitionColumns(wide bool) []Column[PartitionRow] {
	cols := []Column[PartitionRow]{
		{Title: "GROUP", Align: Left, Value: func(r PartitionRow) string { return Text(r.Group.Name) }},
		{Title: "TOPIC", Align: Left, Value: func(r PartitionRow) string { return Text(r.Partition.Topic) }},
		{Title: "PARTITION", Align: Right, Value: func(r PartitionRow) string { return strconv.Itoa(int(r.Partition.Partition)) }},
		{Title: "CURRENT-OFFSET", Align: Right, Value: func(r PartitionRow) string { return Offset(r.Partition.Committed) }},
		{Title: "LOG-END-OFFSET", Align: Right, Value: func(r PartitionRow) string { return Offset(r.Partition.LogEnd) }},
		{Title: "LAG", Align: Right, Value: func(r PartitionRow) string { return Offset(r.Partition.Lag) }},
		{Title: "CONSUMER-ID", Align: Left, Value: func(r PartitionRow) string { return Text(r.Partition.MemberID) }},
		{Title: "HOST", Align: Left, Value: func(r PartitionRow) string { return Text(r.Partition.Host) }},
		{Title: "CLIENT-ID", Align: Left, Value: func(r PartitionRow) string { return Text(r.Partition.ClientID) }},
	}
	if wide {
		cols = append(cols,
			Column[PartitionRow]{Title: "LOG-START-OFFSET", Align: Right, Value: func(r PartitionRow) string { return Offset(r.Partition.LogStart) }},
		)
	}
	return cols
}

// MemberColumns are the columns of `kgroups describe --members`, those of
// kafka-consumer-groups.sh --describe --members. The Kafka tool drops
// GROUP-INSTANCE-ID when no member is static; kgroups always prints it so the
// column positions do not depend on the data. wide appends ASSIGNMENT, as
// the Kafka tool's --verbose does.
func MemberColumns(wide bool) []Column[MemberRow] {
	cols := []Column[MemberRow]{
		{Title: "GROUP", Align: Left, Value: func(r MemberRow) string { return Text(r.Group.Name) }},
		{Title: "CONSUMER-ID", Align: Left, Value: func(r MemberRow) string { return Text(r.Member.MemberID) }},
		{Title: "GROUP-INSTANCE-ID", Align: Left, Value: func(r MemberRow) string { return Text(r.Member.InstanceID) }},
		{Title: "HOST", Align: Left, Value: func(r MemberRow) string { return Text(r.Member.Host) }},
		{Title: "CLIENT-ID", Align: Left, Value: func(r MemberRow) string { return Text(r.Member.ClientID) }},
		{Title: "#PARTITIONS", Align: Right, Value: func(r MemberRow) string { return strconv.Itoa(r.Member.PartitionCount()) }},
	}
	if wide {
		cols = append(cols,
			Column[MemberRow]{Title: "ASSIGNMENT", Align: Left, Value: func(r MemberRow) string { return Assignment(r.Member.Assignment) }},
		)
	}
	return cols
}

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

// OrderedMembers returns g's members in the order kafka-consumer-groups.sh
// lists them: by assignment size, largest first. Ties go by member id so the
// order is stable from one poll to the next.
func OrderedMembers(g *kafka.Group) []*kafka.Member {
	ms := make([]*kafka.Member, len(g.Members))
	for i := range g.Members {
		ms[i] = &g.Members[i]
	}
	sort.SliceStable(ms, func(i, j int) bool {
		ni, nj := ms[i].PartitionCount(), ms[j].PartitionCount()
		if ni != nj {
			return ni > nj
		}
		return ms[i].MemberID < ms[j].MemberID
	})
	return ms
}

// MemberRows are the rows of `describe --members` for one group, every
// member (including those with nothing assigned) in OrderedMembers order.
func MemberRows(g *kafka.Group) []MemberRow {
	ms := OrderedMembers(g)
	rows := make([]MemberRow, len(ms))
	for i, m := range ms {
		rows[i] = MemberRow{Group: g, Member: m}
	}
	return rows
}

type topicPartition struct {
	topic     string
	partition int32
}

// PartitionRows are the rows of `describe` for one group, following
// kafka-consumer-groups.sh: each member with an assignment, largest first,
// with its partitions in topic and partition order; then the partitions
// nobody owns that have a commit, whose member columns show Missing. A
// partition appears once even if the poll saw it twice.
func PartitionRows(g *kafka.Group) []PartitionRow {
	byTP := make(map[topicPartition]*kafka.PartitionOffsets, len(g.Partitions))
	for i := range g.Partitions {
		p := &g.Partitions[i]
		byTP[topicPartition{p.Topic, p.Partition}] = p
	}
	done := make(map[topicPartition]bool, len(g.Partitions))
	var rows []PartitionRow
	for _, m := range OrderedMembers(g) {
		for _, tp := range sortedAssignment(m.Assignment) {
			for _, part := range tp.Partitions {
				key := topicPartition{tp.Topic, part}
				if done[key] {
					continue
				}
				done[key] = true
				rows = append(rows, PartitionRow{Group: g, Partition: ownedBy(byTP[key], key, m)})
			}
		}
	}
	for i := range g.Partitions {
		p := &g.Partitions[i]
		key := topicPartition{p.Topic, p.Partition}
		if done[key] || (!p.HasCommit() && p.MemberID == "") {
			continue
		}
		done[key] = true
		rows = append(rows, PartitionRow{Group: g, Partition: p})
	}
	return rows
}

// ownedBy returns p when it already names m as its owner, and otherwise a
// copy (or, when the poll had no offsets for it, a blank entry) that does, so
// a row under a member always shows that member.
func ownedBy(p *kafka.PartitionOffsets, key topicPartition, m *kafka.Member) *kafka.PartitionOffsets {
	if p != nil && p.MemberID == m.MemberID && p.ClientID == m.ClientID && p.Host == m.Host {
		return p
	}
	var c kafka.PartitionOffsets
	if p != nil {
		c = *p
	} else {
		c = kafka.PartitionOffsets{
			Topic:     key.topic,
			Partition: key.partition,
			Committed: kafka.NoOffset,
			LogStart:  kafka.NoOffset,
			LogEnd:    kafka.NoOffset,
			Lag:       kafka.NoOffset,
		}
	}
	c.MemberID, c.ClientID, c.Host = m.MemberID, m.ClientID, m.Host
	return &c
}

// sortedAssignment returns the assignment in topic and partition order
// without modifying the snapshot's slices.
func sortedAssignment(tps []kafka.TopicPartitions) []kafka.TopicPartitions {
	out := make([]kafka.TopicPartitions, len(tps))
	for i, tp := range tps {
		ps := append([]int32(nil), tp.Partitions...)
		sort.Slice(ps, func(a, b int) bool { return ps[a] < ps[b] })
		out[i] = kafka.TopicPartitions{Topic: tp.Topic, Partitions: ps}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Topic < out[b].Topic })
	return out
}
