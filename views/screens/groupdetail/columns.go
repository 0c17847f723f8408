package groupdetail

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/widgets/table"
)

func col[T any](title string, align columns.Align, v func(T) string) columns.Column[T] {
	return columns.Column[T]{Title: title, Align: align, Value: v}
}

// partRow is one line of the Partitions tab: the partition and its verdict
// (nil when the history has none).
type partRow struct {
	p *kafka.PartitionOffsets
	h *lag.PartitionHealth
}

// partRow is row r of the Partitions tab, filtered.
func (m *Model) partRow(r int) partRow {
	i := m.partIndex(r)
	return partRow{p: &m.g.Partitions[i], h: m.partitionHealth(i)}
}

// partitionColumns is the Partitions tab: offsets, lag and the owner, as
// kafka-consumer-groups.sh --describe shows them, with the time lag, the
// rates and the status. On a narrow terminal the member id goes first, then
// the log start, host, client and the rates; time lag and status stay.
//
// A share group's progress is its start offset (START), and a partition is
// assigned to several members at once: MEMBERS lists them all.
func (m *Model) partitionColumns(share bool) []table.Col[partRow] {
	type P = partRow
	progress, member, memberDrop := "COMMITTED", col("MEMBER", columns.Left, func(r P) string { return columns.Text(r.p.MemberID) }), 7
	if share {
		// Who shares the partition is what a share group's row is
		// about: it goes after the other extras.
		progress, member, memberDrop = "START", col("MEMBERS", columns.Left, func(r P) string { return columns.Text(strings.Join(r.p.Owners(), ",")) }), 1
	}
	cols := []table.Col[P]{
		{Column: col("TOPIC", columns.Left, func(r P) string { return r.p.Topic }), Flex: true, Min: 10},
		{Column: col("PART", columns.Right, func(r P) string { return strconv.Itoa(int(r.p.Partition)) })},
		{Column: col(progress, columns.Right, func(r P) string { return columns.Offset(r.p.Committed) })},
		{Column: col("LOG-START", columns.Right, func(r P) string { return columns.Offset(r.p.LogStart) }), Drop: 6},
		{Column: col("LOG-END", columns.Right, func(r P) string { return columns.Offset(r.p.LogEnd) })},
		{Column: col("LAG", columns.Right, func(r P) string { return columns.Offset(r.p.Lag) }), Style: m.partitionLagStyle},
		{Column: col("TIME-LAG", columns.Right, func(r P) string { return format.TimeLag(m.timeLag(r.p, r.h), m.Glyphs.AtLeast) })},
		{Column: col("PROD/S", columns.Right, func(r P) string { return partRate(r.h, true) }), Drop: 3},
		{Column: col("CONS/S", columns.Right, func(r P) string { return partRate(r.h, false) }), Drop: 2},
		{Column: col("HEALTH", columns.Left, m.partitionHealthText), Style: m.partitionHealthStyle},
		{Column: member, Min: 20, Drop: memberDrop},
		{Column: col("CLIENT", columns.Left, func(r P) string { return columns.Text(r.p.ClientID()) }), Min: 12, Drop: 4},
		{Column: col("HOST", columns.Left, func(r P) string { return columns.Text(r.p.Host()) }), Min: 12, Drop: 5},
	}
	if m.stableCols {
		cols = withStableLag(cols)
	}
	return cols
}

func partRate(h *lag.PartitionHealth, produce bool) string {
	switch {
	case h == nil:
		return format.Missing
	case produce:
		return format.Rate(h.ProduceRate)
	}
	return format.Rate(h.ConsumeRate)
}

func (m *Model) partitionHealthText(r partRow) string {
	if r.h == nil {
		return format.Missing
	}
	return r.h.Text(m.window)
}

func (m *Model) partitionHealthStyle(r partRow) *lipgloss.Style {
	if r.h == nil {
		return nil
	}
	return m.Styles.PartitionHealth(r.h, m.window)
}

func (m *Model) partitionLagStyle(r partRow) *lipgloss.Style {
	switch {
	case r.p.Err != nil:
		return &m.Styles.Error
	case r.p.Lag > 0:
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
//
// Share-group members show their assignment: a partition may be in several.
func (m *Model) memberColumns(consumer, share bool) []table.Col[memberRow] {
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
	if share {
		cols = append(cols,
			table.Col[R]{Column: col("EPOCH", columns.Right, func(r R) string { return strconv.Itoa(int(r.m.MemberEpoch)) }), Drop: 1},
			table.Col[R]{Column: col("ASSIGNMENT", columns.Left, func(r R) string { return columns.Assignment(r.m.Assignment) }), Min: 10},
		)
	}
	// Every member of a classic group runs the protocol the group chose; a
	// KIP-848 group's members are assigned by the broker's assignor. Shown
	// per member when there is room, so the row says what decides its
	// partitions.
	return append(cols, table.Col[R]{Column: col("ASSIGNOR", columns.Left, m.memberAssignor), Drop: 5})
}

func (m *Model) memberAssignor(memberRow) string {
	if m.g == nil || m.g.Assignor == "" {
		return columns.Missing
	}
	if m.g.Type == kafka.TypeConsumer || m.g.Type == kafka.TypeShare {
		return m.g.Assignor + " (server)"
	}
	return m.g.Assignor
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
