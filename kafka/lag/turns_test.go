package lag

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
)

// turnWorld is one member serving two partitions in turn, as a consumer
// whose fetches drain one partition's backlog before the next does: each
// second 10 records land on each partition, and the member consumes up
// to capacity records of the partition it serves, committing them, and
// turns to the other once it has caught up. stuckAt (seconds, 0: never)
// is when t/0 gets stuck: from then on the member serves only t/1.
func turnWorld(secs int, capacity, stuckAt int64) (c, end [][2]int64) {
	var cur [2]int64
	var e int64
	serving := 0
	for s := range int64(secs) + 1 {
		if s > 0 {
			e += 10
			if stuckAt > 0 && s >= stuckAt {
				serving = 1
			}
			cur[serving] = min(cur[serving]+capacity, e)
			if cur[serving] == e && (stuckAt == 0 || s < stuckAt) {
				serving = 1 - serving
			}
		}
		c = append(c, cur)
		end = append(end, [2]int64{e, e})
	}
	return c, end
}

// healthWindows judges the world as `kgroups health --window 15s` polled
// every second does: a fresh history over each window's 16 polls. It
// returns each window's verdict on t/0 and the group's.
func healthWindows(c, end [][2]int64) ([]Status, []string) {
	cfg := Config{Window: 10, MinDistance: 500 * time.Millisecond, Samples: 16, TimePoints: 16, RatePolls: 16, EvictAfter: 3, Hold: 4, EventHold: 15 * time.Second}
	var parts []Status
	var groups []string
	for last := 15; last < len(c); last += 15 {
		h := NewHistory(cfg)
		for s := last - 15; s <= last; s++ {
			h.Add(snap(at(float64(s)), grp("g", po("t", 0, c[s][0], end[s][0]), po("t", 1, c[s][1], end[s][1]))))
		}
		g, _ := h.Evaluate("g", at(float64(last)))
		parts = append(parts, g.Partitions[0].Status)
		v := Judge(g, cfg.Window)
		groups = append(groups, v.Text())
	}
	return parts, groups
}

// TestATurnSeenThroughAShortWindow: a member too slow for its producers
// (15 records a second for 20 produced) serves its two partitions in
// turn, each turn longer than the last. `kgroups health` over a 15 s
// window sees a partition stand while its member commits the other
// every second and works off a backlog there, catching up by the
// window's end: the member's latest commits read records only a little
// behind, yet it was busy through the whole wait. The standing
// partition waits its turn, and the group falls behind: WARN, never
// STALL. A member that keeps its other partition caught up through a
// window, or only works off a burst there, had time for the standing
// partition: STALL.
func TestATurnSeenThroughAShortWindow(t *testing.T) {
	c, end := turnWorld(150, 15, 0)
	parts, groups := healthWindows(c, end)
	for i, g := range groups {
		// The first window sees too few commits of either partition.
		want := "WARN"
		if i == 0 {
			want = JudgingText
		}
		if g != want || parts[i] == StatusStall {
			t.Errorf("window ending at %ds: t/0 %v, group %s; want no STALL, group %s", 15*(i+1), parts[i], g, want)
		}
	}
	// Stuck at 100 s: the member drains t/1 until about 176 s, then keeps
	// it caught up. Each window from the first that ends past 180 s
	// holds a member with time for t/0: STALL.
	c, end = turnWorld(300, 15, 100)
	parts, groups = healthWindows(c, end)
	for i, s := range parts {
		if last := 15 * (i + 1); last > 190 && (s != StatusStall || groups[i] != "ERR STALL") {
			t.Errorf("stuck, window ending at %ds: t/0 %v, group %s; want STALL, ERR STALL", last, s, groups[i])
		}
	}
	// Stuck from the start beside bursts the member works off at once:
	// 150 records on t/1 every 20 s, consumed at 100 a second.
	c, end = nil, nil
	var c1, e1 int64
	for s := range int64(301) {
		if s%20 == 3 {
			e1 += 150
		}
		c1 = min(c1+100, e1)
		c = append(c, [2]int64{0, c1})
		end = append(end, [2]int64{10 * s, e1})
	}
	// A window without a burst sees t/1 commit nothing: no rhythm tells
	// how long t/0 may stand, and the verdict waits.
	parts, groups = healthWindows(c, end)
	for i, s := range parts {
		last := 15 * (i + 1)
		want, wantGroup := StatusStall, "ERR STALL"
		if c[last][1] == c[last-15][1] {
			want, wantGroup = StatusOK, JudgingText
		}
		if s != want || groups[i] != wantGroup {
			t.Errorf("stuck beside bursts, window ending at %ds: t/0 %v, group %s; want %v, %s", last, s, groups[i], want, wantGroup)
		}
	}
}

