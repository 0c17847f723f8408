package table

import (
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/ui"
)

// Col is a column on screen: the shared definition (title, alignment, cell
// text), so the CLI and the screens agree, plus how it behaves on a
// terminal that is too narrow for everything.
type Col[T any] struct {
	columns.Column[T]
	// Min lets the column shrink, down to Min cells, before any column is
	// dropped (0: it keeps its width). Flex columns (names, topics) give
	// up their room first.
	Flex bool
	Min  int
	// Max caps the column's width; 0 lets it be as wide as its widest
	// visible cell.
	Max int
	// Reserve is the width the column takes however narrow its cells
	// are, so that a cell that grows up to it (a state, a trend filling
	// up) moves no other column.
	Reserve int
	// Drop orders the columns that disappear on narrow terminals: the
	// highest goes first; 0 is never dropped.
	Drop int
	// Style colours a cell (nil: plain). It returns a pointer to a style
	// built once, so rendering allocates no styles.
	Style func(T) *lipgloss.Style
}

// Styles are what a table draws with.
type Styles struct {
	Header   *lipgloss.Style
	Selected *lipgloss.Style
	// Cursor marks the selected row without relying on colour.
	Cursor   string
	Ellipsis string
	// Mark, one cell wide, replaces the blank after the cursor on rows
	// that Marked reports, so a selection shows without moving a column.
	Mark   string
	Marked func(row int) bool
}

// NewStyles are the styles every screen's table draws with: the UI's
// table header and selection, and its cursor and ellipsis glyphs. Mark and
// Marked are left for a screen that marks rows.
func NewStyles(s *ui.Styles, g ui.Glyphs) Styles {
	return Styles{Header: &s.TableHeader, Selected: &s.Selected, Cursor: g.Cursor, Ellipsis: g.Ellipsis}
}

// Table renders rows of type T. It keeps buffers between renders so that a
// redraw allocates little; it is not safe for concurrent use.
type Table[T any] struct {
	Cols []Col[T]
	// GrowOnly keeps each column as wide as the widest cell it has shown
	// since the table was made, so that a refresh whose cells are
	// narrower, or a row scrolled away, does not re-lay the table out:
	// the columns move only when a cell needs more room than any before.
	GrowOnly bool

	cells   [][]string
	rows    []T
	widths  []int
	natural []int
	widest  []int // GrowOnly: the widest each column has been
	show    []int
	paints  map[*lipgloss.Style]paint
}

// paint is a style taken apart into the escape sequences around its text,
// so that colouring a cell is two string writes instead of a full lipgloss
// render.
type paint struct {
	pre, post string
	ok        bool // false: the style does more than wrap, render it
}

// sentinel stands for the text when a style is taken apart.
const sentinel = "\ue000"

func (t *Table[T]) painter(s *lipgloss.Style) paint {
	if p, found := t.paints[s]; found {
		return p
	}
	if t.paints == nil {
		t.paints = make(map[*lipgloss.Style]paint)
	}
	var p paint
	out := s.Render(sentinel)
	if pre, post, found := strings.Cut(out, sentinel); found && !strings.Contains(post, sentinel) && !strings.Contains(pre+post, "\n") {
		p = paint{pre: pre, post: post, ok: true}
	}
	t.paints[s] = p
	return p
}

// write writes text in style s.
func (t *Table[T]) write(b *strings.Builder, s *lipgloss.Style, text string) {
	if p := t.painter(s); p.ok {
		b.WriteString(p.pre)
		b.WriteString(text)
		b.WriteString(p.post)
		return
	}
	b.WriteString(s.Render(text))
}

// colSep separates columns.
const colSep = " "

