// Package table renders the tables of kgroups' screens: a cursor and scroll
// window over any number of rows, and a renderer that formats only the rows
// inside the window, so drawing a table of 50,000 partitions costs the same
// as drawing one of 50.
package table

// Window is a table's cursor and scroll position. The zero value is the
// top of the table.
type Window struct {
	// Cursor is the selected row.
	Cursor int
	// Offset is the first row on screen.
	Offset int
}

// Clamp keeps the cursor inside n rows and on a screen of height rows,
// scrolling as little as possible.
func (w *Window) Clamp(n, height int) {
	if height < 1 {
		height = 1
	}
	if n <= 0 {
		w.Cursor, w.Offset = 0, 0
		return
	}
	w.Cursor = clamp(w.Cursor, 0, n-1)
	if w.Cursor < w.Offset {
		w.Offset = w.Cursor
	}
	if w.Cursor >= w.Offset+height {
		w.Offset = w.Cursor - height + 1
	}
	// Do not leave empty space below the last row when rows could fill it.
	w.Offset = clamp(w.Offset, 0, max(0, n-height))
}

// Move moves the cursor by delta rows.
func (w *Window) Move(delta, n, height int) {
	w.Cursor += delta
	w.Clamp(n, height)
}

// Page moves the cursor and the window by one screen (pages < 0 goes up).
func (w *Window) Page(pages, n, height int) {
	d := pages * max(1, height)
	w.Cursor += d
	w.Offset += d
	w.Clamp(n, height)
}

// Top selects the first row.
func (w *Window) Top() { w.Cursor, w.Offset = 0, 0 }

// Bottom selects the last row.
func (w *Window) Bottom(n, height int) {
	w.Cursor = n - 1
	w.Clamp(n, height)
}

// Visible returns the rows on screen, [first, last).
func (w *Window) Visible(n, height int) (first, last int) {
	first = clamp(w.Offset, 0, max(0, n))
	last = min(n, first+max(0, height))
	return first, last
}

func clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
