package columns

import (
	"fmt"
	"math"
	"strconv"

	"github.com/kgroups/kgroups/kafka/lag"
)

// TimeLag formats a time lag for a table cell: Missing when unknown (never
// 0, which would claim the consumer is caught up), "0s" when caught up, and
// otherwise the duration, marked "~" when extrapolated beyond the points
// it was estimated from and "≥" when it is only a lower bound.
func TimeLag(tl lag.TimeLag) string {
	switch tl.Kind {
	case lag.TimeLagUnknown:
		return Missing
	case lag.TimeLagCaughtUp:
		return "0s"
	case lag.TimeLagExtrapolated:
		return "~" + Seconds(tl.Seconds)
	case lag.TimeLagAtLeast:
		return "≥" + Seconds(tl.Seconds)
	}
	return Seconds(tl.Seconds)
}

// maxSeconds caps what Seconds formats: far beyond any real lag (about 31
// million years) and still exact in an int64.
const maxSeconds = 1e15

// Seconds formats a number of seconds in whole seconds, compact and without
// spaces so that a cell stays one field: 12s, 3m04s, 2h05m09s, 3d04h10m.
// Fractions are dropped: a lag is "at least this old". Negative values are
// 0s and NaN is Missing.
func Seconds(sec float64) string {
	if math.IsNaN(sec) {
		return Missing
	}
	if sec < 0 {
		sec = 0
	}
	s := int64(math.Min(sec, maxSeconds))
	d, h, m := s/86400, s%86400/3600, s%3600/60
	s %= 60
	switch {
	case d > 0:
		return fmt.Sprintf("%dd%02dh%02dm", d, h, m)
	case h > 0:
		return fmt.Sprintf("%dh%02dm%02ds", h, m, s)
	case m > 0:
		return fmt.Sprintf("%dm%02ds", m, s)
	}
	return strconv.FormatInt(s, 10) + "s"
}

// Rate formats messages per second with one decimal, or Missing for
// lag.UnknownRate (fewer than two polls to measure over).
func Rate(r float64) string {
	if r < 0 || math.IsNaN(r) || math.IsInf(r, 0) {
		return Missing
	}
	return strconv.FormatFloat(r, 'f', 1, 64)
}
