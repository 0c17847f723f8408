package lag

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"
)

// The rules judge a consumer on its own commit rhythm. Consumers commit on
// rhythms orders of magnitude apart: per record, every 5 s (autocommit),
// after each fetched batch (seconds to minutes when processing is slow),
// every 30 s (Kafka Streams), on checkpoints minutes apart, or never. A
// rule that needs several commits inside a fixed window judges some of
// them on nothing, so each partition keeps, beyond its ring of polls, what
// its commits have shown (rhythm):
//
//   - when its current wait began: the latest poll that saw the commit
//     move forward, or saw the partition caught up (nothing to consume is
//     not a silence), or first saw the partition;
//   - the longest of its last four waits that ended with a commit, and
//     its longest wait for longMemory times that wait's length after it
//     ended: its rhythm. A member working through its partitions in turn
//     commits one every second while it serves it, then leaves it for
//     minutes; the four latest waits would forget the minutes. A commit
//     that stands longer than RhythmFactor times the rhythm (and longer
//     than the window) has stopped; one that stands less is the
//     consumer's way of committing, however long. A partition is judged
//     on the longer of its own rhythm and its group's (groupPace): the
//     members of a group commit together, so a sibling's wait is the
//     consumer's; but not on its group's when its member showed no
//     rhythm on any partition it owns (memberPaces): members commit
//     what they processed, each on its own;
//   - its time lag at up to eight of its commits, spaced half the window
//     apart at least: the trend. A consumer keeping up shows a
//     time lag at its commits that holds (a sawtooth whose floor does not
//     climb), whatever its rhythm; one falling behind a time lag that
//     climbs, by about one second a second times the share it cannot
//     keep up with; one catching up a time lag that falls.
//
// Where the evidence cannot decide, the verdict says so (Wait): a commit
// that stands beyond the window with no rhythm seen yet waits
// UnseenRhythms times RhythmCeiling before it is called stalled, and a
// time lag above what
// keeping up explains waits for three commits before it is called OK or
// falling behind.

// RhythmCeiling is the default of Config.RhythmCeiling: UnseenRhythms
// times it is how long a commit may stand under a live member before it
// is STALL when the consumer never showed a rhythm (History.unseenHalt).
// Rhythms up to twice it (checkpoints every 10 minutes) fit under that.
const RhythmCeiling = 5 * time.Minute

// trendPoints is how many commits' time lags a partition keeps.
const trendPoints = 8

// rhythm is a partition's commit rhythm and trend (see above). Times are
// Unix nanoseconds; time lags seconds (negative: unknown).
//
// What only a forward move writes (the latest move, the waits, the
// trend) is out of the record (rhythmMoves): a partition whose commit
// never moved reads unmoved, and its record keeps only when its wait
// began and the rings' indexes.
type rhythm struct {
	// since is when the current wait began.
	since int64
	// rhythmMoves is the partition's moves: unmoved until the commit
	// first moves, and shared with copies until written (see
	// History.ownTrend).
	*rhythmMoves
	// ngaps, gapAt, ntrend and head index the rings; moves counts forward
	// moves seen (saturating at movesMax), its haltBit and resumedBit
	// say that the current wait is a halt and that the commit moved
	// since one (rhythm.halted, rhythm.resumedFromHalt), and its
	// caughtGap bit says
	// that the latest wait that ended in a commit began at a caught-up
	// poll (rhythm.servedCaught).
	ngaps, gapAt, ntrend, head, moves uint8
	// flags holds pendingFlag, fromKnownFlag and resumedFlag (rhythm.pending,
	// rhythm.fromKnown, rhythm.resumed).
	flags uint8
	// still marks the trend ring's slots whose point was made while
	// production stood still since the point before (rhythm.sinceStill).
	still uint8
}

// The rhythm's flags, one bit each so that the record keeps its size
// (TestPartHistSize).
const (
	pendingFlag = 1 << iota
	fromKnownFlag
	resumedFlag
)

// pending reports that the newest trend point's time lag waits for the
// record read after its poll (History.fillTrend).
func (r *rhythm) pending() bool { return r.flags&pendingFlag != 0 }

// fromKnown reports that the current wait began at a commit or a
// caught-up poll, not at the first poll that saw the partition (when the
// commit may have stood for any time already).
func (r *rhythm) fromKnown() bool { return r.flags&fromKnownFlag != 0 }

// resumed reports that the trend restarted when the commit moved after a
// STALL or STOP, or after a pause in production (noteRhythm), and the
// partition has not caught up since: until its new commits make a trend,
// nothing says it keeps up.
func (r *rhythm) resumed() bool { return r.flags&resumedFlag != 0 }

// set sets flag f on or off.
func (r *rhythm) set(f uint8, on bool) {
	if on {
		r.flags |= f
	} else {
		r.flags &^= f
	}
}

// rhythmMoves is what a partition's forward moves wrote (see rhythm):
// 160 bytes, held only by a partition whose commit moved.
type rhythmMoves struct {
	// last is the latest forward move (0: none seen).
	last int64
	// gaps are the latest waits that ended in a commit, in milliseconds,
	// as the polls saw them; long the longest wait remembered (see
	// longMemory), less what a late poll added to it (rhythm.moved),
	// which ended at longAt (Unix seconds).
	gaps         [4]uint32
	long, longAt uint32
	// trend are time lags at commits, oldest first from head.
	trend [trendPoints]trendPoint
}

// unmoved is the moves of every partition whose commit never moved: all
// zero, and never written (History.ownTrend gives a partition its own
// before a move is noted).
var unmoved rhythmMoves

// trendPoint is a commit's poll time, and the partition's time lag
// (seconds; negative until known) and lag then.
type trendPoint struct {
	at      int64
	tl, lag float32
}

// longMemory is how many times its own length a partition's longest
// wait is remembered after it ended.
const longMemory = 4

// every is the rhythm: the longest recent wait that ended in a commit (0:
// none seen).
func (r *rhythm) every() int64 {
	m := r.long
	for i := range r.ngaps {
		m = max(m, r.gaps[i])
	}
	return int64(m) * int64(time.Millisecond)
}

// periodic reports whether the waits seen give a rhythm: two of them,
// or one that followed a commit seen (two moves). A single wait that
// began at a caught-up poll, after the partition's first move or before
// any, is how long the consumer took from records arriving to its next
// commit: on a timer, anywhere from at once to a full period.
func (r *rhythm) periodic() bool {
	return r.ngaps >= 2 || r.ngaps == 1 && r.movesSeen() >= 2 && !r.servedCaught()
}

// confirmed reports whether the partition showed its rhythm twice: two
// waits that ended in a commit. One wait may be the consumer's rhythm, or
// a commit out of it (a member joining or leaving commits what it holds,
// a restart commits at once): a silence past it is not a halt on that
// evidence alone (History.verdict).
func (r *rhythm) confirmed() bool { return r.ngaps >= 2 }

// caughtGap is rhythm.moves' bit for a latest wait that began at a
// caught-up poll; the caughtRun bits count the commits since that poll
// (1 to caughtRunMax; 0: none, or more); haltBit says the current wait
// was called a halt (rhythm.halted), and resumedBit that the commit
// moved since one and the partition has not caught up since
// (rhythm.resumedFromHalt); movesMax is the count of moves' saturation
// below them.
const (
	caughtGap      = 1 << 7
	caughtRunShift = 5
	caughtRun      = 3 << caughtRunShift
	caughtRunMax   = 2
	haltBit        = 1 << 4
	resumedBit     = 1 << 3
	movesMax       = resumedBit - 1
)

// halted reports whether, at a poll of its current wait, the rules
// called the partition stopped, or stalled while its member committed
// nowhere else either (noteHalt, judgeTurns), whatever they call it now:
// once its member's other partitions resume, the member reads the
// halt's old records there, and this one still silent would look as if
// it waited its turn behind a busy member. A forward move, or a
// caught-up poll, clears it.
func (r *rhythm) halted() bool { return r.moves&haltBit != 0 }

// noteHalt notes that the partition's current wait is a halt (halted).
func (r *rhythm) noteHalt() { r.moves |= haltBit }

// resumedFromHalt reports whether the commit moved after a halt
// (halted, or the rules' status STALL or STOP at the poll before) and
// the partition has neither caught up nor committed three times since,
// far enough apart for a trend (moved). Unlike resumed, a pause in
// production does not set it.
func (r *rhythm) resumedFromHalt() bool { return r.moves&resumedBit != 0 }

// movesSeen is how many forward moves the partition showed (at most
// movesMax).
func (r *rhythm) movesSeen() uint8 { return r.moves & movesMax }

// caughtAt is the caught-up poll at which a wait began that ended in one
// of the partition's two latest commits, every wait since ending in a
// commit (0: none): its time lag was 0 then (grewSince). The waits are
// the gaps ring's latest.
func (r *rhythm) caughtAt() int64 {
	run := int(r.moves&caughtRun) >> caughtRunShift
	if run == 0 || run > int(r.ngaps) {
		return 0
	}
	t := r.last
	for i := 1; i <= run; i++ {
		t -= int64(r.gaps[(int(r.gapAt)+len(r.gaps)-i)%len(r.gaps)]) * int64(time.Millisecond)
	}
	return t
}

// servedCaught reports whether the latest wait that ended in a commit
// (served) began at a caught-up poll: how long the consumer took to
// commit records that reached a partition it had caught up on, not how
// often it commits.
func (r *rhythm) servedCaught() bool { return r.moves&caughtGap != 0 }

