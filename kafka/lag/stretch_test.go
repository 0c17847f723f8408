package lag

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// commitsAt feeds one partition written 2 records a second, one poll at
// each call: its commit moves at the polls whose times lags holds, to
// leave that lag in records, and stands between them.
func commitsAt(h *History, lags map[float64]int64) func(sec float64) {
	var c int64
	return func(sec float64) {
		end := int64(2 * sec)
		if lag, ok := lags[sec]; ok {
			c = end - lag
		}
		feed(h, sec, c, end)
	}
}

// TestGrowingWaitsPredictTheNext: a consumer whose waits grew 10 s, 30 s,
// 90 s may take 270 s for the next; its commit is STALL only past twice
// that (540 s after it: 675 s), not past twice its longest wait (180 s:
// 315 s), as it was before the rule. Committing at the log end each time,
// nothing says it falls behind: it waits, saying why, until ERR STALL.
// (It read WARN at 665 s, its time lag 535 s past twice its rhythm,
// until a member silent everywhere past its predicted wait was no
// longer read as working: a halted consumer read WARN for a few polls
// before ERR STALL, two changes for one.) One that left more behind at
// each commit reads WARN throughout, and its backlog predicts more: 65 s
// of production waited at its latest commit, 3.25 times the 20 s at the
// one before, so its next wait may be 292.5 s (batchGrowth), and it is
// ERR STALL past twice that (720 s).
func TestGrowingWaitsPredictTheNext(t *testing.T) {
	stretch := fmt.Sprintf("JUDGING/%d", WaitStretch)
	for _, c := range []struct {
		name string
		lags map[float64]int64 // the lag left at each commit
		want map[float64]string
	}{
		{"at the head", map[float64]int64{0: 0, 10: 0, 40: 0, 130: 0},
			map[float64]string{320: stretch, 330: stretch, 665: stretch, 675: "ERR STALL/0"}},
		{"falling behind", map[float64]int64{0: 0, 10: 10, 40: 40, 130: 130},
			map[float64]string{320: "WARN/0", 330: "WARN/0", 665: "WARN/0", 675: "WARN/0", 715: "WARN/0", 720: "ERR STALL/0"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.Window, cfg.MinDistance = 10, time.Second
			h := NewHistory(cfg)
			poll := commitsAt(h, c.lags)
			for sec := 0.0; sec <= 720; sec += 5 {
				poll(sec)
				want, ok := c.want[sec]
				if !ok {
					continue
				}
				v, got := verdictOf(t, h, sec)
				if got != want {
					t.Errorf("%.0fs: %s, want %s", sec, got, want)
				}
				const why = "no commit in 3m20s, past its ~1m30s, but each wait was longer than the one before: STALL after 9m unless it commits"
				if sec == 330 && want == stretch && v.Reason() != why {
					t.Errorf("330s: reason %q, want %q", v.Reason(), why)
				}
			}
		})
	}
}

// TestStretchAllowsForPolls: waits are seen to within a poll interval, so
// a growth is taken only where two waits differ by more than that, and a
// wait shorter than the one before by less is not a shrink. Waits of
// 14 s, 34 s and 98 s polled every 30 s were seen as 33 s, 24 s and
// 118 s: their growth shows between the last two, from a wait no shorter
// than a poll.
func TestStretchAllowsForPolls(t *testing.T) {
	s := time.Second
	for _, c := range []struct {
		waits []time.Duration // oldest first
		noise time.Duration
		want  time.Duration
	}{
		{[]time.Duration{10 * s, 30 * s, 90 * s}, 5 * s, 270 * s},
		{[]time.Duration{33 * s, 24 * s, 118 * s}, 30 * s, 118 * s * 118 / 30},
		{[]time.Duration{5 * s, 5 * s, 5 * s}, s, 0},                      // a timer
		{[]time.Duration{5 * s, 5 * s, 7 * s}, s, 7 * s * 7 / 5},          // a late one
		{[]time.Duration{5 * s, 5 * s, 5500 * time.Millisecond}, s, 0},    // within a poll
		{[]time.Duration{30 * s, 90 * s, 60 * s}, 5 * s, 0},               // the latest shrank
		{[]time.Duration{90 * s, 30 * s, 60 * s}, 5 * s, 0},               // one before shrank
		{[]time.Duration{20 * s, 60 * s}, 5 * s, 180 * s},                 // two suffice
		{[]time.Duration{60 * s}, 5 * s, 0},                               // one does not
		{[]time.Duration{10 * s, 20 * s, 40 * s, 80 * s}, 5 * s, 160 * s}, // the three latest
	} {
		r := rhythm{rhythmMoves: new(rhythmMoves)}
		for _, w := range c.waits {
			r.gaps[r.gapAt] = uint32(w / time.Millisecond)
			r.gapAt = (r.gapAt + 1) % uint8(len(r.gaps))
			r.ngaps = min(r.ngaps+1, uint8(len(r.gaps)))
		}
		if got := time.Duration(r.stretch(int64(c.noise))); got.Round(time.Millisecond) != c.want.Round(time.Millisecond) {
			t.Errorf("waits %v, polls %v apart: stretch %v, want %v", c.waits, c.noise, got, c.want)
		}
	}
}

