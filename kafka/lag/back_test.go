package lag

import (
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka"
)

// backWorld is a consumer keeping up with 5 records a second on one
// partition and committing every 5 s, polled every 5 s, whose member
// leaves at 600 s (the group Empty, nothing committed) and whose new
// member joins at 780 s. commitsAgain is when the new member commits
// first (0: never); from then it commits every 5 s. It returns each
// poll's time and verdict text.
func backWorld(commitsAgain int) (ts []int, texts []string) {
	h := NewHistory(DefaultConfig())
	var end, c int64
	for s := 0; s <= 1500; s++ {
		end += 5
		member := s < 600 || s >= 780
		if member && s%5 == 0 && (s < 600 || commitsAgain > 0 && s >= commitsAgain) {
			c = end
		}
		if s%5 != 0 {
			continue
		}
		g := kafka.Group{Name: "g", State: kafka.StateEmpty}
		p := po("t", 0, c, end)
		p.MemberID = ""
		if member {
			g.State = kafka.StateStable
			g.Members = []kafka.Member{{MemberID: "m-1"}}
			if s >= 780 {
				g.Members[0].MemberID = "m-2"
			}
			p.MemberID = g.Members[0].MemberID
		}
		g.Partitions = []kafka.PartitionOffsets{p}
		h.Add(snap(at(float64(s)), g))
		gh, _ := h.Evaluate("g", at(float64(s)))
		v := Judge(gh, h.Config().Window)
		ts, texts = append(ts, s), append(texts, v.Text())
	}
	return ts, texts
}

// TestMembersBackGetTheirRhythm: a group stopped for three minutes reads
// ERR STOP; when its member comes back and commits 8 s later, the first
// polls after its return wait (its silence began before the return, and
// is no rhythm) and it reads OK from its commits, never ERR STALL. A
// member that comes back and never commits reads ERR STALL once the
// consumer's time has passed since its return, and stays so.
func TestMembersBackGetTheirRhythm(t *testing.T) {
	ts, texts := backWorld(788)
	sawStop := false
	for i, v := range texts {
		switch {
		case ts[i] >= 700 && ts[i] < 780:
			sawStop = sawStop || v == "ERR STOP"
		case ts[i] >= 780 && strings.HasPrefix(v, "ERR"):
			t.Errorf("committing again at 788 s: %s at %ds, want no ERR after the member came back", v, ts[i])
		case ts[i] >= 900 && v != "OK":
			t.Errorf("committing again at 788 s: %s at %ds, want OK", v, ts[i])
		}
	}
	if !sawStop {
		t.Errorf("never ERR STOP while the group had no member")
	}
	ts, texts = backWorld(0)
	stalled := -1
	for i, v := range texts {
		if ts[i] < 780 {
			continue
		}
		if v == "ERR STALL" && stalled < 0 {
			stalled = ts[i]
		}
		if stalled >= 0 && v != "ERR STALL" {
			t.Errorf("never committing again: %s at %ds after ERR STALL at %ds", v, ts[i], stalled)
		}
	}
	if stalled < 0 || stalled > 900 {
		t.Errorf("never committing again: ERR STALL first at %ds, want by 900 s", stalled)
	}
}

// TestMembersBackWorkOffTheStop: two members serve three partitions each
// in turn (draining one partition's backlog, committing it every second,
// before the next), 5 records a second on each, at twice what their
// partitions produce. The group stops from 600 s to 780 s (Empty); its
// members come back and work off the stop's backlog in turn. A
// partition waiting for its turn then waits behind a member reading the
// stop's old records: that member works off the stop, it does not fall
// behind, and the group reads OK or JUDGING from its return to the end,
// never WARN nor ERR.
func TestMembersBackWorkOffTheStop(t *testing.T) {
	const n = 6
	var end, pos, c [n]int64
	var serving [2]int
	h := NewHistory(DefaultConfig())
	for s := 0; s <= 1800; s++ {
		away := s >= 600 && s < 780
		for p := range n {
			end[p] += 5
		}
		for m := range 2 {
			if away {
				continue
			}
			budget := int64(30)
			for k := 0; k < 3 && budget > 0; k++ {
				p := 3*m + serving[m]
				take := min(budget, end[p]-pos[p])
				pos[p] += take
				budget -= take
				c[p] = pos[p]
				if pos[p] == end[p] {
					serving[m] = (serving[m] + 1) % 3
				}
			}
		}
		if s%5 != 0 {
			continue
		}
		g := kafka.Group{Name: "g", State: kafka.StateEmpty}
		if !away {
			g.State = kafka.StateStable
			g.Members = []kafka.Member{{MemberID: "m-1"}, {MemberID: "m-2"}}
		}
		for p := range n {
			q := po("t", int32(p), c[p], end[p])
			q.MemberID = ""
			if !away {
				q.MemberID = g.Members[p/3].MemberID
			}
			g.Partitions = append(g.Partitions, q)
		}
		h.Add(snap(at(float64(s)), g))
		gh, _ := h.Evaluate("g", at(float64(s)))
		jv := Judge(gh, h.Config().Window)
		v := jv.Text()
		if s >= 780 && (v == "WARN" || strings.HasPrefix(v, "ERR")) {
			t.Errorf("%s at %ds, back at 780 s and working off the stop; want OK or JUDGING", v, s)
		}
		if s >= 1200 && v != "OK" {
			t.Errorf("%s at %ds, caught up since about 950 s; want OK", v, s)
		}
	}
}
