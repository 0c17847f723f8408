package format

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Width is the number of terminal cells s occupies. s must hold no escape
// sequences (Sanitize it first). Plain ASCII and the narrow symbols kgroups
// draws with (sparklines, arrows, ellipses) are counted directly; anything
// else is measured by grapheme, so wide CJK and emoji count two cells.
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
// was cut. A wide character that would straddle the edge is dropped.
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

// Wrap breaks text into lines of at most width cells at spaces, keeping the
// line breaks it already has and each paragraph's leading indent. A word
// longer than a line (a receipt's path, a 10,000-character group id) is cut
// across lines rather than truncated, so all of it stays readable.
func Wrap(text string, width int) []string {
	var out []string
	for _, para := range strings.Split(text, "\n") {
		lead := len(para) - len(strings.TrimLeft(para, " "))
		indent := strings.Repeat(" ", lead)
		room := max(1, width-lead)
		var line strings.Builder
		lw := 0
		flush := func() {
			out = append(out, indent+line.String())
			line.Reset()
			lw = 0
		}
		for _, w := range strings.Fields(para) {
			for Width(w) > room {
				if lw > 0 {
					flush()
				}
				cut := cutAt(w, room)
				line.WriteString(w[:cut])
				flush()
				w = w[cut:]
			}
			ww := Width(w)
			if lw > 0 && lw+1+ww > room {
				flush()
			}
			if lw > 0 {
				line.WriteByte(' ')
				lw++
			}
			line.WriteString(w)
			lw += ww
		}
		flush()
	}
	return out
}

// cutAt is the byte index at which the first n cells of s end (at least one
// character, so that a cut always makes progress).
func cutAt(s string, n int) int {
	w := 0
	for i, r := range s {
		rw := Width(string(r))
		if w+rw > n {
			return max(i, len(string(r)))
		}
		w += rw
	}
	return len(s)
}
