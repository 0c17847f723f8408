package tui

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/screens/groupdetail"
	"github.com/kgroups/kgroups/views/screens/grouplist"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/viewtest"
)

func lines(v string) []string { return strings.Split(v, "\n") }

// tableNames returns the first cell of every table row on screen: the group
// names on the groups screen.
func tableNames(v string) []string {
	var out []string
	inTable := false
	for _, l := range lines(v) {
		if !inTable {
			inTable = strings.HasPrefix(strings.TrimLeft(l, " "), "NAME")
			continue
		}
		rest, ok := strings.CutPrefix(l, "  ")
		if !ok {
			rest, ok = strings.CutPrefix(l, "▶ ")
		}
		if !ok {
			rest, ok = strings.CutPrefix(l, "> ")
		}
		f := strings.Fields(rest)
		if !ok || len(f) < 2 {
			break
		}
		out = append(out, f[0])
	}
	return out
}

func equal(a, b []string) bool { return strings.Join(a, ",") == strings.Join(b, ",") }

func TestViewFitsTheTerminal(t *testing.T) {
	h := newHarness(t, 80, 24, Options{}, trendSteps()...)
	h.warm()
	screens := map[string][]string{"groups": nil, "group": {"j", "j", "j", "j", "j", "enter"}, "members": {"tab"}, "chart": {"tab"}, "partition chart": {"c"}, "help": {"?"}}
	for _, name := range []string{"groups", "group", "members", "chart", "partition chart", "help"} {
		h.press(screens[name]...)
		for _, size := range [][2]int{{80, 24}, {120, 40}, {100, 30}, {200, 60}, {60, 15}, {20, 6}, {5, 4}, {80, 24}} {
			h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			raw := h.m.View()
			ls := lines(raw)
			if len(ls) != size[1] {
				t.Errorf("%s at %dx%d: %d lines", name, size[0], size[1], len(ls))
			}
			for i, l := range ls {
				if w := ansi.StringWidth(l); w > size[0] {
					t.Errorf("%s at %dx%d: line %d is %d wide: %q", name, size[0], size[1], i, w, ansi.Strip(l))
				}
			}
		}
	}
}

// timeToken matches a time lag as screens show it, with its mark, and an
// age in one unit (how long a group has been rebalancing).
var timeToken = regexp.MustCompile(`(≥|~|=)?[0-9]+(d[0-9]{2}h|h[0-9]{2}m|m[0-9]{2}s|[smhd])`)

// TestUnchangedRefreshChangesOneLine: over a slow link, a poll that brings
// the same data must repaint (almost) nothing. Bubble Tea rewrites only the
// lines that differ from the last frame, so the number of differing lines
// is what goes over the wire. The refresh status line changes, and so do
// the time lags that are lower bounds: a consumer stuck behind a log that
// does not move is 5s further behind after 5s, and the screen says so;
// so does how long a commit has stood when the verdict waits for it.
// Nothing else on those lines may change. The same holds for how long a
// group has been rebalancing.
func TestUnchangedRefreshChangesOneLine(t *testing.T) {
	for _, screen := range [][]string{nil, {"j", "enter"}, {"j", "enter", "tab"}} {
		h := newHarness(t, 120, 40, Options{})
		for range 12 { // fill the sparklines
			h.poll()
			h.clock.Advance(5 * time.Second)
		}
		h.press(screen...)
		h.clock.Advance(-2 * time.Second)
		h.send(clockMsg{})
		before := lines(h.m.View())
		h.clock.Advance(2 * time.Second)
		h.poll()
		after := lines(h.m.View())
		if len(before) != len(after) {
			t.Fatalf("line count changed: %d -> %d", len(before), len(after))
		}
		var changed, bounds []int
		for i := range before {
			if before[i] != after[i] {
				changed = append(changed, i)
			}
			// A rebalancing group's state says for how long, and a
			// verdict that waits for a rhythm how long the commit has
			// stood.
			if l := ansi.Strip(after[i]); i == 1 || strings.Contains(l, "≥") || strings.Contains(l, "rebalancing") || strings.Contains(l, "judging: no commit in") {
				bounds = append(bounds, i)
			}
		}
		if fmt.Sprint(changed) != fmt.Sprint(bounds) {
			t.Fatalf("screen %v: changed lines %v, want the refresh status line 1 and the lower bounds %v", screen, changed, bounds)
		}
		for _, i := range changed[1:] {
			b, a := ansi.Strip(before[i]), ansi.Strip(after[i])
			mask := func(l string) string { return strings.Join(strings.Fields(timeToken.ReplaceAllString(l, "T")), " ") }
			if mask(b) != mask(a) {
				t.Fatalf("screen %v: line %d changed more than its time lags:\n%s\n%s", screen, i, b, a)
			}
		}
		if got := ansi.Strip(after[1]); !strings.Contains(got, "refreshed 0s ago") || !strings.Contains(ansi.Strip(before[1]), "refreshed 3s ago") {
			t.Fatalf("status line went from %q to %q", ansi.Strip(before[1]), got)
		}
	}
}

