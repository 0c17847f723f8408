package lag

import (
	"math"
	"slices"

	"github.com/kgroups/kgroups/kafka"
)

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
// window, is not delayed; but a WARN before it is weighed as a change to
// WARN is (hold1).
//
// The rule runs once a poll, as the poll is added (judgeGroup), so that
// every reader of the history, the UI's tracker and `kgroups health`,
// sees the same held status whenever it evaluates.

// holdPolls is Config.Hold after normalize: a third of the window, at
// least 2 polls.
func holdPolls(window int) int { return max(2, (window+2)/3) }

// judgeGroup applies the rules to the group's partitions of the poll just
// added (time t; at(k) for k < n are the snapshot's partitions in order)
// and moves their held statuses by the hold rule. A partition the rules
// call STALL is starved rather than stuck when its owner committed on
// other partitions of the group within the window and their lag grew over
// it by more than KeepUpMessages (lagGrowth): the member is alive and
// busy, slower than its producers, and reaches this partition in turn, as a slow
// consumer working through a batch of other partitions' records does. It
// is judged as falling behind (WARN), not STALL, so that such a group
// reads WARN throughout instead of flipping between ERR STALL and WARN
// as its partitions take turns.
func (h *History) judgeGroup(gh *groupHist, at func(int) *kafka.PartitionOffsets, n int, t int64) {
	stalls := 0
	gh.sweepRewinds(nil, 0, t, h.eventHold())
	gh.pace = groupRhythm(gh, h.seq)
	// The group's stretch is its partitions' median (groupPace.stretch).
	stretches := h.stretches[:0]
	for i := range gh.parts {
		if ph := &gh.parts[i]; ph.lastSeq == h.seq && ph.rh.ngaps >= 2 {
			stretches = append(stretches, ph.rh.stretch(h.pollGap()))
		}
	}
	if n := len(stretches); n > 0 {
		slices.Sort(stretches)
		gh.pace.stretch = stretches[n/2]
	}
	h.stretches = stretches
	gh.pace.fell = h.groupFell(gh, t)
	if n := len(gh.memberless); n > 0 && gh.memberless[n-1].to < h.seq {
		gh.pace.back = h.timeAt(gh.memberless[n-1].to + 1)
	}
	h.memberPaces(gh, at, n)
	for i := range gh.parts {
		ph := &gh.parts[i]
		if ph.lastSeq != h.seq {
			continue
		}
		c, end := h.sample(ph, h.seq)
		var rw Rewind
		prevRaw, prevWait := ph.raw, ph.wait
		ph.raw, rw, ph.wait = h.rawStatus(gh, ph, c, end, t, gh.paceFor(i))
		if ph.raw == StatusOK && ph.wait == WaitNone && prevRaw == StatusOK && climbWait(prevWait) && ph.rh.pending() && ph.rh.last == t && h.seq > 1 && t-ph.rh.served() < h.timeAt(h.seq-1) {
			// This poll saw a commit whose record is read after the
			// poll is judged (rhythm.pending): the rules judged without
			// its time lag, on a trend that lacks it, and a time lag
			// read from older points. A climb of the time lag they
			// waited on at the poll before, which saw no commit, still
			// waits for it, rather than read OK for one poll between
			// two that wait. (A consumer that commits at every poll is
			// judged at every poll with its newest commit being read:
			// nothing waits for a poll without one. A step in records
			// is told by the commit's lag, read with it.)
			ph.wait = prevWait
		}
		if ph.raw == StatusOK && ph.wait == WaitNone && prevRaw == StatusOK && prevWait == WaitGrew && h.climbHolds(ph) {
			// Waited on at the poll before for a time lag grown by
			// more than half the time, and its commits still climb
			// nearly as fast (grewHold): a time lag growing at about
			// half a second a second waits on, rather than flicker
			// between OK and JUDGING as it reads a little above or
			// below the half.
			ph.wait = WaitGrew
		}
		if ph.raw == StatusRewind {
			gh.noteRewind(ph, rw)
		} else {
			gh.sweepRewinds(ph, c, t, h.eventHold())
		}
		if waitsTurn(ph, t, h.floor()) {
			stalls++
		}
	}
	if stalls > 0 {
		h.judgeTurns(gh, at, n, t)
	}
	h.memberFalling(gh, at, n)
	for i := range gh.parts {
		if ph := &gh.parts[i]; ph.lastSeq == h.seq {
			if ph.raw == StatusStop {
				ph.rh.noteHalt()
			}
			c, end := h.sample(ph, h.seq)
			h.hold1(ph, lagOf(c, end))
		}
	}
}

// grewHold is the share of the time since that the time lag at a
// partition's commits must have grown by to keep a WaitGrew: less than
// the half that begins one, so that a climb about that fast holds one
// verdict.
const grewHold = 0.4

