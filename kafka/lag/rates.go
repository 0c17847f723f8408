package lag

import "math"

// UnknownRate marks a rate that cannot be measured yet: fewer than two polls
// with a known value in the rate window.
const UnknownRate = -1.0

// rateSum is one column's running sum for rates: the forward steps
// between consecutive known samples, the times of the first and last
// known ones, and how many there were.
type rateSum struct {
	first, last int64
	prev        int64
	prevSeq     uint64
	sum         float64
	known       int
}

// add takes the column's value v at poll s (time t); skip, when not nil,
// refuses a step (see rates).
func (r *rateSum) add(v int64, s uint64, t int64, skip func(from, to uint64) bool) {
	if v < 0 {
		return
	}
	if r.known == 0 {
		r.first = t
	} else if v > r.prev && (skip == nil || !skip(r.prevSeq, s)) {
		r.sum += float64(v - r.prev)
	}
	r.prev, r.last, r.prevSeq = v, t, s
	r.known++
}

// flat is add of v at every poll from..to (an empty sum), in one step: a
// number equal to the one before adds no step forward, so skip is never
// asked, and only the count and the span move. TestRatesAtRestAsWide
// holds it to add poll by poll.
func (r *rateSum) flat(h *History, v int64, from, to uint64) {
	if v < 0 || from > to {
		return
	}
	r.first, r.last = h.times[h.slot(from)], h.times[h.slot(to)]
	r.prev, r.prevSeq = v, to
	r.known = int(to - from + 1)
}

// rate is the sum per second over the span of the known samples, or
// UnknownRate with fewer than two of them.
func (r *rateSum) rate() float64 {
	if r.known < 2 || r.last <= r.first {
		return UnknownRate
	}
	return r.sum / ((float64(r.last) - float64(r.first)) / 1e9)
}

// rates measures how fast the partition's log end (produce) and committed
// offset (consume) grew over the last RatePolls polls, in offsets per
// second, in one pass, with the fewest polls of that span either had a
// known value at (the evidence they rest on) and the seconds the consume
// rate spans. It adds up every forward step between consecutive known
// samples and ignores steps backwards, so a reset or a rewind does not
// turn the rate negative and the messages re-read after it count as
// consumed. A commit step from or to a poll at which the group had no
// members (gh.memberless: a reset, an undo, another tool's write) is left
// out of the consume sum, though its span still counts: the rate is what
// the consumer did over the whole span.
func (h *History) rates(gh *groupHist, ph *partHist) partRates {
	from := h.firstSeq(ph.first(), ph.lastSeq)
	if n := uint64(h.cfg.RatePolls); ph.lastSeq >= n && ph.lastSeq-n+1 > from {
		from = ph.lastSeq - n + 1
	}
	var skip func(from, to uint64) bool
	if len(gh.memberless) > 0 {
		skip = gh.memberlessStep
	}
	var p, c rateSum
	ends, commits := h.col(ph, secLogEnd), h.col(ph, secCommitted)
	if ends.w == 0 && commits.w == 0 {
		// A partition at rest: each column holds one number at every
		// poll (compact.go), which adds no step.
		p.flat(h, ends.base, from, ph.lastSeq)
		c.flat(h, commits.base, from, ph.lastSeq)
	} else {
		for s := from; s <= ph.lastSeq; s++ {
			i := h.slot(s)
			t := h.times[i]
			p.add(ends.get(i), s, t, nil)
			c.add(commits.get(i), s, t, skip)
		}
	}
	r := partRates{prod: p.rate(), cons: c.rate(), polls: min(p.known, c.known)}
	if c.known >= 2 {
		r.span = (float64(c.last) - float64(c.first)) / 1e9
	}
	return r
}

// produceRate is the partition's log-end growth per second over the rate
// window, as rates measures it, for rules that need no other rate.
func (h *History) produceRate(ph *partHist) float64 {
	from := h.firstSeq(ph.first(), ph.lastSeq)
	if n := uint64(h.cfg.RatePolls); ph.lastSeq >= n && ph.lastSeq-n+1 > from {
		from = ph.lastSeq - n + 1
	}
	var p rateSum
	ends := h.col(ph, secLogEnd)
	for s := from; s <= ph.lastSeq; s++ {
		i := h.slot(s)
		p.add(ends.get(i), s, h.times[i], nil)
	}
	return p.rate()
}

// partRates are a partition's rates over the rate window: produce and
// consume (UnknownRate when not known), the fewest polls either rests
// on, and the seconds the consume rate spans (0 when unknown).
type partRates struct {
	prod, cons float64
	polls      int
	span       float64
}

// CatchUpState says whether a consumer is closing its lag.
type CatchUpState uint8

