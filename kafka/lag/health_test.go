package lag

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
)

// step is one poll of a single partition t/0 in group g.
type step struct {
	sec       float64
	committed int64
	end       int64
	owned     bool
}

// testConfig is a small window with polls one second apart in mind:
// Window 4 and MinDistance 1s, so the STOP span floor is 3s. Hold 1
// reports the rules' status at every poll; the hold rule has tests of
// its own (hold_test.go).
func testConfig() Config {
	return Config{Window: 4, MinDistance: time.Second, Samples: 20, TimePoints: 10, RatePolls: 3, EvictAfter: 3, Hold: 1}
}

func run(cfg Config, steps []step) *History {
	h := NewHistory(cfg)
	for _, s := range steps {
		p := po("t", 0, s.committed, s.end)
		if !s.owned {
			p = unowned(p)
		}
		h.Add(snap(at(s.sec), grp("g", p)))
	}
	return h
}

// seq builds owned steps one second apart from (committed, end) pairs.
func seq(owned bool, pairs ...int64) []step { return every(1, owned, pairs...) }

// every builds steps sec seconds apart from (committed, end) pairs.
func every(sec float64, owned bool, pairs ...int64) []step {
	var out []step
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, step{sec: sec * float64(i/2), committed: pairs[i], end: pairs[i+1], owned: owned})
	}
	return out
}

