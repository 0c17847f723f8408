package format

import (
	"math"
	"strconv"
	"time"

	"github.com/kgroups/kgroups/kafka/lag"
)

// Span formats a span of time (a time lag, an age, a time to catch up) in
// at most two units: "12s", "3m04s", "2h05m", then days and hours ("3d04h"),
// so that a consumer weeks behind still fits a narrow column. Negative
// spans are 0s. It allocates only the result, as it runs for every row on
// screen.
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

// Short formats a span in its largest whole unit ("12s", "3m", "2h", "4d"),
// for columns too narrow for Span.
func Short(d time.Duration) string {
	d = max(d, 0)
	switch {
	case d < time.Minute:
		return strconv.Itoa(int(d/time.Second)) + "s"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	case d < 24*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	}
	return strconv.Itoa(int(d/(24*time.Hour))) + "d"
}

// Took formats how long a request took: milliseconds below ten seconds,
// then as Span.
func Took(d time.Duration) string {
	if d < 10*time.Second {
		return strconv.FormatInt(max(d, 0).Milliseconds(), 10) + "ms"
	}
	return Span(d)
}

// Lasted formats how long something lasted next to Span's ages ("took
// 5.0s, 12m45s ago"): seconds with one decimal below a minute ("0.8s",
// "5.0s", "12.5s"), then as Span, so a line never mixes milliseconds with
// minutes.
func Lasted(d time.Duration) string {
	d = max(d, 0)
	tenths := int64((d + 50*time.Millisecond) / (100 * time.Millisecond))
	if tenths >= 600 {
		return Span(time.Duration(tenths) * 100 * time.Millisecond)
	}
	return strconv.FormatInt(tenths/10, 10) + "." + strconv.FormatInt(tenths%10, 10) + "s"
}

// Seconds turns a float of seconds into a Duration, saturating instead of
// overflowing for absurd values; negative and NaN are 0.
func Seconds(s float64) time.Duration {
	if s <= 0 || math.IsNaN(s) {
		return 0
	}
	if s >= float64(math.MaxInt64/int64(time.Second)) {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(s * float64(time.Second))
}

// The marks for a time lag that is a lower bound, on UTF-8 terminals and
// elsewhere.
const (
	AtLeastUnicode = "≥"
	AtLeastASCII   = ">="
)

// TimeLag formats a time lag with a mark that says how it was obtained, so
// that an estimate never reads as a measurement: no mark when interpolated
// from log-end growth between two polls, atLeast (AtLeastUnicode or
// AtLeastASCII) when it is a lower bound, "=" when read from the record
// itself, and Missing when unknown. Caught up is "0s".
func TimeLag(t lag.TimeLag, atLeast string) string {
	var mark string
	switch t.Kind {
	case lag.TimeLagUnknown:
		return Missing
	case lag.TimeLagCaughtUp:
		return "0s"
	case lag.TimeLagAtLeast:
		mark = atLeast
	case lag.TimeLagExact:
		mark = "="
	}
	span := Span(Seconds(t.Seconds))
	if mark == "" {
		return span
	}
	return mark + span
}