// stillClimbs reports whether the time lag at the partition's newest
// commit whose record was read stands above the one at its latest commit
// at least a floor before it by more than grewHold of the time between:
// floor against floor, so a sawtooth's climb between commits, which the
// next commit ends, never holds it. from is that older commit. A drop
// between them (the time lag fell at a commit by more than KeepUpSeconds
// and the time since the one before: a pause in production read past)
// leaves the commits before it no baseline: the first after it is, once
// another followed it, however short the time between (a consumer
// minutes behind that crosses a pause climbs on from the drop's floor).
func (h *History) stillClimbs(ph *partHist) (from trendPoint, ok bool) {
	var buf [trendPoints]trendPoint
	known := ph.rh.knownPoints(&buf)
	if len(known) < 2 {
		return trendPoint{}, false
	}
	newest := known[len(known)-1]
	for i := len(known) - 2; i >= 0; i-- {
		p := known[i]
		if next := known[i+1]; float64(p.tl-next.tl) > max(KeepUpSeconds, float64(next.at-p.at)/1e9) {
			// A drop between p and the newest: the points before it
			// are no baseline for those after.
			if next != newest {
				return next, float64(newest.tl-next.tl) > grewHold*float64(newest.at-next.at)/1e9
			}
			return trendPoint{}, false
		}
		if newest.at-p.at >= h.floor() {
			return p, float64(newest.tl-p.tl) > grewHold*float64(newest.at-p.at)/1e9
		}
	}
	return trendPoint{}, false
}

// climbHolds is stillClimbs' verdict alone.
func (h *History) climbHolds(ph *partHist) bool {
	_, ok := h.stillClimbs(ph)
	return ok
}

// climbWait reports whether k waits on a climb of the time lag: at the
// commits (WaitRose), at a turn's start (WaitTurnStep) or since a commit
// (WaitGrew).
func climbWait(k WaitKind) bool { return k == WaitRose || k == WaitTurnStep || k == WaitGrew }

// waitsTurn reports whether the rules call the partition stalled, or wait
// for evidence on it, while its commit has stood longer than the floor
// (t is the poll's time): the partitions a busy member may have left
// waiting their turn (judgeGroup). Its member's other partitions decide.
// A climb at its commits (WaitRose) or a step at its newest (WaitStep)
// is no wait for a turn: its own commits say how it goes.
func waitsTurn(ph *partHist, t, floor int64) bool {
	return ph.raw == StatusStall || ph.raw == StatusOK && ph.wait != WaitNone && ph.wait != WaitRose && ph.wait != WaitStep && t-ph.rh.since > floor
}

// afterHalt reports whether the partition waits since a halt: the rules
// called it stalled or stopped since its last commit (rhythm.halted), it
// moves again after they did and has not caught up since
// (rhythm.resumedFromHalt), or its wait began before its group's members
// came back after a time without any (groupPace.back). Its member's lag grew
// while it stood, and the old records the member reads are that
// backlog, or this partition's own: they say that the member works off
// a halt, not that it falls behind. The partition's own commits tell,
// once it has some (its trend starts over: noteRhythm).
func afterHalt(gh *groupHist, ph *partHist) bool {
	return ph.rh.halted() || ph.rh.resumedFromHalt() || gh.pace.back > ph.rh.since
}