func TestPartitionStatus(t *testing.T) {
	tests := []struct {
		name   string
		steps  []step
		now    float64
		want   Status
		obs    int
		rewind Rewind
		wait   WaitKind
	}{
		{
			name:  "lag decreasing is OK",
			steps: seq(true, 0, 100, 20, 110, 40, 120, 60, 130, 80, 140),
			now:   4, want: StatusOK, obs: 4,
		},
		{
			// Polls 10s apart: the consumer takes 10 of every 40 records.
			name:  "lag growing while moving is WARN",
			steps: every(10, true, 0, 100, 10, 140, 20, 180, 30, 220, 40, 260),
			now:   40, want: StatusWarn, obs: 4,
		},
		{
			// Lags 100, 115, 100, 110, 105 at 20 records a poll: not
			// WARN. About 50 s behind at a 10 s rhythm is more than
			// keeping up explains (KeepUpSeconds and twice the rhythm),
			// and 40 s of commits cannot show a slow climb: it waits
			// for a trend.
			name:  "a lag wobbling within a poll's production is not WARN",
			steps: every(10, true, 0, 100, 10, 125, 30, 130, 40, 150, 55, 160),
			now:   40, want: StatusOK, obs: 4, wait: WaitTrend,
		},
		{
			// Burrow's "the lag never decreased" made this WARN: a
			// consumer that keeps up with a constant delay.
			name:  "lag flat while moving is OK",
			steps: every(10, true, 0, 100, 10, 110, 20, 120, 30, 130),
			now:   30, want: StatusOK, obs: 4,
		},
		{
			// A few records, but a third of the production: the time
			// lag at the commits climbs from 20s to 33s in 20s.
			name:  "a lag of a few records whose time lag climbs is WARN",
			steps: every(10, true, 0, 2, 1, 5, 2, 8, 3, 11, 4, 14),
			now:   40, want: StatusWarn, obs: 4,
		},
		{
			// Burrow's WARN for a tiny lag (linkedin/Burrow#223): two
			// records behind at the producer's pace is OK.
			name:  "a constant lag of a few records is OK",
			steps: every(10, true, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10),
			now:   40, want: StatusOK, obs: 4,
		},
		{
			name:  "a lag growing fast within seconds of the log end is OK",
			steps: seq(true, 0, 100, 10, 140, 20, 180, 30, 220, 40, 260),
			now:   4, want: StatusOK, obs: 4,
		},
		{
			name:  "WARN waits for a full window",
			steps: every(10, true, 0, 100, 10, 140, 20, 180),
			now:   20, want: StatusOK, obs: 3,
		},
		{
			// Commits every second (its rhythm, seen twice), then none
			// for 5s while records arrive: longer than the window (3s)
			// and twice the rhythm.
			name:  "a commit standing past twice its rhythm is STALL",
			steps: seq(true, 20, 100, 30, 110, 40, 120, 50, 130, 50, 140, 50, 150, 50, 160, 50, 170),
			now:   7, want: StatusStall, obs: 4,
		},
		{
			// The same silence after one wait: that wait may have been a
			// commit out of the consumer's rhythm (a member joining or
			// leaving commits what it holds). It waits as a commit that
			// showed no rhythm does.
			name:  "a commit standing past a rhythm seen once waits",
			steps: seq(true, 30, 100, 40, 110, 50, 120, 50, 130, 50, 140, 50, 150, 50, 160),
			now:   6, want: StatusOK, obs: 4, wait: WaitRhythm,
		},
		{
			// No commit moved while it was watched: the consumer may
			// commit rarely (checkpoints) or be stuck. It waits.
			name:  "a live member's commit that never moved waits for a rhythm",
			steps: seq(true, 50, 100, 50, 110, 50, 120, 50, 130, 50, 140, 50, 150),
			now:   5, want: StatusOK, obs: 4, wait: WaitRhythm,
		},
		{
			// Polls a minute apart: 6m without a commit is past
			// RhythmCeiling, but its time lag (at least 6m: its record
			// is older than the first poll) is within what a job
			// checkpointing every 10 minutes shows before each commit.
			name:  "a commit that never moved waits past the ceiling",
			steps: every(60, true, 50, 100, 50, 110, 50, 120, 50, 130, 50, 140, 50, 150, 50, 160),
			now:   360, want: StatusOK, obs: 4, wait: WaitRhythm,
		},
		{
			// The same 16 minutes on: no rhythm explains a time lag past
			// UnseenRhythms ceilings.
			name:  "a commit that never moved is STALL past three ceilings",
			steps: every(60, true, 50, 100, 50, 110, 50, 120, 50, 130, 50, 140, 50, 150, 50, 160, 50, 170, 50, 180, 50, 190, 50, 200, 50, 210, 50, 220, 50, 230, 50, 240, 50, 250, 50, 260),
			now:   960, want: StatusStall, obs: 4,
		},
		{
			name:  "STALL waits for a full window",
			steps: seq(true, 50, 100, 50, 110, 50, 120),
			now:   2, want: StatusOK, obs: 3,
		},
		{
			name:  "STALL with flat production",
			steps: seq(true, 20, 100, 30, 100, 40, 100, 50, 100, 50, 100, 50, 100, 50, 100, 50, 100),
			now:   7, want: StatusStall, obs: 4,
		},
		{
			name:  "zero lag within the window is OK even when stuck",
			steps: seq(true, 50, 50, 50, 60, 50, 70, 50, 80),
			now:   3, want: StatusOK, obs: 4,
		},
		{
			// Caught up at 0s, then 4s of records and no commit: the
			// wait began at the caught-up poll; with no rhythm seen it
			// waits up to RhythmCeiling.
			name:  "zero lag that left the window no longer excuses",
			steps: seq(true, 50, 50, 50, 60, 50, 70, 50, 80, 50, 90),
			now:   4, want: StatusOK, obs: 4, wait: WaitRhythm,
		},
		{
			// The same with a rhythm: caught up at 0s, commits at 1s and
			// 2s (waits of 1s), then none for 4s.
			name:  "zero lag, then a commit standing past its rhythm is STALL",
			steps: seq(true, 50, 50, 55, 60, 60, 70, 60, 80, 60, 90, 60, 100, 60, 110),
			now:   6, want: StatusStall, obs: 4,
		},
		{
			name:  "unowned offset not moving: not yet past the span floor",
			steps: seq(false, 50, 100, 50, 110, 50, 120, 50, 130),
			now:   3, want: StatusOK, obs: 1,
		},
		{
			name:  "unowned offset not moving past the span floor is STOP",
			steps: seq(false, 50, 100, 50, 110, 50, 120, 50, 130, 50, 140),
			now:   4, want: StatusStop, obs: 1,
		},
		{
			name: "silence longer than the window span is STOP",
			steps: []step{
				{0, 0, 100, false}, {2, 10, 110, false}, {4, 20, 120, false}, {6, 30, 125, false},
				{8, 30, 125, false}, {10, 30, 125, false}, {12, 30, 125, false},
			},
			now: 12.5, want: StatusStop, obs: 4,
		},
		{
			// Commits 2s apart (its rhythm), the last at 6s: STOP once
			// the silence passes twice the rhythm (4s) and the floor
			// (two polls, 4s).
			name: "silence exactly twice the rhythm is not STOP",
			steps: []step{
				{0, 0, 100, false}, {2, 10, 110, false}, {4, 20, 120, false}, {6, 30, 125, false},
				{8, 30, 125, false}, {10, 30, 125, false},
			},
			now: 10, want: StatusOK, obs: 4,
		},
		{
			name: "silence longer than twice the rhythm is STOP",
			steps: []step{
				{0, 0, 100, false}, {2, 10, 110, false}, {4, 20, 120, false}, {6, 30, 125, false},
				{8, 30, 125, false}, {10, 30, 125, false},
			},
			now: 10.5, want: StatusStop, obs: 4,
		},
		{
			name: "a caught-up stopped consumer is OK",
			steps: []step{
				{0, 0, 100, false}, {2, 100, 100, false}, {4, 100, 100, false}, {20, 100, 100, false},
			},
			now: 60, want: StatusOK, obs: 2,
		},
		{
			// It committed without members once (a job that assigns its
			// partitions itself, committing on checkpoints): it waits for
			// a second commit to show its rhythm, up to RhythmCeiling.
			name: "a job without members that committed once waits for its rhythm",
			steps: []step{
				{0, 0, 100, false}, {1, 100, 100, false}, {2, 100, 105, false}, {3, 100, 110, false},
			},
			now: 30, want: StatusOK, obs: 2, wait: WaitRhythm,
		},
		{
			name:  "an offset that went backwards is REWIND",
			steps: seq(true, 100, 200, 120, 210, 90, 220, 95, 230),
			now:   3, want: StatusRewind, obs: 4,
			rewind: Rewind{High: 120, Low: 90, At: at(2)},
		},
		{
			name:  "REWIND does not wait for a full window",
			steps: seq(true, 100, 200, 80, 200),
			now:   1, want: StatusRewind, obs: 2,
			rewind: Rewind{High: 100, Low: 80, At: at(1)},
		},
		{
			name:  "REWIND reports the first drop below the high",
			steps: seq(true, 100, 200, 80, 210, 90, 220, 85, 230),
			now:   3, want: StatusRewind, obs: 4,
			rewind: Rewind{High: 100, Low: 80, At: at(1)},
		},
		{
			name:  "a recovered rewind is not REWIND",
			steps: seq(true, 100, 200, 120, 210, 90, 220, 95, 230, 125, 240),
			now:   4, want: StatusOK, obs: 4,
		},
		{
			name:  "a second rewind after recovering is reported on its own",
			steps: seq(true, 100, 200, 80, 210, 100, 220, 70, 230),
			now:   3, want: StatusRewind, obs: 4,
			rewind: Rewind{High: 100, Low: 70, At: at(3)},
		},
		{
			name: "STOP is checked before REWIND",
			steps: []step{
				{0, 100, 200, false}, {1, 80, 200, false}, {2, 80, 201, false}, {3, 80, 202, false},
				{4, 80, 203, false}, {5, 80, 204, false},
			},
			now: 5, want: StatusStop, obs: 2,
		},
		{
			name:  "owned with no commit for a full window is NO-COMMITS",
			steps: seq(true, kafka.NoOffset, 100, kafka.NoOffset, 200, kafka.NoOffset, 300, kafka.NoOffset, 400, kafka.NoOffset, 500),
			now:   4, want: StatusNoCommits, obs: 4,
		},
		{
			name:  "owned with no commit, window not full: OK so far",
			steps: seq(true, kafka.NoOffset, 100, kafka.NoOffset, 200, kafka.NoOffset, 300),
			now:   2, want: StatusOK, obs: 3,
		},
		{
			name: "polls closer than MinDistance count once",
			steps: []step{
				{0, kafka.NoOffset, 100, true}, {0.5, kafka.NoOffset, 100, true}, {1, kafka.NoOffset, 100, true},
				{1.5, kafka.NoOffset, 100, true}, {2.2, kafka.NoOffset, 100, true}, {2.9, kafka.NoOffset, 100, true},
			},
			now: 2.9, want: StatusOK, obs: 3,
		},
		{
			name: "a poll without an owner ends the run",
			steps: []step{
				{0, kafka.NoOffset, 100, true}, {1, kafka.NoOffset, 100, true}, {2, kafka.NoOffset, 100, false},
				{3, kafka.NoOffset, 100, true}, {4, kafka.NoOffset, 100, true}, {5, kafka.NoOffset, 100, true},
			},
			now: 5, want: StatusOK, obs: 3,
		},
		{
			name:  "a first commit ends NO-COMMITS",
			steps: seq(true, kafka.NoOffset, 100, kafka.NoOffset, 200, kafka.NoOffset, 300, kafka.NoOffset, 400, 350, 500),
			now:   4, want: StatusOK, obs: 1,
		},
		{
			name:  "no commit and no owner is not judged",
			steps: seq(false, kafka.NoOffset, 100, kafka.NoOffset, 200, kafka.NoOffset, 300, kafka.NoOffset, 400, kafka.NoOffset, 500),
			now:   60, want: StatusOK, obs: 0,
		},
		{
			name:  "an empty partition is OK",
			steps: seq(false, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
			now:   60, want: StatusOK, obs: 1,
		},
		{
			name:  "an unknown log end is OK",
			steps: seq(true, 50, 100, 50, 110, 50, 120, 50, kafka.NoOffset),
			now:   3, want: StatusOK, obs: 4,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := run(testConfig(), tc.steps)
			g, ok := h.Evaluate("g", at(tc.now))
			if !ok {
				t.Fatal("group not found")
			}
			if len(g.Partitions) != 1 {
				t.Fatalf("partitions = %d, want 1", len(g.Partitions))
			}
			p := g.Partitions[0]
			if p.Status != tc.want {
				t.Errorf("status = %v, want %v", p.Status, tc.want)
			}
			if p.Wait.Kind != tc.wait {
				t.Errorf("wait = %v, want %v", p.Wait.Kind, tc.wait)
			}
			if p.Observations != tc.obs {
				t.Errorf("observations = %d, want %d", p.Observations, tc.obs)
			}
			if p.Rewind.High != tc.rewind.High || p.Rewind.Low != tc.rewind.Low || !p.Rewind.At.Equal(tc.rewind.At) {
				t.Errorf("rewind = %+v, want %+v", p.Rewind, tc.rewind)
			}
			if g.Status != tc.want || g.Severity != tc.want.Severity() {
				t.Errorf("group = %v/%v, want %v/%v", g.Status, g.Severity, tc.want, tc.want.Severity())
			}
		})
	}
}