// TestAMemberSlowerThanOnePartition: a member that consumes 9 records a
// second serves t/0, where 10 a second arrive, and never reaches t/1
// (its turn ends after a fetch it never finishes). Its commits on t/0
// read records ever older: it falls behind where it works, though its
// lag grows over one window (50 records in 50 s) by less than what two
// polls' production swings it by. t/1 waits
// its turn behind a busy member: WARN, as the group, not STALL, though
// its silence grows past twice t/0's time lag.
func TestAMemberSlowerThanOnePartition(t *testing.T) {
	h := NewHistory(DefaultConfig())
	var g GroupHealth
	var stalls []int
	for sec := 0; sec <= 1800; sec += 5 {
		end := int64(10 * sec)
		h.Add(snap(at(float64(sec)), grp("g", po("t", 0, int64(9*sec), end), po("t", 1, 0, end))))
		g, _ = h.Evaluate("g", at(float64(sec)))
		// Once t/0's commits span a trend (2m30s at 5 s polls).
		if g.Partitions[1].Status == StatusStall && sec >= 300 {
			stalls = append(stalls, sec)
		}
	}
	if len(stalls) > 0 {
		t.Errorf("t/1 STALL at %v s", stalls)
	}
	v := Judge(g, 10)
	if p := g.Partitions[1]; p.Status != StatusWarn || v.Text() != "WARN" {
		t.Errorf("after 30 minutes: t/1 %v, group %s; want WARN, WARN", p.Status, v.Text())
	}
}

// TestAMemberFallingBehindInTurnStaysWarn: a member at 0.8 of its
// producers serves its two partitions in turn (turnWorld: 16 records a
// second for 20), polled every 5 s as the UI does. Each partition's own
// trend reads its turns: caught up at its commits while the member
// works it off, standing while it waits, so that alone each read OK,
// JUDGING and WARN in turn (OK at 170 s, JUDGING at 320 s before). The
// member's lag, summed over both, climbs turn after turn: from the
// fifth minute, when the ring of polls spans its thirds, the group
// reads WARN throughout (memberFalling); with t/0 stuck at 600 s, WARN
// until ERR STALL (OK at 710 s before). A member at 1.2 of its
// producers, serving in turn too, never reads WARN; with t/0 stuck at
// 600 s, ERR STALL from 650 s.
func TestAMemberFallingBehindInTurnStaysWarn(t *testing.T) {
	run := func(capacity, stuckAt int64) []string {
		c, end := turnWorld(1800, capacity, stuckAt)
		h := NewHistory(DefaultConfig())
		var texts []string
		for s := 0; s <= 1800; s += 5 {
			h.Add(snap(at(float64(s)), grp("g", po("t", 0, c[s][0], end[s][0]), po("t", 1, c[s][1], end[s][1]))))
			g, _ := h.Evaluate("g", at(float64(s)))
			v := Judge(g, h.Config().Window)
			texts = append(texts, v.Text())
		}
		return texts
	}
	for i, v := range run(16, 0) {
		if 5*i >= 300 && v != "WARN" {
			t.Errorf("at 0.8: %s at %ds; want WARN from 300 s", v, 5*i)
		}
	}
	stalled := false
	for i, v := range run(16, 600) {
		stalled = stalled || v == "ERR STALL"
		if want := "WARN"; 5*i >= 300 && v != want && !stalled {
			t.Errorf("at 0.8, t/0 stuck at 600 s: %s at %ds; want WARN until ERR STALL", v, 5*i)
		} else if stalled && v != "ERR STALL" {
			t.Errorf("at 0.8, t/0 stuck at 600 s: %s at %ds, after ERR STALL; want ERR STALL", v, 5*i)
		}
	}
	if !stalled {
		t.Errorf("at 0.8, t/0 stuck at 600 s: never ERR STALL")
	}
	for i, v := range run(24, 0) {
		if v == "WARN" || strings.HasPrefix(v, "ERR") {
			t.Errorf("at 1.2: %s at %ds; want OK or JUDGING", v, 5*i)
		}
	}
	for i, v := range run(24, 600) {
		if 5*i >= 650 && v != "ERR STALL" {
			t.Errorf("at 1.2, t/0 stuck at 600 s: %s at %ds; want ERR STALL from 650 s", v, 5*i)
		}
	}
}

