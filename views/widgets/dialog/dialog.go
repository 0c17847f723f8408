// Package dialog is the frame of kgroups' modal dialogs (the reset wizard,
// the member removal dialog): text wrapped to the width, an optional table
// drawn a window at a time, and the step's keys on the last line. The body
// scrolls with the dialog's own keys when it is taller than the area, so
// that nothing a dialog says is ever out of reach, and the one request of
// the current step is tracked by ID, so that a late answer is dropped.
//
// A dialog embeds Model and builds its Content from its state for each
// View (and for each key that may scroll); Model does the layout.
package dialog

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/widgets/table"
)

// Keys scroll a dialog. They are the dialog's own: a dialog reads every
// key, so no other screen's bindings apply while it is open. As everywhere,
// k and j go up and down, where the step does not read them as text.
type Keys struct {
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	// Scroll stands for all four in the hint line.
	Scroll key.Binding
}

// DefaultKeys returns the scrolling keys; their help draws arrows with g.
func DefaultKeys(g ui.Glyphs) Keys {
	return Keys{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp(g.Up, "scroll up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp(g.Down, "scroll down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Scroll:   key.NewBinding(key.WithKeys("up", "down", "k", "j", "pgup", "pgdown"), key.WithHelp(g.UpDown, "scroll")),
	}
}

// Steps are the names of a dialog's steps, in order.
type Steps []string

// At says where the user is: "step 2 of 5: parameters". A name that is not
// a step is returned as it is.
func (s Steps) At(name string) string {
	for i, n := range s {
		if n == name {
			return "step " + strconv.Itoa(i+1) + " of " + strconv.Itoa(len(s)) + ": " + n
		}
	}
	return name
}

// Text is a dialog's text, built line by line.
type Text struct {
	items []item
}

type item struct {
	text  string
	style *lipgloss.Style
	para  bool
}

// Line adds a line drawn as it is: it may carry styles, so whoever builds
// it sanitizes the broker's strings in it. It is cut at the width.
func (t *Text) Line(s string) { t.items = append(t.items, item{text: s}) }

// Blank adds an empty line.
func (t *Text) Blank() { t.items = append(t.items, item{}) }

// Para adds plain text: sanitized (it may hold any broker's words) but for
// its line breaks, wrapped to the width, a word too long for a line cut
// across lines (and one longer than three lines cut short, with an
// ellipsis), and each line drawn in style (nil: plain).
func (t *Text) Para(style *lipgloss.Style, text string) {
	t.items = append(t.items, item{text: text, style: style, para: true})
}

// Table is a block of rows under the text, drawn a window at a time, so
// that a plan of 50,000 partitions costs what a plan of 50 does.
type Table struct {
	// Rows is the number of rows.
	Rows int
	// Render writes the header and the rows from first on, height lines
	// in all, none wider than width.
	Render func(b *strings.Builder, width, height, first int)
}

// Content is what a dialog shows at its current step.
type Content struct {
	Text  Text
	Table *Table // nil: none
	// Hints are the step's keys, for the last line. When the body does
	// not fit, the dialog adds its scrolling keys, unless a hint binds
	// the arrows for the step's own use (choosing from a list).
	Hints []key.Binding
}

// Model is the frame. Embed it: it holds the screen's ui.Common.
type Model struct {
	ui.Common
	keys Keys
	// offset is how far the body is scrolled, in lines.
	offset int
	// pending is the step's request in flight; 0 for none.
	pending uint64
}

// New returns the frame for a dialog built with c.
func New(c ui.Common) Model {
	return Model{Common: c, keys: DefaultKeys(c.Glyphs)}
}

// Keys are the scrolling keys.
func (d *Model) Keys() *Keys { return &d.keys }

// Top scrolls back to the top, for a new step.
func (d *Model) Top() { d.offset = 0 }

// Scroll applies the scrolling keys to c and reports whether msg was one
// of them. A dialog calls it for the keys its step does not use.
func (d *Model) Scroll(msg tea.KeyMsg, c *Content) bool {
	l := d.layout(c)
	k := &d.keys
	switch {
	case key.Matches(msg, k.Up):
		d.offset--
	case key.Matches(msg, k.Down):
		d.offset++
	case key.Matches(msg, k.PageUp):
		// A page of rows, then of text; the first rows of the table
		// are a stop on the way.
		if d.offset > l.maxText {
			d.offset = max(l.maxText, d.offset-l.page)
		} else {
			d.offset -= l.textPage
		}
	case key.Matches(msg, k.PageDown):
		if d.offset < l.maxText {
			d.offset = min(l.maxText, d.offset+l.textPage)
		} else {
			d.offset += l.page
		}
	default:
		return false
	}
	// Not past the end, so that a key back moves at once.
	d.offset = max(0, min(d.offset, l.maxOffset))
	return true
}

// Reveal scrolls as little as needed to show the text's item i (the i-th
// line, blank or paragraph added), for a step that moves a choice through
// a list taller than the area.
func (d *Model) Reveal(c *Content, i int) {
	l := d.layout(c)
	if i < 0 || i >= len(l.starts) {
		return
	}
	first, last := l.starts[i], l.total-1
	if i+1 < len(l.starts) {
		last = l.starts[i+1] - 1
	}
	switch {
	case first < l.textFrom:
		d.offset = first
	case last >= l.textFrom+len(l.text):
		d.offset = last - max(1, len(l.text)) + 1
	}
	d.offset = max(0, min(d.offset, l.maxOffset))
}

// Item is the index the next line added to t will have, for Reveal.
func (t *Text) Item() int { return len(t.items) }

// Ask starts the step's request for owner (the dialog itself), replacing
// any still in flight, whose answer will then be dropped.
func (d *Model) Ask(owner ui.Component, run func(id uint64) ui.Reply) tea.Cmd {
	var cmd tea.Cmd
	d.pending, cmd = ui.Ask(owner, run)
	return cmd
}

// Answers reports whether r answers the request in flight, which is then
// done; any other answer is a late one, to drop.
func (d *Model) Answers(r ui.Reply) bool {
	if d.pending == 0 || r.RequestID() != d.pending {
		return false
	}
	d.pending = 0
	return true
}

// Drop forgets the request in flight: its answer will be dropped.
func (d *Model) Drop() { d.pending = 0 }

// layout is the content placed in the area at the current offset.
type layout struct {
	text     []string // the text lines on screen
	textFrom int      // the index of the first of them
	starts   []int    // the first line of each item of the text
	total    int      // the number of lines of the text
	// The table's window: its first row, and the lines it gets (header
	// and status line included); 0 when it is not on screen.
	first, lines int
	rows         int  // rows on screen
	status       bool // a "rows a-b of n" line is needed
	maxOffset    int
	// maxText is how far the text scrolls before the rows do; textPage
	// and page are the page sizes in each.
	maxText        int
	textPage, page int
	overflow       bool
}

// wrapWidth is the width paragraphs are wrapped to: a little inside the
// area, never absurdly narrow.
func (d *Model) wrapWidth() int { return max(20, d.Width-2) }

// lines turns the text into lines at the current width, and says where
// each item starts.
func (d *Model) lines(t *Text) (out []string, starts []int) {
	starts = make([]int, len(t.items))
	for i, it := range t.items {
		starts[i] = len(out)
		if !it.para {
			out = append(out, table.FitLine(it.text, d.Width, d.Glyphs.Ellipsis))
			continue
		}
		w := d.wrapWidth()
		for _, l := range format.Wrap(shorten(sanitize(it.text), longWord*w, d.Glyphs.Ellipsis), w) {
			l = table.FitLine(l, d.Width, d.Glyphs.Ellipsis)
			if it.style != nil {
				l = it.style.Render(l)
			}
			out = append(out, l)
		}
	}
	return out, starts
}

// sanitize makes text safe for the terminal, keeping its line breaks,
// which Wrap keeps too.
func sanitize(text string) string {
	if format.Safe(text) {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = format.Sanitize(l)
	}
	return strings.Join(lines, "\n")
}

// longWord is how many lines a word of a paragraph may take before it is
// cut with an ellipsis: a receipt's path stays whole, a 10,000-character
// member id does not push everything after it out of sight.
const longWord = 3

// shorten cuts every word of text wider than n cells to n, with ellipsis.
func shorten(text string, n int, ellipsis string) string {
	if len(text) <= n {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		words := strings.Split(l, " ")
		for j, w := range words {
			if len(w) > n && format.Width(w) > n {
				words[j] = format.Truncate(w, n, ellipsis)
			}
		}
		lines[i] = strings.Join(words, " ")
	}
	return strings.Join(lines, "\n")
}

// minRows is how many table rows stay on screen while the text above
// scrolls.
const minRows = 3

func (d *Model) layout(c *Content) layout {
	all, starts := d.lines(&c.Text)
	h := max(1, d.Height-1) // the hint line is the last
	t := len(all)
	l := layout{starts: starts, total: t}
	n := 0
	if c.Table != nil {
		n = c.Table.Rows
	}
	if n == 0 {
		l.maxOffset = max(0, t-h)
		l.maxText = l.maxOffset
		l.overflow = t > h
		l.page = max(1, h-1)
		l.textPage = l.page
		off := min(d.offset, l.maxOffset)
		l.textFrom = off
		l.text = all[off:min(t, off+h)]
		return l
	}
	// The table keeps its header and a few rows (with the "rows a-b of n"
	// line when it has more): the text scrolls only as far as needed for
	// that, then the rows scroll under the text that is left.
	least := 1 + min(n, minRows)
	if n > minRows {
		least++
	}
	maxText := max(0, t+least-h)
	textOff := min(d.offset, maxText)
	l.textFrom = textOff
	l.text = all[textOff:min(t, textOff+h)]
	// The rows shown once the text is scrolled as far as it goes give the
	// page size and the end.
	rowsAt := func(k int) (rows int, status bool) {
		r := h - k
		if r < 2 {
			return 0, false
		}
		if n > r-1 {
			return max(1, r-2), true
		}
		return n, false
	}
	endRows, _ := rowsAt(min(t-maxText, h))
	maxRow := max(0, n-endRows)
	l.maxOffset = maxText + maxRow
	l.maxText = maxText
	l.overflow = l.maxOffset > 0
	l.page = max(1, endRows)
	l.textPage = max(1, h-least)
	l.rows, l.status = rowsAt(len(l.text))
	if l.rows > 0 {
		l.first = min(max(0, d.offset-maxText), max(0, n-l.rows))
		l.lines = 1 + l.rows
	}
	return l
}

// Render draws c: the text and table lines on screen, then the hint line.
// The dialog's View calls it with its content.
func (d *Model) Render(c *Content) string {
	l := d.layout(c)
	var b strings.Builder
	for i, line := range l.text {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(line)
	}
	if l.lines > 0 {
		if len(l.text) > 0 {
			b.WriteByte('\n')
		}
		c.Table.Render(&b, d.Width, l.lines, l.first)
		if l.status {
			last := l.first + l.rows
			b.WriteString("\n" + d.Styles.Dim.Render(table.FitLine("  rows "+strconv.Itoa(l.first+1)+"-"+strconv.Itoa(last)+" of "+strconv.Itoa(c.Table.Rows), d.Width, d.Glyphs.Ellipsis)))
		}
	}
	if b.Len() > 0 {
		b.WriteByte('\n')
	}
	b.WriteString(d.hintLine(c.Hints, l.overflow))
	return b.String()
}

// hintLine is the step's keys, and the scrolling keys when the body does
// not fit and the step leaves the arrows to the dialog.
func (d *Model) hintLine(hints []key.Binding, overflow bool) string {
	parts := make([]string, 0, len(hints)+1)
	arrows := false
	for _, h := range hints {
		if !h.Enabled() {
			continue
		}
		for _, k := range h.Keys() {
			arrows = arrows || k == "up" || k == "down"
		}
		parts = append(parts, d.Styles.HelpKey.Render(h.Help().Key)+" "+d.Styles.Dim.Render(h.Help().Desc))
	}
	if overflow && !arrows {
		s := d.keys.Scroll.Help()
		parts = append(parts, d.Styles.HelpKey.Render(s.Key)+" "+d.Styles.Dim.Render(s.Desc))
	}
	return table.FitLine(strings.Join(parts, d.Glyphs.Sep), d.Width, d.Glyphs.Ellipsis)
}

// KeySections are hints and the scrolling keys, as a help section titled
// title: what a dialog answers to, for its Bindings.
func (d *Model) KeySections(title string, hints []key.Binding) []ui.Section {
	k := &d.keys
	return []ui.Section{{Title: title, Bindings: append(append([]key.Binding(nil), hints...), k.Up, k.Down, k.PageUp, k.PageDown)}}
}
