// Package record is the record viewer: a read-only screen showing one
// record of a partition (at first the one at a group's committed offset,
// the next the group will process), with its fields and its value as text,
// pretty JSON or hex, and keys to step to the next or previous record.
//
// Records are read off the UI loop: each read is a request (ui.Ask) whose
// work, a Reader the root gives the screen, runs in a Cmd; a late answer
// to an older read is dropped. A record larger than syncRender is laid out
// off the loop too (a request again, cancelled when a newer layout or
// leaving the screen makes it moot), so keys are answered while it works.
package record

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/render"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/widgets/table"
)

// Reader reads records for the viewer; the root gives one bound to the
// connection in use, with the program's context and the request timeout.
// It runs in a Cmd, never in Update.
type Reader func(req kafka.PeekRequest) (kafka.PeekResult, error)

// prevWindow is how many offsets before the record on show "previous"
// reads, to step over offsets that hold no record (markers, compaction).
const prevWindow = 20

// syncRender is the largest record (key, value and headers) laid out on
// the UI loop; a larger one is laid out in a Cmd. The rendering is bounded
// (format.RenderValue), but wrapping a megabyte of escapes still takes
// longer than a key may wait.
const syncRender = 16 << 10

// formats are the value formats `f` cycles through.
var formats = []format.ValueFormat{format.ValueAuto, format.ValueText, format.ValueJSON, format.ValueHex}

// Model is the record viewer.
type Model struct {
	ui.Common
	target ui.OpenRecordMsg
	read   Reader
	keys   keyMap

	pending uint64 // the read whose answer is awaited; 0 for none
	loading bool

	part  *kafka.PeekPartition // the partition as last read
	rec   *kafka.PeekRecord    // the record on show, nil for none
	err   error                // why no record is on show, or a note
	note  string               // a short note from the last step
	fmtIx int
	wrap  bool

	offset int      // the first line on show
	lines  []string // laid out for the current width

	body      []string // the record's lines, wrapped for bodyWidth
	bodyWidth int      // the width body was laid out for; -1 for none
	rendering uint64   // the layout request awaited; 0 for none
	cancel    context.CancelFunc
}

type keyMap struct {
	Next, Prev, Wrap, Format key.Binding
}

// New builds the viewer on target and returns it with its first read.
func New(c ui.Common, target ui.OpenRecordMsg, read Reader) (*Model, tea.Cmd) {
	m := &Model{
		Common:    c,
		target:    target,
		read:      read,
		wrap:      true,
		bodyWidth: -1,
		keys: keyMap{
			Next:   key.NewBinding(key.WithKeys("n", "right"), key.WithHelp("n", "next record")),
			Prev:   key.NewBinding(key.WithKeys("N", "left"), key.WithHelp("N", "previous record")),
			Wrap:   key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "wrap long lines")),
			Format: key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "value as auto/text/json/hex")),
		},
	}
	cmd := m.load(kafka.PeekRequest{Group: target.Group, Topic: target.Topic, Partitions: []int32{target.Partition}, Offset: target.Offset, Count: 1}, -1)
	m.layout()
	return m, cmd
}

// readMsg answers one read.
type readMsg struct {
	id   uint64
	prev int64 // for a step back: the offset stepped back from; -1 otherwise
	res  kafka.PeekResult
	err  error
}

func (r readMsg) RequestID() uint64 { return r.id }

// load asks for req; from, when not -1, says it is a step back from that
// offset (the record on show, or the log end when none is).
func (m *Model) load(req kafka.PeekRequest, from int64) tea.Cmd {
	read := m.read
	prev := from
	id, cmd := ui.Ask(m, func(id uint64) ui.Reply {
		res, err := read(req)
		return readMsg{id: id, prev: prev, res: res, err: err}
	})
	m.pending, m.loading = id, true
	return cmd
}

// renderMsg answers one layout of the record.
type renderMsg struct {
	id   uint64
	body []string
}

func (r renderMsg) RequestID() uint64 { return r.id }

