package tui

import (
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/group"
)

// ordersApp opens orders-app (the sixth group by name) from the groups
// screen.
var ordersApp = []string{"j", "j", "j", "j", "j", "enter"}

// TestFooterKeys: every screen and tab lists its action keys in the
// footer, cut by priority to the width; `? help` and `q quit` (`q back` on
// a pushed screen) always stay.
func TestFooterKeys(t *testing.T) {
	tests := []struct {
		name  string
		keys  []string
		opts  Options
		at80  string
		at120 string
		steps []func(time.Time) (*kafka.Snapshot, error)
	}{
		{name: "groups",
			at80:  "enter open · / filter · NLTHSM sort · R reset · D delete · ? help · q quit",
			at120: "enter open · / filter · NLTHSM sort · R reset · D delete · ? help · r refresh · p pause · : command · q quit"},
		{name: "groups with a filter", keys: []string{"/", "o", "r", "enter"},
			at80:  "enter open · esc clear · n/N match · LTHSM sort · R reset · ? help · q quit",
			at120: "enter open · esc clear · n/N match · LTHSM sort · R reset · D delete · ? help · r refresh · p pause · : command · q quit"},
		{name: "groups typing a filter", keys: []string{"/", "o"},
			at80:  "ctrl+c quit",
			at120: "ctrl+c quit"},
		{name: "groups read-only", opts: Options{ReadOnly: true},
			at80:  "enter open · / filter · NLTHSM sort · ? help · r refresh · : command · q quit",
			at120: "enter open · / filter · NLTHSM sort · ? help · r refresh · p pause · : command · q quit"},
		{name: "groups paused", keys: []string{"p"},
			at80:  "enter open · / filter · NLTHSM sort · R reset · ? help · p resume · q quit",
			at120: "enter open · / filter · NLTHSM sort · R reset · D delete · ? help · r refresh · p resume · : command · q quit"},
		{name: "partitions", keys: ordersApp,
			at80:  "R reset · space select · e seek · x exact · / filter · c chart · ? help · q back",
			at120: "R reset · space select · e seek · x exact · / filter · c chart · tab tabs · ? help · r refresh · : command · q back"},
		{name: "partitions read-only", keys: ordersApp, opts: Options{ReadOnly: true},
			at80:  "space select · x exact · / filter · c chart · tab tabs · ? help · q back",
			at120: "space select · x exact · / filter · c chart · tab tabs · ? help · r refresh · p pause · : command · q back"},
		{name: "partitions with a filter", keys: append(append([]string{}, ordersApp...), "/", "r", "enter"),
			at80:  "esc clear · n/N match · R reset · space select · e seek · ? help · q back",
			at120: "esc clear · n/N match · R reset · space select · e seek · x exact · / filter · c chart · tab tabs · ? help · q back"},
		{name: "members", keys: append(append([]string{}, ordersApp...), "tab"),
			at80:  "X remove · A remove all · x exact · / filter · c chart · ? help · q back",
			at120: "X remove · A remove all · x exact · / filter · c chart · tab tabs · ? help · r refresh · p pause · : command · q back"},
		{name: "chart", keys: append(append([]string{}, ordersApp...), "tab", "tab"),
			at80:  "c chart · x exact · tab tabs · ? help · r refresh · p pause · : command · q back",
			at120: "c chart · x exact · tab tabs · ? help · r refresh · p pause · : command · q back"},
		{name: "timeline", keys: append(append([]string{}, ordersApp...), "tab", "tab", "tab"),
			at80:  "tab tabs · ? help · r refresh · p pause · : command · q back",
			at120: "tab tabs · ? help · r refresh · p pause · : command · q back"},
		{name: "simulate", keys: append(append([]string{}, ordersApp...), "shift+tab"),
			at80:  "l leave · n join · tab tabs · ? help · r refresh · p pause · : command · q back",
			at120: "l leave · n join · tab tabs · ? help · r refresh · p pause · : command · q back"},
		{name: "simulated", keys: append(append([]string{}, ordersApp...), "shift+tab", "l"), steps: []func(time.Time) (*kafka.Snapshot, error){rebalancing(0)},
			at80:  "l leave · n join · a next assignor · tab tabs · ? help · : command · q back",
			at120: "l leave · n join · a next assignor · tab tabs · ? help · r refresh · p pause · : command · q back"},
		{name: "help", keys: []string{"?"},
			at80:  "j/k pgdn scroll · ? close help · r refresh · p pause · : command · q back",
			at120: "? close help · r refresh · p pause · : command · q back"},
	}
	for _, tt := range tests {
		for _, w := range []int{80, 120} {
			t.Run(tt.name+"/"+itoa(w), func(t *testing.T) {
				h := newHarness(t, w, map[int]int{80: 24, 120: 40}[w], tt.opts, tt.steps...)
				h.poll()
				h.press(tt.keys...)
				want := tt.at80
				if w == 120 {
					want = tt.at120
				}
				got := footer(h)
				if got != want {
					t.Fatalf("footer at %d columns:\n%s\nwant\n%s", w, got, want)
				}
				if format.Width(got) > w {
					t.Fatalf("footer is %d cells wide", format.Width(got))
				}
			})
		}
	}
}

