package tui

import (
	"strings"
	"testing"

	"github.com/kgroups/kgroups/views/screens/simulate"
	"github.com/kgroups/kgroups/views/ui"
)

// simulateTab opens orders-app's Simulate tab.
func simulateTab(t *testing.T, h *harness) {
	t.Helper()
	h.press("j", "j", "j", "j", "j", "enter", "tab", "tab", "tab", "tab")
	if got := lines(h.view())[6]; !strings.HasSuffix(got, "[Simulate]  Diagnosis") {
		t.Fatalf("tab bar = %q", got)
	}
}

// TestAnswerReachesTheTabThatAsked: a simulation's answer reaches the
// Simulate tab inside the group screen even with the help on top, and
// nothing else.
func TestAnswerReachesTheTabThatAsked(t *testing.T) {
	h := newHarness(t, 120, 40, Options{})
	h.poll()
	simulateTab(t, h)
	run := h.request(h.send(keyMsg("n")))
	if len(h.m.requests) != 1 {
		t.Fatalf("%d requests in flight, want 1", len(h.m.requests))
	}
	h.press("?")
	h.run(run)
	if len(h.m.requests) != 0 {
		t.Fatalf("%d requests left after the answer", len(h.m.requests))
	}
	h.press("?")
	// The fixture's members sent no join metadata: the answer is that
	// the simulation failed, and why.
	if v := h.view(); !strings.Contains(v, "the simulation failed") || !strings.Contains(v, "sent no subscription metadata") {
		t.Fatalf("the answer did not reach the Simulate tab under the help:\n%s", v)
	}
}

// TestLateSimulateResultForAReopenedTab: the answer to a simulation asked
// for by a group screen that was closed since finds no one, even when the
// same group's screen is open again.
func TestLateSimulateResultForAReopenedTab(t *testing.T) {
	h := newHarness(t, 120, 40, Options{})
	h.poll()
	simulateTab(t, h)
	run := h.request(h.send(keyMsg("n")))
	h.press("esc")
	h.press("enter", "tab", "tab", "tab", "tab") // orders-app again
	before := h.view()
	reply := run()
	if _, ok := reply.(simulate.ResultMsg); !ok {
		t.Fatalf("the simulation answered %T", reply)
	}
	if cmd := h.send(reply); cmd != nil {
		t.Fatal("a late answer made work")
	}
	if v := h.view(); v != before {
		t.Fatalf("a late answer for the closed tab changed the new one:\n%s\nwant\n%s", v, before)
	}
	if len(h.m.requests) != 0 {
		t.Fatalf("%d requests left", len(h.m.requests))
	}
}

// TestLateExactTimeLagForAReopenedScreen: records read for a group screen
// that was closed since do not land on the one opened after it, and an
// answer nobody asked for is dropped.
func TestLateExactTimeLagForAReopenedScreen(t *testing.T) {
	h := newHarness(t, 120, 40, Options{}, trendSteps()...)
	h.warm()
	h.press("j", "enter")
	req := h.send(keyMsg("x"))().(ui.TimestampsRequestMsg)
	read := h.send(req)
	h.press("esc", "enter")
	before := h.view()
	h.run(read)
	if v := h.view(); v != before || strings.Contains(v, "exact time lag") {
		t.Fatalf("a late read reached the new screen:\n%s\nwant\n%s", v, before)
	}
	if cmd := h.send(ui.TimestampsMsg{ID: ui.NewRequestID(), Group: "billing-reconciler"}); cmd != nil || h.view() != before {
		t.Fatal("an answer nobody asked for was delivered")
	}
}
