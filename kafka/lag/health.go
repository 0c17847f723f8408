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

// verdict applies the health rules to one partition whose committed
// offset is c and log end is end at the latest poll, as of now; every
// is the rhythm to judge its silence by when it showed none of its own
// (its group's, see judgeGroup; 0: none). The rules, in order, for a
// partition with lag > 0 now and at least one commit observation (a
// caught-up partition is OK: nothing waits):
//
//  1. REWIND: an observation is below the highest one before it, the
//     current offset is still below that high, and the drop is at most
//     one floor old (see History.floor): an event holds for one window,
//     then the verdict follows the partition's state, so two observers
//     that started at different times agree within one window.
//  2. The silence: how long the commit has stood while records waited
//     (since its latest forward move or caught-up poll, or the first
//     poll). Without a member owning the partition, a silence longer
//     than the floor and RhythmFactor times the consumer's rhythm is
//     STOP; a consumer that commits without members (a job that assigns
//     partitions itself and commits on checkpoints) shows it with its
//     commits, or by being a simple group (kafka.Group.Simple: no member
//     ever joined it), and waits (WaitRhythm) until its rhythm is known
//     or the silence passes what no rhythm explains (unseenHalt). With a member owning it, the same
//     silence is STALL, or, when each of its latest waits was longer than
//     the one before, the silence past what their growth predicts
//     (stallAfter; WARN or WaitStretch until then); with no rhythm seen
//     yet, it waits (WaitRhythm) until the silence passes what a rare
//     rhythm explains (unseenHalt), since the consumer may commit on
//     checkpoints minutes apart, and its time lag cannot tell. One wait from a caught-up poll is no rhythm: a
//     consumer on a timer commits anywhere from at once to a full period
//     after records arrive at a partition it had caught up on. A rhythm
//     is known once the partition, or another of its group, showed two
//     waits, or one that followed a commit (rhythm.periodic); another
//     of its group only when the partition's member showed a rhythm on
//     some partition it owns (History.memberPaces). A rhythm seen once
//     (no partition of the group showed two waits: rhythm.confirmed)
//     calls no STALL: past it, the silence waits (WaitRhythm) as with no
//     rhythm seen, since one wait may be a commit out of the rhythm (a
//     member joining or leaving, a restart).
//  3. WARN: the time lag at the partition's commits climbs (trend):
//     falling behind, whatever the rhythm and the lag's sequence look
//     like. Held at WARN, it stays WARN while the climb goes on over the
//     trend's span though its newest commit fell below the one before
//     (trend's climbing: the scatter of bursty production; or the lag
//     in records at its commits climbs where its time lag dropped by a
//     pause in production crossed, gapCrossed), or while its lag in
//     records says it falls behind, until two commits at
//     which its time lag and lag fell end the climb (climbEnded), or
//     one where most of its group's partitions that committed lately
//     fell too (groupFell, fellOnce). A new climb that is all
//     at the newest commit is a step, not a trend: it waits for the
//     next commit (WaitStep). A time lag that climbed, since a wait
//     that began about caught up, past what the consumer showed keeping
//     up waits for its next commit (WaitCalm). With too few commits for
//     a trend while the time lag is above what keeping up explains
//     (KeepUpSeconds and twice the rhythm, at least a poll interval),
//     it waits (WaitTrend): never OK on a
//     time lag nobody can say is bounded; and so it does with such a
//     backlog whose commits span too short a time for the trend to see
//     a slow climb, unless they show it catching up (unresolved).
//  4. Otherwise OK.
func (h *History) verdict(ph *partHist, c, end, now int64, g groupPace, tu *turns) (Status, Rewind, WaitKind) {
	lag := lagOf(c, end)
	n := int(ph.winLen)
	if lag <= 0 || n == 0 {
		return StatusOK, Rewind{}, WaitNone
	}
	floor := h.floor()
	var buf [32]obs
	os := h.observations(ph, buf[:0])
	if rw, ok := h.rewind(os, c); ok && now-rw.At.UnixNano() <= h.eventHold() {
		return StatusRewind, rw, WaitNone
	}

	r := &ph.rh
	silence := now - r.since
	// A silence is judged on the longer of the partition's rhythm and its
	// group's (the members commit together); the trend on its own where
	// it has one (a sibling's long waits say nothing of how far behind
	// this partition's records are).
	every := g.every
	if own := r.every(); own > 0 {
		every = own
	}
	limit := max(floor, int64(RhythmFactor*float64(max(every, g.every))))
	// Without members, a group whose commits still move on other
	// partitions, well after this one's last, is served by a job that
	// assigns them itself: its standing partition is judged as a live
	// member's is. (A group whose members left stops committing on every
	// partition within about one rhythm.)
	owned := ph.owned || g.last != 0 && now-g.last <= limit && g.last-r.last > limit/2
	// overdue: the commit stands past its rhythm under a live member, but
	// its waits grow with its backlog (stallAfter): not STALL yet, and
	// not OK.
	overdue := false
	switch {
	case !owned && every > 0 || !owned && r.movesSeen() == 0 && !g.simple:
		if silence > limit {
			return StatusStop, Rewind{}, WaitNone
		}
		if every > 0 && silence > max(every, 2*h.pollGap()) {
			// No member, and its commit overdue: it stops, or a job that
			// commits without members shows itself by committing.
			// Nothing says it keeps up meanwhile.
			return StatusOK, Rewind{}, WaitRhythm
		}
	case !owned:
		if silence > h.unseenHalt(g.simple) {
			return StatusStop, Rewind{}, WaitNone
		}
		if silence > floor {
			return StatusOK, Rewind{}, WaitRhythm
		}
	case every > 0 && (r.periodic() || g.settled):
		if after := h.stallAfter(ph, limit, g); silence > after {
			if g.back > r.since && now-g.back <= after {
				// Its members came back after a time without any,
				// since the commit: they get the consumer's time.
				return StatusOK, Rewind{}, WaitBack
			}
			if !r.confirmed() && !g.confirmed && silence <= h.unseenHalt(true) {
				// Its rhythm was seen once, by one wait: that wait may
				// have been a commit out of its rhythm (a member joining
				// or leaving), and a consumer that commits rarely stands
				// this long between its commits. It waits as one that
				// showed no rhythm does.
				return StatusOK, Rewind{}, WaitRhythm
			}
			return StatusStall, Rewind{}, WaitNone
		}
		overdue = silence > limit
	default:
		if after := h.unseenHalt(true); silence > after {
			if g.back > r.since && now-g.back <= after {
				return StatusOK, Rewind{}, WaitBack
			}
			return StatusStall, Rewind{}, WaitNone
		}
		if silence > floor {
			return StatusOK, Rewind{}, WaitRhythm
		}
	}

	if r.halted() {
		// The rules called it stalled or stopped since its last commit,
		// and its silence is now within what its group's rhythm allows:
		// the partitions its member moved again ended waits as long as
		// the halt, and the group's rhythm counts them. Its trend is of
		// the consumer before the halt, whose climb the halt extended;
		// its own next commit starts it again (noteRhythm). Until then
		// nothing says how it reads now.
		return StatusOK, Rewind{}, WaitTrend
	}
	behind, climbing, enough, turnStep := h.trend(ph, tu)
	var stepNewest bool
	if behind {
		rise, newest := h.recordsStep(ph, g.membersAt)
		if rise > 0 && !newest {
			// A step in records at a rebalance, held since: the
			// consumer keeps pace from where its new member started.
			behind, climbing = false, false
		}
		stepNewest = rise > 0 && newest
	}
	if behind && (!ph.decided || ph.held != StatusWarn) {
		if _, step := h.stepped(ph); step || stepNewest {
			// The climb is all at the newest commit: one step is not a
			// trend. A partition handed to a member that processes
			// again what the last owner had not committed, or a
			// consumer that paused once, steps back and keeps pace;
			// one that begins to fall behind climbs again at its next
			// commit.
			return StatusOK, Rewind{}, WaitStep
		}
	}
	if behind || ph.decided && ph.held == StatusWarn && enough && !h.climbEnded(ph) && !(g.fell && h.fellOnce(ph)) && (climbing || h.fallingBehind(ph, c, end, now)) {
		// Held at WARN, the trend's climb goes on though its newest
		// commit fell below the one before (climbing: the scatter of a
		// burst cycle), or the commits' lag also says falling behind
		// (fallingBehind: consumed less than produced beyond noise, the
		// lag grew): a consumer reading records written faster than now
		// holds its time lag for a while, and stays WARN.
		return StatusWarn, Rewind{}, WaitNone
	}
	if turnStep {
		// Served in turn, its latest turn began further behind than the
		// one before: a step or the start of a climb, which its next
		// turn tells (turns.step).
		return StatusOK, Rewind{}, WaitTurnStep
	}
	if overdue {
		return StatusOK, Rewind{}, WaitStretch
	}
	trendEvery := every
	if r.resumed() {
		// Moving again after a halt: the halt is not its rhythm (its
		// wait through the halt is its longest). Nor is it how much
		// time lag keeping up explains.
		trendEvery = r.served()
	}
	tl, atLeast := h.judgedTimeLag(ph, c, end, now)
	if !enough && r.resumed() && (!tl.Known() || tl.Seconds > KeepUpSeconds+float64(h.pollGap())/1e9) {
		// Moving again after a STALL or STOP, with a backlog (past
		// keeping up and a poll's sampling) and too few commits since
		// for a trend: the rhythm and the commits from before the halt
		// say nothing of how it reads now.
		return StatusOK, Rewind{}, WaitTrend
	}
	if !tl.Known() {
		return StatusOK, Rewind{}, WaitNone
	}
	if h.leftCalm(ph, tl.Seconds) {
		// Its time lag climbed, since it was about caught up, past what
		// it ever showed keeping up: its long waits, if any, were waits
		// with a backlog. Its next commit tells.
		return StatusOK, Rewind{}, WaitCalm
	}
	if !enough && (tl.Seconds > float64(KeepUpSeconds)+RhythmFactor*float64(max(trendEvery, h.pollGap()))/1e9 || h.backlogAtCommit(ph, tl, now)) {
		return StatusOK, Rewind{}, WaitTrend
	}
	if h.unresolved(ph, tl.Seconds, float64(KeepUpSeconds)+RhythmFactor*float64(max(trendEvery, h.pollGap()))/1e9) > 0 {
		// A backlog, and commits spanning too short a time for the
		// trend to tell a consumer a little slower than its producers
		// from one that keeps pace: OK would be a guess.
		return StatusOK, Rewind{}, WaitTrend
	}
	if r.grewLate(now, tl.Seconds, every, h.pollGap()) {
		// Its commit is later than its longest wait, and its time lag
		// grew past that wait since: a partition waiting its turn
		// while no commit is two rhythms old yet. Not OK.
		return StatusOK, Rewind{}, WaitGrew
	}
	if span := max(floor, 2*trendEvery); r.grewSince(now, tl.Seconds, span) || h.grewSinceDrop(ph, now, tl.Seconds, span) || r.grewPast(now, tl.Seconds, max(2*trendEvery, 2*h.pollGap())) || atLeast && r.grewAtCommits(span) || h.grewOverSpan(ph, tl.Seconds, now, span) || h.windowSpan() > span && h.grewOverSpan(ph, tl.Seconds, now, h.windowSpan()) || atLeast && h.lagGrewOverSpan(ph, now, span) && h.lagGrewOverSpan(ph, now, 2*span) {
		// The time lag grew by more than half the time since a commit
		// at least two rhythms old, or since the first commit after a
		// drop (a pause in production crossed) half of that old, or
		// over the window's span in time
		// (polls further apart than MinDistance stretch it past the
		// floor: a consumer that resumed after a stall, its time lag
		// falling over two 30 s polls, still grew over the window's
		// ten): more than a sawtooth of that rhythm explains. Or, its
		// time lag known only as a lower bound, its backlog grew over
		// the span and over twice it (a burst's records grow it for a
		// while) while it commits. Not OK, whatever the trend of the
		// commits says yet.
		return StatusOK, Rewind{}, WaitGrew
	}
	if _, _, n := h.roseAtEach(ph); n > 0 {
		// Each of its newest commits stands further behind than the
		// one before, past the noise: not OK, though the trend's thirds
		// do not yet climb past their share of its span.
		return StatusOK, Rewind{}, WaitRose
	}
	if h.newHigh(ph) && tl.Seconds > KeepUpSeconds+float64(h.pollGap())/1e9 {
		// Its newest commit stands further behind than any before it,
		// past the noise, and it is behind now: a step (a rebalance
		// that hands its records again, a burst) or the start of a
		// climb, which its next commit tells. Not OK meanwhile, though
		// the trend, diluted by the commits before, calls no climb; a
		// climb that goes on makes a new high at each commit until
		// roseAtEach or the trend reads it.
		return StatusOK, Rewind{}, WaitStep
	}
	return StatusOK, Rewind{}, WaitNone
}