// TestAStuckPartitionAmongManyStaysStall: one member serves 48
// partitions behind bursty producers (2.8 records a second for a quarter
// of each 40 s cycle, each partition at its own phase, nothing between),
// commits every 30 s, and is polled every 5 s give or take a second, a
// poll missed now and then; t/0 gets stuck at 1,440 s. Among so many
// partitions one or another climbs past its own sawtooth at any time,
// its burst, while the rest swing back: the member is not busy, and the
// stuck partition reads ERR STALL from its first until the end, not, in
// turn, a partition waiting its turn.
func TestAStuckPartitionAmongManyStaysStall(t *testing.T) {
	const n, secs, stuck = 48, 2400.0, 1440.0
	rng := rand.New(rand.NewPCG(7, 7))
	var acc, end, pos, c [n]float64
	var phase [n]float64
	for p := range phase {
		phase[p] = 40 * rng.Float64()
	}
	h := NewHistory(DefaultConfig())
	stalled := -1.0
	next, k := 0.0, 0
	for s := 0.0; s <= secs; s += 0.5 {
		for p := range n {
			if math.Mod(s+phase[p], 40) < 10 {
				acc[p] += 2.8 * 0.5
			}
			end[p] = math.Floor(acc[p])
			if p != 0 || s < stuck {
				pos[p] = end[p]
			}
			if math.Mod(s, 30) == 0 {
				c[p] = pos[p]
			}
		}
		if s < next {
			continue
		}
		next += 4 + 2*rng.Float64()
		if k++; k%19 == 0 {
			continue // a missed poll
		}
		var ps []kafka.PartitionOffsets
		for p := range n {
			ps = append(ps, po("t", int32(p), int64(c[p]), int64(end[p])))
		}
		h.Add(snap(at(s), grp("g", ps...)))
		g, _ := h.Evaluate("g", at(s))
		jv := Judge(g, h.Config().Window)
		staysStall(t, &stalled, jv.Text(), s)
	}
	if stalled < 0 || stalled > stuck+180 {
		t.Errorf("ERR STALL first at %.1fs, want by %.0f s (stuck at %.0f s)", stalled, stuck+180, stuck)
	}
}

// TestARebalanceIsNoBusyMember: two members keep up with twelve
// partitions, 2 records a second each, each member committing all of its
// own every two minutes, a minute apart from the other. At 900 s a third
// member joins and takes two partitions from each; the rebalance pauses
// consumption for 10 s, the records processed since their last commits
// are processed again, and the new member commits its four every two
// minutes from 1,000 s. The partitions it took over hold the commits of
// two owners a minute apart, which read as a member committing every
// minute whose records are two minutes old: falling behind where it
// works. They are not the new member's commits, and nothing is behind:
// never WARN.
func TestARebalanceIsNoBusyMember(t *testing.T) {
	const n = 12
	owner := func(p int, s int) string {
		if s >= 900 && (p == 4 || p == 5 || p == 10 || p == 11) {
			return "m-3"
		}
		if p < 6 {
			return "m-1"
		}
		return "m-2"
	}
	commitsAt := func(m string, s int) bool {
		switch m {
		case "m-1":
			return s%120 == 0
		case "m-2":
			return s%120 == 60
		}
		return s >= 1000 && (s-1000)%120 == 0
	}
	var end, pos, c [n]int64
	h := NewHistory(DefaultConfig())
	for s := 0; s <= 2400; s++ {
		for p := range n {
			end[p] += 2
			if s == 900 {
				pos[p] = c[p] // processed again after the rebalance
			}
			if s < 900 || s >= 910 {
				pos[p] = end[p]
			}
			if commitsAt(owner(p, s), s) && (s < 900 || s >= 910) {
				c[p] = pos[p]
			}
		}
		if s%5 != 0 {
			continue
		}
		g := kafka.Group{Name: "g", State: kafka.StateStable, Members: []kafka.Member{{MemberID: "m-1"}, {MemberID: "m-2"}}}
		if s >= 900 {
			g.Members = append(g.Members, kafka.Member{MemberID: "m-3"})
		}
		for p := range n {
			q := po("t", int32(p), c[p], end[p])
			q.MemberID = owner(p, s)
			g.Partitions = append(g.Partitions, q)
		}
		h.Add(snap(at(float64(s)), g))
		gh, _ := h.Evaluate("g", at(float64(s)))
		v := Judge(gh, h.Config().Window)
		if txt := v.Text(); txt == "WARN" || strings.HasPrefix(txt, "ERR") {
			t.Errorf("%s at %ds; want OK or JUDGING", txt, s)
		}
	}
}