const (
	// CatchUpUnknown means the lag or a rate is not known yet.
	CatchUpUnknown CatchUpState = iota
	// CaughtUp means there is no lag.
	CaughtUp
	// CatchingUp means consuming faster than producing; Seconds says when the
	// lag will be gone at the current rates.
	CatchingUp
	// FallingBehind means producing at least as fast as consuming, and not
	// KeepingUp; Behind says by how many messages per second the lag
	// grows (0 when it holds).
	FallingBehind
	// KeepingUp is a small lag at equal rates: the consumer reads what is
	// produced as it arrives, and the lag is only what is in flight (see
	// catchUp for the rule).
	KeepingUp
)

var catchUpNames = [...]string{"unknown", "caught-up", "catching-up", "falling-behind", "keeping-up"}

func (s CatchUpState) String() string {
	if int(s) < len(catchUpNames) {
		return catchUpNames[s]
	}
	return "unknown"
}

// MarshalText renders the state by name for JSON output.
func (s CatchUpState) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// CatchUp is the answer to "will this consumer ever catch up, and when?",
// kept as data so the TUI and the CLI can word and colour it their own way.
type CatchUp struct {
	State CatchUpState
	// Seconds to catch up at the current rates (CatchingUp only), at
	// most MaxCatchUpSeconds: Capped says the estimate was longer.
	Seconds float64
	// Capped reports an estimate longer than MaxCatchUpSeconds, which
	// Seconds then holds: at rates measured over a minute, a day is
	// already a guess, and more is none ("more than a day").
	Capped bool
	// Behind is produce minus consume rate in messages per second
	// (FallingBehind only).
	Behind float64
}

// MaxCatchUpSeconds is the longest catch-up estimate given as a time: a
// day. A longer one is CatchUp.Capped.
const MaxCatchUpSeconds = 24 * 60 * 60

// The keeping-up rule's bounds: a lag is "in flight" when it is at most
// KeepUpMessages, or at most what the producers write in KeepUpSeconds (a
// consumer that commits every few seconds is that far behind at a poll
// even when it keeps pace); rates are equal when they differ by less than
// EqualRateMsgs messages per second (below what a rate shows with one
// decimal) or EqualRateShare of the produce rate (the noise of measuring
// rates over a few polls while the lag wobbles: a lag going from 3 to 4
// over 10s at 10 msg/s is 0.1 msg/s). A lag that does grow outgrows the
// bounds: at 5% of production it takes 200s to pass KeepUpSeconds' worth,
// and from there the consumer is falling behind.
const (
	KeepUpMessages = 10
	KeepUpSeconds  = 10
	EqualRateMsgs  = 0.05
	EqualRateShare = 0.05
)

// catchUp applies lag / (consume - produce), and tells a consumer that
// keeps pace from one that falls behind; span is how many seconds the
// rates were measured over (0 when unknown).
//
// A lag within what is in flight (KeepUpMessages, or KeepUpSeconds of
// production) while messages are produced and the consumer commits past
// some of them (a consumer that committed nothing while records arrived
// is not keeping up, however small its lag) is KeepingUp unless the
// consumer falls behind beyond the noise: the rates' own (EqualRateMsgs,
// EqualRateShare of the produce rate), or KeepUpMessages over the span,
// since a lag in flight wobbles by that much between the two ends of the
// span (a commit just before one poll, just after the other). Consuming
// faster with such a lag is keeping up too: an estimate of when a lag in
// flight is gone is noise ("catching up in 3m00s" at 7.0/s in and 7.0/s
// out). A larger lag is CatchingUp when the consumer is ahead beyond the
// rates' noise, with the estimate capped at MaxCatchUpSeconds, and
// otherwise FallingBehind by the difference, at least 0 (the lag holds
// but does not measurably shrink).
func catchUp(lag int64, produce, consume, span float64) CatchUp {
	switch {
	case lag == 0:
		return CatchUp{State: CaughtUp}
	case lag < 0 || produce < 0 || consume < 0:
		return CatchUp{State: CatchUpUnknown}
	}
	diff := consume - produce
	noise := max(EqualRateMsgs, produce*EqualRateShare)
	if produce > 0 && consume > 0 && float64(lag) <= max(KeepUpMessages, produce*KeepUpSeconds) {
		jitter := noise
		if span > 0 {
			jitter = max(noise, KeepUpMessages/span)
		}
		if diff > -jitter {
			return CatchUp{State: KeepingUp}
		}
	}
	switch {
	case diff >= noise:
		s := float64(lag) / diff
		if s > MaxCatchUpSeconds || !finite(s) {
			return CatchUp{State: CatchingUp, Seconds: MaxCatchUpSeconds, Capped: true}
		}
		return CatchUp{State: CatchingUp, Seconds: s}
	default:
		return CatchUp{State: FallingBehind, Behind: max(0, -diff)}
	}
}

// finite guards JSON output against values encoding/json cannot write.
func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
