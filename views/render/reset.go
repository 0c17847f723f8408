package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/views/format"
)

// The tables of `kgroups reset`, `undo`, `delete-offsets` and `delete`. The
// reset wizard of the UI shows a plan and a result with the same columns.

// PlanRow is one row of a plan table: a partition of the plan's group.
type PlanRow struct {
	Group string
	Row   reset.Row
}

// PlanRows turns a plan into table rows.
func PlanRows(p *reset.Plan) []PlanRow {
	out := make([]PlanRow, len(p.Rows))
	for i, r := range p.Rows {
		out[i] = PlanRow{Group: p.Group, Row: r}
	}
	return out
}

// Delta formats a row's delta with its sign ("-40", "+5", "0"), or Missing
// when either offset is absent.
func Delta(r reset.Row) string {
	d, ok := r.Delta()
	if !ok {
		return format.Missing
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
func PlanColumns() []Column[PlanRow] {
	return []Column[PlanRow]{
		{Title: "GROUP", Align: left, Max: idMax, Value: func(r PlanRow) string { return groupCell(r.Group) }},
		{Title: "TOPIC", Align: left, Max: idMax, Value: func(r PlanRow) string { return text(r.Row.Topic) }},
		{Title: "PARTITION", Align: right, Value: func(r PlanRow) string { return strconv.Itoa(int(r.Row.Partition)) }},
		{Title: "NEW-OFFSET", Align: right, Value: func(r PlanRow) string { return format.Offset(r.Row.New) }},
		{Title: "CURRENT-OFFSET", Align: right, Value: func(r PlanRow) string { return format.Offset(r.Row.Current) }},
		{Title: "LOG-START", Align: right, Value: func(r PlanRow) string { return format.Offset(r.Row.LogStart) }},
		{Title: "LOG-END", Align: right, Value: func(r PlanRow) string { return format.Offset(r.Row.LogEnd) }},
		{Title: "DELTA", Align: right, Value: func(r PlanRow) string { return Delta(r.Row) }},
		{Title: "NOTE", Align: left, Value: func(r PlanRow) string { return text(r.Row.Note) }},
	}
}

// ResultRow is one row of an applied change: a partition and what it holds
// now.
type ResultRow struct {
	Group     string
	Partition reset.PartitionResult
}

// ResultRows turns a result into table rows.
func ResultRows(res *reset.Result) []ResultRow {
	out := make([]ResultRow, len(res.Partitions))
	for i, p := range res.Partitions {
		out[i] = ResultRow{Group: res.Group, Partition: p}
	}
	return out
}

// ResultColumns are the columns of an applied change: the Kafka tool's four,
// then the offset before, the offset re-read afterwards and the verdict.
func ResultColumns() []Column[ResultRow] {
	return []Column[ResultRow]{
		{Title: "GROUP", Align: left, Max: idMax, Value: func(r ResultRow) string { return groupCell(r.Group) }},
		{Title: "TOPIC", Align: left, Max: idMax, Value: func(r ResultRow) string { return text(r.Partition.Topic) }},
		{Title: "PARTITION", Align: right, Value: func(r ResultRow) string { return strconv.Itoa(int(r.Partition.Partition)) }},
		{Title: "NEW-OFFSET", Align: right, Value: func(r ResultRow) string { return format.Offset(r.Partition.Want) }},
		{Title: "PREVIOUS-OFFSET", Align: right, Value: func(r ResultRow) string { return format.Offset(r.Partition.Before) }},
		{Title: "COMMITTED-NOW", Align: right, Value: func(r ResultRow) string { return format.Offset(r.Partition.Got) }},
		{Title: "STATUS", Align: left, Value: func(r ResultRow) string { return r.Partition.Status() }},
	}
}

// DeletionColumns are the columns of `kgroups delete`'s preview: one row per
// group, with what deleting it would throw away and whether Kafka allows it
// now.
func DeletionColumns() []Column[*reset.GroupDeletion] {
	return []Column[*reset.GroupDeletion]{
		{Title: "GROUP", Align: left, Max: idMax, Value: func(d *reset.GroupDeletion) string { return groupCell(d.Group) }},
		{Title: "STATE", Align: left, Value: func(d *reset.GroupDeletion) string {
			if !d.Exists {
				return "(not found)"
			}
			return text(d.State)
		}},
		{Title: "#MEMBERS", Align: right, Value: func(d *reset.GroupDeletion) string { return strconv.Itoa(len(d.Members)) }},
		{Title: "#COMMITTED", Align: right, Value: func(d *reset.GroupDeletion) string { return strconv.Itoa(len(d.Offsets)) }},
		{Title: "CAN-DELETE", Align: left, Value: func(d *reset.GroupDeletion) string {
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

// Plan writes a plan's table, long names cut as lay says.
func Plan(w io.Writer, p *reset.Plan, lay Layout) error {
	if err := WriteTableWith(w, PlanColumnsFor(p.Type), PlanRows(p), lay); err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	return nil
}

// Result writes the table of an applied change, partition by partition.
func Result(w io.Writer, res *reset.Result, lay Layout) error {
	if err := WriteTableWith(w, ResultColumnsFor(res.Type), ResultRows(res), lay); err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	return nil
}

// Deletions writes `kgroups delete`'s preview.
func Deletions(w io.Writer, ds []*reset.GroupDeletion, lay Layout) error {
	if err := WriteTableWith(w, DeletionColumns(), ds, lay); err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	return nil
}

// OffsetsCSV writes a plan's new offsets as the CSV that --from-file reads
// (topic,partition,offset; no header; a field with a comma, a quote or a
// line break quoted as RFC 4180 says). CSV is data: it keeps the exact
// bytes, except on a terminal, where each row is made safe with
// format.Sanitize (a line break inside a quoted field shows as "\n").
func OffsetsCSV(w io.Writer, p *reset.Plan, terminal bool) error {
	if !terminal {
		return reset.WriteCSV(w, p.Offsets(), false)
	}
	var b strings.Builder
	if err := reset.WriteCSV(&b, p.Offsets(), false); err != nil {
		return err
	}
	var out strings.Builder
	for _, row := range reset.SplitCSVRecords(b.String()) {
		out.WriteString(format.Sanitize(row))
		out.WriteByte('\n')
	}
	_, err := io.WriteString(w, out.String())
	return err
}
