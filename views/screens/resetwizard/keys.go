package resetwizard

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/kgroups/kgroups/views/ui"
)

// Keys are the wizard's bindings, in one place so that its hint line is
// generated from them. The wizard reads text (parameters, the group's name),
// so it captures every key while open; these and the dialog frame's
// scrolling keys are all it answers to.
type Keys struct {
	// Up and Down move through the scenarios; on the other steps the
	// arrows scroll.
	Up       key.Binding
	Down     key.Binding
	Choose   key.Binding
	NextItem key.Binding
	Edit     key.Binding
	Apply    key.Binding
	Cancel   key.Binding
	Close    key.Binding
}

// DefaultKeys returns the wizard's bindings; their help draws arrows with
// g, so ASCII terminals get ASCII.
func DefaultKeys(g ui.Glyphs) Keys {
	return Keys{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp(g.Up, "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp(g.Down, "down")),
		Choose:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "next")),
		NextItem: key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab", "next field")),
		Edit:     key.NewBinding(key.WithKeys("b", "backspace"), key.WithHelp("b", "edit")),
		Apply:    key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "apply")),
		Cancel:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Close:    key.NewBinding(key.WithKeys("esc", "enter"), key.WithHelp("enter/esc", "close")),
	}
}

// hints returns the bindings worth showing at step s (noop: the preview
// changes nothing, so enter closes). The frame adds its
// scrolling keys when the text does not fit, except on the scenario step,
// whose arrows choose.
func (k *Keys) hints(s step, protected, noop, edit bool) []key.Binding {
	choose := k.Choose
	switch s {
	case stepScenario:
		choose.SetHelp("enter", "choose")
		return []key.Binding{k.Up, k.Down, choose, k.Cancel}
	case stepParams:
		choose.SetHelp("enter", "preview")
		return []key.Binding{choose, k.NextItem, k.Cancel}
	case stepPlanning:
		return []key.Binding{k.Cancel}
	case stepPreview:
		choose.SetHelp("enter", "continue")
		if noop {
			choose.SetHelp("enter", "close")
		}
		if !edit {
			// Nothing was typed to edit (deleting a group).
			return []key.Binding{choose, k.Cancel}
		}
		return []key.Binding{choose, k.Edit, k.Cancel}
	case stepConfirm:
		if protected {
			choose.SetHelp("enter", "apply")
			return []key.Binding{choose, k.Cancel}
		}
		back := k.Edit
		back.SetHelp("b", "back")
		return []key.Binding{k.Apply, back, k.Cancel}
	case stepResult:
		return []key.Binding{k.Close}
	}
	return nil
}
