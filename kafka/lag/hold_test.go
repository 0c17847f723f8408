package lag

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
)

// feed adds one poll of partition t/0 of group g at sec.
func feed(h *History, sec float64, committed, end int64) {
	h.Add(snap(at(sec), grp("g", po("t", 0, committed, end))))
}

// feedExact is feed, then the exact read of the committed records, which
// writtenAt(offset) dates.
func feedExact(h *History, sec float64, committed, end int64, writtenAt func(float64) time.Time) {
	feed(h, sec, committed, end)
	want := h.WantExact(0, nil)
	recs := make(map[kafka.CommitKey]kafka.RecordTime, len(want))
	for _, p := range want {
		recs[kafka.CommitKey{Topic: p.Topic, Partition: p.Partition, Offset: p.Committed}] = kafka.RecordTime{Offset: p.Committed, Timestamp: writtenAt(float64(p.Committed))}
	}
	h.AddExact(recs)
}

// statusAt is the group's status at the latest poll, as of sec.
func statusAt(t *testing.T, h *History, sec float64) Status {
	t.Helper()
	g, ok := h.Evaluate("g", at(sec))
	if !ok {
		t.Fatal("group not found")
	}
	return g.Status
}

// TestHoldKeepsAStatusThroughOddPolls: once judged on a full window, a
// partition moves between WARN and OK only after the rules gave the new
// status Hold polls in a row; facts (STALL, REWIND, caught up) move it at
// once.
func TestHoldKeepsAStatusThroughOddPolls(t *testing.T) {
	cfg := Config{Window: 4, MinDistance: time.Second, Samples: 20, TimePoints: 20, RatePolls: 3, EvictAfter: 3, Hold: 3}
	// Polls 10s apart; the consumer takes 10 of every 40 records: WARN
	// as soon as the window is full (the first decision is not held).
	behind := func() *History {
		h := NewHistory(cfg)
		for i := range 5 {
			feed(h, float64(10*i), int64(10*i), 100+int64(40*i))
		}
		if got := statusAt(t, h, 40); got != StatusWarn {
			t.Fatalf("falling behind over a full window: %v, want WARN", got)
		}
		return h
	}
	h := behind()
	// Then it keeps pace: the rules say OK at once (the lag no longer
	// grows), but WARN is held until they have said so three polls in a
	// row.
	for i, want := range []Status{StatusWarn, StatusWarn, StatusOK, StatusOK} {
		sec := float64(50 + 10*i)
		feed(h, sec, 140+int64(40*i), 300+int64(40*i))
		if got := statusAt(t, h, sec); got != want {
			t.Errorf("%d polls at the producer's pace: %v, want %v", i+1, got, want)
		}
	}
	// Caught up is a fact: OK at once.
	h = behind()
	feed(h, 50, 300, 300)
	if got := statusAt(t, h, 50); got != StatusOK {
		t.Errorf("caught up: %v, want OK at once", got)
	}
	// A rewind is a fact: reported at once.
	h = behind()
	feed(h, 50, 5, 300)
	if got := statusAt(t, h, 50); got != StatusRewind {
		t.Errorf("offset went back: %v, want REWIND at once", got)
	}
	// A stall is a fact too, and so is its end: commits a second apart
	// (two waits), then stuck past the window and twice that rhythm,
	// STALL; the commit moves, and it is no longer stalled.
	h = NewHistory(cfg)
	for i := range 8 {
		feed(h, float64(i), 50+10*int64(min(i, 3)), 100+int64(10*i))
	}
	if got := statusAt(t, h, 7); got != StatusStall {
		t.Fatalf("stuck past its rhythm: %v, want STALL", got)
	}
	feed(h, 8, 90, 180)
	if got := statusAt(t, h, 8); got != StatusOK {
		t.Errorf("the commit moved after a stall: %v, want OK at once", got)
	}
}

// TestStallWaitsForTheConsumersRhythm: a consumer that commits every
// 20s is not stalled 35s after a commit, whatever the window; once its
// silence passes twice its longest wait, it is.
func TestStallWaitsForTheConsumersRhythm(t *testing.T) {
	cfg := Config{Window: 3, MinDistance: time.Second, Samples: 30, TimePoints: 30, RatePolls: 3, EvictAfter: 3, Hold: 1}
	h := NewHistory(cfg)
	// Polls 5s apart, a commit every fourth poll (20s).
	var c int64
	sec := 0.0
	for i := range 13 {
		if i%4 == 0 {
			c += 40
		}
		sec = float64(5 * i)
		feed(h, sec, c, c+20+int64(5*i))
	}
	// Poll 12 committed; polls 13-20 see no move: up to 40s, within
	// twice 20s.
	for i := 13; i <= 20; i++ {
		sec = float64(5 * i)
		feed(h, sec, c, c+20+int64(5*i))
		if got := statusAt(t, h, sec); got == StatusStall {
			t.Errorf("poll %d, %gs after a commit every 20s: STALL", i, sec-60)
		}
	}
	// 45s without a commit: past 40s, twice its rhythm.
	sec = float64(5 * 21)
	feed(h, sec, c, c+20+5*21)
	if got := statusAt(t, h, sec); got != StatusStall {
		t.Errorf("%gs after the last commit: %v, want STALL", sec-60, got)
	}
}