// TestAStuckPartitionThroughAPauseStaysStall: one member serves twelve
// partitions, a record a second on each but for a five-minute pause in
// every fifteen, and commits all of them every two minutes; t/0 gets
// stuck at 1,000 s. When production resumes after a pause its other
// partitions' lag climbs from nothing until their next commit, up to two
// minutes: their rhythm's sawtooth, not a busy member (the wait before
// that commit began at a caught-up poll, and is no measure of how long
// the member lets records wait). The stuck partition reads ERR STALL
// from its first until the end.
func TestAStuckPartitionThroughAPauseStaysStall(t *testing.T) {
	const n = 12
	var end, c [n]int64
	h := NewHistory(DefaultConfig())
	stalled := -1.0
	for s := 0; s <= 2700; s++ {
		for p := range n {
			if s%900 < 600 {
				end[p]++
			}
			if s%120 == 7 && (p != 0 || s < 1000) {
				c[p] = end[p]
			}
		}
		if s%5 != 0 {
			continue
		}
		staysStall(t, &stalled, pollOne(h, s, c[:], end[:]), float64(s))
	}
	if stalled < 0 || stalled > 1300 {
		t.Errorf("ERR STALL first at %.0fs, want by 1,300 s (stuck at 1,000 s)", stalled)
	}
}

// pollOne adds a poll at s seconds of one group g, owned by one member,
// whose partition t/i has commit c[i] and log end end[i], and returns
// the group's verdict then.
func pollOne(h *History, s int, c, end []int64) string {
	var ps []kafka.PartitionOffsets
	for p := range c {
		ps = append(ps, po("t", int32(p), c[p], end[p]))
	}
	h.Add(snap(at(float64(s)), grp("g", ps...)))
	g, _ := h.Evaluate("g", at(float64(s)))
	jv := Judge(g, h.Config().Window)
	return jv.Text()
}

// staysStall follows a run of verdicts: from the first ERR STALL (its
// time kept in first, -1 before it) every one must be ERR STALL.
func staysStall(t *testing.T, first *float64, v string, at float64) {
	t.Helper()
	if v == "ERR STALL" && *first < 0 {
		*first = at
	}
	if *first >= 0 && v != "ERR STALL" {
		t.Errorf("%s at %.1fs, after ERR STALL at %.1fs; want ERR STALL", v, at, *first)
	}
}

// TestAHaltedConsumerIsNoBusyMember: one member serves six partitions, two
// records a second on each, and commits each every 30 s, five seconds
// apart from the next; it halts from 1,440 s to 2,520 s, then works off
// the backlog at three times the production. While it stands, every
// partition's time lag grows; one that passes its rhythm first is not
// waiting its turn behind siblings that stand as well: the group reads
// ERR STALL from its first, never WARN. Once it resumes, the partitions
// it has not committed yet wait behind siblings that read the halt's old
// records: that is the member working off the halt, not falling behind,
// and each partition's own commits tell (its trend starts over): OK or
// JUDGING, never WARN, until the end.
func TestAHaltedConsumerIsNoBusyMember(t *testing.T) {
	const n = 6
	var end, pos, c [n]int64
	h := NewHistory(DefaultConfig())
	stalled := -1.0
	for s := 0; s <= 3600; s++ {
		halted := s >= 1440 && s < 2520
		for p := range n {
			end[p] += 2
			if !halted {
				pos[p] = min(pos[p]+6, end[p])
				if (s+5*p)%30 == 0 {
					c[p] = pos[p]
				}
			}
		}
		if s%5 != 0 {
			continue
		}
		v := pollOne(h, s, c[:], end[:])
		switch {
		case s < 1440 && s >= 300 && v != "OK":
			t.Errorf("%s at %ds, keeping up; want OK", v, s)
		case s >= 1440 && s < 2520:
			staysStall(t, &stalled, v, float64(s))
			if v == "WARN" {
				t.Errorf("WARN at %ds, halted; want JUDGING until ERR STALL", s)
			}
		case s >= 2520 && (v == "WARN" || strings.HasPrefix(v, "ERR") && s > 2560):
			t.Errorf("%s at %ds, working off the halt's backlog; want OK or JUDGING", v, s)
		}
	}
	if stalled < 0 || stalled > 1560 {
		t.Errorf("ERR STALL first at %.0fs, want by 1,560 s (halted at 1,440 s)", stalled)
	}
}