// TestBatchGrowthReadsTheBacklog: a consumer that commits after each
// fetched batch, its waits 14.5 s and then 30 s (a growth of 2.07), its
// time lag at those commits 12.2 s and then 35 s: its next batch holds
// 2.87 times what its latest held, and its next wait may be 86 s, not
// the 62 s its waits alone predict. The time lag counts only where its
// waits grew too (a timer's commits fall behind as well, and it waits as
// long as ever), where it grew by more than a poll from past what keeping
// up explains (KeepUpSeconds), and where the two trend points are the
// latest wait's ends: commits closer together than the trend's spacing
// share a point, whose time lag is older than the wait.
func TestBatchGrowthReadsTheBacklog(t *testing.T) {
	const s = int64(time.Second)
	ms := func(d float64) int64 { return int64(d * float64(time.Second)) }
	for _, c := range []struct {
		name    string
		commits []float64 // at, time lag: pairs
		spacing int64
		want    float64 // seconds
	}{
		{"its batches grow faster than its waits", []float64{0, 2, 14.5, 12.2, 44.5, 35}, s, 30 * 35 / 12.2},
		{"its batches grow slower", []float64{0, 2, 14.5, 20, 44.5, 30}, s, 30 * 30 / 14.5},
		{"a timer falling behind", []float64{0, 50, 120, 67, 240, 119}, s, 0},
		{"catching up", []float64{0, 50, 10, 40, 40, 20}, s, 30 * 30 / 10},
		{"about caught up", []float64{0, 1, 10, 2, 40, 9}, s, 30 * 30 / 10},
		{"within a poll", []float64{0, 2, 10, 20, 40, 24}, s, 30 * 30 / 10},
		{"the older point before the wait", []float64{0, 12, 4, 13, 10, 14, 38, 100}, 60 * s, 28 * 28 / 6.0},
	} {
		r := rhythm{rhythmMoves: new(rhythmMoves)}
		for i := 0; i < len(c.commits); i += 2 {
			r.moved(ms(c.commits[i]), 0, c.commits[i+1], 0, c.spacing)
		}
		want := time.Duration(c.want * float64(time.Second))
		if got := time.Duration(r.stretch(5 * s)); got.Round(time.Millisecond) != want.Round(time.Millisecond) {
			t.Errorf("%s: stretch %v, want %v", c.name, got, want)
		}
	}
}

// TestTurnWaitsOnItsGroupsGrowth: a partition with no waits of its own
// (its member reaches it in turn) is judged on its group's growing waits,
// as on its group's rhythm. Its sibling's waits grew 10 s, 30 s, 90 s:
// the untouched partition waits for 540 s past the sibling's rhythm
// instead of reading ERR STALL from 195 s and then WARN once the member
// is seen busy (the rules before: STALL 195 s to 255 s, WARN from 270 s).
func TestTurnWaitsOnItsGroupsGrowth(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Window, cfg.MinDistance = 10, time.Second
	h := NewHistory(cfg)
	var c0 int64
	commits := map[float64]bool{0: true, 10: true, 40: true, 130: true}
	want := map[float64]string{
		195: fmt.Sprintf("JUDGING OK/%d", WaitStretch),
		255: fmt.Sprintf("JUDGING OK/%d", WaitStretch),
		345: "WARN WARN/0",
		600: "ERR STALL STALL/0",
	}
	for sec := 0.0; sec <= 600; sec += 5 {
		end := int64(2 * sec)
		if commits[sec] {
			c0 = end
		}
		h.Add(snap(at(sec), grp("g", po("t", 0, c0, end), po("t", 1, 0, end))))
		w, ok := want[sec]
		if !ok {
			continue
		}
		g, _ := h.Evaluate("g", at(sec))
		p1 := g.Partitions[1]
		v := Judge(g, h.Config().Window)
		if got := fmt.Sprintf("%s %s/%d", v.Text(), p1.Status, p1.Wait.Kind); got != w {
			t.Errorf("%.0fs: group and the untouched partition %s, want %s", sec, got, w)
		}
	}
}