// Render writes the header and the rows of the window to b: at most height
// lines (header included), none wider than width. Only rows inside the
// window are formatted, so the cost does not depend on n. row returns row i;
// selected is false when no row should look selected.
func (t *Table[T]) Render(b *strings.Builder, st Styles, width, height int, win Window, n int, row func(int) T, selected bool) {
	if height <= 0 || width <= 0 {
		return
	}
	first, last := win.Visible(n, height-1)
	t.format(first, last, row)
	t.layout(width, format.Width(st.Cursor)+1)

	// Header.
	var hb strings.Builder
	Pad(&hb, format.Width(st.Cursor)+1)
	for k, ci := range t.show {
		if k > 0 {
			hb.WriteString(colSep)
		}
		c := &t.Cols[ci]
		t.cell(&hb, c.Title, ci, k == len(t.show)-1, nil, st.Ellipsis)
	}
	b.WriteString(st.Header.Render(strings.TrimRight(hb.String(), " ")))

	for r := first; r < last; r++ {
		b.WriteByte('\n')
		cells := t.cells[r-first]
		isSel := selected && r == win.Cursor
		if isSel {
			var lb strings.Builder
			lb.WriteString(st.Cursor)
			if st.Marked != nil && st.Marked(r) {
				lb.WriteString(st.Mark)
			} else {
				lb.WriteByte(' ')
			}
			for k, ci := range t.show {
				if k > 0 {
					lb.WriteString(colSep)
				}
				t.cell(&lb, cells[ci], ci, false, nil, st.Ellipsis)
			}
			line := lb.String()
			if w := format.Width(line); w < width {
				Pad(&lb, width-w)
				line = lb.String()
			}
			t.write(b, st.Selected, line)
			continue
		}
		var lb strings.Builder
		lb.Grow(width + 32)
		if st.Marked != nil && st.Marked(r) {
			Pad(&lb, format.Width(st.Cursor))
			lb.WriteString(st.Mark)
		} else {
			Pad(&lb, format.Width(st.Cursor)+1)
		}
		for k, ci := range t.show {
			if k > 0 {
				lb.WriteString(colSep)
			}
			var style *lipgloss.Style
			if t.Cols[ci].Style != nil {
				style = t.Cols[ci].Style(t.rows[r-first])
			}
			t.cell(&lb, cells[ci], ci, k == len(t.show)-1, style, st.Ellipsis)
		}
		// Blank trailing cells would only cost bytes on the wire.
		b.WriteString(strings.TrimRight(lb.String(), " "))
	}
}

// cell writes text fitted to column ci's width. The last column is not
// padded on the right, so lines carry no trailing blanks.
func (t *Table[T]) cell(b *strings.Builder, text string, ci int, lastCol bool, style *lipgloss.Style, ellipsis string) {
	w := t.widths[ci]
	text = format.Truncate(text, w, ellipsis)
	pad := w - format.Width(text)
	if t.Cols[ci].Align == columns.Right {
		Pad(b, pad)
		pad = 0
	}
	if style != nil {
		t.write(b, style, text)
	} else {
		b.WriteString(text)
	}
	if !lastCol {
		Pad(b, pad)
	}
}

// format fills the cell buffer for rows [first, last).
func (t *Table[T]) format(first, last int, row func(int) T) {
	n := last - first
	if cap(t.cells) < n {
		t.cells = make([][]string, n)
		t.rows = make([]T, n)
	}
	t.cells = t.cells[:n]
	t.rows = t.rows[:n]
	for i := 0; i < n; i++ {
		r := row(first + i)
		t.rows[i] = r
		if len(t.cells[i]) != len(t.Cols) {
			t.cells[i] = make([]string, len(t.Cols))
		}
		// Cells hold what brokers report (ids, hosts, topics): made
		// safe for the terminal here, once for every table.
		for ci := range t.Cols {
			t.cells[i][ci] = sanitize(t.Cols[ci].Value(r))
		}
	}
}

// layout sizes the columns to the formatted cells and fits them in width:
// first the flexible column shrinks, then the other shrinkable ones, and
// only then are columns dropped, most expendable first.
func (t *Table[T]) layout(width, gutter int) {
	if len(t.widths) != len(t.Cols) {
		t.widths = make([]int, len(t.Cols))
		t.natural = make([]int, len(t.Cols))
	}
	if len(t.widest) != len(t.Cols) {
		t.widest = make([]int, len(t.Cols))
	}
	for ci := range t.Cols {
		c := &t.Cols[ci]
		w := max(format.Width(c.Title), c.Reserve)
		for _, cells := range t.cells {
			w = max(w, format.Width(cells[ci]))
		}
		if t.GrowOnly {
			w = max(w, t.widest[ci])
			t.widest[ci] = w
		}
		if c.Max > 0 {
			w = min(w, c.Max)
		}
		t.natural[ci] = w
	}
	t.show = t.show[:0]
	for ci := range t.Cols {
		t.show = append(t.show, ci)
	}
	for {
		copy(t.widths, t.natural)
		total := gutter + len(colSep)*(len(t.show)-1)
		for _, ci := range t.show {
			total += t.widths[ci]
		}
		over := total - width
		for pass := 0; pass < 2 && over > 0; pass++ {
			for _, ci := range t.show {
				c := &t.Cols[ci]
				if c.Min <= 0 || c.Flex != (pass == 0) {
					continue
				}
				take := min(over, max(0, t.widths[ci]-c.Min))
				t.widths[ci] -= take
				over -= take
			}
		}
		if over <= 0 {
			return
		}
		// Drop the most expendable column and try again.
		drop, at := 0, -1
		for k, ci := range t.show {
			if d := t.Cols[ci].Drop; d > 0 && d >= drop {
				drop, at = d, k
			}
		}
		if at < 0 {
			return // nothing left to drop: the line will be cut
		}
		t.show = append(t.show[:at], t.show[at+1:]...)
	}
}