// judgeTurns judges the partitions the rules call stalled, or wait for
// evidence on (waitsTurn), by their members' other partitions: a member
// busy where it works leaves them waiting their turn (see judgeGroup).
func (h *History) judgeTurns(gh *groupHist, at func(int) *kafka.PartitionOffsets, n int, t int64) {
	// Per member: the time lag of the partitions it committed on within
	// the window (how far behind it is where it works; behind is +Inf
	// when their lag grew), its two latest commit times on any partition
	// (how often it commits: newest and prev), and how much the lag of
	// all its partitions grew over the window.
	moved, grew, behind, behindBound := h.moved[:0], h.grew[:0], h.behind[:0], h.behindBound[:0]
	workTL, newest, prev, grewLong, peakTL := h.workTL[:0], h.newest[:0], h.prev[:0], h.grewLong[:0], h.peakTL[:0]
	workBy, work2 := h.workBy[:0], h.work2[:0]
	busy := h.busy[:0]
	// Within the window, or twice the group's rhythm when that is
	// longer (a job committing on checkpoints), or what a partition's
	// growing waits predict (stallAfter).
	recent := max(h.floor(), int64(RhythmFactor*float64(gh.pace.every)))
	h.eachOwned(gh, at, n, func(ph *partHist, member string) {
		j := slices.Index(moved, member)
		if j < 0 {
			moved, grew, behind, behindBound = append(moved, member), append(grew, 0), append(behind, -1), append(behindBound, -1)
			workTL, newest, prev, grewLong, peakTL = append(workTL, -1), append(newest, 0), append(prev, 0), append(grewLong, 0), append(peakTL, 0)
			workBy, work2 = append(workBy, nil), append(work2, -1)
			busy = append(busy, [4]float64{})
			j = len(moved) - 1
		}
		g := h.lagGrowth(ph)
		grew[j] += g
		grewLong[j] += h.lagGrowthOver(ph, uint64(h.cfg.Samples))
		if ph.rh.last != 0 && t-ph.rh.last <= h.stallAfter(ph, recent, gh.pace) {
			behind[j] = max(behind[j], 0)
			// How often the member commits, from commits since the
			// group's members last changed: a member that took its
			// partitions over at a rebalance holds the commits their
			// last owners made, at every phase (commits seconds apart on
			// partitions each committed every two minutes).
			if ph.rh.last >= gh.membersAt {
				newest[j], prev[j] = latestTwo(newest[j], prev[j], ph.rh.last)
			}
			// Its latest wait, where it began at a commit: a wait that
			// began at a caught-up poll is how long the member took to
			// commit records that had just arrived, not how often it
			// commits (a member that commits every 30 s shows waits of
			// a few seconds behind bursty producers).
			if sv := ph.rh.served(); sv > 0 && !ph.rh.servedCaught() && ph.rh.last-sv >= gh.membersAt {
				newest[j], prev[j] = latestTwo(newest[j], prev[j], ph.rh.last-sv)
			}
			c, end := h.sample(ph, h.seq)
			// Busy within the window, not only now: a member serving its
			// partitions in turn catches up on one just before it moves
			// to the next (for a partition the rules call stalled).
			peakTL[j] = max(peakTL[j], ph.rh.peakSince(t-recent))
			if tl, _ := h.judgedTimeLag(ph, c, end, t); tl.Kind == TimeLagInterpolated || tl.Kind == TimeLagExact {
				behind[j] = max(behind[j], tl.Seconds)
				if tl.Seconds > workTL[j] {
					work2[j], workTL[j], workBy[j] = workTL[j], tl.Seconds, ph
				} else {
					work2[j] = max(work2[j], tl.Seconds)
				}
			} else if tl.Kind == TimeLagAtLeast {
				// A lower bound (a commit older than the points, its
				// record not read yet): at least that far behind. It
				// counts for the partitions whose own wait began at a
				// commit (see below).
				behindBound[j] = max(behindBound[j], tl.Seconds)
			}
			if (ph.raw == StatusWarn || ph.next == StatusWarn && ph.holdRun > 0 || ph.decided && ph.held == StatusWarn) && t-ph.rh.last <= recent {
				// Falling behind where it committed within the window
				// or two of its group's rhythms (WARN: now, at the
				// polls the hold weighs, or held): the time lag at its
				// commits there climbs, however slowly its lag grows
				// over one window (a member slower than one partition's
				// production, served in turn).
				behind[j] = math.Inf(1)
			}
			saw := h.sawtooth(ph)
			busy[j][0] += float64(g)
			busy[j][1] += saw
			if float64(g) > saw && !h.floorsHold(ph, saw) {
				busy[j][2] = 1
			}
		}
	})
	for j := range busy {
		busy[j][3] = behind[j]
		if busy[j][2] > 0 && busy[j][0] > busy[j][1] {
			// Falling behind where it works: it is busy. (A lag that
			// grows by less than a commit rhythm's production is the
			// sawtooth of a consumer that keeps up, and so is one whose
			// lag at its commits holds: a window shorter than its rhythm
			// sees only the climb between two of them.) Where it works
			// on many partitions, their lag together: one of them
			// climbing past its sawtooth, a burst, while the rest swing
			// back, is no busy member.
			behind[j] = math.Inf(1)
		}
	}
	h.moved, h.grew, h.behind, h.behindBound = moved, grew, behind, behindBound
	h.workTL, h.newest, h.prev, h.grewLong, h.peakTL = workTL, newest, prev, grewLong, peakTL
	h.workBy, h.work2 = workBy, work2
	h.busy = busy
	h.eachOwned(gh, at, n, func(ph *partHist, member string) {
		j := slices.Index(moved, member)
		if !waitsTurn(ph, t, h.floor()) {
			return
		}
		if ph.raw == StatusStall && ph.rh.halted() {
			// Its member halted with it (below), since its last
			// commit: stalled until it commits, whatever its member
			// does meanwhile.
			return
		}
		if j < 0 || behind[j] < 0 {
			if ph.raw == StatusStall {
				// Its member committed nowhere lately: it halted
				// with this partition.
				ph.rh.noteHalt()
			}
			return
		}
		// A member that falls behind on the partitions it commits on, or
		// reads records there at least half as old as this partition's
		// silence, is busy there: the partition waits its turn (falling
		// behind when the member's lag grows, catching up otherwise). One
		// that keeps up with its other partitions is not: something holds
		// this one.
		silence := float64(t-ph.rh.since) / 1e9
		if quiet := t - newest[j]; prev[j] > 0 && 2*quiet >= t-ph.rh.since && float64(quiet) > RhythmFactor*float64(newest[j]-prev[j]) && quiet > gh.pace.stretch {
			// Its member committed nowhere in the latter half of this
			// partition's silence, nor within twice how often it
			// commits: it is not busy elsewhere, its commits stopped
			// (a consumer that halted on all its partitions, whose
			// time lag grows on each as it stands). One that commits
			// after each fetched batch commits nowhere while it works
			// through a long one: its waits say so, and how they grow
			// (groupPace.stretch). A STALL is a halt then; a wait the
			// rules had not called STALL, beside partitions committed
			// after it that stand as well, waits on. (Where the
			// member's latest commit is this partition's, the member
			// is this partition, and its own time lag tells.)
			if ph.raw == StatusStall {
				ph.rh.noteHalt()
				return
			}
			if newest[j] > ph.rh.last {
				return
			}
		}
		// A lower bound counts for a partition that moved before and now
		// waits (a known wait): for one never seen moving, both date from
		// the history's first poll and prove nothing.
		far, work := behind[j], workTL[j]
		if ph.rh.fromKnown() {
			far, work = max(far, behindBound[j]), max(work, behindBound[j])
		}
		if ph.raw == StatusStall {
			// A member whose lag grew past its sawtooths where it works
			// (busy), but that reads fresh records there (its time lag
			// now and at its commits lately, below half this
			// partition's silence), commits its other partitions as
			// their records come: a burst grew its lag for a while. A
			// member serving its partitions in turn reads at each turn
			// records as old as the turn's wait. So a stalled partition
			// is judged on how far behind its member works, not on its
			// lag's growth.
			far = busy[j][3]
			if ph.rh.fromKnown() {
				far = max(far, behindBound[j])
			}
			far = max(far, peakTL[j])
			if far < silence/2 && t-ph.rh.since > recent {
				// The wait is longer than the span peakTL looks
				// over: a member serving its partitions in turn read,
				// when its turn at another began, records about as old
				// as that partition's wait, which its commits there
				// since this wait began show (memberPeak); where they
				// do not reach back so far, it is busy when it drained
				// a backlog there through the wait: a history too
				// short to hold a whole turn sees the member catch up
				// there, not the old records it read when its turn
				// began (memberDrained).
				peak, whole := h.memberPeak(gh, at, n, ph, member)
				far = max(far, peak)
				if far < silence/2 && !whole && h.memberDrained(gh, at, n, ph, member, t) {
					far = silence
				}
			}
		}
		if far < silence/2 {
			if !ph.rh.fromKnown() && ph.raw == StatusStall && behindBound[j] >= silence/2 {
				// Never seen moving, beside a member that reads records
				// at least half as old as everything this history saw
				// of the silence: both are lower bounds, and the turn
				// may be longer than the history. It waits its turn.
				ph.raw, ph.wait = StatusOK, WaitTurn
			}
			return
		}
		if ph.raw == StatusStall {
			// Its silence passed its rhythm: waiting its turn says why,
			// not that it keeps up.
			ph.raw, ph.wait = StatusOK, WaitTurn
			if grew[j] > KeepUpMessages && !afterHalt(gh, ph) {
				// Falling behind, where its member's lag grew (not
				// after a halt: afterHalt).
				ph.raw, ph.wait = StatusWarn, WaitNone
			}
			return
		}
		// A partition waiting within its group's rhythm: falling behind
		// when a live member reads records where it works older than how
		// often it commits (on any partition) explains, and its lag
		// grows. A member that keeps up commits records about one of its
		// rhythms old, whether it commits all its partitions at once or
		// one after another. (Without members, a group whose commits
		// stopped is not falling behind, it is stopping.)
		// Its lag grows over the window, or over the whole ring when it
		// commits less often than the window spans (a batch committed
		// drops it within the window).
		// Where it works: this partition's own time lag now says how
		// long it waits, not how far behind its member is elsewhere (a
		// partition stuck beside siblings that keep up), so the
		// member's other partitions' now, and the records it read at
		// its commits within the span, this one's included.
		if workBy[j] == ph {
			work = max(work2[j], peakTL[j])
			if ph.rh.fromKnown() {
				work = max(work, behindBound[j])
			}
		} else if wb := workBy[j]; wb != nil && afterHalt(gh, wb) {
			// Where its member reads the oldest records, a sibling works
			// off a halt's backlog (afterHalt): that says how long the
			// sibling stood, not how the member keeps pace. Its other
			// partitions tell.
			work = work2[j]
		}
		every := newest[j] - prev[j]
		g := grew[j]
		if every > h.floor() {
			g = grewLong[j]
		}
		// Not after a halt (afterHalt).
		// Nor a member idle: committed nowhere for longer than the wait
		// its rhythm predicts (the group's or this partition's, their
		// waits' growth counted: stallAfter). It works nowhere the
		// history shows, and the records it reads are old only in that
		// its commits stand, as a halted member's are. Its partitions
		// wait on their silence and read ERR STALL at twice that wait,
		// without a WARN before it: one verdict change for one of the
		// consumer. (A partition the rules called STALL is left to the
		// branch above: a member committing after each fetched batch
		// commits nowhere while it works through a long one.)
		rhythm := max(gh.pace.every, ph.rh.every())
		idle := float64(t-newest[j]) > float64(h.stallAfter(ph, int64(RhythmFactor*float64(rhythm)), gh.pace))/RhythmFactor
		if member != "" && prev[j] > 0 && g > KeepUpMessages && work > KeepUpSeconds+RhythmFactor*float64(every)/1e9 && !afterHalt(gh, ph) && !idle {
			ph.raw, ph.wait = StatusWarn, WaitNone
		}
	})
	// The scratch keeps its room, not the partitions it pointed at.
	clear(h.workBy)
}

