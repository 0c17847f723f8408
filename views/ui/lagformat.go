package ui

import (
	"github.com/charmbracelet/lipgloss"

	"github.com/kgroups/kgroups/kafka/lag"
)

// Severity is the style for a verdict: green OK, amber WARN (NO-COMMITS
// too), red ERR.
func (s *Styles) Severity(sev lag.Severity) *lipgloss.Style {
	switch sev {
	case lag.SeverityOK:
		return &s.OK
	case lag.SeverityWarn:
		return &s.Warn
	}
	return &s.Error
}

// Health is the style for a group's verdict (nil while unknown or
// judging); its text is v.Text().
func (s *Styles) Health(v *lag.Verdict) *lipgloss.Style {
	sev, ok := v.Decided()
	if !ok {
		return nil
	}
	return s.Severity(sev)
}

// PartitionHealth is the style for a partition's status (nil while
// unknown); its text is p.Text(window).
func (s *Styles) PartitionHealth(p *lag.PartitionHealth, window int) *lipgloss.Style {
	if p.Text(window) == lag.NoVerdict {
		return nil
	}
	return s.Severity(p.Status.Severity())
}
