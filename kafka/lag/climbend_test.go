package lag

import (
	"testing"

	"github.com/kgroups/kgroups/kafka"
)

// runSpedUp polls every 10 s, reading the records at its commits as the
// UI does, a consumer that commits every 150 s on a
// topic written at 10 records a second, reading 5 a second until 30
// minutes, then 12 a second (scaled out). It returns the partition's
// status at each poll, by second.
func runSpedUp(t *testing.T) map[int]PartitionHealth {
	t.Helper()
	h := NewHistory(DefaultConfig())
	var end, pos, c float64 = 100000, 100000, 100000
	got := map[int]PartitionHealth{}
	for sec := 1; sec <= 3600; sec++ {
		end += 10
		speed := 5.0
		if sec > 1800 {
			speed = 12
		}
		pos = min(end, pos+speed)
		if sec%150 == 0 {
			c = pos
		}
		if sec%10 != 0 {
			continue
		}
		p := po("t", 0, int64(c), int64(end))
		p.MemberID = "m"
		h.Add(snap(at(float64(sec)), grp("g", p)))
		recs := map[kafka.CommitKey]kafka.RecordTime{}
		for _, w := range h.WantExact(DefaultExactBudget, nil) {
			recs[kafka.CommitKey{Topic: w.Topic, Partition: w.Partition, Offset: w.Committed}] = kafka.RecordTime{Offset: w.Committed, Timestamp: at(float64(w.Committed-100000) / 10)}
		}
		h.AddExact(recs)
		g, _ := h.Evaluate("g", at(float64(sec)))
		got[sec] = g.Partitions[0]
	}
	return got
}

// TestTwoFallingCommitsEndAClimb: a consumer at half of its producers'
// rate reads WARN, its time lag climbing 75 s a commit; scaled out to
// 1.2 of it, the time lag and the lag at its commits fall, 30 s a
// commit. Two commits that fall, by more than twice the noise in all,
// end the climb though the older commits still hold the trend's line
// up: it reads OK within a minute of its second commit after the change,
// and stays OK. Judged on the line alone it read WARN until its third.
func TestTwoFallingCommitsEndAClimb(t *testing.T) {
	got := runSpedUp(t)
	if s := got[1800].Status; s != StatusWarn {
		t.Fatalf("at 0.5x after 30m: %v, want WARN: %s", s, statusLine(got, 1500, 1800))
	}
	first := -1
	for sec := 1810; sec <= 3600; sec += 10 {
		s := got[sec].Status
		if first < 0 && s == StatusOK && got[sec].Wait.Kind == WaitNone {
			first = sec
		}
		if first > 0 && s == StatusWarn {
			t.Fatalf("WARN again at %d s after OK at %d s: %s", sec, first, statusLine(got, 1800, 2400))
		}
	}
	if first < 0 || first > 2160 {
		t.Errorf("first OK at %d s, want within a minute of the second commit after the change (2100 s): %s", first, statusLine(got, 1800, 2400))
	}
}

// TestAGroupScaledOutEndsItsClimbTogether: eight partitions, each as in
// runSpedUp (10 records a second, read at 5 until 30 minutes, then at
// 12), each committed every 150 s, 19 s after the one before. Each
// partition's own climb ends at two falling commits (climbEnded), so the
// group read WARN until 2,230 s: its last partition's second commit
// wholly after the change is at 2,117 s. Once four in five of the
// partitions that committed lately fell at their newest commit, one
// falling commit ends a partition's climb (History.groupFell): the group
// reads OK from 2,130 s, and stays OK.
func TestAGroupScaledOutEndsItsClimbTogether(t *testing.T) {
	const parts = 8
	h := NewHistory(DefaultConfig())
	end, pos, c := [parts]float64{}, [parts]float64{}, [parts]float64{}
	first := -1
	for sec := 1; sec <= 3600; sec++ {
		speed := 5.0
		if sec > 1800 {
			speed = 12
		}
		ps := make([]kafka.PartitionOffsets, parts)
		for i := range parts {
			end[i] += 10
			pos[i] = min(end[i], pos[i]+speed)
			if (sec+19*i)%150 == 0 {
				c[i] = pos[i]
			}
			ps[i] = po("t", int32(i), int64(c[i]), int64(end[i]))
		}
		if sec%10 != 0 {
			continue
		}
		h.Add(snap(at(float64(sec)), grp("g", ps...)))
		recs := map[kafka.CommitKey]kafka.RecordTime{}
		for _, w := range h.WantExact(DefaultExactBudget, nil) {
			recs[kafka.CommitKey{Topic: w.Topic, Partition: w.Partition, Offset: w.Committed}] = kafka.RecordTime{Offset: w.Committed, Timestamp: at(float64(w.Committed) / 10)}
		}
		h.AddExact(recs)
		g, _ := h.Evaluate("g", at(float64(sec)))
		switch {
		case sec == 1800 && g.Status != StatusWarn:
			t.Fatalf("at 0.5x after 30m: %v, want WARN", g.Status)
		case sec > 1800 && first < 0 && g.Status == StatusOK && g.Wait.Kind == WaitNone:
			first = sec
		case first > 0 && g.Status == StatusWarn:
			t.Fatalf("WARN again at %d s after OK at %d s", sec, first)
		}
	}
	if first != 2130 {
		t.Errorf("first OK at %d s, want 2130 s", first)
	}
}
