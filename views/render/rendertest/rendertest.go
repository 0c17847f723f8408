// Package rendertest checks command-line output the way a terminal would
// receive it: that nothing in it acts on the terminal, and that its tables'
// columns line up in terminal cells.
package rendertest

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/kgroups/kgroups/views/format"
)

// Invisible are the look-alikes and line breaks the one sanitizer rule
// escapes (format.Sanitize): a combining grapheme joiner, the Hangul
// fillers, a lone joiner, a newline, and a name that reads as a flag.
var Invisible = []string{
	"ev\u034fil",
	"han\u3164gul\u115f\u1160\uffa0",
	"lone\u200dzwj",
	"cid-nl-line1\nline2",
	"--execute",
}

// Hostile are strings a broker may hand kgroups as any id, host, topic or
// error text, which a terminal would obey, hide or mis-measure if they were
// written as they are: a title change and a screen clear, a clipboard write
// (OSC 52), a 10,000-character name, CJK and an emoji sequence (two cells
// each), a zero-width space, a right-to-left override, C1 controls and DEL.
var Hostile = []string{
	"evil\x1b]0;PWNED\x07\x1b[2J",
	"\x1b]52;c;Y2xpcGJvYXJk\x07",
	strings.Repeat("0123456789", 1000),
	"消费者组",
	"👩‍💻",
	"zero\u200bwidth",
	"\u202eexe.txt",
	"c1\u009b31m\u0085del\x7f",
}

// Unsafe finds the first thing in s that must never reach a terminal from
// a broker: a control character other than newline, DEL, a C1 control,
// invalid UTF-8, a bidirectional control or an invisible character.
func Unsafe(s string) (why string, found bool) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return fmt.Sprintf("invalid UTF-8 at byte %d", i), true
		case r < 0x20 && r != '\n', r == 0x7f, r >= 0x80 && r <= 0x9f:
			return fmt.Sprintf("control %U at byte %d", r, i), true
		case r == 0x061c, r == 0x200b, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e,
			r >= 0x2066 && r <= 0x2069, r == 0x2028, r == 0x2029, r == 0xfeff:
			return fmt.Sprintf("bidi or invisible %U at byte %d", r, i), true
		}
		i += size
	}
	// Every line as Sanitize would leave it: no default-ignorable
	// character outside its sequence, nothing beyond ASCII outside a
	// UTF-8 locale.
	for n, line := range strings.Split(s, "\n") {
		if !format.Safe(line) {
			return fmt.Sprintf("line %d is not as format.Sanitize leaves it: %q", n+1, Short(line)), true
		}
	}
	return "", false
}

// header matches a table's header line: titles in capitals.
var header = regexp.MustCompile(`^[A-Z#][A-Z0-9#/()\- ]*$`)

// Tables checks every table in out. A table is a header line and the lines
// after it up to a blank line or the next header. Every column of the
// header but the first starts after two spaces, and every row must have two
// spaces at the same terminal cells, counted by display width: a CJK name
// or an emoji measured in bytes or runes would shift the columns after it.
// (It assumes right-aligned cells are no wider than their titles, as in
// small fixtures.) It returns how many rows it checked and what is wrong.
func Tables(out string) (rows int, problems []string) {
	var starts []int
	for _, line := range strings.Split(out, "\n") {
		switch {
		case line == "":
			starts = nil
			continue
		case header.MatchString(line):
			starts = starts[:0]
			for i := 2; i < len(line); i++ {
				if line[i] != ' ' && line[i-1] == ' ' && line[i-2] == ' ' {
					starts = append(starts, i)
				}
			}
			continue
		case starts == nil:
			continue // not in a table
		}
		rows++
		for _, p := range starts {
			if gap := ansi.Cut(line, p-2, p); strings.Trim(gap, " ") != "" {
				problems = append(problems, fmt.Sprintf("row not aligned at cell %d (%q there): %s", p, gap, Short(line)))
				break
			}
		}
	}
	return rows, problems
}

// Short quotes s for a message, cutting the middle of a long one.
func Short(s string) string {
	if len(s) > 300 {
		s = s[:150] + "…" + s[len(s)-150:]
	}
	return fmt.Sprintf("%q", s)
}
