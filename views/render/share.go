package render

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/format"
)

// SharePartitionColumns are the columns of `kgroups describe` for a share
// group: exactly kafka-share-groups.sh --describe's. A share group has no
// committed offsets: START-OFFSET is the share-partition start offset, the
// group's progress. wide appends the log bounds and every member the
// partition is assigned to.
func SharePartitionColumns(wide bool) []Column[PartitionRow] {
	cols := []Column[PartitionRow]{
		{Title: "GROUP", Align: left, Max: idMax, Value: func(r PartitionRow) string { return groupCell(r.Group.Name) }},
		{Title: "TOPIC", Align: left, Max: idMax, Value: func(r PartitionRow) string { return text(r.Partition.Topic) }},
		{Title: "PARTITION", Align: right, Value: func(r PartitionRow) string { return strconv.Itoa(int(r.Partition.Partition)) }},
		{Title: "START-OFFSET", Align: right, Value: func(r PartitionRow) string { return format.Offset(r.Partition.Committed) }},
		{Title: "LAG", Align: right, Value: func(r PartitionRow) string { return format.Offset(r.Partition.Lag) }},
	}
	if wide {
		cols = append(cols,
			Column[PartitionRow]{Title: "LOG-START-OFFSET", Align: right, Value: func(r PartitionRow) string { return format.Offset(r.Partition.LogStart) }},
			Column[PartitionRow]{Title: "LOG-END-OFFSET", Align: right, Value: func(r PartitionRow) string { return format.Offset(r.Partition.LogEnd) }},
			Column[PartitionRow]{Title: "MEMBERS", Align: left, Value: func(r PartitionRow) string { return text(strings.Join(r.Partition.Owners(), ",")) }},
		)
	}
	return cols
}

// ShareMemberColumns are the columns of `kgroups describe --members` for a
// share group, those of kafka-share-groups.sh --describe --members, with
// ASSIGNMENT in its form (topic:0,1;other:2). A partition may be in
// several members' assignments.
func ShareMemberColumns() []Column[MemberRow] {
	return []Column[MemberRow]{
		{Title: "GROUP", Align: left, Max: idMax, Value: func(r MemberRow) string { return groupCell(r.Group.Name) }},
		{Title: "CONSUMER-ID", Align: left, Max: idMax, Value: func(r MemberRow) string { return text(r.Member.MemberID) }},
		{Title: "HOST", Align: left, Max: hostMax, Value: func(r MemberRow) string { return text(r.Member.Host) }},
		{Title: "CLIENT-ID", Align: left, Max: hostMax, Value: func(r MemberRow) string { return text(r.Member.ClientID) }},
		{Title: "#PARTITIONS", Align: right, Value: func(r MemberRow) string { return strconv.Itoa(r.Member.PartitionCount()) }},
		{Title: "ASSIGNMENT", Align: left, Value: func(r MemberRow) string { return KafkaAssignment(r.Member.Assignment) }},
	}
}

// VerboseShareMemberColumns inserts kafka-share-groups.sh --verbose's
// MEMBER-EPOCH before ASSIGNMENT in cols.
func VerboseShareMemberColumns(cols []Column[MemberRow]) []Column[MemberRow] {
	out := make([]Column[MemberRow], 0, len(cols)+1)
	for _, c := range cols {
		if c.Title == "ASSIGNMENT" {
			out = append(out, Column[MemberRow]{Title: "MEMBER-EPOCH", Align: left, Value: func(r MemberRow) string { return strconv.Itoa(int(r.Member.MemberEpoch)) }})
		}
		out = append(out, c)
	}
	return out
}

// ShareStateColumns are the columns of `kgroups describe --state` for a
// share group: kafka-share-groups.sh --describe --state --verbose's.
func ShareStateColumns() []Column[*kafka.Group] {
	return []Column[*kafka.Group]{
		{Title: "GROUP", Align: left, Max: idMax, Value: func(g *kafka.Group) string { return groupCell(g.Name) }},
		{Title: "COORDINATOR (ID)", Align: left, Value: func(g *kafka.Group) string { return columns.Coordinator(g.Coordinator) }},
		{Title: "STATE", Align: left, Value: func(g *kafka.Group) string { return text(g.State) }},
		{Title: "GROUP-EPOCH", Align: right, Value: func(g *kafka.Group) string { return strconv.Itoa(int(g.GroupEpoch)) }},
		{Title: "ASSIGNMENT-EPOCH", Align: right, Value: func(g *kafka.Group) string { return strconv.Itoa(int(g.AssignmentEpoch)) }},
		{Title: "#MEMBERS", Align: right, Value: func(g *kafka.Group) string { return strconv.Itoa(len(g.Members)) }},
	}
}

