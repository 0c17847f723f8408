package format

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The bounds of a rendered value. A record of a few kilobytes can be
// built to make a naive pretty-printer write hundreds of megabytes (each
// of 9,999 nested "[" indented by its depth), so the one rendering of
// keys, values and headers, the CLI's and the viewer's, works in one pass
// over the input and stops at these bounds, saying what it left out.
const (
	// MaxJSONDepth is how deep pretty JSON indents; an array or object
	// nested deeper shows as "[…]" or "{…}".
	MaxJSONDepth = 32
	// MaxValueLines is how many lines of one value show.
	MaxValueLines = 10_000
	// MaxValueOutput is how many bytes of rendered text one value may
	// give (escapes included).
	MaxValueOutput = 1 << 20
	// MaxInlineBytes is how much of a key or a header shows on its line.
	MaxInlineBytes = 1024
	// MaxHeaders is how many headers of one record show.
	MaxHeaders = 100
)

// lineSink collects sanitized lines up to the bounds.
type lineSink struct {
	lines []string
	bytes int
	full  bool
	// at is how many bytes of the input the lines so far stand for.
	at int
}

// add sanitizes raw and keeps it, up to the bounds; end is how far into
// the input raw reaches. It reports whether more lines fit.
func (s *lineSink) add(raw string, end int) bool {
	if s.full {
		return false
	}
	if len(s.lines) >= MaxValueLines {
		s.full = true
		return false
	}
	room := MaxValueOutput - s.bytes
	cut := false
	if len(raw) > room {
		raw, cut = cutUTF8(raw, room), true
	}
	l := Sanitize(raw)
	if len(l) > room {
		l, cut = cutUTF8(l, room), true
	}
	s.lines = append(s.lines, l)
	s.bytes += len(l) + 1
	if cut {
		s.full = true
		return false
	}
	s.at = end
	return true
}

// cutUTF8 is the longest start of s of at most n bytes that ends at a
// character boundary.
func cutUTF8(s string, n int) string {
	if n >= len(s) {
		return s
	}
	n = max(n, 0)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// elision is the note for a value cut by the bounds: what was left out,
// and how many of its bytes the lines stand for.
func elision(why string, shown, total int) string {
	return fmt.Sprintf("… elided: %s; %s of %s shown", why, strconv.Itoa(shown), Count(total, "byte", "bytes"))
}

// boundedText is text as sanitized lines, split at newlines, within the
// bounds.
func boundedText(s string) ([]string, string) {
	var sink lineSink
	total := len(s)
	s = strings.TrimSuffix(s, "\n")
	start := 0
	for {
		i := strings.IndexByte(s[start:], '\n')
		if i < 0 {
			sink.add(s[start:], len(s))
			break
		}
		if !sink.add(s[start:start+i], start+i+1) {
			break
		}
		start += i + 1
	}
	if sink.full {
		return sink.lines, elision(boundWhy(&sink), sink.at, total)
	}
	return sink.lines, ""
}

func boundWhy(s *lineSink) string {
	if len(s.lines) >= MaxValueLines {
		return "more than " + Count(MaxValueLines, "line", "lines")
	}
	return "more than " + Count(MaxValueOutput, "byte", "bytes") + " of text"
}

// prettyJSON indents valid JSON b as json.Indent does ("  " a level,
// "key": value, empty containers kept as {} and []), in one pass and
// within the bounds: deeper than MaxJSONDepth a container shows as […] or
// {…}. It returns the lines and a note when something was left out.
func prettyJSON(b []byte) ([]string, string) {
	var sink lineSink
	var cur []byte
	depth, deepBytes, deepCount := 0, 0, 0
	newline := func(i int) bool {
		ok := sink.add(string(cur), i)
		cur = cur[:0]
		for range depth {
			cur = append(cur, ' ', ' ')
		}
		return ok
	}
	i := 0
	stopped := false
	for i < len(b) && !stopped {
		c := b[i]
		switch c {
		case ' ', '\t', '\n', '\r':
			i++
		case '{', '[':
			closer := byte('}')
			if c == '[' {
				closer = ']'
			}
			j := skipSpace(b, i+1)
			if j < len(b) && b[j] == closer {
				cur = append(cur, c, closer)
				i = j + 1
				continue
			}
			if depth >= MaxJSONDepth {
				end := containerEnd(b, i)
				cur = append(cur, c)
				cur = append(cur, "…"...)
				cur = append(cur, closer)
				deepBytes += end - i
				deepCount++
				i = end
				continue
			}
			cur = append(cur, c)
			depth++
			i++
			stopped = !newline(i)
		case '}', ']':
			depth = max(depth-1, 0)
			stopped = !newline(i)
			cur = append(cur, c)
			i++
		case ',':
			cur = append(cur, c)
			i++
			stopped = !newline(i)
		case ':':
			cur = append(cur, ':', ' ')
			i++
		case '"':
			end := stringEnd(b, i)
			cur = append(cur, b[i:end]...)
			i = end
			// A long string may fill the line's budget alone.
			if len(cur) > MaxValueOutput {
				stopped = !newline(i)
			}
		default:
			j := i
			for j < len(b) && !strings.ContainsRune(" \t\r\n,:]}", rune(b[j])) {
				j++
			}
			cur = append(cur, b[i:j]...)
			i = j
		}
	}
	if !stopped && strings.TrimSpace(string(cur)) != "" {
		sink.add(string(cur), len(b))
	}
	var notes []string
	if sink.full {
		notes = append(notes, elision(boundWhy(&sink), sink.at, len(b)))
	}
	if deepCount > 0 {
		notes = append(notes, fmt.Sprintf("… elided: %s nested deeper than %d levels (%s)", Count(deepCount, "container", "containers"), MaxJSONDepth, Count(deepBytes, "byte", "bytes")))
	}
	return sink.lines, strings.Join(notes, "; ")
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd is the index after the JSON string starting at b[i] == '"'.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}

// containerEnd is the index after the array or object starting at b[i].
func containerEnd(b []byte, i int) int {
	depth := 0
	for j := i; j < len(b); j++ {
		switch b[j] {
		case '"':
			j = stringEnd(b, j) - 1
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(b)
}

// boundedInline is InlineBytes' text cut to MaxInlineBytes of b.
func boundedInline(b []byte) string {
	if len(b) <= MaxInlineBytes {
		return inline(b)
	}
	head := b[:MaxInlineBytes]
	if utf8.Valid(b) {
		head = []byte(cutUTF8(string(head), MaxInlineBytes))
	}
	return inline(head) + fmt.Sprintf(" … (%s of %s shown)", strconv.Itoa(len(head)), Count(len(b), "byte", "bytes"))
}
