package verdictbench

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestUnevenLoadIsBorderline: four members share six partitions, two
// members with two partitions and two with one, at 1.3 times the mean
// production. The members with one partition work off their backlog
// (catching up); those with two run at 0.975 of what arrives on theirs,
// inside the band nobody could call within the scenario: their
// partitions are borderline, and not scored.
func TestUnevenLoadIsBorderline(t *testing.T) {
	sc := &Scenario{
		Name: "uneven", Partitions: 6, Members: 4, Spread: Even,
		Rhythm: Rhythm{Kind: Interval, Every: 5 * time.Second}, Production: Production{Kind: Steady, Rate: 10},
		Poll: 5 * time.Second, Window: time.Minute, Length: 10 * time.Minute,
		Phases: []Phase{{At: 0, Speed: 1.3, Event: Consume}}, Seed: 1,
	}
	w := newWorld(sc)
	for w.t < 60 {
		w.step()
	}
	// A backlog on every partition, so that each is past keeping up.
	for i := range w.parts {
		w.parts[i].committed = max(0, w.parts[i].end-2000)
	}
	w.t += 300
	counts := map[Truth]int{}
	for k := range w.members {
		load := len(w.members[k].parts)
		for _, p := range w.members[k].parts {
			tr, ok := w.partTruth(p, 0)
			if !ok {
				t.Fatalf("partition %d: no truth", p)
			}
			counts[tr]++
			want := CatchingUp
			if load == 2 {
				want = Borderline
			}
			if tr != want {
				t.Errorf("partition %d of a member serving %d: %s, want %s", p, load, tr, want)
			}
		}
	}
	if counts[Borderline] != 4 || counts[CatchingUp] != 2 {
		t.Errorf("truths %v, want 4 borderline and 2 catching up", counts)
	}
}

// TestSlowerThanWhatArrivesIsBorderlineWithoutABacklog: the members of
// TestUnevenLoadIsBorderline a record or two behind, their time lag under
// the bound of keeping up. Those serving two partitions run at 0.975 of
// what arrives on them: their time lag grows, a fortieth of a second a
// second, from however little it is, so they do not keep up (a bounded
// delay behind), and nobody could call them falling behind within the
// scenario either: borderline, as with a backlog. Those serving one keep
// up.
func TestSlowerThanWhatArrivesIsBorderlineWithoutABacklog(t *testing.T) {
	sc := &Scenario{
		Name: "uneven", Partitions: 6, Members: 4, Spread: Even,
		Rhythm: Rhythm{Kind: Interval, Every: 5 * time.Second}, Production: Production{Kind: Steady, Rate: 10},
		Poll: 5 * time.Second, Window: time.Minute, Length: 10 * time.Minute,
		Phases: []Phase{{At: 0, Speed: 1.3, Event: Consume}}, Seed: 1,
	}
	w := newWorld(sc)
	for w.t < 60 {
		w.step()
	}
	for i := range w.parts {
		w.parts[i].committed = max(0, w.parts[i].end-1)
		if tl := w.timeLag(i); tl < 0 || tl > w.keepUpBound() {
			t.Fatalf("partition %d: time lag %.1fs, want within [0, %.1fs]", i, tl, w.keepUpBound())
		}
	}
	for k := range w.members {
		load := len(w.members[k].parts)
		for _, p := range w.members[k].parts {
			want := KeepsUp
			if load == 2 {
				want = Borderline
			}
			if tr, ok := w.partTruth(p, 0); !ok || tr != want {
				t.Errorf("partition %d of a member serving %d: %s (%v), want %s", p, load, tr, ok, want)
			}
		}
	}
}

// TestHotPartitionFallsBehindWhileItsMemberCatchesUp: one member at twice
// the mean production serves six partitions, one taking half of it. With
// a backlog on every partition, the member shares its capacity evenly
// (process): the hot partition gets 20 records a second of the 30 that
// arrive on it, and falls behind while the member catches up on the
// rest. Once the others are caught up, it gets all the member does not
// spend on them, and catches up.
func TestHotPartitionFallsBehindWhileItsMemberCatchesUp(t *testing.T) {
	sc := &Scenario{
		Name: "hot", Partitions: 6, Members: 1, Spread: Hot,
		Rhythm: Rhythm{Kind: Interval, Every: 5 * time.Second}, Production: Production{Kind: Steady, Rate: 10},
		Poll: 5 * time.Second, Window: time.Minute, Length: 10 * time.Minute,
		Phases: []Phase{{At: 0, Speed: 2, Event: Consume}}, Seed: 1,
	}
	w := newWorld(sc)
	for w.t < 60 {
		w.step()
	}
	for i := range w.parts {
		p := &w.parts[i]
		p.committed = max(0, p.end-2000)
		p.pos = p.committed
	}
	want := []Truth{FallingBehind, CatchingUp, CatchingUp, CatchingUp, CatchingUp, CatchingUp}
	for i, wt := range want {
		if tr, ok := w.partTruth(i, 0); !ok || tr != wt {
			t.Errorf("every partition behind: partition %d is %s, want %s", i, tr, wt)
		}
	}
	if tr, _ := w.groupTruth(0); tr != FallingBehind {
		t.Errorf("every partition behind: the group is %s, want %s", tr, FallingBehind)
	}
	for i := 1; i < len(w.parts); i++ {
		w.parts[i].pos, w.parts[i].committed = w.parts[i].end, w.parts[i].end
	}
	if tr, _ := w.partTruth(0, 0); tr != CatchingUp {
		t.Errorf("the others caught up: partition 0 is %s, want %s", tr, CatchingUp)
	}
}

// TestSharesGoInTurn: a member with less than a record a step for each
// of its partitions with a backlog gives them records in turn, as a
// fetcher rotates its partitions. Given by chance, some would get more
// than others and their time lags wander apart, while the truth, from
// the member's capacity, calls them all catching up.
func TestSharesGoInTurn(t *testing.T) {
	sc := &Scenario{
		Name: "turns", Partitions: 200, Members: 2, Spread: Even,
		Rhythm: Rhythm{Kind: Interval, Every: 5 * time.Second}, Production: Production{Kind: Trickle},
		Poll: time.Second, Window: time.Minute, Length: 10 * time.Minute,
		Phases: []Phase{{At: 0, Speed: 1.3, Event: Consume}}, Seed: 1,
	}
	w := newWorld(sc)
	m := &w.members[0]
	start := make(map[int]int64, len(m.parts))
	for _, i := range m.parts {
		w.parts[i].end += 50 // a backlog of 50 records on each
		start[i] = w.parts[i].pos
	}
	// 1,000 records at 0.9 a step, for 100 partitions.
	for range 1112 {
		w.process(m, 0.9)
	}
	lo, hi, total := int64(1<<62), int64(0), int64(0)
	for _, i := range m.parts {
		got := w.parts[i].pos - start[i]
		lo, hi, total = min(lo, got), max(hi, got), total+got
	}
	if total != 1000 || len(m.parts) != 100 {
		t.Fatalf("%d records over %d partitions, want 1000 over 100", total, len(m.parts))
	}
	if hi-lo > 1 {
		t.Errorf("partitions got %d to %d records each, want 10 each (within 1)", lo, hi)
	}
}

// TestAMemberWithoutPartitionsCommitsNothing: a member that joins a
// group with no partition left for it (two members, one partition)
// commits nothing: the partition is committed on its owner's timer
// alone. Committing all partitions, as the world once did for a member
// with none, put a second timer on the partition, and its waits ran
// long and short by turns.
func TestAMemberWithoutPartitionsCommitsNothing(t *testing.T) {
	sc := &Scenario{
		Name: "idle", Partitions: 1, Members: 1, Spread: Even,
		Rhythm: Rhythm{Kind: Interval, Every: time.Minute}, Production: Production{Kind: Steady, Rate: 10},
		Poll: 5 * time.Second, Window: time.Minute, Length: 20 * time.Minute,
		Phases: []Phase{{At: 0, Speed: 1.5, Event: Consume}, {At: time.Minute, Speed: 1.5, Event: Join}}, Seed: 1,
	}
	w := newWorld(sc)
	for w.t < 1200 {
		w.step()
	}
	if n := len(w.members); n != 2 {
		t.Fatalf("%d members; want 2", n)
	}
	if n := len(w.members[1].parts); n != 0 {
		t.Fatalf("the second member has %d partitions; want none", n)
	}
	p := &w.parts[0]
	for _, g := range p.gaps {
		if g < 59 || g > 61 {
			t.Errorf("waits between commits %v; want each a minute (the owner's timer)", p.gaps)
			break
		}
	}
}

