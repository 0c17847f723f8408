package ui

// Glyphs are the characters kgroups draws with. Terminals whose locale is not
// UTF-8 (common on old jump hosts) get ASCII so that nothing turns into
// question marks or misaligns columns.
type Glyphs struct {
	// Spark are the sparkline levels, lowest first.
	Spark []rune
	// Ellipsis ends truncated text.
	Ellipsis string
	// Cursor marks the selected row. It is visible without colour, so the
	// selection survives NO_COLOR.
	Cursor string
	// Up and Down mark the sort direction.
	Up, Down string
	// UpDown names the arrow keys in hints; Arrow says "from -> to".
	UpDown, Arrow string
	// Sep separates items in status lines.
	Sep string
	// OK and Fail lead the connection status.
	OK, Fail string
	// Caret ends text being typed.
	Caret string
	// More marks a text that goes on below the screen.
	More string
	// Mark flags a row selected for an action (partitions to reset). It
	// is one cell wide: it takes the blank after the cursor.
	Mark string
	// AtLeast marks a time lag that is a lower bound.
	AtLeast string
	// Bars are a chart's partial cells, lowest first; the last is a full
	// cell.
	Bars []rune
	// AxisV, AxisTick, AxisOrigin and AxisH draw a chart's axes: the
	// vertical line, a labelled tick on it, the corner and the baseline.
	AxisV, AxisTick, AxisOrigin, AxisH string
}

// UnicodeGlyphs are used on UTF-8 terminals.
var UnicodeGlyphs = Glyphs{
	Spark:      []rune("▁▂▃▄▅▆▇█"),
	Ellipsis:   "…",
	Cursor:     "▶",
	Up:         "↑",
	Down:       "↓",
	UpDown:     "↑↓",
	Arrow:      "→",
	Sep:        " · ",
	OK:         "●",
	Fail:       "✖",
	Caret:      "█",
	More:       "↓ more",
	Mark:       "✓",
	AtLeast:    "≥",
	Bars:       []rune("▁▂▃▄▅▆▇█"),
	AxisV:      "│",
	AxisTick:   "┤",
	AxisOrigin: "└",
	AxisH:      "─",
}

// ASCIIGlyphs are used everywhere else.
var ASCIIGlyphs = Glyphs{
	Spark:      []rune("_.-=#"),
	Ellipsis:   "~",
	Cursor:     ">",
	Up:         "^",
	Down:       "v",
	UpDown:     "up/down",
	Arrow:      "->",
	Sep:        " | ",
	OK:         "*",
	Fail:       "x",
	Caret:      "_",
	More:       "-- more --",
	Mark:       "*",
	AtLeast:    ">=",
	Bars:       []rune(".:#"),
	AxisV:      "|",
	AxisTick:   "+",
	AxisOrigin: "+",
	AxisH:      "-",
}

// GlyphsFor picks the glyphs for the locale.
func GlyphsFor(utf8 bool) Glyphs {
	if utf8 {
		return UnicodeGlyphs
	}
	return ASCIIGlyphs
}
