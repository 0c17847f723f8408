package columns

import (
	"strconv"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
)

// HealthColumns are the columns of `kgroups health`'s summary, one row per
// group: its verdict (lag.Judge's, in the UI's words) and the figures an
// on-call engineer reads it by.
func HealthColumns() []Column[*lag.Verdict] {
	return []Column[*lag.Verdict]{
		{Title: "GROUP", Align: Left, Value: func(v *lag.Verdict) string { return Text(v.Group) }},
		{Title: "STATUS", Align: Left, Value: func(v *lag.Verdict) string { return v.Text() }},
		{Title: "TOTAL-LAG", Align: Right, Value: func(v *lag.Verdict) string { return Offset(HealthTotalLag(v)) }},
		{Title: "MAX-TIME-LAG", Align: Right, Value: func(v *lag.Verdict) string { return TimeLag(v.MaxTimeLag) }},
		{Title: "PRODUCE/S", Align: Right, Value: func(v *lag.Verdict) string { return Rate(v.ProduceRate) }},
		{Title: "CONSUME/S", Align: Right, Value: func(v *lag.Verdict) string { return Rate(v.ConsumeRate) }},
	}
}

// HealthTotalLag is the group's total lag, or kafka.NoOffset when no
// partition's lag is known, as GroupLag does for snapshots.
func HealthTotalLag(v *lag.Verdict) int64 {
	if !v.Known {
		return kafka.NoOffset
	}
	return v.TotalLag
}

// HealthPartitionRow is one partition in `kgroups health`'s table of
// partitions that are not OK.
type HealthPartitionRow struct {
	Group     *lag.Verdict
	Partition *lag.PartitionHealth
}

// UnhealthyPartitionRows lists the partitions whose status is not OK, group
// by group in the order given, each group's in topic and partition order.
// The OK ones are left out: they are what nobody needs to read.
func UnhealthyPartitionRows(gs []lag.Verdict) []HealthPartitionRow {
	var rows []HealthPartitionRow
	for i := range gs {
		g := &gs[i]
		for j := range g.Partitions {
			if g.Partitions[j].Status != lag.StatusOK {
				rows = append(rows, HealthPartitionRow{Group: g, Partition: &g.Partitions[j]})
			}
		}
	}
	return rows
}

// HealthPartitionColumns are the columns of the partitions that are not OK:
// where they are, why (STATUS, and for a REWIND the offset committed before
// and the older one committed after it), and how far behind.
func HealthPartitionColumns() []Column[HealthPartitionRow] {
	return []Column[HealthPartitionRow]{
		{Title: "GROUP", Align: Left, Value: func(r HealthPartitionRow) string { return Text(r.Group.Group) }},
		{Title: "TOPIC", Align: Left, Value: func(r HealthPartitionRow) string { return Text(r.Partition.Topic) }},
		{Title: "PARTITION", Align: Right, Value: func(r HealthPartitionRow) string { return strconv.Itoa(int(r.Partition.Partition)) }},
		{Title: "STATUS", Align: Left, Value: func(r HealthPartitionRow) string { return r.Partition.Status.String() }},
		{Title: "CURRENT-OFFSET", Align: Right, Value: func(r HealthPartitionRow) string { return Offset(r.Partition.Committed) }},
		{Title: "LOG-END-OFFSET", Align: Right, Value: func(r HealthPartitionRow) string { return Offset(r.Partition.LogEnd) }},
		{Title: "LAG", Align: Right, Value: func(r HealthPartitionRow) string { return Offset(r.Partition.Lag) }},
		{Title: "TIME-LAG", Align: Right, Value: func(r HealthPartitionRow) string { return TimeLag(r.Partition.TimeLag) }},
		{Title: "REWIND", Align: Left, Value: func(r HealthPartitionRow) string { return Rewind(r.Partition) }},
	}
}

// Rewind shows a REWIND's evidence as "high->low": the consumer had
// committed high, then the older low, so the messages between them are
// consumed twice. Missing for any other status.
func Rewind(p *lag.PartitionHealth) string {
	if p.Status != lag.StatusRewind {
		return Missing
	}
	return strconv.FormatInt(p.Rewind.High, 10) + "->" + strconv.FormatInt(p.Rewind.Low, 10)
}