// SharePartitionRows are a share group's partitions in topic and partition
// order: every partition it has a start offset for or has assigned.
func SharePartitionRows(g *kafka.Group) []PartitionRow {
	rows := make([]PartitionRow, 0, len(g.Partitions))
	for i := range g.Partitions {
		rows = append(rows, PartitionRow{Group: g, Partition: &g.Partitions[i]})
	}
	return rows
}

// shareTable is groupTable for a share group.
func shareTable(g *kafka.Group, opts DescribeOptions) (table, empty string) {
	switch opts.View {
	case Members:
		if rows := MemberRows(g); len(rows) > 0 {
			cols := ShareMemberColumns()
			if opts.Verbose {
				cols = VerboseShareMemberColumns(cols)
			}
			return TableWith(cols, rows, opts.layout()), ""
		}
		return "", fmt.Sprintf("Share group '%s' has no members.", format.Sanitize(g.Name))
	case State:
		return TableWith(ShareStateColumns(), []*kafka.Group{g}, opts.layout()), ""
	default:
		if rows := SharePartitionRows(g); len(rows) > 0 {
			cols := SharePartitionColumns(opts.Wide)
			if opts.Verbose {
				cols = VerbosePartitionColumns(cols)
			}
			if opts.TimeLag != nil {
				cols = append(cols, TimeLagColumn(opts.TimeLag, opts.AtLeast))
			}
			return TableWith(cols, rows, opts.layout()), ""
		}
		return "", fmt.Sprintf("Share group '%s' has no start offsets and no assigned partitions.", format.Sanitize(g.Name))
	}
}

// shareStateNote is StateNote for a share group, followed by a note when
// its lag was computed from the log end rather than read from the broker.
func shareStateNote(g *kafka.Group) string {
	var note string
	switch g.State {
	case kafka.StateEmpty:
		note = fmt.Sprintf("Share group '%s' has no active members.", format.Sanitize(g.Name))
	case kafka.StateAssigning, kafka.StateReconciling:
		note = fmt.Sprintf("Warning: Share group '%s' is rebalancing.", format.Sanitize(g.Name))
	}
	if g.Share != nil && g.Share.LagSource == kafka.ShareLagLogEnd {
		if note != "" {
			note += "\n"
		}
		note += fmt.Sprintf("Note: share group '%s': LAG is log end - start offset (the broker has no DescribeShareGroupOffsets v1 lag).", format.Sanitize(g.Name))
	}
	return note
}

// optionalOffset is a JSON field that is absent unless set, and null when
// set to an unknown offset.
type optionalOffset struct {
	set bool
	v   int64
}

func (o optionalOffset) IsZero() bool { return !o.set }

func (o optionalOffset) MarshalJSON() ([]byte, error) {
	if o.v < 0 {
		return []byte("null"), nil
	}
	return json.Marshal(o.v)
}

// shareJSON fills a share group's JSON: epochs, the lag source, and each
// partition's startOffset with committedOffset null.
func shareJSON(g *kafka.Group, j *jsonGroup) {
	j.GroupEpoch = ptr(g.GroupEpoch)
	j.AssignmentEpoch = ptr(g.AssignmentEpoch)
	if g.Share != nil {
		j.LagSource = g.Share.LagSource
	}
	for i := range j.Members {
		j.Members[i].MemberEpoch = ptr(g.Members[i].MemberEpoch)
	}
	for i := range j.Partitions {
		p := &g.Partitions[i]
		j.Partitions[i].StartOffset = optionalOffset{set: true, v: p.Committed}
		j.Partitions[i].CommittedOffset = nil
		j.Partitions[i].LeaderEpoch = nil
		if p.Committed >= 0 && p.LeaderEpoch >= 0 {
			j.Partitions[i].LeaderEpoch = ptr(p.LeaderEpoch)
		}
		j.Partitions[i].Owners = append(make([]string, 0, len(p.Owners())), p.Owners()...)
	}
}
