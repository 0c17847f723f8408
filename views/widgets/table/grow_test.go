package table

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"

	"github.com/kgroups/kgroups/views/columns"
)

// TestGrowOnlyAndReserve: a GrowOnly table keeps every column as wide as
// the widest cell it showed, so narrower cells on the next render move
// nothing; a Reserve holds a column's width before any cell needs it.
func TestGrowOnlyAndReserve(t *testing.T) {
	type r struct{ a, b, c string }
	tbl := Table[r]{GrowOnly: true, Cols: []Col[r]{
		{Column: columns.Column[r]{Title: "A", Value: func(x r) string { return x.a }}},
		{Column: columns.Column[r]{Title: "B", Value: func(x r) string { return x.b }}, Reserve: 6},
		{Column: columns.Column[r]{Title: "C", Align: columns.Right, Value: func(x r) string { return x.c }}},
	}}
	st := Styles{Header: &lipgloss.Style{}, Selected: &lipgloss.Style{}, Cursor: ">", Ellipsis: "~"}
	render := func(rows ...r) string {
		var b strings.Builder
		tbl.Render(&b, st, 80, 10, Window{}, len(rows), func(i int) r { return rows[i] }, false)
		return b.String()
	}
	frames := []struct {
		rows []r
		want string
	}{
		{[]r{{"x", "ok", "1"}}, "  A B      C\n  x ok     1"},
		{[]r{{"wider", "ok", "1234"}}, "  A     B         C\n  wider ok     1234"},
		// Narrower cells again: nothing moves back.
		{[]r{{"x", "ok", "1"}}, "  A     B         C\n  x     ok        1"},
		// A cell within the reserve moves nothing either.
		{[]r{{"x", "longer", "1"}}, "  A     B         C\n  x     longer    1"},
	}
	for i, f := range frames {
		if got := render(f.rows...); got != f.want {
			t.Fatalf("frame %d:\n%s\nwant\n%s", i, got, f.want)
		}
	}
	tbl.GrowOnly = false
	if got, want := render(r{"x", "ok", "1"}), "  A B      C\n  x ok     1"; got != want {
		t.Fatalf("without GrowOnly:\n%s\nwant\n%s", got, want)
	}
}
