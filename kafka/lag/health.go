package lag

import "time"

// Rewind is the evidence behind a REWIND: the consumer had committed High,
// then committed Low < High, and has not committed High or beyond since.
// The messages from Low to High are consumed twice.
type Rewind struct {
	High, Low int64
	// At is the poll that first saw Low.
	At time.Time
}

// verdict applies the health rules (Burrow's, with WARN and STALL of their
// own) to one partition whose committed offset is c and log end is end at
// the latest poll. The rules, checked in order over the partition's commit
// observations (at most Window of them, oldest first):
//
//  0. Only a partition with lag > 0 now is judged, and it is neither
//     STOP, REWIND nor STALL if its lag was zero at any poll since the
//     oldest observation (it caught up to a recent log end); it can still
//     have fallen behind since (rule 4).
//  1. STOP: the time from the newest observation to now exceeds the
//     window's span (newest minus oldest observation time), with the span
//     taken as at least (Window-1) x MinDistance: the span a full window
//     of a live consumer re-committing every MinDistance would have. The
//     floor keeps the first, arbitrarily close, observations of a fresh
//     history from raising false alarms, and lets a partition nobody
//     consumes from reach STOP without a second observation.
//  2. REWIND: some observation is below the highest one before it, and the
//     current offset is still below that high (needs 2 observations).
//  3. STALL: the window is full, every observation has the same offset,
//     and the silence is longer than the consumer's own rhythm (inRhythm:
//     RhythmFactor times the longest gap between its earlier commits in
//     the ring of polls, when it shows two or more).
//  4. WARN: the window is full and the consumer falls behind
//     (fallingBehind): it consumed less than was produced, beyond noise,
//     between its commits in the window, and its time lag grew. Burrow's
//     "the lag never decreased" is not used: commits in batches make the
//     lag dip at some poll of every window of a slow consumer (a
//     sawtooth), and a consumer that keeps up with a constant delay never
//     decreases a lag that is never zero.
//
// STALL and WARN judge a trend and so wait for a full window: until then a
// partition that is neither stopped nor rewound is OK, and
// PartitionHealth.Observations says how full its window is.
func (h *History) verdict(ph *partHist, c, end, now int64) (Status, Rewind) {
	lag := lagOf(c, end)
	n := int(ph.winLen)
	if lag <= 0 || n == 0 {
		return StatusOK, Rewind{}
	}
	var buf [32]obs
	os := h.observations(ph, buf[:0])
	oldest, newest := os[0], os[n-1]
	caughtUp := false
	for _, o := range os {
		if o.lag == 0 {
			caughtUp = true
			break
		}
	}
	// Poll times grow with the poll, so the polls at or after the oldest
	// observation are those from its poll on.
	if caughtUp || ph.zeroSince(max(h.firstSeq(ph.first(), ph.lastSeq), oldest.seq)) {
		// Caught up within the window: neither stopped, rewound nor
		// stalled, but it may have fallen behind since.
		if n == h.cfg.Window && h.fallingBehind(ph, c, end, now) {
			return StatusWarn, Rewind{}
		}
		return StatusOK, Rewind{}
	}

	oldestT, newestT := h.timeAt(oldest.seq), h.timeAt(newest.seq)
	span := float64(newestT) - float64(oldestT)
	if floor := float64(h.cfg.Window-1) * float64(h.cfg.MinDistance); span < floor {
		span = floor
	}
	if float64(now)-float64(newestT) > span {
		return StatusStop, Rewind{}
	}

	if rw, ok := h.rewind(os, c); ok {
		return StatusRewind, rw
	}

	full := n == h.cfg.Window
	if !full {
		return StatusOK, Rewind{}
	}
	stalled := true
	for i := 1; i < n && stalled; i++ {
		stalled = os[i].committed == oldest.committed
	}
	if stalled && !h.inRhythm(ph, now) {
		return StatusStall, Rewind{}
	}
	if h.fallingBehind(ph, c, end, now) {
		return StatusWarn, Rewind{}
	}
	return StatusOK, Rewind{}
}

// rewind finds the latest drop of the committed offset within the window
// that the current offset c has not recovered from. For a run of drops
// below one high (100, 80, 90, 85) it reports the first: High 100, Low 80;
// once an observation is back at or past the high the drop is forgotten.
func (h *History) rewind(os []obs, c int64) (Rewind, bool) {
	var (
		found bool
		rw    Rewind
		high  = os[0].committed
	)
	for _, o := range os[1:] {
		if o.committed >= high {
			found = false // back at or past the high: recovered
			high = o.committed
			continue
		}
		if !found {
			found = true
			rw = Rewind{High: high, Low: o.committed, At: time.Unix(0, h.timeAt(o.seq)).UTC()}
		}
	}
	if !found || c >= rw.High {
		return Rewind{}, false
	}
	return rw, true
}