// A consumer that stops committing but stays a member is STALL; once its
// member leaves, it is STOP: its silence already outgrew its rhythm.
func TestStallThenStop(t *testing.T) {
	h := NewHistory(testConfig())
	add := func(sec float64, c, end int64, owned bool) {
		p := po("t", 0, c, end)
		if !owned {
			p = unowned(p)
		}
		h.Add(snap(at(sec), grp("g", p)))
	}
	status := func(sec float64) Status {
		g, _ := h.Evaluate("g", at(sec))
		return g.Partitions[0].Status
	}
	for i := range 4 {
		add(float64(i), int64(20*i), 100+int64(10*i), true)
	}
	if s := status(3); s != StatusOK {
		t.Fatalf("moving consumer = %v, want OK", s)
	}
	for i := 4; i < 8; i++ {
		add(float64(i), 60, 100+int64(10*i), true)
	}
	if s := status(7); s != StatusStall {
		t.Fatalf("stuck member = %v, want STALL", s)
	}
	// Member gone at 8s: the commit has stood since 3s, past twice its
	// 1s rhythm and the 3s floor.
	add(8, 60, 180, false)
	if s := status(8); s != StatusStop {
		t.Fatalf("member gone after 5s of silence = %v, want STOP", s)
	}
	// Committing again ends the STOP.
	add(12, 200, 220, true)
	if s := status(12); s != StatusOK {
		t.Fatalf("resumed = %v, want OK", s)
	}
}

func TestPartitionHealthFields(t *testing.T) {
	h := NewHistory(testConfig())
	p := po("t", 0, 100, 1000)
	p.LogStart = 500
	h.Add(snap(at(0), grp("g", unowned(p))))
	p.LogEnd, p.Lag = 1100, 1000
	h.Add(snap(at(1), grp("g", p)))
	g, ok := h.Evaluate("g", at(1))
	if !ok {
		t.Fatal("group not found")
	}
	got := g.Partitions[0]
	if got.Committed != 100 || got.LogStart != 500 || got.LogEnd != 1100 || got.Lag != 1000 {
		t.Errorf("offsets = %d/%d/%d lag %d, want 100/500/1100 lag 1000", got.Committed, got.LogStart, got.LogEnd, got.Lag)
	}
	if !got.Truncated {
		t.Error("committed below log start not reported as truncated")
	}
	if !got.Owned {
		t.Error("owned partition reported unowned")
	}
	// The commit is older than every point: the log end had passed it
	// at the oldest point (1000, 0s), so it is at least 1s behind, and
	// nothing is extrapolated.
	if got.TimeLag != (TimeLag{Seconds: 1, Kind: TimeLagAtLeast}) {
		t.Errorf("time lag = %+v, want at least 1s", got.TimeLag)
	}
}

