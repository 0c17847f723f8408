package lag

import (
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka"
)

// restartWorld polls one partition (ten records a second) every poll
// seconds, whose consumer commits every every seconds, caught up, up to
// 10 rhythms in. Its members leave then (the group Empty, the partition
// unowned) and new ones are back a rhythm and a half later, whose
// commits, from two and a half rhythms after the leave on, one a rhythm,
// stand behind by behind(k) seconds, k counting them from 0. It returns
// the verdict at each poll from the leave to 14 rhythms and 100 s after
// it, by second.
func restartWorld(every, poll int, behind func(k int) int64) map[int]string {
	h := NewHistory(DefaultConfig())
	got := make(map[int]string)
	c := int64(0)
	leave := 10 * every
	back, first := leave+every+every/2, leave+2*every+every/2
	for s := 0; s <= leave+14*every+100; s += poll {
		end := int64(10 * s)
		switch {
		case s <= leave && s%every == 0:
			c = end
		case s >= first && (s-first)%every == 0:
			c = 10 * (int64(s) - behind((s-first)/every))
		}
		p := po("t", 0, c, end)
		g := grp("g", p)
		g.Members = []kafka.Member{{MemberID: "m-1"}}
		switch {
		case s > leave && s < back:
			g = members(grp("g", unowned(p)), kafka.StateEmpty, 0)
		case s >= back:
			p.MemberID = "m-2"
			g = grp("g", p)
			g.Members = []kafka.Member{{MemberID: "m-2"}}
		}
		h.Add(snap(at(float64(s)), g))
		gh, _ := h.Evaluate("g", at(float64(s)))
		if s >= leave {
			jv := Judge(gh, h.Config().Window)
			got[s] = jv.Text()
		}
	}
	return got
}

// TestARestartStartsTheTrendAgain: a consumer restarted (its members
// gone for a rhythm and a half, its first commit two and a half rhythms
// after its last, within what its rhythm allows before STOP) begins
// 1.1 rhythms behind, its next commit 1.6, then works the backlog off
// (1.0, 0.33, caught up). Its commits before the restart are of the
// consumer that left: the trend starts again from its first commit
// after the members came back, and a climb from the old consumer's
// commits to the new one's first is no trend: never WARN (before, on a
// 30 s rhythm, WARN from 445 s to 475 s while it caught up; on 2 and 5
// minutes too). A restarted consumer that does fall behind (each commit
// half a rhythm further back) reads WARN once its own commits show it
// (on a 30 s rhythm at 475 s, its fourth commit and the hold's polls;
// 445 s before, from the downtime's jump) and from then on. At a 5 s
// rhythm its commits must span the floor first: WARN at 121 s (86 s
// before).
func TestARestartStartsTheTrendAgain(t *testing.T) {
	for _, c := range []struct{ every, poll, warn int }{{5, 1, 121}, {30, 5, 475}, {120, 10, 1780}, {300, 30, 4440}} {
		scale := func(secs int64) int64 { return secs * int64(c.every) / 30 }
		warmup := func(k int) int64 {
			if k < 4 {
				return scale([]int64{33, 48, 30, 10}[k])
			}
			return 0
		}
		for s, v := range restartWorld(c.every, c.poll, warmup) {
			if strings.HasPrefix(v, "WARN") {
				t.Errorf("every %ds, restarted: %s at %ds; want no WARN while it works off the restart's backlog", c.every, v, s)
			}
		}
		falls := restartWorld(c.every, c.poll, func(k int) int64 { return scale(33 + 15*int64(k)) })
		first := -1
		for s := 10 * c.every; s <= 24*c.every+100; s += c.poll {
			if strings.HasPrefix(falls[s], "WARN") {
				first = s
				break
			}
		}
		if first != c.warn {
			t.Errorf("every %ds, restarted, falling behind: first WARN at %ds, want %ds", c.every, first, c.warn)
		}
		for s := first; first >= 0 && s <= 24*c.every+100; s += c.poll {
			if !strings.HasPrefix(falls[s], "WARN") {
				t.Errorf("every %ds, restarted, falling behind: %q at %ds after WARN at %ds", c.every, falls[s], s, first)
			}
		}
	}
}
