package format

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// ValueFormat is how a record's value (or key) is shown.
type ValueFormat int

const (
	// ValueAuto picks: pretty JSON when the bytes parse as JSON, UTF-8
	// text when they are text, hex with an ASCII gutter otherwise.
	ValueAuto ValueFormat = iota
	// ValueText is UTF-8 text (hex when the bytes are not UTF-8).
	ValueText
	// ValueJSON is indented JSON (text or hex when it is not valid JSON).
	ValueJSON
	// ValueHex is hex with an ASCII gutter.
	ValueHex
	// ValueBase64 is standard base64, in lines of 76 characters.
	ValueBase64
)

// ValueFormats are the names --format accepts, in order.
var ValueFormats = []string{"text", "json", "hex", "base64"}

// String is the format's name, as --format takes it ("auto" for ValueAuto).
func (f ValueFormat) String() string {
	switch f {
	case ValueText:
		return "text"
	case ValueJSON:
		return "json"
	case ValueHex:
		return "hex"
	case ValueBase64:
		return "base64"
	}
	return "auto"
}

// ParseValueFormat reads a --format value; "" and "auto" are ValueAuto.
func ParseValueFormat(s string) (ValueFormat, error) {
	switch s {
	case "", "auto":
		return ValueAuto, nil
	case "text":
		return ValueText, nil
	case "json":
		return ValueJSON, nil
	case "hex":
		return ValueHex, nil
	case "base64":
		return ValueBase64, nil
	}
	return ValueAuto, fmt.Errorf("unknown value format %q: use text, json, hex or base64", Sanitize(s))
}

// DefaultMaxValueBytes is how much of a value kgroups shows unless told
// otherwise (--max-bytes).
const DefaultMaxValueBytes = 64 << 10

// RenderedValue is a value made ready for a terminal: every line is safe to
// print (Sanitize for text and JSON; hex and base64 are ASCII).
type RenderedValue struct {
	// Format is the format used: never ValueAuto.
	Format ValueFormat
	Lines  []string
	// Null is a null value (a tombstone); Lines then holds "(null)".
	Null bool
	// Shown and Total are the bytes shown and the value's size; Shown <
	// Total when the value was cut at the limit.
	Shown, Total int
	// Note says why a forced format could not be used ("not valid
	// JSON"), or is empty.
	Note string
	// Elided says what the bounds left out (MaxJSONDepth, MaxValueLines,
	// MaxValueOutput) and how many bytes the lines stand for, or is empty.
	Elided string
}

// Truncated reports whether only the start of the value is shown.
func (v RenderedValue) Truncated() bool { return v.Shown < v.Total }

// TruncationMark is the line that ends a cut value.
func (v RenderedValue) TruncationMark() string {
	return fmt.Sprintf("… truncated: %d of %d bytes shown", v.Shown, v.Total)
}

// NullMark shows a null key or value.
const NullMark = "(null)"