func TestFilter(t *testing.T) {
	h := newHarness(t, 80, 24, Options{})
	h.poll()
	h.press("/")
	if got := lines(h.view())[3]; got != "/█  8 of 8 match · enter keep · esc clear" {
		t.Fatalf("filter line = %q", got)
	}
	h.typeText("OR") // case does not matter
	if got, want := tableNames(h.view()), []string{"fraud-scoring", "inventory-sync", "orders-app"}; !equal(got, want) {
		t.Fatalf("/OR shows %v, want %v", got, want)
	}
	// While typing, q is text, not quit.
	h.press("d", "q")
	if h.quit {
		t.Fatal("q quit while typing a filter")
	}
	if got := lines(h.view())[3]; got != "/ORdq█  0 of 8 match · enter keep · esc clear" {
		t.Fatalf("filter line = %q", got)
	}
	if got := lines(h.view())[5]; got != "  no group matches the filter" {
		t.Fatalf("empty result line = %q", got)
	}
	h.press("backspace", "enter")
	if got := lines(h.view())[3]; got != "/ORd  1 of 8 match" {
		t.Fatalf("kept filter line = %q", got)
	}
	if got := tableNames(h.view()); !equal(got, []string{"orders-app"}) {
		t.Fatalf("kept filter shows %v", got)
	}
	// The filter survives a poll.
	h.poll()
	if got := tableNames(h.view()); !equal(got, []string{"orders-app"}) {
		t.Fatalf("after a poll the filter shows %v", got)
	}
	// Enter now opens the group; Esc comes back to the filtered list.
	h.press("enter")
	if got := lines(h.view())[2]; !strings.HasPrefix(got, "orders-app · Stable") {
		t.Fatalf("enter opened %q", got)
	}
	h.press("esc")
	if got := tableNames(h.view()); !equal(got, []string{"orders-app"}) {
		t.Fatalf("back from the group the list shows %v", got)
	}
	h.press("esc") // clears the kept filter
	if got := len(tableNames(h.view())); got != 8 {
		t.Fatalf("esc left %d rows, want 8", got)
	}
	// Esc while typing drops the filter too.
	h.press("/", "b", "i", "esc")
	if got := len(tableNames(h.view())); got != 8 || strings.Contains(h.view(), "match") {
		t.Fatalf("esc while typing left %d rows:\n%s", got, h.view())
	}
}

func TestSort(t *testing.T) {
	h := newHarness(t, 120, 40, Options{})
	h.poll()
	tests := []struct {
		key   string
		title string
		want  []string
	}{
		{"", "NAME↑", []string{"analytics-etl", "billing-reconciler", "fraud-scoring", "inventory-sync", "legacy-audit", "orders-app", "search-indexer", "shipping-notifier"}},
		{"N", "NAME↓", []string{"shipping-notifier", "search-indexer", "orders-app", "legacy-audit", "inventory-sync", "fraud-scoring", "billing-reconciler", "analytics-etl"}},
		// An unmeasured lag (dead, offsets unreadable) ranks above every
		// measured one: next to the worst, not last.
		{"L", "LAG↓", []string{"search-indexer", "shipping-notifier", "legacy-audit", "fraud-scoring", "billing-reconciler", "orders-app", "analytics-etl", "inventory-sync"}},
		{"L", "LAG↑", []string{"inventory-sync", "analytics-etl", "orders-app", "billing-reconciler", "fraud-scoring", "legacy-audit", "search-indexer", "shipping-notifier"}},
		// One poll: nothing decided. Unknown verdicts (dead, offsets
		// unreadable) rank above JUDGING, which is never taken for OK.
		{"H", "HEALTH↓", []string{"search-indexer", "shipping-notifier", "analytics-etl", "billing-reconciler", "fraud-scoring", "inventory-sync", "legacy-audit", "orders-app"}},
		{"H", "HEALTH↑", []string{"analytics-etl", "billing-reconciler", "fraud-scoring", "inventory-sync", "legacy-audit", "orders-app", "search-indexer", "shipping-notifier"}},
		{"S", "STATE↑", []string{"search-indexer", "legacy-audit", "fraud-scoring", "inventory-sync", "analytics-etl", "billing-reconciler", "orders-app", "shipping-notifier"}},
		{"M", "MEMBERS↓", []string{"fraud-scoring", "analytics-etl", "billing-reconciler", "inventory-sync", "orders-app", "shipping-notifier", "legacy-audit", "search-indexer"}},
		{"M", "MEMBERS↑", []string{"legacy-audit", "search-indexer", "shipping-notifier", "analytics-etl", "billing-reconciler", "inventory-sync", "orders-app", "fraud-scoring"}},
		{"N", "NAME↑", []string{"analytics-etl", "billing-reconciler", "fraud-scoring", "inventory-sync", "legacy-audit", "orders-app", "search-indexer", "shipping-notifier"}},
	}
	for _, tt := range tests {
		if tt.key != "" {
			h.press(tt.key)
		}
		v := h.view()
		if got := tableNames(v); !equal(got, tt.want) {
			t.Errorf("after %q: %v\nwant %v", tt.key, got, tt.want)
		}
		if header := lines(v)[3]; !strings.Contains(header, " "+tt.title+" ") && !strings.HasSuffix(header, " "+tt.title) {
			t.Errorf("after %q: header %q lacks %q", tt.key, header, tt.title)
		}
	}
	// The cursor follows the selected group through sorts.
	h.press("j", "j") // billing-reconciler... in name order: fraud-scoring
	if got := h.m.groups.Selected(); got != "fraud-scoring" {
		t.Fatalf("selected %q", got)
	}
	h.press("L")
	if got := h.m.groups.Selected(); got != "fraud-scoring" {
		t.Fatalf("after sorting by lag the selection is %q", got)
	}
	if got := lines(h.view())[7]; !strings.HasPrefix(got, "▶ fraud-scoring") {
		t.Fatalf("cursor line = %q", got)
	}
}

