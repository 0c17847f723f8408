package render

import (
	"strconv"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/format"
)

// HealthColumns are the columns of `kgroups health`'s summary, one row per
// group: its verdict (lag.Judge's, in the UI's words) and the figures an
// on-call engineer reads it by. Time lags and rates read as in the UI
// (format.TimeLag, with atLeast as the lower-bound mark of the locale, and
// format.Rate).
func HealthColumns(atLeast string) []Column[*lag.Verdict] {
	return []Column[*lag.Verdict]{
		{Title: "GROUP", Align: left, Max: idMax, Value: func(v *lag.Verdict) string { return groupCell(v.Group) }},
		{Title: "STATUS", Align: left, Value: func(v *lag.Verdict) string { return v.Text() }},
		{Title: "TOTAL-LAG", Align: right, Value: func(v *lag.Verdict) string { return format.Offset(HealthTotalLag(v)) }},
		{Title: "MAX-TIME-LAG", Align: right, Value: func(v *lag.Verdict) string { return format.TimeLag(v.MaxTimeLag, atLeast) }},
		{Title: "PRODUCE/S", Align: right, Value: func(v *lag.Verdict) string { return format.Rate(v.ProduceRate) }},
		{Title: "CONSUME/S", Align: right, Value: func(v *lag.Verdict) string { return format.Rate(v.ConsumeRate) }},
	}
}

// HealthTotalLag is the group's total lag, or kafka.NoOffset when no
// partition's lag is known, as GroupLag does for snapshots.
func HealthTotalLag(v *lag.Verdict) int64 {
	if !v.LagKnown {
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
func HealthPartitionColumns(atLeast string) []Column[HealthPartitionRow] {
	return []Column[HealthPartitionRow]{
		{Title: "GROUP", Align: left, Max: idMax, Value: func(r HealthPartitionRow) string { return groupCell(r.Group.Group) }},
		{Title: "TOPIC", Align: left, Max: idMax, Value: func(r HealthPartitionRow) string { return text(r.Partition.Topic) }},
		{Title: "PARTITION", Align: right, Value: func(r HealthPartitionRow) string { return strconv.Itoa(int(r.Partition.Partition)) }},
		{Title: "STATUS", Align: left, Value: func(r HealthPartitionRow) string { return r.Partition.Status.String() }},
		{Title: "CURRENT-OFFSET", Align: right, Value: func(r HealthPartitionRow) string { return format.Offset(r.Partition.Committed) }},
		{Title: "LOG-END-OFFSET", Align: right, Value: func(r HealthPartitionRow) string { return format.Offset(r.Partition.LogEnd) }},
		{Title: "LAG", Align: right, Value: func(r HealthPartitionRow) string { return format.Offset(r.Partition.Lag) }},
		{Title: "TIME-LAG", Align: right, Value: func(r HealthPartitionRow) string { return format.TimeLag(r.Partition.TimeLag, atLeast) }},
		{Title: "REWIND", Align: left, Value: func(r HealthPartitionRow) string { return Rewind(r.Partition) }},
	}
}

// Rewind shows a REWIND's evidence as "high->low": the consumer had
// committed high, then the older low, so the messages between them are
// consumed twice; "high->low by kgroups reset" when a reset kgroups made
// did it (HealthResetNotes names its receipt). Missing for any other
// status.
func Rewind(p *lag.PartitionHealth) string {
	if p.Status != lag.StatusRewind {
		return format.Missing
	}
	s := strconv.FormatInt(p.Rewind.High, 10) + "->" + strconv.FormatInt(p.Rewind.Low, 10)
	if p.ResetBy != nil {
		s += " by kgroups reset"
	}
	return s
}

// HealthResetNotes are the notes for stderr that name the reset behind
// each REWIND a reset made by kgroups explains: "GROUP TOPIC/PARTITION
// went back from HIGH to LOW: reset by kgroups at 15:31, receipt PATH".
func HealthResetNotes(gs []lag.Verdict) []string {
	var out []string
	for i := range gs {
		for k := range gs[i].Partitions {
			p := &gs[i].Partitions[k]
			if p.Status != lag.StatusRewind || p.ResetBy == nil {
				continue
			}
			out = append(out, format.Sanitize(gs[i].Group)+" "+format.Sanitize(p.Topic)+"/"+strconv.Itoa(int(p.Partition))+
				" went back from "+strconv.FormatInt(p.Rewind.High, 10)+" to "+strconv.FormatInt(p.Rewind.Low, 10)+": "+format.ResetBy(p.ResetBy))
		}
	}
	return out
}
