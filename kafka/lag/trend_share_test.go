package lag

import (
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
)

// trendSnap is one group of ten partitions at poll k (20 s apart):
// partitions 0 to moving-1 commit 5 records further at each poll, the
// others stand caught up at 100.
func trendSnap(k, moving int) *kafka.Snapshot {
	ps := make([]kafka.PartitionOffsets, 10)
	for p := range ps {
		c := int64(100)
		if p < moving {
			c += int64(5 * k)
		}
		ps[p] = po("t", int32(p), c, c+3)
	}
	return snap(t0.Add(time.Duration(k)*20*time.Second), grp("g", ps...))
}

// TestTrendKeptOnlyForMovedCommits: a partition whose commit never moved
// keeps no moves of its own (its trend ring, waits and latest move: it
// reads unmoved, which stays zero), and the judging copy (CopyFrom)
// shares the moves of the partitions whose commits did not move at the
// poll it takes: only the moved ones are copied, one allocation each,
// and the original's are left as they were.
func TestTrendKeptOnlyForMovedCommits(t *testing.T) {
	front := NewHistory(DefaultConfig())
	for k := range 6 {
		front.Add(trendSnap(k, 4))
	}
	fp := front.groups["g"].parts
	for p := range fp {
		if moved := p < 4; (fp[p].rh.rhythmMoves != &unmoved) != moved {
			t.Fatalf("partition %d: moves kept %v, want %v", p, fp[p].rh.rhythmMoves != &unmoved, moved)
		}
	}
	before := make([]rhythmMoves, 4)
	for p := range before {
		before[p] = *fp[p].rh.rhythmMoves
	}

	// The next poll moves partitions 0 and 1 only.
	next := trendSnap(6, 4)
	for p := 2; p < 4; p++ {
		next.Groups[0].Partitions[p] = po("t", int32(p), 100+25, 100+25+3)
	}
	back := NewHistory(DefaultConfig())
	back.CopyFrom(front)
	back.Add(next)
	bp := back.groups["g"].parts
	for p := range bp {
		switch shared := bp[p].rh.rhythmMoves == fp[p].rh.rhythmMoves; {
		case p < 2 && shared:
			t.Errorf("partition %d moved: the copy writes the original's trend ring", p)
		case p >= 2 && !shared:
			t.Errorf("partition %d did not move: the copy made a ring of its own", p)
		}
	}
	for p := range before {
		if *fp[p].rh.rhythmMoves != before[p] {
			t.Errorf("partition %d: the original's moves changed when its copy took a poll", p)
		}
	}
	if unmoved != (rhythmMoves{}) {
		t.Errorf("the moves every unmoved partition reads were written: %+v", unmoved)
	}

	// A copy taking that poll allocates the two moved partitions' rings;
	// a History that is never copied writes its rings in place.
	allocs := testing.AllocsPerRun(20, func() {
		back.CopyFrom(front)
		back.Add(next)
	})
	if allocs != 2 {
		t.Errorf("a copy taking a poll that moved 2 commits allocates %v times, want 2 (their moves)", allocs)
	}
	one := NewHistory(DefaultConfig())
	k := 0
	for ; k < 6; k++ {
		one.Add(trendSnap(k, 4))
	}
	allocs = testing.AllocsPerRun(20, func() {
		one.Add(trendSnap(k, 4))
		k++
	})
	if snapAllocs := testing.AllocsPerRun(20, func() { trendSnap(k, 4) }); allocs != snapAllocs {
		t.Errorf("a poll that moves 4 commits allocates %v times beyond building its snapshot, want none", allocs-snapAllocs)
	}
}
