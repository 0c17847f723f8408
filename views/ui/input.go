package ui

import (
	"strings"
	"unicode"

	tea "github.com/charmbracelet/bubbletea"
)

// Input is a one-line text field for the filter and the command line. It
// edits at the end only (type, Backspace, Ctrl+W, Ctrl+U), which is all a
// filter or a short command needs, and it has no blinking cursor, so it
// never wakes the program up on its own.
type Input struct {
	Prompt string
	value  []rune
}

// Value is the text typed so far.
func (in *Input) Value() string { return string(in.value) }

// SetValue replaces the text.
func (in *Input) SetValue(s string) { in.value = []rune(s) }

// Update applies an editing key and reports whether the text changed. Keys
// that do not edit (Enter, Esc, arrows) are left to the caller.
func (in *Input) Update(msg tea.KeyMsg) bool {
	switch msg.Type {
	case tea.KeyRunes, tea.KeySpace:
		r := msg.Runes
		if msg.Type == tea.KeySpace {
			r = []rune{' '}
		}
		for _, c := range r {
			if unicode.IsPrint(c) {
				in.value = append(in.value, c)
			}
		}
		return len(r) > 0
	case tea.KeyBackspace:
		if len(in.value) == 0 {
			return false
		}
		in.value = in.value[:len(in.value)-1]
		return true
	case tea.KeyCtrlW:
		v := strings.TrimRight(string(in.value), " ")
		i := strings.LastIndexByte(v, ' ')
		in.value = []rune(v[:i+1])
		return true
	case tea.KeyCtrlU:
		changed := len(in.value) > 0
		in.value = in.value[:0]
		return changed
	}
	return false
}

// View renders the prompt, the text and, when focused, a caret.
func (in *Input) View(focused bool, caret string) string {
	if focused {
		return in.Prompt + string(in.value) + caret
	}
	return in.Prompt + string(in.value)
}
