package ui

import (
	"github.com/charmbracelet/lipgloss"

	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/format"
)

// HealthText is a group's verdict as the groups list shows it: "OK",
// "WARN", "ERR " and the worst partition status ("ERR STALL"), or "-"
// while unknown or pending.
func HealthText(h *Health) string {
	sev, ok := h.Verdict()
	switch {
	case !ok:
		return format.Missing
	case sev == lag.SeverityErr:
		return "ERR " + h.Status.String()
	}
	return sev.String()
}

// PartitionHealthText is a partition's status: OK, WARN, STALL, STOP or
// REWIND; "-" for a partition without a known lag, or one that lags while
// its window is not yet full and nothing is wrong so far.
func PartitionHealthText(p *lag.PartitionHealth, window int) string {
	switch {
	case p.Lag < 0:
		return format.Missing
	case p.Status == lag.StatusOK && p.Lag > 0 && p.Observations < window:
		return format.Missing
	}
	return p.Status.String()
}

// Severity is the style for a verdict: green OK, amber WARN, red ERR.
func (s *Styles) Severity(sev lag.Severity) *lipgloss.Style {
	switch sev {
	case lag.SeverityOK:
		return &s.OK
	case lag.SeverityWarn:
		return &s.Warn
	}
	return &s.Error
}

// Health is the style for a group's verdict (nil while unknown).
func (s *Styles) Health(h *Health) *lipgloss.Style {
	sev, ok := h.Verdict()
	if !ok {
		return nil
	}
	return s.Severity(sev)
}

// PartitionHealth is the style for a partition's status (nil while
// unknown).
func (s *Styles) PartitionHealth(p *lag.PartitionHealth, window int) *lipgloss.Style {
	if PartitionHealthText(p, window) == format.Missing {
		return nil
	}
	return s.Severity(p.Status.Severity())
}
