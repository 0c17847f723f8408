// Package columns defines every tabular column kgroups shows once, so that
// the CLI tables, the JSON-adjacent text output and the TUI screens agree on
// titles, alignment and cell formatting.
package columns

import (
	"strconv"

	"github.com/kgroups/kgroups/kafka"
)

// Align is a column's horizontal alignment.
type Align int

const (
	// Left aligns text columns.
	Left Align = iota
	// Right aligns numeric columns.
	Right
)

// Column is one column over rows of type T: a title, an alignment and a pure
// function from a row to its cell text.
type Column[T any] struct {
	Title string
	Align Align
	Value func(T) string
}

// Titles returns the titles of cols in order.
func Titles[T any](cols []Column[T]) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Title
	}
	return out
}

// Cells renders one row through cols.
func Cells[T any](cols []Column[T], row T) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Value(row)
	}
	return out
}

// Missing is what a cell shows for an absent value, as kafka-consumer-groups.sh
// does.
const Missing = "-"

// Offset formats an offset or lag, showing Missing for kafka.NoOffset.
func Offset(o int64) string {
	if o < 0 {
		return Missing
	}
	return strconv.FormatInt(o, 10)
}

// Text shows Missing for an empty string.
func Text(s string) string {
	if s == "" {
		return Missing
	}
	return s
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
