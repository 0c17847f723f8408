package lag

import (
	"math/rand/v2"
	"testing"

	"github.com/kgroups/kgroups/kafka"
)

// catchUpConfig is the UI's defaults with every poll an observation.
func catchUpConfig() Config {
	c := DefaultConfig()
	c.MinDistance = 1
	return c
}

// TestCatchUpHoldsAtEqualRates is the header that changed every poll
// between "keeping up", "catching up in 3m00s" and "not catching up": 7
// records a second produced and consumed, commits landing a little before
// or after each poll (lag 3 to 6). Before rates cover a window it says
// nothing; then "keeping up", at every poll.
func TestCatchUpHoldsAtEqualRates(t *testing.T) {
	h := NewHistory(catchUpConfig())
	rng := rand.New(rand.NewPCG(7, 31))
	var states []CatchUpState
	end := int64(1000)
	for i := range 120 {
		end += 35 // 7/s over 5s
		c := end - 3 - rng.Int64N(4)
		h.Add(snap(at(float64(5*i)), grp("g", po("t", 0, c, end))))
		g, _ := h.Evaluate("g", at(float64(5*i)))
		states = append(states, g.CatchUp.State)
	}
	for i, s := range states {
		want := KeepingUp
		if i < h.Config().Window-1 {
			want = CatchUpUnknown // rates over fewer than Window polls
		}
		if s != want {
			t.Fatalf("poll %d: catch-up %v, want %v (all: %v)", i, s, want, states)
		}
	}
}

// TestCatchUpHoldRule: a trend changes only once the rates gave the new
// one at Hold polls in a row, keeping meanwhile the figures of the last
// poll that gave the old; caught up is a fact, taken at once both ways.
func TestCatchUpHoldRule(t *testing.T) {
	cfg := catchUpConfig()
	cfg.Window, cfg.RatePolls, cfg.Hold = 3, 2, 3
	h := NewHistory(cfg)
	type poll struct {
		c, end int64
		want   CatchUp
	}
	polls := []poll{
		{0, 1000, CatchUp{}},
		// 100/s consumed, 10/s produced over the last two polls.
		{100, 1010, CatchUp{State: CatchingUp, Seconds: 910.0 / 90}},
		{200, 1020, CatchUp{State: CatchingUp, Seconds: 820.0 / 90}},
		// One poll at 0/s consumed: falling behind once, held.
		{200, 1030, CatchUp{State: CatchingUp, Seconds: 820.0 / 90}},
		{300, 1040, CatchUp{State: CatchingUp, Seconds: 740.0 / 90}},
		// Three in a row falling behind: taken at the third.
		{300, 1050, CatchUp{State: CatchingUp, Seconds: 740.0 / 90}},
		{300, 1060, CatchUp{State: CatchingUp, Seconds: 740.0 / 90}},
		{300, 1070, CatchUp{State: FallingBehind, Behind: 10}},
		// Caught up is a fact: at once.
		{1080, 1080, CatchUp{State: CaughtUp}},
		// And after it, the rates' first answer at once.
		{1080, 1090, CatchUp{State: FallingBehind, Behind: 10}},
	}
	for i, p := range polls {
		h.Add(snap(at(float64(i)), grp("g", po("t", 0, p.c, p.end))))
		g, _ := h.Evaluate("g", at(float64(i)))
		if g.CatchUp != p.want {
			t.Errorf("poll %d (%d/%d): catch-up %+v, want %+v", i, p.c, p.end, g.CatchUp, p.want)
		}
	}
}

// members makes g a group of one member in state.
func members(g kafka.Group, state string, n int) kafka.Group {
	g.State = state
	g.Members = nil
	for range n {
		g.Members = append(g.Members, kafka.Member{MemberID: "m-1"})
	}
	return g
}

