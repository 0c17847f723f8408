package render

import (
	"sort"
	"strconv"
	"strings"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/format"
)

// Column is the column type of every table here.
type Column[T any] = columns.Column[T]

// Alignments, for short.
const (
	left  = columns.Left
	right = columns.Right
)

// The caps of long cells, for short (columns.IDMax, columns.HostMax).
const (
	idMax   = columns.IDMax
	hostMax = columns.HostMax
)

// text shows format.Missing for an empty string.
func text(s string) string { return columns.Text(s) }

// EmptyGroup is how a table shows the group whose id is the empty string
// (a broker accepts one): a pair of quotes, never the missing mark "-",
// which says there is no group.
const EmptyGroup = `""`

// groupCell is a group id in a GROUP column.
func groupCell(name string) string {
	if name == "" {
		return EmptyGroup
	}
	return name
}

// PartitionRow is one row of `describe`: a group's partition.
type PartitionRow struct {
	Group     *kafka.Group
	Partition *kafka.PartitionOffsets
}

// MemberRow is one row of `describe --members`.
type MemberRow struct {
	Group  *kafka.Group
	Member *kafka.Member
}

// PartitionColumns are the columns of `kgroups describe`: exactly
// kafka-consumer-groups.sh --describe's, in its order, so that eyes and
// scripts trained on the Kafka tool carry over. wide appends kgroups' extras
// after them, never between them, so field positions stay put.
func PartitionColumns(wide bool) []Column[PartitionRow] {
	cols := []Column[PartitionRow]{
		{Title: "GROUP", Align: left, Max: idMax, Value: func(r PartitionRow) string { return groupCell(r.Group.Name) }},
		{Title: "TOPIC", Align: left, Max: idMax, Value: func(r PartitionRow) string { return text(r.Partition.Topic) }},
		{Title: "PARTITION", Align: right, Value: func(r PartitionRow) string { return strconv.Itoa(int(r.Partition.Partition)) }},
		{Title: "CURRENT-OFFSET", Align: right, Value: func(r PartitionRow) string { return format.Offset(r.Partition.Committed) }},
		{Title: "LOG-END-OFFSET", Align: right, Value: func(r PartitionRow) string { return format.Offset(r.Partition.LogEnd) }},
		{Title: "LAG", Align: right, Value: func(r PartitionRow) string { return format.Offset(r.Partition.Lag) }},
		{Title: "CONSUMER-ID", Align: left, Max: idMax, Value: func(r PartitionRow) string { return text(r.Partition.MemberID) }},
		{Title: "HOST", Align: left, Max: hostMax, Value: func(r PartitionRow) string { return text(r.Partition.Host()) }},
		{Title: "CLIENT-ID", Align: left, Max: hostMax, Value: func(r PartitionRow) string { return text(r.Partition.ClientID()) }},
	}
	if wide {
		cols = append(cols,
			Column[PartitionRow]{Title: "LOG-START-OFFSET", Align: right, Value: func(r PartitionRow) string { return format.Offset(r.Partition.LogStart) }},
		)
	}
	return cols
}

// TimeLagFunc gives the time lag of one partition of a group. Tables take
// it as a function rather than a field of the row because time lag is
// optional (describe --time-lag) and comes from a separate read.
type TimeLagFunc func(g *kafka.Group, p *kafka.PartitionOffsets) lag.TimeLag

// TimeLagColumn is the TIME-LAG column `describe --time-lag` appends after
// the Kafka tool's columns, marked as format.TimeLag marks it (atLeast is
// format.AtLeast for the locale).
func TimeLagColumn(f TimeLagFunc, atLeast string) Column[PartitionRow] {
	return Column[PartitionRow]{Title: "TIME-LAG", Align: right, Value: func(r PartitionRow) string {
		return format.TimeLag(f(r.Group, r.Partition), atLeast)
	}}
}

// MemberColumns are the columns of `kgroups describe --members`, those of
// kafka-consumer-groups.sh --describe --members. The Kafka tool drops
// GROUP-INSTANCE-ID when no member is static; kgroups always prints it so the
// column positions do not depend on the data. wide appends ASSIGNMENT, as
// the Kafka tool's --verbose does.
func MemberColumns(wide bool) []Column[MemberRow] {
	cols := []Column[MemberRow]{
		{Title: "GROUP", Align: left, Max: idMax, Value: func(r MemberRow) string { return groupCell(r.Group.Name) }},
		{Title: "CONSUMER-ID", Align: left, Max: idMax, Value: func(r MemberRow) string { return text(r.Member.MemberID) }},
		{Title: "GROUP-INSTANCE-ID", Align: left, Max: idMax, Value: func(r MemberRow) string { return text(r.Member.InstanceID) }},
		{Title: "HOST", Align: left, Max: hostMax, Value: func(r MemberRow) string { return text(r.Member.Host) }},
		{Title: "CLIENT-ID", Align: left, Max: hostMax, Value: func(r MemberRow) string { return text(r.Member.ClientID) }},
		{Title: "#PARTITIONS", Align: right, Value: func(r MemberRow) string { return strconv.Itoa(r.Member.PartitionCount()) }},
	}
	if wide {
		cols = append(cols,
			Column[MemberRow]{Title: "ASSIGNMENT", Align: left, Value: func(r MemberRow) string { return columns.Assignment(r.Member.Assignment) }},
		)
	}
	return cols
}

