// Package columns is the column type that the command line's tables
// (views/render) and the terminal UI's (views/widgets/table) are built from, and the
// few cell texts both show for the same data: ids with "-" for none, group
// coordinators and assignments. Each table's own columns are defined by its
// renderer: views/render for every CLI table, the screens for theirs.
// Numbers, spans and rates come from views/format.
package columns

import (
	"github.com/kgroups/kgroups/views/format"
)

// Align is a column's horizontal alignment.
type Align int

const (
	// Left aligns text columns.
	Left Align = iota
	// Right aligns numeric columns.
	Right
)

// Column is one column over rows of type T: a title, an alignment, a pure
// function from a row to its cell text and, for a column of strings chosen
// by whoever runs a consumer, the most terminal cells a command-line table
// shows of a cell before it cuts it with an ellipsis (0: no limit; --wide
// shows every cell whole). The cut is made when rendering, never in data.
type Column[T any] struct {
	Title string
	Align Align
	Value func(T) string
	Max   int
}

// The caps of long cells in command-line tables, in terminal cells. Ids and
// names (groups, topics, members, instances) are capped at IDMax, which
// keeps every realistic name whole (a classic member id is its client id
// and a 36-character UUID) while one 10,000-character name cannot stretch
// every line; hosts and client ids, usually far shorter, at HostMax.
const (
	IDMax   = 64
	HostMax = 40
)

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
// does (format.Missing).
const Missing = format.Missing

// Offset formats an offset or lag, showing Missing for kafka.NoOffset
// (format.Offset).
func Offset(o int64) string { return format.Offset(o) }

// Text shows Missing for an empty string.
func Text(s string) string {
	if s == "" {
		return Missing
	}
	return s
}
