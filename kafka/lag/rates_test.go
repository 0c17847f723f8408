package lag

import (
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
)

func TestRates(t *testing.T) {
	tests := []struct {
		name             string
		steps            []step
		produce, consume float64
		catchUp          CatchUp
	}{
		{
			name:    "falling behind",
			steps:   []step{{0, 0, 100, true}, {2, 10, 120, true}, {4, 30, 150, true}},
			produce: 12.5, consume: 7.5,
			catchUp: CatchUp{State: FallingBehind, Behind: 5},
		},
		{
			name:    "catching up",
			steps:   []step{{0, 0, 100, true}, {2, 30, 110, true}, {4, 60, 120, true}},
			produce: 5, consume: 15,
			// lag 60 closing at 10/s.
			catchUp: CatchUp{State: CatchingUp, Seconds: 6},
		},
		{
			// A lag of 100 at 10 msg/s in and out is 10s of
			// production in flight: the consumer keeps pace.
			name:    "holding steady",
			steps:   []step{{0, 0, 100, true}, {1, 10, 110, true}, {2, 20, 120, true}},
			produce: 10, consume: 10,
			catchUp: CatchUp{State: KeepingUp},
		},
		{
			// The same two polls are no evidence yet: keeping up
			// needs rates over min(RatePolls, Window) = 3 polls.
			name:    "keeping up needs evidence",
			steps:   []step{{0, 0, 100, true}, {1, 10, 110, true}},
			produce: 10, consume: 10,
			catchUp: CatchUp{State: CatchUpUnknown},
		},
		{
			// 7.0/s in, 7.2/s out (noise at 7/s is 0.35/s), lag 3
			// to 6: keeping up, never "catching up in 3m00s".
			name:    "equal rates within noise keep up",
			steps:   []step{{0, 100, 103, true}, {5, 137, 138, true}, {10, 172, 173, true}},
			produce: 7, consume: 7.2,
			catchUp: CatchUp{State: KeepingUp},
		},
		{
			// 0.7 records a second on a partition, lag 1, 1, 3: the
			// rates differ by 10%, but the lag moved by 2 records over
			// 30s, within what is in flight (10 records over the
			// span): keeping up, not falling behind.
			name:    "a lag in flight wobbles",
			steps:   []step{{0, 100, 101, true}, {15, 110, 111, true}, {30, 119, 122, true}},
			produce: 21.0 / 30, consume: 19.0 / 30,
			catchUp: CatchUp{State: KeepingUp},
		},
		{
			// A trickle of 0.1 records a second, lag 1 to 3, but
			// nothing committed over the window: a small lag of a
			// consumer that does not consume is not keeping up (a
			// stuck consumer on a quiet topic), whatever the wobble.
			name:    "a small lag nobody consumes",
			steps:   []step{{0, 100, 101, true}, {10, 100, 102, true}, {20, 100, 103, true}},
			produce: 0.1, consume: 0,
			catchUp: CatchUp{State: FallingBehind, Behind: 0.1},
		},
		{
			// At 10 records a second 100 are in flight, but a lag
			// that grew from 5 to 60 over 30s (55 records, past the
			// 10 a lag in flight wobbles by) is falling behind.
			name:    "a lag in flight that grows past the wobble",
			steps:   []step{{0, 1000, 1005, true}, {15, 1130, 1155, true}, {30, 1245, 1305, true}},
			produce: 10, consume: 245.0 / 30,
			catchUp: CatchUp{State: FallingBehind, Behind: -sub(245.0/30, 10)},
		},
		{
			// Lag 1,000,000 closing at 1/s is 11.6 days: capped
			// at a day, said so.
			name:    "a catch-up longer than a day is capped",
			steps:   []step{{0, 0, 1000000, true}, {10, 20, 1000010, true}},
			produce: 1, consume: 2,
			catchUp: CatchUp{State: CatchingUp, Seconds: MaxCatchUpSeconds, Capped: true},
		},
		{
			// Lag 3, 2, 4 while 10 msg/s go in and out, give or
			// take: keeping up, not "not catching up".
			name:    "lag 2-4 at equal rates keeps up",
			steps:   []step{{0, 100, 103, true}, {5, 150, 152, true}, {10, 196, 200, true}},
			produce: 9.7, consume: 9.6,
			catchUp: CatchUp{State: KeepingUp},
		},
		{
			// Equal rates, but a backlog of 1000 (100s of
			// production) that never shrinks.
			name:    "a steady backlog is not keeping up",
			steps:   []step{{0, 0, 1000, true}, {1, 10, 1010, true}},
			produce: 10, consume: 10,
			catchUp: CatchUp{State: FallingBehind, Behind: 0},
		},
		{
			// A small lag that grows 5 msg/s is falling behind.
			name:    "a small lag that grows falls behind",
			steps:   []step{{0, 10, 12, true}, {2, 14, 26, true}},
			produce: 7, consume: 2,
			catchUp: CatchUp{State: FallingBehind, Behind: 5},
		},
		{
			name:    "caught up",
			steps:   []step{{0, 0, 100, true}, {1, 110, 110, true}},
			produce: 10, consume: 110,
			catchUp: CatchUp{State: CaughtUp},
		},
		{
			name: "only the last RatePolls polls count",
			steps: []step{
				{0, 0, 0, true}, {1, 0, 1000, true},
				{2, 100, 1100, true}, {3, 150, 1120, true}, {4, 200, 1140, true},
			},
			produce: 20, consume: 50,
			// lag 940 closing at 30/s.
			catchUp: CatchUp{State: CatchingUp, Seconds: 940.0 / 30},
		},
		{
			name:    "flat production",
			steps:   []step{{0, 10, 100, true}, {1, 10, 100, true}, {2, 10, 100, true}},
			produce: 0, consume: 0,
			catchUp: CatchUp{State: FallingBehind, Behind: 0},
		},
		{
			name:    "steps backwards are not counted",
			steps:   []step{{0, 50, 200, true}, {2, 30, 200, true}, {4, 70, 200, true}},
			produce: 0, consume: 10,
			catchUp: CatchUp{State: CatchingUp, Seconds: 13},
		},
		{
			name:    "one poll is unknown",
			steps:   []step{{0, 0, 100, true}},
			produce: UnknownRate, consume: UnknownRate,
			catchUp: CatchUp{State: CatchUpUnknown},
		},
		{
			name:    "no commit: produce only",
			steps:   []step{{0, kafka.NoOffset, 100, true}, {2, kafka.NoOffset, 120, true}},
			produce: 10, consume: UnknownRate,
			catchUp: CatchUp{State: CatchUpUnknown},
		},
		{
			name: "unknown samples are skipped",
			steps: []step{
				{0, 0, 100, true}, {1, kafka.NoOffset, kafka.NoOffset, true}, {2, 20, 140, true},
			},
			produce: 20, consume: 10,
			catchUp: CatchUp{State: FallingBehind, Behind: 10},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := run(testConfig(), tc.steps)
			g, ok := h.Evaluate("g", at(tc.steps[len(tc.steps)-1].sec))
			if !ok {
				t.Fatal("group not found")
			}
			p := g.Partitions[0]
			if p.ProduceRate != tc.produce || p.ConsumeRate != tc.consume {
				t.Errorf("rates = %v/%v, want %v/%v", p.ProduceRate, p.ConsumeRate, tc.produce, tc.consume)
			}
			if p.CatchUp != tc.catchUp {
				t.Errorf("catch-up = %+v, want %+v", p.CatchUp, tc.catchUp)
			}
			// One partition: the group says the same.
			if g.ProduceRate != tc.produce || g.ConsumeRate != tc.consume || g.CatchUp != tc.catchUp {
				t.Errorf("group = %v/%v %+v, want %v/%v %+v", g.ProduceRate, g.ConsumeRate, g.CatchUp, tc.produce, tc.consume, tc.catchUp)
			}
		})
	}
}