func TestNavigation(t *testing.T) {
	h := newHarness(t, 80, 24, Options{}, func(time.Time) (*kafka.Snapshot, error) { return viewtest.ManyGroups(100), nil })
	h.poll()
	// 24 lines: 2 status, summary, table header, 19 rows, footer.
	tests := []struct {
		keys     []string
		selected string
		first    string
	}{
		{nil, "group-00000", "group-00000"},
		{[]string{"j", "down", "j"}, "group-00003", "group-00000"},
		{[]string{"k", "up"}, "group-00001", "group-00000"},
		{[]string{"k", "k", "k"}, "group-00000", "group-00000"},
		{[]string{"pgdown"}, "group-00019", "group-00019"},
		{[]string{"pgdown", "pgdown", "pgdown", "pgdown", "pgdown"}, "group-00099", "group-00081"},
		{[]string{"g"}, "group-00000", "group-00000"},
		{[]string{"G"}, "group-00099", "group-00081"},
		{[]string{"pgup"}, "group-00080", "group-00062"},
		{[]string{"home"}, "group-00000", "group-00000"},
		{[]string{"end"}, "group-00099", "group-00081"},
	}
	for _, tt := range tests {
		h.press(tt.keys...)
		v := h.view()
		names := tableNames(v)
		if len(names) != 19 || names[0] != tt.first {
			t.Fatalf("after %v: %d rows from %v, want 19 from %s", tt.keys, len(names), names[:1], tt.first)
		}
		if got := h.m.groups.Selected(); got != tt.selected {
			t.Fatalf("after %v: selected %s, want %s", tt.keys, got, tt.selected)
		}
		if !strings.Contains(v, "\n▶ "+tt.selected+" ") {
			t.Fatalf("after %v: no cursor on %s", tt.keys, tt.selected)
		}
	}
}

func TestGroupScreenTabsAndBack(t *testing.T) {
	h := newHarness(t, 120, 40, Options{})
	h.poll()
	h.press("j", "j", "j", "j", "j", "enter") // orders-app
	v := h.view()
	if got := lines(v)[6]; got != "[Partitions 7]  Members 2   Chart   Timeline   Simulate   Diagnosis" {
		t.Fatalf("tab bar = %q", got)
	}
	// One poll: no rates and no time lag yet, except 0s where caught up.
	if got := lines(v)[8]; got != "▶ orders     0    120443         0  120450   7        -      -      - -      orders-app-1-7d1c0a5… orders-app /10.0.2.15" {
		t.Fatalf("first partition row = %q", got)
	}
	if got := lines(v)[9]; got != "  orders     1    119876         0  119876   0       0s      -      - OK     orders-app-1-7d1c0a5… orders-app /10.0.2.15" {
		t.Fatalf("caught-up partition row = %q", got)
	}
	if got := lines(v)[14]; got != "  refunds    0         -         0    3214   -        -      -      - -      orders-app-1-7d1c0a5… orders-app /10.0.2.15" {
		t.Fatalf("uncommitted partition row = %q", got)
	}
	h.press("j", "j")
	if got := lines(h.view())[10]; !strings.HasPrefix(got, "▶ orders     2") {
		t.Fatalf("after j j: %q", got)
	}
	h.press("tab")
	v = h.view()
	if got := lines(v)[6]; got != " Partitions 7  [Members 2]  Chart   Timeline   Simulate   Diagnosis" {
		t.Fatalf("tab bar after tab = %q", got)
	}
	if got := lines(v)[7]; got != "  MEMBER-ID                                         INSTANCE-ID CLIENT-ID  HOST       PARTS LAG ASSIGNOR" {
		t.Fatalf("members header = %q", got)
	}
	if got := lines(v)[8]; got != "▶ orders-app-1-7d1c0a52-3f4e-4b8a-9c61-2b5f0e8d4a11 -           orders-app /10.0.2.15     4 125 cooperative-sticky" {
		t.Fatalf("member row = %q", got)
	}
	h.press("tab")
	if got := lines(h.view())[6]; got != " Partitions 7   Members 2  [Chart]  Timeline   Simulate   Diagnosis" {
		t.Fatalf("tab bar after tab tab = %q", got)
	}
	h.press("tab")
	if got := lines(h.view())[6]; got != " Partitions 7   Members 2   Chart  [Timeline]  Simulate   Diagnosis" {
		t.Fatalf("tab bar after three tabs = %q", got)
	}
	h.press("tab")
	if got := lines(h.view())[6]; got != " Partitions 7   Members 2   Chart   Timeline  [Simulate]  Diagnosis" {
		t.Fatalf("tab bar after four tabs = %q", got)
	}
	h.press("tab")
	if got := lines(h.view())[6]; got != " Partitions 7   Members 2   Chart   Timeline   Simulate  [Diagnosis]" {
		t.Fatalf("tab bar after five tabs = %q", got)
	}
	h.press("tab") // wraps
	if got := lines(h.view())[6]; got != "[Partitions 7]  Members 2   Chart   Timeline   Simulate   Diagnosis" {
		t.Fatalf("tab bar after six tabs = %q", got)
	}
	h.press("shift+tab", "shift+tab", "shift+tab", "shift+tab", "shift+tab")
	if got := lines(h.view())[6]; got != " Partitions 7  [Members 2]  Chart   Timeline   Simulate   Diagnosis" {
		t.Fatalf("tab bar after shift+tab = %q", got)
	}
	// Each tab keeps its own cursor.
	h.press("shift+tab")
	if got := lines(h.view())[10]; !strings.HasPrefix(got, "▶ orders     2") {
		t.Fatalf("partitions cursor lost: %q", got)
	}
	h.press("esc")
	if got := h.m.groups.Selected(); got != "orders-app" || !strings.Contains(h.view(), "\n▶ orders-app ") {
		t.Fatalf("back on the groups screen, selected %q", got)
	}
	// Sort keys do nothing on the group screen; tab does nothing on the list.
	h.press("enter", "L")
	if h.m.groups.Selected() != "orders-app" || !strings.Contains(lines(h.view())[6], "[Partitions 7]") {
		t.Fatal("L changed something on the group screen")
	}
}

