package table

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Width is the number of terminal cells s occupies. s must hold no escape
// sequences.
func Width(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
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
