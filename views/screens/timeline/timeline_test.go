package timeline

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/viewtest"
)

func at(sec int) time.Time { return viewtest.Epoch.Add(time.Duration(sec) * time.Second) }

func group(state string, members ...kafka.Member) kafka.Group {
	return kafka.Group{Name: "orders-app", Type: kafka.TypeClassic, State: state, Members: members}
}

func data(sec int, g kafka.Group) ui.DataMsg {
	return ui.DataMsg{Snapshot: &kafka.Snapshot{Time: at(sec), Groups: []kafka.Group{g}}}
}

// removal is a member removed and rejoining under a new id, as polls see
// it: Stable, PreparingRebalance without a, Stable with a2.
func removal() []ui.DataMsg {
	a := viewtest.Member("a-1", "", "client-a", "/10.0.0.1", "orders", 0, 1, 2)
	b := viewtest.Member("b-1", "", "client-b", "/10.0.0.2", "orders", 3, 4, 5)
	bAll := viewtest.Member("b-1", "", "client-b", "/10.0.0.2", "orders", 0, 1, 2)
	a2 := viewtest.Member("a-2", "", "client-a", "/10.0.0.1", "orders", 3, 4, 5)
	return []ui.DataMsg{
		data(0, group(kafka.StateStable, a, b)),
		data(1, group(kafka.StatePreparingRebalance, b)),
		data(3, group(kafka.StateStable, a2, bAll)),
	}
}

func TestTimelineTab(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	c := viewtest.Common(100, 10, true)
	m := New(c, "orders-app", nil)
	if got, want := viewtest.Strip(m.View()), "not seen yet · 0 events\n  nothing has happened to the group since kgroups started watching it"; got != want {
		t.Fatalf("before data:\n%s\nwant\n%s", got, want)
	}
	for _, msg := range removal() {
		m.Update(msg)
	}
	// The fixture clock is at second 0; the rebalance finished at 3.
	m.Now = func() time.Time { return at(65) }
	want := strings.Join([]string{
		"last rebalance 09:26:56, 1m02s ago, took 2.0s · 6 events",
		"  TIME     EVENT      DETAIL",
		"▶ 09:26:56 rebalance  took 2.0s",
		// a-2 is client-a on the same host again: the member rejoined.
		"  09:26:56 assignment 6 partitions changed process, 1 member rejoined with a new id (6 assigned)",
		"  09:26:56 joined     a-2 client client-a host /10.0.0.1",
		"  09:26:56 state      PreparingRebalance -> Stable",
		"  09:26:54 left       a-1 client client-a host /10.0.0.1",
		"  09:26:54 state      Stable -> PreparingRebalance",
	}, "\n")
	if got := viewtest.Strip(m.View()); got != want {
		t.Fatalf("view:\n%s\nwant\n%s", got, want)
	}
}

func TestTimelineTabReadsASharedSource(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	tl := rebalance.NewTimeline(rebalance.TimelineConfig{})
	msgs := removal()
	// The root fed the first two polls before the tab was opened.
	tl.Add(msgs[0].Snapshot)
	tl.Add(msgs[1].Snapshot)
	m := New(viewtest.Common(80, 6, false), "orders-app", tl)
	m.Now = func() time.Time { return at(2) }
	want := strings.Join([]string{
		"rebalancing since 09:26:54 (1s) | 2 events",
		"  TIME     EVENT DETAIL",
		"> 09:26:54 left  a-1 client client-a host /10.0.0.1",
		"  09:26:54 state Stable -> PreparingRebalance",
	}, "\n")
	if got := viewtest.Strip(m.View()); got != want {
		t.Fatalf("view:\n%s\nwant\n%s", got, want)
	}
	// Select the older event; it stays selected when new ones arrive.
	m.Update(tea.KeyMsg{Type: tea.KeyDown})
	tl.Add(msgs[2].Snapshot)
	m.Update(msgs[2])
	if got := m.Events()[m.win.Cursor]; got.Kind != rebalance.EventState || got.To != kafka.StatePreparingRebalance {
		t.Errorf("selection moved to %+v", got)
	}
	if n := len(m.Events()); n != 6 {
		t.Errorf("%d events, want 6", n)
	}
}

func TestDetail(t *testing.T) {
	tests := []struct {
		e    rebalance.Event
		want string
	}{
		{rebalance.Event{Kind: rebalance.EventJoined, MemberID: "s-1", ClientID: "c", InstanceID: "s"}, "s-1 client c instance s"},
		{rebalance.Event{Kind: rebalance.EventAssignment, Moved: 1, Assigned: 2, Unassigned: 3, Total: 4}, "1 partition changed process, 2 newly assigned, 3 no longer assigned (4 assigned)"},
		{rebalance.Event{Kind: rebalance.EventAssignment, Rejoined: 2, Total: 4}, "0 partitions changed process, 2 members rejoined with new ids (4 assigned)"},
		{rebalance.Event{Kind: rebalance.EventEpoch, PrevGroupEpoch: 3, GroupEpoch: 4, PrevAssignmentEpoch: 3, AssignmentEpoch: 3}, "group epoch 3 -> 4, assignment epoch 3"},
		{rebalance.Event{Kind: rebalance.EventRebalance, Between: true}, "finished between two polls (shorter than the refresh interval)"},
		// A lower bound is never rounded up: 12.5s is at least 12s.
		{rebalance.Event{Kind: rebalance.EventRebalance, AtLeast: true, Duration: 12500 * time.Millisecond}, "took at least 12.5s (already rebalancing when first seen)"},
		{rebalance.Event{Kind: rebalance.EventRebalance, Duration: 65 * time.Second}, "took 1m05s"},
		{rebalance.Event{Kind: rebalance.EventRebalance, Duration: 800 * time.Millisecond}, "took 0.8s"},
		{rebalance.Event{Kind: rebalance.EventState, To: kafka.StateEmpty}, "- -> Empty"},
	}
	for _, tc := range tests {
		if got := Detail(tc.e); got != tc.want {
			t.Errorf("Detail(%+v) = %q, want %q", tc.e, got, tc.want)
		}
	}
}
