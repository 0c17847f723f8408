package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/views/viewtest"
)

// TestWizardTopicsCheckedAgainstTheSnapshot: R opens the reset wizard
// with the last poll's partition counts, so payments:7 on a 6-partition
// topic is flagged as it is typed, before anything is asked of the
// cluster.
func TestWizardTopicsCheckedAgainstTheSnapshot(t *testing.T) {
	counted := func(now time.Time) (*kafka.Snapshot, error) {
		s := viewtest.Snapshot(now, 0)
		s.PartitionCounts = map[string]int32{"payments": 6}
		return s, nil
	}
	r := &fakeReset{}
	h := newHarness(t, 120, 40, Options{ContextInfo: ContextInfo{Writers: Writers{Reset: r}}}, counted)
	h.poll()
	h.press("j", "j", "R", "1") // fraud-scoring, to-earliest
	h.typeText("payments:7")
	want := `✖ topic "payments" has 6 partitions (0-5); partition 7 does not exist`
	if v := h.view(); !strings.Contains(v, want) {
		t.Fatalf("the wizard does not flag payments:7:\n%s", v)
	}
	h.press("enter")
	if r.Calls() != 0 {
		t.Fatalf("enter asked the cluster %d times with a partition that does not exist", r.Calls())
	}
	h.press("backspace")
	h.typeText("5")
	if v := h.view(); strings.Contains(v, "does not exist") {
		t.Fatalf("payments:5 is flagged:\n%s", v)
	}
}

// noopReset plans a reset that changes nothing: every partition is
// already at its target.
type noopReset struct{ fakeReset }

func (f *noopReset) Plan(_ context.Context, req reset.Request) (*reset.Plan, error) {
	f.count()
	return &reset.Plan{Group: req.Group, Exists: true, State: "Empty", Scenario: req.Scenario, Scope: req.Scope, Rows: []reset.Row{
		{Topic: "payments", Partition: 0, Current: 40_010, New: 40_010, LogStart: 0, LogEnd: 40_890},
		{Topic: "payments", Partition: 1, Current: 39_870, New: 39_870, LogStart: 0, LogEnd: 40_770},
	}}, nil
}

// TestGoldenWizardEdges: the wizard flagging a partition that does not
// exist, a preview with nothing to change, and the footer once that closes,
// at both sizes.
func TestGoldenWizardEdges(t *testing.T) {
	counted := func(now time.Time) (*kafka.Snapshot, error) {
		s := viewtest.Snapshot(now, 0)
		s.PartitionCounts = map[string]int32{"payments": 6}
		return s, nil
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		suffix := "_" + itoa(size[0]) + "x" + itoa(size[1])
		t.Run("topics_flagged"+suffix, func(t *testing.T) {
			h := newHarness(t, size[0], size[1], Options{ContextInfo: ContextInfo{Writers: Writers{Reset: &fakeReset{}}}}, counted)
			h.poll()
			h.press("j", "j", "R", "1")
			h.typeText("payments:7")
			golden.RequireEqual(t, []byte(h.view()))
		})
		t.Run("noop_preview"+suffix, func(t *testing.T) {
			r := &noopReset{}
			h := newHarness(t, size[0], size[1], Options{ContextInfo: ContextInfo{Writers: Writers{Reset: r}}}, counted)
			h.poll()
			h.press("j", "j", "R", "3", "enter")
			golden.RequireEqual(t, []byte(h.view()))
			h.press("enter")
			want := "nothing to change: every partition already holds its target offset"
			if got := footer(h); got != want || r.Calls() != 1 {
				t.Fatalf("after enter: footer %q (want %q), %d backend calls", got, want, r.Calls())
			}
		})
	}
}

// TestGoldenTimelineUnits: the timeline says how long a rebalance took in
// the units of its ages ("took 5.0s", "2m05s ago"), at both sizes.
func TestGoldenTimelineUnits(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		t.Run("timeline_"+itoa(size[0])+"x"+itoa(size[1]), func(t *testing.T) {
			h := newHarness(t, size[0], size[1], Options{}, rebalancing(0), rebalancing(1), rebalancing(2))
			for range 3 {
				h.poll()
				h.clock.Advance(5 * time.Second)
			}
			h.clock.Advance(2 * time.Minute)
			h.send(clockMsg{})
			h.press("j", "j", "j", "j", "j", "enter", "tab", "tab", "tab")
			v := h.view()
			if !strings.Contains(v, "last rebalance 09:27:03, 2m05s ago, took 5.0s") || !strings.Contains(v, "rebalance  took 5.0s") {
				t.Fatalf("the timeline does not say took 5.0s:\n%s", v)
			}
			golden.RequireEqual(t, []byte(v))
		})
	}
}

// TestCtxWithoutSwitch: `:ctx NAME` where switching is unavailable says
// why when the caller knows (the demo has one context), else that it is
// unavailable.
func TestCtxWithoutSwitch(t *testing.T) {
	for _, tt := range []struct{ noSwitch, want string }{
		{"", "switching contexts is unavailable here"},
		{"the demo has one context: quit, then kgroups --context NAME for another cluster", "the demo has one context: quit, then kgroups --context NAME for another cluster"},
	} {
		h := newHarness(t, 80, 24, Options{ContextInfo: ContextInfo{Name: "demo"}, NoSwitch: tt.noSwitch})
		h.poll()
		h.press(":")
		h.typeText("ctx prod")
		h.press("enter")
		if got := lines(h.view())[23]; got != tt.want {
			t.Errorf("NoSwitch %q: footer %q, want %q", tt.noSwitch, got, tt.want)
		}
	}
}