// TestGrewSinceAnyOlderCommit: the time lag grew by more than half the
// time since some commit at least span old, not only since the newest
// such commit. Commits read records 10 s old at 0 s and 80 s old at 100 s
// (the end of a burst); at 180 s the time lag is 110 s: 100 s more in
// 180 s since the first, though only 30 s more in 80 s since the second.
// A consumer keeping up, whose time lag falls back to its commits' after
// each climb, shows it against none of them.
func TestGrewSinceAnyOlderCommit(t *testing.T) {
	const sec = int64(time.Second)
	r := rhythm{rhythmMoves: new(rhythmMoves)}
	r.moved(0, 0, 10, 50, 15*sec)
	r.moved(100*sec, 0, 80, 400, 15*sec)
	for _, c := range []struct {
		now  int64
		tl   float64
		want bool
	}{
		{180 * sec, 110, true}, // 100 s in 180 s since the first commit
		{180 * sec, 95, false}, // 85 s in 180 s, 15 s in 80 s: neither
		{150 * sec, 60, false}, // the second is under span old; 50 s in 150 s
	} {
		if got := r.grewSince(c.now, c.tl, 60*sec); got != c.want {
			t.Errorf("at %ds, time lag %.0fs: grewSince %v, want %v", c.now/sec, c.tl, got, c.want)
		}
	}
}

// TestServedCaughtSaysWhereTheWaitBegan: a wait that ended in a commit
// began at a caught-up poll, or at the commit before; moves counts the
// forward moves apart from that bit, saturating below it. One wait is a
// rhythm (periodic) only where it began at a commit: one from a caught-up
// poll after the first move is how long the consumer took to commit
// records that had just arrived (it was a rhythm before this bit).
func TestServedCaughtSaysWhereTheWaitBegan(t *testing.T) {
	const sec = int64(time.Second)
	one := rhythm{rhythmMoves: new(rhythmMoves)}
	one.start(0)
	one.moved(10*sec, 0, 1, 5, 15*sec)
	one.moved(40*sec, 0, 1, 5, 15*sec) // 30 s from the commit
	if one.ngaps != 1 || one.servedCaught() || !one.periodic() {
		t.Errorf("one wait from a commit: ngaps %d, caught %v, periodic %v", one.ngaps, one.servedCaught(), one.periodic())
	}
	r := rhythm{rhythmMoves: new(rhythmMoves)}
	r.start(0)
	r.moved(10*sec, 0, 1, 5, 15*sec) // from the first poll: no wait
	if r.ngaps != 0 || r.servedCaught() || r.movesSeen() != 1 {
		t.Fatalf("first move: ngaps %d, caught %v, moves %d", r.ngaps, r.servedCaught(), r.movesSeen())
	}
	r.caughtUp(20 * sec)
	r.moved(25*sec, 0, 1, 5, 15*sec) // 5 s from a caught-up poll
	if r.served() != 5*sec || !r.servedCaught() || r.movesSeen() != 2 || r.periodic() {
		t.Errorf("after a caught-up poll: served %v, caught %v, moves %d", time.Duration(r.served()), r.servedCaught(), r.movesSeen())
	}
	r.moved(55*sec, 0, 1, 5, 15*sec) // 30 s from the commit
	if r.served() != 30*sec || r.servedCaught() || r.movesSeen() != 3 || !r.periodic() {
		t.Errorf("after a commit: served %v, caught %v, moves %d", time.Duration(r.served()), r.servedCaught(), r.movesSeen())
	}
	r.caughtUp(60 * sec)
	for i := range int64(200) {
		r.moved((70+i)*sec, 0, 1, 5, 15*sec)
	}
	if r.movesSeen() != movesMax || r.servedCaught() {
		t.Errorf("after 203 moves: moves %d, caught %v; want %d, false", r.movesSeen(), r.servedCaught(), movesMax)
	}
}

// resumeAfterPause is a consumer (one partition, committing its position
// every 30 s) that works off a backlog at three times its producers'
// rate, catches up, and stays caught up through a pause in production
// from 200 s to resumeAt; then production resumes at 10 records a second
// and the consumer reads rate times that. It returns the group's verdict
// at each second up to until.
const resumeAt = 300

