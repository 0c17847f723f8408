package lag

// commitPoint is a poll that saw a partition's committed offset move
// forward: the offset, the lag then, and the poll's time.
type commitPoint struct {
	committed, lag int64
	seq            uint64
}

// maxCommitPoints bounds the commits fallingBehind reads, so that they
// fit a buffer on the stack.
const maxCommitPoints = 32

// commitPoints appends to dst, newest first, the partition's polls that
// saw its committed offset move forward within its last 2 x Window polls
// (at most maxCommitPoints), reading back through its ring of polls: two
// windows are long enough for the production noise of a few polls to
// even out, and short enough that a change of pace shows within them.
func (h *History) commitPoints(ph *partHist, dst []commitPoint) []commitPoint {
	return h.commitMoves(ph, uint64(2*h.cfg.Window), dst)
}

// commitMoves is commitPoints over the last reach polls.
func (h *History) commitMoves(ph *partHist, reach uint64, dst []commitPoint) []commitPoint {
	want := maxCommitPoints
	from := h.firstSeq(ph.first(), ph.lastSeq)
	if ph.lastSeq > reach && ph.lastSeq-reach > from {
		from = ph.lastSeq - reach
	}
	cs, es := h.col(ph, secCommitted), h.col(ph, secLogEnd)
	next := int64(-1) // the committed offset of the poll after s
	var nextSeq uint64
	for s := ph.lastSeq; ; s-- {
		c := cs.get(h.slot(s))
		if c >= 0 && next > c {
			// Poll nextSeq saw the commit move forward; its log end is
			// read only now, for the commits alone.
			dst = append(dst, commitPoint{committed: next, lag: lagOf(next, es.get(h.slot(nextSeq))), seq: nextSeq})
			if len(dst) == want {
				return dst
			}
		}
		if c >= 0 {
			next, nextSeq = c, s
		}
		if s == from {
			return dst
		}
	}
}

// fallingBehind is the WARN rule: the consumer falls behind when
//
//   - the lag now is more than a few records (KeepUpMessages) and the time
//     lag now more than KeepUpSeconds and more than one poll interval: a
//     lag too small to matter is never WARN on its own;
//   - over its last commits (commitPoints: at least three), the lag seen
//     at the polls that saw a commit grew by more than the noise of
//     sampling: the records produced in one poll interval (a poll sees a
//     commit up to one interval late), a KeepUpMessages floor and
//     EqualRateShare of what was produced;
//   - the consumer consumed less than 1-EqualRateShare of what was
//     produced in that time (its consume rate stays below the produce
//     rate beyond the rates' noise);
//   - the lag did not shrink beyond that noise over the newer half of
//     those commits, so a burst the consumer is already working off is
//     not WARN;
//   - the time lag grew over the same span by more than one poll
//     interval and EqualRateShare of the span, when both ends' time lags
//     are interpolated (a lower bound at the older end proves nothing):
//     a consumer a fixed delay behind its producer has a lag that follows
//     the producer's bursts, and a time lag that does not move.
//
// The lags compared are those seen at polls that saw a new commit, so
// where in its commit cycle a consumer that commits in batches (a
// sawtooth) is at either end does not matter, and the rule holds whatever
// the lag's sequence looks like: a consumer that keeps up with a delay
// (equal rates, a bounded time lag) is OK even if its lag is never zero.
func (h *History) fallingBehind(ph *partHist, c, end, now int64) bool {
	if lagOf(c, end) <= KeepUpMessages {
		return false
	}
	nowLag := h.timeLagOf(ph, c, end, now)
	if nowLag.Known() && nowLag.Seconds <= KeepUpSeconds {
		return false // checked first: it needs no scan of the polls
	}
	var buf [maxCommitPoints]commitPoint
	pts := h.commitPoints(ph, buf[:0])
	if len(pts) < 3 {
		return false
	}
	b, m, a := pts[0], pts[len(pts)/2], pts[len(pts)-1]
	ta, tb := h.timeAt(a.seq), h.timeAt(b.seq)
	if tb <= ta || a.lag < 0 || b.lag < 0 || m.lag < 0 {
		return false
	}
	spanSec := float64(tb-ta) / 1e9
	gapSec := spanSec / float64(b.seq-a.seq)
	consumed := float64(b.committed - a.committed)
	grew := float64(b.lag - a.lag)
	produced := consumed + grew
	if produced <= 0 {
		return false
	}
	noise := max(KeepUpMessages, EqualRateShare*produced, produced/spanSec*gapSec)
	if grew <= noise || consumed >= (1-EqualRateShare)*produced || float64(b.lag-m.lag) < -noise {
		return false
	}
	if nowLag.Known() && nowLag.Seconds <= gapSec {
		return false
	}
	tb2 := h.table(ph)
	la := timeLagAt(&tb2, a.committed, a.committed+a.lag, ta)
	lb := timeLagAt(&tb2, b.committed, b.committed+b.lag, tb)
	if la.Kind == TimeLagInterpolated && lb.Kind == TimeLagInterpolated &&
		lb.Seconds-la.Seconds <= max(gapSec, EqualRateShare*spanSec) {
		return false
	}
	return true
}

// RhythmFactor is how many times its rhythm (the longest of its recent
// waits that ended in a commit, rhythm.go) a consumer's commit must stand,
// and longer than the window, before the commit counts as stalled (STALL)
// or, without members, stopped (STOP).
const RhythmFactor = 2