// Verbose columns: what kafka-consumer-groups.sh --describe --verbose adds,
// at the places it adds them, so that its column positions hold with
// kgroups describe --verbose too.

// LeaderEpochColumn is --verbose's LEADER-EPOCH, after PARTITION: the
// leader epoch the commit carried, or "-".
func LeaderEpochColumn() Column[PartitionRow] {
	return Column[PartitionRow]{Title: "LEADER-EPOCH", Align: left, Value: func(r PartitionRow) string {
		if !r.Partition.HasCommit() || r.Partition.LeaderEpoch < 0 {
			return "-"
		}
		return strconv.Itoa(int(r.Partition.LeaderEpoch))
	}}
}

// VerbosePartitionColumns inserts LEADER-EPOCH after PARTITION in cols.
func VerbosePartitionColumns(cols []Column[PartitionRow]) []Column[PartitionRow] {
	out := make([]Column[PartitionRow], 0, len(cols)+1)
	for _, c := range cols {
		out = append(out, c)
		if c.Title == "PARTITION" {
			out = append(out, LeaderEpochColumn())
		}
	}
	return out
}

// epochCell is a KIP-848 epoch, or "-" for a classic group, which has none.
func epochCell(g *kafka.Group, epoch int32) string {
	if g.Type != kafka.TypeConsumer {
		return "-"
	}
	return strconv.Itoa(int(epoch))
}

// KafkaAssignment is an assignment as kafka-consumer-groups.sh --verbose
// prints it: "topic:0,1;other:2", each topic's partitions sorted, the
// topics' entries sorted as text, "-" for none.
func KafkaAssignment(tps []kafka.TopicPartitions) string {
	byTopic := map[string][]int32{}
	for _, tp := range tps {
		byTopic[tp.Topic] = append(byTopic[tp.Topic], tp.Partitions...)
	}
	entries := make([]string, 0, len(byTopic))
	for topic, ps := range byTopic {
		if len(ps) == 0 {
			continue
		}
		ps = append([]int32(nil), ps...)
		sort.Slice(ps, func(i, j int) bool { return ps[i] < ps[j] })
		var b strings.Builder
		b.WriteString(topic)
		b.WriteByte(':')
		for i, p := range ps {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(int(p)))
		}
		entries = append(entries, b.String())
	}
	if len(entries) == 0 {
		return "-"
	}
	sort.Strings(entries)
	return strings.Join(entries, ";")
}

// VerboseMemberColumns inserts --verbose's CURRENT-EPOCH,
// CURRENT-ASSIGNMENT, TARGET-EPOCH and TARGET-ASSIGNMENT after #PARTITIONS
// in cols. The epochs are a KIP-848 member's epoch and its group's target
// assignment epoch ("-" in a classic group).
func VerboseMemberColumns(cols []Column[MemberRow]) []Column[MemberRow] {
	out := make([]Column[MemberRow], 0, len(cols)+4)
	for _, c := range cols {
		out = append(out, c)
		if c.Title != "#PARTITIONS" {
			continue
		}
		out = append(out,
			Column[MemberRow]{Title: "CURRENT-EPOCH", Align: left, Value: func(r MemberRow) string { return epochCell(r.Group, r.Member.MemberEpoch) }},
			Column[MemberRow]{Title: "CURRENT-ASSIGNMENT", Align: left, Value: func(r MemberRow) string { return KafkaAssignment(r.Member.Assignment) }},
			Column[MemberRow]{Title: "TARGET-EPOCH", Align: left, Value: func(r MemberRow) string { return epochCell(r.Group, r.Group.AssignmentEpoch) }},
			Column[MemberRow]{Title: "TARGET-ASSIGNMENT", Align: left, Value: func(r MemberRow) string { return KafkaAssignment(r.Member.Target) }},
		)
	}
	return out
}

