package lag

import "math"

// TimeLagKind says how a time lag was obtained, so that a screen can mark
// an exact value ("=") or a lower bound ("≥") and never shows an unknown
// lag as 0. No kind is ever above the truth by more than one poll
// interval: nothing is extrapolated.
type TimeLagKind uint8

const (
	// TimeLagUnknown means no committed offset, no known log end, or fewer
	// than two interpolation points yet.
	TimeLagUnknown TimeLagKind = iota
	// TimeLagCaughtUp means the committed offset is at the log end; the time
	// lag is 0.
	TimeLagCaughtUp
	// TimeLagInterpolated means the committed offset lies within the table of
	// (log end, time) points and its time was interpolated.
	TimeLagInterpolated
	// TimeLagAtLeast means the committed offset is older than the oldest point
	// and the record at it has not been read yet: the log end had already
	// passed it at the oldest point, so Seconds, the age of that point, is
	// a lower bound. Rates from the points would only guess how much
	// older it is, and such a guess overshoots whenever the producer was
	// slower before the points began.
	TimeLagAtLeast
	// TimeLagExact is measured from the timestamp of the record at the
	// committed offset (see ExactTimeLag), not estimated.
	TimeLagExact
)

var timeLagNames = [...]string{"unknown", "caught-up", "interpolated", "at-least", "exact"}

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

// pointTable is a table of (log-end offset, Unix nanos) points, oldest
// first, whose offsets never decrease. It reads either a ring of (offset,
// time) pairs (pts, as SampleTimeLags builds from a chart's samples) or a
// partition's compact points (offs and seqs, see History.table), n points
// from slot base of a ring of ring slots.
type pointTable struct {
	pts []int64
	// h, offs and seqs read a partition's points: offsets, and the polls
	// whose times they carry. A derived slab's offsets are its log ends,
	// sampled at those polls (derived.go), all within the ring of
	// samples (samples slots) back from top's slot, topSlot.
	h          *History
	offs, seqs col
	derived    bool
	top        uint64 // the newest point's poll (partHist.ptTop)
	ring, base int
	n          int
	topSlot    int
	samples    int
}

// seqOf is the poll of the i-th oldest point, in slot j; a poll in one
// byte, as a derived slab's usually are, is read inline.
func (tb *pointTable) seqOf(i, j int) uint64 {
	if i == tb.n-1 {
		return tb.top
	}
	if tb.seqs.w == 1 && tb.seqs.b[j] != math.MaxUint8 {
		return uint64(tb.seqs.base) + uint64(tb.seqs.b[j])
	}
	return uint64(tb.seqs.get(j))
}

// sampleSlot is the sample slot of poll seq, for a derived slab: seq is
// within the ring of samples back from top, so no division is needed.
func (tb *pointTable) sampleSlot(seq uint64) int {
	j := tb.topSlot - int(tb.top-seq)
	if j < 0 {
		j += tb.samples
	}
	return j
}

// at returns the i-th oldest point.
func (tb *pointTable) at(i int) (off, t int64) {
	j := (tb.base + i) % tb.ring
	if tb.h != nil {
		seq := tb.seqOf(i, j)
		if tb.derived {
			return tb.offs.get(tb.sampleSlot(seq)), tb.h.timeAt(seq)
		}
		return tb.offs.get(j), tb.h.timeAt(seq)
	}
	return tb.pts[2*j], tb.pts[2*j+1]
}

// firstAbove is the index of the first point whose offset is above off, n
// when there is none.
func (tb *pointTable) firstAbove(off int64) int {
	lo, hi := 0, tb.n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if o := tb.offAt(m); o <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// offAt returns the i-th oldest point's offset.
func (tb *pointTable) offAt(i int) int64 {
	j := (tb.base + i) % tb.ring
	if tb.derived {
		return tb.offs.get(tb.sampleSlot(tb.seqOf(i, j)))
	}
	if tb.h != nil {
		return tb.offs.get(j)
	}
	return tb.pts[2*j]
}

// timeLag estimates the partition's time lag at now (Unix nanos) from its
// committed offset c and log end, over its table of points.
func (h *History) timeLag(ph *partHist, c, end, now int64) TimeLag {
	tb := h.table(ph)
	return timeLagAt(&tb, c, end, now)
}

// timeLagAt is the one time-lag estimate, in the manner of
// kafka-lag-exporter: the log end grew through the table's points; the time
// the log end passed the committed offset c is when the record at c was
// written, interpolated linearly between the last point at or below c and
// the first point above it. A c older than the oldest point is at least as
// old as that point (a lower bound, never an extrapolation: the History
// replaces it with the exact value once the record at c is read, see
// History.AddExact). Caught up (c >= end) is 0; no commit, no log end or fewer
// than two points is unknown. The time lag is now minus that time, never
// negative.
func timeLagAt(tb *pointTable, c, end, now int64) TimeLag {
	if c < 0 || end < 0 {
		return TimeLag{}
	}
	if c >= end {
		return TimeLag{Kind: TimeLagCaughtUp}
	}
	n := tb.n
	if n < 2 {
		return TimeLag{}
	}
	r := tb.firstAbove(c)
	var t float64
	kind := TimeLagInterpolated
	switch r {
	case n:
		// Unreachable while every known log end reaches the table (the
		// newest point is then at or above the current log end, which is
		// above c); kept so that a future caller cannot index past it.
		// The newest point is the latest time the log end was at or
		// below c.
		_, nt := tb.at(n - 1)
		t = float64(nt)
	case 0:
		_, t0 := tb.at(0)
		t, kind = float64(t0), TimeLagAtLeast
	default:
		lOff, lT := tb.at(r - 1)
		rOff, rT := tb.at(r)
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