// consumerSim is one partition's producer and consumer: the producer
// writes about rate records a second, with noise and bursts; the consumer
// commits every commitEvery polls (a sawtooth when above 1) what it
// processed, in one of three ways a phase sets: at share x the mean
// production rate (bounded by what there is), following the producer
// (the records of each poll interval, a backlog kept as it is), or a
// fixed delay after each record was written.
type consumerSim struct {
	rng         *rand.Rand
	rate        float64
	end         float64
	processed   float64
	committed   int64
	commitEvery int
	polls       int
	sec         float64
	ends        []endAt // log end by time, for the delayed consumer
}

type endAt struct {
	t   time.Time
	end float64
}

// meanBurst is the mean production over rate x interval: noise of mean 1 (0.4 to 1.6)
// and one poll in 20 with four times the records.
const meanBurst = 1 + 3.0/20

type phase struct {
	share  float64       // > 0: at share x the mean rate
	follow bool          // the records of each interval
	delay  time.Duration // > 0: each record this long after it was written
	want   Status
}

func (c *consumerSim) step(ph phase) {
	gap := 5 + (c.rng.Float64()*2 - 1) // polls 4s to 6s apart
	c.sec += gap
	produced := c.rate * gap * (0.4 + 1.2*c.rng.Float64())
	if c.rng.IntN(20) == 0 {
		produced *= 4 // a burst
	}
	c.end += produced
	c.ends = append(c.ends, endAt{t: at(c.sec), end: c.end})
	switch {
	case ph.follow:
		c.processed = min(c.end, c.processed+produced)
	case ph.delay > 0:
		c.processed = max(c.processed, c.endAt(at(c.sec).Add(-ph.delay)))
	default:
		c.processed = min(c.end, c.processed+ph.share*meanBurst*c.rate*gap)
	}
	c.polls++
	if c.polls%c.commitEvery == 0 {
		c.committed = int64(c.processed)
	}
}

// endAt is the log end at time t, interpolated between polls (the
// producer writes evenly within a poll interval).
func (c *consumerSim) endAt(t time.Time) float64 {
	prevT, prevEnd := t0, 0.0
	for _, p := range c.ends {
		if !p.t.Before(t) {
			f := float64(t.Sub(prevT)) / float64(p.t.Sub(prevT))
			return prevEnd + max(0, f)*(p.end-prevEnd)
		}
		prevT, prevEnd = p.t, p.end
	}
	return prevEnd
}

// writtenAt is when the producer wrote offset o (the inverse of endAt).
func (c *consumerSim) writtenAt(o float64) time.Time {
	prevT, prevEnd := t0, 0.0
	for _, p := range c.ends {
		if p.end > o {
			f := (o - prevEnd) / (p.end - prevEnd)
			return prevT.Add(time.Duration(f * float64(p.t.Sub(prevT))))
		}
		prevT, prevEnd = p.t, p.end
	}
	return prevT
}

// readExact answers the history's exact reads with the records'
// timestamps, as the UI, serve and health do after each poll.
func (c *consumerSim) readExact(h *History) {
	want := h.WantExact(0, nil)
	if len(want) == 0 {
		return
	}
	recs := make(map[kafka.CommitKey]kafka.RecordTime, len(want))
	for _, p := range want {
		recs[kafka.CommitKey{Topic: p.Topic, Partition: p.Partition, Offset: p.Committed}] = kafka.RecordTime{Offset: p.Committed, Timestamp: c.writtenAt(float64(p.Committed))}
	}
	h.AddExact(recs)
}

