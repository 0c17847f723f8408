package lag

import (
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka"
)

// restartWorld polls one partition (ten records a second) every 5 s for
// 700 s, whose consumer commits every 30 s, caught up, until 300 s. Its
// members leave at 305 s (the group Empty, the partition unowned) and
// new ones are back from 350 s, whose commits from 375 s on, every 30 s,
// stand behind by behind(k) seconds, k counting them from 0. It returns
// the verdict at each poll from 300 s on, by second.
func restartWorld(behind func(k int) int64) map[int]string {
	h := NewHistory(DefaultConfig())
	got := make(map[int]string)
	c := int64(0)
	for s := 0; s <= 700; s += 5 {
		end := int64(10 * s)
		switch {
		case s <= 300 && s%30 == 0:
			c = end
		case s >= 375 && (s-375)%30 == 0:
			c = 10 * (int64(s) - behind((s-375)/30))
		}
		p := po("t", 0, c, end)
		g := grp("g", p)
		g.Members = []kafka.Member{{MemberID: "m-1"}}
		switch {
		case s > 300 && s < 350:
			g = members(grp("g", unowned(p)), kafka.StateEmpty, 0)
		case s >= 350:
			p.MemberID = "m-2"
			g = grp("g", p)
			g.Members = []kafka.Member{{MemberID: "m-2"}}
		}
		h.Add(snap(at(float64(s)), g))
		gh, _ := h.Evaluate("g", at(float64(s)))
		if s >= 300 {
			jv := Judge(gh, h.Config().Window)
			got[s] = jv.Text()
		}
	}
	return got
}

// TestARestartStartsTheTrendAgain: a consumer restarted (its members
// gone for 45 s, its first commit after 75 s, within what its rhythm
// allows before STOP) begins 33 s behind, its next commit 48 s, then
// works the backlog off (30 s, 10 s, caught up). Its commits before the
// restart are of the consumer that left: the trend starts again from its
// first commit after the members came back, and a climb from the old
// consumer's commits to the new one's first is no trend: never WARN
// (before, WARN from 445 s to 475 s while it caught up). A restarted
// consumer that does fall behind (each commit 15 s further back) reads
// WARN once its own commits show it (four, the newest at 465 s, and the
// hold's two polls), and from then on.
func TestARestartStartsTheTrendAgain(t *testing.T) {
	warmup := func(k int) int64 {
		if k < 4 {
			return []int64{33, 48, 30, 10}[k]
		}
		return 0
	}
	for s, v := range restartWorld(warmup) {
		if strings.HasPrefix(v, "WARN") {
			t.Errorf("restarted: %s at %ds; want no WARN while it works off the restart's backlog", v, s)
		}
	}
	falls := restartWorld(func(k int) int64 { return 33 + 15*int64(k) })
	first := -1
	for s := 300; s <= 700; s += 5 {
		if strings.HasPrefix(falls[s], "WARN") {
			first = s
			break
		}
	}
	if first != 475 {
		t.Errorf("restarted, falling behind: first WARN at %ds, want 475s (its fourth commit, at 465 s, and the hold's polls)", first)
	}
	for s := first; first >= 0 && s <= 700; s += 5 {
		if !strings.HasPrefix(falls[s], "WARN") {
			t.Errorf("restarted, falling behind: %q at %ds after WARN at %ds", falls[s], s, first)
		}
	}
}
