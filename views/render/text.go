package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/kgroups/kgroups/views/format"
)

// Print writes text to w as lines, each made terminal-safe with
// format.Sanitize, and ends it with a newline. It is how every note, warning
// and error reaches a terminal: a group name or a broker's error string
// inside one cannot move the cursor, retitle the window or reverse the
// text. Line breaks in text stay line breaks; a string from a broker should
// be sanitized where it is put into text (or quoted with %q), so that a
// newline in it cannot start a line of its own.
func Print(w io.Writer, text string) error {
	var b strings.Builder
	for line := range strings.SplitSeq(strings.TrimSuffix(text, "\n"), "\n") {
		b.WriteString(format.Sanitize(line))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Printf is Print of a formatted text.
func Printf(w io.Writer, layout string, args ...any) error {
	return Print(w, fmt.Sprintf(layout, args...))
}
