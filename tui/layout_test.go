package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/viewtest"
)

// TestGroupsLayoutHoldsThroughARebalance polls through the root model while
// billing-reconciler goes Stable -> PreparingRebalance ->
// CompletingRebalance -> Stable: at 80x24 and 160x40 (where COORD just
// fits) the groups table's header is the same in every frame, and the
// group's row keeps every column where it was.
func TestGroupsLayoutHoldsThroughARebalance(t *testing.T) {
	states := []string{kafka.StateStable, kafka.StatePreparingRebalance, kafka.StateCompletingRebalance, kafka.StateStable}
	var steps []func(time.Time) (*kafka.Snapshot, error)
	for _, st := range states {
		steps = append(steps, func(now time.Time) (*kafka.Snapshot, error) {
			s := viewtest.Snapshot(now, 0)
			s.Groups[1].State = st // billing-reconciler
			return s, nil
		})
	}
	for _, tc := range []struct {
		width, height int
		header        string
		rows          []string // billing-reconciler, up to its LAG
	}{
		{80, 24, "  NAME↑              STATE       HEALTH                  LAG TIME-LAG TREND", []string{
			"  billing-reconciler Stable      JUDGING 1/10            769",
			"  billing-reconciler rebalancing JUDGING 2/10            769",
			"  billing-reconciler rebalancing JUDGING 3/10            769",
			"  billing-reconciler Stable      JUDGING 4/10            769",
		}},
		{160, 40, "  NAME↑              TYPE     STATE       HEALTH                                ASSIGNOR           MEMBERS TOPICS PARTS    LAG TIME-LAG TREND      COORD", []string{
			"  billing-reconciler classic  Stable      JUDGING 1/10                          range                    2      1     4    769",
			"  billing-reconciler classic  rebalancing JUDGING 2/10                          range                    2      1     4    769",
			"  billing-reconciler classic  rebalancing JUDGING 3/10                          range                    2      1     4    769",
			"  billing-reconciler classic  Stable      JUDGING 4/10                          range                    2      1     4    769",
		}},
	} {
		h := newHarness(t, tc.width, tc.height, Options{}, steps...)
		for i := range states {
			h.poll()
			h.clock.Advance(5 * time.Second)
			v := lines(h.view())
			if v[3] != tc.header {
				t.Fatalf("%dx%d, poll %d: header\n%q\nwant\n%q", tc.width, tc.height, i, v[3], tc.header)
			}
			row := v[5]
			if cut := len(tc.rows[i]); len(row) > cut {
				row = row[:cut]
			}
			if row != tc.rows[i] {
				t.Fatalf("%dx%d, poll %d: row\n%q\nwant it to start\n%q", tc.width, tc.height, i, v[5], tc.rows[i])
			}
			// Where COORD fits, it stays: broker 1, under its title.
			if tc.width > 100 && !strings.HasSuffix(v[5], "     1") {
				t.Fatalf("%dx%d, poll %d: COORD is gone from\n%q", tc.width, tc.height, i, v[5])
			}
		}
	}
}