func TestGroupHealth(t *testing.T) {
	h := NewHistory(testConfig())
	// t/0 is another member's: t/1's member keeps up where it works
	// (u/0, a few records behind throughout), so nothing keeps t/1
	// waiting its turn. (A member that drains a backlog on u/0 while t/1
	// stands serves them in turn: TestATurnSeenThroughAShortWindow.)
	other := func(p kafka.PartitionOffsets) kafka.PartitionOffsets { p.MemberID = "m-2"; return p }
	for i := range 5 {
		sec := float64(i)
		h.Add(snap(at(sec),
			grp("g",
				other(po("t", 0, int64(10*i), 100+int64(10*i))), // lag flat: keeps up, OK
				po("t", 1, 50, 100+int64(20*i)),                 // stuck: STALL past t/0's 1s rhythm
				po("t", 2, kafka.NoOffset, 7),                   // owned, no commit: NO-COMMITS
				po("u", 0, 90+int64(10*i), 100+int64(10*i)),     // keeps up: OK
			),
			grp("ok", po("t", 0, int64(10*i), int64(10*i))),
		))
	}
	g, ok := h.Evaluate("g", at(4))
	if !ok {
		t.Fatal("group not found")
	}
	want := []Status{StatusOK, StatusStall, StatusNoCommits, StatusOK}
	if len(g.Partitions) != len(want) {
		t.Fatalf("partitions = %d, want %d", len(g.Partitions), len(want))
	}
	for i, w := range want {
		if g.Partitions[i].Status != w {
			t.Errorf("partition %d status = %v, want %v", i, g.Partitions[i].Status, w)
		}
	}
	if g.Group != "g" || g.Status != StatusStall || g.Severity != SeverityErr {
		t.Errorf("group %q = %v/%v, want g STALL/ERR", g.Group, g.Status, g.Severity)
	}
	// Lags at 4s: 100 + 130 + unknown + 10.
	if g.TotalLag != 240 {
		t.Errorf("total lag = %d, want 240", g.TotalLag)
	}
	if !g.Complete {
		t.Error("full windows reported incomplete")
	}
	// Rates over the last 3 polls (1s..3s): produce 10+20+0+10 (t/2 is
	// flat at 7), consume 10+0+10 (t/2 has no commit).
	if g.ProduceRate != 40 || g.ConsumeRate != 20 {
		t.Errorf("rates = %v/%v, want 40/20", g.ProduceRate, g.ConsumeRate)
	}
	if g.CatchUp != (CatchUp{State: FallingBehind, Behind: 20}) {
		t.Errorf("catch-up = %+v, want falling behind by 20", g.CatchUp)
	}
	// Both commits are older than the first point (log end 100 at 0s):
	// each is at least 4s behind, however fast the log grew before.
	if g.MaxTimeLag != (TimeLag{Seconds: 4, Kind: TimeLagAtLeast}) {
		t.Errorf("max time lag = %+v, want at least 4s", g.MaxTimeLag)
	}
	if tl := g.Partitions[1].TimeLag; tl != (TimeLag{Seconds: 4, Kind: TimeLagAtLeast}) {
		t.Errorf("t/1 time lag = %+v, want at least 4s", tl)
	}

	ok2, _ := h.Evaluate("ok", at(3))
	if ok2.Status != StatusOK || ok2.Severity != SeverityOK || ok2.TotalLag != 0 || ok2.CatchUp.State != CaughtUp {
		t.Errorf("ok group = %v/%v lag %d %v, want OK/OK 0 caught-up", ok2.Status, ok2.Severity, ok2.TotalLag, ok2.CatchUp.State)
	}
	if ok2.MaxTimeLag != (TimeLag{Kind: TimeLagCaughtUp}) {
		t.Errorf("ok group time lag = %+v, want caught up", ok2.MaxTimeLag)
	}
}

func TestGroupIncompleteWindow(t *testing.T) {
	h := run(testConfig(), seq(true, 0, 100, 10, 120))
	g, _ := h.Evaluate("g", at(1))
	if g.Complete {
		t.Error("a lagging partition with 2 of 4 observations reported complete")
	}
	if g.Status != StatusOK {
		t.Errorf("status = %v, want OK", g.Status)
	}
}

func TestEvaluateVanishedGroupAndPartition(t *testing.T) {
	h := NewHistory(testConfig())
	h.Add(snap(at(0), grp("a", po("t", 0, 1, 5), po("t", 1, 2, 5)), grp("b", po("t", 0, 1, 5))))
	h.Add(snap(at(1), grp("a", po("t", 1, 3, 6))))
	if _, ok := h.Evaluate("b", at(1)); ok {
		t.Error("group missing from the latest poll was evaluated")
	}
	if _, ok := h.Evaluate("nope", at(1)); ok {
		t.Error("unknown group was evaluated")
	}
	g, ok := h.Evaluate("a", at(1))
	if !ok {
		t.Fatal("group a not found")
	}
	if len(g.Partitions) != 1 || g.Partitions[0].Partition != 1 || g.TotalLag != 3 {
		t.Fatalf("partitions = %+v total %d, want only t/1 with lag 3", g.Partitions, g.TotalLag)
	}
	// t/1 keeps its history across the change of set.
	if g.Partitions[0].Observations != 2 {
		t.Errorf("t/1 observations = %d, want 2", g.Partitions[0].Observations)
	}
	// The partition that comes back within EvictAfter keeps its history.
	h.Add(snap(at(2), grp("a", po("t", 0, 1, 9), po("t", 1, 3, 6))))
	g, _ = h.Evaluate("a", at(2))
	if p := g.Partitions[0]; p.Partition != 0 || p.ProduceRate != 2 {
		t.Errorf("returning t/0 = partition %d produce %v, want 0 and 2/s over 0s..2s", p.Partition, p.ProduceRate)
	}
}

func TestEvaluateIntoReusesBuffer(t *testing.T) {
	h := run(testConfig(), seq(true, 0, 10, 5, 10))
	buf := make([]PartitionHealth, 0, 4)
	g, _ := h.EvaluateInto("g", at(1), buf)
	if &g.Partitions[:1][0] != &buf[:1][0] {
		t.Error("EvaluateInto did not reuse the buffer")
	}
}

// TestMaxTimeLagTieIsALowerBound: one partition interpolated at 5s and
// another at least 5s behind. The group is at least 5s behind, not exactly
// 5s: on a tie the lower bound wins, whichever partition comes first.
func TestMaxTimeLagTieIsALowerBound(t *testing.T) {
	for _, order := range [][2]int{{0, 1}, {1, 0}} {
		h := NewHistory(Config{})
		// a/0 is caught up at 0s, then 10 behind at 5s: its commit was
		// written between the polls (interpolated, 5s). a/1's commit is
		// below the first log end: at least 5s behind.
		polls := [2][2]kafka.PartitionOffsets{
			{po("a", 0, 100, 100), po("a", 1, 40, 90)},
			{po("a", 0, 100, 110), po("a", 1, 40, 95)},
		}
		for i, ps := range polls {
			h.Add(snap(at(5*float64(i)), grp("g", ps[order[0]], ps[order[1]])))
		}
		g, ok := h.Evaluate("g", at(5))
		if !ok {
			t.Fatal("group not found")
		}
		if g.MaxTimeLag != (TimeLag{Seconds: 5, Kind: TimeLagAtLeast}) {
			t.Errorf("order %v: max time lag = %+v, want at least 5s", order, g.MaxTimeLag)
		}
	}
}

