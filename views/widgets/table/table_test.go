package table

import (
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/ui"
)

func TestWindow(t *testing.T) {
	const n, h = 100, 10
	var w Window
	steps := []struct {
		name           string
		do             func()
		cursor, offset int
	}{
		{"start", func() {}, 0, 0},
		{"down 3", func() { w.Move(3, n, h) }, 3, 0},
		{"down to the edge", func() { w.Move(6, n, h) }, 9, 0},
		{"one past scrolls one", func() { w.Move(1, n, h) }, 10, 1},
		{"up stays in view", func() { w.Move(-2, n, h) }, 8, 1},
		{"page down", func() { w.Page(1, n, h) }, 18, 11},
		{"bottom", func() { w.Bottom(n, h) }, 99, 90},
		{"past the end", func() { w.Move(5, n, h) }, 99, 90},
		{"page up", func() { w.Page(-1, n, h) }, 89, 80},
		{"top", func() { w.Top() }, 0, 0},
		{"before the start", func() { w.Move(-1, n, h) }, 0, 0},
		{"rows shrink below the cursor", func() { w.Bottom(n, h); w.Clamp(5, h) }, 4, 0},
		{"no rows", func() { w.Clamp(0, h) }, 0, 0},
		{"taller screen pulls rows into view", func() { w.Bottom(n, h); w.Clamp(n, 40) }, 99, 60},
	}
	for _, s := range steps {
		s.do()
		if w.Cursor != s.cursor || w.Offset != s.offset {
			t.Fatalf("%s: cursor %d offset %d, want %d %d", s.name, w.Cursor, w.Offset, s.cursor, s.offset)
		}
	}
	w = Window{Offset: 95}
	if first, last := w.Visible(100, 10); first != 95 || last != 100 {
		t.Fatalf("Visible = %d, %d", first, last)
	}
}

type item struct {
	name string
	n    int
	note string
}

func cols(calls *int) []Col[item] {
	count := func(f func(item) string) func(item) string {
		return func(it item) string { *calls++; return f(it) }
	}
	return []Col[item]{
		{Column: columns.Column[item]{Title: "NAME", Value: count(func(it item) string { return it.name })}, Flex: true, Min: 6},
		{Column: columns.Column[item]{Title: "N", Align: columns.Right, Value: count(func(it item) string { return strconv.Itoa(it.n) })}},
		{Column: columns.Column[item]{Title: "NOTE", Value: count(func(it item) string { return it.note })}, Drop: 1},
	}
}

var plainStyles = func() Styles {
	s := lipgloss.NewStyle()
	return Styles{Header: &s, Selected: &s, Cursor: ">", Ellipsis: "~"}
}()

func render(tb *Table[item], width, height int, win Window, rows []item) string {
	var b strings.Builder
	tb.Render(&b, plainStyles, width, height, win, len(rows), func(i int) item { return rows[i] }, true)
	return ansi.Strip(b.String())
}

func TestRenderLayout(t *testing.T) {
	rows := []item{{"alpha", 1, "first"}, {"a-much-longer-name", 12345, "second"}, {"c", 7, ""}}
	var calls int
	tb := &Table[item]{Cols: cols(&calls)}
	tests := []struct {
		width int
		want  string
	}{
		// Everything fits.
		{40, "  NAME                   N NOTE\n" +
			"> alpha                  1 first" + strings.Repeat(" ", 8) + "\n" +
			"  a-much-longer-name 12345 second\n" +
			"  c                      7"},
		// The flexible column gives up room first...
		{30, "  NAME                N NOTE\n" +
			"> alpha               1 first \n" +
			"  a-much-longer-~ 12345 second\n" +
			"  c                   7"},
		// ...then the expendable column goes.
		{20, "  NAME             N\n" +
			"> alpha            1\n" +
			"  a-much-long~ 12345\n" +
			"  c                7"},
	}
	for _, tt := range tests {
		if got := render(tb, tt.width, 10, Window{}, rows); got != tt.want {
			t.Errorf("width %d:\n%s\nwant\n%s", tt.width, got, tt.want)
		}
		for _, l := range strings.Split(render(tb, tt.width, 10, Window{}, rows), "\n") {
			if format.Width(l) > tt.width {
				t.Errorf("width %d: line %q is %d wide", tt.width, l, format.Width(l))
			}
		}
	}
}

// TestRenderFormatsOnlyVisibleRows is the property the benchmarks rely on:
// a table of a million rows formats the cells of the rows on screen only.
func TestRenderFormatsOnlyVisibleRows(t *testing.T) {
	const n = 1_000_000
	var calls, rowCalls int
	tb := &Table[item]{Cols: cols(&calls)}
	row := func(i int) item { rowCalls++; return item{name: "row-" + strconv.Itoa(i), n: i} }
	var b strings.Builder
	tb.Render(&b, plainStyles, 80, 11, Window{Cursor: 500_003, Offset: 500_000}, n, row, true)
	if rowCalls != 10 || calls != 30 {
		t.Fatalf("rendering 10 of %d rows asked for %d rows and %d cells, want 10 and 30", n, rowCalls, calls)
	}
	lines := strings.Split(b.String(), "\n")
	if len(lines) != 11 || !strings.HasPrefix(lines[1], "  row-500000 ") || !strings.HasPrefix(lines[4], "> row-500003 ") || !strings.HasPrefix(lines[10], "  row-500009 ") {
		t.Fatalf("window rows:\n%s", b.String())
	}
}