// memberFalling calls WARN the partitions the rules call OK, with a
// backlog, of a member whose lag, summed over the partitions it owns
// and committed on within the ring of polls, climbed through the thirds
// of the ring (at least two of them with records waiting, the ring at
// least a window): each third by more than the member's partitions'
// sawtooths together, what a keeping-up member's lag swings by between
// any two polls, and stood now no lower than a sixth of the ring before
// (a member catching up, its climb still in the ring, is left to its
// partitions' own trends). A member serving its partitions in turn,
// slower than its producers, works each backlog off in its turn: the
// partition it works on reads caught up at its commits and the ones
// waiting stand, so that each partition's own trend reads OK for half
// of every turn, while the member's lag climbs turn after turn. A
// member that keeps up, or catches up, shows no such climb, and one
// whose lag rose by a burst or a rebalance's pause rose in one third,
// not in all three.
func (h *History) memberFalling(gh *groupHist, at func(int) *kafka.PartitionOffsets, n int) {
	k := min(h.seq-1, uint64(h.cfg.Samples-1))
	if k < uint64(h.cfg.Window) {
		return
	}
	candidate := false
	for i := range gh.parts {
		ph := &gh.parts[i]
		if ph.lastSeq != h.seq || !ph.owned || ph.raw != StatusOK || ph.wait != WaitNone {
			continue
		}
		if l := lagOf(h.sample(ph, h.seq)); l > KeepUpMessages && float64(l) > h.sawtooth(ph) {
			candidate = true
			break
		}
	}
	if !candidate {
		return
	}
	ids, fall := h.fallIDs[:0], h.fall[:0]
	h.eachOwned(gh, at, n, func(ph *partHist, member string) {
		if member == "" {
			return
		}
		j := slices.Index(ids, member)
		if j < 0 {
			ids, fall = append(ids, member), append(fall, [7]float64{})
			j = len(ids) - 1
		}
		if ph.raw == StatusStall || uint64(ph.sinceMove) >= k && lagOf(h.sample(ph, h.seq)) > 0 {
			// Stalled (after judgeTurns, which calls a partition
			// waiting its turn so no longer), or its commit stood
			// through the ring with records waiting: the member is
			// judged by that partition, not by the climb its lag
			// makes in the member's sum.
			fall[j][4] = math.NaN()
			return
		}
		if uint64(ph.span) < k || ph.rh.served() == 0 || ph.rh.resumed() || math.IsNaN(fall[j][4]) {
			// Not held over the whole ring, no rhythm seen (its
			// sawtooth unknown), or moving again after a halt (the
			// ring holds the climb the halt made, not the member's
			// pace since): the member's sum cannot be read.
			fall[j][4] = math.NaN()
			return
		}
		for q := range 4 {
			c, end := h.sample(ph, h.seq-k+uint64(q)*k/3)
			if l := lagOf(c, end); l >= 0 {
				fall[j][q] += float64(l)
			}
		}
		if c, end := h.sample(ph, h.seq-k/6); lagOf(c, end) >= 0 {
			fall[j][6] += float64(lagOf(c, end))
		}
		saw := h.sawtooth(ph)
		fall[j][4] += saw
		if c, end := h.sample(ph, h.seq); float64(lagOf(c, end)) > saw {
			fall[j][5]++ // a backlog waits here
		}
	})
	h.fallIDs, h.fall = ids, fall
	h.eachOwned(gh, at, n, func(ph *partHist, member string) {
		j := slices.Index(ids, member)
		if j < 0 || fall[j][5] < 2 || ph.raw != StatusOK || ph.wait != WaitNone {
			return
		}
		f := fall[j]
		if math.IsNaN(f[4]) || f[1]-f[0] <= f[4] || f[2]-f[1] <= f[4] || f[3]-f[2] <= f[4] || f[3] < f[6] {
			return
		}
		if c, end := h.sample(ph, h.seq); float64(lagOf(c, end)) > h.sawtooth(ph) {
			ph.raw = StatusWarn
		}
	})
}

