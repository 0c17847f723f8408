package dialog

import (
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/viewtest"
)

func init() { lipgloss.SetColorProfile(termenv.Ascii) }

var (
	up       = tea.KeyMsg{Type: tea.KeyUp}
	down     = tea.KeyMsg{Type: tea.KeyDown}
	pageUp   = tea.KeyMsg{Type: tea.KeyPgUp}
	pageDown = tea.KeyMsg{Type: tea.KeyPgDown}
	ok       = key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "ok"))
)

func frame(width, height int) *Model {
	d := New(viewtest.Common(width, height, true))
	return &d
}

// numbered is a text of n lines "line 1" to "line n".
func numbered(n int) Content {
	var c Content
	for i := 1; i <= n; i++ {
		c.Text.Line("line " + strconv.Itoa(i))
	}
	c.Hints = []key.Binding{ok}
	return c
}

func screen(d *Model, c *Content) string { return viewtest.Strip(d.Render(c)) }

func want(t *testing.T, d *Model, c *Content, what string, lines ...string) {
	t.Helper()
	if got, w := screen(d, c), strings.Join(lines, "\n"); got != w {
		t.Fatalf("%s:\n%s\nwant\n%s", what, got, w)
	}
}

func TestFitsWithoutScrolling(t *testing.T) {
	d := frame(40, 5)
	c := numbered(3)
	want(t, d, &c, "short text", "line 1", "line 2", "line 3", "y ok")
	if d.Scroll(down, &c); screen(d, &c) != "line 1\nline 2\nline 3\ny ok" {
		t.Fatalf("down scrolled a text that fits:\n%s", screen(d, &c))
	}
}

// TestScrollsWithItsOwnKeys: the arrows and the page keys scroll, the hint
// says so, and scrolling stops at the end so that one key back moves.
func TestScrollsWithItsOwnKeys(t *testing.T) {
	d := frame(40, 5) // four lines of text, the hint
	c := numbered(10)
	hint := "y ok · ↑↓ scroll"
	want(t, d, &c, "top", "line 1", "line 2", "line 3", "line 4", hint)
	for _, k := range []tea.KeyMsg{down, down} {
		if !d.Scroll(k, &c) {
			t.Fatalf("%v is not a scrolling key", k)
		}
	}
	want(t, d, &c, "after two downs", "line 3", "line 4", "line 5", "line 6", hint)
	d.Scroll(pageDown, &c)
	want(t, d, &c, "after a page down", "line 6", "line 7", "line 8", "line 9", hint)
	for range 10 {
		d.Scroll(pageDown, &c)
	}
	want(t, d, &c, "at the end", "line 7", "line 8", "line 9", "line 10", hint)
	d.Scroll(up, &c)
	want(t, d, &c, "one up", "line 6", "line 7", "line 8", "line 9", hint)
	d.Scroll(pageUp, &c)
	d.Scroll(pageUp, &c)
	want(t, d, &c, "back at the top", "line 1", "line 2", "line 3", "line 4", hint)
	if !d.Scroll(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("j")}, &c) {
		t.Fatal("j does not scroll down")
	}
	want(t, d, &c, "after j", "line 2", "line 3", "line 4", "line 5", hint)
	if d.Scroll(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")}, &c) {
		t.Fatal("y scrolls")
	}
}