// newHigh reports whether the time lag at the partition's newest commit
// stands above the time lag at every commit before it in its trend
// (three at least, their time lags known) by more than the noise of
// sampling (trendNoise), its lag in records no lower than at the commit
// before. Unlike stepped, the commits before it may have climbed too:
// each commit of a consumer that began to fall behind is a new high,
// while one that stepped once and keeps pace since is not. A consumer
// working off records written faster than it reads them (a backlog
// from before a pause in production) climbs in time lag while its lag
// falls: catching up, no step.
func (h *History) newHigh(ph *partHist) bool {
	var buf [trendPoints]trendPoint
	known := ph.rh.knownPoints(&buf)
	nk := len(known)
	if nk < 3 {
		return false
	}
	before := known[0].tl
	for _, p := range known[1 : nk-1] {
		before = max(before, p.tl)
	}
	return float64(known[nk-1].tl-before) > h.trendNoise(ph) && known[nk-1].lag >= known[nk-2].lag
}

// unseenHalt is how long the partition's commit may stand before it is
// STALL (or STOP) when its consumer showed no rhythm (History.verdict):
// the ceiling (Config.RhythmCeiling, and the floor), and UnseenRhythms
// ceilings where slow says its consumer may commit rarely (a live
// member, a simple group's job).
//
// A consumer not yet seen to commit twice may commit as rarely as a
// job's checkpoints, several minutes apart. Its time lag does not tell a
// halt from such a rhythm: one keeping up shows a time lag climbing to
// its rhythm before each commit, as a halted consumer's does, and one
// falling behind on that rhythm a time lag past any rhythm, as a
// consumer halted long ago does. Only the silence tells them apart.
func (h *History) unseenHalt(slow bool) int64 {
	ceiling := int64(h.cfg.RhythmCeiling)
	if slow {
		ceiling *= UnseenRhythms
	}
	return max(h.floor(), ceiling)
}

