package grouplist

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/viewtest"
)

// TestLayoutStableAcrossRebalance feeds the screen polls in which
// billing-reconciler goes Stable -> PreparingRebalance -> Stable while its
// lag rises and falls: the header and every column stay where they were,
// the state cell fits its column, and no column (COORD) comes and goes.
func TestLayoutStableAcrossRebalance(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	states := []string{kafka.StateStable, kafka.StatePreparingRebalance, kafka.StateCompletingRebalance, kafka.StateStable, kafka.StateStable}
	bumps := []int64{0, 10, 20, 0, 0}
	for _, width := range []int{160, 180} {
		m := New(viewtest.Common(width, 12, true))
		l := lag.NewTracker(lag.Config{})
		tl := rebalance.NewTimeline(rebalance.TimelineConfig{})
		var header string
		var rows []string
		for i, st := range states {
			s := viewtest.Snapshot(viewtest.Epoch.Add(time.Duration(i)*5*time.Second), bumps[i])
			s.Groups[1].State = st // billing-reconciler
			l.Add(s)
			tl.Add(s)
			m.Update(ui.DataMsg{Snapshot: s, History: l, Lag: l, Rebalances: tl})
			lines := strings.Split(viewtest.Strip(m.View()), "\n")
			if i == 0 {
				header = lines[1]
			} else if lines[1] != header {
				t.Fatalf("width %d, poll %d: the header moved:\n%s\nwas\n%s", width, i, lines[1], header)
			}
			rows = append(rows, lines[3])
		}
		want := map[int][]string{
			160: {
				"  NAME↑              TYPE     STATE       HEALTH                                ASSIGNOR           MEMBERS TOPICS PARTS    LAG TIME-LAG TREND      COORD",
				"  billing-reconciler classic  Stable      JUDGING 1/10                          range                    2      1     4    769        - -              1",
				"  billing-reconciler classic  rebalancing JUDGING 2/10                          range                    2      1     4    809      ≥5s         ▄▄     1",
				"  billing-reconciler classic  rebalancing JUDGING 3/10                          range                    2      1     4    849     ≥10s        ▄▄▄     1",
				"  billing-reconciler classic  Stable      JUDGING 4/10                          range                    2      1     4    769     ≥15s       ▄▄▄▄     1",
				"  billing-reconciler classic  Stable      JUDGING 5/10                          range                    2      1     4    769     ≥20s      ▄▄▄▄▄     1",
			},
			180: {
				"  NAME↑              TYPE     STATE       HEALTH                                ASSIGNOR           MEMBERS TOPICS PARTS    LAG TIME-LAG TREND      COORD LAST-REB",
				"  billing-reconciler classic  Stable      JUDGING 1/10                          range                    2      1     4    769        - -              1        -",
				"  billing-reconciler classic  rebalancing JUDGING 2/10                          range                    2      1     4    809      ≥5s         ▄▄     1        -",
				"  billing-reconciler classic  rebalancing JUDGING 3/10                          range                    2      1     4    849     ≥10s        ▄▄▄     1        -",
				"  billing-reconciler classic  Stable      JUDGING 4/10                          range                    2      1     4    769     ≥15s       ▄▄▄▄     1       0s",
				"  billing-reconciler classic  Stable      JUDGING 5/10                          range                    2      1     4    769     ≥20s      ▄▄▄▄▄     1       0s",
			},
		}[width]
		if header != want[0] {
			t.Fatalf("width %d: header\n%s\nwant\n%s", width, header, want[0])
		}
		for i, r := range rows {
			if r != want[i+1] {
				t.Fatalf("width %d, poll %d:\n%s\nwant\n%s", width, i, r, want[i+1])
			}
		}
	}
}

// TestColumnsDependOnWidthAlone: at each width the groups screen shows
// the same columns, as wide, whether or not any verdict carries a cause
// (no lag history: every verdict "-"; twelve polls: causes after WARN and
// ERR). A cause appearing drops no column and moves none.
func TestColumnsDependOnWidthAlone(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	header := func(width int, msg ui.DataMsg) string {
		m := New(viewtest.Common(width, 12, true))
		m.Update(msg)
		for _, l := range strings.Split(viewtest.Strip(m.View()), "\n") {
			if strings.Contains(l, "NAME") {
				return l
			}
		}
		t.Fatalf("width %d: no header", width)
		return ""
	}
	l, s := viewtest.LagAfter(12)
	caused := ui.DataMsg{Snapshot: s, History: l, Lag: l}
	bare := ui.DataMsg{Snapshot: viewtest.Snapshot(viewtest.Epoch, 0), History: viewtest.History{}}
	for _, width := range []int{80, 100, 120, 140, 160, 200} {
		if a, b := header(width, bare), header(width, caused); a != b {
			t.Errorf("width %d: the columns depend on the rows:\nwithout causes %q\nwith causes    %q", width, a, b)
		}
	}
}