// TestStepThatUsesTheArrows: a step whose hints bind the arrows keeps them,
// and the hint line offers no scrolling.
func TestStepThatUsesTheArrows(t *testing.T) {
	d := frame(40, 3)
	c := numbered(5)
	c.Hints = []key.Binding{key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑", "choose"))}
	want(t, d, &c, "top", "line 1", "line 2", "↑ choose")
	d.Reveal(&c, 4)
	want(t, d, &c, "line 5 revealed", "line 4", "line 5", "↑ choose")
	d.Reveal(&c, 0)
	want(t, d, &c, "line 1 revealed", "line 1", "line 2", "↑ choose")
}

func TestParagraphsWrapAndAreSanitized(t *testing.T) {
	d := frame(24, 20) // paragraphs wrap at 22
	var c Content
	c.Text.Para(nil, "the broker refused: NOT_COORDINATOR\nsecond line")
	c.Text.Para(nil, "id evil\x1b]0;PWNED\x07\x1b[2J")
	c.Text.Para(nil, "  "+strings.Repeat("x", 30))
	c.Text.Para(nil, "id "+strings.Repeat("y", 10_000)+" end")
	want(t, d, &c, "wrapped",
		"the broker refused:",
		"NOT_COORDINATOR",
		"second line",
		`id`,
		`evil\x1b]0;PWNED\x07\x`,
		`1b[2J`,
		"  xxxxxxxxxxxxxxxxxxxx",
		"  xxxxxxxxxx",
		// Three lines at most: the rest is cut.
		"id",
		strings.Repeat("y", 22),
		strings.Repeat("y", 22),
		strings.Repeat("y", 21)+"…",
		"end",
		"", // no hints
	)
	for _, l := range strings.Split(screen(d, &c), "\n") {
		if !format.Safe(l) {
			t.Fatalf("unsafe line %q", l)
		}
	}
}

// rowsTable is a table of n rows "row 0" to "row n-1" under a header.
func rowsTable(n int) *Table {
	return &Table{Rows: n, Render: func(b *strings.Builder, _, height, first int) {
		b.WriteString("HEADER")
		for i := first; i < min(n, first+height-1); i++ {
			b.WriteString("\nrow " + strconv.Itoa(i))
		}
	}}
}

// TestTableScrollsUnderTheText: while the text fits with a few rows, it
// stays and the rows scroll, a page at a time, with a line saying which
// rows show.
func TestTableScrollsUnderTheText(t *testing.T) {
	d := frame(40, 9) // eight lines and the hint
	c := numbered(2)
	c.Table = rowsTable(10)
	hint := "y ok · ↑↓ scroll"
	want(t, d, &c, "top", "line 1", "line 2", "HEADER", "row 0", "row 1", "row 2", "row 3", "  rows 1-4 of 10", hint)
	d.Scroll(down, &c)
	want(t, d, &c, "one down", "line 1", "line 2", "HEADER", "row 1", "row 2", "row 3", "row 4", "  rows 2-5 of 10", hint)
	d.Scroll(pageDown, &c)
	d.Scroll(pageDown, &c)
	want(t, d, &c, "the end", "line 1", "line 2", "HEADER", "row 6", "row 7", "row 8", "row 9", "  rows 7-10 of 10", hint)
}

// TestTallTextScrollsBeforeTheTable: when the text leaves too little room,
// it scrolls first, until the table has its header and three rows.
func TestTallTextScrollsBeforeTheTable(t *testing.T) {
	d := frame(40, 8) // seven lines and the hint
	c := numbered(6)
	c.Table = rowsTable(5)
	hint := "y ok · ↑↓ scroll"
	// A header alone would say nothing: the table shows once a row fits.
	want(t, d, &c, "top", "line 1", "line 2", "line 3", "line 4", "line 5", "line 6", hint)
	d.Scroll(down, &c)
	d.Scroll(down, &c)
	want(t, d, &c, "two down", "line 3", "line 4", "line 5", "line 6", "HEADER", "row 0", "  rows 1-1 of 5", hint)
	for range 10 {
		d.Scroll(down, &c)
	}
	want(t, d, &c, "the end", "line 5", "line 6", "HEADER", "row 2", "row 3", "row 4", "  rows 3-5 of 5", hint)
	// Paging stops where the text has scrolled as far as it goes and the
	// table shows its first rows.
	d.Scroll(pageUp, &c)
	want(t, d, &c, "a page up", "line 5", "line 6", "HEADER", "row 0", "row 1", "row 2", "  rows 1-3 of 5", hint)
	d.Scroll(pageUp, &c)
	want(t, d, &c, "another page up", "line 3", "line 4", "line 5", "line 6", "HEADER", "row 0", "  rows 1-1 of 5", hint)
	d.Scroll(pageDown, &c)
	want(t, d, &c, "a page down", "line 5", "line 6", "HEADER", "row 0", "row 1", "row 2", "  rows 1-3 of 5", hint)
}

// TestTableCostIsTheWindow: only the rows on screen are asked for.
func TestTableCostIsTheWindow(t *testing.T) {
	d := frame(40, 10)
	c := numbered(1)
	asked := 0
	c.Table = &Table{Rows: 1_000_000, Render: func(b *strings.Builder, _, height, _ int) {
		asked += height
		b.WriteString("HEADER")
		for i := 1; i < height; i++ {
			b.WriteString("\nrow")
		}
	}}
	d.Render(&c)
	if asked > 10 {
		t.Fatalf("the table was asked for %d lines on a 10-line screen", asked)
	}
}

type owner struct{ ui.Component }

type answer struct{ id uint64 }

func (a answer) RequestID() uint64 { return a.id }

// TestRequests: only the answer to the request in flight is taken, once;
// after Drop, none is.
func TestRequests(t *testing.T) {
	d := frame(40, 5)
	o := &owner{}
	first := d.Ask(o, func(id uint64) ui.Reply { return answer{id} })
	req, isReq := first().(ui.Request)
	if !isReq || req.Owner != ui.Component(o) {
		t.Fatalf("Ask made %#v", req)
	}
	late := req.Run()
	second := viewtest.Do(d.Ask(o, func(id uint64) ui.Reply { return answer{id} }))
	if d.Answers(late) {
		t.Fatal("the answer to a superseded request was taken")
	}
	if !d.Answers(second.(ui.Reply)) || d.Answers(second.(ui.Reply)) {
		t.Fatal("the current answer was not taken exactly once")
	}
	third := viewtest.Do(d.Ask(o, func(id uint64) ui.Reply { return answer{id} }))
	d.Drop()
	if d.Answers(third.(ui.Reply)) {
		t.Fatal("a dropped request's answer was taken")
	}
}

func TestSteps(t *testing.T) {
	s := Steps{"preview", "confirm", "result"}
	if got := s.At("confirm"); got != "step 2 of 3: confirm" {
		t.Fatalf("At(confirm) = %q", got)
	}
	if got := s.At("elsewhere"); got != "elsewhere" {
		t.Fatalf("At(elsewhere) = %q", got)
	}
}