// TestAStuckPartitionHoldsNoBatch: a member committing after each batch,
// one of its partitions stuck at a record, commits its other partition's
// records when it has read them: the stuck partition's records are in no
// batch it fetches, so no batch waits for them. Counting them, the member
// held the others' last records uncommitted until more arrived (through
// each pause of its producers, five minutes: a wait no consumer makes).
func TestAStuckPartitionHoldsNoBatch(t *testing.T) {
	sc := &Scenario{
		Name: "stuck", Partitions: 2, Members: 1, Spread: Even,
		Rhythm: Rhythm{Kind: AfterBatch, Batch: 500}, Production: Production{Kind: Steady, Rate: 1},
		Poll: time.Second, Window: time.Minute, Length: 10 * time.Minute,
		Phases: []Phase{{At: 0, Speed: 2, Event: StuckOne}}, Seed: 1,
	}
	w := newWorld(sc)
	w.step()
	if !w.stuck {
		t.Fatal("partition 0 is not stuck")
	}
	p0, p1 := &w.parts[0], &w.parts[1]
	p0.end += 100 // records wait on the stuck partition
	p1.end += 10  // and ten on the other, and no more arrive
	at := w.t
	for w.t < at+5 {
		w.process(&w.members[0], 1)
		w.commit()
		w.t += dt
	}
	if p1.committed != p1.end {
		t.Errorf("partition 1 committed at %d, its end %d: want its records committed once read (read to %d)", p1.committed, p1.end, p1.pos)
	}
}

// TestAFetchHoldsWhatThePartitionHad: a member serving its partitions in
// turn takes, in its turn on a partition, the records that partition held
// when the turn began (one fetch), then turns to the next with records
// waiting: what lands on the first meanwhile waits for the next round, as
// a consumer's next fetch brings it. Taking those too, a member whose pace
// matches one partition's production would never leave it.
func TestAFetchHoldsWhatThePartitionHad(t *testing.T) {
	sc := &Scenario{
		Name: "fetch", Partitions: 2, Members: 1, Spread: InTurn,
		Rhythm: Rhythm{Kind: PerRecord}, Production: Production{Kind: Steady, Rate: 1},
		Poll: time.Second, Window: time.Minute, Length: 10 * time.Minute,
		Phases: []Phase{{At: 0, Speed: 1, Event: Consume}}, Seed: 1,
	}
	w := newWorld(sc)
	m := &w.members[0]
	p0, p1 := &w.parts[m.parts[0]], &w.parts[m.parts[1]]
	p0.end, p1.end = p0.pos+3, p1.pos+5
	start0, start1 := p0.pos, p1.pos
	w.process(m, 2) // two of the three p0 held
	p0.end += 4     // four more land on p0
	w.process(m, 1) // the third: p0's fetch is done
	w.process(m, 5) // p1's five, though p0 has four waiting
	if got0, got1 := p0.pos-start0, p1.pos-start1; got0 != 3 || got1 != 5 {
		t.Errorf("p0 %d, p1 %d records taken; want 3 and 5 (p0's fetch, then p1's)", got0, got1)
	}
	w.process(m, 4) // p0's next fetch: the four
	if got := p0.pos - start0; got != 7 {
		t.Errorf("p0 %d records taken after its next turn; want 7", got)
	}
}

// TestResumingShowsFromItsFirstCommit: a consumer stalls, resumes at 100 s
// and commits its first batch after it at 160 s. Its polls at 5 s read
// STALL until that commit, and OK after it. The polls before the commit
// are not scored (nothing in the offsets shows the resume yet); the grace
// counts from the commit. A rhythm change without a halt (keeps up to
// falling behind) shows from the change itself.
func TestResumingShowsFromItsFirstCommit(t *testing.T) {
	sc := &Scenario{Name: "resume", Poll: 5 * time.Second, Rhythm: Rhythm{Kind: Interval, Every: 5 * time.Second},
		Production: Production{Kind: Steady, Rate: 10}, Partitions: 1, Members: 1}
	o := &observer{span: 15}
	for t := 0.0; t <= 300; t += 5 {
		j := judged{t: t, truth: Stalled, col: ColStall, shown: 0}
		switch {
		case t >= 160:
			j.truth, j.col, j.shown = CatchingUp, ColOK, 160
		case t >= 100:
			j.truth = CatchingUp
		}
		o.out = append(o.out, j)
	}
	s := o.score(sc)
	// Grace 15 s + max(15, 3x5 s) = 30 s: STALL settled from 30 s to 95 s
	// (14 polls); catching up settled from 190 s (160 s + 30 s) to 300 s.
	if got := s.Settled[Stalled][ColStall]; got != 14 {
		t.Errorf("stalled as STALL on %d settled polls, want 14", got)
	}
	if got := s.Settled[CatchingUp][ColStall]; got != 0 {
		t.Errorf("catching up as STALL on %d settled polls before its first commit, want 0", got)
	}
	if got := s.Settled[CatchingUp][ColOK]; got != 23 {
		t.Errorf("catching up as OK on %d settled polls, want 23 (190 s to 300 s)", got)
	}

	// Keeps up, then falls behind at 100 s while it commits as before:
	// the grace counts from 100 s.
	o = &observer{span: 15}
	for t := 0.0; t <= 300; t += 5 {
		j := judged{t: t, truth: KeepsUp, col: ColOK, shown: t}
		if t >= 100 {
			j.truth, j.col = FallingBehind, ColWarn
		}
		o.out = append(o.out, j)
	}
	s = o.score(sc)
	if got := s.Settled[FallingBehind][ColWarn]; got != 35 {
		t.Errorf("falling behind as WARN on %d settled polls, want 35 (130 s to 300 s)", got)
	}
}

// TestARoundIsTheRhythmOfAPartitionServedInTurn: a partition served in
// turn is committed every second for ten seconds, then not for a round
// of 100 s, again and again: its rhythm is the round, however many
// commits its turn took (the latest four waits are all a second long
// after each turn). Once it commits every second for longer than two
// rounds, its rhythm is the second.
func TestARoundIsTheRhythmOfAPartitionServedInTurn(t *testing.T) {
	w, commit := onePartition()
	w.t = 0
	for round := range 3 {
		for k := range 10 {
			w.t = float64(round*110 + k)
			commit()
		}
		if got := w.rhythm(); round > 0 && got != 101 {
			t.Errorf("round %d: rhythm %.1fs at the end of its turn, want 101s (the wait for the turn)", round, got)
		}
	}
	// 229 s: the last turn ended at 229 s. Commits every second from 330 s.
	for s := 330; s <= 540; s++ {
		w.t = float64(s)
		commit()
		switch got := w.rhythm(); {
		case s <= 330+2*101 && got != 101:
			t.Fatalf("%ds: rhythm %.1fs, want 101s until two of the round have passed since it ended", s, got)
		case s > 330+2*101 && got != 1:
			t.Fatalf("%ds: rhythm %.1fs, want 1s", s, got)
		}
	}
}

// onePartition is a world of one partition served by one member, with
// records enough to wait, and a commit of one more record at w.t.
func onePartition() (*world, func()) {
	sc := Scenarios(DefaultSeed, 1, 60*time.Minute)[0]
	sc.Partitions, sc.Members, sc.Spread = 1, 1, Even
	w := newWorld(&sc)
	w.parts[0].end = 1 << 20
	return w, func() {
		w.parts[0].pos++
		w.commitParts(nil)
	}
}

// TestATimeAwayIsNoRhythm: a consumer committing every second whose
// members leave for a minute (a restart) and come back: the minute is a
// stop, not how it commits, and its rhythm stays a second (seed 1's s022
// and seed 10's s217 read as OK while the time lag grew, two minutes of
// "rhythm" back, while it fell after the restart).
func TestATimeAwayIsNoRhythm(t *testing.T) {
	w, commit := onePartition()
	for s := range 10 {
		w.t = float64(s)
		commit()
	}
	w.leaveAll()
	w.t = 70
	w.comeBack()
	for s := 71; s <= 80; s++ {
		w.t = float64(s)
		commit()
		if got := w.rhythm(); got != 1 {
			t.Fatalf("%ds: rhythm %.1fs after a minute away, want 1s", s, got)
		}
	}
}