func resumeAfterPause(rate float64, until int) map[int]string {
	h := NewHistory(DefaultConfig())
	got := map[int]string{}
	var end, pos, committed float64 = 1000, 1000, 1000
	for sec := 0; sec <= until; sec++ {
		switch {
		case sec > resumeAt:
			end += 10
			pos = min(pos+10*rate, end)
		case sec > 200: // the pause
		case sec > 0:
			end += 10
			if sec > 40 { // a backlog of 400 records, worked off at 30 a second
				pos = min(pos+30, end)
			}
		}
		if sec%30 == 4 {
			committed = pos
		}
		h.Add(snap(at(float64(sec)), grp("g", po("t", 0, int64(committed), int64(end)))))
		g, _ := h.Evaluate("g", at(float64(sec)))
		v := Judge(g, 10)
		got[sec] = v.Text()
	}
	return got
}

// TestResumedBehindAfterAPause: the consumer of resumeAfterPause at half
// its producers' rate. Its time lag climbs from 0 while its commits since
// the pause are too few for a trend, and the sawtooth of a 30 s rhythm
// explains each of them: a minute after the caught-up poll its time lag
// has grown by more than half the time since, which no consumer keeping
// up on that rhythm shows, and the verdict is not OK. The same consumer
// at the full rate reads OK then.
func TestResumedBehindAfterAPause(t *testing.T) {
	// From a minute after the caught-up poll (at 300 s), with a commit
	// at 304, 334 and 364 s: the third makes the commits since a trend,
	// and at that commit the time lag is at the floor of its sawtooth,
	// half the time since the caught-up poll.
	slow, keeping := resumeAfterPause(0.5, resumeAt+90), resumeAfterPause(1, resumeAt+90)
	var ok []int
	for sec := resumeAt + 60; sec <= resumeAt+90; sec++ {
		if slow[sec] == "OK" {
			ok = append(ok, sec-resumeAt)
		}
		if keeping[sec] != "OK" {
			t.Errorf("at its producers' rate, %d s after production resumed: %s, want OK", sec-resumeAt, keeping[sec])
		}
	}
	if len(ok) > 1 || len(ok) == 1 && ok[0] != 64 {
		t.Errorf("half its producers' rate: OK %v s after production resumed, want at most at the third commit since (64 s)", ok)
	}
}

// TestAPauseStartsTheTrendAgain: the consumer of resumeAfterPause at 0.8
// of its producers' rate. Its trend before the pause holds the catch-up,
// time lags that fell; judged with them, its climb since read OK for
// three minutes and WARN after 213 s. A commit that stood longer than
// the floor before the partition was caught up (nothing was produced
// meanwhile) starts the trend again: it is not OK from 40 s after
// production resumed (JUDGING while its new commits are too few), and
// WARN within two minutes. At its producers' rate it reads OK.
func TestAPauseStartsTheTrendAgain(t *testing.T) {
	slow, keeping := resumeAfterPause(0.8, resumeAt+300), resumeAfterPause(1, resumeAt+300)
	warnAt := -1
	for sec := resumeAt + 1; sec <= resumeAt+300; sec++ {
		if keeping[sec] != "OK" {
			t.Errorf("at its producers' rate, %d s after production resumed: %s, want OK", sec-resumeAt, keeping[sec])
		}
		if sec >= resumeAt+40 && slow[sec] == "OK" {
			t.Errorf("0.8 of its producers' rate, %d s after production resumed: OK", sec-resumeAt)
		}
		if warnAt < 0 && slow[sec] == "WARN" {
			warnAt = sec - resumeAt
		}
	}
	if warnAt < 0 || warnAt > 120 {
		t.Errorf("0.8 of its producers' rate: WARN first %d s after production resumed, want within 120 s", warnAt)
	}
}