func TestHelpScreen(t *testing.T) {
	h := newHarness(t, 80, 24, Options{})
	h.poll()
	h.press("?")
	v := h.view()
	for _, want := range []string{"L    sort by lag", "enter  open group", "q       quit", "n/N  next/previous match (with a filter)"} {
		if !strings.Contains(v, want) {
			t.Fatalf("help lacks %q:\n%s", want, v)
		}
	}
	// At 80x24 the commands are further down, before the legends (time
	// lag and health, the marks, the trend) that end the help.
	h.press("G")
	found := false
	for range 3 {
		if strings.Contains(h.view(), ":ctx NAME    switch context (bare :ctx lists them)") {
			found = true
			break
		}
		h.press("pgup")
	}
	if !found {
		t.Fatalf("the end of the help lacks the commands:\n%s", h.view())
	}
	h.press("g")
	v = h.view()
	// The help is the groups screen's: the group screen's keys are not
	// there, and from the first screen Esc goes back nowhere.
	for _, unwanted := range []string{"next tab", "exact time lag", "esc     back", "q       back"} {
		if strings.Contains(v, unwanted) {
			t.Fatalf("help over the groups screen lists %q:\n%s", unwanted, v)
		}
	}
	if got := lines(v)[23]; got != "j/k pgdn scroll · ? close help · r refresh · p pause · : command · q back" {
		t.Fatalf("help footer = %q", got)
	}
	h.press("?")
	if tableNames(h.view()) == nil {
		t.Fatal("? did not close the help")
	}
	h.press("?", "esc")
	if tableNames(h.view()) == nil {
		t.Fatal("esc did not close the help")
	}
	// Keys of the screen below do not leak through the help.
	h.press("?", "L", "esc")
	if got := h.m.groups.Selected(); got != "analytics-etl" || !strings.Contains(h.view(), "NAME↑") {
		t.Fatalf("L under the help sorted the list")
	}
	// Over the group screen the help is the group screen's: its tabs, its
	// actions, Esc going back, and none of the groups screen's sorts.
	h.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	h.press("enter", "p", "?")
	v = h.view()
	for _, want := range []string{"tab        next tab", "shift+tab  previous tab", "c          chart group/partition",
		"esc     back", "q       back", "p       resume", "ctrl+c  quit", "/    filter the tab", "n/N  next/previous match (with a filter)", "x      toggle exact time lag", "space  select partition", "e      seek the partition to an offset or a time"} {
		if !strings.Contains(v, want) {
			t.Fatalf("help over the group screen lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "sort by lag") || strings.Contains(v, "clear filter") {
		t.Fatalf("help over the group screen lists the groups screen's keys:\n%s", v)
	}
	h.press("esc", "p")
	// q closes the help, as Esc does; q on the group screen goes back to
	// the groups screen, and there q quits.
	h.press("?", "q")
	if _, ok := h.m.top().(*groupdetail.Model); !ok || h.quit {
		t.Fatalf("q from the help: top %T, quit %v", h.m.top(), h.quit)
	}
	h.press("q")
	if h.m.top() != h.m.groups || h.quit {
		t.Fatalf("q from the group screen: top %T, quit %v", h.m.top(), h.quit)
	}
	h.press("q")
	if !h.quit {
		t.Fatal("q on the groups screen does not quit")
	}
}

func TestCommandLine(t *testing.T) {
	h := newHarness(t, 80, 24, Options{Contexts: []string{"prod", "staging"}})
	h.poll()
	footer := func() string { return lines(h.view())[23] }

	h.press(":")
	if got := footer(); got != ":█" {
		t.Fatalf("command line = %q", got)
	}
	h.typeText("group orders-app")
	if got := footer(); got != ":group orders-app█" {
		t.Fatalf("command line = %q", got)
	}
	h.press("enter")
	if got := lines(h.view())[2]; !strings.HasPrefix(got, "orders-app · Stable") {
		t.Fatalf(":group opened %q", got)
	}
	h.press("esc")
	if h.m.groups.Selected() != "orders-app" {
		t.Fatalf("back from :group, selected %q", h.m.groups.Selected())
	}

	tests := []struct{ line, flash string }{
		{"group nope", `group "nope" not found`},
		{"group", "usage: :group NAME"},
		{"bogus", `unknown command "bogus": try :ctx NAME, :group NAME or :q`},
		{"ctx", "contexts: prod, staging (current: prod)"},
		{"ctx staging", "switching contexts is unavailable here"},
		{"ctx a b", "usage: :ctx NAME"},
	}
	for _, tt := range tests {
		h.press(":")
		h.typeText(tt.line)
		h.press("enter")
		if got := footer(); got != tt.flash {
			t.Errorf(":%s says %q, want %q", tt.line, got, tt.flash)
		}
	}
	// The message goes with the next key.
	h.press("j")
	if got := footer(); !strings.HasPrefix(got, "enter open") {
		t.Fatalf("footer after a key = %q", got)
	}
	// Esc, or Backspace on an empty line, leaves without running anything.
	h.press(":", "q", "esc")
	if got := footer(); !strings.HasPrefix(got, "enter open") {
		t.Fatalf("footer after esc = %q", got)
	}
	h.press(":", "backspace")
	if h.m.cmdActive {
		t.Fatal("backspace on an empty command line left it open")
	}
	h.press(":", "q")
	if h.quit {
		t.Fatal("typing :q quit before enter")
	}
	h.press("enter")
	if !h.quit {
		t.Fatal(":q did not quit")
	}
}

func TestQuitKeys(t *testing.T) {
	for _, k := range []string{"q", "ctrl+c"} {
		h := newHarness(t, 80, 24, Options{})
		h.press(k)
		if !h.quit {
			t.Fatalf("%s did not quit", k)
		}
	}
	// Ctrl+C quits even while typing a filter or a command.
	h := newHarness(t, 80, 24, Options{})
	h.poll()
	h.press("/", "ctrl+c")
	if !h.quit {
		t.Fatal("ctrl+c did not quit while filtering")
	}
}

func TestStaleDataAndRecovery(t *testing.T) {
	h := newHarness(t, 80, 24, Options{}, fixture, failing(errRefused), failing(errRefused), failing(errRefused), fixture) //nolint:gocritic // dupOption: three failed polls in a row, not options
	h.poll()
	status := func() string { return lines(h.view())[1] }
	if got := status(); got != "● connected · 3 brokers · refreshed 0s ago in 42ms · every 5s" {
		t.Fatalf("status = %q", got)
	}
	wantRetry := []string{
		"✖ stale · last refresh 5s ago · retry 09:27:03 (in 5s) · dial tcp 10.0.0.1:9092: connect: connection refused",
		"✖ stale · last refresh 10s ago · retry 09:27:13 (in 10s) · dial tcp 10.0.0.1:9092: connect: connection refused",
		"✖ stale · last refresh 20s ago · retry 09:27:33 (in 20s) · dial tcp 10.0.0.1:9092: connect: connection refused",
	}
	wait := 5 * time.Second
	for i, want := range wantRetry {
		h.clock.Advance(wait)
		h.poll()
		// Wider than 80 columns: compare at 200.
		h.send(tea.WindowSizeMsg{Width: 200, Height: 24})
		if got := status(); got != want {
			t.Fatalf("failure %d: status\n%q\nwant\n%q", i+1, got, want)
		}
		h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
		// The last data stays on screen.
		if got := len(tableNames(h.view())); got != 8 {
			t.Fatalf("failure %d: %d rows on screen, want the last 8", i+1, got)
		}
		wait = backoff(5*time.Second, i+1)
	}
	h.clock.Advance(40 * time.Second)
	retry := h.m.startPoll()
	h.send(tea.WindowSizeMsg{Width: 200, Height: 24})
	if got := status(); got != "✖ stale · last refresh 1m00s ago · retrying… · dial tcp 10.0.0.1:9092: connect: connection refused" {
		t.Fatalf("status while retrying = %q", got)
	}
	h.run(retry)
	if got := status(); got != "● connected · 3 brokers · refreshed 0s ago in 42ms · every 5s" {
		t.Fatalf("after recovery status = %q", got)
	}
	if h.m.poll.failures != 0 || h.m.poll.next != h.clock.Now().Add(5*time.Second) {
		t.Fatalf("after recovery failures=%d next=%v", h.m.poll.failures, h.m.poll.next)
	}
}

func TestUnreachableAtStart(t *testing.T) {
	h := newHarness(t, 120, 24, Options{}, failing(errRefused))
	if got := lines(h.view())[1]; got != "connecting…" {
		t.Fatalf("before the first poll: %q", got)
	}
	h.poll()
	v := h.view()
	if got := lines(v)[1]; got != "✖ unreachable · retry 09:26:58 (in 5s) · dial tcp 10.0.0.1:9092: connect: connection refused" {
		t.Fatalf("status = %q", got)
	}
	if got := lines(v)[3]; got != "  waiting for the first poll…" {
		t.Fatalf("body = %q", got)
	}
}

func TestBackoff(t *testing.T) {
	tests := []struct {
		refresh time.Duration
		n       int
		want    time.Duration
	}{
		{5 * time.Second, 1, 5 * time.Second},
		{5 * time.Second, 2, 10 * time.Second},
		{5 * time.Second, 3, 20 * time.Second},
		{5 * time.Second, 4, 40 * time.Second},
		{5 * time.Second, 5, time.Minute},
		{5 * time.Second, 50, time.Minute},
		{time.Second, 7, time.Minute},
		{time.Second, 6, 32 * time.Second},
		{2 * time.Minute, 1, 2 * time.Minute},
		{2 * time.Minute, 3, 2 * time.Minute},
	}
	for _, tt := range tests {
		if got := backoff(tt.refresh, tt.n); got != tt.want {
			t.Errorf("backoff(%v, %d) = %v, want %v", tt.refresh, tt.n, got, tt.want)
		}
	}
}

func TestOnePollInFlight(t *testing.T) {
	h := newHarness(t, 80, 24, Options{})
	first := h.m.startPoll()
	if first == nil {
		t.Fatal("no first poll")
	}
	// r while in flight starts nothing now...
	h.press("r")
	if h.p.Calls() != 0 {
		t.Fatal("r started a second poll while one was in flight")
	}
	if h.m.startPoll() != nil {
		t.Fatal("a second poll started while one was in flight")
	}
	gen := h.m.poll.gen
	// ...but polls again as soon as the first ends.
	next := h.send(first())
	if h.p.Calls() != 1 || !h.m.poll.inFlight || h.m.poll.gen != gen+1 {
		t.Fatalf("after the first result: calls=%d inFlight=%v gen=%d (was %d)", h.p.Calls(), h.m.poll.inFlight, h.m.poll.gen, gen)
	}
	h.run(next)
	if h.p.Calls() != 2 || h.m.poll.inFlight {
		t.Fatalf("the queued refresh: calls=%d inFlight=%v", h.p.Calls(), h.m.poll.inFlight)
	}
	// Then the schedule takes over: one timer for the refresh interval.
	if last := h.timers[len(h.timers)-1]; last.d != 5*time.Second || last.msg != (pollTickMsg{seq: h.m.poll.tickSeq}) {
		t.Fatalf("last timer = %+v", last)
	}
}

func TestStaleResultsAreDropped(t *testing.T) {
	h := newHarness(t, 80, 24, Options{})
	h.poll()
	// A result from an earlier generation (a poll replaced by a context
	// switch) must not replace the screen's data.
	other := viewtest.ManyGroups(3)
	other.Time = h.clock.Now().Add(time.Second)
	h.send(pollResultMsg{gen: h.m.poll.gen - 1, snap: other})
	if got := len(tableNames(h.view())); got != 8 {
		t.Fatalf("a stale result replaced the data: %d rows", got)
	}
	// And a tick from a replaced schedule does not poll.
	seq := h.m.poll.tickSeq
	h.press("r") // polls now and schedules anew
	calls := h.p.Calls()
	h.run(h.send(pollTickMsg{seq: seq}))
	if h.p.Calls() != calls {
		t.Fatal("a replaced schedule started a poll")
	}
	// The current one does.
	h.run(h.send(pollTickMsg{seq: h.m.poll.tickSeq}))
	if h.p.Calls() != calls+1 {
		t.Fatal("the current schedule did not poll")
	}
}

func TestPause(t *testing.T) {
	h := newHarness(t, 80, 24, Options{})
	h.poll()
	h.press("p")
	v := h.view()
	if got := lines(v)[1]; got != "● connected · 3 brokers · refreshed 0s ago in 42ms · paused" {
		t.Fatalf("paused status = %q", got)
	}
	if !strings.Contains(lines(v)[23], "p resume") {
		t.Fatalf("footer while paused = %q", lines(v)[23])
	}
	// Scheduled polls do not run while paused.
	calls := h.p.Calls()
	h.run(h.send(pollTickMsg{seq: h.m.poll.tickSeq}))
	if h.p.Calls() != calls {
		t.Fatal("a tick polled while paused")
	}
	// r still refreshes once, and the schedule stays off.
	h.clock.Advance(7 * time.Second)
	timers := len(h.timers)
	h.press("r")
	if h.p.Calls() != calls+1 || !h.m.poll.next.IsZero() || len(h.timers) != timers {
		t.Fatalf("r while paused: calls %d->%d, next %v, timers %d->%d", calls, h.p.Calls(), h.m.poll.next, timers, len(h.timers))
	}
	// Resuming polls at once.
	h.press("p")
	if h.p.Calls() != calls+2 {
		t.Fatal("resume did not poll")
	}
	if got := lines(h.view())[1]; got != "● connected · 3 brokers · refreshed 0s ago in 42ms · every 5s" {
		t.Fatalf("resumed status = %q", got)
	}
}

func TestSlowPollIndicator(t *testing.T) {
	h := newHarness(t, 120, 24, Options{})
	h.poll()
	h.clock.Advance(5 * time.Second)
	cmd := h.m.startPoll()
	h.clock.Advance(3 * time.Second)
	h.send(clockMsg{})
	if got := lines(h.view())[1]; got != "● connected · 3 brokers · refreshed 8s ago in 42ms · polling 3s…" {
		t.Fatalf("status during a slow poll = %q", got)
	}
	h.run(cmd)
	if got := lines(h.view())[1]; got != "● connected · 3 brokers · refreshed 0s ago in 42ms · every 5s" {
		t.Fatalf("status after the slow poll = %q", got)
	}
}

func TestGroupDisappearsOrFails(t *testing.T) {
	without := func(now time.Time) (*kafka.Snapshot, error) {
		s := viewtest.Snapshot(now, 0)
		s.Groups = append(s.Groups[:5:5], s.Groups[6:]...) // drop orders-app
		return s, nil
	}
	h := newHarness(t, 80, 24, Options{}, fixture, without)
	h.poll()
	h.press(":")
	h.typeText("group orders-app")
	h.press("enter")
	h.clock.Advance(5 * time.Second)
	h.poll()
	v := h.view()
	if got := lines(v)[6]; got != "! group no longer exists; showing it as last seen 09:26:53" {
		t.Fatalf("notice = %q", got)
	}
	if got := lines(v)[9]; !strings.HasPrefix(got, "▶ orders     0    120443") {
		t.Fatalf("last seen data gone: %q", got)
	}
	// Keys still work.
	h.press("tab")
	if got := lines(h.view())[7]; got != " Partitions 7  [Members 2]  Chart   Timeline   Simulate   Diagnosis" {
		t.Fatalf("tab bar = %q", got)
	}
	h.press("esc")
	for _, n := range tableNames(h.view()) {
		if n == "orders-app" {
			t.Fatal("the list still shows the vanished group")
		}
	}
}

func TestInitialGroup(t *testing.T) {
	h := newHarness(t, 80, 24, Options{InitialGroup: "billing-reconciler"})
	v := h.view()
	if got := lines(v)[2]; got != "billing-reconciler" {
		t.Fatalf("header before data = %q", got)
	}
	if got := lines(v)[6]; got != "! waiting for the first poll…" {
		t.Fatalf("notice before data = %q", got)
	}
	h.poll()
	if got := lines(h.view())[2]; got != "billing-reconciler · Stable · classic · assignor range" {
		t.Fatalf("header = %q", got)
	}
	h.press("esc")
	if got := h.m.groups.Selected(); got != "billing-reconciler" {
		t.Fatalf("back lands on %q", got)
	}

	h = newHarness(t, 80, 24, Options{InitialGroup: "nope"})
	h.poll()
	if got := lines(h.view())[6]; got != `! group "nope" not found in the cluster` {
		t.Fatalf("notice = %q", got)
	}
}

// fakeScreen is a screen with a write action, standing in for the reset
// and rebalance screens to come.
type fakeScreen struct {
	ui.Common
	ran []string
}

func (f *fakeScreen) Update(tea.Msg) tea.Cmd   { return nil }
func (f *fakeScreen) View() string             { return "fake" }
func (f *fakeScreen) SetSize(w, h int)         { f.Common.SetSize(w, h) }
func (f *fakeScreen) Capturing() bool          { return false }
func (f *fakeScreen) Bindings() []ui.Section   { return nil }
func (f *fakeScreen) ShortHelp() []key.Binding { return nil }
func (f *fakeScreen) Actions() []ui.Action {
	return []ui.Action{{
		Name: "reset offsets", Key: key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "reset")), Dangerous: true,
		Run: func() tea.Cmd { f.ran = append(f.ran, "reset"); return nil },
	}}
}