// TestAStalledMemberUnderBurstsIsNoSlowOne: four members serve twelve
// partitions, three each, under bursty production (records for the
// first quarter of every 40, 90 or 300 s), each committing its
// partitions every 30 s or 2 minutes at phases spread over that rhythm,
// and all halt at 1,500 s. A partition whose newest commit before the
// halt stood above the ones before waits for its next to tell a step
// from a climb; its member reads records older than its commits'
// spacing explains, since it reads none, and its lag grows. That is a
// member that commits nowhere, not one falling behind where it works:
// from the halt the group reads OK or JUDGING, then ERR STALL within
// twice the rhythm and a few polls, and ERR STALL from then on, never
// WARN. Before a member had to have committed within its rhythm for
// judgeTurns to call its waiting partitions falling behind, two-minute
// commits under the 90-s cycle read WARN from 1,650 s at 5-s polls and
// from 1,630 s at 10-s polls until ERR STALL (six and five polls).
func TestAStalledMemberUnderBurstsIsNoSlowOne(t *testing.T) {
	const n, halt = 12, 1500
	for _, poll := range []int{5, 10, 30} {
		for _, every := range []int{30, 120} {
			for _, cycle := range []int{40, 90, 300} {
				t.Run(fmt.Sprintf("poll %ds, commits every %ds, burst cycle %ds", poll, every, cycle), func(t *testing.T) {
					var c, end [n]int64
					h := NewHistory(DefaultConfig())
					stalled := -1.0
					for s := 0; s <= 2400; s++ {
						for p := range n {
							if s%cycle < cycle/4 && (s*7+p*13)%10 < 8 {
								end[p]++
							}
							if s < halt && s%every == p*every/n {
								c[p] = end[p]
							}
						}
						if s%poll != 0 {
							continue
						}
						v, _ := pollMembers(h, s, c[:], end[:], func(p int) string { return fmt.Sprintf("m-%d", p%4) })
						if s >= halt {
							staysStall(t, &stalled, v, float64(s))
							if v == "WARN" {
								t.Errorf("WARN at %ds, halted at %ds; want OK or JUDGING until ERR STALL", s, halt)
							}
						}
					}
					if by := halt + 2*every + 3*poll + 60; stalled < 0 || stalled > float64(by) {
						t.Errorf("ERR STALL first at %.0fs, want by %ds (halted at %ds)", stalled, by, halt)
					}
				})
			}
		}
	}
}

// fetchTurns is one member serving n partitions in turn, as a consumer
// whose fetch holds one partition's records at a time: one record lands
// on each partition a minute (partition p at p*60/n seconds into each
// minute), and the member processes one record every per(s) seconds,
// committing each; its turn on a partition ends with the records that
// partition held when the turn began (what arrives meanwhile waits for
// the next round), and its next turn goes to the next partition with
// records waiting. It polls every 10 s from 0 to secs and calls check
// with each poll's time and the group's verdict.
func fetchTurns(n int, per func(s int) int, secs int, check func(s int, v string, g GroupHealth)) {
	fetchTurnsScaled(n, per, secs, secs+1, check)
}