// served is the latest wait that ended in a commit (0: none): how often
// the partition is committed while its consumer serves it. A member that
// serves its partitions in turn leaves each for much longer between its
// turns (every remembers that), and commits it often during one.
func (r *rhythm) served() int64 {
	if r.ngaps == 0 {
		return 0
	}
	return int64(r.gaps[(int(r.gapAt)+len(r.gaps)-1)%len(r.gaps)]) * int64(time.Millisecond)
}

// stretch is how long the partition's next commit may take when its
// waits grow (0: they do not, or fewer than two were seen): its latest
// wait times the least growth among its three latest, or the growth of
// its batches (batchGrowth) where that is more. A consumer that
// commits after each fetched batch fetches what waits, so while it falls
// behind each batch is larger and takes longer than the one before,
// until a full batch (Java's max.poll.records); its silence is judged on
// the wait its growth predicts, not on waits its backlog has outgrown. A
// consumer on a timer waits about as long each time, and is judged on
// that. A wait is seen to within noise (a poll interval): the latest
// must be longer than the one before by more than that, none may be
// shorter than the one before by more, and a growth is taken only
// between two waits that differ by more, each at least noise long.
func (r *rhythm) stretch(noise int64) int64 {
	n := len(r.gaps)
	k := min(int(r.ngaps), 3)
	if k < 2 {
		return 0
	}
	ms := float64(noise) / float64(time.Millisecond)
	wait := func(i int) float64 { return float64(r.gaps[(int(r.gapAt)+n-i)%n]) } // the i-th latest
	latest := wait(1)
	if latest <= wait(2)+ms {
		return 0
	}
	grow := math.Inf(1)
	for i := 1; i < k; i++ {
		later, w := wait(i), wait(i+1)
		switch {
		case later < w-ms:
			return 0
		case later > w+ms:
			grow = min(grow, later/max(w, ms, 1))
		}
	}
	return int64(latest * max(grow, r.batchGrowth(noise)) * float64(time.Millisecond))
}

// batchGrowth is how much longer than its latest wait the partition's
// next may be, read from its time lag at its two newest commits (0: not
// known). A consumer that commits after each fetched batch fetches what
// waits: the time lag at a commit is how much production its next batch
// holds. Its latest wait read what the commit before left waiting, its
// next reads what the newest left, at the same speed. Its waits tell the
// same growth a batch late: a consumer that began to fall behind, or
// whose producers speed up, fetches batches that grow faster than its
// waits did. Only a time lag past what keeping up explains
// (KeepUpSeconds) counts at the older commit, and only a growth of more
// than noise (a poll interval) between the two, and only where the two
// points are the latest wait's ends (commits closer together than the
// trend's spacing share a point). stretch takes it only where the waits
// grew too: a consumer on a timer falls behind with its time lag growing
// at each commit, and waits as long as ever.
func (r *rhythm) batchGrowth(noise int64) float64 {
	k := int(r.ntrend)
	if k < 2 {
		return 0
	}
	p, q := r.point(k-2), r.point(k-1)
	if q.at-p.at > r.served()+noise {
		return 0
	}
	older, newest := float64(p.tl), float64(q.tl)
	if older < KeepUpSeconds || newest <= older+float64(noise)/float64(time.Second) {
		return 0
	}
	return newest / older
}

// restartTrend forgets the trend points (see noteRhythm).
func (r *rhythm) restartTrend() {
	r.ntrend, r.head, r.still = 0, 0, 0
	r.set(pendingFlag, false)
	r.set(resumedFlag, true)
}

// endClimb starts the trend again at a caught-up poll that ended a WARN
// (History.hold1): the climb is over, and the commits from before it
// describe a backlog the consumer no longer has. The newest point stays
// when it is the commit that caught up.
func (r *rhythm) endClimb() {
	if r.ntrend > 0 && r.point(int(r.ntrend)-1).lag == 0 {
		r.head = uint8((int(r.head) + int(r.ntrend) - 1) % trendPoints)
		r.ntrend = 1
		return
	}
	r.ntrend, r.head, r.still = 0, 0, 0
	r.set(pendingFlag, false)
}

// point is the i-th oldest trend point.
func (r *rhythm) point(i int) trendPoint {
	return r.trend[(int(r.head)+i)%trendPoints]
}

// peakSince is the highest known time lag at the partition's commits
// polled at or after from (seconds; 0: none).
func (r *rhythm) peakSince(from int64) float64 {
	var peak float32
	for i := int(r.ntrend) - 1; i >= 0; i-- {
		p := r.point(i)
		if p.at < from {
			break
		}
		peak = max(peak, p.tl)
	}
	return float64(peak)
}

// start begins the history of a partition first seen at t.
func (r *rhythm) start(t int64) { r.since = t }

// caughtUp notes a poll at t that saw the partition with nothing to
// consume: a wait begins afresh.
func (r *rhythm) caughtUp(t int64) {
	r.since = t
	r.set(fromKnownFlag, true)
	r.set(resumedFlag, false)
	r.moves &^= haltBit | resumedBit
}

// moved notes a poll at t that saw the commit move forward, with the
// partition's time lag then (tl seconds, negative when unknown). A wait
// counts towards the rhythm only when it began at a known point: a
// previous commit or a caught-up poll, not the first poll.
//
// late is how much later than the polls' cadence the poll at t came (a
// poll missed before it, or one slow to answer: History.latePoll). The
// commit may have been made before the poll that would have come then,
// so the wait may be that much shorter than seen. The latest waits keep
// what the polls saw; the longest wait, remembered for longMemory times
// its length, is the shorter one: a late poll's wait is no rhythm of the
// consumer's, and remembered it kept a two-minute committer OK for two
// polls longer than one polled on time, and ERR STALL a minute later,
// once its commits stopped (TestALatePollStretchesNoRhythm).
func (r *rhythm) moved(t, late int64, tl float64, lag int64, spacing int64) (turn bool) {
	flag := r.moves & caughtGap
	// run is the commits since the caught-up poll that began a wait
	// (caughtAt): 0 unless this move's wait is noted.
	prev, run := (r.moves&caughtRun)>>caughtRunShift, uint8(0)
	if r.fromKnown() && t > r.since {
		flag = 0
		if r.since > r.last {
			flag = caughtGap // it began at a caught-up poll
			run = 1
		} else if prev > 0 && prev < caughtRunMax {
			run = prev + 1
		}
		g := uint32(min((t-r.since)/int64(time.Millisecond), math.MaxUint32))
		// A wait that began at a commit, with records waiting, more than
		// RhythmFactor times as long as the median of the waits before
		// (the lower one): the partition's turn came round again (a
		// member serving its partitions in turn commits each several
		// times in its turn, then leaves it for the others').
		if flag == 0 && r.ngaps >= 2 {
			gs := r.gaps
			slices.Sort(gs[:r.ngaps])
			turn = float64(g) > RhythmFactor*float64(gs[(r.ngaps-1)/2])
		}
		r.gaps[r.gapAt] = g
		r.gapAt = (r.gapAt + 1) % uint8(len(r.gaps))
		r.ngaps = min(r.ngaps+1, uint8(len(r.gaps)))
		// The longest wait is remembered for longMemory times its length;
		// a longer one, or any once that has passed, takes its place.
		sec := uint32(min(max(t/int64(time.Second), 0), math.MaxUint32))
		lg := uint32(min(max(t-late-r.since, 0)/int64(time.Millisecond), math.MaxUint32))
		if lg >= r.long || int64(sec)-int64(r.longAt) > longMemory*int64(r.long)/1000 {
			r.long, r.longAt = lg, sec
		}
	}
	r.since, r.last = t, t
	r.set(fromKnownFlag, true)
	r.moves = min(r.movesSeen()+1, movesMax) | flag | run<<caughtRunShift | r.moves&resumedBit
	r.set(pendingFlag, tl < 0)
	p := trendPoint{at: t, tl: float32(tl), lag: float32(lag)}
	switch {
	case r.ntrend >= 2 && t-r.point(int(r.ntrend)-2).at < spacing:
		// Too close to the one before the newest: the newest moves on.
		r.trend[(int(r.head)+int(r.ntrend)-1)%trendPoints] = p
	case r.ntrend == trendPoints:
		r.trend[r.head] = p
		r.head = (r.head + 1) % trendPoints
	default:
		r.trend[(int(r.head)+int(r.ntrend))%trendPoints] = p
		r.ntrend++
	}
	if r.ntrend >= 3 {
		// Three commits since the trend started over, the first and
		// the third at least spacing apart: they tell how it goes, and
		// the halt is behind it.
		r.moves &^= resumedBit
	}
	return turn
}

// WaitKind says why a verdict waits for evidence although its window is
// full.
type WaitKind uint8

