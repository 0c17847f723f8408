package lag

import (
	"testing"
	"time"
)

// TestTimeLagRingAtRest: a group whose time lag never changes (caught up;
// a lagging one's grows with the clock) keeps no ring of time lags, and
// its series reads that one value at every poll;
// the first poll with another value (here a poll that missed the group)
// makes the ring, in the copy that took the poll only, and both copies
// answer as before.
func TestTimeLagRingAtRest(t *testing.T) {
	l := NewTracker(DefaultConfig())
	now := t0
	add := func(l *Tracker, with bool) {
		now = now.Add(5 * time.Second)
		s := snap(now, grp("other", unowned(po("t", 1, 5, 5))))
		if with {
			s.Groups = append(s.Groups, grp("rest", unowned(po("t", 0, 100, 100))))
		}
		l.Add(s)
	}
	for range 70 {
		add(l, true)
	}
	r := l.series["rest"]
	if r.v != nil {
		t.Fatalf("a group at rest keeps a ring of %d time lags", len(r.v))
	}
	ps := l.GroupSeries("rest", nil)
	if len(ps) != DefaultConfig().Samples {
		t.Fatalf("%d points, want %d", len(ps), DefaultConfig().Samples)
	}
	for i, p := range ps {
		if p.TimeLag != r.top {
			t.Fatalf("point %d: time lag %+v, want the group's %+v", i, p.TimeLag, r.top)
		}
	}

	back := NewTracker(DefaultConfig())
	back.CopyFrom(l)
	add(back, false) // a poll that missed the group
	add(back, true)
	if back.series["rest"].v == nil || l.series["rest"].v != nil {
		t.Fatalf("after a gap the copy's ring is %v, the original's %v: want the copy's made, the original's none", back.series["rest"].v != nil, l.series["rest"].v != nil)
	}
	got := back.GroupSeries("rest", nil)
	for i, p := range got {
		want := r.top
		if i == len(got)-2 {
			want = TimeLag{} // the poll that missed it
		}
		if p.TimeLag != want {
			t.Errorf("copy, point %d: time lag %+v, want %+v", i, p.TimeLag, want)
		}
	}
	if again := l.GroupSeries("rest", nil); len(again) != len(ps) || again[0] != ps[0] || again[len(again)-1] != ps[len(ps)-1] {
		t.Errorf("the original's series changed when its copy took polls")
	}
}
