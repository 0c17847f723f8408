package lag

import (
	"time"

	"github.com/kgroups/kgroups/kafka"
)

// PartitionHealth is everything the history knows about one partition of a
// group at the latest poll.
type PartitionHealth struct {
	Topic     string
	Partition int32
	// Status is OK for a partition without a commit or without lag: only
	// lagging partitions are judged.
	Status Status
	// Rewind holds the offsets involved when Status is StatusRewind.
	Rewind Rewind
	// ResetBy is the reset kgroups made (History.NoteReset) that explains
	// a REWIND; nil for any other status, or a rewind nobody explained.
	ResetBy *Reset
	// Committed, LogStart, LogEnd and Lag are as of the latest poll
	// (kafka.NoOffset when unknown).
	Committed, LogStart, LogEnd, Lag int64
	// Truncated reports a committed offset below the log start: retention
	// deleted messages before the group consumed them.
	Truncated bool
	// Owned reports whether a member held the partition at the latest poll.
	Owned bool
	// Uncommitted reports a partition a live member owns with no committed
	// offset (the group's offsets were read): its lag cannot be measured,
	// and it is judged NO-COMMITS once that has lasted a full window.
	Uncommitted bool
	// TimeLag is how far behind the consumer is in seconds.
	TimeLag TimeLag
	// ProduceRate and ConsumeRate are log-end and committed growth in
	// messages per second over the last RatePolls polls, or UnknownRate.
	ProduceRate, ConsumeRate float64
	CatchUp                  CatchUp
	// Restarted is when kgroups saw the partition's log replaced (its
	// topic recreated, another cluster at the address) and started its
	// history again, while the history still spans that poll; the zero
	// time otherwise. Nothing is judged across it: the verdict waits for
	// a window of the new log.
	Restarted time.Time
	// Wait says why an OK status waits for evidence although the window
	// is full (Kind WaitNone when it does not): the verdict is JUDGING
	// with Wait.Reason.
	Wait Wait
	// Observations is how many commit observations the health rules saw
	// (at most Window); STALL and WARN need Window of them. For a
	// partition a member owns without a commit (Committed is
	// kafka.NoOffset) it counts the polls that saw it so, spaced the same
	// way; NO-COMMITS needs Window of them.
	Observations int
}

// waits reports whether the partition's verdict waits for a full window
// of observations it does not have yet: one that lags (STALL and WARN
// judge a trend) or one owned without a commit (NO-COMMITS).
func (p *PartitionHealth) waits(window int) bool {
	return (p.Lag > 0 || p.Uncommitted) && p.Observations < window
}

// GroupHealth sums a group up: the worst partition decides its status.
type GroupHealth struct {
	Group string
	// Status is the worst partition status; Severity folds it into
	// OK, WARN or ERR.
	Status   Status
	Severity Severity
	// TotalLag sums the known lags.
	TotalLag int64
	// MaxTimeLag is the largest known partition time lag (its Kind tells
	// whether it is an estimate or a bound); unknown only when no
	// partition's time lag is known.
	MaxTimeLag TimeLag
	// ProduceRate and ConsumeRate sum the partitions' known rates, or are
	// UnknownRate when no partition's rate is known.
	ProduceRate, ConsumeRate float64
	// CatchUp applies lag / (consume - produce) to the totals of the
	// partitions whose lag and rates are both known; it is unknown while
	// a lagging partition has no rates yet. The group is KeepingUp only
	// when every lagging partition is, each on rates of enough polls:
	// totals at equal rates would hide a stuck partition behind busy
	// ones. It is worked out as each poll is added and held against
	// flapping (catchup.go), so every reader gives the same answer.
	CatchUp CatchUp
	// Complete reports whether every lagging partition has a full window,
	// so that STALL and WARN could have been detected, and every partition
	// owned without a commit too (NO-COMMITS).
	Complete bool
	// Wait is why the verdict waits for evidence though every window is
	// full: the wait of the partition that has waited longest (Kind
	// WaitNone when none waits).
	Wait Wait
	// Observations is how many polls, at least MinDistance apart and at
	// most Window, have seen the group: Judge decides nothing but ERR and
	// WARN before the group itself was watched for a full window.
	Observations int
	// Partitions are the group's partitions at the latest poll, sorted by
	// topic then partition.
	Partitions []PartitionHealth
}

// Evaluate judges a group as of now (the caller's clock, so that tests and
// `kgroups health` control time). It reports false when the group was not
// in the latest snapshot.
func (h *History) Evaluate(group string, now time.Time) (GroupHealth, bool) {
	return h.EvaluateInto(group, now, nil)
}