func TestRenderSelectionAndStyles(t *testing.T) {
	var calls int
	c := cols(&calls)
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(4) // termenv.ANSI256 without importing termenv
	red := r.NewStyle().Foreground(lipgloss.Color("203"))
	rev := r.NewStyle().Reverse(true)
	hdr := r.NewStyle()
	c[1].Style = func(it item) *lipgloss.Style { return &red }
	tb := &Table[item]{Cols: c}
	var b strings.Builder
	st := Styles{Header: &hdr, Selected: &rev, Cursor: ">", Ellipsis: "~"}
	rows := []item{{"a", 1, "x"}, {"b", 2, "y"}}
	tb.Render(&b, st, 20, 5, Window{Cursor: 1}, 2, func(i int) item { return rows[i] }, true)
	lines := strings.Split(b.String(), "\n")
	// The unselected row colours its styled cell only.
	if want := "  a    " + red.Render("1") + " x"; lines[1] != want {
		t.Fatalf("plain row = %q, want %q", lines[1], want)
	}
	// The selected row is one reversed bar across the width, without cell
	// colours that would break it.
	if want := rev.Render("> b    2 y          "); lines[2] != want {
		t.Fatalf("selected row = %q, want %q", lines[2], want)
	}
}

func TestTruncate(t *testing.T) {
	tests := []struct {
		s    string
		w    int
		want string
	}{
		{"hello", 5, "hello"},
		{"hello", 4, "hel…"},
		{"hello", 1, "h"},
		{"hello", 0, ""},
		{"héllo wörld", 6, "héllo…"},
		{"日本語テキスト", 5, "日本…"},
	}
	for _, tt := range tests {
		if got := format.Truncate(tt.s, tt.w, "…"); got != tt.want {
			t.Errorf("format.Truncate(%q, %d) = %q, want %q", tt.s, tt.w, got, tt.want)
		}
	}
	widths := map[string]int{"abc": 3, "日本": 4, "▁▂█": 3, "a…": 2, "é": 1, "e\u0301": 1, "→↓": 2, "": 0, "a\u200bb": 2}
	for s, want := range widths {
		if got := format.Width(s); got != want {
			t.Errorf("format.Width(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestRenderMarks: marked rows show the mark in the blank after the cursor,
// on the cursor's row too, and no column moves.
func TestRenderMarks(t *testing.T) {
	var calls int
	tb := &Table[item]{Cols: cols(&calls)}
	rows := []item{{"a", 1, "x"}, {"b", 2, "y"}, {"c", 3, "z"}}
	st := plainStyles
	st.Mark = "*"
	st.Marked = func(i int) bool { return i != 1 }
	var b strings.Builder
	tb.Render(&b, st, 20, 5, Window{Cursor: 0}, len(rows), func(i int) item { return rows[i] }, true)
	want := "  NAME N NOTE\n" +
		">*a    1 x          \n" +
		"  b    2 y\n" +
		" *c    3 z"
	if got := b.String(); got != want {
		t.Fatalf("marked rows:\n%q\nwant\n%q", got, want)
	}
}

// TestCellsAreSanitized: a cell never carries what a terminal acts on, and
// the UI's own marks pass as they are.
func TestCellsAreSanitized(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"orders-app", "orders-app"},
		{"▁▂▃▅█ ≥12s ~3m04s ▶ …", "▁▂▃▅█ ≥12s ~3m04s ▶ …"},
		{"evil\x1b]0;PWNED\x07\x1b[2J", `evil\x1b]0;PWNED\x07\x1b[2J`},
		{"≥\u202eevil", `≥\u202eevil`},
		{"▁\u200b", `▁\u200b`},
		{"消费者组 👩\u200d💻", "消费者组 👩\u200d💻"},
		{"\u2028", `\u2028`},
	} {
		if got := sanitize(tt.in); got != tt.want {
			t.Errorf("sanitize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// Every character let through as it is is one format.Sanitize keeps.
	for r := rune(0x2000); r < 0x2600; r++ {
		if drawn(r) && format.Sanitize(string(r)) != string(r) {
			t.Errorf("%U passes unsanitized but format.Sanitize escapes it", r)
		}
	}
}

// TestNewStyles: the screens' table styles are the UI's own, by
// reference, so a theme change reaches every table.
func TestNewStyles(t *testing.T) {
	c := ui.NewCommon(lipgloss.NewRenderer(io.Discard), true, true, time.Now)
	st := NewStyles(c.Styles, c.Glyphs)
	if st.Header != &c.Styles.TableHeader || st.Selected != &c.Styles.Selected {
		t.Error("the header and selection are not the UI's styles")
	}
	if st.Cursor != c.Glyphs.Cursor || st.Ellipsis != c.Glyphs.Ellipsis || st.Mark != "" || st.Marked != nil {
		t.Errorf("styles %+v, glyphs %+v", st, c.Glyphs)
	}
}
