package table

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/views/ui"
)

// Navigate applies the movement keys (up, down, page up and down, first and
// last row) to a table of n rows shown height rows at a time, and reports
// whether msg was one of them. Every table moves the same way, with the
// same keys.
func (w *Window) Navigate(msg tea.KeyMsg, k *ui.MoveKeys, n, height int) bool {
	switch {
	case key.Matches(msg, k.Up):
		w.Move(-1, n, height)
	case key.Matches(msg, k.Down):
		w.Move(1, n, height)
	case key.Matches(msg, k.PageUp):
		w.Page(-1, n, height)
	case key.Matches(msg, k.PageDown):
		w.Page(1, n, height)
	case key.Matches(msg, k.Top):
		w.Top()
	case key.Matches(msg, k.Bottom):
		w.Bottom(n, height)
	default:
		return false
	}
	return true
}