// UnseenRhythms is how many ceilings (Config.RhythmCeiling) the commit
// of a consumer that showed no rhythm, but may commit rarely, must stand
// before it is a halt (History.unseenHalt): a rhythm up to twice the
// ceiling (checkpoints every 10 minutes, by default) and a ceiling
// beyond it.
const UnseenRhythms = 3

// stallAfter is how long the partition's commit may stand under a live
// member before it is STALL, where its rhythm gives limit (RhythmFactor
// times it, and the floor). A consumer that commits after each fetched
// batch fetches what waits, so while it falls behind each batch is
// larger and takes longer than the one before, until a full batch
// (Java's max.poll.records). When each of its latest waits was longer
// than the one before, the next may be as much longer again
// (rhythm.stretch), and RhythmFactor times that is the limit; meanwhile
// the trend still decides WARN, and otherwise it waits (WaitStretch). A
// consumer on a timer waits about as long each time, and is judged on
// its rhythm alone; so is one whose waits did not grow, or that showed
// fewer than two. A partition that showed no waits of its own (one its
// member serves in turn) is judged on its group's growing waits
// (groupPace.stretch), as on its group's rhythm.
func (h *History) stallAfter(ph *partHist, limit int64, g groupPace) int64 {
	stretch := ph.rh.stretch(h.pollGap())
	if ph.rh.ngaps == 0 {
		stretch = g.stretch
	}
	return max(limit, int64(RhythmFactor*float64(stretch)))
}