// EvaluateInto is Evaluate appending the partitions to buf[:0], so a screen
// that evaluates every group on every poll can reuse one buffer per group.
func (h *History) EvaluateInto(group string, now time.Time, buf []PartitionHealth) (GroupHealth, bool) {
	gh, ok := h.groups[group]
	if !ok || gh.lastSeq != h.seq || h.seq == 0 {
		return GroupHealth{}, false
	}
	nowNs := now.UnixNano()
	g := GroupHealth{
		Group:        group,
		ProduceRate:  UnknownRate,
		ConsumeRate:  UnknownRate,
		Complete:     true,
		Observations: gh.obsLen,
		Partitions:   buf[:0],
	}
	for i := range gh.parts {
		ph := &gh.parts[i]
		if ph.lastSeq != h.seq {
			continue // missing from the latest poll, kept until evicted
		}
		p := h.partitionHealth(gh, ph, gh.paceFor(i), nowNs)
		if p.Status == StatusRewind {
			p.ResetBy = h.resetBehind(group, p.Topic, p.Partition, p.Rewind)
		}
		g.Partitions = append(g.Partitions, p)
		if p.Wait.Kind != WaitNone && (g.Wait.Kind == WaitNone || p.Wait.Silence > g.Wait.Silence) {
			g.Wait = p.Wait
		}

		if p.Status > g.Status {
			g.Status = p.Status
		}
		if p.Lag > 0 {
			g.TotalLag = addLag(g.TotalLag, p.Lag)
		}
		if p.waits(h.cfg.Window) {
			g.Complete = false
		}
		if p.TimeLag.Known() && (!g.MaxTimeLag.Known() || p.TimeLag.Seconds > g.MaxTimeLag.Seconds ||
			p.TimeLag.Seconds == g.MaxTimeLag.Seconds && p.TimeLag.Kind == TimeLagAtLeast) {
			// On a tie the lower bound wins: that partition may be further
			// behind, so the group's maximum is a lower bound too.
			g.MaxTimeLag = p.TimeLag
		}
		if p.ProduceRate >= 0 {
			g.ProduceRate = addRate(g.ProduceRate, p.ProduceRate)
		}
		if p.ConsumeRate >= 0 {
			g.ConsumeRate = addRate(g.ConsumeRate, p.ConsumeRate)
		}
	}
	g.Severity = g.Status.Severity()
	// The group's catch-up answer was worked out as the poll was added,
	// and held (catchup.go): it depends on the polls alone, not on now.
	g.CatchUp = gh.cu.shown
	return g, true
}

func addRate(sum, r float64) float64 {
	if sum < 0 {
		return r
	}
	return sum + r
}

func (h *History) partitionHealth(gh *groupHist, ph *partHist, g groupPace, now int64) PartitionHealth {
	c, end := h.sample(ph, h.seq)
	r := h.rates(gh, ph)
	p := PartitionHealth{
		Topic:        h.topicOf(ph),
		Partition:    ph.partition,
		Committed:    c,
		LogStart:     ph.logStart,
		LogEnd:       end,
		Lag:          lagOf(c, end),
		Truncated:    c >= 0 && ph.logStart > c,
		Owned:        ph.owned,
		TimeLag:      h.timeLagOf(ph, c, end, now),
		ProduceRate:  r.prod,
		ConsumeRate:  r.cons,
		Observations: int(ph.winLen),
	}
	if p.LogStart < 0 {
		p.LogStart = kafka.NoOffset
	}
	p.Restarted = h.restartedAt(h.topicOf(ph), ph.partition)
	p.CatchUp = withEvidence(catchUp(p.Lag, p.ProduceRate, p.ConsumeRate, r.span), r.polls, h.catchUpEvidence())
	var (
		raw  Status
		wait WaitKind
	)
	if now == h.timeAt(h.seq) && ph.raw != StatusRewind {
		raw, wait = ph.raw, ph.wait // judged as the poll was added (judgeGroup)
	} else {
		raw, p.Rewind, wait = h.rawStatus(gh, ph, c, end, now, g)
	}
	p.Status = ph.hold(raw, p.Lag)
	if p.Status == StatusOK && wait == WaitNone && !ph.decided && p.Lag > 0 && int(ph.winLen) >= h.cfg.Window &&
		(p.TimeLag.Known() && p.TimeLag.Seconds > KeepUpSeconds+float64(max(ph.rh.every(), g.every, h.pollGap()))/1e9 || h.firstClimb(ph)) {
		// A full window, a time lag past what is in flight and one
		// rhythm, and too few commits yet for the trend that decides
		// between OK and WARN (see hold1): the first decision waits for
		// them, so that it is not OK and then WARN. A time lag within
		// the consumer's rhythm is what keeping up on it looks like,
		// unless its commits so far climbed (firstClimb).
		wait = WaitTrend
	}
	if p.Status == StatusOK && raw == StatusWarn && wait == WaitNone {
		// The hold keeps OK while it weighs the rules' WARN: a partition
		// shown waiting for evidence keeps waiting until the WARN holds,
		// rather than read OK on a time lag the rules no longer call
		// bounded.
		wait = ph.heldWait
		if wait == WaitNone {
			wait = WaitHold
		}
	}
	if p.Status == StatusOK && wait != WaitNone {
		p.Wait = h.waitOf(ph, gh.turnsOf(ph), wait, g, now)
	}
	if ph.unLen > 0 {
		p.Uncommitted = true
		p.Observations = int(ph.unLen)
	}
	return p
}