// TestSimpleGroupWaitsForItsRhythm: a simple group (Empty, no protocol
// type: no member ever joined; a job that assigns its partitions itself
// and commits on checkpoints minutes apart) whose commit has not moved
// while watched is not judged stopped on the window alone: it waits for
// its rhythm up to RhythmCeiling, then is STOP. The same group once a
// member had joined it (protocol type "consumer": its members left) is
// STOP as soon as the silence passes the floor.
func TestSimpleGroupWaitsForItsRhythm(t *testing.T) {
	group := func(protocolType string, c, end int64) kafka.Group {
		g := kafka.Group{Name: "g", Type: kafka.TypeClassic, ProtocolType: protocolType, State: kafka.StateEmpty,
			Partitions: []kafka.PartitionOffsets{unowned(po("t", 0, c, end))}}
		return g
	}
	for _, tc := range []struct {
		name, protocolType string
		now                float64
		want               Status
		wait               WaitKind
	}{
		{"simple, past the floor", "", 10, StatusOK, WaitRhythm},
		{"simple, at the ceiling", "", RhythmCeiling.Seconds(), StatusOK, WaitRhythm},
		{"simple, past the ceiling", "", RhythmCeiling.Seconds() + 1, StatusOK, WaitRhythm},
		{"simple, past three ceilings", "", UnseenRhythms*RhythmCeiling.Seconds() + 1, StatusStop, WaitNone},
		{"once joined, past the floor", "consumer", 10, StatusStop, WaitNone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := NewHistory(testConfig())
			for s := 0.0; s <= tc.now; s++ {
				h.Add(snap(at(s), group(tc.protocolType, 50, 100+int64(s))))
			}
			g, ok := h.Evaluate("g", at(tc.now))
			if !ok || len(g.Partitions) != 1 {
				t.Fatalf("group: %+v, %v", g, ok)
			}
			p := g.Partitions[0]
			if p.Status != tc.want || p.Wait.Kind != tc.wait {
				t.Errorf("status %v, wait %v; want %v, %v", p.Status, p.Wait.Kind, tc.want, tc.wait)
			}
			// Its job may checkpoint every 10 minutes: it has not caught
			// up for as long as its time lag says (at least its
			// silence: the record is older than the first poll), and
			// STOP comes once that passes three ceilings.
			if tc.wait == WaitRhythm && (p.Wait.Need != UnseenRhythms*RhythmCeiling || p.Wait.Then != StatusStop) {
				t.Errorf("wait %+v: want STOP after %v", p.Wait, UnseenRhythms*RhythmCeiling)
			}
			// The group's verdict says what it waits for, not a count
			// of observations a standing commit never adds to.
			if v := Judge(g, testConfig().Window); tc.wait == WaitRhythm {
				want := "no commit in " + span(time.Duration(tc.now*float64(time.Second))) + " and no rhythm seen yet: STOP after 15m unless it commits"
				if v.Text() != JudgingText || v.Reason() != want {
					t.Errorf("verdict %q (%q), want %q (%q)", v.Text(), v.Reason(), JudgingText, want)
				}
			}
		})
	}
}

// TestResumedAfterStallJudgesItsOwnCommits: a consumer that keeps up,
// stalls for ten minutes, then works off the backlog at twice its
// producers' rate is catching up. The commits from before the stall and
// the climb the stall made say nothing of how it reads now: its trend
// starts again at the first commit after the STALL, it waits for three
// commits of its own, and it is never called falling behind.
func TestResumedAfterStallJudgesItsOwnCommits(t *testing.T) {
	h := NewHistory(DefaultConfig())
	const rate = 10 // records a second, steady
	c := int64(0)
	verdicts := map[float64]Status{}
	waits := map[float64]WaitKind{}
	add := func(sec float64) {
		h.Add(snap(at(sec), grp("g", po("t", 0, c, int64(sec*rate)))))
		g, ok := h.Evaluate("g", at(sec))
		if !ok {
			t.Fatalf("%.0fs: group not judged", sec)
		}
		verdicts[sec], waits[sec] = g.Partitions[0].Status, g.Partitions[0].Wait.Kind
	}
	sec := 0.0
	for ; sec < 120; sec += 5 { // keeps up: commits 5 records behind the head
		c = max(0, int64(sec*rate)-5)
		add(sec)
	}
	if verdicts[115] != StatusOK || waits[115] != WaitNone {
		t.Fatalf("keeping up at 115s: %v (wait %v), want OK", verdicts[115], waits[115])
	}
	for ; sec < 720; sec += 5 { // stalls
		add(sec)
	}
	if verdicts[715] != StatusStall {
		t.Fatalf("after 10m without a commit: %v, want STALL", verdicts[715])
	}
	for ; sec < 1200; sec += 5 { // reads 20 records a second
		c = min(int64(sec*rate), c+5*2*rate)
		add(sec)
	}
	if verdicts[720] != StatusOK || waits[720] != WaitTrend {
		t.Errorf("first commit after the stall: %v (wait %v), want OK waiting for a trend (JUDGING)", verdicts[720], waits[720])
	}
	for s := 720.0; s < 1200; s += 5 {
		if verdicts[s] != StatusOK {
			t.Errorf("%.0fs, catching up: %v, want OK", s, verdicts[s])
		}
	}
	if waits[1195] != WaitNone {
		t.Errorf("catching up at 1195s: still waits (%v)", waits[1195])
	}
}

// TestStandingCommitOnAShortRhythmWaitsWithinSeconds: a consumer that
// commits every second keeps up, then stops committing one partition
// while records keep arriving. Its time lag climbing past half the
// silence and the noise of sampling says it is no longer keeping up
// within seconds, long before the window a trend needs: the verdict
// waits (JUDGING) instead of reading OK until STALL. It waited about a
// second while it kept up, so the wait says so (WaitCalm: past twice
// that and the noise since it was about caught up).
func TestStandingCommitOnAShortRhythmWaitsWithinSeconds(t *testing.T) {
	h := NewHistory(DefaultConfig())
	const rate = 10
	c := int64(0)
	wait := func(sec float64) (Status, WaitKind) {
		g, ok := h.Evaluate("g", at(sec))
		if !ok {
			t.Fatalf("%.0fs: group not judged", sec)
		}
		return g.Partitions[0].Status, g.Partitions[0].Wait.Kind
	}
	for sec := 0.0; sec <= 150; sec++ {
		if sec <= 120 {
			c = int64(sec*rate) - 2
		}
		h.Add(snap(at(sec), grp("g", po("t", 0, max(c, 0), int64(sec*rate)))))
		switch sec {
		case 120, 130:
			if s, w := wait(sec); s != StatusOK || w != WaitNone {
				t.Errorf("%.0fs (%.0fs without a commit): %v, wait %v; want OK", sec, sec-120, s, w)
			}
		case 142:
			if s, w := wait(sec); s != StatusOK || w != WaitCalm {
				t.Errorf("%.0fs (22s without a commit, time lag 22s): %v, wait %v; want JUDGING (WaitCalm)", sec, s, w)
			}
		}
	}
}