func TestDangerousActionsAreDisabledWhenReadOnly(t *testing.T) {
	for _, readOnly := range []bool{true, false} {
		h := newHarness(t, 100, 24, Options{ContextInfo: ContextInfo{ReadOnly: readOnly}})
		h.poll()
		f := &fakeScreen{Common: h.m.base}
		h.m.push(f)
		h.press("R")
		footer := lines(h.view())[23]
		if readOnly {
			if len(f.ran) != 0 || footer != "reset offsets: the context is read-only" {
				t.Fatalf("read-only: ran %v, footer %q", f.ran, footer)
			}
			if got := lines(h.view())[0]; got != "kgroups · ctx prod [read-only] · 0 OK 0 WARN 0 ERR 6 judging · brokers kafka-1.internal:9092,kafka-…" {
				t.Fatalf("status = %q", got)
			}
			h.press("?")
			if !strings.Contains(h.view(), "R  reset offsets (disabled: the context is read-only)") {
				t.Fatalf("help does not mark the action disabled:\n%s", h.view())
			}
		} else if !equal(f.ran, []string{"reset"}) {
			t.Fatalf("writable: ran %v", f.ran)
		}
	}
}

// switchPoller is a seqPoller that records Close.
type switchPoller struct {
	seqPoller
	closed chan struct{}
}

