package group

import (
	"strconv"

	"github.com/charmbracelet/lipgloss"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/table"
)

func col[T any](title string, align columns.Align, v func(T) string) columns.Column[T] {
	return columns.Column[T]{Title: title, Align: align, Value: v}
}

// partitionColumns is the Partitions tab: offsets, lag and the owner, as
// kafka-consumer-groups.sh --describe shows them.
func (m *Model) partitionColumns() []table.Col[*kafka.PartitionOffsets] {
	type P = *kafka.PartitionOffsets
	return []table.Col[P]{
		{Column: col("TOPIC", columns.Left, func(p P) string { return p.Topic }), Flex: true, Min: 10},
		{Column: col("PART", columns.Right, func(p P) string { return strconv.Itoa(int(p.Partition)) })},
		{Column: col("COMMITTED", columns.Right, func(p P) string { return columns.Offset(p.Committed) })},
		{Column: col("LOG-START", columns.Right, func(p P) string { return columns.Offset(p.LogStart) }), Drop: 4},
		{Column: col("LOG-END", columns.Right, func(p P) string { return columns.Offset(p.LogEnd) })},
		{Column: col("LAG", columns.Right, func(p P) string { return columns.Offset(p.Lag) }), Style: m.partitionLagStyle},
		{Column: col("MEMBER", columns.Left, func(p P) string { return columns.Text(p.MemberID) }), Min: 20, Drop: 5},
		{Column: col("CLIENT", columns.Left, func(p P) string { return columns.Text(p.ClientID) }), Min: 12, Drop: 2},
		{Column: col("HOST", columns.Left, func(p P) string { return columns.Text(p.Host) }), Min: 12, Drop: 3},
	}
}

func (m *Model) partitionLagStyle(p *kafka.PartitionOffsets) *lipgloss.Style {
	switch {
	case p.Err != nil:
		return &m.Styles.Error
	case p.Lag > 0:
		return &m.Styles.Lag
	}
	return nil
}

// memberRow is a member with the figures worked out once per poll.
type memberRow struct {
	m        *kafka.Member
	parts    int
	lag      int64 // lag of the partitions it owns, kafka.NoOffset if none known
	atTarget bool
}

// memberColumns is the Members tab; KIP-848 groups add the member epoch and
// whether the member has reached its target assignment.
func (m *Model) memberColumns(consumer bool) []table.Col[memberRow] {
	type R = memberRow
	cols := []table.Col[R]{
		{Column: col("MEMBER-ID", columns.Left, func(r R) string { return r.m.MemberID }), Flex: true, Min: 22},
		{Column: col("INSTANCE-ID", columns.Left, func(r R) string { return columns.Text(r.m.InstanceID) }), Min: 12, Drop: 4},
		{Column: col("CLIENT-ID", columns.Left, func(r R) string { return columns.Text(r.m.ClientID) }), Min: 12, Drop: 2},
		{Column: col("HOST", columns.Left, func(r R) string { return columns.Text(r.m.Host) }), Min: 12, Drop: 3},
		{Column: col("PARTS", columns.Right, func(r R) string { return strconv.Itoa(r.parts) })},
		{Column: col("LAG", columns.Right, func(r R) string { return columns.Offset(r.lag) })},
	}
	if consumer {
		cols = append(cols,
			table.Col[R]{Column: col("EPOCH", columns.Right, func(r R) string { return strconv.Itoa(int(r.m.MemberEpoch)) })},
			table.Col[R]{Column: col("AT-TARGET", columns.Left, func(r R) string {
				if r.atTarget {
					return "yes"
				}
				return "no"
			}), Style: func(r R) *lipgloss.Style {
				if r.atTarget {
					return nil
				}
				return &m.Styles.Warn
			}},
		)
	}
	return cols
}

// sameAssignment reports whether two sorted assignments hold the same
// partitions.
func sameAssignment(a, b []kafka.TopicPartitions) bool {
	a, b = nonEmpty(a), nonEmpty(b)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Topic != b[i].Topic || len(a[i].Partitions) != len(b[i].Partitions) {
			return false
		}
		for j := range a[i].Partitions {
			if a[i].Partitions[j] != b[i].Partitions[j] {
				return false
			}
		}
	}
	return true
}

// nonEmpty drops topics without partitions, which say nothing about the
// assignment.
func nonEmpty(tps []kafka.TopicPartitions) []kafka.TopicPartitions {
	for i := range tps {
		if len(tps[i].Partitions) == 0 {
			out := make([]kafka.TopicPartitions, 0, len(tps))
			for _, tp := range tps {
				if len(tp.Partitions) > 0 {
					out = append(out, tp)
				}
			}
			return out
		}
	}
	return tps
}