// bodyKey is what a layout of the record depends on.
type bodyKey struct {
	rec   *kafka.PeekRecord
	fmtIx int
	wrap  bool
	width int
}

// renderBody lays out the record: its lines (render.RecordLines, bounded)
// wrapped to width when wrap is on. It stops early, returning false, when
// ctx ends.
func renderBody(ctx context.Context, k bodyKey) ([]string, bool) {
	var out []string
	for i, l := range render.RecordLines(k.rec, render.PeekOptions{Format: formats[k.fmtIx], MaxBytes: format.DefaultMaxValueBytes}) {
		if i%64 == 0 && ctx.Err() != nil {
			return nil, false
		}
		if k.wrap {
			out = append(out, hardWrap(l, k.width)...)
		} else {
			out = append(out, l)
		}
	}
	return out, true
}

// recordSize is the bytes of rec a layout reads.
func recordSize(rec *kafka.PeekRecord) int {
	n := len(rec.Key) + len(rec.Value)
	for _, h := range rec.Headers {
		n += len(h.Key) + len(h.Value)
	}
	return n
}

// rerender lays the record out again for the current format, wrap and
// width: at once for a small record, else in a Cmd, cancelling any layout
// still running. The answer goes to Update as a renderMsg.
func (m *Model) rerender() tea.Cmd {
	m.stopRender()
	m.body, m.bodyWidth = nil, -1
	if m.rec == nil {
		m.layout()
		return nil
	}
	k := bodyKey{rec: m.rec, fmtIx: m.fmtIx, wrap: m.wrap, width: m.Width}
	if recordSize(m.rec) <= syncRender {
		m.body, _ = renderBody(context.Background(), k)
		m.bodyWidth = k.width
		m.layout()
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	id, cmd := ui.Ask(m, func(id uint64) ui.Reply {
		defer cancel()
		body, ok := renderBody(ctx, k)
		if !ok {
			body = nil
		}
		return renderMsg{id: id, body: body}
	})
	m.rendering, m.cancel = id, cancel
	m.layout()
	return cmd
}

func (m *Model) stopRender() {
	if m.cancel != nil {
		m.cancel()
	}
	m.rendering, m.cancel = 0, nil
}

// Close implements the root's hook for a screen taken off the stack: it
// cancels a layout still running and lets go of the record.
func (m *Model) Close() {
	m.stopRender()
	m.rec, m.part, m.body, m.lines = nil, nil, nil, nil
}

// Resized implements the root's hook after a resize: a large record is
// laid out again for the new width off the loop.
func (m *Model) Resized() tea.Cmd {
	if m.rec == nil || !m.wrap || m.bodyWidth == m.Width || m.rendering != 0 {
		return nil
	}
	return m.rerender()
}

// Target is what the viewer was opened on.
func (m *Model) Target() ui.OpenRecordMsg { return m.target }

// Capturing implements ui.Component.
func (m *Model) Capturing() bool { return false }

// Actions implements ui.Component: the viewer only reads.
func (m *Model) Actions() []ui.Action { return nil }

// Bindings implements ui.Component.
func (m *Model) Bindings() []ui.Section {
	k := &m.keys
	return []ui.Section{
		m.Move.Section(),
		{Title: "Record", Bindings: []key.Binding{k.Next, k.Prev, k.Format, k.Wrap}},
	}
}

// ShortHelp implements ui.Component.
func (m *Model) ShortHelp() []key.Binding {
	short := func(b key.Binding, k, help string) key.Binding {
		return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(k, help))
	}
	k := &m.keys
	return []key.Binding{
		short(k.Next, "n", "next"), short(k.Prev, "N", "prev"),
		short(k.Format, "f", "format"),
		short(k.Wrap, "w", "wrap"),
		key.NewBinding(key.WithKeys("j", "k"), key.WithHelp("j/k", "scroll")),
	}
}