// TestOneWaitFromRestIsNoRhythm: a consumer on a 2-minute timer serves a
// partition at rest. Records start to arrive at 60s and its timer fires
// 20s later: that first wait is a sixth of its period, not its rhythm,
// so a silence of 95s after it waits (WaitRhythm, up to the ceiling)
// instead of reading STALL. Its next commits, a full period apart, are
// its rhythm: a silence within twice that is not STALL, and one past it
// is.
func TestOneWaitFromRestIsNoRhythm(t *testing.T) {
	h := NewHistory(DefaultConfig())
	const rate = 10
	c, end := int64(100), int64(100)
	for sec := 0.0; sec <= 570; sec += 5 {
		if sec > 60 {
			end += 5 * rate
		}
		if sec == 80 || sec == 200 || sec == 320 {
			c = end
		}
		h.Add(snap(at(sec), grp("g", po("t", 0, c, end))))
		g, ok := h.Evaluate("g", at(sec))
		if !ok {
			t.Fatalf("%.0fs: group not judged", sec)
		}
		p := g.Partitions[0]
		switch sec {
		case 175:
			// Its time lag, 95s, says it was caught up 95s ago: a
			// rhythm up to two ceilings explains that, so STALL comes
			// once it passes three (UnseenRhythms), 15m from its
			// commit.
			want := "no commit in 1m35s and one wait (~20s) seen, no rhythm yet: STALL after 15m unless it commits"
			if p.Status != StatusOK || p.Wait.Kind != WaitRhythm || p.Wait.Reason() != want {
				t.Errorf("%.0fs (95s after a first wait of 20s): %v, %q; want JUDGING %q", sec, p.Status, p.Wait.Reason(), want)
			}
		case 300, 440, 555:
			if p.Status == StatusStall {
				t.Errorf("%.0fs (%.0fs after a commit, waits of 2m): STALL within twice its rhythm", sec, sec-float64(min(sec, 320)))
			}
		case 570:
			if p.Status != StatusStall {
				t.Errorf("%.0fs (4m10s after a wait of 2m): %v, %q; want STALL", sec, p.Status, p.Wait.Reason())
			}
		}
	}
}

// TestFadedRewindBetweenPolls: a simple group's job commits every 30s
// with records waiting, then a reset takes it back 200 records: REWIND at
// the poll that saw it, with its drop. When the broker stops answering,
// the verdicts are evaluated later without a new poll: 50s on, the
// event's hold (one floor, 45s) has passed and the job's commit is past
// its rhythm but within twice it, so the partition waits for the job's
// next commit, as the rules say now, rather than show the held REWIND
// with an empty drop.
func TestFadedRewindBetweenPolls(t *testing.T) {
	h := NewHistory(DefaultConfig())
	simple := func(committed int64) kafka.Group {
		return kafka.Group{Name: "g", Type: kafka.TypeClassic, State: kafka.StateEmpty,
			Partitions: []kafka.PartitionOffsets{unowned(po("t", 0, committed, 10000))}}
	}
	var last, c float64
	for sec := 0.0; sec <= 335; sec += 5 {
		if int(sec)%30 == 0 {
			c = sec
		}
		if sec == 335 {
			c = 100 // 5s after its commit at 330
		}
		h.Add(snap(at(sec), simple(int64(c))))
		last = sec
	}
	g, ok := h.Evaluate("g", at(last))
	if p := g.Partitions[0]; !ok || p.Status != StatusRewind || p.Rewind.High != 330 || p.Rewind.Low != 100 {
		t.Fatalf("at the poll: %v %+v, want REWIND 330->100", p.Status, p.Rewind)
	}
	g, _ = h.Evaluate("g", at(last+50))
	if p := g.Partitions[0]; p.Status != StatusOK || p.Wait.Kind != WaitRhythm {
		t.Errorf("50s after the last poll: %v %+v, wait %v; want the REWIND faded and a wait for the job's next commit", p.Status, p.Rewind, p.Wait.Kind)
	}
}