// TestMemberlessMovesAreNotConsumption: an Empty group without members
// whose offsets are reset to the log end (600 records skipped in one
// step) consumed nothing, whatever the commits did; nor does the first
// step after members return count, when the reset fell between the last
// poll without them and the first with them. Moves between two polls that
// both saw members count.
func TestMemberlessMovesAreNotConsumption(t *testing.T) {
	h := NewHistory(catchUpConfig())
	empty := func(c, end int64) kafka.Group {
		return members(grp("g", unowned(po("t", 0, c, end))), kafka.StateEmpty, 0)
	}
	live := func(c, end int64) kafka.Group {
		return members(grp("g", po("t", 0, c, end)), kafka.StateStable, 1)
	}
	steps := []kafka.Group{
		empty(100, 700), empty(100, 700), empty(700, 700), // reset to the log end
		empty(700, 760), empty(100, 820), // an undo, then the reset again as members join
		live(820, 880), live(880, 940),
	}
	wantCons := []float64{UnknownRate, 0, 0, 0, 0, 0, 60.0 / 5 / 6}
	for i, g := range steps {
		h.Add(snap(at(float64(5*i)), g))
		gh, _ := h.Evaluate("g", at(float64(5*i)))
		if got := gh.ConsumeRate; got != wantCons[i] {
			t.Errorf("poll %d: consume rate %v, want %v", i, got, wantCons[i])
		}
	}
	// A Stable group with members: every forward step counts.
	h = NewHistory(catchUpConfig())
	for i := range 3 {
		h.Add(snap(at(float64(5*i)), live(int64(100*i), 300)))
	}
	if gh, _ := h.Evaluate("g", at(10)); gh.ConsumeRate != 20 {
		t.Errorf("consume rate with members = %v, want 20", gh.ConsumeRate)
	}
	// A group whose state is not known (a failed describe) keeps its
	// moves: nothing is left out on a guess.
	h = NewHistory(catchUpConfig())
	for i := range 3 {
		g := members(grp("g", po("t", 0, int64(100*i), 300)), "", 0)
		h.Add(snap(at(float64(5*i)), g))
	}
	if gh, _ := h.Evaluate("g", at(10)); gh.ConsumeRate != 20 {
		t.Errorf("consume rate of an undescribed group = %v, want 20", gh.ConsumeRate)
	}
}

// TestSimpleGroupMovesAreConsumption: a simple group (no protocol type,
// Empty: a job that assigns its partitions itself and commits without
// members, as Flink's Kafka source does) consumes what its commits move:
// they are not a reset of an archived group.
func TestSimpleGroupMovesAreConsumption(t *testing.T) {
	h := NewHistory(catchUpConfig())
	for i := range 3 {
		g := members(grp("g", unowned(po("t", 0, int64(100*i), 300))), kafka.StateEmpty, 0)
		g.Type = kafka.TypeClassic
		h.Add(snap(at(float64(5*i)), g))
	}
	if gh, _ := h.Evaluate("g", at(10)); gh.ConsumeRate != 20 {
		t.Errorf("consume rate of a simple group = %v, want 20", gh.ConsumeRate)
	}
	if _, _, ok := h.NoMembersSince("g"); ok {
		t.Error("a simple group is said to have had no members since a time: it never has any")
	}
}

// TestMemberlessRunsStayBounded: a group whose members come and go every
// poll keeps only the runs of its ring.
func TestMemberlessRunsStayBounded(t *testing.T) {
	cfg := catchUpConfig()
	cfg.Samples = 8
	h := NewHistory(cfg)
	for i := range 100 {
		g := members(grp("g", po("t", 0, int64(i), 100)), kafka.StateEmpty, 0)
		if i%2 == 0 {
			g = members(g, kafka.StateStable, 1)
		}
		h.Add(snap(at(float64(i)), g))
	}
	if n := len(h.groups["g"].memberless); n > cfg.Samples/2+1 {
		t.Errorf("%d memberless runs kept, want at most %d", n, cfg.Samples/2+1)
	}
}