// TestARoundInTurnIsWithinTheRhythmOnlyWhileTheConsumerCommits: one
// member serves two partitions in turn, partition 0 a turn of ten
// commits every 110 s (a round of 101 s between turns), partition 1
// committed every second in between. Partition 0's wait is within its
// rhythm while its member commits on partition 1 (a STALL there would be
// early); once neither moves for longer than the consumer ever waited
// between commits, it is not, though partition 0's wait is still shorter
// than its round: the consumer stalled.
func TestARoundInTurnIsWithinTheRhythmOnlyWhileTheConsumerCommits(t *testing.T) {
	sc := Scenarios(DefaultSeed, 1, 60*time.Minute)[0]
	sc.Partitions, sc.Members, sc.Spread = 2, 1, Even
	w := newWorld(&sc)
	w.parts[0].end, w.parts[1].end = 1<<20, 1<<20
	commit := func(i int) {
		w.parts[i].pos++
		w.commitParts([]int{i})
	}
	for round := range 3 {
		for k := range 10 {
			w.t = float64(round*110 + k)
			commit(0)
		}
		for s := round*110 + 10; s < (round+1)*110; s++ {
			w.t = float64(s)
			commit(1)
		}
	}
	// 330 s: partition 0 last moved at 229 s (101 s, its round); partition
	// 1 at 329 s.
	w.t = 330
	if !w.withinRhythm(0) {
		t.Errorf("330s: partition 0 waits its round while its member commits every second: want within its rhythm")
	}
	// Neither moves from 329 s: at 340 s partition 0 has waited 111 s,
	// past its round.
	w.t = 340
	if w.withinRhythm(0) {
		t.Errorf("340s: partition 0 past its round: want not within its rhythm")
	}
	// A consumer that stops at 300 s: partition 0 (last moved at 229 s)
	// is within its round, but nothing moved for 10 s where the consumer
	// never waited more than a second.
	w = newWorld(&sc)
	w.parts[0].end, w.parts[1].end = 1<<20, 1<<20
	for round := range 3 {
		for k := range 10 {
			w.t = float64(round*110 + k)
			commit(0)
		}
		for s := round*110 + 10; s < min((round+1)*110, 300); s++ {
			w.t = float64(s)
			commit(1)
		}
	}
	w.t = 310
	if w.withinRhythm(0) {
		t.Errorf("310s: the consumer stopped committing 10s ago (it committed every second): want not within its rhythm")
	}
	if p := &w.parts[1]; w.t-p.lastMove > p.maxGap || w.withinRhythm(1) {
		t.Errorf("310s: partition 1 stood %.0fs, within its own longest wait (%.0fs, across partition 0's turn), "+
			"as the whole consumer did: want not within its rhythm (within: %v)", w.t-p.lastMove, p.maxGap, w.withinRhythm(1))
	}

	// Seed 5's s187: four members serve twelve partitions in turn and
	// stall together; `health` over 15 s calls it STALL at 1451 s, as
	// its truth is.
	_, ob := storyObserverOf(t, told{pick{5, 187}, "stalls, then resumes"}, Health)
	stalls := 0
	for _, j := range ob.out {
		if j.col == ColStall && j.truth == Stalled {
			stalls++
		}
		if j.stall {
			t.Errorf("seed 5 s187: STALL at %.0fs (truth %v) counted within the rhythm", j.t, j.truth)
		}
	}
	if stalls == 0 {
		t.Errorf("seed 5 s187: no STALL while stalled")
	}
}

// TestAResetIsNoGrowthOfTheTimeLag: the time lag jumps from 0 to 1,000 s
// at a reset at 100 s, then falls as the consumer catches up; OK at
// every poll after it is never OK while the time lag grew, although
// the evidence span reaches back before the reset. A time lag that
// grows after the reset by more than half the span is.
func TestAResetIsNoGrowthOfTheTimeLag(t *testing.T) {
	sc := &Scenario{Name: "reset", Poll: 5 * time.Second, Rhythm: Rhythm{Kind: Interval, Every: 5 * time.Second},
		Production: Production{Kind: Steady, Rate: 10}, Partitions: 1, Members: 1}
	run := func(tl func(t float64) float64, after float64) int {
		o := &observer{span: 60}
		for t := 0.0; t <= 300; t += 5 {
			if t > 100 {
				t += after - 5 // the polls' interval after the reset
			}
			j := judged{t: t, truth: KeepsUp, col: ColOK, tl: tl(t), shown: t, reset: 100}
			if t > 100 {
				j.truth = CatchingUp
			}
			o.tls = append(o.tls, tlPoint{t, j.tl})
			o.out = append(o.out, j)
		}
		return o.score(sc).OKWhileGrowing
	}
	falling := func(t float64) float64 {
		if t <= 100 {
			return 0
		}
		return 1000 - 2*(t-100)
	}
	if got := run(falling, 5); got != 0 {
		t.Errorf("OK while the time lag grew on %d polls after a reset, want 0", got)
	}
	// At 7 s polls after the reset, 163 s looks back to 103 s, after the
	// reset, where the latest poll is the one at 100 s, before it: the
	// time lag from the first poll after the reset is the one to beat.
	if got := run(falling, 7); got != 0 {
		t.Errorf("OK while the time lag grew on %d polls after a reset at 7 s polls, want 0", got)
	}
	// From 105 s the time lag grows by a second a second: by more than
	// half the span of 60 s from the first poll after the reset from
	// 140 s on, and over the whole span from 165 s: 33 polls to 300 s.
	growing := func(t float64) float64 {
		if t <= 100 {
			return 0
		}
		return 1000 + (t - 105)
	}
	if got := run(growing, 5); got != 33 {
		t.Errorf("OK while the time lag grew on %d polls, want 33 (140 s to 300 s)", got)
	}
}

// TestAStuckPartitionReadsNoWarnBeforeStall: three scenarios of the
// benchmark where one partition gets stuck beside siblings that keep up,
// committing every two minutes (seed 2's s077, bursty, on 6 partitions;
// seed 5's s103, bursty, on 48; seed 5's s207, a ramp, on 12): the UI
// read WARN for 20 to 45 s before ERR STALL, its member counted as
// falling behind where it works on the stuck partition's own time lag.
// While it is stuck it reads OK or JUDGING, never WARN, until ERR STALL,
// and ERR STALL from then until it moves.
func TestAStuckPartitionReadsNoWarnBeforeStall(t *testing.T) {
	for _, c := range []pick{{2, 77}, {5, 103}, {5, 207}} {
		out := storyVerdicts(t, c, "one partition stuck")
		stalled := -1.0
		for _, j := range out {
			if j.truth != Stalled {
				continue
			}
			if j.col == ColStall && stalled < 0 {
				stalled = j.t
			}
			if j.col == ColWarn || stalled >= 0 && j.col != ColStall {
				t.Errorf("seed %d s%03d: %v at %.0fs, stalled (ERR STALL first at %.0fs); want JUDGING until ERR STALL", c.seed, c.i, j.col, j.t, stalled)
			}
		}
		if stalled < 0 {
			t.Errorf("seed %d s%03d: never ERR STALL while stalled", c.seed, c.i)
		}
	}
}

// TestPartitionsLeftAfterAStallReadNoWarn: a consumer stalls for about
// seventeen minutes on every partition, then resumes, working through
// its partitions in turn while production pauses (catching up). Once
// its first partitions move again, their waits, as long as the stall,
// make the group's rhythm, and the partitions not moved yet are within
// it: their trends still hold the climb from before the stall, which
// the stall extended, and say nothing of the consumer that reads now.
// No WARN until the truth is falling behind again.
func TestPartitionsLeftAfterAStallReadNoWarn(t *testing.T) {
	for _, c := range []pick{{2, 18}, {5, 31}, {5, 187}, {6, 57}} {
		out := storyVerdicts(t, c, "stalls, then resumes")
		stalled, resumed := false, -1.0
		for _, j := range out {
			switch {
			case j.truth == Stalled:
				stalled = true
			case stalled && resumed < 0 && j.truth == CatchingUp:
				resumed = j.t
			}
			if resumed >= 0 && j.truth == FallingBehind {
				break
			}
			if resumed >= 0 && j.col == ColWarn {
				t.Errorf("seed %d s%03d: WARN at %.0fs, catching up since the stall ended at %.0fs", c.seed, c.i, j.t, resumed)
			}
		}
		if resumed < 0 {
			t.Errorf("seed %d s%03d: never catching up after the stall", c.seed, c.i)
		}
	}
}

// TestAHaltIsNoMemberFallingBehind: consumers that halt on every
// partition, their members in the group (held-out seeds 24 to 26, one
// each, committing every 2 minutes), read WARN for a poll or a few
// between OK and ERR STALL, two verdict changes for one: a partition waiting for evidence
// as the halt began was judged by its member, which reads records older
// than its commits' spacing explains, and whose lag grows, as a member
// falling behind where it works. Its member commits nowhere: from the
// halt until the consumer moves again, no WARN (History.judgeTurns'
// idle member; before it, 2, 2 and 36 polls read WARN).
func TestAHaltIsNoMemberFallingBehind(t *testing.T) {
	for _, c := range []pick{{24, 200}, {25, 174}, {26, 174}} {
		for _, j := range storyVerdicts(t, c, "stalls, then resumes") {
			if j.truth == Stalled && j.col == ColWarn {
				t.Errorf("seed %d s%03d: WARN at %.0fs, stalled", c.seed, c.i, j.t)
			}
		}
	}
}

