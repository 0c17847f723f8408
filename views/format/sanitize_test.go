package format

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSanitize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"orders-app", "orders-app"},
		{"with space", "with space"},
		// Terminal escapes: title, clipboard, clear screen, CSI via C1.
		{"evil\x1b]0;PWNED\x07\x1b[2J", `evil\x1b]0;PWNED\x07\x1b[2J`},
		{"\x1b]52;c;cm0gLXJmIH4=\x07", `\x1b]52;c;cm0gLXJmIH4=\x07`},
		{"a\u009b31mred", `a\u009b31mred`},
		{"line\nbreak\rback\ttab\bbs\x7fdel\x00nul", `line\nbreak\rback\ttab\x08bs\x7fdel\x00nul`},
		// Not UTF-8.
		{"bad\xff\xfebytes", `bad\xff\xfebytes`},
		// Bidi overrides, isolates and marks; line separators.
		{"user\u202etxt.exe", `user\u202etxt.exe`},
		{"a\u2066b\u2069c\u200fd", `a\u2066b\u2069c\u200fd`},
		{"x\u2028y\u2029z", `x\u2028y\u2029z`},
		// Invisible characters that let one id pass for another.
		{"pay\u200bments", `pay\u200bments`},
		{"\ufeffbom", `\ufeffbom`},
		// Kept: Latin, wide CJK, emoji with joiner and variation selector,
		// combining marks, non-breaking space.
		{"café", "café"},
		{"消费者组", "消费者组"},
		{"👩\u200d💻 ❤\ufe0f", "👩\u200d💻 ❤\ufe0f"},
		{"e\u0301", "e\u0301"},
		{"a\u00a0b", "a\u00a0b"},
	}
	for _, tt := range tests {
		got := Sanitize(tt.in)
		if got != tt.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if !Safe(got) {
			t.Errorf("Sanitize(%q) = %q still holds control characters", tt.in, got)
		}
		if again := Sanitize(got); again != got {
			t.Errorf("Sanitize is not idempotent on %q: %q", got, again)
		}
	}
}

func TestSanitizeDoesNotAllocateForCleanText(t *testing.T) {
	for _, s := range []string{"orders-app.consumer-1", "消费者组"} {
		if n := testing.AllocsPerRun(100, func() { _ = Sanitize(s) }); n != 0 {
			t.Errorf("Sanitize(%q) allocates %v times", s, n)
		}
	}
}

func TestSanitizeLongName(t *testing.T) {
	s := strings.Repeat("g", 10_000) + "\x1b[2J"
	got := Sanitize(s)
	if len(got) != 10_000+len(`\x1b[2J`) || !Safe(got) {
		t.Fatalf("Sanitize of a 10,000-character name: %d bytes, safe %v", len(got), Safe(got))
	}
}

// FuzzSanitize checks that nothing a terminal acts on survives, for any
// bytes.
func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"evil\x1b]0;PWNED\x07", "\xff\xfe", "a\u202eb", "消费者组", "\u009b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Sanitize(s)
		if !utf8.ValidString(got) || !Safe(got) {
			t.Fatalf("Sanitize(%q) = %q is not safe", s, got)
		}
		if Sanitize(got) != got {
			t.Fatalf("Sanitize(%q) = %q is not idempotent", s, got)
		}
	})
}
