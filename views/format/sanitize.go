package format

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sanitize makes a string that came from a broker safe to write to a
// terminal. Group, member, instance and client ids, hosts and error texts
// are chosen by whoever runs a consumer, and a terminal obeys what it is
// sent: "\x1b]0;…\x07" sets its title, "\x1b]52;c;…" writes the clipboard,
// "\x1b[2J" clears it. So every character that a terminal would act on
// rather than draw becomes visible text:
//
//   - C0 controls, DEL and C1 controls become Go-style escapes ("\x1b",
//     "\n", "\r", "\t", "\u009b"), so an escape sequence reads as what it
//     is and a newline cannot break a line;
//   - bytes that are not UTF-8 become "\xff";
//   - bidirectional overrides, embeddings and isolates (which reorder what
//     follows them), line and paragraph separators, and invisible
//     characters that would let one id pass for another (zero-width space,
//     word joiner, byte-order mark) become "\u202e" and the like;
//   - everything else, wide CJK and emoji (with their joiners and variation
//     selectors) included, is kept as it is.
//
// A string with nothing to change is returned as it is, without
// allocating. Sanitize never shortens: cutting to a width is for the
// renderer (Truncate), and data (JSON, receipts) keeps the exact bytes.
func Sanitize(s string) string {
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] < 0x7f {
		i++
	}
	if i == len(s) {
		return s
	}
	// Printable non-ASCII may still need nothing.
	if clean(s[i:]) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for j := i; j < len(s); {
		r, size := utf8.DecodeRuneInString(s[j:])
		if r == utf8.RuneError && size <= 1 {
			b.WriteString(`\x`)
			hex2(&b, s[j])
			j++
			continue
		}
		if safe(r) {
			b.WriteString(s[j : j+size])
		} else {
			escape(&b, r)
		}
		j += size
	}
	return b.String()
}

// clean reports whether every rune of s is safe.
func clean(s string) bool {
	for j := 0; j < len(s); {
		r, size := utf8.DecodeRuneInString(s[j:])
		if (r == utf8.RuneError && size <= 1) || !safe(r) {
			return false
		}
		j += size
	}
	return true
}

// safe reports whether a terminal draws r rather than acting on it or
// hiding it.
func safe(r rune) bool {
	switch {
	case r >= 0x20 && r < 0x7f:
		return true
	case r < 0x20 || (r >= 0x7f && r <= 0x9f):
		return false
	case r == 0x200c || r == 0x200d: // zero-width non-joiner and joiner: scripts and emoji sequences
		return true
	case r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef: // variation selectors
		return true
	case bidi(r), r == 0x2028, r == 0x2029:
		return false
	}
	return unicode.IsGraphic(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r)
}

// bidi reports the characters that change the direction of the text after
// them (the "Trojan Source" set, plus the marks).
func bidi(r rune) bool {
	switch {
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

func escape(b *strings.Builder, r rune) {
	switch r {
	case '\n':
		b.WriteString(`\n`)
	case '\r':
		b.WriteString(`\r`)
	case '\t':
		b.WriteString(`\t`)
	default:
		if r < 0x80 {
			b.WriteString(`\x`)
			hex2(b, byte(r))
			return
		}
		q := strconv.QuoteRuneToASCII(r) // '\u202e' or '\U000e0001'
		b.WriteString(q[1 : len(q)-1])
	}
}

func hex2(b *strings.Builder, c byte) {
	const digits = "0123456789abcdef"
	b.WriteByte(digits[c>>4])
	b.WriteByte(digits[c&0xf])
}

// Safe reports whether s can be written to a terminal as it is: valid
// UTF-8 without a character Sanitize would escape.
func Safe(s string) bool {
	return clean(s)
}