// TestAResetStartsTheConsumersTrendAndWaitAgain: the members leave, the
// offsets are reset to the log start, and the members come back and work
// the backlog off. The commits from before the reset describe a position
// the consumer no longer reads from: its trend and its wait start again
// at the reset. Seed 1's s151 (one partition, commits every 2 minutes)
// read WARN when the REWIND ended, its trend climbing from the time lags
// before the reset to those after; seed 4's s034 (commits every 10
// minutes) read ERR STALL from 1,420 s, its silence counted from its
// last commit before the members left.
func TestAResetStartsTheConsumersTrendAndWaitAgain(t *testing.T) {
	for _, c := range []pick{{1, 151}, {4, 34}} {
		out := storyVerdicts(t, c, "reset to the start")
		reset := false
		for _, j := range out {
			reset = reset || j.truth == Rewound
			if !reset {
				continue
			}
			if j.col == ColWarn || j.col == ColStall {
				t.Errorf("seed %d s%03d: %v at %.0fs, %v after the reset", c.seed, c.i, j.col, j.t, j.truth)
			}
		}
		if !reset {
			t.Errorf("seed %d s%03d: never rewound", c.seed, c.i)
		}
	}
}

// TestARampingClimbStaysWarn: seed 3's s211, a consumer that slows
// under ramping production, committing every two minutes: the time lag
// at its commits climbs 0, 1, 6, 19, 37, 61 and 90 s. At its seventh
// commit the floors of the trend's thirds had climbed by 36.7 s and
// 1,203 records, within a few percent of what the rules ask of a new
// WARN (EqualRateShare of the span, and of the produce rate now times
// the span: 1,308 records; the ramp made the span's production lower),
// and the held WARN went to OK while it still climbed. Once WARN, it
// stays WARN while the truth is falling behind.
func TestARampingClimbStaysWarn(t *testing.T) {
	sc := Scenarios(3, 212, 60*time.Minute)[211]
	if sc.Production.Kind != Ramp {
		t.Fatalf("s211: production %v, want a ramp", sc.Production.Kind)
	}
	warned := -1.0
	for _, j := range observe(&sc, false)[UI].out {
		if j.truth != FallingBehind {
			if warned >= 0 {
				break
			}
			continue
		}
		if j.col == ColWarn && warned < 0 {
			warned = j.t
		}
		if warned >= 0 && j.col == ColOK {
			t.Errorf("OK at %.0fs, falling behind and WARN since %.0fs", j.t, warned)
		}
	}
	if warned < 0 {
		t.Error("never WARN while falling behind")
	}
}

// pick is a scenario of the benchmark: its seed and its index.
type pick struct {
	seed uint64
	i    int
}

// told is a scenario of the benchmark and the story it tells.
type told struct {
	pick
	story string
}

// storyVerdicts is what the UI judged at each poll of scenario c, an hour
// long, after checking that the scenario tells story.
func storyVerdicts(t *testing.T, c pick, story string) []judged {
	t.Helper()
	_, ob := storyObserver(t, told{c, story})
	return ob.out
}

// storyObserver simulates scenario c, an hour long, after checking the
// story it tells, and returns it with the UI that judged it.
func storyObserver(t *testing.T, c told) (*Scenario, *observer) {
	t.Helper()
	return storyObserverOf(t, c, UI)
}

// storyObserverOf is storyObserver for observer o.
func storyObserverOf(t *testing.T, c told, o Observer) (*Scenario, *observer) {
	t.Helper()
	sc := storyScenario(t, c)
	return sc, observe(sc, false)[o]
}

// storyScenario is scenario c, an hour long, after checking the story it
// tells.
func storyScenario(t *testing.T, c told) *Scenario {
	t.Helper()
	sc := Scenarios(c.seed, c.i+1, 60*time.Minute)[c.i]
	if sc.Story != c.story {
		t.Fatalf("seed %d s%03d: story %q, want %s", c.seed, c.i, sc.Story, c.story)
	}
	return &sc
}

// storyLines is what the UI judged at each poll of scenario c, with each
// verdict's words (judged.line).
func storyLines(t *testing.T, c told) []judged {
	t.Helper()
	return observe(storyScenario(t, c), true)[UI].out
}

// TestClimbingFirstCommitsWaitForTheTrend: consumers slower than their
// producers from the first poll, committing every ten or two minutes
// (seed 1's s232, seed 2's s167, seed 3's s059, seed 5's s024, seed 7's
// s229): the time lag at their first two commits climbed past the noise,
// in seconds and in records, and the trend needs a third. Their first
// decision read OK for one poll, then JUDGING until WARN at the third
// commit; it waits for that commit instead (History.firstClimb). And
// consumers committing every 5 s (seed 5's s163, seed 6's s111, both
// stopping later), their time lag climbing at each of their first
// commits by less than the noise between two of them but by more than
// half of it over all: their first decision read OK for a poll or two,
// then WARN; it waits for the trend instead. And seed 2's s020,
// committing every 30 s at a little less than its producers' rate: its
// second commit stood 4 s further behind than its first, less than the
// noise, and it read OK for ten polls, then WARN at its third commit; a
// climb of two commits, however small, waits for the third. And seed
// 2's s005, committing after each fetched batch every ten seconds or so,
// slower than its producers while they produce (1.3 times their mean
// rate, which pauses lower): its first four commits each stood further
// behind than the one before, by 6 s in all and 109 records, under the
// noise, and it read OK for eleven polls, then WARN; commits that all
// climb wait. And seed 3's s018, committing each record at 10-second
// polls, and seed 2's s095, committing every 30 s at 30-second polls,
// both falling behind from the first poll: the time lag at each of their
// first commits stood above the one before (3.5, 5, 6, 7.5 ... 14 s),
// but their lag in records grew by less than a poll's production at each
// (no consumer's lag can grow faster than its producers write), and each
// read OK for a poll, then JUDGING and WARN; commits that all climb in
// time lag, their lag in records growing over them by more than a poll's
// production, wait. And seed 3's s033, a member at 87% of its hot
// partition's production committing every 30 s: its second commit stood
// 3.9 s and 24 records further behind than its first (a poll's
// production is 30), within the noise in both, and it read OK for six
// polls, then WARN at its third commit; two commits that both climb, in
// time lag and by more than a few records, wait for the third. And seed
// 7's s150, a member behind its hot partition committing every 2
// minutes, polled every 30 s: its third commit stood above both before
// it in time lag (42.5, 38, 68 s) and a poll's production above the one
// before in records, within the noise, and it read OK for four polls,
// then WARN; a newest commit that is a new high in both waits for the
// next.
func TestClimbingFirstCommitsWaitForTheTrend(t *testing.T) {
	for _, c := range []told{
		{pick{1, 232}, "slow, then scaled out"},
		{pick{2, 167}, "slow, then scaled out"},
		{pick{3, 59}, "stops"},
		{pick{5, 24}, "slow, then scaled out"},
		{pick{7, 229}, "reset to the start"},
		{pick{5, 163}, "stops"},
		{pick{6, 111}, "stops"},
		{pick{2, 20}, "stops"},
		{pick{2, 5}, "stalls, then resumes"},
		{pick{3, 18}, "stalls, then resumes"},
		{pick{2, 95}, "nearly keeps up (0.8x)"},
		{pick{3, 33}, "stops"},
		{pick{7, 150}, "stops"},
	} {
		first := ColUnknown
		_, ob := storyObserver(t, c)
		for _, j := range ob.out {
			if j.col.decided() {
				first = j.col
				if j.truth != FallingBehind {
					t.Fatalf("seed %d s%03d: first decided at %.0fs, truth %v, want falling behind", c.seed, c.i, j.t, j.truth)
				}
				break
			}
		}
		if first != ColWarn {
			t.Errorf("seed %d s%03d: first decided verdict %v, want WARN", c.seed, c.i, first)
		}
	}
}

// TestAClimbBetweenTrendPointsIsNoOK: consumers whose time lag climbs
// at once after a change (a member leaves, a restart, a burst), their
// commits seconds apart (seed 1's s178, seed 3's s166, seed 4's s061).
// The trend keeps at most one point every trendSpacing, so the
// newest point at least a span old could be well older than the span,
// and the climb since read as less than half the time since: OK for one
// to three polls while the true time lag grew by more than half the
// span. The time lag at the polls a span back (History.grewOverSpan)
// sees it at once.
func TestAClimbBetweenTrendPointsIsNoOK(t *testing.T) {
	noOKWhileGrowing(t,
		told{pick{1, 178}, "restarts"},
		told{pick{3, 166}, "members join and leave"},
		told{pick{4, 61}, "restarts"})
}