// The reasons a verdict waits.
const (
	// WaitNone: the verdict does not wait.
	WaitNone WaitKind = iota
	// WaitRhythm: a commit stands under a live member longer than the
	// window, and the consumer has not shown how often it commits: it
	// may commit rarely (checkpoints), or be stuck.
	WaitRhythm
	// WaitTrend: the time lag is above what keeping up explains, and too
	// few commits were seen to tell falling behind from catching up.
	WaitTrend
	// WaitTurn: a commit never seen moving, whose member works on its
	// other partitions on records at least half as old as the silence
	// seen: a member serving its partitions in turn, with a turn longer
	// than the history holds, looks the same as a stuck partition.
	WaitTurn
	// WaitCalm: since a wait that began about caught up, the time lag
	// climbed past RhythmFactor times the longest the consumer left
	// records waiting while it kept up (History.leftCalm): its next
	// commit tells whether it still does.
	WaitCalm
	// WaitHold: the rules say WARN and the hold weighs it: the held
	// status is OK, and the reader is not told OK meanwhile.
	WaitHold
	// WaitStretch: a commit stands past the consumer's rhythm under a
	// live member, but each of its latest waits was longer than the one
	// before (History.stallAfter): a consumer that commits after each
	// fetched batch takes longer for each while it falls behind.
	WaitStretch
	// WaitStep: the time lag at the partition's commits climbed, all of
	// it at the newest commit (History.stepped), or the newest stands
	// past the noise above every one before it (History.newHigh): a
	// step, as a handover to a member that processes again what the
	// last owner had not committed makes, or the start of a climb. Its
	// next commit tells.
	WaitStep
	// WaitBack: a commit stands past the consumer's rhythm, but the
	// group's members came back, after a time without any, since it was
	// made: the wait before they came is no rhythm, and the members get
	// the consumer's time to commit from their return.
	WaitBack
	// WaitTurnStep: the partition is served in turn, and its latest
	// turn began further behind than the one before (turns.step): a
	// step, or the start of a climb. Its next turn tells.
	WaitTurnStep
	// WaitGrew: the time lag grew by more than half the time over the
	// consumer's latest commits, more than keeping up on its rhythm
	// explains, though its trend calls no climb (its lag in records
	// falls: it reads records written faster than it reads them); or,
	// known only as a lower bound, its lag in records grew while it
	// commits. Not OK while it grows, and no longer window decides it.
	WaitGrew
	// WaitRose: the time lag at each of the partition's newest commits
	// rose above the one before, past the noise in time lag and in
	// records (History.roseAtEach), though the trend calls no climb yet:
	// each commit further behind than the last is no consumer keeping
	// up, and not OK while it goes on.
	WaitRose
)

// Wait says why a verdict waits, and what would decide it.
type Wait struct {
	Kind WaitKind
	// Silence is how long the commit has stood; Every the consumer's
	// rhythm where one was seen (0: none).
	Silence, Every time.Duration
	// Need is how long the evidence must span to decide: a window of
	// that length, or that much more watching.
	Need time.Duration
	// Then is what a WaitRhythm becomes once Need passes without a
	// commit: STALL under a member, STOP without one.
	Then Status
	// Rise is, for a WaitStep, how much further behind the newest
	// commit is than the ones before it.
	Rise time.Duration
	// RiseRecords is, for a WaitStep whose newest commit's time lag is
	// not known, how many records further behind it is instead.
	RiseRecords int64
	// Back is, for a WaitBack, how long ago the members came back.
	Back time.Duration
	// Over is, for a WaitGrew, the time over which the time lag grew
	// by Rise (or the lag by RiseRecords); for a WaitRose, the time
	// between the first and the newest of the commits whose time lag
	// rose by Rise.
	Over time.Duration
	// Commits is, for a WaitRose, how many commits in a row that is.
	Commits int
}

// Reason words the wait for a CAUSE column and the header: "no commit
// in 1m10s and none seen before: STALL after 5m unless it commits",
// "commits every ~45s: a trend needs 2m15s of them".
func (w Wait) Reason() string {
	switch w.Kind {
	case WaitRhythm:
		if w.Every > 0 && w.Then == StatusStop {
			return "no commit in " + span(w.Silence) + ", past its ~" + span(w.Every) + ", and no member: " + w.Then.String() + " after " + span(w.Need) + " unless it commits"
		}
		if w.Every > 0 {
			return "no commit in " + span(w.Silence) + " and one wait (~" + span(w.Every) + ") seen, no rhythm yet: " + w.Then.String() + " after " + span(w.Need) + " unless it commits"
		}
		return "no commit in " + span(w.Silence) + " and no rhythm seen yet: " + w.Then.String() + " after " + span(w.Need) + " unless it commits"
	case WaitTrend:
		if w.Every > 0 && w.Silence > RhythmFactor*w.Every {
			// Its commit stands past twice its rhythm: what it waits
			// for now is its next commit, not more of them.
			return "no commit in " + span(w.Silence) + ", past twice its ~" + span(w.Every) + ": waits for its next commit"
		}
		if w.Every > 0 {
			return "commits every ~" + span(w.Every) + ": a trend needs " + span(w.Need) + " of them"
		}
		return "too few commits for a trend: needs " + span(w.Need)
	case WaitTurn:
		return "no commit in " + span(w.Silence) + " while its member works on its other partitions: waits its turn"
	case WaitHold:
		return "falling behind at its latest polls: WARN once it lasts"
	case WaitStretch:
		return "no commit in " + span(w.Silence) + ", past its ~" + span(w.Every) + ", but each wait was longer than the one before: " + w.Then.String() + " after " + span(w.Need) + " unless it commits"
	case WaitBack:
		return "no commit in " + span(w.Silence) + ", its members back " + span(w.Back) + " ago after none: " + w.Then.String() + " after " + span(w.Need) + " unless it commits"
	case WaitStep:
		if w.RiseRecords > 0 {
			return "its latest commit is " + strconv.FormatInt(w.RiseRecords, 10) + " records further behind than the ones before: its next commit, ~" + span(w.Every) + " after it, tells a step from a climb"
		}
		if w.Rise <= 0 {
			// Read after the poll, the newest commit's record put it
			// back in line with the ones before: the verdict, made
			// before, still waits for the next.
			return "waits for its next commit, ~" + span(w.Every) + " after its latest, to tell a step in its time lag from a climb"
		}
		return "its latest commit is " + span(w.Rise) + " further behind than the ones before: its next commit, ~" + span(w.Every) + " after it, tells a step from a climb"
	case WaitTurnStep:
		return "its latest turn began " + span(w.Rise) + " further behind than the one before: its next turn, ~" + span(w.Every) + " after it began, tells a step from a climb"
	case WaitGrew:
		if w.Rise > 0 && w.Over > 0 {
			return "its time lag grew " + span(w.Rise) + " in the last " + span(w.Over) + ": not OK while it grows"
		}
		if w.RiseRecords > 0 && w.Over > 0 {
			return "its lag grew " + strconv.FormatInt(w.RiseRecords, 10) + " records in the last " + span(w.Over) + ", its time lag older than the history: not OK while it grows"
		}
		return "its time lag grows by more than half a second a second: not OK while it does"
	case WaitRose:
		return "its time lag rose at each of its last " + strconv.Itoa(w.Commits) + " commits, " + span(w.Rise) + " in " + span(w.Over) + ": not OK while it climbs"
	case WaitCalm:
		if w.Every > 0 {
			return "no commit in " + span(w.Silence) + " since it was about caught up, past twice the ~" + span(w.Every) + " it waits keeping up: waits for its next commit"
		}
		return "no commit in " + span(w.Silence) + " since it was about caught up, and never seen keeping up with records waiting: waits for its next commit"
	}
	return ""
}

// span words a duration in at most two units of whole seconds, minutes
// and hours, as the screens do: 55s, 1m10s, 5m, 1h05m.
func span(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	switch {
	case s < 60:
		return strconv.FormatInt(s, 10) + "s"
	case s < 3600 && s%60 == 0:
		return strconv.FormatInt(s/60, 10) + "m"
	case s < 3600:
		return strconv.FormatInt(s/60, 10) + "m" + fmt.Sprintf("%02ds", s%60)
	}
	m := (s + 30) / 60
	return strconv.FormatInt(m/60, 10) + "h" + fmt.Sprintf("%02dm", m%60)
}

// floor is the shortest evidence span the rules judge a trend or a
// silence on: (Window-1) x MinDistance, the span a full window of a live
// consumer re-committing every MinDistance would have, and at least two
// poll intervals.
func (h *History) floor() int64 {
	return max(int64(h.cfg.Window-1)*int64(h.cfg.MinDistance), 2*h.pollGap())
}

// latePoll is how much later than the polls' cadence the poll at t (the
// latest) came: its time since the poll before, less the mean gap
// (pollGap), where that time is more than one and a half of it (a poll
// missed, or slow to answer; jitter stays within that); 0 otherwise.
func (h *History) latePoll(t int64) int64 {
	if h.seq < 2 {
		return 0
	}
	d, g := t-h.timeAt(h.seq-1), h.pollGap()
	if g <= 0 || 2*d <= 3*g {
		return 0
	}
	return d - g
}

// pollGap is the mean time between the latest polls (0 before two).
func (h *History) pollGap() int64 {
	k := min(h.seq-1, uint64(h.cfg.Samples-1), 10)
	if k == 0 {
		return 0
	}
	// Rounded up: a silence of the polls' whole span is never past a
	// floor of twice their mean gap by a nanosecond of rounding.
	d := h.timeAt(h.seq) - h.timeAt(h.seq-k)
	return (d + int64(k) - 1) / int64(k)
}

