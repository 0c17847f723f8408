// Package output renders snapshots for the command line: plain text tables
// in kafka-consumer-groups.sh's shape and a stable JSON document for scripts.
// Everything here is a pure function of its input so that it can be tested
// with exact expected strings.
package output

import (
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kgroups/kgroups/views/columns"
)

// Separator is what stands between two columns. Two spaces keep a
// right-aligned number visibly apart from a left-aligned neighbour.
const Separator = "  "

// Table renders rows through cols as plain text: a header of the column
// titles, then one line per row. Each column is padded to its widest cell,
// aligned as the column says, and lines carry no trailing spaces, so the
// output splits cleanly on whitespace.
func Table[T any](cols []columns.Column[T], rows []T) string {
	cells := make([][]string, 0, len(rows)+1)
	cells = append(cells, sanitizeAll(columns.Titles(cols)))
	for _, r := range rows {
		cells = append(cells, sanitizeAll(columns.Cells(cols, r)))
	}
	widths := make([]int, len(cols))
	for _, line := range cells {
		for i, c := range line {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for _, line := range cells {
		var l strings.Builder
		for i, c := range line {
			if i > 0 {
				l.WriteString(Separator)
			}
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if cols[i].Align == columns.Right {
				l.WriteString(pad)
				l.WriteString(c)
			} else {
				l.WriteString(c)
				l.WriteString(pad)
			}
		}
		b.WriteString(strings.TrimRight(l.String(), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// WriteTable writes Table(cols, rows) to w.
func WriteTable[T any](w io.Writer, cols []columns.Column[T], rows []T) error {
	_, err := io.WriteString(w, Table(cols, rows))
	return err
}

// sanitizeAll makes every cell safe for one table line: a group or client id
// may contain any bytes, and a newline or escape sequence in one would break
// the table (or the terminal).
func sanitizeAll(cells []string) []string {
	for i, c := range cells {
		cells[i] = sanitize(c)
	}
	return cells
}

func sanitize(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || !unicode.IsPrint(r) || unicode.IsSpace(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == ' ':
			b.WriteRune(r)
		case r == utf8.RuneError || !unicode.IsPrint(r) || unicode.IsSpace(r):
			b.WriteByte('?')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