// TestQGoesBackAndQuits: q goes back from every pushed screen (the group
// screen on each tab, the help, the help over the group screen) and quits
// on the groups screen; :q and Ctrl+C quit from anywhere; while text is
// typed (a filter, the command line, a dialog) q is text.
func TestQGoesBackAndQuits(t *testing.T) {
	h, _, _ := writable(t, Options{})
	onGroups := func(where string) {
		t.Helper()
		if h.m.top() != h.m.groups || h.quit {
			t.Fatalf("%s: top %T, quit %v", where, h.m.top(), h.quit)
		}
	}
	for tabs := range 5 {
		h.press(ordersApp...)
		for range tabs {
			h.press("tab")
		}
		if g := h.m.top().(*group.Model); int(g.Tab()) != tabs {
			t.Fatalf("on tab %d", g.Tab())
		}
		h.press("q")
		onGroups("q on tab " + itoa(tabs))
	}
	h.press("?", "q")
	onGroups("q on the help")
	h.press(ordersApp...)
	h.press("?", "q")
	if _, ok := h.m.top().(*group.Model); !ok || h.quit {
		t.Fatalf("q on the help over the group screen: top %T, quit %v", h.m.top(), h.quit)
	}
	h.press("q")
	onGroups("q on the group screen")

	// Text.
	h.press("/", "q")
	if h.m.groups.Filter() != "q" || h.quit {
		t.Fatalf("q while filtering the groups: filter %q, quit %v", h.m.groups.Filter(), h.quit)
	}
	h.press("esc")
	h.press(ordersApp...)
	h.press("/", "q")
	g := h.m.top().(*group.Model)
	if g.Filter(group.Partitions) != "q" || h.quit {
		t.Fatalf("q while filtering the partitions: filter %q, quit %v", g.Filter(group.Partitions), h.quit)
	}
	h.press("esc", ":", "q")
	if !h.m.cmdActive || h.quit || h.m.top() != g {
		t.Fatalf("q on the command line: active %v, quit %v", h.m.cmdActive, h.quit)
	}
	h.press("esc", "R") // the reset wizard reads text
	if !h.m.top().Capturing() {
		t.Fatalf("R opened %T", h.m.top())
	}
	h.press("q")
	if !h.m.top().Capturing() || h.quit {
		t.Fatalf("q in the reset wizard: top %T, quit %v", h.m.top(), h.quit)
	}
	h.press("ctrl+c")
	if !h.quit {
		t.Fatal("ctrl+c in the reset wizard did not quit")
	}

	h = newHarness(t, 80, 24, Options{})
	h.poll()
	h.press(ordersApp...)
	h.press("tab", "?", ":", "q", "enter")
	if !h.quit {
		t.Fatal(":q on the help over the group screen did not quit")
	}
}