func (p *switchPoller) Close() { close(p.closed) }

func TestSwitchContext(t *testing.T) {
	prod := &switchPoller{seqPoller: seqPoller{steps: []func(time.Time) (*kafka.Snapshot, error){fixture}}, closed: make(chan struct{})}
	staging := &seqPoller{steps: []func(time.Time) (*kafka.Snapshot, error){func(now time.Time) (*kafka.Snapshot, error) {
		s := viewtest.ManyGroups(3)
		s.Time = now
		return s, nil
	}}}
	var asked []string
	h := newHarness(t, 80, 24, Options{
		Poller:   prod,
		Contexts: []string{"prod", "staging"},
		Switch: func(_ context.Context, name string) (Poller, ContextInfo, error) {
			asked = append(asked, name)
			if name == "broken" {
				return nil, ContextInfo{}, errors.New("no such host")
			}
			return staging, ContextInfo{Name: name, Brokers: []string{"stg-1:9092"}, ReadOnly: true}, nil
		},
	})
	prod.clock, staging.clock = h.clock, h.clock
	h.poll()
	h.press("j")
	inFlight := h.m.startPoll() // a prod poll that will come back late

	h.press(":")
	h.typeText("ctx staging")
	connect := h.send(keyMsg("enter"))
	if got := lines(h.view())[1]; got != "switching to staging…" {
		t.Fatalf("status while switching = %q", got)
	}
	// The UI still answers keys while connecting.
	h.press("j")
	if got := h.m.groups.Selected(); got != "fraud-scoring" {
		t.Fatalf("keys while switching: selected %q", got)
	}
	after := h.send(connect())
	if !equal(asked, []string{"staging"}) {
		t.Fatalf("Switch asked for %v", asked)
	}
	// The late prod result is dropped.
	h.run(h.send(inFlight()))
	v := h.view()
	if got := lines(v)[0]; got != "kgroups · ctx staging [read-only] · brokers stg-1:9092" {
		t.Fatalf("status after switch = %q", got)
	}
	if got := lines(v)[1]; got != "connecting…" {
		t.Fatalf("status line 2 after switch = %q", got)
	}
	if got := lines(v)[23]; got != "switched to context staging" {
		t.Fatalf("footer after switch = %q", got)
	}
	if tableNames(v) != nil {
		t.Fatalf("prod groups still on screen after the switch: %v", tableNames(v))
	}
	// What follows polls staging and closes prod.
	h.run(after)
	select {
	case <-prod.closed:
	default:
		t.Fatal("the old poller was not closed")
	}
	if got := tableNames(h.view()); !equal(got, []string{"group-00000", "group-00001", "group-00002"}) {
		t.Fatalf("staging groups = %v", got)
	}
	if !h.m.base.ReadOnly || prod.Calls() != 2 || staging.Calls() != 1 {
		t.Fatalf("readOnly=%v prod calls=%d staging calls=%d", h.m.base.ReadOnly, prod.Calls(), staging.Calls())
	}

	// Failures and unknown names leave everything as it was.
	h.press(":")
	h.typeText("ctx nowhere")
	h.press("enter")
	if got := lines(h.view())[23]; got != `unknown context "nowhere": one of prod, staging` {
		t.Fatalf("unknown context: %q", got)
	}
	h.press(":")
	h.typeText("ctx staging")
	h.press("enter")
	if got := lines(h.view())[23]; got != "already on context staging" {
		t.Fatalf("same context: %q", got)
	}
	h.m.opts.Contexts = nil
	h.press(":")
	h.typeText("ctx broken")
	h.press("enter")
	if got := lines(h.view())[23]; got != "switch to broken: no such host" {
		t.Fatalf("failed switch: %q", got)
	}
	if got := lines(h.view())[0]; got != "kgroups · ctx staging [read-only] · 0 OK 0 WARN 0 ERR 3 judging · brokers stg-1…" {
		t.Fatalf("status after a failed switch = %q", got)
	}
}

