package format

import (
	"strconv"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// asciiOnly is set outside UTF-8 locales (SetUTF8): Sanitize then escapes
// every character that is not printable ASCII.
var asciiOnly atomic.Bool

// SetUTF8 says whether the terminal's locale is UTF-8 (UTF8Locale). Outside
// one, Sanitize escapes every non-ASCII character: a terminal reading 8-bit
// bytes takes 0x9b, 0x9c and 0x9d, found inside the UTF-8 of many
// characters, for CSI, ST and OSC. The command sets it once at start;
// until then the locale is taken as UTF-8.
func SetUTF8(utf8 bool) { asciiOnly.Store(!utf8) }

// IsUTF8 reports the locale SetUTF8 was given.
func IsUTF8() bool { return !asciiOnly.Load() }

// Sanitize makes a string that came from a broker safe to write on one
// line of a terminal. Group, member, instance and client ids, hosts,
// topic names and error texts are chosen by whoever runs a consumer, and a
// terminal obeys what it is sent: "\x1b]0;…\x07" sets its title,
// "\x1b]52;c;…" writes the clipboard, "\x1b[2J" clears it. So every
// character that a terminal would act on rather than draw, or would not
// draw at all, becomes visible text:
//
//   - C0 controls, DEL and C1 controls become Go-style escapes ("\x1b",
//     "\n", "\r", "\t", "\u009b"), so an escape sequence reads as what it
//     is and a newline cannot break a line;
//   - bytes that are not UTF-8 become "\xff";
//   - bidirectional overrides, embeddings, isolates and marks (which
//     reorder what follows them), line and paragraph separators, and
//     every Default_Ignorable_Code_Point (zero-width space, word joiner,
//     byte-order mark, combining grapheme joiner U+034F, the Hangul
//     fillers U+115F, U+1160, U+3164 and U+FFA0, …) become "\u034f" and
//     the like, so "ev\u034fil" cannot pass for "evil";
//   - the joiners U+200C and U+200D, variation selectors and tag
//     characters are kept only inside the sequences they belong to (a
//     joiner between two emoji or after a virama, a selector after a
//     character it selects for, tags after a black flag); anywhere else
//     they are escaped;
//   - outside a UTF-8 locale (SetUTF8), every character beyond ASCII;
//   - everything else, wide CJK and emoji included, is kept as it is.
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
	ascii := asciiOnly.Load()
	// Printable non-ASCII may still need nothing.
	if !ascii && clean(s, i) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	prev := rune(-1)
	if i > 0 {
		prev = rune(s[i-1])
	}
	for j := i; j < len(s); {
		r, size := utf8.DecodeRuneInString(s[j:])
		if r == utf8.RuneError && size <= 1 {
			b.WriteString(`\x`)
			hex2(&b, s[j])
			j++
			prev = -1
			continue
		}
		if (!ascii || r < 0x80) && safeAt(s, j, size, r, prev) {
			b.WriteString(s[j : j+size])
			prev = r
		} else {
			escape(&b, r)
			prev = -1 // what follows comes after the escape's text
		}
		j += size
	}
	return b.String()
}

// clean reports whether every rune of s from byte from on is safe where
// it stands.
func clean(s string, from int) bool {
	prev := rune(-1)
	if from > 0 {
		prev, _ = utf8.DecodeLastRuneInString(s[:from])
	}
	for j := from; j < len(s); {
		r, size := utf8.DecodeRuneInString(s[j:])
		if (r == utf8.RuneError && size <= 1) || !safeAt(s, j, size, r, prev) {
			return false
		}
		prev = r
		j += size
	}
	return true
}

// safeAt reports whether r, at byte j of s (size bytes, after prev, -1 at
// the start), is drawn by a terminal as it stands.
func safeAt(s string, j, size int, r, prev rune) bool {
	if !inSequence(r) {
		return safe(r)
	}
	next := rune(-1)
	if j+size < len(s) {
		next, _ = utf8.DecodeRuneInString(s[j+size:])
	}
	return sequenceOK(r, prev, next)
}

// inSequence reports the default-ignorable characters that are visible
// parts of a sequence when they stand in one: the joiners, variation
// selectors and tag characters.
func inSequence(r rune) bool {
	switch {
	case r == 0x200c || r == 0x200d:
		return true
	case variationSelector(r):
		return true
	case r >= 0xe0020 && r <= 0xe007f:
		return true
	}
	return false
}

func variationSelector(r rune) bool {
	return (r >= 0xfe00 && r <= 0xfe0f) || (r >= 0xe0100 && r <= 0xe01ef) || (r >= 0x180b && r <= 0x180d) || r == 0x180f
}