// memberDrained reports whether, since ph's wait began, the member
// drained a backlog on one of the other partitions of the group it owns
// (judgeTurns): that partition's lag stood above its sawtooth at each
// poll of the wait, but for those of the last floor (its turn ending),
// and fell over the wait by more than the sawtooth; or, a few records
// apart (a trickle), records waited there at each of those polls and the
// time lag at its commits fell by more than its noise. A member serving its
// partitions in turn drains one backlog after another; one that keeps
// its other partitions caught up, or works off a burst there now and
// then, had time for ph. It holds only while the history holds the
// whole wait: a longer one is judged on the rhythm the history kept.
func (h *History) memberDrained(gh *groupHist, at func(int) *kafka.PartitionOffsets, n int, ph *partHist, member string, t int64) bool {
	var polls uint64
	for polls+1 < h.seq && h.timeAt(h.seq-polls-1) >= ph.rh.since {
		if polls+1 >= uint64(h.cfg.Samples) {
			return false
		}
		polls++
	}
	if polls == 0 {
		return false
	}
	floor := h.floor()
	drained := false
	h.eachOwned(gh, at, n, func(o *partHist, m string) {
		if drained || m != member || o == ph || uint64(o.span) < polls {
			return
		}
		saw := h.sawtooth(o)
		above, waiting := true, true
		for s := h.seq - polls; s < h.seq && waiting; s++ {
			if c, end := h.sample(o, s); t-h.timeAt(s) > floor {
				above = above && float64(lagOf(c, end)) > saw
				waiting = lagOf(c, end) > 0
			}
		}
		drained = above && float64(-h.lagGrowthOver(o, polls)) > saw ||
			waiting && o.rh.fellSince(ph.rh.since, h.trendNoise(o))
	})
	return drained
}