func TestRatesSkipPollsWithoutThePartition(t *testing.T) {
	h := NewHistory(Config{RatePolls: 10})
	h.Add(snap(at(0), grp("g", po("t", 0, 0, 100), po("t", 1, 0, 0))))
	h.Add(snap(at(1), grp("g", po("t", 1, 0, 0))))
	h.Add(snap(at(4), grp("g", po("t", 0, 40, 180), po("t", 1, 0, 0))))
	g, _ := h.Evaluate("g", at(4))
	if p := g.Partitions[0]; p.ProduceRate != 20 || p.ConsumeRate != 10 {
		t.Errorf("rates = %v/%v, want 20/10", p.ProduceRate, p.ConsumeRate)
	}
}

func TestGroupCatchUp(t *testing.T) {
	h := NewHistory(testConfig())
	h.Add(snap(at(0), grp("g", po("t", 0, 0, 100), po("t", 1, 0, 50))))
	h.Add(snap(at(2), grp("g", po("t", 0, 40, 110), po("t", 1, 10, 60))))
	g, _ := h.Evaluate("g", at(2))
	// Lag 70+50, produce 5+5, consume 20+5: 120 / 15 = 8s.
	if g.TotalLag != 120 || g.ProduceRate != 10 || g.ConsumeRate != 25 {
		t.Fatalf("group lag %d rates %v/%v, want 120 10/25", g.TotalLag, g.ProduceRate, g.ConsumeRate)
	}
	if want := (CatchUp{State: CatchingUp, Seconds: 8}); g.CatchUp != want {
		t.Errorf("catch-up = %+v, want %+v", g.CatchUp, want)
	}
	// A lagging partition without rates makes the group's answer unknown.
	h.Add(snap(at(3), grp("g", po("t", 0, 40, 110), po("t", 1, 10, 60), po("t", 2, 0, 5))))
	g, _ = h.Evaluate("g", at(3))
	if g.CatchUp.State != CatchUpUnknown {
		t.Errorf("catch-up with a new lagging partition = %v, want unknown", g.CatchUp.State)
	}
	// A group without any commit: lag and catch-up unknown, never 0.
	h.Add(snap(at(4), grp("n", po("t", 0, kafka.NoOffset, 110))))
	h.Add(snap(at(5), grp("n", po("t", 0, kafka.NoOffset, 120))))
	g, _ = h.Evaluate("n", at(5))
	if g.TotalLag != 0 || g.CatchUp.State != CatchUpUnknown || g.MaxTimeLag.Known() || g.ConsumeRate != UnknownRate {
		t.Errorf("uncommitted group = lag %d %v %+v consume %v, want 0 unknown unknown -1",
			g.TotalLag, g.CatchUp.State, g.MaxTimeLag, g.ConsumeRate)
	}
}