// TestARhythmSeenOnceIsNoStall: `health` windows that saw a partition's
// commit move twice, one wait apart, and then stand (seed 5's s179: a
// 5-minute window on a consumer that commits every 10 minutes while
// members join and leave, two commits a minute apart; seed 6's s024: a
// 1-minute window on 2-minute commits, a scale-out's commit 10 s after
// the one before). That one wait was no period of the consumer's, and
// twice it called a consumer keeping up or falling behind STALL within
// its rhythm. A rhythm seen once waits as one not seen (History.verdict).
// And so does a member's: seed 21's s160 under `health --window 15s`
// (four members, one serving a hot partition, committing after each
// fetched batch) saw that member commit one of its partitions twice, 4 s
// apart, then none for 10 s while its hot partition's batch took 13 s;
// judged on the rhythm its group had confirmed on the other members'
// partitions (4 s), its partitions read STALL at 10 polls within their
// rhythm. A member's one wait no longer lends it its group's
// confirmation (History.memberPaces).
func TestARhythmSeenOnceIsNoStall(t *testing.T) {
	for _, c := range []told{
		{pick{5, 179}, "members join and leave"},
		{pick{6, 24}, "slow, then scaled out"},
		{pick{21, 160}, "nearly keeps up (0.8x)"},
	} {
		_, ob := storyObserverOf(t, c, Health)
		for _, j := range ob.out {
			if j.stall || j.col == ColStall && j.truth != Stalled {
				t.Errorf("seed %d s%03d: STALL at %.0fs, truth %v (within its rhythm: %v)", c.seed, c.i, j.t, j.truth, j.stall)
			}
		}
	}
}

// TestAResumeReadsTheWholeWindow: consumers polled every 30 s that
// stood for a quarter of an hour and resumed (seed 1's s051 and seed 6's
// s012, one partition stuck; seed 4's s122 and seed 5's s135, stalls,
// then resumes). Their first commits after it fell in time lag over the
// floor of two polls, and the UI read OK, while over its window of ten
// polls (four and a half minutes) the time lag still grew by more than
// half of it. The growth is read over the window's span in time too
// (History.windowSpan), not only over the floor.
func TestAResumeReadsTheWholeWindow(t *testing.T) {
	noOKWhileGrowing(t,
		told{pick{1, 51}, "one partition stuck"},
		told{pick{6, 12}, "one partition stuck"},
		told{pick{4, 122}, "stalls, then resumes"},
		told{pick{5, 135}, "stalls, then resumes"})
}

// TestAGrowingBacklogOlderThanThePointsIsNoOK: consumers whose record
// at the commit is older than the time-lag points (a backlog of many
// minutes: the time lag now is a lower bound) that fall further behind:
// seed 2's s229 (four members, one serving a hot partition, committing
// every 2 minutes, about 20 minutes behind) and seed 17's s224 (three
// members, one serving a hot partition, committing every 5 s, about 14
// minutes behind). Their commits' time lags, read on the lower bound,
// climbed by less than half the span, and the UI read OK at 2,290 s and
// 2,800 s while their lag in records grew over the span and over twice
// it. The lag in records, growing so while the consumer commits, stops
// OK there (History.lagGrewOverSpan). Their time lags grow by a tenth
// of a second a second, and most of their other polls read OK still, a
// kind the rules still get wrong (docs/lag-health.md lists them).
func TestAGrowingBacklogOlderThanThePointsIsNoOK(t *testing.T) {
	for _, c := range []struct {
		told
		at float64
	}{
		{told{pick{2, 229}, "reset to the start"}, 2290},
		{told{pick{17, 224}, "slows then recovers"}, 2800},
	} {
		_, ob := storyObserver(t, c.told)
		seen := false
		for _, j := range ob.out {
			if j.t != c.at {
				continue
			}
			seen = true
			if j.truth != FallingBehind {
				t.Fatalf("seed %d s%03d at %.0fs: truth %v, want falling behind", c.seed, c.i, j.t, j.truth)
			}
			if j.col == ColOK {
				t.Errorf("seed %d s%03d: OK at %.0fs while its backlog grew", c.seed, c.i, j.t)
			}
		}
		if !seen {
			t.Fatalf("seed %d s%03d: no poll at %.0fs", c.seed, c.i, c.at)
		}
	}
}

// TestAStepThenAClimbIsNoOK: a consumer whose time lag at its commits
// stepped past the noise, then climbed again past half of it at the next
// commit, in records too: seed 3's s112 (commits every two minutes
// behind its producers, its time lag at them dropping once a pause in
// production was crossed, then 1,142.5, 1,164.5, 1,186 s) read OK until
// a fourth commit climbed. A run of roseCommits is not needed for a
// step that goes on (History.roseAtEach).
func TestAStepThenAClimbIsNoOK(t *testing.T) {
	c := told{pick{3, 112}, "reset to the start"}
	_, ob := storyObserver(t, c)
	for _, j := range ob.out {
		if j.t >= 2300 && j.t < 2415 && j.truth == FallingBehind && j.col == ColOK {
			t.Errorf("seed %d s%03d: OK at %.0fs (truth %v) after a step and a climb", c.seed, c.i, j.t, j.truth)
		}
	}
}

// noOKWhileGrowing fails t for each poll of the scenarios cs the UI
// judged OK while the true time lag grew by more than half the evidence
// span.
func noOKWhileGrowing(t *testing.T, cs ...told) {
	t.Helper()
	for _, c := range cs {
		sc, ob := storyObserver(t, c)
		for i, j := range ob.out {
			if ob.okWhileGrowing(i, sc.periodAt(j.t)) {
				t.Errorf("seed %d s%03d: OK at %.0fs while the time lag grew to %.1fs", c.seed, c.i, j.t, j.tl)
			}
		}
	}
}

// TestAStepIsNoWaitForATurn: seed 5's s207 (one partition stuck, then
// moving again, commits every two minutes by members serving their
// partitions in turn) catches up from 2,629 s. At 2,869 s a partition's
// newest commit stands 15 s above every one before it (History.newHigh):
// JUDGING until its next commit tells, where it read OK. Judged as a
// partition waiting its turn, that step made it WARN at 2,733 s while it
// caught up; its own commits say how it goes (waitsTurn).
func TestAStepIsNoWaitForATurn(t *testing.T) {
	_, ob := storyObserver(t, told{pick{5, 207}, "one partition stuck"})
	if noWarnJudging(t, ob, 2600, 3100, 2869, 3100) == 0 {
		t.Error("2,869-3,100 s: no JUDGING: the step at the newest commit went unread")
	}
}

// noWarnJudging fails t at each WARN the observer read from from to to
// (seconds), and returns how many of its polls from jFrom up to (not
// at) jTo read JUDGING.
func noWarnJudging(t *testing.T, ob *observer, from, to, jFrom, jTo float64) int {
	t.Helper()
	judging := 0
	for _, j := range ob.out {
		if j.t < from || j.t > to {
			continue
		}
		if j.col == ColWarn {
			t.Errorf("%.0fs: WARN, truth %v", j.t, j.truth)
		}
		if j.col == ColJudging && j.t >= jFrom && j.t < jTo {
			judging++
		}
	}
	return judging
}

// TestAClimbAtEachCommitIsNoWaitForATurn: seed 5's s207 (two members
// serving twelve partitions in turn, committing every 2 minutes, one
// partition stuck for a quarter of an hour, then moving again) reads
// JUDGING from 2,989 s on its commits' climb (History.roseAtEach) while
// its members work off the stuck partition's backlog, then OK at
// 3,229 s. Judged as a partition waiting its turn, its member's records
// older than its latest commits' spacing explains called it WARN at
// 3,093-3,123 s and 3,222-3,243 s while it caught up and kept up; its
// own commits say how it goes (waitsTurn).
func TestAClimbAtEachCommitIsNoWaitForATurn(t *testing.T) {
	_, ob := storyObserver(t, told{pick{5, 207}, "one partition stuck"})
	if noWarnJudging(t, ob, 2900, 3300, 3000, 3229) == 0 {
		t.Error("3,000-3,229 s: no JUDGING: the climb at each commit went unread")
	}
}

// TestAFirstWarnIsWeighed: before a partition's first decision, the
// rules' WARN is weighed as a change to WARN is (hold1). Seed 5's s065
// (two members serving three partitions in turn, committing after each
// fetched batch, 30 s polls) and seed 3's s220 (four members in turn,
// committing every 5 s, 30 s polls) keep up; the rules read WARN at one
// poll each (150 s and 90 s) on the few commits of a turn that began
// late, which was shown at once: WARN, then JUDGING, then OK. They read
// JUDGING there, and no WARN until their first decision.
func TestAFirstWarnIsWeighed(t *testing.T) {
	for _, c := range []struct {
		told
		at, decided float64
	}{
		{told{pick{5, 65}, "keeps up"}, 150, 270},
		{told{pick{3, 220}, "one partition stuck"}, 90, 270},
	} {
		_, ob := storyObserver(t, c.told)
		if noWarnJudging(t, ob, 0, c.decided, c.at, c.at+1) != 1 {
			t.Errorf("seed %d s%03d at %.0fs: not JUDGING", c.seed, c.i, c.at)
		}
		for _, j := range ob.out {
			if j.t == c.decided && j.col != ColOK {
				t.Errorf("seed %d s%03d at %.0fs: %v, want OK", c.seed, c.i, j.t, j.col)
			}
		}
	}
}