// trend reports whether the time lags at the partition's commits climb
// (falling behind), and whether there are enough of them to tell: at
// least three, spanning at least the floor; where their time lags are not
// known, the lags in records at them. The climb must beat the
// noise of sampling (a poll sees a commit up to one interval late, and
// KeepUpSeconds), be more than EqualRateShare of the span (a consumer
// keeping pace holds its time lag), and not be undone over the newer
// half (a burst already being worked off).
//
// climbing is the weaker answer that keeps a partition held at WARN
// there (History.verdict): the time lags at the commits rise, by their
// least-squares line over the span, by more than the noise and
// EqualRateShare of the span; the lag in records climbs as for behind;
// and the newest commit's time lag is above the middle third's floor by
// more than half the noise; or the thirds' floors climbed past the noise
// in time lag and past a poll's production in records, and the newest
// commit still climbs, in records too (under a ramp, the produce rate
// now overstates the span's production). A step (a consumer that fell behind once and
// keeps pace since) ends it once the step is in the middle third, and a
// consumer catching up at its first commit near or below that floor.
// Unlike behind it asks neither the thirds' floors to climb nor the
// newest commit to climb past the one before: under bursty production
// the time lag at a consumer's commits scatters by more than its climb
// between two of them (+24 s, -6 s, -6 s under a burst cycle three
// commits long), and the floors of thirds of eight commits fall in and
// out of step with the cycle, so either would end a trend its commits
// still show and flip WARN and OK at every few bursts
// (TestBurstScatterKeepsATrend). Climbing is also the lag in records
// climbing (recordsClimb) where a pause in production was crossed
// (gapCrossed): the time lags before the pause are no baseline for
// those after (TestAPauseInProductionIsNoCatchUp).
func (h *History) trend(ph *partHist, tu *turns) (behind, climbing, enough, turnStep bool) {
	r := &ph.rh
	var all, known [trendPoints]trendPoint
	n, nk := 0, 0
	for i := range int(r.ntrend) {
		p := r.point(i)
		all[n] = p
		n++
		if p.tl >= 0 {
			known[nk] = p
			nk++
		}
	}
	floor := h.floor()
	if nk >= 3 && known[nk-1].at-known[0].at >= floor && known[nk-1].at == all[n-1].at {
		tl, lag, span := thirds(known[:nk])
		if recs := r.sinceStill(known[:nk]); len(recs) >= 3 && len(recs) < nk {
			// Production stood still between two of its commits (a
			// pause): the lag in records fell then whatever the
			// consumer's pace. Its climb is read on the commits since.
			_, lag, _ = thirds(recs)
		}
		noise := h.trendNoise(ph)
		grew := float64(tl[2] - tl[0])
		// The lag in records must climb too, beyond a poll's production
		// and EqualRateShare of the span's: a consumer working off
		// records written faster than it reads them sees its time lag
		// climb while its lag falls (it is catching up), and one that
		// keeps pace with a backlog sees its time lag wander as the
		// density of the records it reads changes (bursts) while its lag
		// holds.
		rate := max(0, h.produceRate(ph))
		lagNoise := max(1, rate*float64(h.pollGap())/1e9, EqualRateShare*rate*span)
		// Where records are sparse (the floor of one record binds: fewer
		// than a record a poll, and than twenty over the span), that
		// floor asks for more than a slow climb adds: a consumer at 80%
		// of a record a minute adds one to its lag every five minutes.
		// When the time lag climbs through each third (not a step), a
		// record more suffices then.
		lagNeed := lagNoise
		if lagNoise <= 1 && float64(tl[1]-tl[0]) > noise/2 && float64(tl[2]-tl[1]) > noise/2 {
			lagNeed = 0.5
		}
		// And it must still climb at the newest commit, in time lag or in
		// records (a burst of records read makes the time lag pause while
		// the lag grows): a consumer that fell behind once, in a step,
		// and keeps pace since, does not.
		still := stillClimbing(known[:nk], floor, noise, 2*lagNoise)
		// The time lag climbs slowly while the consumer reads records that
		// were written faster than they are written now (after a burst),
		// though the lag in records climbs past its noise: half the noise
		// in time lag then suffices. (A lag in records that climbs while
		// the time lag holds is production growing under a consumer that
		// keeps pace.)
		lagGrew := float64(lag[2] - lag[0])
		climbs := grew > noise || grew > noise/2 && lagGrew > lagNeed
		climbed := climbs && grew > EqualRateShare*span && lagGrew > lagNeed
		rise := slope(known[:nk]) * span
		climbing = rise > max(noise, EqualRateShare*span) && lagGrew > lagNeed && float64(known[nk-1].tl-tl[1]) > noise/2
		// A time lag that fell at a commit while the lag in records rose
		// is a pause in production crossed, not a catch-up: the time
		// lags before it are no baseline for those after. A held climb
		// then goes on while the lag in records climbs.
		climbing = climbing || gapCrossed(known[:nk], noise, KeepUpMessages) && h.recordsClimb(ph, all[:n])
		// Or its thirds' floors climbed past the noise, in time lag and
		// in records beyond a poll's production, and it still climbs at
		// the newest commit, in records too (over the middle third's
		// least): the climb goes on, whatever share of the span's
		// production its lag in records took (the produce rate now
		// overstates the span's under a ramp). A consumer that fell
		// behind and keeps pace since holds its lag.
		pollNoise := max(KeepUpMessages, rate*float64(h.pollGap())/1e9)
		climbing = climbing || climbs && still && lagGrew > pollNoise && float64(known[nk-1].lag-lag[1]) > pollNoise
		// Or it is served in turn, and its turns begin further behind
		// each time: its time lag falls within each turn, as its member
		// works the backlog off, so that its commits' thirds fall
		// within the newest turn, while the member falls behind turn
		// after turn (a record's spacing is noise: a turn begins with
		// whatever record waits longest).
		turnNoise := max(noise, h.productionGap(ph))
		if tu.climb(known[nk-1].at, float64(known[nk-1].tl), turnNoise, lagNeed) {
			return true, true, true, false
		}
		if r.resumed() && climbed && grew <= noise && nk == 3 {
			// Its trend started again (resumed: after a halt, or a
			// pause in production) and its three commits since, the
			// fewest a trend takes (one a third), climb within their
			// scatter (the lag in records climbing with them): a member
			// working off a halt's backlog serves its partitions as it
			// can, in turn, and a turn's wait reads so. Its next commit
			// tells.
			return false, false, false, false
		}
		if climbed && still && climbAllFromCatchUp(known[:nk], noise, lagNeed) {
			// The climb is all from a caught-up commit to the first
			// under a burst (0, 10.4, 11 s), not one going on.
			climbed = false
		}
		if climbed && still && stepHeld(known[:nk], noise) {
			// One step, held since: the thirds' floors and the
			// newest commit above the one before read a climb in
			// the scatter after it.
			climbed = false
		}
		return climbed && still, climbing, true, tu.step(known[nk-1].at, float64(known[nk-1].tl), turnNoise, lagNeed)
	}
	if n < 3 || all[n-1].at-all[0].at < floor {
		return false, false, false, false
	}
	// The time lags at the commits are not known, or not the newest's
	// (the commits are older than the points and their records were not
	// read): the lag in records stands in.
	behind = h.recordsClimb(ph, all[:n])
	return behind, behind, true, false
}

// climbAllFromCatchUp reports whether pts (known time lags, oldest
// first) hold a caught-up commit (lag 0) followed by two or more, and
// those after the newest such commit do not climb, by the trend's own
// measure: the newest stands above the first after the catch-up by no
// more than noise in time lag, and no more than half of it unless the
// lag in records climbed past lagNeed too. The thirds' floors then read
// a climb from the caught-up commit to the first under a burst (0, 4.5,
// 15.5 s and 0, 65, 61 records under bursty production), which the
// commits since do not go on with: its next commits tell. A consumer
// that caught up and falls behind since climbs past that over them.
func climbAllFromCatchUp(pts []trendPoint, noise, lagNeed float64) bool {
	z := -1
	for i, p := range pts {
		if p.lag == 0 {
			z = i
		}
	}
	if z < 0 || z > len(pts)-3 {
		return false
	}
	first, newest := pts[z+1], pts[len(pts)-1]
	grew, lagGrew := float64(newest.tl-first.tl), float64(newest.lag-first.lag)
	return !(grew > noise || grew > noise/2 && lagGrew > lagNeed)
}

// recordsClimb reports whether the lag in records at pts (three or more
// commits, oldest first) climbs beyond what a poll's production, a few
// records and EqualRateShare of the span's production explain, and still
// at the newest (over the middle third's least).
func (h *History) recordsClimb(ph *partHist, pts []trendPoint) bool {
	_, lag, span := thirds(pts)
	if recs := ph.rh.sinceStill(pts); len(recs) >= 3 && len(recs) < len(pts) {
		_, lag, _ = thirds(recs)
	}
	rate := max(0, h.produceRate(ph))
	noise := max(KeepUpMessages, EqualRateShare*rate*span, rate*float64(h.pollGap())/1e9)
	return float64(lag[2]-lag[0]) > noise && float64(pts[len(pts)-1].lag-lag[1]) > noise/2
}

// markStill marks the trend's newest point as made while production
// stood still since the point before, or not (its slot may have held a
// point that was).
func (r *rhythm) markStill(still bool) {
	bit := uint8(1) << ((int(r.head) + int(r.ntrend) - 1) % trendPoints)
	if still {
		r.still |= bit
	} else {
		r.still &^= bit
	}
}

// sinceStill is pts (trend points, oldest first) after the newest point
// made while production stood still since the point before
// (History.endStood): all of them where none was. The lag in records
// falls through such a pause whatever the consumer's pace, so the points
// before it are no baseline for the climb of the lag in records since.
func (r *rhythm) sinceStill(pts []trendPoint) []trendPoint {
	last := int64(-1)
	for i := int(r.ntrend) - 1; i >= 0; i-- {
		if r.still&(1<<((int(r.head)+i)%trendPoints)) != 0 {
			last = r.point(i).at
			break
		}
	}
	for i := len(pts) - 1; i >= 0; i-- {
		if pts[i].at <= last {
			return pts[i+1:]
		}
	}
	return pts
}

// endStood reports whether the partition's log end stood at end since
// from (a trend point's poll) or before: the time-lag points keep a run
// of polls with one log end as its first and last point, so the first
// poll that saw end is the oldest of the newest points that hold it
// (however long ago, while the table holds it: a pause of production
// keeps two points).
func (h *History) endStood(ph *partHist, from, end int64) bool {
	since := int64(-1)
	for i := int(ph.ptLen) - 1; i >= 0; i-- {
		off, seq := h.point(ph, i)
		if off != end {
			break
		}
		since = h.timeAt(seq)
	}
	return since >= 0 && since <= from
}

