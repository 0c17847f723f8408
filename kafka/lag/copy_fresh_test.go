package lag_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka/fixture"
	"github.com/kgroups/kgroups/kafka/lag"
)

// TestCopyIntoNewTrackerAllocations: the UI's judging job copies the
// front into a new tracker before each poll (tui/judge.go). That copy
// takes its records of groups and partitions, its lag rings and its
// time-lag series each in one block, not one allocation a group: at
// 50,000 groups of 12 partitions the partitions' records alone are 8 MB
// smaller for it, twice while a poll is judged
// (History.copyGroupsFresh). Without the blocks, this copy of 2,000
// groups allocated over 8,000 times.
func TestCopyIntoNewTrackerAllocations(t *testing.T) {
	cfg := lag.DefaultConfig()
	src := lag.NewTracker(cfg)
	s := fixture.ManyGroups(2000)
	for i := range 3 {
		s.Time = fixture.Epoch.Add(time.Duration(i) * fixture.PollEvery)
		src.Add(s)
	}
	var c *lag.Tracker
	allocs := testing.AllocsPerRun(5, func() {
		c = lag.NewTracker(cfg)
		c.CopyFrom(src)
	})
	// NewTracker's own, the blocks, the small tables and the maps,
	// whose tables are the only allocations that grow with the groups
	// (one a thousand or so): 46 here.
	if allocs > 64 {
		t.Errorf("a copy of 2,000 groups into a new tracker allocates %v times, want at most 64", allocs)
	}
	// The copy takes the next poll as its source would, and neither
	// writes the other's records.
	s.Time = fixture.Epoch.Add(3 * fixture.PollEvery)
	before := src.Named("group-00007")
	c.Add(s)
	if after := src.Named("group-00007"); !reflect.DeepEqual(after, before) {
		t.Fatalf("the source's verdict moved when its copy took a poll: %+v, was %+v", after, before)
	}
	src.Add(s)
	if reflect.DeepEqual(c.Named("group-00007"), before) {
		t.Fatal("the poll changed no verdict: the test shows nothing")
	}
	for gi := range s.Groups {
		name := s.Groups[gi].Name
		if a, b := c.Named(name), src.Named(name); !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: the copy judges %+v, the source %+v", name, a, b)
		}
		a, _ := c.Evaluate(name, nil)
		b, _ := src.Evaluate(name, nil)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: the copy's partitions %+v, the source's %+v", name, a, b)
		}
	}
}