// TestVerdictsDoNotFlap is the no-flapping property: over generated
// polls of consumers whose speed changes in phases (a fixed delay behind
// the producer, slower than the producer, following it with the backlog
// kept, slower again, catching up, a long fixed delay), with noisy and
// bursty production and commits in batches, and the records at the
// commits read after each poll as the UI, serve and health read them,
// the reported status does not change once it has settled (three windows
// into a phase), and it is what
// a careful human would say: WARN for a slow consumer, never WARN for one
// that keeps pace, whatever its lag.
func TestVerdictsDoNotFlap(t *testing.T) {
	phases := []phase{
		{delay: 400 * time.Millisecond, want: StatusOK},
		{share: 0.4, want: StatusWarn},
		{follow: true, want: StatusOK},
		{share: 0.6, want: StatusWarn},
		{share: 3, want: StatusOK},
		{delay: 30 * time.Second, want: StatusOK},
	}
	const phasePolls = 60
	settle := 3 * DefaultConfig().Window
	for seed := range uint64(300) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 7))
			sim := &consumerSim{rng: rng, rate: 1 + 49*rng.Float64(), commitEvery: 1 + rng.IntN(4)}
			h := NewHistory(DefaultConfig())
			for pi, ph := range phases {
				var trace []Status
				for range phasePolls {
					sim.step(ph)
					feed(h, sim.sec, sim.committed, int64(sim.end))
					sim.readExact(h)
					trace = append(trace, statusAt(t, h, sim.sec))
				}
				for i := settle; i < len(trace); i++ {
					if trace[i] != ph.want {
						t.Errorf("phase %d %+v (rate %.1f, commits every %d polls): poll %d is %v, want %v from poll %d on; trace %v",
							pi, ph, sim.rate, sim.commitEvery, i, trace[i], ph.want, settle, trace)
						break
					}
				}
			}
		})
	}
}

// TestStarvedPartitionOfASlowMemberIsBehindNotStalled: one member on three
// partitions. While it works through two of them slower than they fill,
// the third waits its turn with a commit that stands a full window: the
// group is falling behind (WARN), not stalled. The same standing commit
// beside partitions the member keeps up with is a STALL: something holds
// that partition.
func TestStarvedPartitionOfASlowMemberIsBehindNotStalled(t *testing.T) {
	cfg := Config{Window: 4, MinDistance: time.Second, Samples: 20, TimePoints: 20, RatePolls: 3, EvictAfter: 3, Hold: 1}
	run := func(busy func(i int) (c, end int64)) Verdict {
		h := NewHistory(cfg)
		var g GroupHealth
		for i := range 8 {
			sec := float64(10 * i)
			c0, e0 := busy(i)
			h.Add(snap(at(sec), grp("g",
				po("t", 0, c0, e0),
				po("t", 1, c0, e0),
				po("t", 2, 50, 100+int64(20*i)), // waits its turn
			)))
			g, _ = h.Evaluate("g", at(sec))
		}
		return Judge(g, cfg.Window)
	}
	slow := run(func(i int) (int64, int64) { return int64(10 * i), 100 + int64(40*i) })
	if p := slow.Partitions[2]; p.Status != StatusWarn || slow.Text() != "WARN" {
		t.Errorf("a slow member's waiting partition: %v, group %s; want WARN, WARN", p.Status, slow.Text())
	}
	keeping := run(func(i int) (int64, int64) { return 100 + int64(40*i), 100 + int64(40*i) })
	if p := keeping.Partitions[2]; p.Status != StatusStall || keeping.Text() != "ERR STALL" {
		t.Errorf("a standing commit beside caught-up partitions: %v, group %s; want STALL, ERR STALL", p.Status, keeping.Text())
	}
}

// TestStarvationIsJudgedPerMember: member a is slow on its partitions;
// member b keeps up on t/3 and stands still on t/2. b's standing commit is
// a STALL: a's slowness explains nothing of b's.
func TestStarvationIsJudgedPerMember(t *testing.T) {
	cfg := Config{Window: 4, MinDistance: time.Second, Samples: 20, TimePoints: 20, RatePolls: 3, EvictAfter: 3, Hold: 1}
	owned := func(p kafka.PartitionOffsets, member string) kafka.PartitionOffsets {
		p.MemberID = member
		return p
	}
	h := NewHistory(cfg)
	var g GroupHealth
	for i := range 8 {
		sec := float64(10 * i)
		n := int64(i)
		h.Add(snap(at(sec), grp("g",
			owned(po("t", 0, 10*n, 100+40*n), "a"),
			owned(po("t", 1, 10*n, 100+40*n), "a"),
			owned(po("t", 2, 50, 100+20*n), "b"),
			owned(po("t", 3, 100+40*n, 100+40*n), "b"),
		)))
		g, _ = h.Evaluate("g", at(sec))
	}
	want := []Status{StatusWarn, StatusWarn, StatusStall, StatusOK}
	for i, w := range want {
		if got := g.Partitions[i].Status; got != w {
			t.Errorf("t/%d: %v, want %v", i, got, w)
		}
	}
}