// SetSize implements ui.Component. A small record is laid out again at
// once; a large one when the root calls Resized.
func (m *Model) SetSize(w, h int) {
	m.Common.SetSize(w, h)
	if m.rec != nil && m.wrap && m.bodyWidth != w && recordSize(m.rec) <= syncRender {
		m.rerender()
		return
	}
	m.layout()
}

// Update implements ui.Component.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case readMsg:
		return m.onRead(msg)
	case renderMsg:
		if msg.id != m.rendering {
			return nil
		}
		m.rendering, m.cancel = 0, nil
		m.body, m.bodyWidth = msg.body, m.Width
		m.layout()
		return nil
	case tea.KeyMsg:
		return m.onKey(msg)
	}
	return nil
}

func (m *Model) onRead(msg readMsg) tea.Cmd {
	if msg.id != m.pending {
		return nil
	}
	m.pending, m.loading = 0, false
	m.note = ""
	if msg.err != nil {
		m.err = msg.err
		m.layout()
		return nil
	}
	if len(msg.res.Partitions) != 1 {
		m.err = errors.New("the partition was not read")
		m.layout()
		return nil
	}
	p := msg.res.Partitions[0]
	recs := p.Records
	if msg.prev >= 0 {
		// A step back read a window: show its last record before the
		// one that was on show.
		var best *kafka.PeekRecord
		for i := range recs {
			if recs[i].Offset < msg.prev {
				best = &recs[i]
			}
		}
		if best == nil {
			m.note = fmt.Sprintf("no record in the %d offsets before %d", prevWindow, msg.prev)
			m.layout()
			return nil
		}
		m.part, m.rec, m.err, m.offset = &p, best, nil, 0
		return m.rerender()
	}
	var gap *kafka.NoRecordAtError
	switch {
	case len(recs) > 0:
		m.part, m.rec, m.offset = &p, &recs[0], 0
		m.err = nil
		if errors.As(p.Err, &gap) {
			m.note = p.Err.Error()
		}
		return m.rerender()
	case m.rec != nil:
		// A step forward found nothing: keep the record on show.
		m.note = p.Err.Error()
	default:
		m.part, m.err = &p, p.Err
	}
	m.layout()
	return nil
}

func (m *Model) onKey(km tea.KeyMsg) tea.Cmd {
	k := &m.keys
	switch {
	case key.Matches(km, k.Next):
		if m.rec == nil {
			return nil
		}
		return m.load(kafka.PeekRequest{Group: m.target.Group, Topic: m.target.Topic, Partitions: []int32{m.target.Partition}, Offset: m.rec.Offset + 1, Count: 1}, -1)
	case key.Matches(km, k.Prev):
		if m.part == nil {
			return nil
		}
		// From the record on show, or, at the log end (the group has
		// consumed everything: no record to show), from the log end: the
		// last record written.
		from := m.part.LogEnd
		if m.rec != nil {
			from = m.rec.Offset
		}
		start := max(from-prevWindow, m.part.LogStart, 0)
		if start >= from {
			if m.rec == nil {
				m.note = "the log is empty"
			} else {
				m.note = fmt.Sprintf("offset %d is the first in the log", from)
			}
			m.layout()
			return nil
		}
		return m.load(kafka.PeekRequest{Group: m.target.Group, Topic: m.target.Topic, Partitions: []int32{m.target.Partition}, Offset: start, Count: int(from - start)}, from)
	case key.Matches(km, k.Wrap):
		m.wrap = !m.wrap
		return m.rerender()
	case key.Matches(km, k.Format):
		m.fmtIx = (m.fmtIx + 1) % len(formats)
		return m.rerender()
	default:
		m.scroll(km)
	}
	return nil
}

func (m *Model) scroll(km tea.KeyMsg) {
	k := &m.Move
	rows := m.rows()
	switch {
	case key.Matches(km, k.Up):
		m.offset--
	case key.Matches(km, k.Down):
		m.offset++
	case key.Matches(km, k.PageUp):
		m.offset -= rows
	case key.Matches(km, k.PageDown):
		m.offset += rows
	case key.Matches(km, k.Top):
		m.offset = 0
	case key.Matches(km, k.Bottom):
		m.offset = len(m.lines)
	}
	m.offset = min(max(m.offset, 0), max(0, len(m.lines)-rows))
}