// fetchTurnsScaled is fetchTurns scaled out at scaleAt: from then each
// partition has a member of its own, which processes its records one
// every per(s) seconds as they come. It returns the History.
func fetchTurnsScaled(n int, per func(s int) int, secs, scaleAt int, check func(s int, v string, g GroupHealth)) *History {
	h := NewHistory(DefaultConfig())
	end, c := make([]int64, n), make([]int64, n)
	cur, left, busy := 0, int64(0), 0
	own := make([]int, n)
	for s := 0; s <= secs; s++ {
		for p := range n {
			if s%60 == p*60/n {
				end[p]++
			}
		}
		if s >= scaleAt {
			for p := range n {
				if own[p] > 0 {
					if own[p]--; own[p] == 0 {
						c[p]++
					}
				}
				if own[p] == 0 && end[p] > c[p] {
					own[p] = per(s)
				}
			}
			if s%10 == 0 {
				v, g := pollMembers(h, s, c, end, func(p int) string { return fmt.Sprintf("m-%d", p) })
				check(s, v, g)
			}
			continue
		}
		if busy > 0 {
			busy--
			if busy == 0 {
				c[cur]++
				left--
			}
		}
		if busy == 0 {
			if left == 0 {
				for k := 1; k <= n; k++ {
					if q := (cur + k) % n; end[q] > c[q] {
						cur, left = q, end[q]-c[q]
						break
					}
				}
			}
			if left > 0 {
				busy = per(s)
			}
		}
		if s%10 == 0 {
			v, g := pollMembers(h, s, c, end, func(int) string { return "m-1" })
			check(s, v, g)
		}
	}
	return h
}

// pollMembers adds a poll at s seconds of one group g whose partition
// t/i has commit c[i] and log end end[i] and member member(i), the
// group's members those, and returns the group's verdict and health then.
func pollMembers(h *History, s int, c, end []int64, member func(p int) string) (string, GroupHealth) {
	g := grp("g")
	for p := range c {
		o := po("t", int32(p), c[p], end[p])
		o.MemberID = member(p)
		g.Partitions = append(g.Partitions, o)
		if !slices.ContainsFunc(g.Members, func(m kafka.Member) bool { return m.MemberID == o.MemberID }) {
			g.Members = append(g.Members, kafka.Member{MemberID: o.MemberID})
		}
	}
	h.Add(snap(at(float64(s)), g))
	gh, _ := h.Evaluate("g", at(float64(s)))
	jv := Judge(gh, h.Config().Window)
	return jv.Text(), gh
}

// TestTurnsThatBeginFurtherBehindFallBehind: one member serves three
// partitions in turn, a record a minute on each, at 80% of that (a
// record every 25 s). Each partition's time lag falls through its turn,
// as the member works off what it fetched, and its lag is a few records:
// each turn alone reads caught up. But each turn begins further behind
// than the one before (its time lag a minute more each round), and the
// time lag grows without bound: JUDGING once two turns show it (a step
// or a climb: `its latest turn began 1m30s further behind than the one
// before: its next turn, ~3m after it began, tells a step from a climb`), WARN once
// three do, and WARN from then on. At 150% (a record every 13 s) each turn begins about a
// round behind: never WARN.
func TestTurnsThatBeginFurtherBehindFallBehind(t *testing.T) {
	every := func(secs int) func(int) int { return func(int) int { return secs } }
	var got []string
	steps := 0
	fetchTurns(3, every(25), 3600, func(s int, v string, g GroupHealth) {
		if s >= 1320 {
			got = append(got, v)
		}
		// Between a second turn further behind and the third, the
		// verdict waits for the third; never OK.
		if s >= 720 && s < 1320 {
			if v == "OK" {
				t.Errorf("OK at %ds; want JUDGING until the next turn tells, or WARN", s)
			}
			for _, p := range g.Partitions {
				if p.Wait.Kind == WaitTurnStep {
					steps++
					if r := p.Wait.Reason(); !strings.HasPrefix(r, "its latest turn began ") || !strings.Contains(r, "further behind than the one before: its next turn, ~") {
						t.Errorf("%ds: t/%d waits %q", s, p.Partition, r)
					}
				}
			}
		}
	})
	if n := len(got); n != 229 || slices.ContainsFunc(got, func(v string) bool { return v != "WARN" }) {
		t.Errorf("at 80%%, from 1,320 s: %d polls, %v; want 229 polls, each WARN", n, got)
	}
	if steps == 0 {
		t.Errorf("no partition waited for its next turn from 720 s to 1,320 s")
	}
	fetchTurns(3, every(13), 3600, func(s int, v string, _ GroupHealth) {
		if v == "WARN" || strings.HasPrefix(v, "ERR") {
			t.Errorf("%s at %ds; keeping up at 150%%", v, s)
		}
	})
	// At 80% until 2,400 s, then at 300% (a record every 7 s): WARN
	// until its turns show it (OK from 2,570 s), and never again after
	// 2,700 s.
	fetchTurns(3, func(s int) int {
		if s < 2400 {
			return 25
		}
		return 7
	}, 3600, func(s int, v string, _ GroupHealth) {
		if s >= 2400 && s < 2410 && v != "WARN" {
			t.Errorf("%s at %ds; want WARN before the speed-up shows", v, s)
		}
		if s >= 2700 && (v == "WARN" || strings.HasPrefix(v, "ERR")) {
			t.Errorf("%s at %ds, caught up at 300%%; want OK", v, s)
		}
	})
}