// TestGrewSinceFromTheSpansStart: a climb that began within the span
// shows from the span's start, where the commits either side of it say
// the time lag was, not only from the older commit. Commits every 20 s
// read time lags climbing 0.05 s a second to 40 s, then, from 55 s, 0.6 s
// a second: at 100 s the time lag grew 25 s in the 45 s span, though
// only 27.75 s in the 60 s since the commit at 40 s and less since the
// older ones. A consumer keeping up on a 30 s rhythm, whose time lag
// climbs between its commits from the same floor, shows it against no
// time in the span: its time lag now is held, less its climb since its
// latest commit, against the floor line.
func TestGrewSinceFromTheSpansStart(t *testing.T) {
	const sec = int64(time.Second)
	climb := rhythm{rhythmMoves: new(rhythmMoves)}
	for _, p := range []struct {
		at int64
		tl float64
	}{{0, 100}, {20, 101}, {40, 102}, {60, 105.75}, {80, 117.75}, {100, 129.75}} {
		climb.moved(p.at*sec, 0, p.tl, int64(p.tl), 15*sec)
	}
	keeps := rhythm{rhythmMoves: new(rhythmMoves)}
	for at := int64(0); at <= 90; at += 30 {
		keeps.moved(at*sec, 0, 2, 2, 15*sec)
	}
	for _, c := range []struct {
		name string
		r    *rhythm
		now  int64
		tl   float64
		span int64
		want bool
	}{
		{"climbing from the span's start", &climb, 100 * sec, 129.75, 45 * sec, true},
		{"the same climb over a longer span", &climb, 100 * sec, 129.75, 60 * sec, false},
		{"a 30 s sawtooth, its top", &keeps, 119 * sec, 35, 60 * sec, false},
		{"a 30 s sawtooth, grown past it", &keeps, 119 * sec, 65, 60 * sec, true},
	} {
		if got := c.r.grewSince(c.now, c.tl, c.span); got != c.want {
			t.Errorf("%s: at %ds, time lag %.2fs, span %ds: grewSince %v, want %v", c.name, c.now/sec, c.tl, c.span/sec, got, c.want)
		}
	}
}

// TestGrewSinceADrop: commits every 15 s, whose time lag climbed to
// 227 s, then fell to 20 s (a pause in production crossed) and climbs
// 0.7 s a second since: 45 s after the drop it grew 31.5 s, more than
// half the time and the noise (5 s), while every point a 60 s span old
// is from before the drop and higher than the time lag now (grewSince
// sees nothing). At its producers' rate since the drop, it did not grow.
// Its time lag now less its climb since its latest commit is held
// against the drop: a commit 45 s late is the silence rules' to judge
// (and grewSince's, from the points before the late wait). A consumer
// behind bursty producers, whose time lag at its commits zigzags by about
// 30 s, climbs 28 s after its newest fall: its own scatter, not a growth.
// Too soon after the drop (less than half the span: 20 s in the 15 s
// after it, a burst's records), or with fewer than three points before
// it to show their scatter, nothing is read.
func TestGrewSinceADrop(t *testing.T) {
	const sec = int64(time.Second)
	commits := func(tls ...float64) *rhythm {
		r := &rhythm{rhythmMoves: new(rhythmMoves)}
		for i, tl := range tls {
			r.moved(int64(i)*15*sec, 0, tl, int64(tl*10), 15*sec)
		}
		return r
	}
	behind := commits(200, 209, 218, 227, 20, 30.5, 41, 51.5)
	keeping := commits(200, 209, 218, 227, 20, 20.5, 20, 21)
	zigzag := commits(60, 30, 58, 29, 57, 28, 56)
	few := commits(218, 227, 20, 30.5, 41, 51.5)
	steep := commits(200, 209, 218, 227, 20, 40)
	for _, c := range []struct {
		name    string
		r       *rhythm
		now     int64
		tl      float64
		want    bool
		grewToo bool // grewSince's answer
	}{
		{"falling behind after the drop", behind, 105 * sec, 51.5, true, false},
		{"the same, between commits", behind, 110 * sec, 56.5, true, false},
		{"too soon after the drop", steep, 75 * sec, 40, false, false},
		{"at its producers' rate after the drop", keeping, 110 * sec, 26, false, false},
		{"its commit 45 s late", keeping, 150 * sec, 66, false, true},
		{"a burst's zigzag", zigzag, 105 * sec, 56, false, false},
		{"two points before the drop", few, 75 * sec, 51.5, false, false},
	} {
		if got := c.r.grewSinceDrop(c.now, c.tl, 60*sec, 10); got != c.want {
			t.Errorf("%s: at %ds, time lag %.1fs: grewSinceDrop %v, want %v", c.name, c.now/sec, c.tl, got, c.want)
		}
		if got := c.r.grewSince(c.now, c.tl, 60*sec); got != c.grewToo {
			t.Errorf("%s: at %ds, time lag %.1fs: grewSince %v, want %v", c.name, c.now/sec, c.tl, got, c.grewToo)
		}
	}
}