// TestAMemberWithoutARhythmIsNotJudgedOnItsPeers: member a keeps up on
// t/0, committing every poll; member b never moves t/1 while it is
// watched. Members commit each on their own (one working through a
// backlog in large batches commits minutes apart beside members that
// commit every few seconds), so b's silence is not judged on a's rhythm:
// t/1 waits, saying why, until what no rhythm explains. Once b shows a
// rhythm on another of its partitions (t/2), its standing t/1 is a STALL
// on its group's rhythm, as before.
func TestAMemberWithoutARhythmIsNotJudgedOnItsPeers(t *testing.T) {
	cfg := Config{Window: 4, MinDistance: time.Second, Samples: 20, TimePoints: 20, RatePolls: 3, EvictAfter: 3, Hold: 1}
	owned := func(p kafka.PartitionOffsets, member string) kafka.PartitionOffsets {
		p.MemberID = member
		return p
	}
	run := func(bShows bool) PartitionHealth {
		h := NewHistory(cfg)
		var g GroupHealth
		for i := range int64(8) {
			ps := []kafka.PartitionOffsets{
				owned(po("t", 0, 100+40*i, 100+40*i), "a"),
				owned(po("t", 1, 50, 100+20*i), "b"),
			}
			if bShows {
				ps = append(ps, owned(po("t", 2, 100+40*i, 100+40*i), "b"))
			}
			h.Add(snap(at(float64(10*i)), grp("g", ps...)))
			g, _ = h.Evaluate("g", at(float64(10*i)))
		}
		return g.Partitions[1]
	}
	want := "no commit in 1m10s and no rhythm seen yet: STALL after 15m unless it commits"
	if p := run(false); p.Status != StatusOK || p.Wait.Kind != WaitRhythm || p.Wait.Reason() != want {
		t.Errorf("a member that showed no rhythm: %v, wait %v %q; want OK waiting %q", p.Status, p.Wait.Kind, p.Wait.Reason(), want)
	}
	if p := run(true); p.Status != StatusStall {
		t.Errorf("a member that commits on its other partition: %v, want STALL", p.Status)
	}
}

// TestATurnPastItsRhythmWaits: a member keeps t/2 caught up, committing
// every poll, then a burst lands on t/0 and t/1 and it works through
// them, consuming more than is produced, while t/2 stands. t/2's silence
// passes its own rhythm many times over: it waits its turn (JUDGING, and
// why), not OK, for nothing says it keeps up.
func TestATurnPastItsRhythmWaits(t *testing.T) {
	cfg := Config{Window: 4, MinDistance: time.Second, Samples: 20, TimePoints: 20, RatePolls: 3, EvictAfter: 3, Hold: 1}
	h := NewHistory(cfg)
	var g GroupHealth
	for i := range int64(10) {
		e0, c0 := 100+40*i, 100+40*i
		e2, c2 := 100+20*i, 100+20*i
		if i >= 3 {
			e0 += 400           // the burst
			c0 = 180 + 60*(i-2) // a backlog shrinking by 20 a poll
			c2 = 140            // t/2 waits its turn
		}
		h.Add(snap(at(float64(10*i)), grp("g", po("t", 0, c0, e0), po("t", 1, c0, e0), po("t", 2, c2, e2))))
		g, _ = h.Evaluate("g", at(float64(10*i)))
	}
	p := g.Partitions[2]
	want := "no commit in 1m10s while its member works on its other partitions: waits its turn"
	if p.Status != StatusOK || p.Wait.Kind != WaitTurn || p.Wait.Reason() != want {
		t.Errorf("t/2: %v, wait %v %q; want OK waiting %q", p.Status, p.Wait.Kind, p.Wait.Reason(), want)
	}
}

// TestABurstBetweenRareCommitsIsNotBusy: a member keeps t/1 up with
// bursty production, committing every 2 minutes, and stops making
// progress on t/0. Polled every 10 s, the window (10 polls) is shorter
// than t/1's rhythm: between two commits t/1's lag climbs by a burst, more
// than its mean rate explains, while its lag at its commits holds. That
// is the sawtooth of a consumer that keeps up, not a member busy falling
// behind there: t/0 stays STALL instead of reading WARN, as a partition
// waiting its turn, at every burst.
func TestABurstBetweenRareCommitsIsNotBusy(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MinDistance = time.Second
	h := NewHistory(cfg)
	owned := func(p kafka.PartitionOffsets) kafka.PartitionOffsets {
		p.MemberID = "m"
		return p
	}
	var end0, end1, c1 int64
	var trace []Status
	stallAt, flips := -1, 0
	for sec := 0; sec <= 1800; sec += 10 {
		end0 += 20
		if sec%90 < 20 {
			end1 += 300 // a burst
		} else {
			end1 += 5
		}
		if sec%120 == 0 {
			c1 = end1
		}
		h.Add(snap(at(float64(sec)), grp("g", owned(po("t", 0, min(end0, 200), end0)), owned(po("t", 1, c1, end1)))))
		g, _ := h.Evaluate("g", at(float64(sec)))
		s := g.Partitions[0].Status
		trace = append(trace, s)
		if stallAt < 0 && s == StatusStall {
			stallAt = sec
		}
		if stallAt >= 0 && s != StatusStall {
			flips++
		}
	}
	if stallAt < 0 || stallAt > 600 {
		t.Fatalf("t/0 STALL first at %d s, want within 10 minutes: %v", stallAt, trace)
	}
	if flips > 0 {
		t.Errorf("t/0 STALL from %d s, then %d polls not STALL: %v", stallAt, flips, trace)
	}
}