// gapCrossed reports whether at one of pts (known time lags, oldest
// first) the time lag fell below the one before by more than noise and
// more than the time between them, while the lag in records rose by more
// than rise (a few records). The consumer then read, in that time,
// records written over more than twice as long, yet fewer than were
// written meanwhile: production was sparser in what it read than since,
// which no change of its own pace explains. Under steady production its
// lag would have fallen by the fall's worth of production, more than a
// poll's (commits are a poll apart at least), and the polls' timing
// moves a lag by a poll's production at most (a commit is seen up to a
// poll after it is made): a lag that rose at all is past that. A poll's
// production asked of the rise itself missed a consumer at 0.8x of its
// producers committing every other poll, which adds less than that
// between two commits.
func gapCrossed(pts []trendPoint, noise, rise float64) bool {
	for i := len(pts) - 1; i > 0; i-- {
		if float64(pts[i-1].tl-pts[i].tl) > max(noise, float64(pts[i].at-pts[i-1].at)/1e9) && float64(pts[i].lag-pts[i-1].lag) > rise {
			return true
		}
	}
	return false
}

// stillClimbing reports whether pts still climb at their newest: over
// the commits of the last span of time against those of the span before,
// the least or the greatest time lag rose by more than half the noise
// (a burst of records read can hold one of them for a while), or the
// least lag in records rose by more than lagNoise while the least time
// lag did not fall by half the noise (reading records written faster
// than they are written now holds the time lag for a while, although the
// lag climbs on). A step, a consumer that fell behind once and keeps
// pace since, climbs no more two spans after it.
func stillClimbing(pts []trendPoint, span int64, noise, lagNoise float64) bool {
	last := pts[len(pts)-1].at
	inf := float32(math.Inf(1))
	oldLo, newLo, oldHi, newHi, oldLag, newLag := inf, inf, -inf, -inf, inf, inf
	for _, p := range pts {
		switch age := last - p.at; {
		case age < span:
			newLo, newHi, newLag = min(newLo, p.tl), max(newHi, p.tl), min(newLag, p.lag)
		case age < 2*span:
			oldLo, oldHi, oldLag = min(oldLo, p.tl), max(oldHi, p.tl), min(oldLag, p.lag)
		}
	}
	if math.IsInf(float64(oldLo), 1) {
		// Commits further apart than the span: the newest against the
		// one before.
		prev, cur := pts[len(pts)-2], pts[len(pts)-1]
		oldLo, newLo, oldLag, newLag = prev.tl, cur.tl, prev.lag, cur.lag
		oldHi, newHi = oldLo, newLo
	}
	return float64(newLo-oldLo) > noise/2 || float64(newHi-oldHi) > noise/2 ||
		float64(newLo-oldLo) > -noise/2 && float64(newLag-oldLag) > lagNoise
}

// thirds is the least time lag and lag of the points in the oldest,
// middle and newest third of their span (in seconds): the floors of a
// sawtooth. Falling behind climbs from the first to the last, and the
// newest point is above the middle one; a step (a consumer that paused
// once and keeps pace since) climbs from the first third and then holds.
// An empty middle third is taken halfway.
func thirds(pts []trendPoint) (tl, lag [3]float32, span float64) {
	first := pts[0].at
	d := pts[len(pts)-1].at - first
	for k := range tl {
		tl[k], lag[k] = float32(math.Inf(1)), float32(math.Inf(1))
	}
	for _, p := range pts {
		k := min(2, int(3*(p.at-first)/d))
		tl[k], lag[k] = min(tl[k], p.tl), min(lag[k], p.lag)
	}
	if math.IsInf(float64(tl[1]), 1) {
		tl[1], lag[1] = (tl[0]+tl[2])/2, (lag[0]+lag[2])/2
	}
	return tl, lag, float64(d) / 1e9
}

// fillTrend gives the partitions whose newest trend point waits for the
// record read after its poll (rhythm.pending) their time lag, once
// AddExact stored the records.
func (h *History) fillTrend() {
	now := h.timeAt(h.seq)
	for _, gh := range h.groups {
		for i := range gh.parts {
			ph := &gh.parts[i]
			r := &ph.rh
			if !r.pending() || r.ntrend == 0 || ph.lastSeq != h.seq {
				continue
			}
			k := (int(r.head) + int(r.ntrend) - 1) % trendPoints
			if r.trend[k].at != now {
				r.set(pendingFlag, false)
				continue
			}
			c, end := h.sample(ph, h.seq)
			if l := h.timeLagOf(ph, c, end, now); l.Kind == TimeLagExact || l.Kind == TimeLagInterpolated {
				h.ownTrend(ph)
				r.trend[k].tl = float32(l.Seconds)
				gh.turnsOf(ph).fill(now, r.trend[k].tl)
				r.set(pendingFlag, false)
			}
		}
	}
}

// noteRhythm updates the partition's rhythm with the poll at t, which saw
// commit c and log end end; prevC is the commit at its previous poll.
func (h *History) noteRhythm(gh *groupHist, ph *partHist, c, end, prevC, t int64) {
	if ph.rh.since == 0 {
		ph.rh.start(t)
		if c >= 0 && lagOf(c, end) == 0 {
			ph.rh.caughtUp(t)
		}
		return
	}
	if c > prevC && (ph.raw == StatusStall || ph.raw == StatusStop || ph.rh.halted() || h.cameBack(gh, ph.rh.since)) {
		// The commit moves again after the rules called it stalled or
		// stopped (at the latest poll, or at any since the commit before:
		// rhythm.halted): the commits before describe the consumer before it
		// stopped, not the one that reads now. Its trend starts again
		// from here, so that a consumer working off the backlog a stall
		// left is judged on its own commits since, not on the climb the
		// stall made.
		ph.rh.restartTrend()
		ph.rh.moves |= resumedBit
	}
	if c >= 0 && prevC >= 0 && c < prevC {
		// The offset moved back (a reset, an undo, another tool's
		// write): the commits before describe a position the consumer
		// no longer reads from, and the old records it reads now are
		// the rewind's, as after a halt (afterHalt). Its trend starts
		// again from here, and so does its wait: the offset was written
		// now. Its rhythm still holds (unlike a halt's, no wait of the
		// consumer's ended in it): not resumed.
		ph.rh.restartTrend()
		ph.rh.set(resumedFlag, false)
		ph.rh.moves |= resumedBit
		ph.rh.start(t)
	}
	if c >= 0 && c > prevC && ph.rh.fromKnown() && ph.rh.last != 0 && ph.rh.since-ph.rh.last > h.floor() {
		// The first move after the partition was caught up, where its
		// commit had stood since well before (longer than the floor):
		// nothing was produced for that long, and its trend from before
		// the pause describes a backlog the consumer no longer has. It
		// starts again from here, and until its new commits make one,
		// a backlog waits as after a halt (rhythm.resumed).
		ph.rh.restartTrend()
	}
	if c >= 0 && c > prevC {
		// A move forward, or a first commit.
		tl := -1.0
		if l := h.timeLagOf(ph, c, end, t); l.Kind == TimeLagInterpolated || l.Kind == TimeLagExact || l.Kind == TimeLagCaughtUp {
			tl = l.Seconds
		}
		ph.noteCalm(tl >= 0 && tl <= h.calmNoise(), ph.rh.fromKnown(), ph.rh.since, t)
		h.ownTrend(ph)
		var before float32 = -1
		if n := ph.rh.ntrend; n > 0 {
			before = ph.rh.point(int(n) - 1).tl
		}
		if ph.rh.moved(t, h.latePoll(t), tl, lagOf(c, end), max(h.floor()/2, int64(trendSpacing))) {
			gh.noteTurn(ph, t, tl, lagOf(c, end), before)
		}
		r := &ph.rh
		n := int(r.ntrend)
		r.markStill(n >= 2 && r.point(n-2).lag-r.point(n-1).lag > KeepUpMessages && h.endStood(ph, r.point(n-2).at, end))
	}
	if c >= 0 && lagOf(c, end) == 0 {
		ph.rh.caughtUp(t)
		ph.noteCalm(true, true, t, t)
	}
}

// cameBack reports whether the group's members came back, after a run
// of polls without any, and that run began after since.
func (h *History) cameBack(gh *groupHist, since int64) bool {
	n := len(gh.memberless)
	return n > 0 && gh.memberless[n-1].to < h.seq && gh.leftAt >= since
}

// calmNoise is the time lag, in seconds, of a commit about caught up: a
// poll sees a commit up to one interval late, and KeepUpSeconds.
func (h *History) calmNoise() float64 {
	return KeepUpSeconds + float64(2*h.pollGap())/1e9
}

// leftCalm reports whether the partition's time lag (tl seconds) climbed,
// since a wait that began about caught up, past anything its consumer
// showed while keeping up: RhythmFactor times the longest wait it left
// records waiting while it kept up (calm), and calmNoise. Production
// that resumes on a partition at rest, or a consumer that slows after a
// commit at the head, looks like this on every consumer for its own
// rhythm; past it, nothing seen says it keeps up. A consumer that commits
// after each large batch commits at once while it keeps up, and minutes
// apart once it has a backlog: its long waits say how it falls behind,
// not how long keeping up takes.
func (h *History) leftCalm(ph *partHist, tl float64) bool {
	return ph.calmFrom() && ph.rh.fromKnown() && tl > h.calmNoise()+RhythmFactor*ph.calmWait().Seconds()
}