// backlogAtCommit reports whether the partition's newest commit left a
// backlog: its time lag then (the floor of the sawtooth) beyond the noise
// of sampling. A consumer that commits on a timer, or per record, and
// keeps up commits where it is, about nothing behind; one that commits
// after each fetched batch is a batch's processing behind, and one with a
// backlog, falling behind or catching up, commits further back. One
// commit cannot tell them apart: only a trend can, and until there is
// one the verdict waits rather than guess OK. (The time lag between
// commits climbs by one rhythm on any consumer, so it tells nothing
// before RhythmFactor rhythms.) A commit made at this poll, its record
// not read yet (it is read after the poll is judged), is read at tl, the
// time lag the rules judge now (History.judgedTimeLag): on the commit
// before, a consumer with a backlog read OK at each poll that saw a
// commit and waited at the polls between.
func (h *History) backlogAtCommit(ph *partHist, tl TimeLag, now int64) bool {
	r := &ph.rh
	if r.ntrend == 0 {
		return false
	}
	p := r.point(int(r.ntrend) - 1)
	at := float64(p.tl)
	if p.tl < 0 && p.at == now && (tl.Kind == TimeLagInterpolated || tl.Kind == TimeLagExact) {
		at = tl.Seconds
	}
	return at >= 0 && at > KeepUpSeconds+float64(2*h.pollGap())/1e9
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

// haltAfter is the silence past which a partition a live member owns is
// STALL (History.verdict): the limit its rhythm, or its group's, gives
// (stallAfter), or, without a rhythm, unseenHalt.
func (h *History) haltAfter(ph *partHist, g groupPace) int64 {
	every := g.every
	if own := ph.rh.every(); own > 0 {
		every = own
	}
	if every > 0 && (ph.rh.periodic() || g.settled) {
		after := h.stallAfter(ph, max(h.floor(), int64(RhythmFactor*float64(max(every, g.every)))), g)
		if !ph.rh.confirmed() && !g.confirmed {
			// A rhythm seen once (History.verdict).
			after = max(after, h.unseenHalt(true))
		}
		return after
	}
	return h.unseenHalt(true)
}

// lagGrewOverSpan is grewOverSpan for a time lag known only as a lower
// bound (its record is older than the time-lag points, so the time lag a
// span back is no better known): the lag in records now exceeds the one
// at the latest poll at least span before now by more than a poll's
// production, a few records and EqualRateShare of what was produced
// meanwhile, while the consumer commits on it: its commit moved at the
// latest poll. A consumer that far behind whose backlog grows while it
// reads it is not catching up now, whatever its commits' older trend
// says. (A partition waiting its turn while its member serves others
// sees its backlog grow too; the rules for waits judge it.)
func (h *History) lagGrewOverSpan(ph *partHist, now, span int64) bool {
	if ph.sinceMove != 0 {
		return false
	}
	seq, ok := h.spanBack(ph, now, span)
	if !ok {
		return false
	}
	c, end := h.sample(ph, seq)
	nc, nend := h.sample(ph, ph.lastSeq)
	if c < 0 || nc < 0 || nend < end {
		return false
	}
	produced := float64(nend - end)
	noise := max(KeepUpMessages, max(0, h.produceRate(ph))*float64(h.pollGap())/1e9, EqualRateShare*produced)
	return float64(lagOf(nc, nend)-lagOf(c, end)) > noise
}

// spanBack is the latest poll of the partition's history at least span
// before now, where the consumer committed since (false: none, or no
// commit since it: a wait is the silence rules' to judge).
func (h *History) spanBack(ph *partHist, now, span int64) (uint64, bool) {
	from := h.firstSeq(ph.first(), ph.lastSeq)
	for seq := ph.lastSeq; seq > from; {
		seq--
		t := h.timeAt(seq)
		if now-t < span {
			continue
		}
		return seq, ph.rh.last > t
	}
	return 0, false
}

// grewOverSpan reports whether the time lag now (tl seconds) exceeds the
// one at the latest poll at least span before now by more than half the
// time between them, while the lag in records grew by more than a poll's
// production and a few records: grewSince read at the polls, not only at
// the trend's points. Those are trendSpacing apart at least, so the newest
// one a span old may be well older than the span, and a climb that began
// after it reads as less than half the time since (a member that left, a
// restart: OK for a few polls while the time lag grew by more than half
// the span). The lag in records must grow too: where records are sparse
// the time lag between polls is the interpolation's (the time the log end
// last stood below the commit), which overstates it between records, and
// a consumer working off a backlog during a pause in production sees its
// time lag climb while its lag falls: catching up. And the consumer must
// have committed since: a wait is the silence rules' to judge. Moving
// again after a halt (rhythm.resumed), the lag in records need not grow:
// the span holds the halt's climb, which no pause in production or
// interpolation made, and a consumer working off what the halt left
// is not OK until its window no longer shows the halt (it catches up,
// or the climb passes out of the span).
func (h *History) grewOverSpan(ph *partHist, tl float64, now, span int64) bool {
	seq, ok := h.spanBack(ph, now, span)
	if !ok {
		return false
	}
	t := h.timeAt(seq)
	c, end := h.sample(ph, seq)
	then := h.timeLagOf(ph, c, end, t)
	switch then.Kind {
	case TimeLagInterpolated, TimeLagExact, TimeLagCaughtUp:
	default:
		return false
	}
	nc, nend := h.sample(ph, ph.lastSeq)
	noise := max(KeepUpMessages, max(0, h.produceRate(ph))*float64(h.pollGap())/1e9)
	return tl-then.Seconds > float64(now-t)/2e9 && (ph.rh.resumed() || float64(lagOf(nc, nend)-lagOf(c, end)) > noise)
}

// grewBy sets w's Rise and Over for a WaitGrew (History.verdict): of the
// partition's commits in its trend, and the caught-up poll that began one
// of its two latest waits (a time lag of 0), at least two polls old, the
// one the time lag now grew past by the most beyond half the time since;
// where none did, the poll a floor back, or a window back (a climb made
// before the trend's first commit: a halt's); where the one found spans
// less than a floor and the wait holds on its commits' climb
// (History.stillClimbs), that climb from the commit a floor back; where
// none, its time lag only a lower bound, how much its lag in records
// grew over the window's span (RiseRecords).
func (h *History) grewBy(ph *partHist, w *Wait, now int64) {
	c, end := h.sample(ph, ph.lastSeq)
	tl := h.timeLagOf(ph, c, end, now)
	r := &ph.rh
	short := 2 * h.pollGap()
	best, held := 0.0, false
	try := func(at int64, then float64) {
		since := float64(now-at) / 1e9
		if now-at < short || since <= 0 {
			return
		}
		if x := tl.Seconds - then - since/2; x > best {
			best = x
			w.Rise = time.Duration((tl.Seconds - then) * float64(time.Second))
			w.Over = time.Duration(now - at)
		}
	}
	if tl.Kind == TimeLagExact || tl.Kind == TimeLagInterpolated {
		for i := range int(r.ntrend) {
			if p := r.point(i); p.tl >= 0 {
				try(p.at, float64(p.tl))
			}
		}
		if at := r.caughtAt(); at > 0 {
			try(at, 0)
		}
		// Where no commit shows it, the polls a floor and a window
		// back, as grewOverSpan reads them: after a halt, the climb is
		// the halt's, before the trend's first point.
		for _, back := range [...]int64{h.floor(), h.windowSpan()} {
			if seq, ok := h.spanBack(ph, now, back); ok && best == 0 {
				oc, oend := h.sample(ph, seq)
				at := h.timeAt(seq)
				switch then := h.timeLagOf(ph, oc, oend, at); then.Kind {
				case TimeLagInterpolated, TimeLagExact, TimeLagCaughtUp:
					try(at, then.Seconds)
				}
			}
		}
		if p, ok := h.stillClimbs(ph); ok && int64(w.Over) < h.floor() && tl.Seconds > float64(p.tl) {
			// A wait held while its commits climb by a little less than
			// half the time (grewHold), past half only over a poll or
			// two of a sawtooth: the climb since the commit a floor
			// back says how it grows.
			held = true
			w.Rise = time.Duration((tl.Seconds - float64(p.tl)) * float64(time.Second))
			w.Over = time.Duration(now - p.at)
		}
	}
	if best > 0 || held {
		return
	}
	w.Rise, w.Over = 0, 0
	if seq, ok := h.spanBack(ph, now, h.windowSpan()); ok {
		oc, oend := h.sample(ph, seq)
		if grew := lagOf(c, end) - lagOf(oc, oend); oc >= 0 && c >= 0 && grew > 0 {
			w.RiseRecords = grew
			w.Over = time.Duration(now - h.timeAt(seq))
		}
	}
}
