// Package keyhelp is the help screen. It is generated from the bindings and the
// actions of the screen it covers and the root's global keys, so it cannot
// drift from what the keys do.
package keyhelp

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

// Model is the help screen.
type Model struct {
	ui.Common
	keys    []ui.Section
	actions []ui.Action
	extra   []ui.Section
	offset  int
	lines   []string // laid out for the current width
}

// New builds the help for a screen: its keys (its bindings and the global
// ones), its actions (marked when a read-only context disables them), and
// extra sections that are not keys of the screen, such as the `:` commands
// and the legend.
func New(c ui.Common, keys []ui.Section, actions []ui.Action, extra ...ui.Section) *Model {
	m := &Model{Common: c, keys: keys, actions: actions, extra: extra}
	m.layout()
	return m
}

// Bindings implements ui.Component: the help scrolls.
func (m *Model) Bindings() []ui.Section { return []ui.Section{m.Move.Section()} }

// ShortHelp implements ui.Component: how to scroll, when the help is taller
// than the screen.
func (m *Model) ShortHelp() []key.Binding {
	if !m.scrolls() {
		return nil
	}
	return []key.Binding{key.NewBinding(key.WithKeys("j", "k", "down", "up", "pgdown", "pgup"), key.WithHelp("j/k pgdn", "scroll"))}
}

// scrolls reports whether the help is taller than the screen. Then its
// last line is kept for the "more" mark, and the text gets one line less.
func (m *Model) scrolls() bool { return len(m.lines) > m.Height }

// rows is the number of lines of text on screen.
func (m *Model) rows() int {
	if m.scrolls() {
		return max(1, m.Height-1)
	}
	return max(m.Height, 0)
}

// maxOffset is the offset that shows the last line.
func (m *Model) maxOffset() int { return max(0, len(m.lines)-m.rows()) }

// Capturing implements ui.Component.
func (m *Model) Capturing() bool { return false }

// Actions implements ui.Component.
func (m *Model) Actions() []ui.Action { return nil }

// SetSize implements ui.Component.
func (m *Model) SetSize(w, h int) {
	m.Common.SetSize(w, h)
	m.layout()
}

// Update scrolls when the help is taller than the screen.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	maxOff := m.maxOffset()
	k := &m.Move
	switch {
	case key.Matches(km, k.Up):
		m.offset--
	case key.Matches(km, k.Down):
		m.offset++
	case key.Matches(km, k.PageUp):
		m.offset -= m.rows()
	case key.Matches(km, k.PageDown):
		m.offset += m.rows()
	case key.Matches(km, k.Top):
		m.offset = 0
	case key.Matches(km, k.Bottom):
		m.offset = maxOff
	}
	m.offset = min(max(m.offset, 0), maxOff)
	return nil
}

// View implements ui.Component. A help taller than the screen ends with
// the "more" mark while there is more below; at the end the mark goes.
func (m *Model) View() string {
	end := min(len(m.lines), m.offset+m.rows())
	text := strings.Join(m.lines[min(m.offset, end):end], "\n")
	if !m.scrolls() {
		return text
	}
	var mark string
	if end < len(m.lines) {
		mark = m.Styles.Warn.Render(m.Glyphs.More) + m.Styles.Dim.Render(" ("+strconv.Itoa(end)+" of "+strconv.Itoa(len(m.lines))+" lines; j/k, pgup/pgdn, g/G scroll)")
	}
	return text + strings.Repeat("\n", m.rows()-(end-min(m.offset, end))) + "\n" + table.FitLine(mark, m.Width, m.Glyphs.Ellipsis)
}

// block is one titled column of the help.
type block struct {
	lines []string
	width int
}

// layout renders the sections as blocks and places them side by side,
// wrapping to a new band when the width runs out.
func (m *Model) layout() {
	var blocks []block
	for _, s := range m.keys {
		if b, ok := m.block(s.Title, s.Bindings, nil); ok {
			blocks = append(blocks, b)
		}
	}
	if len(m.actions) > 0 {
		bs := make([]key.Binding, len(m.actions))
		notes := make([]string, len(m.actions))
		for i, a := range m.actions {
			bs[i] = key.NewBinding(key.WithKeys(a.Key.Keys()...), key.WithHelp(a.Key.Help().Key, a.Name))
			if r := a.DisabledReason(m.ReadOnly); r != "" && r == ui.ReadOnlyReason {
				notes[i] = " (disabled: " + r + ")"
			}
		}
		b, _ := m.block("Actions", bs, notes)
		blocks = append(blocks, b)
	}
	// The extra sections (commands, legends) come after the keys and
	// actions: what the keys do matters first.
	for _, s := range m.extra {
		if b, ok := m.block(s.Title, s.Bindings, nil); ok {
			blocks = append(blocks, b)
		}
	}

	const gap = 4
	m.lines = m.lines[:0]
	for i := 0; i < len(blocks); {
		// Fill a band with as many blocks as fit.
		j, w := i, 0
		for j < len(blocks) && (j == i || w+gap+blocks[j].width <= m.Width) {
			if j > i {
				w += gap
			}
			w += blocks[j].width
			j++
		}
		if i > 0 {
			m.lines = append(m.lines, "")
		}
		rows := 0
		for k := i; k < j; k++ {
			rows = max(rows, len(blocks[k].lines))
		}
		for r := 0; r < rows; r++ {
			var lb strings.Builder
			for k := i; k < j; k++ {
				if k > i {
					table.Pad(&lb, gap)
				}
				cell := ""
				if r < len(blocks[k].lines) {
					cell = blocks[k].lines[r]
				}
				lb.WriteString(cell)
				if k < j-1 {
					table.Pad(&lb, blocks[k].width-lipgloss.Width(cell))
				}
			}
			m.lines = append(m.lines, table.FitLine(lb.String(), m.Width, m.Glyphs.Ellipsis))
		}
		i = j
	}
	m.offset = min(m.offset, m.maxOffset())
}

// block lays out one section; ok is false when none of its bindings is
// enabled, and the section is left out.
func (m *Model) block(title string, bs []key.Binding, notes []string) (b block, ok bool) {
	kw := 0
	for _, b := range bs {
		if shown(b) {
			kw = max(kw, format.Width(b.Help().Key))
		}
	}
	b = block{lines: []string{m.Styles.HelpTitle.Render(title)}, width: format.Width(title)}
	for i, kb := range bs {
		if !shown(kb) {
			continue
		}
		ok = true
		k, d := kb.Help().Key, kb.Help().Desc
		if notes != nil {
			d += notes[i]
		}
		line := m.Styles.HelpKey.Render(k) + strings.Repeat(" ", kw-format.Width(k)+2) + m.Styles.HelpDesc.Render(d)
		b.lines = append(b.lines, line)
		b.width = max(b.width, kw+2+format.Width(d))
	}
	return b, ok
}

// shown reports whether the help lists b: a disabled key is left out; an
// entry without keys (a legend's) is text, always shown.
func shown(b key.Binding) bool {
	return b.Enabled() || len(b.Keys()) == 0
}