// waitOf is the Wait of kind k for the partition as of now; every is its
// group's rhythm (for a partition that showed none of its own).
func (h *History) waitOf(ph *partHist, tu *turns, k WaitKind, g groupPace, now int64) Wait {
	every := max(g.every, ph.rh.every())
	w := Wait{Kind: k, Silence: time.Duration(now - ph.rh.since), Every: time.Duration(every)}
	switch k {
	case WaitRhythm:
		w.Need = max(time.Duration(h.floor()), h.cfg.RhythmCeiling)
		if slow := ph.owned || g.simple; slow {
			w.Need = time.Duration(h.unseenHalt(slow))
		}
		if w.Every > 0 && !ph.owned {
			// Without a member, past its rhythm: STOP at the limit
			// (History.verdict).
			w.Need = max(time.Duration(h.floor()), RhythmFactor*w.Every)
		}
		w.Then = StatusStall
		if !ph.owned {
			w.Then = StatusStop
		}
	case WaitTrend:
		if ph.rh.resumed() {
			// Moving again after a halt: the halt is not its rhythm
			// (History.verdict); the waits since are, once there is one.
			w.Every = 0
			if ph.rh.ntrend >= 2 {
				w.Every = time.Duration(ph.rh.served())
			}
		}
		// Commits spanning two rhythms, and long enough to see a slow
		// climb (History.unresolved).
		w.Need = max(time.Duration(h.floor()), 2*w.Every, time.Duration(resolveSpan(h.trendNoise(ph))))
	case WaitCalm:
		w.Every = ph.calmWait()
	case WaitStretch:
		w.Need = time.Duration(h.stallAfter(ph, max(h.floor(), int64(RhythmFactor*float64(every))), g))
		w.Then = StatusStall
	case WaitBack:
		// The silence at which its members, back since g.back, reach
		// the limit the consumer's rhythm gives (History.verdict).
		w.Back = time.Duration(now - g.back)
		w.Need = time.Duration(g.back - ph.rh.since + h.haltAfter(ph, g))
		w.Then = StatusStall
	case WaitTurnStep:
		if tu != nil && tu.n >= 2 {
			w.Rise = time.Duration(float64(tu.tl[2]-tu.tl[1]) * float64(time.Second))
			w.Every = time.Duration(tu.round) * time.Second
		}
		// The next turn decides: a window spanning two rounds holds one.
		w.Need = max(time.Duration(h.floor()), 2*w.Every)
		if w.Rise <= 0 {
			// The wait the hold kept showing while it weighs the
			// rules' WARN (partitionHealth), its turns moved on since:
			// the hold's own reason is the one that holds now.
			return Wait{Kind: WaitHold, Silence: w.Silence, Every: time.Duration(every)}
		}
	case WaitGrew:
		h.grewBy(ph, &w, now)
	case WaitRose:
		rise, over, n := h.roseAtEach(ph)
		if n == 0 {
			// As for WaitTurnStep: its newest commit no longer rose.
			return Wait{Kind: WaitHold, Silence: w.Silence, Every: time.Duration(every)}
		}
		w.Rise = time.Duration(rise * float64(time.Second))
		w.Over, w.Commits = time.Duration(over), n
	case WaitStep:
		rise, ok := h.stepped(ph)
		w.Rise = time.Duration(rise * float64(time.Second))
		if !ok && !h.newHigh(ph) {
			if w.RiseRecords, _ = h.recordsStep(ph, g.membersAt); w.RiseRecords > 0 {
				w.Rise = 0
			}
		}
		w.Every = time.Duration(max(ph.rh.every(), h.pollGap()))
		// The next commit decides: a window spanning two rhythms holds
		// one (health suggests it).
		w.Need = max(time.Duration(h.floor()), 2*w.Every)
	}
	return w
}

// groupPace is what a group's partitions show together: the longest
// rhythm any of them showed (0: none did), and the latest commit on any
// of them (0: none seen). A partition that showed no rhythm of its own is
// judged by its group's: members commit their partitions together
// (autocommit, a commit after each batch), so a sibling's rhythm is the
// consumer's; unless its member showed none on any partition it owns
// (History.memberPaces), for a member's rhythm is its own. And a group whose commits still move is not gone, though a
// partition without members stands: a job that assigns its partitions
// itself commits them without members.
type groupPace struct {
	every, last int64
	// simple: the group is a simple group (groupHist.simple).
	simple bool
	// settled: some partition of the group showed a rhythm
	// (rhythm.periodic); confirmed: some showed it twice
	// (rhythm.confirmed).
	settled, confirmed bool
	// stretch is the next wait the growing waits of its partitions
	// predict (rhythm.stretch; 0: none), their median: a consumer that
	// commits after each fetched batch commits its partitions together,
	// and their waits grow together, while one partition's three latest
	// waits may each grow by a poll in the scatter of a timer's. For a
	// partition that showed no waits of its own (History.stallAfter),
	// and whether a member that committed nowhere lately halted
	// (History.judgeTurns).
	stretch int64
	// fell: most of the group's partitions that committed lately fell
	// at their newest commit (History.groupFell).
	fell bool
	// back is when the group's members came back after a run of polls
	// without any that the ring still holds (0: none).
	back int64
	// membersAt is when the group's members last changed
	// (groupHist.membersAt; 0: not while observed).
	membersAt int64
}

// fellShare and fellMin are how many of the group's partitions that
// committed within two of its rhythms must have fallen at their newest
// commit, in time lag and in lag, for one falling commit to end a
// partition's held climb (History.groupFell): four in five, of five at
// least.
const (
	fellShare = 0.8
	fellMin   = 5
)

// groupFell reports whether, of the group's partitions polled at t whose
// newest commit with a known time lag is within two of the group's
// rhythms (and the floor), at least fellMin did and fellShare of them
// saw the time lag and the lag in records fall below the commit before.
// A group scaled out, or sped up, shows so across its partitions within
// one commit of each, while a partition that commits every few minutes
// would wait two of its own for climbEnded.
func (h *History) groupFell(gh *groupHist, t int64) bool {
	horizon := max(h.floor(), 2*gh.pace.every)
	seen, fell := 0, 0
	for i := range gh.parts {
		ph := &gh.parts[i]
		if ph.lastSeq != h.seq {
			continue
		}
		b, c, ok := ph.rh.newestKnown()
		if !ok || t-c.at > horizon {
			continue
		}
		seen++
		if c.tl < b.tl && c.lag < b.lag {
			fell++
		}
	}
	return seen >= fellMin && float64(fell) >= fellShare*float64(seen)
}

// newestKnown is the partition's two newest trend points with a known
// time lag, oldest first.
func (r *rhythm) newestKnown() (b, c trendPoint, ok bool) {
	n := 0
	for i := int(r.ntrend) - 1; i >= 0 && n < 2; i-- {
		p := r.point(i)
		if p.tl < 0 {
			continue
		}
		if n == 0 {
			c = p
		} else {
			b = p
		}
		n++
	}
	return b, c, n == 2
}

// fellOnce reports whether the partition's newest commit fell below the
// one before in lag and in time lag, by more than twice the noise.
func (h *History) fellOnce(ph *partHist) bool {
	b, c, ok := ph.rh.newestKnown()
	return ok && c.lag < b.lag && float64(b.tl-c.tl) > 2*h.trendNoise(ph)
}

func groupRhythm(gh *groupHist, seq uint64) groupPace {
	g := groupPace{simple: gh.simple, membersAt: gh.membersAt}
	for i := range gh.parts {
		if ph := &gh.parts[i]; ph.lastSeq == seq {
			g.every = max(g.every, ph.rh.every())
			g.last = max(g.last, ph.rh.last)
			g.settled = g.settled || ph.rh.periodic()
			g.confirmed = g.confirmed || ph.rh.confirmed()
		}
	}
	return g
}

// grewAtCommits reports whether the time lag at the newest commit known
// exceeds the time lag at the newest commit at least span before it by
// more than half the time between them: grewSince for a time lag now
// known only as a lower bound (its record is older than the history; the
// commits' records were read).
func (r *rhythm) grewAtCommits(span int64) bool {
	for i := int(r.ntrend) - 1; i >= 0; i-- {
		if p := r.point(i); p.tl >= 0 {
			return r.grewSince(p.at, float64(p.tl), span)
		}
	}
	return false
}

// trendSpacing is the least time between two trend points (besides half
// the floor): eight of them span two minutes at least, long enough for a
// consumer a fifth slower than its producers to climb past the noise
// whatever the poll interval.
const trendSpacing = 15 * time.Second

// grewSince reports whether the time lag now (tl seconds) exceeds the
// time lag at a trend point at least span old by more than half the time
// since that point: a consumer keeping up on any rhythm shorter than half
// of span cannot show that, from any of its commits, nor from the
// caught-up poll that began one of its two latest waits ending in a
// commit (caughtAt; a time lag of 0: a consumer that resumed behind when
// production did shows it before its commits since make a trend; from
// the third of them, the trend speaks). Any point, not only
// the newest: a commit that read an old record (the end of a burst)
// makes a high point, and a time lag that climbs at about half a second
// a second would read grown against one point and not against the next,
// a verdict that flickers between OK and JUDGING from poll to poll.
func (r *rhythm) grewSince(now int64, tl float64, span int64) bool {
	if c := r.caughtAt(); c > 0 && now-c >= span && tl > float64(now-c)/2e9 {
		return true
	}
	var newer trendPoint // the oldest known point under span old
	for i := int(r.ntrend) - 1; i >= 0; i-- {
		p := r.point(i)
		if p.tl < 0 {
			continue
		}
		if now-p.at < span {
			newer = p
			continue
		}
		if newer.at != 0 && r.grewAcross(p, newer, now, tl, span) {
			return true
		}
		newer.at = 0
		if tl-float64(p.tl) > float64(now-p.at)/2e9 {
			return true
		}
	}
	return false
}

