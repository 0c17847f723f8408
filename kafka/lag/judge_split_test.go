package lag

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
)

// TestJudgedInTwoHalvesAsInOne feeds a tracker polls large enough to be
// judged on two goroutines (120 groups of 200 partitions, uneven in lag:
// some keep up, some stall, some fall behind, some rewind), and after
// every poll judges the same history again in one pass: every verdict is
// the same, and the split left no group unjudged.
func TestJudgedInTwoHalvesAsInOne(t *testing.T) {
	const groups, parts = 120, 200
	if groups*parts < parallelPartitions {
		t.Fatalf("%d partitions do not reach the split (%d)", groups*parts, parallelPartitions)
	}
	l := NewTracker(DefaultConfig())
	for poll := range 14 {
		gs := make([]kafka.Group, groups)
		for g := range groups {
			ps := make([]kafka.PartitionOffsets, parts)
			for p := range parts {
				end := int64(100*poll + p)
				c := end
				switch g % 4 {
				case 1:
					c = int64(50 + p) // stalled
				case 2:
					c = end - int64(g*poll) // falling behind
				case 3:
					if poll == 9 {
						c = 0 // rewound
					}
				}
				ps[p] = po("t", int32(p), max(c, 0), end)
			}
			gs[g] = grp(fmt.Sprintf("g-%03d", g), ps...)
		}
		s := snap(t0.Add(time.Duration(poll)*5*time.Second), gs...)
		l.Add(s)
		got := slices.Clone(l.health)
		l.health = make([]Verdict, groups)
		l.judgeRange(s, 0, groups, nil)
		for i := range got {
			if fmt.Sprintf("%+v", got[i]) != fmt.Sprintf("%+v", l.health[i]) {
				t.Fatalf("poll %d, group %d: judged in halves %+v, in one pass %+v", poll, i, got[i], l.health[i])
			}
		}
		if poll == 13 {
			ok, warn, bad := l.Counts()
			if ok == 0 || warn+bad == 0 {
				t.Errorf("verdicts %d OK, %d WARN, %d ERR: want both healthy and unhealthy groups", ok, warn, bad)
			}
		}
	}
}