// TestAClimbBetweenWarnsKeepsTheRun: seed 1's s212, a job without
// members at 0.8 of its producers, checkpointing every 5 minutes (its
// window of ten commits takes 50 minutes to fill). From 1,500 s its
// rules read WARN by the trend at some polls and, between them, waited
// on its commits' climb (WaitRose): not OK, no WARN yet. Each wait
// ended the run towards WARN, so it read WARN and JUDGING by turns
// every 20 to 40 seconds; weighing its first WARN, it would read
// JUDGING to the end. A wait on a climb neither grows nor ends the run
// (hold1): WARN from 1,560 s at every poll.
func TestAClimbBetweenWarnsKeepsTheRun(t *testing.T) {
	_, ob := storyObserver(t, told{pick{1, 212}, "nearly keeps up (0.8x)"})
	warn := 0
	for _, j := range ob.out {
		switch {
		case j.t >= 1500 && j.t < 1560 && j.col != ColJudging:
			t.Errorf("%.0fs: %v, want JUDGING", j.t, j.col)
		case j.t >= 1560 && j.col != ColWarn:
			t.Errorf("%.0fs: %v, want WARN", j.t, j.col)
		case j.t >= 1560:
			warn++
		}
	}
	if warn < 1000 {
		t.Errorf("WARN at %d polls from 1,560 s, want about 2,000", warn)
	}
}

// TestAHeldWaitSaysWhatHoldsNow: while the hold weighs the rules' WARN,
// a partition keeps showing the wait it read before (partitionHealth).
// Its evidence may be gone by then: seed 4's s219 (one member serving
// three partitions in turn, catching up) read "its latest turn began
// -90s further behind than the one before" at 3,170-3,190 s, its newest
// turn having begun below the one before, and seed 1's s059 "its time
// lag rose at each of its last 0 commits, 0s in 0s". They give the
// hold's reason then.
func TestAHeldWaitSaysWhatHoldsNow(t *testing.T) {
	for _, c := range []told{{pick{4, 219}, "slow, then scaled out"}, {pick{1, 59}, "stops"}} {
		if wordsShown(t, c, 0, 3600, []string{"began -", "began 0s", "last 0 commits"}, "WARN once it lasts") == 0 {
			t.Errorf("seed %d s%03d: the hold's reason never shown", c.seed, c.i)
		}
	}
}

// wordsShown reports on how many polls of scenario c from from to to
// seconds the UI's verdict said want, and fails t at each that said any
// of never.
func wordsShown(t *testing.T, c told, from, to float64, never []string, want string) int {
	t.Helper()
	n := 0
	for _, j := range storyLines(t, c) {
		if j.t < from || j.t > to {
			continue
		}
		for _, w := range never {
			if strings.Contains(j.line, w) {
				t.Errorf("seed %d s%03d at %.0fs: %q: %s", c.seed, c.i, j.t, w, j.line)
			}
		}
		if strings.Contains(j.line, want) {
			n++
		}
	}
	return n
}

// TestATurnDrainedAsFarIsNoAnswer: seed 3's s095, three members serving
// twelve partitions in turn at 0.8 of a record a minute on each. Its
// partitions' turns began further behind each round (121 s, then 168 s
// on one of them); the step's wait (turns.step) ended once the newest
// turn drained the partition as far as the one before, and it read OK
// at 1,812-1,837 s, its time lag 252 s and growing 5 s a second, until
// its next turn began further behind again. A drain as far as the last
// tells nothing; the next turn does: never OK from 1,500 s to its WARN
// at 1,928 s.
func TestATurnDrainedAsFarIsNoAnswer(t *testing.T) {
	_, ob := storyObserver(t, told{pick{3, 95}, "nearly keeps up (0.8x)"})
	for _, j := range ob.out {
		if j.t >= 1500 && j.t < 1928 && j.col == ColOK {
			t.Errorf("%.0fs: OK, truth %v, time lag %.1fs", j.t, j.truth, j.tl)
		}
		if j.t >= 1928 && j.t < 1935 && j.col != ColWarn {
			t.Errorf("%.0fs: %v, want WARN", j.t, j.col)
		}
	}
}

// TestAStepHeldAfterARebalanceIsNoWarn: consumers keeping up on
// 10-minute commits while members join and leave (seed 2's s153, seed
// 3's s205, seed 4's s127). A rebalance hands a partition to a member
// that serves others first, and the time lag at its commits steps once
// and then scatters with where each commit finds the member's round
// (seed 3's s205: 7, 7, 397, 263, 444 s): the trend's thirds saw a climb
// and its newest commit above the one before, and the UI read WARN for
// 9 to 21 minutes of a consumer keeping up. A step held since, its
// commits not climbing past their own scatter, is no trend
// (lag.stepHeld).
func TestAStepHeldAfterARebalanceIsNoWarn(t *testing.T) {
	for _, c := range []told{
		{pick{2, 153}, "members join and leave"},
		{pick{3, 205}, "members join and leave"},
		{pick{4, 127}, "members join and leave"},
	} {
		_, ob := storyObserver(t, c)
		for _, j := range ob.out {
			if j.truth == KeepsUp && j.col == ColWarn {
				t.Errorf("seed %d s%03d: WARN at %.0fs while it keeps up", c.seed, c.i, j.t)
				break
			}
		}
	}
}

// TestOnePartitionsGrowingWaitsAreNotTheGroups: a consumer committing
// every 30 s on 48 partitions halts (seed 5's s148, "stalls, then
// resumes"). Its member's commits stopped everywhere 70 s before; the
// halt waited on the group's stretch (the next wait its growing waits
// predict, groupPace.stretch), the longest of any partition's: one of 48
// partitions whose three latest waits each grew by a poll or more, by
// scatter, predicted 90 s. Its partitions then read as waiting their
// member's turn, falling behind: WARN for a poll before STALL. The
// group's stretch is its partitions' median now: a batch committer's
// growing waits show on most of its partitions together.
func TestOnePartitionsGrowingWaitsAreNotTheGroups(t *testing.T) {
	c := told{pick{5, 148}, "stalls, then resumes"}
	_, ob := storyObserver(t, c)
	stalled := 0
	for _, j := range ob.out {
		if j.truth != Stalled {
			continue
		}
		stalled++
		if j.col == ColWarn {
			t.Fatalf("seed %d s%03d: WARN at %.0fs while it stalled", c.seed, c.i, j.t)
		}
	}
	if stalled == 0 {
		t.Fatalf("seed %d s%03d: no poll stalled", c.seed, c.i)
	}
}

// TestALateCommitsGrowthIsNoOK: a consumer served in turn, its
// partitions' commits minutes apart (seed 4's s102, a trickle on twelve
// partitions, three members). At its scale-out, a partition still
// waiting its turn had not committed for 12 minutes, past the longest
// wait it showed (7m40s), its time lag 12 minutes above its latest
// commit's; the rules' growth checks wait for a commit two rhythms old,
// and it read OK for five polls while its time lag grew a second a
// second. A commit later than the consumer's longest wait, with the time
// lag grown past that wait since, is more than a sawtooth explains
// (rhythm.grewLate).
func TestALateCommitsGrowthIsNoOK(t *testing.T) {
	noOKWhileGrowing(t, told{pick{4, 102}, "slow, then scaled out"})
}