// TestTypedAheadKeys: letters that arrive in one read (tmux send-keys, a
// slow link) act as separate presses; a bracketed paste stays text.
func TestTypedAheadKeys(t *testing.T) {
	h := newHarness(t, 80, 24, Options{})
	h.poll()
	h.run(h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/ord")}))
	h.press("enter")
	if got := tableNames(h.view()); !equal(got, []string{"orders-app"}) {
		t.Fatalf("typed-ahead /ord shows %v", got)
	}
	h.press("esc", "/")
	h.run(h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("LMq"), Paste: true}))
	if h.quit || !strings.Contains(lines(h.view())[3], "/LMq") {
		t.Fatalf("a paste was taken as keys: quit=%v line %q", h.quit, lines(h.view())[3])
	}
	h.press("esc")
	// Keys after a quit are not handled.
	h.run(h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("jqj")}))
	if !h.quit || h.m.groups.Selected() != "billing-reconciler" {
		t.Fatalf("jqj: quit=%v selected %q", h.quit, h.m.groups.Selected())
	}
}

// escScreen is a pushed screen that binds Esc itself when it has something
// to clear, as a screen with a filter would.
type escScreen struct {
	fakeScreen
	clear   key.Binding
	cleared int
}

func (f *escScreen) Bindings() []ui.Section {
	return []ui.Section{{Title: "Fake", Bindings: []key.Binding{f.clear}}}
}