// grewAcross reports whether the time lag grew by more than half of span
// since now-span, a time between the commits at p and newer: the time
// lag then is read on the line between theirs (both floors of the
// sawtooth), and the time lag now (tl seconds) less its climb since the
// latest commit (none where now is a commit's poll, grewAtCommits), so
// floor is held against floor. A climb that began within the span shows
// from its start, where the older commit, up to a trend spacing before
// it, would hide it behind the slower climb before it.
func (r *rhythm) grewAcross(p, newer trendPoint, now int64, tl float64, span int64) bool {
	at := now - span
	f := float64(at-p.at) / float64(newer.at-p.at)
	then := float64(p.tl) + f*float64(newer.tl-p.tl)
	if r.last < now {
		tl -= float64(now-r.last) / 1e9
	}
	return tl-then > float64(span)/2e9
}

// grewSinceDrop reports whether the time lag grew, since the newest drop
// of the partition's time lag at its commits, by more than half the time
// since and the trend's scatter: grewSince from after a drop. A drop is a
// commit whose time lag fell below the one before by more than the time
// between them and KeepUpSeconds: a consumer that crossed a pause in
// production, or a burst's lull. The points before it are higher than
// any growth since can pass, so a climb that began after it hides behind
// them until a point after it is span old; here the first point after it
// counts once it is half the span old, floor against floor (the time lag
// now less its climb since the latest commit). The scatter is the
// largest fall between the points before the drop (at least three of
// them), and half of noise (trendNoise): a consumer behind bursty
// producers commits time lags that zigzag by about a burst's lull,
// climbing after each fall by as much as it fell; one that falls behind
// after a pause climbs from a trend that did not fall.
func (r *rhythm) grewSinceDrop(now int64, tl float64, span int64, noise float64) bool {
	after, scatter, ok := r.sinceDrop(now, span)
	if !ok {
		return false
	}
	if r.last < now {
		tl -= float64(now-r.last) / 1e9
	}
	return tl-float64(after.tl) > float64(r.last-after.at)/2e9+max(scatter, noise/2)
}

// sinceDrop is the oldest known trend point since the newest drop
// (grewSinceDrop) and the largest fall between the points before it
// (false: no drop, fewer than three points before it, or the point after
// it less than half of span before now).
func (r *rhythm) sinceDrop(now, span int64) (after trendPoint, scatter float64, ok bool) {
	var newer trendPoint // the point after p
	before := 0
	for i := int(r.ntrend) - 1; i >= 0; i-- {
		p := r.point(i)
		if p.tl < 0 {
			continue
		}
		switch fell := float64(p.tl - newer.tl); {
		case newer.at == 0:
		case after.at != 0:
			scatter = max(scatter, fell)
		case fell > max(KeepUpSeconds, float64(newer.at-p.at)/1e9):
			after = newer
		}
		if after.at != 0 {
			before++
		}
		newer = p
	}
	return after, scatter, before >= 3 && 2*(now-after.at) >= span
}

// grewSinceDrop is rhythm.grewSinceDrop with the partition's trend noise
// (trendNoise), read only where its trend shows a drop.
func (h *History) grewSinceDrop(ph *partHist, now int64, tl float64, span int64) bool {
	if _, _, ok := ph.rh.sinceDrop(now, span); !ok {
		return false
	}
	return ph.rh.grewSinceDrop(now, tl, span, h.trendNoise(ph))
}

// grewPast reports whether the time lag now (tl seconds) exceeds the
// time lag at the newest commit at least short old by more than half the
// time since and KeepUpSeconds: grewSince on the consumer's own rhythm
// (short: two of its rhythms and two polls), with the noise of sampling
// allowed for, where grewSince waits for the window. A consumer that
// commits every second and stops committing one partition shows it
// within seconds.
func (r *rhythm) grewPast(now int64, tl float64, short int64) bool {
	for i := int(r.ntrend) - 1; i >= 0; i-- {
		p := r.point(i)
		if p.tl < 0 || now-p.at < short {
			continue
		}
		return tl-float64(p.tl) > float64(now-p.at)/2e9+KeepUpSeconds
	}
	return false
}

// grewLate reports whether the partition's commit is later than its
// rhythm (every: the longest of its recent waits) and the noise of
// sampling, and its time lag now (tl seconds) exceeds the one at that
// commit by more than its rhythm and that noise: more than the sawtooth
// of a consumer that keeps up explains, though no commit is two rhythms
// old yet (grewSince) nor the silence a stall's.
func (r *rhythm) grewLate(now int64, tl float64, every, pollGap int64) bool {
	if every <= 0 || r.ntrend == 0 {
		return false
	}
	p := r.point(int(r.ntrend) - 1)
	if p.tl < 0 || p.at != r.last || r.since != r.last {
		// A wait that began at a caught-up poll is calmWait's.
		return false
	}
	noise := max(int64(KeepUpSeconds)*int64(time.Second), 2*pollGap)
	return now-r.last > every+noise && tl-float64(p.tl) > float64(every+noise)/1e9
}

// slope is the least-squares slope of pts' time lags against their
// times, in seconds a second.
func slope(pts []trendPoint) float64 {
	var mx, my float64
	for _, p := range pts {
		mx += float64(p.at-pts[0].at) / 1e9
		my += float64(p.tl)
	}
	n := float64(len(pts))
	mx, my = mx/n, my/n
	var cov, vx float64
	for _, p := range pts {
		dx := float64(p.at-pts[0].at)/1e9 - mx
		cov += dx * (float64(p.tl) - my)
		vx += dx * dx
	}
	if vx == 0 {
		return 0
	}
	return cov / vx
}

// climbEnded reports whether the partition's latest commits end its
// climb: at each of its two newest commits the time lag and the lag in
// records fell, the time lag by more than twice the noise in all. A
// consumer scaled out, or sped up, reads so within two commits, while
// the older commits of its climb still hold the trend's line up; the
// scatter of bursty production falls by less (History.trend).
func (h *History) climbEnded(ph *partHist) bool {
	var buf [trendPoints]trendPoint
	k := ph.rh.knownPoints(&buf)
	if len(k) < 3 {
		return false
	}
	a, b, c := k[len(k)-3], k[len(k)-2], k[len(k)-1]
	return b.tl < a.tl && c.tl < b.tl && b.lag < a.lag && c.lag < b.lag && float64(a.tl-c.tl) > 2*h.trendNoise(ph)
}

// roseCommits is how many of a partition's newest commits in a row must
// each stand further behind than the one before for roseAtEach: three
// rises, as a trend needs three commits at least.
const roseCommits = 4

// roseAtEach reports the run of the partition's newest trend points (its
// commits, trendSpacing apart and more) whose time lag rose at each: how
// much it rose over the run, over how long, and at how many commits. It
// is 0 unless the run has roseCommits at least, its time lag rose past
// half the noise (trendNoise) to its middle commit and again from there,
// and its lag in records grew over it past a poll's production and a
// few records; or when the newest commit's time lag is neither known nor
// being read.
//
// A consumer keeping up commits time lags that scatter about a level,
// within the noise; behind bursty producers they climb through a burst
// by less than its lull (the noise); served in turn, they fall through
// each turn. One that fell behind once, in a step, and keeps pace since
// holds its time lag after the step, though it may creep up by a
// fraction of a second at each commit. One that reads records written
// faster than it reads them sees its time lag climb while its lag falls
// (catching up), and one that keeps pace with producers slowing down
// while its lag holds. One whose every commit stands further behind than
// the last, past all of that, in records too, is falling behind, before
// its trend's thirds climb past EqualRateShare of their span: a consumer
// at 90% of its producers on two-minute commits shows it at its fourth
// commit, its trend three commits later.
//
// Or three newest commits will do, the first behind (its lag above 0),
// whose time lag stepped past the noise at the second and climbed past
// half of it again at the third, in records past a poll's production: a
// step that goes on at the next commit is no step held (3.5, 26.2,
// 34.6 s at 30 s commits, a member joining leaving the partition's
// owner at 0.7 of its producers). From a caught-up commit, a run of
// three is what production that pauses makes on a checkpoint (0, 40,
// 80 s, and again): the longer run decides there.
func (h *History) roseAtEach(ph *partHist) (rise float64, over int64, n int) {
	r := &ph.rh
	newestKnown := r.ntrend > 0 && r.point(int(r.ntrend)-1).tl >= 0
	// At the poll that sees a commit, its time lag is read after the
	// poll is judged (pending): the run up to the commit before stands.
	pendingAfterKnown := r.pending() && r.ntrend > 1 && r.point(int(r.ntrend)-2).tl >= 0
	if !newestKnown && !pendingAfterKnown {
		return 0, 0, 0
	}
	var buf [trendPoints]trendPoint
	known := r.knownPoints(&buf)
	k := len(known) - 1
	newest := known[k]
	for k > 0 && known[k].tl > known[k-1].tl {
		k--
	}
	noise := h.trendNoise(ph)
	rate := max(0, h.produceRate(ph))
	lagNoise := max(KeepUpMessages, rate*float64(h.pollGap())/1e9)
	// The longest run of the newest commits, roseCommits at least, whose
	// climb goes on through it: past half the noise to its middle commit
	// and again from there. A step, then a time lag that holds within the
	// noise (rising by a fraction of a second at each commit), is a
	// consumer that fell behind once and keeps pace; a creep within the
	// noise before a climb does not hide the climb.
	for ; k <= len(known)-roseCommits; k++ {
		first := known[k]
		n = len(known) - k
		mid := known[k+(n-1)/2]
		if float64(mid.tl-first.tl) > noise/2 && float64(newest.tl-mid.tl) > noise/2 && float64(newest.lag-first.lag) > lagNoise {
			return float64(newest.tl - first.tl), newest.at - first.at, n
		}
	}
	if k := len(known) - 3; k >= 0 {
		// A step that goes on (see above).
		first, mid := known[k], known[k+1]
		if first.lag > 0 && float64(mid.tl-first.tl) > noise && float64(newest.tl-mid.tl) > noise/2 && float64(newest.lag-mid.lag) > lagNoise {
			return float64(newest.tl - first.tl), newest.at - first.at, 3
		}
	}
	return 0, 0, 0
}

