package table

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
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
