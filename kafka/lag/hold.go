package lag

// The hold rule keeps a partition's status from flapping: once the
// partition has been judged on a full window, a change between OK and
// WARN (a trend: falling behind or not) is reported only when the rules
// have given the new status at Config.Hold polls in a row, so one odd
// poll (a commit that lands just after a poll, a burst of production)
// does not flip a verdict. Facts change it at once, both ways: STOP,
// REWIND, STALL and NO-COMMITS (the consumer is gone, the offset went
// back, the offset stood still past the consumer's rhythm, nothing was
// ever committed) and a caught-up partition (lag 0 is OK whatever came
// before). Before the window is full the status is the rules' own, so the
// first decision, the one `kgroups health` gives at the end of its
// window, is not delayed.
//
// The rule runs once a poll, as the poll is added (updateHold), so that
// every reader of the history, the UI's tracker and `kgroups health`,
// sees the same held status whenever it evaluates.

// holdPolls is Config.Hold after normalize: a third of the window, at
// least 2 polls.
func holdPolls(window int) int { return max(2, (window+2)/3) }

// updateHold applies the rules at the poll just added (time t) and moves
// the held status by the hold rule.
func (h *History) updateHold(ph *partHist, c, end, t int64) {
	raw, _ := h.rawStatus(ph, c, end, t)
	ph.raw = raw
	lag := lagOf(c, end)
	switch {
	case !ph.decided:
		ph.held, ph.next, ph.holdRun = raw, raw, 0
		ph.decided = int(ph.winLen) >= h.cfg.Window || int(ph.unLen) >= h.cfg.Window
	case isFact(raw) || isFact(ph.held) || lag == 0:
		ph.held, ph.next, ph.holdRun = raw, raw, 0
	case raw == ph.held:
		ph.next, ph.holdRun = raw, 0
	case raw == ph.next:
		ph.holdRun++
		if int(ph.holdRun) >= h.cfg.Hold {
			ph.held, ph.holdRun = raw, 0
		}
	default:
		ph.next, ph.holdRun = raw, 1
		if h.cfg.Hold <= 1 {
			ph.held, ph.holdRun = raw, 0
		}
	}
}

// isFact reports the statuses that stand on a fact rather than a trend:
// they are reported as soon as the rules find them and dropped as soon
// as the rules no longer do. Only WARN, falling behind, is a trend: the
// others already waited for what they need (a full window and more for
// STALL and NO-COMMITS), and a commit that moves, or a first commit, ends
// them.
func isFact(s Status) bool { return s != StatusOK && s != StatusWarn }

// hold is the status a reader reports for a partition whose rules say
// raw now (lag is its lag now): raw itself when it is a fact or the
// partition caught up, the held status otherwise.
func (ph *partHist) hold(raw Status, lag int64) Status {
	if isFact(raw) || lag == 0 || !ph.decided {
		return raw
	}
	return ph.held
}
