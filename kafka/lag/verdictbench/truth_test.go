package verdictbench

import (
	"testing"
	"time"
)

// TestUnevenLoadIsBorderline: four members share six partitions, two
// members with two partitions and two with one, at 1.3 times the mean
// production. The members with one partition work off their backlog
// (catching up); those with two run at 0.975 of what arrives on theirs,
// inside the band nobody could call within the scenario: their
// partitions are borderline, and not scored.
func TestUnevenLoadIsBorderline(t *testing.T) {
	sc := &Scenario{
		Name: "uneven", Partitions: 6, Members: 4, Spread: Even,
		Rhythm: Rhythm{Kind: Interval, Every: 5 * time.Second}, Production: Production{Kind: Steady, Rate: 10},
		Poll: 5 * time.Second, Window: time.Minute, Length: 10 * time.Minute,
		Phases: []Phase{{At: 0, Speed: 1.3, Event: Consume}}, Seed: 1,
	}
	w := newWorld(sc)
	for w.t < 60 {
		w.step()
	}
	// A backlog on every partition, so that each is past keeping up.
	for i := range w.parts {
		w.parts[i].committed = max(0, w.parts[i].end-2000)
	}
	w.t += 300
	counts := map[Truth]int{}
	for k := range w.members {
		load := len(w.members[k].parts)
		for _, p := range w.members[k].parts {
			tr, ok := w.partTruth(p, 0)
			if !ok {
				t.Fatalf("partition %d: no truth", p)
			}
			counts[tr]++
			want := CatchingUp
			if load == 2 {
				want = Borderline
			}
			if tr != want {
				t.Errorf("partition %d of a member serving %d: %s, want %s", p, load, tr, want)
			}
		}
	}
	if counts[Borderline] != 4 || counts[CatchingUp] != 2 {
		t.Errorf("truths %v, want 4 borderline and 2 catching up", counts)
	}
}