// memberPeak is the highest time lag at the commits of member's other
// partitions since ph's wait began (rhythm.peakSince), and whether their
// trend points reach back to it: a partition whose points all came after
// the wait began, its ring full, may have dropped older ones; one whose
// time lag at a commit since could not be read (records older than the
// history: its newest, being read, aside) shows nothing there; and a
// wait that began at the history's first poll (not rhythm.fromKnown) may
// have begun any time before, its member's turn elsewhere with it.
func (h *History) memberPeak(gh *groupHist, at func(int) *kafka.PartitionOffsets, n int, ph *partHist, member string) (peak float64, whole bool) {
	whole = ph.rh.fromKnown()
	h.eachOwned(gh, at, n, func(o *partHist, m string) {
		if m != member || o == ph {
			return
		}
		r := &o.rh
		peak = max(peak, r.peakSince(ph.rh.since))
		if r.ntrend == trendPoints && r.point(0).at >= ph.rh.since {
			whole = false
		}
		for i := int(r.ntrend) - 1; i >= 0 && r.point(i).at >= ph.rh.since; i-- {
			if r.point(i).tl < 0 && !(r.pending() && i == int(r.ntrend)-1) {
				whole = false // a time lag the history could not read
			}
		}
	})
	return peak, whole
}

// fellSince reports whether the time lag at the partition's commits since
// from fell by more than noise, from the first of them to the newest: its
// member worked off a backlog there (records a few to a turn, whose lag
// in records says little).
func (r *rhythm) fellSince(from int64, noise float64) bool {
	first, last := -1.0, -1.0
	for i := range int(r.ntrend) {
		if p := r.point(i); p.at >= from && p.tl >= 0 {
			if first < 0 {
				first = float64(p.tl)
			}
			last = float64(p.tl)
		}
	}
	return first >= 0 && first-last > noise
}

// sawtooth is how far a keeping-up consumer's lag on the partition swings
// between two polls: what is produced over its commit rhythm while served
// (its latest wait that ended at a commit, or its rhythm where that wait
// began at a caught-up poll) and a poll interval, and at least
// KeepUpMessages.
func (h *History) sawtooth(ph *partHist) float64 {
	rate := max(0, h.produceRate(ph))
	sv := ph.rh.served()
	if ph.rh.servedCaught() {
		// A wait that began at a caught-up poll is how long the
		// consumer took to commit records that had just arrived, not
		// how long it lets records wait: its rhythm is.
		sv = max(sv, ph.rh.every())
	}
	return max(KeepUpMessages, rate*float64(sv+h.pollGap())/1e9)
}

// floorsHold reports whether the partition's lag at its newest commit is
// within saw of its lag at the oldest commit in its last 2 x Window polls,
// or three of its served rhythms when they span more (commitMoves), at
// least two commits: the floor of its sawtooth does not climb.
func (h *History) floorsHold(ph *partHist, saw float64) bool {
	var buf [maxCommitPoints]commitPoint
	w := uint64(2 * h.cfg.Window)
	if gap := h.pollGap(); gap > 0 {
		w = max(w, uint64(3*ph.rh.served()/gap)+1)
	}
	pts := h.commitMoves(ph, w, buf[:0])
	return len(pts) >= 2 && float64(pts[0].lag-pts[len(pts)-1].lag) <= saw
}

// latestTwo is the two latest distinct times of a > b and t (0: none).
func latestTwo(a, b, t int64) (int64, int64) {
	switch {
	case t > a:
		return t, a
	case t < a && t > b:
		return a, t
	}
	return a, b
}

// lagGrowth is how much the partition's lag grew over the last Window
// polls (0 when either end is unknown or out of its ring).
func (h *History) lagGrowth(ph *partHist) int64 {
	if uint64(h.cfg.Window) > uint64(ph.span) {
		return 0
	}
	return h.lagGrowthOver(ph, uint64(h.cfg.Window))
}