// TestAStillPointLeavesWithItsSlot: the records' climb is read from the
// newest trend point made while production stood still (markStill,
// sinceStill) for as long as that point is in the trend's ring: moved
// on past (the ring wraps and writes its slot again), it marks nothing,
// and a point that moves the newest on takes the newest's mark or
// clears it.
func TestAStillPointLeavesWithItsSlot(t *testing.T) {
	const sec = int64(time.Second)
	r := rhythm{rhythmMoves: new(rhythmMoves)}
	at := func(pts []trendPoint) []int64 {
		var ts []int64
		for _, p := range pts {
			ts = append(ts, p.at/sec)
		}
		return ts
	}
	all := func() []trendPoint {
		var pts []trendPoint
		for i := range int(r.ntrend) {
			pts = append(pts, r.point(i))
		}
		return pts
	}
	for i := range 5 {
		r.moved(int64(20*i)*sec, 0, 10, 100, 15*sec)
		r.markStill(i == 2)
	}
	if got := at(r.sinceStill(all())); !slices.Equal(got, []int64{60, 80}) {
		t.Errorf("still at 40 s: since it %v, want [60 80]", got)
	}
	// Within the spacing of the point before the newest: the newest
	// moves on, unmarked.
	r.moved(85*sec, 0, 10, 100, 30*sec)
	r.markStill(false)
	if got := at(r.sinceStill(all())); !slices.Equal(got, []int64{60, 85}) {
		t.Errorf("the newest moved on: since the still point %v, want [60 85]", got)
	}
	// Six more points wrap the ring of eight past the still one.
	for i := range 6 {
		r.moved(int64(100+20*i)*sec, 0, 10, 100, 15*sec)
		r.markStill(false)
	}
	if got := r.sinceStill(all()); len(got) != trendPoints {
		t.Errorf("the still point left the ring: since it %v, want all %d", at(got), trendPoints)
	}
	r.markStill(true)
	if got := r.sinceStill(all()); len(got) != 0 {
		t.Errorf("the newest still: since it %v, want none", at(got))
	}
	r.restartTrend()
	r.moved(300*sec, 0, 10, 100, 15*sec)
	r.markStill(false)
	if got := at(r.sinceStill(all())); !slices.Equal(got, []int64{300}) {
		t.Errorf("after a restart: since a still point %v, want [300]", got)
	}
}

// TestALatePollStretchesNoRhythm: a poll that comes late (one missed, or
// slow to answer) sees a commit up to a poll interval later than the
// polls' cadence would have, and the wait it ends looks that much
// longer. One partition written 2 records a second, committed at the log
// end every 120 s between polls 30 s apart, its commits stopping after
// 855 s: with the poll at 390 s missed, the commit made at 375 s is seen
// at 420 s, 150 s after the one before. That is no rhythm of the
// consumer's, and the verdicts once its commits stop are those of the
// consumer polled on time: not OK from 1,020 s, as its time lag grew past
// two rhythms, and ERR STALL from 1,140 s, twice its rhythm after the
// last commit seen. (Remembered as its longest wait, the 150 s kept it OK
// a poll longer and put ERR STALL at 1,200 s.)
func TestALatePollStretchesNoRhythm(t *testing.T) {
	verdicts := func(missed float64) map[float64]string {
		cfg := DefaultConfig()
		cfg.Window, cfg.MinDistance = 10, time.Second
		h := NewHistory(cfg)
		got := make(map[float64]string)
		var c int64
		for sec := 0.0; sec <= 1500; sec += 30 {
			// The latest commit made by sec: every 120 s from 15 s to
			// 855 s, each at the log end then.
			if made := 15 + 120*float64(int((sec-15)/120)); sec >= 15 && made <= 855 {
				c = int64(2 * made)
			}
			if sec == missed {
				continue
			}
			feed(h, sec, c, int64(2*sec))
			_, got[sec] = verdictOf(t, h, sec)
		}
		return got
	}
	grew := fmt.Sprintf("JUDGING/%d", WaitGrew)
	onTime := verdicts(-1)
	for sec, want := range map[float64]string{990: "OK/0", 1020: grew, 1110: grew, 1140: "ERR STALL/0", 1500: "ERR STALL/0"} {
		if onTime[sec] != want {
			t.Errorf("polled on time, %.0fs: %s, want %s", sec, onTime[sec], want)
		}
	}
	late := verdicts(390)
	for sec := 420.0; sec <= 1500; sec += 30 {
		if late[sec] != onTime[sec] {
			t.Errorf("%.0fs: %s after the poll at 390s was missed, %s polled on time", sec, late[sec], onTime[sec])
		}
	}
}
