package verdictbench

import "slices"

// Truth is what a careful human who knows the simulation's state says of a
// group at a poll.
type Truth uint8

// The truths, from the mildest to the worst (a group takes its worst
// partition's, in the order of kgroups' statuses).
const (
	// Idle: nothing to consume and nothing arriving.
	Idle Truth = iota
	// KeepsUp: consuming as fast as records arrive, a bounded delay behind.
	KeepsUp
	// CatchingUp: faster than the producers, working off a backlog.
	CatchingUp
	// Borderline: its members' capacity between fallingShare of what
	// arrives on their partitions and all of it, or, with a backlog, up
	// to borderShare: nobody could call the trend either way within the
	// scenario, so its polls are not scored. (Scenarios keep their speeds out of that
	// band, but a member serving more partitions than the mean runs at
	// its share of the speed.)
	Borderline
	// FallingBehind: slower than the producers; the time lag grows.
	FallingBehind
	// NeverCommits: live members consume and commit nothing.
	NeverCommits
	// Stalled: members are in the group and make no progress while
	// records wait.
	Stalled
	// Rewound: the committed offsets were moved back within the last
	// window (a reset, a replay) and the consumer has not committed
	// where it had been since: records are consumed again.
	Rewound
	// Stopped: nothing consumes and records wait.
	Stopped
	numTruths
)

var truthNames = [...]string{"idle", "keeps up", "catching up", "borderline", "falling behind", "never commits", "stalled", "rewound", "stopped"}

func (t Truth) String() string { return truthNames[t] }

// Want is the verdict a truth deserves: the column of the confusion
// matrix that is right for its row.
func (t Truth) Want() Col {
	switch t {
	case FallingBehind:
		return ColWarn
	case NeverCommits:
		return ColNoCommits
	case Stalled:
		return ColStall
	case Rewound:
		return ColRewind
	case Stopped:
		return ColStop
	}
	return ColOK
}

// scored reports a truth a verdict can be right or wrong for: all but
// Borderline.
func (t Truth) scored() bool { return t != Borderline }

// progress reports whether t is a way of progressing that the committed
// offsets show only as they move: keeping up, catching up, falling behind.
func (t Truth) progress() bool { return t == KeepsUp || t == CatchingUp || t == FallingBehind }

// borderShare is the capacity, as a share of the records arriving, from
// which a consumer with a backlog is catching up in truth; below it, and
// at fallingShare or more, it is Borderline.
const borderShare = 1.1

// fallingShare is the capacity, as a share of the records arriving, below
// which a consumer falls behind in truth. Scenarios keep speeds away from
// the band between it and 1 (see Scenarios), where a human could not tell
// either from a chart in an hour.
const fallingShare = 0.9

// partTruth labels partition i at the world's time. fade is how long a
// reset stays a REWIND (one window of the observer, the time kgroups
// states for an event verdict).
func (w *world) partTruth(i int, fade float64) (Truth, bool) {
	p := &w.parts[i]
	if p.committed < 0 {
		if w.live() && !w.away {
			return NeverCommits, true
		}
		return Idle, false // nothing to judge
	}
	if w.t-w.resetAt <= fade && p.committed < p.end && p.committed < p.high {
		return Rewound, true
	}
	if p.committed >= p.end {
		if w.meanRate(i, w.t) == 0 {
			return Idle, true
		}
		return KeepsUp, true
	}
	switch {
	case w.away:
		return Stopped, true
	case w.stalled && w.sc.Rhythm.External:
		// A job without members that stopped making progress looks,
		// from the cluster, exactly like one that stopped.
		return Stopped, true
	case w.stalled, w.stuck && i == 0:
		return Stalled, true
	}
	// The trend: the capacity of whoever consumes the partition against
	// what arrives on the partitions it serves.
	var in float64
	var served []int
	if w.sc.Rhythm.External {
		served = w.all
	} else {
		for k := range w.members {
			if slices.Contains(w.members[k].parts, i) {
				served = w.members[k].parts
			}
		}
	}
	if served == nil {
		return Stopped, true
	}
	for _, k := range served {
		in += w.meanRate(k, w.t)
	}
	capacity := w.capacity()
	if capacity < fallingShare*in {
		return FallingBehind, true
	}
	if capacity < in {
		// Slower than what arrives, by less than a tenth: its time lag
		// grows, slowly, from however little it is now. It does not
		// keep up, and nobody could call it falling behind within the
		// scenario either.
		return Borderline, true
	}
	if w.timeLag(i) > w.keepUpBound() {
		if capacity < borderShare*in {
			return Borderline, true
		}
		if p.end > p.pos && (w.sc.Spread != InTurn || w.sc.Rhythm.External) {
			// Shared evenly (process): a backlog, while the others it
			// serves have one too, gets its share of the capacity,
			// whatever the member's total; a hot partition's share can
			// be less than what arrives on it while its member catches
			// up on the rest. Its own time lag grows then: it falls
			// behind.
			if share := w.share(served, capacity); share < fallingShare*w.meanRate(i, w.t) {
				return FallingBehind, true
			}
		}
		return CatchingUp, true
	}
	return KeepsUp, true
}

// share is what each partition with a backlog among served gets of
// capacity while the backlogs last, as process shares it: equal parts of
// what the partitions without one leave, which take what arrives on
// them. A backlog counts when its time lag is past keepUpBound: one a
// burst leaves for seconds does not last.
func (w *world) share(served []int, capacity float64) float64 {
	open := 0
	for _, k := range served {
		switch {
		case w.stuck && k == 0:
			// It takes nothing (process).
		case w.parts[k].end > w.parts[k].pos && w.timeLag(k) > w.keepUpBound():
			open++
		default:
			capacity -= w.meanRate(k, w.t)
		}
	}
	return max(0, capacity) / float64(max(1, open))
}

// keepUpBound is the time lag below which a consumer that keeps pace is
// simply keeping up: its commit period plus a fetch's worth.
func (w *world) keepUpBound() float64 {
	return 10 + 2*w.sc.commitPeriod(w.speed)
}

// groupTruth is the worst of the partitions' truths, and the group's true
// time lag (the largest, -1 when no partition has a commit).
func (w *world) groupTruth(fade float64) (Truth, float64) {
	worst, found := Idle, false
	tl := -1.0
	for i := range w.parts {
		tr, ok := w.partTruth(i, fade)
		if !ok {
			continue
		}
		if !found || tr > worst {
			worst = tr
		}
		found = true
		tl = max(tl, w.timeLag(i))
	}
	return worst, tl
}