// TestUnseenRhythmWaitsOnTheSilence: a consumer whose commit stands from
// the first poll showed no rhythm. It is STALL once the silence passes
// three ceilings (UnseenRhythms, 15m), the longest rhythm a consumer
// could have shown and a ceiling beyond it, whatever its time lag: one
// stuck 20m or 7m before kgroups watched, or as kgroups starts, reads
// JUDGING until then. Its time lag cannot tell a halt from a rare
// rhythm: a job that checkpoints every 10 minutes shows a time lag
// climbing to 10 minutes before each commit, and one that falls behind
// on that rhythm a time lag past 15 minutes, as a consumer stuck long
// before does. Neither is ever STALL (the second was STALL at 310s when
// the time lag decided).
func TestUnseenRhythmWaitsOnTheSilence(t *testing.T) {
	const rate = 10 // records a second
	for _, tc := range []struct {
		name string
		// written is when the record at the first poll's commit was
		// written (seconds; nil: at its log end, caught up), every how
		// often the consumer commits (0: never), share the share of the
		// records produced since its last commit it has read when it
		// commits (0: all, at the log end).
		written *float64
		every   float64
		share   float64
		judging []float64 // polls that wait, with STALL after 15m
		stall   float64   // the first poll that is STALL (0: none)
	}{
		{name: "stuck 20m before", written: ptr(-1200.0), judging: []float64{60, 300, 880}, stall: 910},
		{name: "stuck 7m before", written: ptr(-420.0), judging: []float64{300, 490, 880}, stall: 910},
		{name: "stops as watched", judging: []float64{300, 880}, stall: 910},
		{name: "checkpoints every 10m", every: 600},
		{name: "falls behind on 10m checkpoints", written: ptr(-1200.0), every: 600, share: 0.25, judging: []float64{300, 590}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := NewHistory(DefaultConfig())
			c, end := int64(50), int64(100)
			if tc.written == nil {
				c = end
			}
			var stalled []float64
			for sec := 0.0; sec <= 2400; sec += 10 {
				if sec > 0 {
					end += 10 * rate
				}
				if tc.every > 0 && sec > 0 && math.Mod(sec, tc.every) == 0 {
					c = end
					if tc.share > 0 {
						c = 50 + int64(tc.share*float64(end-100))
					}
				}
				h.Add(snap(at(sec), grp("g", po("t", 0, c, end))))
				if tc.written != nil && c == 50 {
					key := kafka.CommitKey{Topic: "t", Partition: 0, Offset: 50}
					h.AddExact(map[kafka.CommitKey]kafka.RecordTime{key: {Offset: 50, Timestamp: at(*tc.written)}})
				}
				g, ok := h.Evaluate("g", at(sec))
				if !ok {
					t.Fatalf("%.0fs: group not judged", sec)
				}
				p := g.Partitions[0]
				if p.Status == StatusStall {
					stalled = append(stalled, sec)
				}
				if slices.Contains(tc.judging, sec) {
					want := fmt.Sprintf("no commit in %s and no rhythm seen yet: STALL after 15m unless it commits", span(time.Duration(sec)*time.Second))
					if p.Status != StatusOK || p.Wait.Kind != WaitRhythm || p.Wait.Reason() != want {
						t.Errorf("%.0fs: %v, %q; want JUDGING %q", sec, p.Status, p.Wait.Reason(), want)
					}
				}
			}
			switch {
			case tc.stall == 0 && len(stalled) > 0:
				t.Errorf("STALL at %v, want never", stalled[:min(len(stalled), 5)])
			case tc.stall > 0 && (len(stalled) == 0 || stalled[0] != tc.stall):
				t.Errorf("STALL at %v, want first at %.0fs", stalled[:min(len(stalled), 5)], tc.stall)
			case tc.stall > 0 && !slices.Contains(stalled, 2400):
				t.Errorf("STALL at %v, want at 2400s too", stalled)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// TestABacklogAtTheCommitBeingMade: a consumer first seen caught up,
// whose commit then stood 505 s while records arrived ten a second (its
// rhythm, that one wait, is 8m25s), then reads them at their producers'
// rate, 500 s behind, committing every 5 s, polled every second. Until
// its commits make a trend, a backlog at its newest commit waits
// (backlogAtCommit). That commit's time lag is read after the poll is
// judged, so at each poll that saw a commit the rule read the one before
// as the newest and the new one as unknown: OK at each commit, JUDGING
// at the four polls between, for 45 s. It now reads the new commit's
// time lag as the poll is judged (History.judgedTimeLag): JUDGING
// throughout, then OK once the trend decides, one change. So on rhythms
// and polls it was not written for: commits every second (OK from the
// first commit before: no wait at all), every 10 s polled every second
// or every 5 s, every 30 s polled every 5 s (each OK and JUDGING in
// turn before) and every 30 s polled every 10 s.
func TestABacklogAtTheCommitBeingMade(t *testing.T) {
	for _, tc := range []struct{ every, poll int }{{5, 1}, {1, 1}, {10, 1}, {10, 5}, {30, 5}, {30, 10}} {
		h := NewHistory(DefaultConfig())
		var seq []string
		c := int64(0)
		for s := 0; s <= 900; s += tc.poll {
			if s >= 505 && s%tc.every == 0 {
				c = int64(10 * (s - 500))
			}
			addReading(h, s, c, int64(10*s), func(o int64) float64 { return float64(o) / 10 })
			if s < 505 {
				continue
			}
			gh, _ := h.Evaluate("g", at(float64(s)))
			v := Judge(gh, h.Config().Window)
			if n := len(seq); n == 0 || seq[n-1] != v.Text() {
				seq = append(seq, v.Text())
			}
		}
		if got := strings.Join(seq, " "); got != "JUDGING OK" {
			t.Errorf("commits every %d s, polls every %d s: from the first commit to 900 s: %s, want JUDGING, then OK", tc.every, tc.poll, got)
		}
	}
}

// addReading adds the poll at second s of group g's partition t/0, owned
// by m-1, committed at c with its log end at end, then gives the history
// the records at its commits it asks for, stamped at stamp(o) seconds: a
// poll judged as it is added, its records read after, as the UI reads
// them.
func addReading(h *History, s int, c, end int64, stamp func(o int64) float64) {
	g := grp("g", po("t", 0, c, end))
	g.Members = []kafka.Member{{MemberID: "m-1"}}
	h.Add(snap(at(float64(s)), g))
	if want := h.WantExact(0, nil); len(want) > 0 {
		recs := make(map[kafka.CommitKey]kafka.RecordTime, len(want))
		for _, p := range want {
			k := kafka.CommitKey{Topic: p.Topic, Partition: p.Partition, Offset: p.Committed}
			recs[k] = kafka.RecordTime{Offset: p.Committed, Timestamp: at(stamp(p.Committed))}
		}
		h.AddExact(recs)
	}
}

// climbRun polls one partition every poll seconds for 25 minutes: end(s) is its
// log end at second s, stamp(o) the timestamp of record o (seconds), and
// the consumer commits every every seconds at tl[k] seconds behind (the
// offset whose record is that old) from its k-th commit at 600 s on, and
// at tl[0] before. It returns each change of the verdict's text
// from 600 s on, with the reason of each JUDGING.
func climbRun(poll, every int, end func(s int) int64, stamp func(o int64) float64, tl []float64) []string {
	h := NewHistory(DefaultConfig())
	var seq []string
	c := int64(-1)
	for s := 0; s <= 1500; s += poll {
		if s > 0 && s%every == 0 {
			// The offset of the first record no older than tl[k].
			behind := tl[0]
			if k := (s - 600) / every; s >= 600 {
				behind = tl[min(k, len(tl)-1)]
			}
			c = int64(sort.Search(int(end(s)), func(o int) bool { return stamp(int64(o)) >= float64(s)-behind }))
		}
		addReading(h, s, c, end(s), stamp)
		if s < 600 {
			continue
		}
		gh, _ := h.Evaluate("g", at(float64(s)))
		v := Judge(gh, h.Config().Window)
		text := v.Text()
		if v.Judging() {
			text += " (" + v.Reason() + ")"
		}
		if n := len(seq); n == 0 || seq[n-1][strings.Index(seq[n-1], " ")+1:] != text {
			seq = append(seq, fmt.Sprintf("%d %s", s, text))
		}
	}
	return seq
}

// TestACommitFurtherBehindEachTime: a consumer that commits every two
// minutes and falls to 90% of its producers' rate reads OK until its
// trend's thirds climb past their share of its span (WARN at 1,360 s).
// From its first commit past the noise above every one before it (730
// s) it reads JUDGING, a step or the start of a climb that its next
// commit tells (History.newHigh); each commit after it is a new high
// again, and from its fourth commit further behind than the one before
// (960 s) the climb is said (History.roseAtEach). On commits every
// minute the climb is said from its fourth rising commit and every 30 s
// from its fifth (3 s a commit passes half the noise at each half of the
// run only then; no commit rises past the noise alone), the trend's WARN
// as before; a climb that began after a creep within the noise reads
// JUDGING from its first new high, a step, and from the commit that
// climbs on past half the noise, a climb of three commits. A step, after a creep or held since,
// reads JUDGING until the next commit, level with it, tells; two rises
// and a fall until the fall. Commits that rise at each by less than the
// noise in all read OK; a catch-up through records written faster than
// they are now (the time lag at each commit 48 s higher, the lag lower)
// reads no climb at each commit, and OK at its new highs while its lag
// in records falls; at 1,200 s, its commit past the records written
// faster, the lag grew 60 records at the new high, and it reads
// JUDGING, the climb of its last three commits (OK without it).
func TestACommitFurtherBehindEachTime(t *testing.T) {
	steady := func(s int) int64 { return int64(10 * s) }
	atTen := func(o int64) float64 { return float64(o) / 10 }
	// Twenty records a second until 600 s, five after.
	slowed := func(s int) int64 {
		if s <= 600 {
			return int64(20 * s)
		}
		return 12000 + int64(5*(s-600))
	}
	slowedAt := func(o int64) float64 {
		if o <= 12000 {
			return float64(o) / 20
		}
		return 600 + float64(o-12000)/5
	}
	const rose = "JUDGING (its time lag rose at each of its last "
	step := func(at int, rise string) string {
		return fmt.Sprintf("%d JUDGING (its latest commit is %s further behind than the ones before: its next commit, ~2m after it, tells a step from a climb)", at, rise)
	}
	// The time lags at the commits, every seconds apart, of a consumer
	// at 90% of its producers from 600 s to 1,500 s.
	atNinety := func(every int) []float64 {
		var tl []float64
		for k := 0; 600+k*every <= 1500; k++ {
			tl = append(tl, 0.1*float64(k*every))
		}
		return tl
	}
	for _, c := range []struct {
		name  string
		poll  int
		every int
		end   func(s int) int64
		stamp func(o int64) float64
		tl    []float64
		want  []string
	}{
		{name: "at 90% of its producers from 600 s", end: steady, stamp: atTen,
			tl: []float64{0, 12, 24, 36, 48, 60, 72, 84},
			want: []string{"600 OK", step(730, "12s"), "960 " + rose + "4 commits, 36s in 6m: not OK while it climbs)",
				"1080 " + rose + "5 commits, 48s in 8m: not OK while it climbs)",
				"1200 " + rose + "6 commits, 1m in 10m: not OK while it climbs)",
				"1320 " + rose + "7 commits, 1m12s in 12m: not OK while it climbs)", "1360 WARN"}},
		{name: "the same, polled every second (a commit's record older than the polls held: read after the poll)",
			poll: 1, end: steady, stamp: atTen,
			tl: []float64{0, 12, 24, 36, 48, 60, 72, 84},
			want: []string{"600 OK", step(720, "12s"), "960 " + rose + "4 commits, 36s in 6m: not OK while it climbs)",
				"1080 " + rose + "5 commits, 48s in 8m: not OK while it climbs)",
				"1200 " + rose + "6 commits, 1m in 10m: not OK while it climbs)",
				"1320 " + rose + "7 commits, 1m12s in 12m: not OK while it climbs)", "1364 WARN"}},
		{name: "creeping within the noise, then climbing", end: steady, stamp: atTen,
			tl: []float64{0, 1, 2, 3, 15, 27, 39},
			want: []string{"600 OK", step(1090, "12s"), "1200 " + rose + "3 commits, 24s in 4m: not OK while it climbs)",
				"1320 " + rose + "5 commits, 37s in 8m: not OK while it climbs)", "1440 OK"}},
		{name: "at 90% of its producers from 600 s, commits every 30 s", poll: 5, every: 30, end: steady, stamp: atTen,
			tl: atNinety(30),
			want: []string{"600 OK", "720 " + rose + "5 commits, 12s in 2m: not OK while it climbs)",
				"750 " + rose + "6 commits, 15s in 2m30s: not OK while it climbs)",
				"780 " + rose + "7 commits, 18s in 3m: not OK while it climbs)", "805 WARN"}},
		{name: "at 90% of its producers from 600 s, commits every minute", poll: 5, every: 60, end: steady, stamp: atTen,
			tl: atNinety(60),
			want: []string{"600 OK", "780 " + rose + "4 commits, 18s in 3m: not OK while it climbs)",
				"840 " + rose + "5 commits, 24s in 4m: not OK while it climbs)",
				"900 " + rose + "6 commits, 30s in 5m: not OK while it climbs)",
				"960 " + rose + "7 commits, 36s in 6m: not OK while it climbs)", "1000 WARN"}},
		{name: "rising at each by less than the noise in all", end: steady, stamp: atTen,
			tl: []float64{1, 3, 5, 7, 9, 9}, want: []string{"600 OK"}},
		{name: "creeping within the noise, then a step", end: steady, stamp: atTen,
			tl: []float64{1, 2, 3, 4, 25, 25}, want: []string{"600 OK", step(1080, "21s"), "1200 OK"}},
		{name: "two rises, then a fall", end: steady, stamp: atTen,
			tl: []float64{0, 12, 24, 5, 6, 7}, want: []string{"600 OK", step(730, "12s"), "960 OK"}},
		{name: "a step, held since", end: steady, stamp: atTen,
			tl: []float64{0, 20, 21, 22, 23, 23.5, 24}, want: []string{"600 OK", step(730, "20s"), "840 OK"}},
		{name: "a catch-up through records written faster", end: slowed, stamp: slowedAt,
			tl: []float64{300, 348, 396, 444, 492, 540},
			want: []string{"600 OK", "720 JUDGING (falling behind at its latest polls: WARN once it lasts)", "760 WARN",
				"1110 OK", "1190 JUDGING (its time lag grew 1m50s in the last 1m50s: not OK while it grows)",
				"1200 " + rose + "3 commits, 1m36s in 4m: not OK while it climbs)",
				"1300 JUDGING (its time lag grew 1m40s in the last 1m40s: not OK while it grows)",
				"1310 JUDGING (its time lag grew 1m50s in the last 1m50s: not OK while it grows)", "1320 OK"}},
	} {
		poll := c.poll
		if poll == 0 {
			poll = 10
		}
		every := c.every
		if every == 0 {
			every = 120
		}
		got := climbRun(poll, every, c.end, c.stamp, c.tl)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}
