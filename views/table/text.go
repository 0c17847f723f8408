package table

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Width is the number of terminal cells s occupies. s must hold no escape
// sequences. Plain ASCII and the narrow symbols kgroups draws with
// (sparklines, arrows, ellipses) are counted directly; anything else is
// measured by grapheme.
func Width(s string) int {
	n := 0
	for _, r := range s {
		if !narrow(r) {
			return ansi.StringWidth(s)
		}
		n++
	}
	return n
}

// narrow reports runes that always take one cell: printable ASCII, Latin-1,
// and the general punctuation, arrow, box and block ranges (without their
// zero-width and bidi controls).
func narrow(r rune) bool {
	switch {
	case r >= 0x20 && r < 0x7f, r >= 0xa0 && r < 0x300:
		return true
	case r >= 0x2010 && r <= 0x2027, r >= 0x2030 && r <= 0x205e:
		return true
	case r >= 0x2190 && r <= 0x21ff, r >= 0x2500 && r <= 0x25ff:
		return true
	}
	return false
}

// Truncate shortens s to at most w cells, ending it with ellipsis when it
// was cut.
func Truncate(s string, w int, ellipsis string) string {
	if w <= 0 {
		return ""
	}
	if Width(s) <= w {
		return s
	}
	if Width(ellipsis) >= w {
		return ansi.Truncate(s, w, "")
	}
	return ansi.Truncate(s, w, ellipsis)
}

// Pad writes n spaces.
func Pad(b *strings.Builder, n int) {
	const spaces = "                                                                "
	for n > 0 {
		k := min(n, len(spaces))
		b.WriteString(spaces[:k])
		n -= k
	}
}

// FitLine truncates a line that may hold escape sequences to w cells.
func FitLine(s string, w int, ellipsis string) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, ellipsis)
}
