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

// Printf is Print of a formatted text whose string and error arguments
// are each one line: a newline inside one (a member id, a broker's error)
// shows as "\n" rather than starting a line of its own. Line breaks belong
// to the layout, and to errors joined with errors.Join (one line each).
func Printf(w io.Writer, layout string, args ...any) error {
	return Print(w, fmt.Sprintf(layout, oneLineArgs(args)...))
}

// oneLineArgs wraps the string and error arguments of a Printf that hold
// a line break.
func oneLineArgs(args []any) []any {
	var out []any
	for i, a := range args {
		var w any
		switch v := a.(type) {
		case string:
			if strings.ContainsAny(v, "\n\r") {
				w = oneLine(v)
			}
		case error:
			if v != nil && strings.ContainsAny(v.Error(), "\n\r") {
				w = safeLines(oneLineError(v))
			}
		}
		if w == nil {
			continue
		}
		if out == nil {
			out = append([]any(nil), args...)
		}
		out[i] = w
	}
	if out == nil {
		return args
	}
	return out
}

// oneLineError is err's text with each error of an errors.Join on a line
// of its own, and every other line break escaped.
func oneLineError(err error) string {
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return format.Sanitize(err.Error())
	}
	var parts []string
	for _, e := range j.Unwrap() {
		if e != nil {
			parts = append(parts, oneLineError(e))
		}
	}
	return strings.Join(parts, "\n")
}

// safeLines is text already made safe line by line (oneLineError).
type safeLines string

func (s safeLines) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		_, _ = fmt.Fprintf(f, "%q", string(s))
		return
	}
	_, _ = io.WriteString(f, string(s))
}

// oneLine formats as its text made safe for one line (%s, %v), or quoted
// (%q, which escapes the newline itself).
type oneLine string

func (o oneLine) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		_, _ = fmt.Fprintf(f, "%q", string(o))
		return
	}
	_, _ = io.WriteString(f, format.Sanitize(string(o)))
}
