package ui

import (
	"math"
	"strconv"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/kgroups/kgroups/kafka/lag"
)

// Missing is what a cell shows for a value that is not known.
const Missing = "-"

// Span formats a time lag or a time to catch up: Age's units up to a day
// ("12s", "3m04s", "2h05m"), then days and hours ("3d04h"), so that a
// consumer weeks behind still fits a narrow column. It allocates only the
// result, as it runs for every row on screen.
func Span(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	var buf [24]byte
	b := buf[:0]
	two := func(b []byte, n int64) []byte { return append(b, byte('0'+n/10), byte('0'+n%10)) }
	switch {
	case d < time.Minute:
		b = append(strconv.AppendInt(b, int64(d/time.Second), 10), 's')
	case d < time.Hour:
		b = append(strconv.AppendInt(b, int64(d/time.Minute), 10), 'm')
		b = append(two(b, int64(d%time.Minute/time.Second)), 's')
	case d < 24*time.Hour:
		b = append(strconv.AppendInt(b, int64(d/time.Hour), 10), 'h')
		b = append(two(b, int64(d%time.Hour/time.Minute)), 'm')
	default:
		b = append(strconv.AppendInt(b, int64(d/(24*time.Hour)), 10), 'd')
		b = append(two(b, int64(d%(24*time.Hour)/time.Hour)), 'h')
	}
	return string(b)
}

// seconds turns a float of seconds into a Duration, saturating instead of
// overflowing for absurd values.
func seconds(s float64) time.Duration {
	if s <= 0 || math.IsNaN(s) {
		return 0
	}
	if s >= float64(math.MaxInt64/int64(time.Second)) {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(s * float64(time.Second))
}

// TimeLag formats a time lag with a mark that says how it was obtained, so
// that an estimate never reads as a measurement: no mark when interpolated
// from log-end growth, "~" when extrapolated past the oldest poll, "≥" (or
// ">=") when it is a lower bound, "=" when read from the record itself, and
// "-" when unknown. A caught-up partition is "0s".
func TimeLag(t lag.TimeLag, g Glyphs) string {
	var mark string
	switch t.Kind {
	case lag.TimeLagUnknown:
		return Missing
	case lag.TimeLagCaughtUp:
		return "0s"
	case lag.TimeLagExtrapolated:
		mark = "~"
	case lag.TimeLagAtLeast:
		mark = g.AtLeast
	case lag.TimeLagExact:
		mark = "="
	}
	span := Span(seconds(t.Seconds))
	if mark == "" {
		return span
	}
	return mark + span
}

// Rate formats messages per second in at most five cells: one decimal
// below 10, whole numbers below 1000, then k and M. Unknown rates are "-".
func Rate(r float64) string {
	switch {
	case r < 0 || math.IsNaN(r):
		return Missing
	case r < 9.95:
		return strconv.FormatFloat(r, 'f', 1, 64)
	case r < 999.5:
		return strconv.FormatFloat(r, 'f', 0, 64)
	}
	for _, u := range []struct {
		div  float64
		unit string
	}{{1e3, "k"}, {1e6, "M"}, {1e9, "G"}} {
		v := r / u.div
		switch {
		case v < 9.95:
			return strconv.FormatFloat(v, 'f', 1, 64) + u.unit
		case v < 999.5:
			return strconv.FormatFloat(v, 'f', 0, 64) + u.unit
		}
	}
	return strconv.FormatFloat(r/1e12, 'f', 0, 64) + "T"
}

// CatchUp words a consumer's race with its producers: "caught up",
// "catching up in 4m05s", "falling behind 12 msg/s" or "not catching up"
// (both rates equal); "" when unknown.
func CatchUp(c lag.CatchUp) string {
	switch c.State {
	case lag.CaughtUp:
		return "caught up"
	case lag.CatchingUp:
		return "catching up in " + Span(seconds(c.Seconds))
	case lag.FallingBehind:
		// Below what Rate can show (it would read "falling behind
		// 0.0 msg/s"), the two rates are equal for all a reader can tell.
		if c.Behind < 0.05 {
			return "not catching up"
		}
		return "falling behind " + Rate(c.Behind) + " msg/s"
	}
	return ""
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

// Health is the style for a group's verdict (nil while unknown or
// pending); its text is v.Text().
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
