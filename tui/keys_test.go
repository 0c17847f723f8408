package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/screens/groupdetail"
	"github.com/kgroups/kgroups/views/viewtest"
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
		{name: "groups read-only", opts: Options{ContextInfo: ContextInfo{ReadOnly: true}},
			at80:  "enter open · / filter · NLTHSM sort · ? help · r refresh · : command · q quit",
			at120: "enter open · / filter · NLTHSM sort · ? help · r refresh · p pause · : command · q quit"},
		{name: "groups paused", keys: []string{"p"},
			at80:  "enter open · / filter · NLTHSM sort · R reset · ? help · p resume · q quit",
			at120: "enter open · / filter · NLTHSM sort · R reset · D delete · ? help · r refresh · p resume · : command · q quit"},
		{name: "partitions", keys: ordersApp,
			at80:  "tab tabs · R reset · space select · e seek · v view · x exact · ? help · q back",
			at120: "tab tabs · R reset · space select · e seek · v view · x exact · / filter · c chart · ? help · : command · q back"},
		{name: "partitions read-only", keys: ordersApp, opts: Options{ContextInfo: ContextInfo{ReadOnly: true}},
			at80:  "tab tabs · space select · v view · x exact · / filter · ? help · q back",
			at120: "tab tabs · space select · v view · x exact · / filter · c chart · ? help · r refresh · p pause · : command · q back"},
		{name: "partitions with a filter", keys: append(append([]string{}, ordersApp...), "/", "r", "enter"),
			at80:  "esc clear · n/N match · tab tabs · R reset · space select · ? help · q back",
			at120: "esc clear · n/N match · tab tabs · R reset · space select · e seek · v view · x exact · / filter · ? help · q back"},
		{name: "members", keys: append(append([]string{}, ordersApp...), "tab"),
			at80:  "tab tabs · X remove · A remove all · x exact · / filter · ? help · q back",
			at120: "tab tabs · X remove · A remove all · x exact · / filter · c chart · ? help · r refresh · p pause · : command · q back"},
		{name: "chart", keys: append(append([]string{}, ordersApp...), "tab", "tab"),
			at80:  "tab tabs · c chart · x exact · ? help · r refresh · p pause · : command · q back",
			at120: "tab tabs · c chart · x exact · ? help · r refresh · p pause · : command · q back"},
		{name: "timeline", keys: append(append([]string{}, ordersApp...), "tab", "tab", "tab"),
			at80:  "tab tabs · ? help · r refresh · p pause · : command · q back",
			at120: "tab tabs · ? help · r refresh · p pause · : command · q back"},
		{name: "diagnosis", keys: append(append([]string{}, ordersApp...), "shift+tab"),
			at80:  "tab tabs · enter go to · ? help · r refresh · p pause · : command · q back",
			at120: "tab tabs · enter go to · ? help · r refresh · p pause · : command · q back"},
		{name: "simulate", keys: append(append([]string{}, ordersApp...), "shift+tab", "shift+tab"),
			at80:  "tab tabs · l leave · n join · ? help · r refresh · p pause · : command · q back",
			at120: "tab tabs · l leave · n join · ? help · r refresh · p pause · : command · q back"},
		{name: "simulated", keys: append(append([]string{}, ordersApp...), "shift+tab", "shift+tab", "l"), steps: []func(time.Time) (*kafka.Snapshot, error){rebalancing(0)},
			at80:  "tab tabs · l leave · n join · a next assignor · ? help · : command · q back",
			at120: "tab tabs · l leave · n join · a next assignor · ? help · r refresh · p pause · : command · q back"},
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
		if g := h.m.top().(*groupdetail.Model); int(g.Tab()) != tabs {
			t.Fatalf("on tab %d", g.Tab())
		}
		h.press("q")
		onGroups("q on tab " + itoa(tabs))
	}
	h.press("?", "q")
	onGroups("q on the help")
	h.press(ordersApp...)
	h.press("?", "q")
	if _, ok := h.m.top().(*groupdetail.Model); !ok || h.quit {
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
	g := h.m.top().(*groupdetail.Model)
	if g.Filter(groupdetail.Partitions) != "q" || h.quit {
		t.Fatalf("q while filtering the partitions: filter %q, quit %v", g.Filter(groupdetail.Partitions), h.quit)
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

// TestHelpScrollsWithAMoreMark: at 80×24 the help over the group screen is
// taller than the screen: its last line says there is more; scrolling
// reveals the last key (the legend's last entry) and the mark goes.
func TestHelpScrollsWithAMoreMark(t *testing.T) {
	for _, utf8 := range []bool{true, false} {
		lang := map[bool]string{true: "en_US.UTF-8", false: "C"}[utf8]
		h := newHarness(t, 80, 24, Options{Getenv: func(k string) string {
			if k == "LANG" {
				return lang
			}
			return ""
		}})
		h.poll()
		h.press(ordersApp...)
		h.press("?")
		mark := map[bool]string{true: "↓ more (", false: "-- more -- ("}[utf8]
		// The legend's keys are as wide as its widest, ">=12s" in ASCII.
		last := map[bool]string{true: "ERR   STALL, STOP or REWIND: see the group", false: "ERR    STALL, STOP or REWIND: see the group"}[utf8]
		ls := lines(h.view())
		if !strings.HasPrefix(ls[22], mark) || strings.Contains(h.view(), last) {
			t.Fatalf("LANG=%s: line 22 = %q; the help shows the last key: %v", lang, ls[22], strings.Contains(h.view(), last))
		}
		for i := 0; i < 40 && !strings.Contains(h.view(), last); i++ {
			h.press("j")
		}
		ls = lines(h.view())
		if !strings.Contains(h.view(), last) || ls[21] != last {
			t.Fatalf("LANG=%s: j never showed the last key at the bottom:\n%s", lang, h.view())
		}
		if ls[22] != "" || strings.Contains(h.view(), "more") {
			t.Fatalf("LANG=%s: at the end the mark line is %q", lang, ls[22])
		}
		h.press("g")
		if !strings.HasPrefix(lines(h.view())[22], mark) {
			t.Fatalf("LANG=%s: g did not bring the mark back", lang)
		}
		h.press("pgdown", "pgdown", "pgdown")
		if ls := lines(h.view()); ls[21] != last || ls[22] != "" {
			t.Fatalf("LANG=%s: pgdn did not reach the end:\n%s", lang, h.view())
		}
		h.press("pgup")
		if !strings.HasPrefix(lines(h.view())[22], mark) {
			t.Fatalf("LANG=%s: pgup did not bring the mark back", lang)
		}
	}
}

// TestDeadKeysSayWhere: a key bound nowhere on the screen on show says
// where it does something, or that it does nothing here; a key that is
// bound does not.
func TestDeadKeysSayWhere(t *testing.T) {
	h := newHarness(t, 100, 24, Options{})
	h.poll()
	h.press(ordersApp...)
	h.press("tab", "tab") // Chart
	tests := []struct{ key, flash string }{
		{"/", "/ filters on the groups screen and on a group's Partitions and Members tabs"},
		{"L", "L sorts the groups screen by lag"},
		{"X", "X removes a member on a group's Members tab"},
		{"l", "l simulates a member leaving on a group's Simulate tab"},
		{"n", "n steps through filter matches; on the Simulate tab n adds a member"},
		{"z", "z does nothing here; ? lists this screen's keys"},
		{"enter", "enter opens the group under the cursor on the groups screen"},
		{"space", "space selects partitions on a group's Partitions tab"},
	}
	for _, tt := range tests {
		h.press(tt.key)
		if got := footer(h); got != tt.flash {
			t.Errorf("%s on the Chart tab says %q, want %q", tt.key, got, tt.flash)
		}
	}
	// The message goes with the next key; a bound key says nothing.
	h.press("c")
	if got := footer(h); !strings.HasPrefix(got, "tab tabs · c chart · x exact") {
		t.Fatalf("after c the footer is %q", got)
	}
	// On the groups screen: tab and x are the group screen's; n without a
	// filter steps through nothing.
	h.press("esc", "tab")
	if got := footer(h); got != "tab switches the group screen's tabs" {
		t.Fatalf("tab on the groups screen says %q", got)
	}
	h.press("n")
	if got := footer(h); got != "n steps through filter matches; on the Simulate tab n adds a member" {
		t.Fatalf("n on the groups screen says %q", got)
	}
	// The help's keys are its scrolling; the rest are dead.
	h.press("?", "R")
	if got := footer(h); got != "R resets offsets from the groups screen or a group's Partitions tab" {
		t.Fatalf("R on the help says %q", got)
	}
	h.press("j")
	if got := footer(h); strings.Contains(got, "does nothing") || strings.Contains(got, "resets") {
		t.Fatalf("j on the help says %q", got)
	}
	// A key typed into a filter is text, never a dead key.
	h.press("esc", "/", "z")
	if got := h.m.groups.Filter(); got != "z" || strings.Contains(footer(h), "does nothing") {
		t.Fatalf("z typed in the filter: filter %q, footer %q", got, footer(h))
	}
}

// TestGroupScreenFilter: `/` filters the Partitions tab by topic,
// "topic:partition", member id or client id, and the Members tab by member
// id, client id, host or instance id, each tab its own; the actions take
// the rows as filtered; Esc clears a kept filter before it goes back.
func TestGroupScreenFilter(t *testing.T) {
	h, _, _ := writable(t, Options{})
	h.press(ordersApp...)
	g := h.m.top().(*groupdetail.Model)
	topics := func() []string {
		var out []string
		for _, l := range lines(h.view())[9:] {
			// The cursor and a selection mark lead a row.
			l = strings.TrimLeft(l, "▶✓ ")
			if f := strings.Fields(l); len(f) > 1 && (f[0] == "orders" || f[0] == "refunds") {
				out = append(out, f[0]+":"+f[1])
			}
		}
		return out
	}
	h.press("/")
	h.typeText("REF")
	if got := lines(h.view())[7]; got != "/REF█  1 of 7 match · enter keep · esc clear" {
		t.Fatalf("filter line = %q", got)
	}
	if got := topics(); !equal(got, []string{"refunds:0"}) {
		t.Fatalf("/REF shows %v", got)
	}
	for _, tt := range []struct {
		filter string
		want   []string
	}{
		{"orders:4", []string{"orders:4"}},
		{"2d93", []string{"orders:3", "orders:4", "orders:5"}}, // member id
		{"orders-app", []string{"orders:0", "orders:1", "orders:2", "orders:3", "orders:4", "orders:5", "refunds:0"}}, // client id
		{"nothing", nil},
	} {
		h.press("ctrl+u")
		h.typeText(tt.filter)
		if got := topics(); !equal(got, tt.want) {
			t.Errorf("/%s shows %v, want %v", tt.filter, got, tt.want)
		}
	}
	if !strings.Contains(h.view(), "\n  no partition matches the filter") {
		t.Fatalf("no empty-result line:\n%s", h.view())
	}
	h.press("ctrl+u")
	h.typeText("2d93")
	h.press("enter")
	if got := lines(h.view())[7]; got != "/2d93  3 of 7 match" {
		t.Fatalf("kept filter line = %q", got)
	}
	// The actions act on the rows as filtered: j then space selects
	// orders 4, the second row shown.
	h.press("j", "space")
	if got := g.Selected(); len(got) != 1 || got[0].Topic != "orders" || got[0].Partition != 4 {
		t.Fatalf("selected %v, want orders 4", got)
	}
	// n and N step through the matches, round and round; nothing re-sorts.
	cursor := func() string {
		for _, l := range lines(h.view())[9:] {
			// orders 4 is selected: its row is marked after the cursor.
			if rest, ok := strings.CutPrefix(l, "▶"); ok {
				f := strings.Fields(strings.TrimPrefix(rest, "✓"))
				return f[0] + ":" + f[1]
			}
		}
		return ""
	}
	for _, tt := range []struct{ key, want string }{{"n", "orders:5"}, {"n", "orders:3"}, {"N", "orders:5"}, {"N", "orders:4"}} {
		h.press(tt.key)
		if got := cursor(); got != tt.want {
			t.Fatalf("after %s the cursor is on %q, want %q", tt.key, got, tt.want)
		}
	}
	// The filter survives a poll.
	h.poll()
	if got := topics(); !equal(got, []string{"orders:3", "orders:4", "orders:5"}) {
		t.Fatalf("after a poll: %v", got)
	}

	// Members: a filter of their own.
	h.press("tab")
	if got := lines(h.view())[7]; !strings.HasPrefix(got, "  MEMBER-ID") {
		t.Fatalf("the Members tab shows a filter: %q", got)
	}
	members := func() []string {
		var out []string
		for _, l := range lines(h.view()) {
			if f := strings.Fields(strings.TrimPrefix(l, "▶")); len(f) > 0 && strings.HasPrefix(f[0], "orders-app-") {
				out = append(out, f[0][:12])
			}
		}
		return out
	}
	for _, tt := range []struct {
		filter string
		want   []string
	}{
		{"10.0.2.16", []string{"orders-app-2"}},                  // host
		{"7D1C0A52", []string{"orders-app-1"}},                   // member id, any case
		{"orders-app", []string{"orders-app-1", "orders-app-2"}}, // client id
	} {
		h.press("/", "ctrl+u")
		h.typeText(tt.filter)
		h.press("enter")
		if got := members(); !equal(got, tt.want) {
			t.Errorf("members /%s shows %v, want %v", tt.filter, got, tt.want)
		}
	}
	h.press("/", "ctrl+u")
	h.typeText("2.16")
	h.press("enter", "X") // removes the one member shown
	if got := h.view(); !strings.Contains(got, "orders-app-2-1f8e3b6d") || strings.Contains(got, "orders-app-1-7d1c0a52") {
		t.Fatalf("X on the filtered member:\n%s", got)
	}
	h.press("esc")
	if h.m.top() != g {
		t.Fatalf("esc from the removal dialog left %T", h.m.top())
	}
	// Esc clears the kept filter first, then goes back.
	h.press("esc")
	if h.m.top() != g || g.Filter(groupdetail.Members) != "" || len(members()) != 2 {
		t.Fatalf("first esc: top %T, filter %q", h.m.top(), g.Filter(groupdetail.Members))
	}
	h.press("shift+tab", "esc")
	if h.m.top() != g || g.Filter(groupdetail.Partitions) != "" {
		t.Fatalf("esc on the Partitions tab: top %T, filter %q", h.m.top(), g.Filter(groupdetail.Partitions))
	}
	h.press("esc")
	if h.m.top() != h.m.groups {
		t.Fatalf("the last esc left %T", h.m.top())
	}

	// Instance ids, on a KIP-848 group.
	h.press("g", "j", "j", "j", "enter", "tab", "/")
	h.typeText("sync-b")
	if got := lines(h.view()); !strings.Contains(h.view(), "1 of 2 match") || !strings.HasPrefix(got[9], "▶ Hn6pV8rJ1dQz5gLc0aEw2B") {
		t.Fatalf("/sync-b on inventory-sync's members:\n%s", h.view())
	}
}

// TestFilteredGroupsDoNotResort: while a filter is kept on the groups
// screen, n and N step through the matching groups, round and round, and
// do not sort; the other sorts still do.
func TestFilteredGroupsDoNotResort(t *testing.T) {
	h := newHarness(t, 120, 40, Options{})
	h.poll()
	h.press("/", "o", "r", "enter")
	want := []string{"fraud-scoring", "inventory-sync", "orders-app"}
	for _, tt := range []struct{ key, selected string }{
		{"n", "inventory-sync"}, {"n", "orders-app"}, {"n", "fraud-scoring"}, {"N", "orders-app"}, {"N", "inventory-sync"},
	} {
		h.press(tt.key)
		v := h.view()
		if got := tableNames(v); !equal(got, want) || !strings.Contains(lines(v)[4], "NAME↑") {
			t.Fatalf("%s re-sorted: %v, header %q", tt.key, got, lines(v)[4])
		}
		if got := h.m.groups.Selected(); got != tt.selected {
			t.Fatalf("%s selected %q, want %q", tt.key, got, tt.selected)
		}
	}
	h.press("L")
	if got := tableNames(h.view()); !equal(got, []string{"fraud-scoring", "orders-app", "inventory-sync"}) {
		t.Fatalf("L with a filter shows %v", got)
	}
	// Without a filter N sorts by name again.
	h.press("esc", "N")
	if got := tableNames(h.view()); len(got) != 8 || got[0] != "analytics-etl" || !strings.Contains(lines(h.view())[3], "NAME↑") {
		t.Fatalf("N without a filter: %v", got)
	}
}

// TestGroupCompletion: Tab on `:group PREFIX` completes the longest prefix
// the matching groups share, then shows each match in turn; Enter opens
// the group shown.
func TestGroupCompletion(t *testing.T) {
	h := newHarness(t, 80, 24, Options{}, func(time.Time) (*kafka.Snapshot, error) { return viewtest.ManyGroups(100), nil })
	h.poll()
	cmdline := func() string { return footer(h) }
	h.press(":")
	h.typeText("group g")
	for _, want := range []string{":group group-000█", ":group group-00000█", ":group group-00001█", ":group group-00002█"} {
		h.press("tab")
		if got := cmdline(); got != want {
			t.Fatalf("after tab: %q, want %q", got, want)
		}
	}
	// Typing starts over from what is on the line.
	h.press("backspace")
	h.typeText("9")
	h.press("tab")
	if got := cmdline(); got != ":group group-00009█" {
		t.Fatalf("one match: %q", got)
	}
	h.press("tab") // one match: nothing to cycle
	if got := cmdline(); got != ":group group-00009█" {
		t.Fatalf("tab on a complete name: %q", got)
	}
	h.press("ctrl+u")
	h.typeText("g group-0009")
	h.press("tab") // no common prefix longer than the typed one: the first match
	if got := cmdline(); got != ":group group-00090█" {
		t.Fatalf("no longer prefix: %q", got)
	}
	h.press("tab", "tab")
	if got := cmdline(); got != ":group group-00092█" {
		t.Fatalf("third match: %q", got)
	}
	h.press("enter")
	if g, ok := h.m.top().(*groupdetail.Model); !ok || g.Name() != "group-00092" {
		t.Fatalf("enter opened %T", h.m.top())
	}
	// Nothing matches, or another command: Tab leaves the line alone.
	h.press(":")
	h.typeText("group zzz")
	h.press("tab")
	if got := cmdline(); got != ":group zzz█" {
		t.Fatalf("no match: %q", got)
	}
	h.press("ctrl+u")
	h.typeText("ctx p")
	h.press("tab")
	if got := cmdline(); got != ":ctx p█" {
		t.Fatalf(":ctx: %q", got)
	}
}
