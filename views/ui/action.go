package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Action is an operation a screen offers, described as data so that the root
// enforces the rules for every action in one place and the help lists them.
// Actions that change the cluster (reset, delete, remove members) set
// Dangerous: a read-only context disables them all.
type Action struct {
	// Name is what help and messages call the action.
	Name string
	// Key is the screen's binding that triggers it; the help lists the
	// action under that key.
	Key key.Binding
	// Dangerous marks actions that write to the cluster.
	Dangerous bool
	// Unavailable, when set, says why the action cannot run right now
	// (for example, nothing is selected); "" means it can.
	Unavailable func() string
	// Run starts the action. It runs in Update, so it must not block: it
	// returns a Cmd for anything slow.
	Run func() tea.Cmd
}

// ReadOnlyReason is why a Dangerous action is disabled in a read-only
// context.
const ReadOnlyReason = "the context is read-only"

// DisabledReason says why the action cannot run, or "" when it can.
func (a Action) DisabledReason(readOnly bool) string {
	if a.Dangerous && readOnly {
		return ReadOnlyReason
	}
	if a.Unavailable != nil {
		return a.Unavailable()
	}
	return ""
}

// Dispatch runs the first action whose key matches msg. A disabled action
// does not run; the user is told why instead. handled is false when no
// action matches.
func Dispatch(actions []Action, msg tea.KeyMsg, readOnly bool) (cmd tea.Cmd, handled bool) {
	for _, a := range actions {
		if !key.Matches(msg, a.Key) {
			continue
		}
		if reason := a.DisabledReason(readOnly); reason != "" {
			text := a.Name + ": " + reason
			return func() tea.Msg { return FlashMsg{Text: text, Error: true} }, true
		}
		if a.Run == nil {
			return nil, true
		}
		return a.Run(), true
	}
	return nil, false
}
