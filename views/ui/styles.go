package ui

import (
	"github.com/charmbracelet/lipgloss"

	"github.com/kgroups/kgroups/kafka"
)

// Theme is the palette. Colours say state: green for healthy, yellow for
// rebalancing or warnings, red for errors, dim for idle.
type Theme struct {
	Accent lipgloss.TerminalColor
	Good   lipgloss.TerminalColor
	Warn   lipgloss.TerminalColor
	Bad    lipgloss.TerminalColor
	Dim    lipgloss.TerminalColor
	Bar    lipgloss.TerminalColor // status bar background
}

// DefaultTheme reads on dark and light terminals alike.
func DefaultTheme() Theme {
	return Theme{
		Accent: lipgloss.AdaptiveColor{Light: "25", Dark: "75"},
		Good:   lipgloss.AdaptiveColor{Light: "28", Dark: "78"},
		Warn:   lipgloss.AdaptiveColor{Light: "130", Dark: "220"},
		Bad:    lipgloss.AdaptiveColor{Light: "160", Dark: "203"},
		Dim:    lipgloss.AdaptiveColor{Light: "246", Dark: "243"},
		Bar:    lipgloss.AdaptiveColor{Light: "254", Dark: "236"},
	}
}

// Styles are every style kgroups renders with, built once from a theme so
// that render loops only apply them.
type Styles struct {
	Title       lipgloss.Style
	Bar         lipgloss.Style
	Label       lipgloss.Style
	Dim         lipgloss.Style
	OK          lipgloss.Style
	Warn        lipgloss.Style
	Error       lipgloss.Style
	TableHeader lipgloss.Style
	Selected    lipgloss.Style
	TabActive   lipgloss.Style
	TabInactive lipgloss.Style
	HelpKey     lipgloss.Style
	HelpDesc    lipgloss.Style
	HelpTitle   lipgloss.Style
	Lag         lipgloss.Style

	StateStable      lipgloss.Style
	StateRebalancing lipgloss.Style
	StateIdle        lipgloss.Style
	StateOther       lipgloss.Style
}

// NewStyles builds the styles for renderer r. Without colour (NO_COLOR) only
// attributes remain: bold headers, a reversed selection.
func NewStyles(r *lipgloss.Renderer, t Theme, color bool) *Styles {
	fg := func(c lipgloss.TerminalColor) lipgloss.Style {
		s := r.NewStyle()
		if color {
			s = s.Foreground(c)
		}
		return s
	}
	bar := r.NewStyle()
	if color {
		bar = bar.Background(t.Bar)
	}
	return &Styles{
		Title:       fg(t.Accent).Bold(true),
		Bar:         bar,
		Label:       fg(t.Dim),
		Dim:         fg(t.Dim),
		OK:          fg(t.Good),
		Warn:        fg(t.Warn),
		Error:       fg(t.Bad).Bold(true),
		TableHeader: r.NewStyle().Bold(true),
		Selected:    r.NewStyle().Reverse(true),
		TabActive:   fg(t.Accent).Bold(true).Underline(true),
		TabInactive: fg(t.Dim),
		HelpKey:     fg(t.Accent).Bold(true),
		HelpDesc:    r.NewStyle(),
		HelpTitle:   r.NewStyle().Bold(true).Underline(true),
		Lag:         fg(t.Warn),

		StateStable:      fg(t.Good),
		StateRebalancing: fg(t.Warn),
		StateIdle:        fg(t.Dim),
		StateOther:       r.NewStyle(),
	}
}

// State is the style for a group state; a group with an error is red
// whatever its state.
func (s *Styles) State(state string, failed bool) *lipgloss.Style {
	if failed {
		return &s.Error
	}
	switch state {
	case kafka.StateStable:
		return &s.StateStable
	case kafka.StatePreparingRebalance, kafka.StateCompletingRebalance, kafka.StateAssigning, kafka.StateReconciling:
		return &s.StateRebalancing
	case kafka.StateEmpty, kafka.StateDead:
		return &s.StateIdle
	}
	return &s.StateOther
}
