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

// TestSanitizeDefaultIgnorable holds the one rule for invisible
// characters: every Default_Ignorable_Code_Point is escaped unless it
// stands in the sequence it belongs to.
func TestSanitizeDefaultIgnorable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ev\u034fil", `ev\u034fil`},
		{"a\u3164b", `a\u3164b`},
		{"\u115f\u1160x", `\u115f\u1160x`},
		{"x\uffa0y", `x\uffa0y`},
		{"a\u200db", `a\u200db`},
		{"\u200d", `\u200d`},
		{"👩\u200d", `👩\u200d`},
		{"\u200d💻", `\u200d💻`},
		{"a\u200cb", `a\u200cb`},
		{"x\ufe0f", `x\ufe0f`},
		{"\ufe0f", `\ufe0f`},
		{"soft\u00adhyphen", `soft\u00adhyphen`},
		{"m\u180en", `m\u180en`},
		{"tag\U000e0041", `tag\U000e0041`},
		{"\U000e0041\U000e0042", `\U000e0041\U000e0042`},
		{"a\u17b4b", `a\u17b4b`},
		// Kept: the sequences they belong to.
		{"👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"},
		{"👍🏽\u200d🔥", "👍🏽\u200d🔥"},
		{"❤\ufe0f\u200d🔥", "❤\ufe0f\u200d🔥"},
		{"1\ufe0f\u20e3", "1\ufe0f\u20e3"},
		{"क\u094d\u200dष", "क\u094d\u200dष"},
		{"می\u200cخواهم", "می\u200cخواهم"},
		{"🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f", "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"},
		{"葛\U000e0100", "葛\U000e0100"},
	}
	for _, tt := range tests {
		got := Sanitize(tt.in)
		if got != tt.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if !Safe(got) {
			t.Errorf("Sanitize(%q) = %q is not Safe", tt.in, got)
		}
		if again := Sanitize(got); again != got {
			t.Errorf("Sanitize is not idempotent on %q: %q", got, again)
		}
	}
}

// TestSanitizeNonUTF8Locale: outside a UTF-8 locale every non-ASCII
// character is escaped, so no byte 0x80..0xff reaches an 8-bit terminal
// (0x9b, 0x9c, 0x9d are CSI, ST and OSC there).
func TestSanitizeNonUTF8Locale(t *testing.T) {
	SetUTF8(false)
	defer SetUTF8(true)
	tests := []struct{ in, want string }{
		{"café", `caf\u00e9`},
		{"\u041b", `\u041b`}, // Л is d0 9b in UTF-8
		{"\u045c", `\u045c`}, // ќ is d1 9c
		{"\u049d", `\u049d`}, // ҝ is d2 9d
		{"消费", `\u6d88\u8d39`},
		{"👩\u200d💻", `\U0001f469\u200d\U0001f4bb`},
		{"plain", "plain"},
		{"a\nb", `a\nb`},
	}
	for _, tt := range tests {
		got := Sanitize(tt.in)
		if got != tt.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.want)
		}
		for i := 0; i < len(got); i++ {
			if got[i] >= 0x80 {
				t.Errorf("Sanitize(%q) = %q keeps byte %#x", tt.in, got, got[i])
			}
		}
		if Safe(tt.in) && tt.in != "plain" && tt.in != "" {
			t.Errorf("Safe(%q) outside a UTF-8 locale", tt.in)
		}
	}
	if IsUTF8() {
		t.Error("IsUTF8 after SetUTF8(false)")
	}
}

func TestUTF8LocaleOrder(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{"LANG": "en_US.UTF-8"}, true},
		{map[string]string{"LC_ALL": "C", "LANG": "en_US.UTF-8"}, false},
		{map[string]string{"LC_CTYPE": "en_US.ISO-8859-1", "LANG": "en_US.UTF-8"}, false},
		{map[string]string{"LC_CTYPE": "de_DE.utf8"}, true},
		{map[string]string{}, false},
	}
	for _, tt := range tests {
		if got := UTF8Locale(env(tt.env)); got != tt.want {
			t.Errorf("UTF8Locale(%v) = %v, want %v", tt.env, got, tt.want)
		}
	}
}
