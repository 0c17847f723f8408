package lag

// TimeLagKind says how a time lag was obtained, so that a screen can mark
// an estimate ("~") or a lower bound ("≥") and never shows an unknown lag
// as 0.
type TimeLagKind uint8

const (
	// TimeLagUnknown: no committed offset, no known log end, or fewer
	// than two interpolation points yet.
	TimeLagUnknown TimeLagKind = iota
	// TimeLagCaughtUp: the committed offset is at the log end; the time
	// lag is 0.
	TimeLagCaughtUp
	// TimeLagInterpolated: the committed offset lies within the table of
	// (log end, time) points and its time was interpolated.
	TimeLagInterpolated
	// TimeLagExtrapolated: the committed offset is older than the oldest
	// point; its time was extrapolated back from the oldest segment in
	// which the log grew, at that segment's rate.
	TimeLagExtrapolated
	// TimeLagAtLeast: the committed offset is older than the oldest point
	// and the log did not grow across the table, so no rate is known:
	// Seconds is the age of the oldest point, a lower bound.
	TimeLagAtLeast
	// TimeLagExact: measured from the timestamp of the record at the
	// committed offset (see ExactTimeLag), not estimated.
	TimeLagExact
)

var timeLagNames = [...]string{"unknown", "caught-up", "interpolated", "extrapolated", "at-least", "exact"}

func (k TimeLagKind) String() string {
	if int(k) < len(timeLagNames) {
		return timeLagNames[k]
	}
	return "unknown"
}

// MarshalText renders the kind by name for JSON output.
func (k TimeLagKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// TimeLag is how far behind a consumer is in seconds: the age of the
// oldest message it has not consumed yet.
type TimeLag struct {
	// Seconds is 0 when caught up and meaningless when Kind is
	// TimeLagUnknown.
	Seconds float64
	Kind    TimeLagKind
}

// Known reports whether Seconds means anything.
func (t TimeLag) Known() bool { return t.Kind != TimeLagUnknown }

// timeLag estimates the partition's time lag at now (Unix nanos) from its
// committed offset c and log end, in the manner of kafka-lag-exporter: the
// log end grew through the table's (offset, time) points; the time the log
// end passed c is when the record at c was written, interpolated linearly
// between the last point at or below c and the first point above it.
func (ph *partHist) timeLag(c, end, now int64) TimeLag {
	if c < 0 || end < 0 {
		return TimeLag{}
	}
	if c >= end {
		return TimeLag{Kind: TimeLagCaughtUp}
	}
	n := int(ph.ptLen)
	if n < 2 {
		return TimeLag{}
	}
	// r is the first point whose offset is above c (offsets never
	// decrease along the table).
	lo, hi := 0, n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if off, _ := ph.point(m); off <= c {
			lo = m + 1
		} else {
			hi = m
		}
	}
	r := lo
	var t float64
	kind := TimeLagInterpolated
	switch {
	case r == n:
		// Unreachable while every known log end reaches the table (the
		// newest point is then at or above the current log end, which is
		// above c); kept so that a future caller cannot index past it.
		// The newest point is the latest time the log end was at or
		// below c.
		_, nt := ph.point(n - 1)
		t = float64(nt)
	case r == 0:
		off0, t0 := ph.point(0)
		k := 1
		for k < n {
			if off, _ := ph.point(k); off > off0 {
				break
			}
			k++
		}
		if k == n {
			t, kind = float64(t0), TimeLagAtLeast
			break
		}
		lOff, lT := ph.point(k - 1)
		rOff, rT := ph.point(k)
		perOffset := (float64(rT) - float64(lT)) / float64(rOff-lOff)
		t, kind = float64(t0)-float64(off0-c)*perOffset, TimeLagExtrapolated
	default:
		lOff, lT := ph.point(r - 1)
		rOff, rT := ph.point(r)
		t = float64(rT) - float64(rOff-c)*(float64(rT)-float64(lT))/float64(rOff-lOff)
	}
	sec := (float64(now) - t) / 1e9
	if !finite(sec) {
		return TimeLag{}
	}
	if sec < 0 {
		sec = 0 // points stamped after now: the caller's clock is behind
	}
	return TimeLag{Seconds: sec, Kind: kind}
}