// TestTurnLongerThanTheHistoryWaits: a short history (kgroups health
// over a short window) sees t/1 never move while its member commits on
// t/0 records older than anything the history saw (a time lag known
// only as a lower bound). A member serving its partitions in turn with
// a turn longer than the history looks exactly like a stuck partition:
// the verdict waits, saying why, rather than guess STALL. Beside a
// member that keeps up on t/0, the standing commit is a STALL.
func TestTurnLongerThanTheHistoryWaits(t *testing.T) {
	cfg := Config{Window: 4, MinDistance: time.Second, Samples: 20, TimePoints: 20, RatePolls: 3, EvictAfter: 3, Hold: 1}
	run := func(c0 func(i int64) int64) GroupHealth {
		h := NewHistory(cfg)
		var g GroupHealth
		for i := range int64(8) {
			end := 1000 + 10*i
			h.Add(snap(at(float64(i)), grp("g",
				po("t", 0, c0(i), end),
				po("t", 1, 10, end), // never seen moving
			)))
			g, _ = h.Evaluate("g", at(float64(i)))
		}
		return g
	}
	behind := run(func(i int64) int64 { return 20 + 5*i }) // far below every log end seen
	p := behind.Partitions[1]
	want := "no commit in 7s while its member works on its other partitions: waits its turn"
	if p.Status != StatusOK || p.Wait.Kind != WaitTurn || p.Wait.Reason() != want {
		t.Errorf("behind its turn: %v, wait %v %q; want OK waiting %q", p.Status, p.Wait.Kind, p.Wait.Reason(), want)
	}
	if v := Judge(behind, cfg.Window); v.Text() != JudgingText || v.Reason() != want {
		t.Errorf("group: %s (%s), want %s (%s)", v.Text(), v.Reason(), JudgingText, want)
	}
	keeping := run(func(i int64) int64 { return 1000 + 10*i - 2 })
	if p := keeping.Partitions[1]; p.Status != StatusStall {
		t.Errorf("beside a member that keeps up: %v, want STALL", p.Status)
	}
}

// TestHoldKeepsTheWaitItShowed: a consumer that commits every 20 s and
// keeps up, then slows to 0.3 of its producers' rate. Its time lag climbs
// past two rhythms before its commits make a trend, so the rules wait
// (JUDGING); then they say WARN, and the hold weighs that for Hold polls.
// Meanwhile the held status is OK, and the reader, shown JUDGING, keeps
// being shown JUDGING: never OK on a time lag the rules no longer call
// bounded, and one verdict change (OK, then WARN), not two.
func TestHoldKeepsTheWaitItShowed(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Window, cfg.MinDistance, cfg.Hold = 10, 5*time.Second, 4
	h := NewHistory(cfg)
	var c, end int64
	var got []string
	for i := range 46 {
		end += 10 // 2 records a second, a poll every 5 s
		switch {
		case i < 30 && i%4 == 0:
			c = end - 5
		case i >= 30 && i%4 == 0:
			c += 24 // 0.6 records a second
		}
		feed(h, float64(5*i), c, end)
		if i < 36 {
			continue
		}
		v, _ := verdictOf(t, h, float64(5*i))
		got = append(got, v.Text())
	}
	want := []string{"OK", "OK", "JUDGING", "JUDGING", "JUDGING", "JUDGING", "JUDGING", "WARN", "WARN", "WARN"}
	if !slices.Equal(got, want) {
		t.Errorf("polls 36 to 45: %q, want %q", got, want)
	}
}