// rows is the number of body lines under the title line.
func (m *Model) rows() int { return max(1, m.Height-1) }

// title is the viewer's first line: where it reads, and its modes.
func (m *Model) title() string {
	s := m.Styles
	t := m.target
	var b strings.Builder
	b.WriteString(s.Title.Render("Record"))
	b.WriteString(m.Glyphs.Sep)
	b.WriteString(format.Sanitize(t.Group))
	b.WriteString(m.Glyphs.Sep)
	fmt.Fprintf(&b, "%s/%d", format.Sanitize(t.Topic), t.Partition)
	if m.part != nil {
		b.WriteString(m.Glyphs.Sep)
		b.WriteString(s.Label.Render("committed "))
		b.WriteString(format.Offset(m.part.Committed))
		b.WriteString(m.Glyphs.Sep)
		b.WriteString(s.Label.Render("log "))
		b.WriteString(format.Offset(m.part.LogStart) + ".." + format.Offset(m.part.LogEnd))
	}
	b.WriteString(m.Glyphs.Sep)
	b.WriteString(s.Dim.Render(formats[m.fmtIx].String()))
	if m.wrap {
		b.WriteString(s.Dim.Render(", wrap"))
	}
	return b.String()
}

// layout puts the lines on show together for the current width: the
// notes, plain terminal-safe text wrapped (or not) first and styled
// after, then the record's body as last laid out (rerender).
func (m *Model) layout() {
	type line struct {
		text  string
		style *lipgloss.Style
	}
	var raw []line
	st := m.Styles
	if m.loading && m.rec == nil {
		raw = append(raw, line{"reading the record…", &st.Dim})
	}
	if m.note != "" {
		raw = append(raw, line{format.Sanitize(m.note), &st.Warn})
	}
	if m.err != nil {
		raw = append(raw, line{format.Sanitize(m.err.Error()), &st.Error})
	}
	if m.rec != nil {
		if m.part != nil && m.rec.Offset == m.part.Committed {
			raw = append(raw, line{"the record at the group's committed offset: the next one it will process", &st.Dim})
		}
		if m.rendering != 0 {
			raw = append(raw, line{fmt.Sprintf("laying out the record (%s)…", format.Count(recordSize(m.rec), "byte", "bytes")), &st.Dim})
		}
	}
	m.lines = m.lines[:0]
	for _, l := range raw {
		parts := []string{l.text}
		if m.wrap {
			parts = hardWrap(l.text, m.Width)
		}
		for _, p := range parts {
			if l.style != nil {
				p = l.style.Render(p)
			}
			m.lines = append(m.lines, p)
		}
	}
	m.lines = append(m.lines, m.body...)
	m.offset = min(max(m.offset, 0), max(0, len(m.lines)-m.rows()))
}

// hardWrap cuts s into lines of at most width cells, keeping every space
// (a hex dump's columns, JSON's indent); a wide character is never split.
func hardWrap(s string, width int) []string {
	if width < 2 || format.Width(s) <= width {
		return []string{s}
	}
	var out []string
	var b strings.Builder
	w := 0
	for _, r := range s {
		rw := format.Width(string(r))
		if w+rw > width && w > 0 {
			out = append(out, b.String())
			b.Reset()
			w = 0
		}
		b.WriteRune(r)
		w += rw
	}
	return append(out, b.String())
}

// View implements ui.Component: the title line, then the visible lines.
func (m *Model) View() string {
	var b strings.Builder
	b.WriteString(table.FitLine(m.title(), m.Width, m.Glyphs.Ellipsis))
	end := min(len(m.lines), m.offset+m.rows())
	for _, l := range m.lines[min(m.offset, end):end] {
		b.WriteByte('\n')
		b.WriteString(table.FitLine(l, m.Width, m.Glyphs.Ellipsis))
	}
	return b.String()
}
