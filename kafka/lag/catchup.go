package lag

import (
	"time"

	"github.com/kgroups/kgroups/kafka"
)

// A group's catch-up answer (caught up, keeping up, catching up in 4m05s,
// falling behind 12 msg/s) is worked out once a poll, as the poll is
// added (catchUpPoll), and held like the partitions' verdicts (hold.go),
// so that every reader of the history, the UI's header and `kgroups
// health` alike, gives the same answer and that answer does not flap
// with the noise of rates measured over a few polls:
//
//   - facts change it at once: caught up (no lag), and unknown (a lagging
//     partition without rates, or too little evidence to say "keeping
//     up");
//   - after a fact, the first answer the rates give is taken at once;
//   - a change between the trends (keeping up, catching up, falling
//     behind) is taken only once the rates gave the new one at
//     Config.Hold polls in a row; meanwhile the held answer shows the
//     figures of the last poll that gave it.
//
// "Keeping up" needs evidence: rates measured over at least
// min(RatePolls, Window) polls on every lagging partition. Two polls at
// equal rates say nothing about a lag that is only in flight.
//
// Offsets that move while a group has no members (a reset, an undo,
// another tool's commit) are not consumption: the polls at which the
// group was Empty or Dead without members are remembered (memberless),
// and a commit step from or to one of them is left out of the consume
// rate (History.rates).

// pollRun is a run of consecutive polls of a group, from and to included.
type pollRun struct{ from, to uint64 }

// catchUpHold is a group's held catch-up answer (see above).
type catchUpHold struct {
	// shown is the answer readers get; next is a different trend the
	// rates gave at the latest polls, and run how many polls in a row.
	shown CatchUp
	next  CatchUpState
	run   uint8
}

// noteMembers records whether g, seen at the poll being added, has no
// members: an Empty or Dead group whose describe lists none. A group
// whose describe failed, or one in any other state, is taken to have
// them, so that nothing is left out of its consume rate on a guess; a
// simple group (kafka.Group.Simple) never has any, and its commits are
// its consumption. Runs
// older than the ring of polls are dropped, so the list stays short.
func (h *History) noteMembers(gh *groupHist, g *kafka.Group) {
	// The member ids, in any order: FNV-1a of each id, summed.
	ids := uint64(1)
	for k := range g.Members {
		x := uint64(14695981039346656037)
		for _, c := range []byte(g.Members[k].MemberID) {
			x = (x ^ uint64(c)) * 1099511628211
		}
		ids += x
	}
	if gh.members != 0 && ids != gh.members {
		gh.membersAt = h.times[h.slot(h.seq)]
		// The turns their last members served them in say nothing of
		// their new members' pace (turns.climb).
		gh.turns = nil
	}
	gh.members = ids
	if n := len(gh.memberless); n > 0 && h.seq > uint64(h.cfg.Samples) {
		oldest := h.seq - uint64(h.cfg.Samples)
		k := 0
		for k < n && gh.memberless[k].to < oldest {
			k++
		}
		if k > 0 {
			gh.memberless = append(gh.memberless[:0], gh.memberless[k:]...)
		}
	}
	if len(g.Members) > 0 || g.State != kafka.StateEmpty && g.State != kafka.StateDead || gh.simple {
		return
	}
	if n := len(gh.memberless); n > 0 && gh.memberless[n-1].to == gh.lastSeq && gh.lastSeq > 0 {
		gh.memberless[n-1].to = h.seq
		return
	}
	gh.memberless = append(gh.memberless, pollRun{h.seq, h.seq})
	gh.leftAt = h.times[h.slot(h.seq)]
}

// memberlessAt reports whether the group had no members at poll seq.
func (gh *groupHist) memberlessAt(seq uint64) bool {
	for _, r := range gh.memberless {
		if seq >= r.from && seq <= r.to {
			return true
		}
	}
	return false
}

// memberlessStep reports whether a commit step from poll from to poll to
// touches a poll at which the group had no members: such a move is a
// write by someone other than a consumer, or one the polls cannot tell
// from it.
func (gh *groupHist) memberlessStep(from, to uint64) bool {
	return gh.memberlessAt(from) || gh.memberlessAt(to)
}

// catchUpEvidence is how many polls of known rates "keeping up" needs.
func (h *History) catchUpEvidence() int { return min(h.cfg.RatePolls, h.cfg.Window) }

// catchUpSum adds up the group's partitions for its catch-up answer.
type catchUpSum struct {
	lag              int64
	prod, cons       float64
	known, unknown   bool
	lagKnown         bool
	totalLag         int64
	lagging, keeping int
	catching         int     // lagging partitions catching up
	slowest          CatchUp // the catching-up one that takes longest
	thin             bool    // a lagging partition keeps up on too few polls
	span             float64 // the longest span of the partitions' rates
}