// TestTurnsOfAnotherMemberDoNotCount: the member at 80% of
// TestTurnsThatBeginFurtherBehindFallBehind is scaled out at 2,400 s,
// each partition to a member of its own that takes 15 s a record, four
// times what lands on it. The turns its partitions began under the one
// member climbed; they say nothing of the new members (the change of
// members clears them), which catch up: WARN until 2,550 s, then OK.
// (The verdicts alone do not tell: the old turns end with the climb.)
func TestTurnsOfAnotherMemberDoNotCount(t *testing.T) {
	per := func(s int) int {
		if s < 2400 {
			return 25
		}
		return 15
	}
	h := fetchTurnsScaled(3, per, 3600, 2400, func(s int, v string, _ GroupHealth) {
		switch want := "WARN"; {
		case s >= 2550:
			want = "OK"
			fallthrough
		case s >= 2350:
			if v != want {
				t.Errorf("%s at %ds; want %s", v, s, want)
			}
		}
	})
	// One turn of a new member may have begun since (a record landing
	// while it worked the backlog off); none of the old member's.
	for _, gh := range h.groups {
		for i := range gh.parts {
			if tu := gh.turnsOf(&gh.parts[i]); tu != nil && (tu.n > 1 || tu.n == 1 && int64(tu.at) < at(2400).Unix()) {
				t.Errorf("partition %d holds %d turns, the newest from %ds; want none begun before 2,400 s", gh.parts[i].partition, tu.n, int64(tu.at)-t0.Unix())
			}
		}
	}
}

// TestARecreatedTopicForgetsItsTurns: the member at 80% of
// TestTurnsThatBeginFurtherBehindFallBehind has climbing turns at
// 2,400 s, when its topic is deleted and created again: its offsets
// start from 0, on a broker that gives no topic ids (the offsets tell),
// or its topic id changes at 2,410 s (the id tells, whatever the
// offsets). The partitions' histories start again, and so do their
// turns: those of the old log say nothing of the new one.
func TestARecreatedTopicForgetsItsTurns(t *testing.T) {
	for _, ids := range []bool{false, true} {
		h := fetchTurnsScaled(3, func(int) int { return 25 }, 2400, 2401, func(int, string, GroupHealth) {})
		held := 0
		for _, gh := range h.groups {
			for i := range gh.parts {
				if tu := gh.turnsOf(&gh.parts[i]); tu != nil && tu.n == 3 {
					held++
				}
			}
		}
		if held != 3 {
			t.Fatalf("ids %v: %d partitions hold three turns at 2,400 s; want 3", ids, held)
		}
		// With ids, the old one at 2,405 s and a new one from 2,410 s,
		// the offsets where they were: the id alone tells.
		var last [3][2]int64
		for _, gh := range h.groups {
			for i := range gh.parts {
				c, end := h.sample(&gh.parts[i], h.seq)
				last[gh.parts[i].partition] = [2]int64{c, end}
			}
		}
		for s := 2405; s <= 2430; s += 5 {
			g := grp("g")
			for p := range 3 {
				o := po("t", int32(p), 1, 2)
				if ids {
					o = po("t", int32(p), last[p][0], last[p][1])
				}
				o.MemberID = "m-1"
				g.Partitions = append(g.Partitions, o)
			}
			g.Members = []kafka.Member{{MemberID: "m-1"}}
			sn := snap(at(float64(s)), g)
			if ids {
				sn.TopicIDs = map[string]kafka.TopicID{"t": {1}}
				if s >= 2410 {
					sn.TopicIDs["t"] = kafka.TopicID{2}
				}
			}
			h.Add(sn)
		}
		for _, gh := range h.groups {
			for i := range gh.parts {
				if tu := gh.turnsOf(&gh.parts[i]); tu != nil {
					t.Errorf("ids %v: t/%d holds %d turns of the old log; want none", ids, gh.parts[i].partition, tu.n)
				}
			}
		}
	}
}
