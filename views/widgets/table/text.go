package table

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/kgroups/kgroups/views/format"
)

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

// sanitize is format.Sanitize, skipped for text made only of characters a
// terminal always draws and that kgroups draws with itself: printable ASCII,
// punctuation (…), arrows and mathematical signs (↑ ≥), box drawing, blocks
// and shapes (sparklines, the cursor). Those cells (numbers, time lags,
// sparklines) are most of a table, and format.Sanitize checks anything
// beyond ASCII a character class at a time.
func sanitize(s string) string {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !drawn(r) {
			return format.Sanitize(s)
		}
		i += size
	}
	return s
}

// drawn reports the non-ASCII characters sanitize lets through: every
// character of these blocks is visible; none is a control, a joiner, an
// invisible or a direction mark.
func drawn(r rune) bool {
	switch {
	case r >= 0x2010 && r <= 0x2027, r >= 0x2030 && r <= 0x205e: // general punctuation, without separators, marks and invisibles
		return true
	case r >= 0x2190 && r <= 0x22ff: // arrows, mathematical operators
		return true
	case r >= 0x2500 && r <= 0x25ff: // box drawing, block elements, geometric shapes
		return true
	}
	return false
}
