package format

import (
	"strings"
	"testing"
)

func TestRenderValueAuto(t *testing.T) {
	cases := []struct {
		name  string
		in    []byte
		f     ValueFormat
		max   int
		want  ValueFormat
		lines string
		note  string
	}{
		{"text", []byte("hello\nworld"), ValueAuto, 0, ValueText, "hello|world", ""},
		{"json", []byte(`{"id":7,"tags":["a"]}`), ValueAuto, 0, ValueJSON, `{|  "id": 7,|  "tags": [|    "a"|  ]|}`, ""},
		{"bare number is text", []byte("42"), ValueAuto, 0, ValueText, "42", ""},
		{"binary", []byte{0, 1, 'A', 0xff}, ValueAuto, 0, ValueHex, "00000000  00 01 41 ff                                       |..A.|", ""},
		{"escape sequence stays visible", []byte("order shipped \x1b]0;pwn\x07 to \u202edlrow"), ValueAuto, 0, ValueText, `order shipped \x1b]0;pwn\x07 to \u202edlrow`, ""},
		{"forced hex", []byte("hi"), ValueHex, 0, ValueHex, "00000000  68 69                                             |hi|", ""},
		{"forced base64", []byte("hi!"), ValueBase64, 0, ValueBase64, "aGkh", ""},
		{"forced json on text", []byte("nope"), ValueJSON, 0, ValueText, "nope", "not valid JSON"},
		{"forced text on binary", []byte{0xff, 0xfe}, ValueText, 0, ValueHex, "00000000  ff fe                                             |..|", "not UTF-8 text"},
		{"forced text on json", []byte(`{"a":1}`), ValueText, 0, ValueText, `{"a":1}`, ""},
		{"json in a string is sanitized", []byte("{\"a\":\"\u202e\"}"), ValueAuto, 0, ValueJSON, `{|  "a": "\u202e"|}`, ""},
	}
	for _, c := range cases {
		v := RenderValue(c.in, c.f, c.max)
		if v.Format != c.want || strings.Join(v.Lines, "|") != c.lines || v.Note != c.note || v.Truncated() {
			t.Errorf("%s: %v %q note %q truncated %v; want %v %q note %q", c.name, v.Format, strings.Join(v.Lines, "|"), v.Note, v.Truncated(), c.want, c.lines, c.note)
		}
	}
}

func TestRenderValueTruncates(t *testing.T) {
	v := RenderValue([]byte(strings.Repeat("ab", 10)), ValueAuto, 5)
	if v.Format != ValueText || strings.Join(v.Lines, "|") != "ababa" || !v.Truncated() || v.Shown != 5 || v.Total != 20 {
		t.Fatalf("%+v", v)
	}
	if got := v.TruncationMark(); got != "… truncated: 5 of 20 bytes shown" {
		t.Errorf("mark %q", got)
	}
	// A cut inside a UTF-8 character ends the text at the last whole one.
	v = RenderValue([]byte("héllo"), ValueAuto, 2)
	if v.Format != ValueText || strings.Join(v.Lines, "|") != "h" || v.Shown != 1 || v.Total != 6 {
		t.Errorf("cut in a character: %+v", v)
	}
	// A cut JSON document is shown as text.
	v = RenderValue([]byte(`{"a":"bcdef"}`), ValueAuto, 6)
	if v.Format != ValueText || strings.Join(v.Lines, "|") != `{"a":"` {
		t.Errorf("cut json: %+v", v)
	}
	v = RenderValue(nil, ValueAuto, 5)
	if !v.Null || strings.Join(v.Lines, "|") != "(null)" || v.Truncated() {
		t.Errorf("null: %+v", v)
	}
}

func TestHexDump(t *testing.T) {
	got := HexDump([]byte("0123456789abcdef\x1bZ"))
	want := []string{
		"00000000  30 31 32 33 34 35 36 37  38 39 61 62 63 64 65 66  |0123456789abcdef|",
		"00000010  1b 5a                                             |.Z|",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestInlineBytes(t *testing.T) {
	for in, want := range map[string]string{"k1": "k1", "a\x1b[2Jb": `a\x1b[2Jb`, "\x00\xff": "0x00ff"} {
		if got := InlineBytes([]byte(in)); got != want {
			t.Errorf("InlineBytes(%q) = %q, want %q", in, got, want)
		}
	}
	if got := InlineBytes(nil); got != "(null)" {
		t.Errorf("nil: %q", got)
	}
}