func (f *escScreen) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyMsg); ok && key.Matches(k, f.clear) {
		f.cleared++
		f.clear.SetEnabled(false)
	}
	return nil
}

// TestEscGoesBackUnlessTheScreenBindsIt: any pushed screen goes back on
// Esc and on q, with the footer saying so ("q back"), without declaring
// anything; one that binds Esc gets it first, and q still goes back.
func TestEscGoesBackUnlessTheScreenBindsIt(t *testing.T) {
	h := newHarness(t, 100, 24, Options{})
	h.poll()
	f := &fakeScreen{Common: h.m.base}
	h.m.push(f)
	if got := footer(h); got != "? help · r refresh · p pause · : command · q back" {
		t.Fatalf("footer over a new screen = %q", got)
	}
	h.press("esc")
	if _, ok := h.m.top().(*grouplist.Model); !ok {
		t.Fatalf("esc left %T on top", h.m.top())
	}

	e := &escScreen{fakeScreen: fakeScreen{Common: h.m.base}, clear: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear"))}
	h.m.push(e)
	if got := footer(h); got != "? help · r refresh · p pause · : command · q back" {
		t.Fatalf("footer over a screen that binds esc = %q", got)
	}
	h.press("esc")
	if h.m.top() != e || e.cleared != 1 {
		t.Fatalf("esc on a screen that binds it: top %T, cleared %d", h.m.top(), e.cleared)
	}
	h.press("esc") // nothing left to clear: now it goes back
	if _, ok := h.m.top().(*grouplist.Model); !ok || e.cleared != 1 {
		t.Fatalf("second esc: top %T, cleared %d", h.m.top(), e.cleared)
	}
	e.clear.SetEnabled(true)
	h.m.push(e)
	h.press("q") // q goes back even while the screen has Esc for itself
	if _, ok := h.m.top().(*grouplist.Model); !ok || e.cleared != 1 || h.quit {
		t.Fatalf("q: top %T, cleared %d, quit %v", h.m.top(), e.cleared, h.quit)
	}
}