// stepHeld reports whether the climb of the points (oldest first) is one
// step held since: their largest rise from one commit to the next,
// beyond the noise, came before the newest two; the commits before it
// stayed within the noise, and within a third of it (stepShare), as
// stepped asks of the commits before a step at the newest; and the
// commits after it do not climb past their own scatter (the largest
// fall between two of them, and the noise). A rebalance that hands a
// partition to a member serving others first, or one pause, moves the
// time lag at the commits once; the consumer keeps pace from there, its
// commits scattered by where each finds its member in its round (seed
// 3's s205: 7, 7, 397, 263, 444 s). A consumer that falls behind after
// the step climbs past that scatter.
func stepHeld(pts []trendPoint, noise float64) bool {
	n := len(pts)
	j, step := 0, float32(0)
	for i := 1; i < n; i++ {
		if r := pts[i].tl - pts[i-1].tl; r > step {
			j, step = i, r
		}
	}
	if j == 0 || j > n-3 || float64(step) <= noise {
		return false
	}
	lo, hi := pts[0].tl, pts[0].tl
	for _, p := range pts[:j] {
		lo, hi = min(lo, p.tl), max(hi, p.tl)
	}
	if float64(hi-lo) > noise || hi-lo >= step/stepShare {
		// The commits before it climbed too: part of a climb.
		return false
	}
	post := pts[j:]
	scatter := noise
	for i := 1; i < len(post); i++ {
		scatter = max(scatter, float64(post[i-1].tl-post[i].tl))
	}
	rise := slope(post) * float64(post[len(post)-1].at-post[0].at) / 1e9
	return rise <= scatter && float64(step) > rise
}

// knownPoints are the trend's points whose time lag is known, oldest
// first, in buf.
func (r *rhythm) knownPoints(buf *[trendPoints]trendPoint) []trendPoint {
	n := 0
	for i := range int(r.ntrend) {
		if p := r.point(i); p.tl >= 0 {
			buf[n] = p
			n++
		}
	}
	return buf[:n]
}

// stepped reports whether the trend's climb is nearly all in its newest
// commit (History.verdict): the time lags at the commits before it stay
// within the noise of the oldest third's floor, and within a third of
// the newest's rise (stepShare). rise is how far the newest stands above
// the highest of them, in seconds.
func (h *History) stepped(ph *partHist) (rise float64, ok bool) {
	var buf [trendPoints]trendPoint
	known := ph.rh.knownPoints(&buf)
	nk := len(known)
	if nk < 3 {
		return 0, false
	}
	tl, _, _ := thirds(known)
	noise := h.trendNoise(ph)
	before := known[0].tl
	for _, p := range known[:nk-1] {
		before = max(before, p.tl)
	}
	rise, climbed := float64(known[nk-1].tl-before), float64(before-tl[0])
	return rise, climbed <= noise && climbed < rise/stepShare
}

// recordsStep is stepped for a trend whose newest commit's time lag is
// not known (its record is older than the points: the lag in records
// stands in, History.trend), at the commit where the group's members
// last changed (membersAt, since the commit before it): a member handed
// partitions in a rebalance commits them where it starts, as far behind
// as the last owner left them, and keeps pace from there. The lags
// before that commit stay within recordsClimb's noise of each other, it
// rose above them by more than the noise and stepShare times their
// spread, and none after it rose above it by more than the noise. rise
// is that step in records (0: none); newest reports whether the step is
// the newest commit (the next one tells a step from a climb) or was held
// since (no climb). A partition served in turn steps at each of its
// rounds, without a change of members, and its steps are its trend.
func (h *History) recordsStep(ph *partHist, membersAt int64) (rise int64, newest bool) {
	r := &ph.rh
	n := int(r.ntrend)
	if n < 3 || membersAt == 0 || r.point(n-1).tl >= 0 {
		return 0, false
	}
	var buf [trendPoints]trendPoint
	for i := range n {
		buf[i] = r.point(i)
	}
	pts := buf[:n]
	k := 1
	for k < n && !(pts[k-1].at < membersAt && membersAt <= pts[k].at) {
		k++
	}
	if k == n {
		return 0, false
	}
	_, _, span := thirds(pts)
	rate := max(0, h.produceRate(ph))
	noise := max(KeepUpMessages, EqualRateShare*rate*span, rate*float64(h.pollGap())/1e9)
	lo, hi := pts[0].lag, pts[0].lag
	for _, p := range pts[:k] {
		lo, hi = min(lo, p.lag), max(hi, p.lag)
	}
	top := pts[k].lag
	for _, p := range pts[k+1:] {
		top = max(top, p.lag)
	}
	step := float64(pts[k].lag - hi)
	if float64(hi-lo) > noise || step <= noise || step <= stepShare*float64(hi-lo) || float64(top-pts[k].lag) > noise {
		return 0, false
	}
	return int64(step), k == n-1
}

// unresolved is, for a partition with a backlog (its time lag, tl now
// or at its newest commit, past bound seconds), how much longer than
// they do the commits of its trend must span to tell a consumer falling
// behind at ResolveClimb (its time lag climbing that many seconds a
// second) from one that keeps pace. It is 0 without a backlog, when they
// span enough, or when catching up shows: the time lag at them fell,
// along their line, by more than the noise (a fall within it is the
// scatter of bursty production as likely as a catch-up), or the lag in
// records at them fell. The trend sees a climb between the floors of its
// oldest and newest thirds, about two thirds of its span apart, only
// past the noise (History.trend). Without the newest commit's record
// read, tl is a lower bound: the time lags at the commits before count.
func (h *History) unresolved(ph *partHist, tl, bound float64) int64 {
	var buf [trendPoints]trendPoint
	known := ph.rh.knownPoints(&buf)
	nk := len(known)
	if nk > 0 {
		tl = max(tl, float64(known[nk-1].tl))
	}
	if tl <= bound {
		return 0
	}
	noise := h.trendNoise(ph)
	need := resolveSpan(noise)
	if nk < 2 {
		return need
	}
	span := known[nk-1].at - known[0].at
	if span >= need || -slope(known)*float64(span)/1e9 > noise || fewerWaiting(known) {
		return 0
	}
	return need - span
}

// fewerWaiting reports whether the lag in records at the commits pts
// fell: the floor of the newest third below the oldest's (with fewer
// than three, the newest below the oldest). A consumer working off
// records written faster than they are written now sees its time lag
// climb while it catches up.
func fewerWaiting(pts []trendPoint) bool {
	if len(pts) < 3 {
		return pts[len(pts)-1].lag < pts[0].lag
	}
	_, lag, _ := thirds(pts)
	return lag[2] < lag[0]
}

// resolveSpan is how long a trend's commits must span to see a climb of
// ResolveClimb through noise seconds of scatter (History.unresolved).
func resolveSpan(noise float64) int64 {
	return int64(1.5 * noise / ResolveClimb * 1e9)
}

// trendNoise is how far, in seconds, the time lags at a consumer's
// commits scatter about their trend: a poll sees a commit up to one
// interval late, KeepUpSeconds, and the longest the partition's
// producers paused over the rate window (productionGap): a record written
// just before a pause ages through it, so a consumer that keeps pace a
// little behind bursty producers commits records whose age swings by
// that much.
func (h *History) trendNoise(ph *partHist) float64 {
	noise := max(KeepUpSeconds, float64(h.pollGap())/1e9)
	if gap := h.productionGap(ph); gap > noise && gap*h.produceRate(ph) > KeepUpMessages {
		noise = gap
	}
	return noise
}

// productionGap is the longest run of polls, in seconds, over the rate
// window during which the partition's log end did not move.
func (h *History) productionGap(ph *partHist) float64 {
	from := h.firstSeq(ph.first(), ph.lastSeq)
	if n := uint64(h.cfg.RatePolls); ph.lastSeq >= n && ph.lastSeq-n+1 > from {
		from = ph.lastSeq - n + 1
	}
	ends := h.col(ph, secLogEnd)
	var longest, since int64
	prev := int64(-1)
	for s := from; s <= ph.lastSeq; s++ {
		i := h.slot(s)
		e, t := ends.get(i), h.times[i]
		if e != prev || since == 0 {
			since, prev = t, e
			continue
		}
		longest = max(longest, t-since)
	}
	return float64(longest) / 1e9
}

// ResolveClimb is the slowest climb of the time lag, in seconds a second,
// the trend must be able to see before a backlog reads OK: a consumer at
// 90% of its producers' rate.
const ResolveClimb = 0.1

// stepShare: a climb is a step (History.stepped) when the commits before
// the newest carried less than 1/stepShare of the newest's rise, as well
// as less than the noise. A steady climb spreads over its commits: with
// three of them, the newest carries about half.
const stepShare = 3