// VerboseStateColumns inserts --verbose's GROUP-EPOCH and
// TARGET-ASSIGNMENT-EPOCH before #MEMBERS in cols.
func VerboseStateColumns(cols []Column[*kafka.Group]) []Column[*kafka.Group] {
	out := make([]Column[*kafka.Group], 0, len(cols)+2)
	for _, c := range cols {
		if c.Title == "#MEMBERS" {
			out = append(out,
				Column[*kafka.Group]{Title: "GROUP-EPOCH", Align: left, Value: func(g *kafka.Group) string { return epochCell(g, g.GroupEpoch) }},
				Column[*kafka.Group]{Title: "TARGET-ASSIGNMENT-EPOCH", Align: left, Value: func(g *kafka.Group) string { return epochCell(g, g.AssignmentEpoch) }},
			)
		}
		out = append(out, c)
	}
	return out
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
	if len(g.Members) == 0 && strictlySorted(g.Partitions) {
		// No member owns anything and no partition repeats: the rows
		// are the partitions with a commit or an owner, in order. Most
		// groups of a large cluster are such Empty groups.
		rows := make([]PartitionRow, 0, len(g.Partitions))
		for i := range g.Partitions {
			if p := &g.Partitions[i]; p.HasCommit() || p.MemberID != "" {
				rows = append(rows, PartitionRow{Group: g, Partition: p})
			}
		}
		return rows
	}
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

// strictlySorted reports whether parts are in increasing topic and
// partition order, which leaves no room for a partition seen twice.
func strictlySorted(parts []kafka.PartitionOffsets) bool {
	for i := 1; i < len(parts); i++ {
		a, b := &parts[i-1], &parts[i]
		if a.Topic > b.Topic || (a.Topic == b.Topic && a.Partition >= b.Partition) {
			return false
		}
	}
	return true
}

// ownedBy returns p when it already names m as its owner, and otherwise a
// copy (or, when the poll had no offsets for it, a blank entry) that does, so
// a row under a member always shows that member.
func ownedBy(p *kafka.PartitionOffsets, key topicPartition, m *kafka.Member) *kafka.PartitionOffsets {
	if p != nil && p.MemberID == m.MemberID && p.ClientID() == m.ClientID && p.Host() == m.Host {
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
	c.SetOwner(m.MemberID, m.ClientID, m.Host, c.Owners())
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

// GroupColumns are the columns of `kgroups list`, one row per group.
// kafka-consumer-groups.sh --list prints only names; these add what an
// operator otherwise needs a --describe per group for, so one screen answers
// "which groups are unhealthy and where do they live".
func GroupColumns() []Column[*kafka.Group] {
	return []Column[*kafka.Group]{
		{Title: "GROUP", Align: left, Max: idMax, Value: func(g *kafka.Group) string { return groupCell(g.Name) }},
		{Title: "TYPE", Align: left, Value: func(g *kafka.Group) string { return text(string(g.Type)) }},
		{Title: "STATE", Align: left, Value: func(g *kafka.Group) string { return text(g.State) }},
		{Title: "ASSIGNOR", Align: left, Max: idMax, Value: func(g *kafka.Group) string { return text(g.Assignor) }},
		{Title: "MEMBERS", Align: right, Value: func(g *kafka.Group) string { return strconv.Itoa(len(g.Members)) }},
		{Title: "TOPICS", Align: right, Value: func(g *kafka.Group) string { return strconv.Itoa(len(g.Topics())) }},
		{Title: "PARTITIONS", Align: right, Value: func(g *kafka.Group) string { return strconv.Itoa(len(g.Partitions)) }},
		{Title: "LAG", Align: right, Value: func(g *kafka.Group) string { return format.Offset(columns.GroupLag(g)) }},
		{Title: "COORDINATOR", Align: right, Value: func(g *kafka.Group) string { return columns.CoordinatorID(g.Coordinator) }},
	}
}

// StateColumns are the columns of `kgroups describe --state`: those of
// kafka-consumer-groups.sh --describe --state, in its order so scripts
// written against the Kafka tool keep working, then LEADER: the
// implementation kgroups infers a classic group's leader runs (which
// decides how the assignor breaks ties; "-" when unknown or brokers assign).
func StateColumns() []Column[*kafka.Group] {
	return []Column[*kafka.Group]{
		{Title: "GROUP", Align: left, Max: idMax, Value: func(g *kafka.Group) string { return groupCell(g.Name) }},
		{Title: "COORDINATOR (ID)", Align: left, Value: func(g *kafka.Group) string { return columns.Coordinator(g.Coordinator) }},
		{Title: "ASSIGNMENT-STRATEGY", Align: left, Max: idMax, Value: func(g *kafka.Group) string { return text(g.Assignor) }},
		{Title: "STATE", Align: left, Value: func(g *kafka.Group) string { return text(g.State) }},
		{Title: "#MEMBERS", Align: right, Value: func(g *kafka.Group) string { return strconv.Itoa(len(g.Members)) }},
		{Title: "LEADER", Align: left, Value: func(g *kafka.Group) string {
			if !rebalance.Leads(g) {
				return "-"
			}
			return rebalance.Identify(g).Short()
		}},
	}
}
