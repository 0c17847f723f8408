package lag

import (
	"slices"
	"testing"

	"github.com/kgroups/kgroups/kafka"
)

func TestPartitionSeries(t *testing.T) {
	h := NewHistory(Config{Samples: 3})
	h.Add(snap(at(0), grp("g", po("t", 0, 1, 5), po("t", 1, 0, 1))))
	h.Add(snap(at(1), grp("g", po("t", 1, 0, 2))))
	h.Add(snap(at(2), grp("g", po("t", 0, 4, 9), po("t", 1, 0, 3))))
	h.Add(snap(at(3), grp("g", po("t", 0, kafka.NoOffset, 12), po("t", 1, 0, 4))))

	got := h.PartitionSeries("g", "t", 0, nil)
	want := []Sample{
		{Time: at(1), Committed: kafka.NoOffset, LogEnd: kafka.NoOffset, Lag: kafka.NoOffset},
		{Time: at(2), Committed: 4, LogEnd: 9, Lag: 5},
		{Time: at(3), Committed: kafka.NoOffset, LogEnd: 12, Lag: kafka.NoOffset},
	}
	if !slices.EqualFunc(got, want, func(a, b Sample) bool {
		return a.Time.Equal(b.Time) && a.Committed == b.Committed && a.LogEnd == b.LogEnd && a.Lag == b.Lag
	}) {
		t.Errorf("series = %+v, want %+v", got, want)
	}
	if got := h.PartitionSeries("g", "t", 2, nil); got != nil {
		t.Errorf("unknown partition = %+v", got)
	}
	if got := h.PartitionSeries("x", "t", 0, nil); got != nil {
		t.Errorf("unknown group = %+v", got)
	}
	if got := h.PartitionSeries("g", "a", 0, nil); got != nil {
		t.Errorf("unknown topic = %+v", got)
	}
}

// Once the set of groups and partitions is stable, a poll allocates nothing.
func TestAddSteadyStateAllocations(t *testing.T) {
	h := NewHistory(DefaultConfig())
	s := snap(at(0), grp("a", po("t", 0, 1, 5), po("t", 1, 2, 5)), grp("b", po("u", 0, 1, 5)))
	h.Add(s)
	poll := 0
	allocs := testing.AllocsPerRun(100, func() {
		poll++
		s.Time = at(float64(poll))
		for g := range s.Groups {
			for i := range s.Groups[g].Partitions {
				s.Groups[g].Partitions[i].LogEnd += 3
				s.Groups[g].Partitions[i].Committed += 2
			}
		}
		h.Add(s)
	})
	if allocs != 0 {
		t.Errorf("steady-state Add allocates %v times per poll, want 0", allocs)
	}
	if h.Polls() != 102 {
		t.Errorf("polls = %d, want 102", h.Polls())
	}
}

func TestConfigNormalize(t *testing.T) {
	if got := NewHistory(Config{}).Config(); got != DefaultConfig() {
		t.Errorf("zero config = %+v, want defaults %+v", got, DefaultConfig())
	}
	got := NewHistory(Config{Window: 1, MinDistance: -1, Samples: 1, TimePoints: 1, RatePolls: 1, EvictAfter: -3}).Config()
	want := Config{Window: 2, MinDistance: DefaultConfig().MinDistance, Samples: 2, TimePoints: 2, RatePolls: 2, EvictAfter: 5, Hold: 2, RhythmCeiling: RhythmCeiling}
	if got != want {
		t.Errorf("tiny config = %+v, want %+v", got, want)
	}
	if got := NewHistory(Config{Samples: 8, RatePolls: 20}).Config().RatePolls; got != 8 {
		t.Errorf("rate polls beyond samples = %d, want 8", got)
	}
}

// A log truncated past the commit: retention deleted unread messages. The
// lag still counts from the commit, as kafka-consumer-groups.sh does, and
// the rules judge it like any other: a commit a live member never moved
// while it was watched waits for a rhythm (up to RhythmCeiling).
func TestTruncatedLog(t *testing.T) {
	h := NewHistory(testConfig())
	for i := range 5 {
		p := po("t", 0, 100, 1000+int64(10*i))
		p.LogStart = 400
		h.Add(snap(at(float64(i)), grp("g", p)))
	}
	g, _ := h.Evaluate("g", at(4))
	p := g.Partitions[0]
	if !p.Truncated || p.Lag != 940 || p.LogStart != 400 || p.Status != StatusOK || p.Wait.Kind != WaitRhythm {
		t.Errorf("truncated = %v lag %d start %d %v wait %v, want true 940 400 OK waiting for a rhythm", p.Truncated, p.Lag, p.LogStart, p.Status, p.Wait.Kind)
	}
	// Below the first point (1000, 0s): at least 4s behind.
	if p.TimeLag != (TimeLag{Seconds: 4, Kind: TimeLagAtLeast}) {
		t.Errorf("time lag = %+v, want at least 4s", p.TimeLag)
	}
}
