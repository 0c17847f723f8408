package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/kgroups/kgroups/views/format"
)

// EncodeJSON writes v as one indented JSON document and a newline: the one
// encoder of every document kgroups prints. Strings keep their exact bytes
// once decoded: HTML characters (a group named "a<b&c") are not escaped,
// and what a terminal would act on or hide (controls, DEL, C1 controls,
// bidirectional overrides, zero-width characters) is written as a \u escape,
// so a document printed to a terminal is as safe as a table.
func EncodeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	if _, err := w.Write(terminalSafeJSON(buf.Bytes())); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}

// terminalSafeJSON escapes, as \u sequences, the characters of an encoded
// document that format.Sanitize would escape and encoding/json leaves as
// they are. encoding/json already escapes C0 controls in strings (and
// replaces invalid UTF-8), and outside strings a document has only ASCII
// punctuation, letters, digits, spaces and newlines, so every character
// rewritten here is inside a string, where a \u escape decodes to it.
func terminalSafeJSON(b []byte) []byte {
	i := 0
	for i < len(b) && b[i] < 0x7f {
		i++
	}
	if i == len(b) {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	out = append(out, b[:i]...)
	for i < len(b) {
		c := b[i]
		if c < 0x7f {
			out = append(out, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		lo, hi := max(0, i-utf8.UTFMax), min(len(b), i+size+utf8.UTFMax)
		if c != 0x7f && format.SafeAt(string(b[lo:hi]), i-lo) {
			out = append(out, b[i:i+size]...)
		} else {
			out = appendEscape(out, r)
		}
		i += size
	}
	return out
}

// appendEscape writes r as JSON's \uXXXX, as a surrogate pair above the
// Basic Multilingual Plane.
func appendEscape(out []byte, r rune) []byte {
	if r > 0xffff {
		r -= 0x10000
		out = fmt.Appendf(out, `\u%04x`, 0xd800+(r>>10))
		return fmt.Appendf(out, `\u%04x`, 0xdc00+(r&0x3ff))
	}
	return fmt.Appendf(out, `\u%04x`, r)
}