// add counts one partition: its lag and rates, and its own answer (raw:
// before the evidence rule) with how many polls its rates rest on.
func (s *catchUpSum) add(lag int64, r partRates, raw CatchUp, need int) {
	prod, cons, polls := r.prod, r.cons, r.polls
	s.span = max(s.span, r.span)
	if lag >= 0 {
		s.lagKnown = true
	}
	if lag > 0 {
		s.totalLag = addLag(s.totalLag, lag)
		s.lagging++
		switch raw.State {
		case KeepingUp:
			s.keeping++
			if polls < need {
				s.thin = true
			}
		case CatchingUp:
			s.catching++
			if s.catching == 1 || raw.Seconds > s.slowest.Seconds {
				s.slowest = raw
			}
		}
	}
	if lag >= 0 && prod >= 0 && cons >= 0 {
		s.known = true
		s.lag = addLag(s.lag, lag)
		s.prod += prod
		s.cons += cons
	} else if lag > 0 {
		s.unknown = true
	}
}

// answer is the group's answer from the sums: unknown while a lagging
// partition has no rates (the group's answer would leave it out), caught
// up with no lag, else catchUp over the totals. Totals at equal rates
// are KeepingUp only when every lagging partition keeps up, each on
// enough polls, and catching up in the slowest one's time when the others
// keep up; with a lagging partition falling behind they are FallingBehind
// (totals at equal rates would hide a stuck partition behind busy ones).
func (s *catchUpSum) answer() CatchUp {
	switch {
	case s.unknown:
		return CatchUp{}
	case s.lagKnown && s.totalLag == 0:
		return CatchUp{State: CaughtUp}
	case !s.known:
		return CatchUp{}
	}
	c := catchUp(s.lag, s.prod, s.cons, s.span)
	if c.State == KeepingUp {
		switch {
		case s.keeping+s.catching < s.lagging:
			c = CatchUp{State: FallingBehind, Behind: max(0, s.prod-s.cons)}
		case s.catching > 0:
			// Level totals, with every lagging partition keeping up
			// or closing its lag: the group catches up when the
			// slowest of those does.
			c = s.slowest
		case s.thin:
			c = CatchUp{}
		}
	}
	return c
}

// withEvidence is a partition's answer under the evidence rule: keeping
// up on fewer than need polls of rates is unknown.
func withEvidence(c CatchUp, polls, need int) CatchUp {
	if c.State == KeepingUp && polls < need {
		return CatchUp{}
	}
	return c
}

// catchUpPoll works out the group's catch-up answer at the poll just
// added and moves its held answer (see above). A group without lag costs
// no rate: it is caught up, or unknown.
func (h *History) catchUpPoll(gh *groupHist) {
	lagging, lagKnown := false, false
	for i := range gh.parts {
		if ph := &gh.parts[i]; ph.lastSeq == h.seq {
			c, end := h.sample(ph, h.seq)
			lag := lagOf(c, end)
			lagKnown = lagKnown || lag >= 0
			if lag > 0 {
				lagging = true
				break
			}
		}
	}
	if !lagging {
		raw := CatchUp{}
		if lagKnown {
			raw.State = CaughtUp
		}
		gh.cu.move(raw, h.cfg.Hold)
		return
	}
	var s catchUpSum
	need := h.catchUpEvidence()
	for i := range gh.parts {
		ph := &gh.parts[i]
		if ph.lastSeq != h.seq {
			continue
		}
		c, end := h.sample(ph, h.seq)
		lag := lagOf(c, end)
		r := h.rates(gh, ph)
		s.add(lag, r, catchUp(lag, r.prod, r.cons, r.span), need)
	}
	gh.cu.move(s.answer(), h.cfg.Hold)
}

// move takes raw, this poll's answer, by the hold rule.
func (c *catchUpHold) move(raw CatchUp, hold int) {
	isFact := func(s CatchUpState) bool { return s == CaughtUp || s == CatchUpUnknown }
	switch {
	case isFact(raw.State) || isFact(c.shown.State) || raw.State == c.shown.State:
		c.shown, c.next, c.run = raw, raw.State, 0
	case raw.State == c.next:
		c.run++
		if int(c.run) >= hold {
			c.shown, c.run = raw, 0
		}
	default:
		c.next, c.run = raw.State, 1
		if hold <= 1 {
			c.shown, c.run = raw, 0
		}
	}
}

// NoMembersSince reports, for a group that had no members at the latest
// poll (Empty or Dead, none listed), the time of the first poll of that
// run that the history still holds, and whether the run covers every
// poll the history holds of the group (it had none while watched). ok is
// false for a group with members, or one the latest poll did not see.
func (h *History) NoMembersSince(group string) (since time.Time, whole, ok bool) {
	gh, found := h.groups[group]
	if !found || gh.lastSeq != h.seq || len(gh.memberless) == 0 {
		return time.Time{}, false, false
	}
	r := gh.memberless[len(gh.memberless)-1]
	if r.to != h.seq {
		return time.Time{}, false, false
	}
	first := h.firstSeq(gh.firstSeq, gh.lastSeq)
	from := max(r.from, first)
	return time.Unix(0, h.timeAt(from)).UTC(), from == first, true
}

// NoMembersSince is History.NoMembersSince over the Tracker's history.
func (l *Tracker) NoMembersSince(group string) (since time.Time, whole, ok bool) {
	if l == nil {
		return time.Time{}, false, false
	}
	return l.hist.NoMembersSince(group)
}