// TestLeftCalmWaitsForTheNextCommit: two consumers on a partition that
// rests for 100 s (nothing produced), then gets 2 records a second again.
// Neither commits for the first 125 s after. One committed at the head
// every poll while it kept up, then once a minute at half its producers'
// rate (its minute-long waits were waits with a backlog): once its time
// lag passes the noise of keeping up and twice the 5 s it waited while
// keeping up, nothing says it keeps up, and it waits for its next commit
// (JUDGING), until its silence is STALL. The other commits at the head
// once a minute: a time lag of a minute or two is how it keeps up, and it
// reads OK throughout.
func TestLeftCalmWaitsForTheNextCommit(t *testing.T) {
	for _, batch := range []bool{true, false} {
		cfg := DefaultConfig()
		cfg.Window, cfg.MinDistance = 10, 5*time.Second
		h := NewHistory(cfg)
		var c, end int64
		var got []string
		for sec := 0; sec < 650; sec += 5 {
			if sec < 400 || sec >= 500 {
				end += 10
			}
			switch {
			case batch && (sec < 100 || sec >= 400 && sec < 500):
				c = end
			case batch && sec < 400 && sec > 100 && (sec-100)%60 == 0:
				c += 60
			case !batch && sec%60 == 0:
				c = end
			}
			feed(h, float64(sec), c, end)
			if sec < 500 {
				continue
			}
			v, words := verdictOf(t, h, float64(sec))
			got = append(got, words)
			const why = "no commit in 35s since it was about caught up, past twice the ~5s it waits keeping up: waits for its next commit"
			if r := v.Reason(); batch && sec == 530 && r != why {
				t.Errorf("at 530 s: reason %q, want %q", r, why)
			}
		}
		var want []string
		for sec := 500; sec < 650; sec += 5 {
			switch {
			case !batch || sec < 530:
				want = append(want, "OK/0")
			case sec < 630:
				want = append(want, fmt.Sprintf("JUDGING/%d", WaitCalm))
			default:
				want = append(want, "ERR STALL/0")
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("batch %v, polls from 500 s: %q, want %q", batch, got, want)
		}
	}
}

// TestHoldShowsJudgingNotOK: a consumer that commits at every poll and
// keeps up slows to 0.6 of its producers' rate. The rules say WARN three
// polls before the hold accepts it; meanwhile the held status is OK and
// the reader is shown JUDGING, saying why, not OK: a time lag that the
// rules call growing is never shown OK, and a change that the hold then
// drops would have been OK, JUDGING, OK (no change between verdicts).
func TestHoldShowsJudgingNotOK(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Window, cfg.MinDistance, cfg.Hold = 10, 5*time.Second, 4
	h := NewHistory(cfg)
	var c, end int64
	var got []string
	for i := range 43 {
		end += 10 // 2 records a second, a poll every 5 s
		if i < 30 {
			c = end - 5
		} else {
			c += 6 // 1.2 records a second
		}
		feed(h, float64(5*i), c, end)
		if i < 36 {
			continue
		}
		v, words := verdictOf(t, h, float64(5*i))
		got = append(got, words)
		const why = "falling behind at its latest polls: WARN once it lasts"
		if r := v.Reason(); i == 38 && r != why {
			t.Errorf("poll 38: reason %q, want %q", r, why)
		}
	}
	hold := fmt.Sprintf("JUDGING/%d", WaitHold)
	want := []string{"OK/0", "OK/0", hold, hold, hold, "WARN/0", "WARN/0"}
	if !slices.Equal(got, want) {
		t.Errorf("polls 36 to 42: %q, want %q", got, want)
	}
}

// TestHoldToWarnSpansARhythm: a consumer that commits every 40 s (eight
// polls) at the head, then at 0.6 of its producers' rate. Between two
// commits its time lag climbs for 40 s whatever its pace, so a change to
// WARN is held for one of its rhythms (up to the floor), not only for
// Hold polls: the rules say WARN from poll 48, the reader sees JUDGING
// for 40 s, then WARN at poll 55 (Hold polls alone: poll 51). Before
// that, its first slower commit (poll 40) stands past the noise above
// every one before it (History.newHigh): JUDGING, the wait the hold
// keeps showing while it weighs the WARN.
func TestHoldToWarnSpansARhythm(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Window, cfg.MinDistance, cfg.Hold = 10, 5*time.Second, 4
	h := NewHistory(cfg)
	var c, end int64
	var got []string
	for i := range 57 {
		end += 10
		switch {
		case i < 40 && i%8 == 0:
			c = end - 5
		case i >= 40 && i%8 == 0:
			c += 48
		}
		feed(h, float64(5*i), c, end)
		if i < 46 {
			continue
		}
		_, words := verdictOf(t, h, float64(5*i))
		got = append(got, words)
	}
	step := fmt.Sprintf("JUDGING/%d", WaitStep)
	want := []string{step, step, step, step, step, step, step, step, step, "WARN/0", "WARN/0"}
	if !slices.Equal(got, want) {
		t.Errorf("polls 46 to 56: %q, want %q", got, want)
	}
}

// TestNoMemberPastItsRhythmWaits: a consumer that commits every 10 s
// leaves its group (Empty, no member owns the partition) while records
// keep arriving. Its commit is overdue after one rhythm: nothing says it
// keeps up, and it waits, saying when it will be STOP, instead of reading
// OK until then.
func TestNoMemberPastItsRhythmWaits(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Window, cfg.MinDistance = 10, 5*time.Second
	h := NewHistory(cfg)
	var c, end int64
	var got []string
	for i := range 39 {
		end += 10
		p := po("t", 0, c, end)
		g := grp("g", p)
		switch {
		case i < 30 && i%2 == 0:
			c = end - 5
			g = grp("g", po("t", 0, c, end))
		case i >= 30:
			g = grp("g", unowned(p))
			g.State = kafka.StateEmpty
		}
		h.Add(snap(at(float64(5*i)), g))
		if i < 30 {
			continue
		}
		v, words := verdictOf(t, h, float64(5*i))
		got = append(got, words)
		const why = "no commit in 15s, past its ~10s, and no member: STOP after 45s unless it commits"
		if r := v.Reason(); i == 31 && r != why {
			t.Errorf("poll 31: reason %q, want %q", r, why)
		}
	}
	wait := fmt.Sprintf("JUDGING/%d", WaitRhythm)
	want := []string{"OK/0", wait, wait, wait, wait, wait, wait, wait, "ERR STOP/0"}
	if !slices.Equal(got, want) {
		t.Errorf("polls 30 to 38: %q, want %q", got, want)
	}
}

// verdictOf is group g's verdict as of sec, and its words for a sequence:
// the verdict's text and the first partition's wait kind ("JUDGING/5").
func verdictOf(t *testing.T, h *History, sec float64) (Verdict, string) {
	t.Helper()
	g, ok := h.Evaluate("g", at(sec))
	if !ok {
		t.Fatalf("%.0fs: group not found", sec)
	}
	v := Judge(g, h.Config().Window)
	return v, fmt.Sprintf("%s/%d", v.Text(), g.Partitions[0].Wait.Kind)
}

// TestBurstScatterKeepsATrend: a consumer at 0.8x of bursty production
// (6 records a second for 30 s of every 90, 0.3 a second between: 2.2 a
// second on average) that commits every 30 s, as Kafka Streams does by
// default, polled every second with its commits' records read. Its time
// lag at its commits climbs about 0.2 s a second, with the burst cycle's
// scatter on top: one commit in three lands after a burst it has not
// read, two below the one before. Once WARN it stays WARN for the half
// hour it keeps falling behind: a commit below the one before does not
// end a trend the commits still show (it flipped WARN and OK every two
// minutes when it did). Scaled out to 2x, it reads OK again within the
// minutes its commits take to show the time lag falling.
func TestBurstScatterKeepsATrend(t *testing.T) {
	const cycle, burst, hi, lo = 90.0, 30.0, 6.0, 0.3
	produced := func(sec float64) float64 { // records written by sec
		n := math.Floor(sec / cycle)
		r := sec - n*cycle
		return n*(burst*hi+(cycle-burst)*lo) + min(r, burst)*hi + max(0, r-burst)*lo
	}
	writtenAt := func(o float64) time.Time { // when offset o was written
		lo, hi := 0.0, 1e6
		for hi-lo > 1e-3 {
			if mid := (lo + hi) / 2; produced(mid) > o {
				hi = mid
			} else {
				lo = mid
			}
		}
		return at(lo)
	}
	h := NewHistory(DefaultConfig())
	mean := (burst*hi + (cycle-burst)*lo) / cycle
	processed, committed := 0.0, int64(0)
	var warnAt, flips int
	var trace []Status
	const slow, fast = 45 * 60, 60 * 60
	for sec := 1; sec <= fast; sec++ {
		speed := 0.8
		if sec > slow {
			speed = 2
		}
		end := produced(float64(sec))
		processed = min(end, processed+speed*mean)
		if sec%30 == 0 {
			committed = int64(processed)
		}
		feedExact(h, float64(sec), committed, int64(end), writtenAt)
		s := statusAt(t, h, float64(sec))
		if sec <= slow {
			if warnAt == 0 && s == StatusWarn {
				warnAt = sec
			}
			if warnAt > 0 && s != StatusWarn {
				flips++
			}
		}
		if sec%30 == 0 {
			trace = append(trace, s)
		}
	}
	if warnAt == 0 || warnAt > 15*60 {
		t.Fatalf("WARN first at %d s, want within 15 minutes; every 30 s: %v", warnAt, trace)
	}
	if flips > 0 {
		t.Errorf("WARN from %d s, then %d polls not WARN before the consumer sped up; every 30 s: %v", warnAt, flips, trace)
	}
	if s := trace[len(trace)-1]; s != StatusOK {
		t.Errorf("15 minutes at 2x: %v, want OK; every 30 s: %v", s, trace)
	}
}

// TestAPauseInProductionIsNoCatchUp: a consumer slower than its
// producers' mean rate, polled every second, while production runs for
// ten minutes and pauses for three (and, as it was not written on, other
// shapes: seven minutes on and four off, fifteen and five, five and
// five, at 0.6x to 0.8x). It catches up a little in each pause, and some
// minutes into the next run it reads past the pause: its time lag drops
// by about the pause's length, though it reads no faster and its lag in
// records climbs on. From five minutes into each run to its end, the
// verdict is WARN or JUDGING, never OK. Before the lag in records
// carried a held climb across such a drop, those stretches read OK at
// 110 polls at 30 s commits and 210 at 2-minute ones. Polled every 10 s
// and committing every other poll, it adds 77 records between two
// commits, fewer than a poll's production: while the crossing asked for
// a rise past that, it read OK for two polls (gapCrossed). Committing
// every minute or so, its trend's eight commits span the pause, through
// which its lag in records fell whatever its pace: before the climb in
// records was read from the newest commit made while production stood
// still (rhythm.sinceStill), ten minutes on and three off read OK at 59,
// 119 and 90 polls at commits every 60, 75 and 90 s, and 12, 6 and 12 at
// 5-s and 10-s polls committing every 60 or 80 s; seven on and four off
// at 89, 120 and 8.
func TestAPauseInProductionIsNoCatchUp(t *testing.T) {
	const rate = 10.0
	shapes := []struct{ on, off, speed float64 }{{600, 180, 0.8}, {420, 240, 0.8}, {900, 300, 0.7}, {300, 300, 0.6}, {600, 180, 0.6}}
	cases := []struct{ poll, every int }{{1, 5}, {1, 10}, {1, 30}, {1, 45}, {1, 60}, {1, 75}, {1, 90}, {1, 120}, {5, 15}, {5, 60}, {10, 20}, {10, 30}, {10, 60}, {10, 80}}
	for _, sh := range shapes {
		on, off := sh.on, sh.off
		produced := func(sec float64) float64 { // records written by sec
			n := math.Floor(sec / (on + off))
			return n*on*rate + min(sec-n*(on+off), on)*rate
		}
		writtenAt := func(o float64) time.Time { // when offset o was written
			n := math.Floor(o / (on * rate))
			return at(n*(on+off) + (o-n*on*rate)/rate)
		}
		for _, c := range cases {
			name := fmt.Sprintf("%.0fs on, %.0fs off, %.1fx, polls every %ds, commits every %ds", on, off, sh.speed, c.poll, c.every)
			poll, every := c.poll, c.every
			t.Run(name, func(t *testing.T) {
				h := NewHistory(DefaultConfig())
				speed := sh.speed * on * rate / (on + off)
				processed, committed := 0.0, int64(0)
				var ok []int
				for sec := poll; sec <= 3600; sec += poll {
					end := produced(float64(sec))
					processed = min(end, processed+speed*float64(poll))
					if sec%every == 0 {
						committed = int64(processed)
					}
					feedExact(h, float64(sec), committed, int64(end), writtenAt)
					g, _ := h.Evaluate("g", at(float64(sec)))
					if r := math.Mod(float64(sec), on+off); r >= 300 && r < on && g.Status == StatusOK && g.Wait.Kind == WaitNone {
						ok = append(ok, sec)
					}
				}
				if len(ok) > 0 {
					t.Errorf("OK at %d polls from five minutes into a production run: %v", len(ok), ok)
				}
			})
		}
	}
}

// TestAWarnBeforeTheFirstDecisionIsWeighed: polls 10 s apart, a window
// of eight, so the trend has its three commits over the floor (20 s) at
// the fourth poll, well before the window is full. A consumer taking 10
// of every 40 records: the rules say WARN from 30 s, which was shown at
// once; it is weighed as a change to WARN is (three polls spanning a
// rhythm), JUDGING meanwhile, and WARN from 50 s, still before the
// window is full. One that catches up at 40 s (a burst's three polls)
// reads JUDGING at 30 s, then OK: never WARN.
func TestAWarnBeforeTheFirstDecisionIsWeighed(t *testing.T) {
	cfg := Config{Window: 8, MinDistance: time.Second, Samples: 20, TimePoints: 20, RatePolls: 3, EvictAfter: 3, Hold: 3}
	h := NewHistory(cfg)
	for i := range 10 {
		sec := float64(10 * i)
		feed(h, sec, int64(10*i), int64(40*i))
		g, _ := h.Evaluate("g", at(sec))
		want := StatusOK
		if sec >= 50 {
			want = StatusWarn
		}
		if g.Status != want || sec >= 20 && sec < 50 && g.Partitions[0].Wait.Kind == WaitNone {
			t.Errorf("falling behind, %.0fs: %v (wait %q, %d observations), want %v, JUDGING before WARN", sec, g.Status, g.Partitions[0].Wait.Reason(), g.Observations, want)
		}
	}
	h = NewHistory(cfg)
	for i := range 6 {
		sec := float64(10 * i)
		c := int64(10 * i)
		if i >= 4 {
			c = int64(40 * i) // caught up
		}
		feed(h, sec, c, int64(40*i))
		g, _ := h.Evaluate("g", at(sec))
		if g.Status != StatusOK || sec == 30 && g.Partitions[0].Wait.Kind == WaitNone {
			t.Errorf("a burst, %.0fs: %v (wait %q), want OK, JUDGING at 30 s", sec, g.Status, g.Partitions[0].Wait.Reason())
		}
	}
}
