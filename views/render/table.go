// Package render writes everything the kgroups command line prints: every
// command's tables (in kafka-consumer-groups.sh's shape where the Kafka tool
// has one), its JSON documents and CSV, and the notes that go to stderr. It
// defines each CLI table's columns once; screens that show the same table
// (the reset wizard, the simulate tab) reuse them.
//
// Whatever came from a broker (group, member, instance and client ids,
// hosts, topics, states, error strings) is hostile: a terminal obeys the
// escape sequences in it. Tables and text lines pass every such string
// through format.Sanitize and align columns by display width (format.Width),
// so CJK and emoji stay aligned and nothing a terminal would act on is
// written. JSON keeps the exact bytes, escaping what a terminal would act on
// as \u sequences.
//
// Everything here is a pure function of its input, tested with exact
// expected strings.
package render

import (
	"bytes"
	"io"
	"sync"

	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/format"
)

// Separator is what stands between two columns. Two spaces keep a
// right-aligned number visibly apart from a left-aligned neighbour.
const Separator = "  "

// Layout says how a command-line table shows cells longer than their
// column's cap (columns.Column.Max). The zero value cuts them with "…".
type Layout struct {
	// Wide shows every cell whole (--wide).
	Wide bool
	// Ellipsis ends a cut cell: "…", or "..." outside a UTF-8 locale
	// (LayoutFor). Empty means "…".
	Ellipsis string
}

// EllipsisUnicode and EllipsisASCII end a cut cell.
const (
	EllipsisUnicode = "…"
	EllipsisASCII   = "..."
)

// LayoutFor is the layout of --wide (wide) in a locale that is UTF-8 or
// not.
func LayoutFor(wide, utf8 bool) Layout {
	if utf8 {
		return Layout{Wide: wide, Ellipsis: EllipsisUnicode}
	}
	return Layout{Wide: wide, Ellipsis: EllipsisASCII}
}

// Table renders rows through cols as plain text with the default layout
// (long cells cut): see TableWith.
func Table[T any](cols []columns.Column[T], rows []T) string {
	return TableWith(cols, rows, Layout{})
}

// TableWith renders rows through cols as plain text: a header of the column
// titles, then one line per row. Every cell is made terminal-safe
// (format.Sanitize: a newline or escape sequence in an id becomes visible
// text, so one row stays one line), then, unless lay is wide, cut to its
// column's cap (Max, in terminal cells) with an ellipsis; each column is
// padded to its widest cell in terminal cells (format.Width), aligned as
// the column says; lines carry no trailing spaces, so the output splits
// cleanly on whitespace.
func TableWith[T any](cols []columns.Column[T], rows []T, lay Layout) string {
	ellipsis := lay.Ellipsis
	if ellipsis == "" {
		ellipsis = EllipsisUnicode
	}
	// Every cell's text goes into one byte slice, its end and width into
	// two int slices, line after line (the titles, then the rows): no
	// pointer per cell for the collector to trace, and scratch reused from
	// table to table. The slices are local while in use, so appending to
	// them needs no write barrier.
	sc := tableScratchPool.Get().(*tableScratch)
	defer tableScratchPool.Put(sc)
	n := len(cols)
	text, ends, widths := sc.text[:0], sc.ends[:0], sc.widths[:0]
	maxw := make([]int, n)
	for j, c := range cols {
		t := format.Sanitize(c.Title)
		w := format.Width(t)
		text = append(text, t...)
		ends = append(ends, len(text))
		widths = append(widths, w)
		maxw[j] = max(maxw[j], w)
	}
	for _, r := range rows {
		for j, col := range cols {
			c := format.Sanitize(col.Value(r))
			w := cellWidth(c)
			if m := col.Max; m > 0 && !lay.Wide && w > m {
				c = format.Truncate(c, m, ellipsis)
				w = format.Width(c)
			}
			text = append(text, c...)
			ends = append(ends, len(text))
			widths = append(widths, w)
			maxw[j] = max(maxw[j], w)
		}
	}
	size := len(text)
	for i, w := range widths {
		size += maxw[i%n] - w + len(Separator)
	}
	out := sc.out[:0]
	if cap(out) < size {
		out = make([]byte, 0, size)
	}
	start := 0
	for line := 0; line < len(ends); line += n {
		// Spaces are held back until something follows them, so that
		// a line never ends in spaces (a cell's own trailing spaces
		// included).
		pending := 0
		for j := range n {
			if j > 0 {
				pending += len(Separator)
			}
			end := ends[line+j]
			c, pad := text[start:end], maxw[j]-widths[line+j]
			start = end
			if cols[j].Align == columns.Right {
				pending += pad
			}
			if k := len(bytes.TrimRight(c, " ")); k > 0 {
				out = appendSpaces(out, pending)
				out = append(out, c[:k]...)
				pending = len(c) - k
			} else {
				pending += len(c)
			}
			if cols[j].Align != columns.Right {
				pending += pad
			}
		}
		out = append(out, '\n')
	}
	sc.text, sc.ends, sc.widths, sc.out = text, ends, widths, out
	return string(out)
}

// cellWidth is format.Width(c), counted without decoding when c is
// printable ASCII, as nearly every cell is.
func cellWidth(c string) int {
	for i := 0; i < len(c); i++ {
		if c[i] < 0x20 || c[i] >= 0x7f {
			return format.Width(c)
		}
	}
	return len(c)
}

// tableScratch is what TableWith holds while it renders one table.
type tableScratch struct {
	text, out    []byte
	ends, widths []int
}

var tableScratchPool = sync.Pool{New: func() any { return new(tableScratch) }}

// spaces pads cells.
const spaces = "                                                                "

func appendSpaces(b []byte, n int) []byte {
	for n > len(spaces) {
		b = append(b, spaces...)
		n -= len(spaces)
	}
	return append(b, spaces[:n]...)
}

// WriteTable writes Table(cols, rows) to w.
func WriteTable[T any](w io.Writer, cols []columns.Column[T], rows []T) error {
	_, err := io.WriteString(w, Table(cols, rows))
	return err
}

// WriteTableWith writes TableWith(cols, rows, lay) to w.
func WriteTableWith[T any](w io.Writer, cols []columns.Column[T], rows []T, lay Layout) error {
	_, err := io.WriteString(w, TableWith(cols, rows, lay))
	return err
}

func sanitizeAll(cells []string) []string {
	for i, c := range cells {
		cells[i] = format.Sanitize(c)
	}
	return cells
}