// rawStatus is the partition's status under the rules alone, as of now:
// the verdict of its commit observations, or NO-COMMITS for a live owner
// that has committed nothing for a full window.
func (h *History) rawStatus(gh *groupHist, ph *partHist, c, end, now int64, g groupPace) (Status, Rewind, WaitKind) {
	st, rw, wait := h.verdict(ph, c, end, now, g, gh.turnsOf(ph))
	if st != StatusRewind && len(gh.rewinds) > 0 && lagOf(c, end) > 0 {
		// A REWIND the ring of observations no longer shows still holds
		// (rewindhold.go).
		if held, ok := gh.heldRewindOf(ph, c, now, h.eventHold()); ok {
			st, rw, wait = StatusRewind, held, WaitNone
		}
	}
	if ph.unLen > 0 && int(ph.unLen) >= h.cfg.Window {
		st, wait = StatusNoCommits, WaitNone
	}
	return st, rw, wait
}

// firstClimb reports whether the partition's commits, too few for a
// trend (History.trend), climbed at the two newest: the time lag at them
// at all, the lag in records by more than a few records
// (KeepUpMessages). Two commits do not tell a slow climb from the
// scatter of sampling: a consumer a little slower than its producers
// climbs by less than that scatter between two of its commits (4 s and
// 24 records in 30 s, where a poll's production is 30), one keeping up
// scatters up as often as down; two that both climb are evidence for
// neither. A consumer falling behind from the first poll shows a climb
// there before its third commit makes the trend that calls it WARN; its
// first decision waits for that commit rather than read OK a rhythm
// before WARN. One keeping up whose newest commit fell, or held its lag
// in records, reads OK.
//
// With commits enough for a trend that calls no climb, it reports
// whether the newest stood above every one before it in time lag, and
// above the one before by more than a few records: with two commits that
// is the climb above, and the trend's thirds, each a commit or two, do
// not yet tell it from scatter (42.5, 38, 68 s at commits two minutes
// apart, a poll's production more in records); the next commit tells.
// Or whether every one of them, three at least, stood further behind than
// the one before in time lag, no lower in records, and the newest past
// the oldest in records by more than a poll's production: a consumer
// committing every ten seconds or so a little slower than its producers
// climbs by less than the noise over its first minute (6 s in 50 s, at
// each of four commits), and its first decision waits (History.hold1)
// until one commit does not climb (OK) or the trend calls it (WARN). Its
// lag in records grows by less than a poll's production between two
// commits (no consumer's lag grows faster than its producers write), so
// the records count over all of them; one keeping up scatters, in time
// lag or in records, at one of them at least.
func (h *History) firstClimb(ph *partHist) bool {
	r := &ph.rh
	var buf [trendPoints]trendPoint
	known := r.knownPoints(&buf)
	n := len(known)
	if n < 2 {
		return false
	}
	rate := max(0, h.produceRate(ph))
	lagNoise := max(KeepUpMessages, rate*float64(h.pollGap())/1e9)
	if _, _, enough, _ := h.trend(ph, nil); enough {
		if n < 3 {
			return false
		}
		newest := known[n-1]
		high := float64(newest.lag-known[n-2].lag) > KeepUpMessages
		for _, p := range known[:n-1] {
			high = high && newest.tl > p.tl
		}
		if high {
			return true
		}
		for i := 1; i < n; i++ {
			if known[i].tl <= known[i-1].tl || known[i].lag < known[i-1].lag {
				return false
			}
		}
		return float64(known[n-1].lag-known[0].lag) > lagNoise
	}
	noise := h.trendNoise(ph)
	newest, prev := known[n-1], known[n-2]
	if newest.tl > prev.tl && float64(newest.lag-prev.lag) > KeepUpMessages {
		return true
	}
	// Or, over three commits or more, the time lag climbed from the
	// oldest to the newest and at each, by more than half the noise
	// (as History.trend reads a climb with the lag in records), and the
	// lag in records too.
	oldest := known[0]
	if n < 3 || float64(newest.tl-oldest.tl) <= noise/2 || float64(newest.lag-oldest.lag) <= lagNoise {
		return false
	}
	for i := 1; i < n; i++ {
		if known[i].tl < known[i-1].tl || known[i].lag < known[i-1].lag {
			return false
		}
	}
	return true
}
