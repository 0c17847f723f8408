package tui

import (
	"strings"
	"testing"

	"github.com/kgroups/kgroups/views/screens/grouplist"
	"github.com/kgroups/kgroups/views/viewtest"
)

// verdictOf is a HEALTH cell without the cause that may follow the
// verdict ("ERR STALL · member not committing" is "ERR STALL").
func verdictOf(cell string) string {
	v, _, _ := strings.Cut(cell, " · ")
	return v
}

// healthCells reads the HEALTH column of the groups screen for the rows of
// the given groups: group name -> cell text.
func healthCells(t *testing.T, v string, groups map[string]bool) map[string]string {
	t.Helper()
	ls := lines(v)
	header := []rune(ls[3])
	start := strings.Index(ls[3], "HEALTH")
	if start < 0 {
		t.Fatalf("no HEALTH column in %q", ls[3])
	}
	start = len([]rune(ls[3][:start]))
	end := start
	for end < len(header) && header[end] != ' ' {
		end++
	}
	for end < len(header) && header[end] == ' ' {
		end++ // the next column starts at its title
	}
	cells := make(map[string]string)
	for _, l := range ls[4:] {
		r := []rune(l)
		if len(r) <= start || len(r) < 2 {
			continue
		}
		// A group with an ERR finding starts with the finding mark.
		name := strings.Fields(strings.TrimPrefix(string(r[2:]), grouplist.FindingMark))
		if len(name) == 0 || !groups[name[0]] {
			continue
		}
		cells[name[0]] = strings.TrimSpace(string(r[start:min(end, len(r))]))
	}
	return cells
}

// groupHealth opens group name with :group and reads its verdict from the
// header ("health WARN NO-COMMITS · lag 85 ..."), then goes back.
func (h *harness) groupHealth(name string) string {
	h.t.Helper()
	h.press(":")
	h.typeText("group " + name)
	h.press("enter")
	defer h.press("esc")
	for _, l := range lines(h.view()) {
		if rest, ok := strings.CutPrefix(l, "health "); ok {
			text, _, _ := strings.Cut(rest, " · ")
			return text
		}
	}
	h.t.Fatalf("no health line on %s's screen:\n%s", name, h.view())
	return ""
}

// TestScreensShowOneVerdict: poll by poll, from the first poll (every
// group judging) to a full window (decided), the groups screen's HEALTH
// cell and the group screen's header show the same verdict for every
// group, through the real root model: both read the tracker's verdict.
func TestScreensShowOneVerdict(t *testing.T) {
	h := newHarness(t, 120, 40, Options{}, trendSteps()...)
	want := map[int]map[string]string{
		0: {
			"analytics-etl": "JUDGING 1/10", "orders-app": "JUDGING 1/10", "legacy-audit": "JUDGING 1/10",
			"search-indexer": "-", "shipping-notifier": "-",
		},
		warmPolls - 1: {
			"analytics-etl": "OK", "billing-reconciler": "WARN", "fraud-scoring": "ERR STALL",
			"inventory-sync": "ERR REWIND", "legacy-audit": "ERR STOP", "orders-app": "WARN NO-COMMITS",
			"search-indexer": "-", "shipping-notifier": "-",
		},
	}
	// Once decided, a WARN or ERR is followed by the cause the poll knows;
	// a verdict without one ends there.
	causes := map[int]map[string]string{
		warmPolls - 1: {
			"billing-reconciler": " · slower than producers", "fraud-scoring": " · member not committing",
			"inventory-sync": "", "legacy-audit": " · no members while watched", "orders-app": "",
		},
	}
	for i := range warmPolls {
		h.poll()
		names := make(map[string]bool)
		for _, g := range viewtest.Evolving(i).Groups {
			names[g.Name] = true
		}
		cells := healthCells(t, h.view(), names)
		if len(cells) != len(names) {
			t.Fatalf("poll %d: %d rows on the groups screen: %v", i, len(cells), cells)
		}
		for name, cell := range cells {
			if got := h.groupHealth(name); got != verdictOf(cell) {
				t.Errorf("poll %d: %s is %q on the groups screen, %q on its own", i, name, cell, got)
			}
			if w, ok := want[i][name]; ok && verdictOf(cell) != w {
				t.Errorf("poll %d: %s is %q, want %q", i, name, cell, w)
			}
			if c, ok := causes[i][name]; ok && cell != want[i][name]+c {
				t.Errorf("poll %d: %s is %q, want the cause %q", i, name, cell, c)
			}
		}
		h.clock.Advance(viewtest.PollEvery)
	}
}
