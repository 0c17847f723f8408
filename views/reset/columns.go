// Package reset is the reset wizard of the TUI, and the plan and result
// tables and JSON that `kgroups reset`, `undo` and `delete-offsets` print, so
// that the screen and the command line show a plan with the same columns.
package reset

import (
	"strconv"

	"github.com/kgroups/kgroups/kafka"
	kreset "github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/views/columns"
)

// PlanRow is one row of a plan table: a partition of the plan's group.
type PlanRow struct {
	Group string
	Row   kreset.Row
}

// PlanRows turns a plan into table rows.
func PlanRows(p *kreset.Plan) []PlanRow {
	out := make([]PlanRow, len(p.Rows))
	for i, r := range p.Rows {
		out[i] = PlanRow{Group: p.Group, Row: r}
	}
	return out
}

// Delta formats a row's delta with its sign ("-40", "+5", "0"), or Missing
// when either offset is absent.
func Delta(r kreset.Row) string {
	d, ok := r.Delta()
	if !ok {
		return columns.Missing
	}
	if d > 0 {
		return "+" + strconv.FormatInt(d, 10)
	}
	return strconv.FormatInt(d, 10)
}

// PlanColumns are the columns of a reset plan: kafka-consumer-groups.sh
// --reset-offsets' GROUP TOPIC PARTITION NEW-OFFSET, in its order so that
// scripts reading the Kafka tool's output keep working, then kgroups'
// extras. NEW-OFFSET shows Missing where the plan removes a commit.
func PlanColumns() []columns.Column[PlanRow] {
	return []columns.Column[PlanRow]{
		{Title: "GROUP", Align: columns.Left, Value: func(r PlanRow) string { return columns.Text(r.Group) }},
		{Title: "TOPIC", Align: columns.Left, Value: func(r PlanRow) string { return columns.Text(r.Row.Topic) }},
		{Title: "PARTITION", Align: columns.Right, Value: func(r PlanRow) string { return strconv.Itoa(int(r.Row.Partition)) }},
		{Title: "NEW-OFFSET", Align: columns.Right, Value: func(r PlanRow) string { return columns.Offset(r.Row.New) }},
		{Title: "CURRENT-OFFSET", Align: columns.Right, Value: func(r PlanRow) string { return columns.Offset(r.Row.Current) }},
		{Title: "LOG-START", Align: columns.Right, Value: func(r PlanRow) string { return columns.Offset(r.Row.LogStart) }},
		{Title: "LOG-END", Align: columns.Right, Value: func(r PlanRow) string { return columns.Offset(r.Row.LogEnd) }},
		{Title: "DELTA", Align: columns.Right, Value: func(r PlanRow) string { return Delta(r.Row) }},
		{Title: "NOTE", Align: columns.Left, Value: func(r PlanRow) string { return columns.Text(r.Row.Note) }},
	}
}

// ResultRow is one row of an applied change: a partition and what it holds
// now.
type ResultRow struct {
	Group     string
	Partition kreset.PartitionResult
}

// ResultRows turns a result into table rows.
func ResultRows(res *kreset.Result) []ResultRow {
	out := make([]ResultRow, len(res.Partitions))
	for i, p := range res.Partitions {
		out[i] = ResultRow{Group: res.Group, Partition: p}
	}
	return out
}

// ResultColumns are the columns of an applied change: the Kafka tool's four,
// then the offset before, the offset re-read afterwards and the verdict.
func ResultColumns() []columns.Column[ResultRow] {
	return []columns.Column[ResultRow]{
		{Title: "GROUP", Align: columns.Left, Value: func(r ResultRow) string { return columns.Text(r.Group) }},
		{Title: "TOPIC", Align: columns.Left, Value: func(r ResultRow) string { return columns.Text(r.Partition.Topic) }},
		{Title: "PARTITION", Align: columns.Right, Value: func(r ResultRow) string { return strconv.Itoa(int(r.Partition.Partition)) }},
		{Title: "NEW-OFFSET", Align: columns.Right, Value: func(r ResultRow) string { return columns.Offset(r.Partition.Want) }},
		{Title: "PREVIOUS-OFFSET", Align: columns.Right, Value: func(r ResultRow) string { return columns.Offset(r.Partition.Before) }},
		{Title: "COMMITTED-NOW", Align: columns.Right, Value: func(r ResultRow) string { return columns.Offset(r.Partition.Got) }},
		{Title: "STATUS", Align: columns.Left, Value: func(r ResultRow) string { return r.Partition.Status() }},
	}
}

// DeletionColumns are the columns of `kgroups delete`'s preview: one row per
// group, with what deleting it would throw away and whether Kafka allows it
// now.
func DeletionColumns() []columns.Column[*kreset.GroupDeletion] {
	return []columns.Column[*kreset.GroupDeletion]{
		{Title: "GROUP", Align: columns.Left, Value: func(d *kreset.GroupDeletion) string { return columns.Text(d.Group) }},
		{Title: "STATE", Align: columns.Left, Value: func(d *kreset.GroupDeletion) string {
			if !d.Exists {
				return "(not found)"
			}
			return columns.Text(d.State)
		}},
		{Title: "#MEMBERS", Align: columns.Right, Value: func(d *kreset.GroupDeletion) string { return strconv.Itoa(len(d.Members)) }},
		{Title: "#COMMITTED", Align: columns.Right, Value: func(d *kreset.GroupDeletion) string { return strconv.Itoa(len(d.Offsets)) }},
		{Title: "CAN-DELETE", Align: columns.Left, Value: func(d *kreset.GroupDeletion) string {
			switch {
			case !d.Exists:
				return "no: not found"
			case d.State != kafka.StateEmpty:
				return "no: " + d.State + ", not Empty"
			}
			return "yes"
		}},
	}
}