// RenderValue shows at most maxBytes of b (all of it when maxBytes <= 0)
// in format f: the one rendering of record values for the CLI and the UI.
// Text and JSON lines are sanitized, so an escape sequence, a bidi override
// or a zero-width character in a value shows as an escape and never acts.
// The work is linear in the input and the output bounded (MaxJSONDepth,
// MaxValueLines, MaxValueOutput); what the bounds leave out is named in
// Elided.
func RenderValue(b []byte, f ValueFormat, maxBytes int) RenderedValue {
	v := RenderedValue{Total: len(b)}
	if b == nil {
		v.Format, v.Null, v.Lines = ValueText, true, []string{NullMark}
		return v
	}
	cut := b
	if maxBytes > 0 && len(cut) > maxBytes {
		cut = cut[:maxBytes]
	}
	v.Shown = len(cut)
	// A cut may split a UTF-8 character: text ends at the last whole one.
	textCut := cut
	if len(cut) < len(b) {
		for k := 1; k < utf8.UTFMax && !utf8.Valid(textCut); k++ {
			if len(cut) >= k {
				textCut = cut[:len(cut)-k]
			}
		}
	}
	switch f {
	case ValueAuto:
		switch {
		case len(cut) == len(b) && json.Valid(b) && isJSONContainer(b):
			f = ValueJSON
		case looksLikeText(textCut):
			f = ValueText
		default:
			f = ValueHex
		}
	case ValueJSON:
		if len(cut) < len(b) || !json.Valid(b) {
			v.Note = "not valid JSON"
			if len(cut) < len(b) {
				v.Note = "cut JSON is not valid JSON"
			}
			f = ValueText
			if !utf8.Valid(textCut) {
				f = ValueHex
			}
		}
	case ValueText:
		if !utf8.Valid(textCut) {
			v.Note = "not UTF-8 text"
			f = ValueHex
		}
	}
	v.Format = f
	switch f {
	case ValueJSON:
		v.Lines, v.Elided = prettyJSON(bytes.TrimSpace(cut))
	case ValueText:
		v.Shown = len(textCut)
		v.Lines, v.Elided = boundedText(string(textCut))
	case ValueHex:
		dump := cut
		if len(dump) > MaxValueLines*16 {
			dump = dump[:MaxValueLines*16]
			v.Elided = elision("more than "+Count(MaxValueLines, "line", "lines"), len(dump), len(cut))
		}
		v.Lines = HexDump(dump)
	case ValueBase64:
		enc := cut
		if len(enc) > MaxValueLines*57 {
			enc = enc[:MaxValueLines*57]
			v.Elided = elision("more than "+Count(MaxValueLines, "line", "lines"), len(enc), len(cut))
		}
		s := base64.StdEncoding.EncodeToString(enc)
		for len(s) > 76 {
			v.Lines = append(v.Lines, s[:76])
			s = s[76:]
		}
		v.Lines = append(v.Lines, s)
	}
	return v
}

// isJSONContainer reports whether valid JSON b is an object or array: a
// bare number or string ("42", "true") reads better as text.
func isJSONContainer(b []byte) bool {
	b = bytes.TrimSpace(b)
	return len(b) > 0 && (b[0] == '{' || b[0] == '[')
}

// looksLikeText reports whether b is UTF-8 meant to be read: valid, no NUL,
// and at most one control character (other than tab, newline and carriage
// return) in ten.
func looksLikeText(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	controls := 0
	for _, c := range b {
		switch {
		case c == 0:
			return false
		case c == '\t' || c == '\n' || c == '\r':
		case c < 0x20 || c == 0x7f:
			controls++
		}
	}
	return controls*10 <= len(b)
}

// HexDump is b as 16 bytes a line: offset, the bytes in hex in two groups
// of 8, and an ASCII gutter where every byte outside printable ASCII is a
// dot, as `hexdump -C` prints it.
func HexDump(b []byte) []string {
	lines := make([]string, 0, (len(b)+15)/16)
	var sb strings.Builder
	for off := 0; off < len(b); off += 16 {
		row := b[off:min(off+16, len(b))]
		sb.Reset()
		fmt.Fprintf(&sb, "%08x ", off)
		for i := range 16 {
			if i == 8 {
				sb.WriteByte(' ')
			}
			if i < len(row) {
				fmt.Fprintf(&sb, " %02x", row[i])
			} else {
				sb.WriteString("   ")
			}
		}
		sb.WriteString("  |")
		for _, c := range row {
			if c >= 0x20 && c < 0x7f {
				sb.WriteByte(c)
			} else {
				sb.WriteByte('.')
			}
		}
		sb.WriteByte('|')
		lines = append(lines, sb.String())
	}
	if len(lines) == 0 {
		lines = append(lines, "")
	}
	return lines
}

// InlineBytes shows a key or header value on one line: NullMark for nil,
// the sanitized text when it is UTF-8, else "0x" and its hex; at most
// MaxInlineBytes of it, with the byte counts when cut.
func InlineBytes(b []byte) string {
	if b == nil {
		return NullMark
	}
	return boundedInline(b)
}

// InlineText is a header key (or any string) on one line, cut as
// InlineBytes cuts.
func InlineText(s string) string {
	if len(s) <= MaxInlineBytes {
		return Sanitize(s)
	}
	head := cutUTF8(s, MaxInlineBytes)
	return Sanitize(head) + fmt.Sprintf(" … (%d of %s shown)", len(head), Count(len(s), "byte", "bytes"))
}

func inline(b []byte) string {
	if utf8.Valid(b) && bytes.IndexByte(b, 0) < 0 {
		return Sanitize(string(b))
	}
	return fmt.Sprintf("0x%x", b)
}
