package format

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

// nested is n "[" then n "]": valid JSON up to 10,000 levels.
func nested(n int) []byte {
	return []byte(strings.Repeat("[", n) + strings.Repeat("]", n))
}

func outputBytes(v RenderedValue) int {
	n := 0
	for _, l := range v.Lines {
		n += len(l) + 1
	}
	return n
}

// allocatedBytes is what f allocates, measured over runs.
func allocatedBytes(runs int, f func()) uint64 {
	f()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / uint64(runs)
}

// TestRenderValueNestedJSON: 9,999 nested arrays (19,998 bytes) once gave
// 200 MB of indented output; now the depth past MaxJSONDepth is elided
// with its byte count, and the work is bounded.
func TestRenderValueNestedJSON(t *testing.T) {
	b := nested(9999)
	if len(b) != 19_998 || !json.Valid(b) {
		t.Fatalf("the input: %d bytes, valid %v", len(b), json.Valid(b))
	}
	v := RenderValue(b, ValueAuto, DefaultMaxValueBytes)
	if v.Format != ValueJSON {
		t.Fatalf("format %v", v.Format)
	}
	// 32 opening lines, the elided container, 32 closing lines.
	if len(v.Lines) != 2*MaxJSONDepth+1 {
		t.Fatalf("%d lines", len(v.Lines))
	}
	want := strings.Repeat("  ", MaxJSONDepth) + "[…]"
	if v.Lines[MaxJSONDepth] != want {
		t.Fatalf("line %d = %q, want %q", MaxJSONDepth, v.Lines[MaxJSONDepth], want)
	}
	if v.Lines[0] != "[" || v.Lines[len(v.Lines)-1] != "]" || v.Lines[1] != "  [" {
		t.Fatalf("first and last lines %q %q %q", v.Lines[0], v.Lines[1], v.Lines[len(v.Lines)-1])
	}
	if want := "… elided: 1 container nested deeper than 32 levels (19934 bytes)"; v.Elided != want {
		t.Fatalf("elided %q, want %q", v.Elided, want)
	}
	if n := outputBytes(v); n > 4096 {
		t.Fatalf("%d bytes of output", n)
	}
	if a := testing.AllocsPerRun(20, func() { RenderValue(b, ValueAuto, DefaultMaxValueBytes) }); a > 200 {
		t.Errorf("%.0f allocations a rendering", a)
	}
	if n := allocatedBytes(20, func() { RenderValue(b, ValueAuto, DefaultMaxValueBytes) }); n > 256<<10 {
		t.Errorf("%d bytes allocated a rendering", n)
	}
}

// TestRenderValue65KB: a 64,998-byte value under the --max-bytes default,
// in every format, stays within the bounds.
func TestRenderValue65KB(t *testing.T) {
	inputs := map[string][]byte{
		"nested past json's depth": nested(32_499),
		"nested 10,000 then text":  append(nested(10_000), bytes.Repeat([]byte("x"), 64_998-20_000)...),
		"newlines":                 bytes.Repeat([]byte("\n"), 64_998),
		"escapes":                  bytes.Repeat([]byte("\x1b"), 64_998),
		"object in object":         []byte(strings.Repeat(`{"a":`, 9999) + "1" + strings.Repeat("}", 9999) + strings.Repeat(" ", 64_998-59_995)),
	}
	for name, b := range inputs {
		if len(b) != 64_998 {
			t.Fatalf("%s: %d bytes", name, len(b))
		}
		for _, f := range []ValueFormat{ValueAuto, ValueText, ValueJSON, ValueHex, ValueBase64} {
			v := RenderValue(b, f, DefaultMaxValueBytes)
			if len(v.Lines) > MaxValueLines || outputBytes(v) > MaxValueOutput+MaxValueLines {
				t.Errorf("%s as %v: %d lines, %d bytes", name, f, len(v.Lines), outputBytes(v))
			}
			for _, l := range v.Lines {
				if !Safe(l) {
					t.Fatalf("%s as %v: unsafe line %q", name, f, l)
				}
			}
			if n := allocatedBytes(3, func() { RenderValue(b, f, DefaultMaxValueBytes) }); n > 8<<20 {
				t.Errorf("%s as %v: %d bytes allocated a rendering", name, f, n)
			}
		}
	}
	v := RenderValue(inputs["newlines"], ValueText, DefaultMaxValueBytes)
	if want := "… elided: more than 10000 lines; 10000 of 64998 bytes shown"; v.Elided != want || len(v.Lines) != MaxValueLines {
		t.Errorf("newlines: %d lines, elided %q, want %q", len(v.Lines), v.Elided, want)
	}
	v = RenderValue(inputs["object in object"], ValueAuto, DefaultMaxValueBytes)
	if v.Format != ValueJSON || len(v.Lines) != 2*MaxJSONDepth+1 || !strings.HasSuffix(v.Lines[MaxJSONDepth], `"a": {…}`) {
		t.Errorf("object in object: %v, %d lines, %q", v.Format, len(v.Lines), v.Lines[min(MaxJSONDepth, len(v.Lines)-1)])
	}
}