// lagGrowthOver is how much the partition's lag grew over the last w
// polls, or over its whole ring when that is shorter (0 when either end
// is unknown).
func (h *History) lagGrowthOver(ph *partHist, w uint64) int64 {
	w = min(w, uint64(ph.span))
	if w == 0 {
		return 0
	}
	c1, e1 := h.sample(ph, h.seq)
	c0, e0 := h.sample(ph, h.seq-w)
	l1, l0 := lagOf(c1, e1), lagOf(c0, e0)
	if l1 < 0 || l0 < 0 {
		return 0
	}
	return l1 - l0
}

// memberPaces marks, for each of the group's partitions, how much of a
// rhythm its member showed across the partitions it owns at the latest
// poll (gh.unpaced): their silence is judged on the other members'
// rhythm only as far as it did (paceFor). Members commit what they
// processed, each on its own: one working through a backlog commits
// minutes apart while the others, caught up, commit every few seconds,
// and its partitions' silence says nothing of its rhythm until it shows
// one. A member that showed one is judged on its group's, as its
// partitions are one consumer's; one that showed a single wait is
// judged on its group's rhythm as a partition that showed its own once
// is (rhythm.confirmed): that wait may be out of its rhythm (a member
// serving a hot partition commits a sibling a few seconds after
// another, then not until the hot partition's batch is done), and its
// silence past it is no halt on that evidence alone.
func (h *History) memberPaces(gh *groupHist, at func(int) *kafka.PartitionOffsets, n int) {
	gh.unpaced = gh.unpaced[:0]
	if gh.pace.every == 0 {
		return // nothing to borrow
	}
	some := false
	for i := range gh.parts {
		if ph := &gh.parts[i]; ph.lastSeq == h.seq && !ph.rh.confirmed() {
			some = true
			break
		}
	}
	if !some {
		return
	}
	ids, paced := h.paceIDs[:0], h.paced[:0]
	defer func() {
		clear(ids)
		h.paceIDs, h.paced = ids[:0], paced[:0]
	}()
	// A share group's partition is every owner's (kafka.PartitionOffsets.Owners).
	owners := func(p *kafka.PartitionOffsets) []string {
		if ms := p.Owners(); len(ms) > 0 {
			return ms
		}
		if p.MemberID == "" {
			return nil
		}
		return []string{p.MemberID}
	}
	// Each member's waits seen, up to two: a wait on each of two
	// partitions is a rhythm shown twice.
	h.eachOwnedAt(gh, at, n, func(i int, p *kafka.PartitionOffsets) {
		var waits uint8
		if r := &gh.parts[i].rh; r.confirmed() {
			waits = 2
		} else if r.every() > 0 {
			waits = 1
		}
		for _, m := range owners(p) {
			j := slices.Index(ids, m)
			if j < 0 {
				ids, paced = append(ids, m), append(paced, 0)
				j = len(ids) - 1
			}
			paced[j] = min(paced[j]+waits, 2)
		}
	})
	if !slices.ContainsFunc(paced, func(w uint8) bool { return w < 2 }) {
		return
	}
	if cap(gh.unpaced) < len(gh.parts) {
		gh.unpaced = make([]uint8, len(gh.parts))
	}
	gh.unpaced = gh.unpaced[:len(gh.parts)]
	clear(gh.unpaced)
	h.eachOwnedAt(gh, at, n, func(i int, p *kafka.PartitionOffsets) {
		// The best paced of its owners.
		var best uint8
		for _, m := range owners(p) {
			best = max(best, paced[slices.Index(ids, m)])
		}
		if len(owners(p)) > 0 {
			gh.unpaced[i] = 2 - best
		}
	})
}

// paceFor is the pace gh.parts[i] is judged on: its group's; its group's
// rhythm unconfirmed where its member showed one wait; none where it
// showed none (memberPaces).
func (gh *groupHist) paceFor(i int) groupPace {
	if i >= len(gh.unpaced) {
		return gh.pace
	}
	switch gh.unpaced[i] {
	case 2:
		return groupPace{last: gh.pace.last, simple: gh.pace.simple, back: gh.pace.back}
	case 1:
		g := gh.pace
		g.confirmed = false
		return g
	}
	return gh.pace
}

// eachOwned calls f for each of the group's partitions in the snapshot
// with the owner's member id: "" for the partitions no member owns, which
// a job without members (one that assigns its partitions itself) serves
// together.
func (h *History) eachOwned(gh *groupHist, at func(int) *kafka.PartitionOffsets, n int, f func(*partHist, string)) {
	h.eachOwnedAt(gh, at, n, func(i int, p *kafka.PartitionOffsets) { f(&gh.parts[i], p.MemberID) })
}

// eachOwnedAt is eachOwned with the partition's index in gh.parts and
// its row.
func (h *History) eachOwnedAt(gh *groupHist, at func(int) *kafka.PartitionOffsets, n int, f func(int, *kafka.PartitionOffsets)) {
	i := 0
	for k := range n {
		p := at(k)
		for i < len(gh.parts) && compareKey(h.topicOf(&gh.parts[i]), gh.parts[i].partition, p.Topic, p.Partition) < 0 {
			i++
		}
		if i < len(gh.parts) && h.topicOf(&gh.parts[i]) == p.Topic && gh.parts[i].partition == p.Partition {
			f(i, p)
		}
	}
}

