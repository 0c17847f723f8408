package format

import (
	"math"
	"strconv"

	"github.com/kgroups/kgroups/kafka/lag"
)

// Missing is what a cell shows for a value that is not known.
const Missing = "-"

// Offset formats an offset, or Missing for kafka.NoOffset (any negative
// offset).
func Offset(o int64) string {
	if o < 0 {
		return Missing
	}
	return strconv.FormatInt(o, 10)
}

// Count is n followed by the noun in the right number: "1 member",
// "3 members".
func Count(n int, one, many string) string {
	return strconv.Itoa(n) + " " + Noun(n, one, many)
}

// Noun is one when n is 1, else many.
func Noun[N int | int32 | int64](n N, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Rate formats messages per second in at most five cells: one decimal
// below 10, whole numbers below 1000, then k, M, G and T. Unknown rates
// (negative or NaN) are Missing.
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
// "keeping up" (a small lag at equal rates), "catching up in 4m05s"
// ("catching up in more than a day" past lag.MaxCatchUpSeconds: an
// estimate that long is no estimate), "falling behind 12 msg/s" or "not
// catching up" (a larger lag at equal rates); "" when unknown.
func CatchUp(c lag.CatchUp) string {
	switch c.State {
	case lag.CaughtUp:
		return "caught up"
	case lag.KeepingUp:
		return "keeping up"
	case lag.CatchingUp:
		if c.Capped || c.Seconds > lag.MaxCatchUpSeconds || math.IsNaN(c.Seconds) {
			return "catching up in more than a day"
		}
		return "catching up in " + Span(Seconds(c.Seconds))
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