// TestPrettyJSONMatchesIndent: below the bounds the pretty-printer writes
// what json.Indent does.
func TestPrettyJSONMatchesIndent(t *testing.T) {
	for _, in := range []string{
		`{"id":7,"tags":["a"],"empty":{},"none":[],"nested":{"x":[1,2,{"y":null}]},"s":"a,b:c]}\"q"}`,
		` [ 1 , true , false , null , -1.5e3 , "\u00e9" ] `,
		`"bare"`, `42`, `{ }`,
	} {
		var buf bytes.Buffer
		if err := json.Indent(&buf, bytes.TrimSpace([]byte(in)), "", "  "); err != nil {
			t.Fatal(err)
		}
		got, note := prettyJSON(bytes.TrimSpace([]byte(in)))
		if strings.Join(got, "\n") != buf.String() || note != "" {
			t.Errorf("prettyJSON(%s) =\n%s\nnote %q; json.Indent gives\n%s", in, strings.Join(got, "\n"), note, buf.String())
		}
	}
}

func TestInlineBytesBounded(t *testing.T) {
	got := InlineBytes(bytes.Repeat([]byte("k"), 5000))
	if want := strings.Repeat("k", MaxInlineBytes) + " … (1024 of 5000 bytes shown)"; got != want {
		t.Errorf("InlineBytes of 5,000 bytes = %q", got)
	}
	got = InlineBytes(bytes.Repeat([]byte{0}, 2000))
	if want := "0x" + strings.Repeat("00", MaxInlineBytes) + " … (1024 of 2000 bytes shown)"; got != want {
		t.Errorf("InlineBytes of 2,000 NULs = %q", got)
	}
	if got := InlineText(strings.Repeat("é", 1000)); !strings.HasSuffix(got, " … (1024 of 2000 bytes shown)") {
		t.Errorf("InlineText %q", got[len(got)-40:])
	}
}

// FuzzRenderValue: for any bytes in any format, the output is
// terminal-safe and within the bounds.
func FuzzRenderValue(f *testing.F) {
	for _, s := range [][]byte{nested(40), []byte(`{"a":[{"b":"\u202e"}]}`), []byte("a\nb\x1b"), {0xff, 0}, []byte(strings.Repeat(`[{"k":`, 50))} {
		f.Add(s, uint8(0), 0)
	}
	f.Fuzz(func(t *testing.T, b []byte, fm uint8, maxBytes int) {
		v := RenderValue(b, ValueFormat(int(fm)%5), maxBytes)
		if len(v.Lines) > MaxValueLines || outputBytes(v) > MaxValueOutput+MaxValueLines {
			t.Fatalf("%d lines, %d bytes", len(v.Lines), outputBytes(v))
		}
		for _, l := range v.Lines {
			if !Safe(l) {
				t.Fatalf("unsafe line %q", l)
			}
		}
		if v.Format == ValueJSON {
			for _, l := range v.Lines {
				if indent := len(l) - len(strings.TrimLeft(l, " ")); indent > 2*MaxJSONDepth {
					t.Fatalf("indent %d: %q", indent, l)
				}
			}
		}
	})
}