// hold1 moves the partition's held status by the hold rule, given the
// rules' status of this poll (ph.raw) and its lag now.
func (h *History) hold1(ph *partHist, lag int64) {
	raw := ph.raw
	defer func() {
		switch {
		case ph.held != StatusOK:
			ph.heldWait = WaitNone
		case raw == StatusOK:
			ph.heldWait = ph.wait
		}
		// Held at OK while the rules say WARN: the hold weighs the change,
		// and the wait the reader was shown stands until it is made.
	}()
	// Between polls whose rules gave WARN, a poll whose rules waited
	// because the time lag climbs (WaitRose, WaitGrew: not OK while it
	// does, though the trend calls no climb at that poll) says nothing
	// against it: the run towards WARN neither grows nor ends. A
	// consumer that commits minutes apart reads WARN by the trend at
	// some polls and rises at each commit at the others.
	pause := raw == StatusOK && (ph.wait == WaitRose || ph.wait == WaitGrew) && ph.held == StatusOK && ph.next == StatusWarn && lag > 0
	switch {
	case !ph.decided:
		// The first decision is the one a full window supports: for a
		// lagging partition, once its trend has the commits to tell
		// (trend), so that the hold does not delay the verdict those
		// commits give, and, for OK, once they do not all climb
		// (firstClimb).
		full := int(ph.winLen) >= h.cfg.Window || int(ph.unLen) >= h.cfg.Window
		if full && raw == StatusOK && lag > 0 && ph.unLen == 0 {
			_, _, full, _ = h.trend(ph, nil)
			full = full && !h.firstClimb(ph)
		}
		ph.decided = full
		if pause && !full {
			return
		}
		if raw == StatusWarn && ph.held == StatusOK && lag > 0 && !full {
			// A WARN before the first decision is weighed as a change
			// to WARN is: the rules' first WARN from a few commits (a
			// burst, a turn that began late) may be gone at the next,
			// and shown at once it is a WARN and then OK for one
			// consumer. Meanwhile the reader is shown JUDGING
			// (partitionHealth). Once it holds, it is the decision.
			h.weigh(ph, raw)
			ph.decided = ph.decided || ph.held == StatusWarn
			return
		}
		ph.held, ph.next, ph.holdRun = raw, raw, 0
	case isFact(raw) || isFact(ph.held) || lag == 0:
		if lag == 0 && ph.held == StatusWarn {
			// Caught up: the climb that made the WARN is over, and the
			// trend starts again (a consumer that falls behind again,
			// after production paused, is judged on its new climb).
			ph.rh.endClimb()
		}
		ph.held, ph.next, ph.holdRun = raw, raw, 0
	case pause:
	case raw == ph.held:
		ph.next, ph.holdRun = raw, 0
	default:
		h.weigh(ph, raw)
	}
}

// weigh counts the rules' status raw (OK or WARN, not the held one)
// towards a change of the partition's held status, and makes the change
// once it held: Config.Hold polls in a row (a wait on the climb between
// two towards WARN aside, see hold1), spanning a third of the floor at
// least (at one-second polls a few polls are a few seconds, which a
// burst of production outlasts). A change to WARN, a trend, spans one of
// the consumer's rhythms too, up to the floor: a sawtooth climbs for one
// rhythm between commits, and meanwhile the reader is shown JUDGING, not
// OK (partitionHealth). A run longer than the ring of poll times has
// lasted long enough.
func (h *History) weigh(ph *partHist, raw Status) {
	if raw != ph.next {
		ph.next, ph.holdRun = raw, 1
		if h.cfg.Hold <= 1 {
			ph.held, ph.holdRun = raw, 0
		}
		return
	}
	ph.holdRun = min(ph.holdRun+1, math.MaxUint8)
	need := h.floor() / 3
	if raw == StatusWarn {
		need = max(need, min(ph.rh.every(), h.floor()))
	}
	k := min(uint64(ph.holdRun), uint64(h.cfg.Samples-1), h.seq-1)
	long := k < uint64(ph.holdRun) || h.timeAt(h.seq)-h.timeAt(h.seq-k) >= need
	if int(ph.holdRun) >= h.cfg.Hold && long {
		ph.held, ph.holdRun = raw, 0
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
// raw now (lag is its lag now): raw itself when it is a fact, the held
// status was one (a fact is dropped as soon as the rules no longer find
// it, as hold1 drops it at the next poll: a REWIND faded between polls
// is not reported without its drop) or the partition caught up; the
// held status otherwise.
func (ph *partHist) hold(raw Status, lag int64) Status {
	if isFact(raw) || isFact(ph.held) || lag == 0 || !ph.decided && raw != StatusWarn {
		return raw
	}
	return ph.held
}