// sequenceOK reports whether the sequence character r is valid between
// prev and next (-1 for none).
func sequenceOK(r, prev, next rune) bool {
	switch {
	case r == 0x200d: // zero-width joiner: emoji ZWJ sequences, conjuncts
		if pictographic(next) && (pictographic(prev) || prev == 0xfe0f || emojiModifier(prev)) {
			return true
		}
		return virama(prev) && scriptLetter(next)
	case r == 0x200c: // zero-width non-joiner: Persian, Indic scripts
		return (scriptLetter(prev) || virama(prev)) && scriptLetter(next)
	case r == 0xfe0e || r == 0xfe0f: // text or emoji presentation
		return pictographic(prev) || prev == '#' || prev == '*' || (prev >= '0' && prev <= '9')
	case variationSelector(r): // standardized and ideographic variation sequences
		return prev > 0x7f && safe(prev) && !inSequence(prev) && !defaultIgnorable(prev)
	case r >= 0xe0020 && r <= 0xe007e: // emoji tag sequence: 🏴 and its tags
		return prev == 0x1f3f4 || (prev >= 0xe0020 && prev <= 0xe007e)
	case r == 0xe007f: // cancel tag ends one
		return prev >= 0xe0020 && prev <= 0xe007e
	}
	return false
}

// pictographic is an approximation of Extended_Pictographic: the blocks
// emoji come from.
func pictographic(r rune) bool {
	switch {
	case r == 0xa9, r == 0xae, r == 0x203c, r == 0x2049, r == 0x2122, r == 0x2139:
		return true
	case r >= 0x2190 && r <= 0x21ff, r >= 0x2300 && r <= 0x23ff, r >= 0x25a0 && r <= 0x27bf:
		return true
	case r >= 0x2900 && r <= 0x297f, r >= 0x2b00 && r <= 0x2bff, r == 0x3030, r == 0x303d, r == 0x3297, r == 0x3299:
		return true
	case r >= 0x1f000 && r <= 0x1faff && !emojiModifier(r):
		return true
	}
	return false
}

// emojiModifier is a skin tone (U+1F3FB..U+1F3FF).
func emojiModifier(r rune) bool { return r >= 0x1f3fb && r <= 0x1f3ff }

// virama reports a combining mark that joins consonants (Devanagari ्,
// Bengali, Tamil, Sinhala, Khmer, Myanmar, …): canonical combining class
// 9, approximated by the scripts' marks.
func virama(r rune) bool {
	switch r {
	case 0x094d, 0x09cd, 0x0a4d, 0x0acd, 0x0b4d, 0x0bcd, 0x0c4d, 0x0ccd, 0x0d4d, 0x0dca, 0x0e3a, 0x0f84, 0x1039, 0x103a, 0x1714, 0x17d2, 0x1a60, 0x1b44, 0xa8c4, 0xa9c0, 0x11046, 0x110b9:
		return true
	}
	return false
}

// scriptLetter is a letter or mark of a script where joiners shape
// letters: anything but Latin, Greek, Cyrillic and the common script.
func scriptLetter(r rune) bool {
	if r < 0x0370 || !(unicode.IsLetter(r) || unicode.Is(unicode.Mn, r)) || defaultIgnorable(r) {
		return false
	}
	return !unicode.Is(unicode.Latin, r) && !unicode.Is(unicode.Greek, r) && !unicode.Is(unicode.Cyrillic, r) && !unicode.Is(unicode.Common, r)
}

// defaultIgnorable is the Default_Ignorable_Code_Point property (Unicode's
// DerivedCoreProperties): characters that, when not supported, show as
// nothing at all.
func defaultIgnorable(r rune) bool {
	if !(unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Variation_Selector, r)) {
		return false
	}
	switch {
	case unicode.Is(unicode.White_Space, r), r >= 0xfff9 && r <= 0xfffb, r >= 0x13430 && r <= 0x13440:
		return false
	case unicode.Is(unicode.Prepended_Concatenation_Mark, r):
		return false
	}
	return true
}

// safe reports whether a terminal draws r rather than acting on it or
// hiding it, wherever it stands (for the sequence characters, see
// sequenceOK).
func safe(r rune) bool {
	switch {
	case r >= 0x20 && r < 0x7f:
		return true
	case r < 0x20 || (r >= 0x7f && r <= 0x9f):
		return false
	case bidi(r), r == 0x2028, r == 0x2029:
		return false
	case inSequence(r), defaultIgnorable(r):
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
// UTF-8 without a character Sanitize would escape (so, outside a UTF-8
// locale, ASCII only).
func Safe(s string) bool {
	if asciiOnly.Load() {
		for i := 0; i < len(s); i++ {
			if s[i] >= 0x80 {
				return false
			}
		}
	}
	return clean(s, 0)
}

// SafeAt reports whether the character at byte j of s is one Sanitize
// keeps there (its neighbours decide for joiners and selectors): how a
// JSON encoder for a terminal chooses what to write as \u escapes.
func SafeAt(s string, j int) bool {
	r, size := utf8.DecodeRuneInString(s[j:])
	if r == utf8.RuneError && size <= 1 {
		return false
	}
	if r >= 0x80 && asciiOnly.Load() {
		return false
	}
	prev := rune(-1)
	if j > 0 {
		prev, _ = utf8.DecodeLastRuneInString(s[:j])
		if !safe(prev) && !inSequence(prev) {
			prev = -1
		}
	}
	return safeAt(s, j, size, r, prev)
}