// TestGroupKeepingUp: a group keeps up when every lagging partition does;
// one stuck partition among them makes the group fall behind, even when
// the totals are level.
func TestGroupKeepingUp(t *testing.T) {
	h := NewHistory(testConfig())
	for i := range 3 {
		n := int64(10 * i)
		h.Add(snap(at(float64(i)), grp("g", po("t", 0, 100+n, 103+n), po("t", 1, 200+n, 204+n))))
	}
	g, _ := h.Evaluate("g", at(2))
	if g.TotalLag != 7 || g.CatchUp != (CatchUp{State: KeepingUp}) {
		t.Fatalf("lag %d, catch-up %+v, want 7 keeping up", g.TotalLag, g.CatchUp)
	}
	h = NewHistory(testConfig())
	for i := range 3 {
		n := int64(10 * i)
		// t/1 is stuck at 200 while t/0 consumes 20/s of 10/s: the
		// totals are 20/s in and out.
		h.Add(snap(at(float64(i)), grp("g", po("t", 0, 100+2*n, 150+n), po("t", 1, 200, 204+n))))
	}
	g, _ = h.Evaluate("g", at(2))
	if g.TotalLag != 54 || g.ProduceRate != 20 || g.ConsumeRate != 20 || g.CatchUp != (CatchUp{State: FallingBehind}) {
		t.Fatalf("lag %d, rates %v/%v, catch-up %+v, want 54 at 20/20 falling behind by 0", g.TotalLag, g.ProduceRate, g.ConsumeRate, g.CatchUp)
	}
}

// sub is a - b in float64 at run time, as the rules compute it (a
// constant expression would be exact).
func sub(a, b float64) float64 { return a - b }

// A partition whose log end and commit are each one number over the
// ring (compact.go stores such a column in no bytes) takes its rates in
// one step (rateSum.flat) rather than poll by poll: they must be the
// wide History's, which reads every poll, bit for bit, at every poll,
// whether the numbers are known or not, the group has members or not,
// and the polls come at even or uneven times. The test fails unless
// both ways were taken.
func TestRatesAtRestAsWide(t *testing.T) {
	tw := newTwin(DefaultConfig())
	cfg := tw.h.Config()
	empty := func(g kafka.Group) kafka.Group { g.State = kafka.StateEmpty; return g }
	now := t0
	flat, polled := 0, 0
	for i := range 3 * cfg.Samples {
		// Uneven gaps: 5 s give or take, and a long one now and then.
		now = now.Add(5*time.Second + time.Duration(i%7)*310*time.Millisecond)
		if i%45 == 44 {
			now = now.Add(time.Minute)
		}
		moving := int64(i / 3)
		tw.add(t, snap(now,
			grp("caught-up", unowned(po("t", 0, 100, 100)), po("t", 1, 50, 50)),
			grp("lagging", unowned(po("t", 2, 97, 100))),
			grp("uncommitted", po("t", 3, kafka.NoOffset, 40)),
			grp("unknown-end", unowned(po("t", 4, 10, kafka.NoOffset))),
			empty(grp("memberless", unowned(po("t", 5, 7, 9)))),
			empty(grp("memberless-moving", unowned(po("t", 6, 7+moving, 9+moving)))),
			grp("moving", po("t", 7, 1000+moving, 1000+2*moving)),
		))
		for name, wgh := range tw.wide.groups {
			gh := tw.h.groups[name]
			for k := range wgh.parts {
				ph, wph := &gh.parts[k], &wgh.parts[k]
				if tw.h.col(ph, secLogEnd).w == 0 && tw.h.col(ph, secCommitted).w == 0 {
					flat++
				} else {
					polled++
				}
				if got, want := tw.h.rates(gh, ph), tw.wide.rates(wgh, wph); got != want {
					t.Fatalf("poll %d: %s/%d rates %+v, wide %+v", i, name, ph.partition, got, want)
				}
			}
		}
		tw.compare(t, now)
	}
	if flat == 0 || polled == 0 {
		t.Fatalf("rates taken in one step %d times, poll by poll %d: want both", flat, polled)
	}
}
