package tui

import (
	"strings"
	"testing"

	"github.com/kgroups/kgroups/views/screens/removal"
	"github.com/kgroups/kgroups/views/viewtest"
)

// TestRemovalDialogScrollsInTheRealApp: at 120x12 the removal dialog's
// prompt is below the area; the dialog's own arrows scroll to it, in the
// program as the user runs it (the root, its key routing, its layout).
func TestRemovalDialogScrollsInTheRealApp(t *testing.T) {
	rm := &fakeRemover{out: settled()}
	h := newHarness(t, 120, 12, Options{ContextInfo: ContextInfo{Writers: Writers{Reset: &fakeReset{}, Members: rm}}})
	h.poll()
	openRemoval(t, h)
	const prompt = "Remove 1 member? The group will rebalance."
	if v := h.view(); strings.Contains(v, prompt) {
		t.Fatalf("the prompt fits at 120x12, the test proves nothing:\n%s", v)
	}
	for range 8 {
		h.press("down")
		viewtest.RequireSafe(t, "scrolling", h.m.View(), 120, 12)
	}
	v := h.view()
	if !strings.Contains(v, prompt) {
		t.Fatalf("the arrows did not scroll to the prompt:\n%s", v)
	}
	if _, ok := h.m.top().(*removal.Model); !ok {
		t.Fatalf("the arrows left the dialog: %T on top", h.m.top())
	}
	// Up scrolls back at once: Down stopped at the end.
	h.press("up")
	if strings.Contains(h.view(), prompt) {
		t.Fatalf("up did not scroll back:\n%s", h.view())
	}
	h.press("pgdown")
	if !strings.Contains(h.view(), prompt) {
		t.Fatalf("pgdown did not scroll to the prompt:\n%s", h.view())
	}
	h.press("y")
	if n, _ := rm.calls(); n != 1 {
		t.Fatalf("y after scrolling sent %d removals", n)
	}
}
