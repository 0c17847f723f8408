package render

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/format"
)

// referenceTable is TableWith as it was written before it was made to
// allocate once per table: a slice of cells and of widths per line, a
// builder and padding string per line, and the line's trailing spaces
// trimmed at the end. TestTableWithMatchesReference holds TableWith to it.
func referenceTable[T any](cols []columns.Column[T], rows []T, lay Layout) string {
	ellipsis := lay.Ellipsis
	if ellipsis == "" {
		ellipsis = EllipsisUnicode
	}
	cells := [][]string{sanitizeAll(columns.Titles(cols))}
	for _, r := range rows {
		line := sanitizeAll(columns.Cells(cols, r))
		if !lay.Wide {
			for j, c := range line {
				if m := cols[j].Max; m > 0 {
					line[j] = format.Truncate(c, m, ellipsis)
				}
			}
		}
		cells = append(cells, line)
	}
	maxw := make([]int, len(cols))
	for _, line := range cells {
		for j, c := range line {
			maxw[j] = max(maxw[j], format.Width(c))
		}
	}
	var b strings.Builder
	for _, line := range cells {
		var l strings.Builder
		for j, c := range line {
			if j > 0 {
				l.WriteString(Separator)
			}
			pad := strings.Repeat(" ", maxw[j]-format.Width(c))
			if cols[j].Align == columns.Right {
				l.WriteString(pad + c)
			} else {
				l.WriteString(c + pad)
			}
		}
		b.WriteString(strings.TrimRight(l.String(), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// TestTableWithMatchesReference: random tables of cells with spaces at
// either end, empty cells, wide, combining and hostile characters, long
// cells cut or not, columns aligned either way, render exactly as the
// reference renders them.
func TestTableWithMatchesReference(t *testing.T) {
	words := []string{"", " ", "  ", "a", "a ", " a", "orders  ", "日本語", "e\u0301", "emoji😀", "esc\x1b[31m", "bad\xff",
		"tab\tx", "nl\nx", strings.Repeat("x", 70), strings.Repeat("語", 40), "-", "12345678901234567890"}
	r := rand.New(rand.NewPCG(7, 7))
	for round := range 500 {
		n := 1 + r.IntN(6)
		cols := make([]columns.Column[[]string], n)
		for j := range cols {
			cols[j] = columns.Column[[]string]{Title: words[r.IntN(len(words))], Value: func(row []string) string { return row[j] }}
			if r.IntN(2) == 0 {
				cols[j].Align = columns.Right
			}
			if r.IntN(2) == 0 {
				cols[j].Max = 1 + r.IntN(30)
			}
		}
		rows := make([][]string, r.IntN(8))
		for i := range rows {
			rows[i] = make([]string, n)
			for j := range rows[i] {
				rows[i][j] = words[r.IntN(len(words))]
			}
		}
		lay := Layout{Wide: r.IntN(3) == 0, Ellipsis: []string{"", EllipsisASCII, EllipsisUnicode}[r.IntN(3)]}
		if got, want := TableWith(cols, rows, lay), referenceTable(cols, rows, lay); got != want {
			t.Fatalf("round %d: TableWith:\n%q\nreference:\n%q", round, got, want)
		}
	}
}