// TestABurstAfterACaughtUpCommitIsNoTrend: consumers keeping up on
// commits every 30 s under bursty production (seed 5's s143, and seed
// 10's s226, on which no rule was written). Their first three commits: one
// that caught up, then two under a burst, the newest within half the
// noise of the one before in time lag and within a poll's production in
// records (s143: 0, 10.4 and 11 s behind, 0, 357 and 286 records; s226:
// 0, 5.1 and 10.5 s, 0, 62 and 63 records). The trend's thirds, one
// commit each, read a climb from the caught-up commit, and the first
// decision was WARN for two or three polls, then OK. The same after a
// catch-up further back, or with the time lag at the newest below the
// one before while its lag in records grew (seed 2's s140: 4.5, 0, 4.5,
// 15.5 s and 92, 0, 65, 61 records, a member joining and leaving; seed
// 2's s003: 0, 11.8, 10.6 s and 0, 21, 111 records; seed 7's s160: 0,
// 16.5, 14.4 s and 0, 24, 44 records, served in turn). A climb all from
// a caught-up commit, the commits since not climbing by the trend's own
// measure, is no trend (climbAllFromCatchUp).
func TestABurstAfterACaughtUpCommitIsNoTrend(t *testing.T) {
	for _, c := range []told{
		{pick{5, 143}, "keeps up"},
		{pick{10, 226}, "stalls, then resumes"},
		{pick{2, 140}, "members join and leave"},
		{pick{2, 3}, "slows then recovers"},
		{pick{7, 160}, "nearly keeps up (0.8x)"},
	} {
		_, ob := storyObserver(t, c)
		warnAt, ok := -1.0, 0
		for _, j := range ob.out {
			switch {
			case j.truth != KeepsUp:
			case j.col == ColWarn && warnAt < 0:
				warnAt = j.t
			case j.col == ColOK:
				ok++
			}
		}
		if warnAt >= 0 {
			t.Errorf("seed %d s%03d: WARN at %.0fs while it keeps up", c.seed, c.i, warnAt)
		}
		if ok == 0 {
			t.Errorf("seed %d s%03d: never OK while it keeps up", c.seed, c.i)
		}
	}
}

// TestAStuckPartitionBesideBurstsIsStall: seed 12's s129, twelve
// partitions under bursty producers, three members committing every
// second; one partition stops moving at 1,458 s while its member goes on
// committing its three others. Each burst grew the member's lag there
// past their sawtooths, and each lull drained it: judged as a member
// busy elsewhere (judgeTurns), the stuck partition read WARN through
// every burst and drain and STALL between them, fifty changes in
// seventeen minutes. The member read records a few seconds old
// throughout: it served the others as their records came, and the stuck
// one is STALL from its first poll past its rhythm to the end of the
// stall.
func TestAStuckPartitionBesideBurstsIsStall(t *testing.T) {
	_, ob := storyObserver(t, told{pick{12, 129}, "one partition stuck"})
	first, stalls, other := -1.0, 0, 0
	for _, j := range ob.out {
		if j.truth != Stalled || j.t < 1458 {
			continue
		}
		switch {
		case j.col == ColStall:
			if first < 0 {
				first = j.t
			}
			stalls++
		case first >= 0:
			other++
			t.Errorf("%.0fs: %v after the first STALL, truth stalled", j.t, j.col)
		}
	}
	if first != 1504 || stalls != 1017 || other != 0 {
		t.Errorf("first STALL at %.0fs, %d STALL and %d other polls after it; want 1504s, 1017 and 0", first, stalls, other)
	}
}

// TestACommitBeingReadChangesNoWait: at the poll that sees a commit, its
// record is read after the poll is judged, so the rules judge without
// its time lag. Seed 11's s160 (a member at 0.8 of its producers serving
// two partitions in turn) waited for its next turn from 1,693 s, read OK
// at the one poll (1,737 s) that saw a commit, then waited on: two
// verdict changes while it fell behind. Seed 1's s099 (after a reset to
// the start) read OK at 1,219 s between polls whose time lag rose at
// each commit. The wait of the poll before holds through such a poll.
func TestACommitBeingReadChangesNoWait(t *testing.T) {
	_, ob := storyObserver(t, told{pick{11, 160}, "nearly keeps up (0.8x)"})
	for _, j := range ob.out {
		if j.t >= 1690 && j.t < 1815 && j.col == ColOK {
			t.Errorf("seed 11 s160: OK at %.0fs (truth %v) while it waited for its next turn", j.t, j.truth)
		}
	}
	noOKWhileGrowing(t, told{pick{1, 99}, "reset to the start"})
}

// TestAHaltsClimbIsNoOK: seed 8's s109 and seed 10's s161 (consumers
// committing every 5 s and 30 s, polled every 30 s) stall for about
// eighteen minutes, then resume at 2,550 s with the backlog the stall
// left. They read records written faster than they read them, so their
// time lag goes on climbing a little at each commit while their lag in
// records falls, and the window still holds the stall's climb: they
// read OK from their third commit after it, while the time lag had
// grown by more than half the window. Moving again after a halt, that
// climb holds them (History.grewOverSpan) until it leaves the window or
// they catch up, and the wait says by how much it grew. The halt is not
// their rhythm: the wait never words it as one ("commits every ~18m").
func TestAHaltsClimbIsNoOK(t *testing.T) {
	cs := []told{{pick{8, 109}, "stalls, then resumes"}, {pick{10, 161}, "stalls, then resumes"}}
	noOKWhileGrowing(t, cs...)
	for _, c := range cs {
		// The halt's wait, about eighteen minutes, is no rhythm.
		if wordsShown(t, c, 2540, 2700, []string{"every ~17m", "every ~18m"}, "its time lag grew ") == 0 {
			t.Errorf("seed %d s%03d: no wait said how much its time lag grew after the stall", c.seed, c.i)
		}
	}
}

// decidedBetween is the UI's decided verdicts on scenario c from one
// second to another, each where it began ("1100s OK, 1150s STALL"):
// JUDGING between two polls of one verdict is no change.
func decidedBetween(t *testing.T, c told, from, to float64) string {
	t.Helper()
	_, ob := storyObserver(t, c)
	var seen []string
	last := ColJudging
	for _, j := range ob.out {
		if j.t < from || j.t > to || !j.col.decided() || j.col == last {
			continue
		}
		last = j.col
		seen = append(seen, fmt.Sprintf("%.0fs %v", j.t, j.col))
	}
	return strings.Join(seen, ", ")
}

// TestAClimbAtHalfASecondASecondHoldsItsWait: seed 15's s038 (a
// partition stuck, then moving again, committing each record, polled
// every second) works off its backlog with a time lag climbing at about
// half a second a second: from 2,640 to 2,700 s its wait (WaitGrew)
// came and went as the climb read a little above or below the half,
// eleven polls OK while it grew over the scenario and a verdict that
// changed every few seconds. A wait for a grown time lag now holds while
// the time lag at its commits climbs by more than 0.4 s a second
// (grewHold), floor against floor.
func TestAClimbAtHalfASecondASecondHoldsItsWait(t *testing.T) {
	c := told{pick{15, 38}, "one partition stuck"}
	noOKWhileGrowing(t, c)
	_, ob := storyObserver(t, c)
	changes, last := 0, ColUnknown
	for _, j := range ob.out {
		if j.t < 2640 || j.t > 2697 {
			continue
		}
		if last != ColUnknown && j.col != last {
			changes++
		}
		last = j.col
	}
	if changes != 0 || last != ColJudging {
		t.Errorf("2,640-2,697 s: %d changes, last %v; want JUDGING throughout", changes, last)
	}
}

// TestAMemberWorkingOffAHaltIsNotBehind: seed 1's s103, one partition
// of sixteen a member serves (commits every two minutes, on a trickle)
// stuck for eighteen minutes, then moving again; and seed 6's s165, a
// member serving forty-eight partitions in turn, restarted after a
// minute without members. Each member then worked off the halt's
// backlog. A sibling of the stuck partition, waiting within its rhythm
// beside records twenty minutes old, read WARN (a member reading records
// far older than its rhythm explains is busy), and a partition of the
// restarted member, its three commits since the restart climbing 8 s in
// 80 s (within their scatter, its member serving the others' backlogs in
// turn), read WARN; both caught up minutes later. A sibling's halt is no
// pace of the member's (judgeTurns), and after a halt three commits that
// climb within their noise are no trend yet (History.trend): the decided
// verdicts go from the halt to OK.
func TestAMemberWorkingOffAHaltIsNotBehind(t *testing.T) {
	decidedAsTold(t,
		decidedStory{told{pick{1, 103}, "one partition stuck"}, 2400, 2800, "2400s STALL, 2790s OK"},
		decidedStory{told{pick{6, 165}, "restarts"}, 1800, 2110, "1800s OK, 1848s STOP, 2104s OK"})
}

// decidedStory is a scenario and the verdicts the UI decides between
// from and to seconds (decidedBetween).
type decidedStory struct {
	told
	from, to float64
	want     string
}

// decidedAsTold checks each story's decided verdicts.
func decidedAsTold(t *testing.T, cs ...decidedStory) {
	t.Helper()
	for _, c := range cs {
		if got := decidedBetween(t, c.told, c.from, c.to); got != c.want {
			t.Errorf("seed %d s%03d: decided %s from %.0f to %.0f s; want %s", c.seed, c.i, got, c.from, c.to, c.want)
		}
	}
}

// TestAHaltsWaitIsNoRhythmOfKeepingUp: consumers restarted after a
// minute without members, one partition slower than its producers
// (seed 20's s204, a commit per record, polled every 10 s; seed 21's
// s087, a commit after each fetched batch, every 5 s), came back 60-75 s
// behind, committing every 10-20 s. The wait through the halt is the
// partition's longest (70-80 s), and the time lag keeping up explains
// was read from it (KeepUpSeconds and twice that wait, about 150 s):
// after 50-60 s of commits since, climbing within the noise, they read
// OK for three and four polls, then WARN once the trend saw the climb.
// The halt is no rhythm for that bound either (rhythm.resumed: the
// latest wait counts), and the backlog waits for a trend that can see
// such a climb (History.unresolved).
func TestAHaltsWaitIsNoRhythmOfKeepingUp(t *testing.T) {
	decidedAsTold(t,
		decidedStory{told{pick{20, 204}, "restarts"}, 1840, 2020, "1850s STOP, 2010s WARN"},
		decidedStory{told{pick{21, 87}, "restarts"}, 1840, 2020, "1850s STOP, 2015s WARN"})
}

// TestKeepingUpStaysWithinTheCommitPeriod: a consumer faster than its
// producers, its load spread evenly over its members, keeps its true time
// lag within its commit period (plus the production's cycle: a burst's
// records wait through it; and a step of the world, in which a record
// is written and read) on every rhythm that commits, whatever its
// partitions and members: the period is the sawtooth a keeping-up
// consumer climbs between commits, which the truth's keepUpBound and the
// OK-while-growing target allow for. On a trickle a member keeping up at
// 1.3x takes 46 s over the minute's records of its partitions, and a
// record read last waits for the next tick of a 30-s timer after that:
// 75 s behind, past a minute.
func TestKeepingUpStaysWithinTheCommitPeriod(t *testing.T) {
	for _, pk := range []ProductionKind{Steady, Bursty, Trickle} {
		for _, r := range rhythms {
			if r.Kind == Never {
				continue
			}
			for _, parts := range []int{1, 3, 6, 12, 48} {
				for _, members := range []int{1, 2, 4} {
					if parts%members != 0 {
						continue
					}
					for _, sp := range []Spread{Even, InTurn} {
						for _, speed := range []float64{1.3, 2} {
							sc := &Scenario{Name: "pace", Partitions: parts, Members: members, Spread: sp, Rhythm: r,
								Production: Production{Kind: pk, Rate: 3}, Poll: 5 * time.Second, Length: 40 * time.Minute,
								Phases: []Phase{{At: 0, Speed: speed, Event: Consume}}, Seed: 1}
							w := newWorld(sc)
							peak := 0.0
							for w.t < sc.Length.Seconds() {
								w.step()
								if w.t < 600 {
									continue // past the first commits and fetches
								}
								for i := range w.parts {
									peak = max(peak, w.timeLag(i))
								}
							}
							if bound := sc.commitPeriod(speed) + sc.productionCycle() + dt; peak > bound {
								t.Errorf("%v, %v, %d partitions, %d members %v at %.1fx: time lag reached %.1fs; want within %.1fs",
									pk, r, parts, members, sp, speed, peak, bound)
							}
						}
					}
				}
			}
		}
	}
}

// TestASlowTrickleCommitsOnceARound: a member slower than a trickle, on a
// timer or committing each record, reads one record of each of its
// partitions a round, a round taking 60 s over its speed: a partition's
// commit moves once a round, no more often (its commit period is the
// round, not the minute between records, and a trend takes three of
// them to show), and no less.
func TestASlowTrickleCommitsOnceARound(t *testing.T) {
	for _, r := range rhythms {
		if r.Kind != PerRecord && r.Kind != Interval || r.External || r.Every > time.Minute {
			continue
		}
		for _, parts := range []int{1, 6, 12} {
			for _, speed := range []float64{0.25, 0.5, 0.8} {
				sc := &Scenario{Name: "round", Partitions: parts, Members: 1, Spread: Even, Rhythm: r,
					Production: Production{Kind: Trickle}, Poll: 5 * time.Second, Length: time.Hour,
					Phases: []Phase{{At: 0, Speed: speed, Event: Consume}}, Seed: 1}
				w := newWorld(sc)
				moved := make([]float64, parts)
				at := make([]int64, parts)
				for i := range w.parts {
					moved[i], at[i] = -1, w.parts[i].committed
				}
				longest := 0.0
				for w.t < sc.Length.Seconds() {
					w.step()
					for i := range w.parts {
						if c := w.parts[i].committed; c != at[i] {
							if w.t > 900 && moved[i] >= 0 {
								longest = max(longest, w.t-moved[i])
							}
							moved[i], at[i] = w.t, c
						}
					}
				}
				round := 60 / speed
				if period := sc.commitPeriod(speed); longest > period+dt || longest < round-dt {
					t.Errorf("%v, %d partitions at %.2fx: a partition's commit stood up to %.1fs; want a round (%.0fs) and within the commit period (%.1fs)",
						r, parts, speed, longest, round, period)
				}
			}
		}
	}
}

// TestAPauseInWhatItReadsIsNoCatchUp: seed 24's s225 (held out), a
// consumer at 0.8x of producers that pause for minutes, committing
// after each fetched batch, 76 s apart, polled every second. Some
// minutes into each production run it reads past the pause: its time lag
// drops by the pause's length while its lag in records climbs on. Its
// trend's eight commits spanned the pause, through which its lag in
// records fell whatever its pace, so no climb showed, and from the
// crossing at 2,057 s it read OK for two minutes while it fell behind
// (165 such polls over the hour). The climb in records is read on the
// commits since the newest made while the log end stood still
// (rhythm.sinceStill): WARN from the crossing through 2,400 s, and no
// more than 30 polls OK while it falls behind, at the first run's
// start, before a trend.
func TestAPauseInWhatItReadsIsNoCatchUp(t *testing.T) {
	okBehind := 0
	for _, j := range storyVerdicts(t, pick{24, 225}, "nearly keeps up (0.8x)") {
		if j.t >= 2057 && j.t <= 2400 && j.col != ColWarn {
			t.Errorf("%v at %.0fs, %v: want WARN", j.col, j.t, j.truth)
		}
		if j.truth == FallingBehind && j.col == ColOK {
			okBehind++
		}
	}
	if okBehind > 30 {
		t.Errorf("%d polls OK while falling behind, want 30 at most", okBehind)
	}
}

// TestAHeldGrowthReadsPastADrop: seed 4's s003, a hot partition catching
// up fifteen minutes behind, its time lag at its commits climbing about
// 0.7 s a second since it read past a pause of its producers (its time
// lag dropped 286 s at 1,764 s). Its wait on a grown time lag (JUDGING:
// not OK while it grows) read OK for one poll at 1,805 s, as production
// resumed and the trend's noise rose to the pause's 40 s: the hold that
// keeps such a wait while the commits still climb (History.stillClimbs)
// compared the newest commit with one a floor back, before the drop,
// where the time lag stood higher. The first commit after the drop is
// the baseline now: JUDGING from 1,790 s to 1,815 s, and no poll OK
// while the time lag grew.
func TestAHeldGrowthReadsPastADrop(t *testing.T) {
	c := told{pick{4, 3}, "slows then recovers"}
	noOKWhileGrowing(t, c)
	for _, j := range storyVerdicts(t, c.pick, c.story) {
		if j.t >= 1790 && j.t <= 1815 && j.col != ColJudging {
			t.Errorf("%v at %.0fs (time lag %.0fs, climbing): want JUDGING", j.col, j.t, j.tl)
		}
	}
}

// TestABatchGrowsAsItsBacklog: consumers at a quarter of their producers'
// rate that commit after each fetched batch. Seed 20's s067, polled every
// 5 s: its waits grew 14.5 s and then 30 s, its time lag at those commits
// 12.2 s and then 35 s, and its next wait took 130 s. Its waits alone
// predicted 62 s, and it read ERR STALL at 170 s, five seconds before its
// commit, between two WARNs; the backlog its latest commit left predicts
// 86 s (rhythm.batchGrowth), and it reads WARN from 215 s to the end.
// Seed 21's s080, polled every 30 s, serving its partitions in turn: it
// read ERR STALL for its last 13 polls (from 3,210 s) while it worked
// through a batch; WARN now from 1,590 s to the end.
func TestABatchGrowsAsItsBacklog(t *testing.T) {
	for _, c := range []struct {
		told
		from float64
	}{
		{told{pick{20, 67}, "quarter speed"}, 215},
		{told{pick{21, 80}, "quarter speed"}, 1590},
	} {
		for _, j := range storyVerdicts(t, c.pick, c.story) {
			if j.t >= c.from && j.col != ColWarn {
				t.Errorf("seed %d s%03d at %.0fs (%v): %v, want WARN", c.seed, c.i, j.t, j.truth, j.col)
			}
		}
	}
}
