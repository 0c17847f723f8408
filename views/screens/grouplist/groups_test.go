package grouplist

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/viewtest"
)

func TestView(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	m := New(viewtest.Common(100, 8, true))
	if got := viewtest.Strip(m.View()); got != "Groups\n  waiting for the first poll…" {
		t.Fatalf("before data:\n%s", got)
	}
	hist := viewtest.History{"orders-app": {0, 5, 10, 20, 40, 80, 160}, "legacy-audit": {9, 9, 9}}
	m.Update(ui.DataMsg{Snapshot: viewtest.Snapshot(viewtest.Epoch, 0), History: hist})
	want := strings.Join([]string{
		"8 groups: 1 error · 4 Stable · 1 PreparingRebalance · 1 Reconciling · 1 Empty · 1 Dead",
		// Without a lag history nothing is judged: no verdict, no time lag.
		"  NAME↑              TYPE     STATE       HEALTH                  MEMBERS    LAG TIME-LAG TREND",
		// A rebalancing state is "rebalancing" whatever its name, and a
		// group with fewer than two polls of lag has no trend.
		"▶ analytics-etl      consumer Stable      -                             2     29        - -",
		"  billing-reconciler classic  Stable      -                             2    769        - -",
		"  fraud-scoring      classic  rebalancing -                             3   2620        - -",
		"  inventory-sync     consumer rebalancing -                             2      6        - -",
		// One level per digit: 9 is 1-9, 497850 is 100k-999,999.
		"  legacy-audit       classic  Empty       -                             0 497850        -        ▂▂▂",
		"  orders-app         classic  Stable      -                             2    139        -    ▁▂▃▃▃▃▄",
	}, "\n")
	if got := viewtest.Strip(m.View()); got != want {
		t.Fatalf("view:\n%s\nwant\n%s", got, want)
	}
}

func TestEmptyCluster(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	m := New(viewtest.Common(80, 6, true))
	s := viewtest.Snapshot(viewtest.Epoch, 0)
	s.Groups = nil
	m.Update(ui.DataMsg{Snapshot: s, History: viewtest.History{}})
	if got := viewtest.Strip(m.View()); got != "0 groups\n  NAME↑ TYPE STATE       HEALTH                  MEMBERS LAG TIME-LAG TREND\n  no consumer groups in this cluster" {
		t.Fatalf("empty cluster:\n%s", got)
	}
	if reason := m.Actions()[0].DisabledReason(false); reason != "no group selected" {
		t.Fatalf("open with nothing selected: %q", reason)
	}
}

// benchHistory gives every group a full trend.
func benchHistory(n int) viewtest.History {
	h := make(viewtest.History, n)
	for i := range n {
		h[fmt.Sprintf("group-%05d", i)] = []int64{1, 4, 9, 16, 25, 36, 49, 64, 81, 100}
	}
	return h
}

// lagOf feeds polls of s, 5s apart, to a lag history.
func lagOf(s *kafka.Snapshot, polls int) *lag.Tracker {
	l := lag.NewTracker(lag.Config{})
	for i := range polls {
		p := *s
		p.Time = s.Time.Add(time.Duration(i) * 5 * time.Second)
		l.Add(&p)
	}
	return l
}

// BenchmarkView draws the groups screen at 120x40 with the cursor in the
// middle of the list: the cost must not depend on the number of groups.
// The health variant has every group judged and timed by a real history.
func BenchmarkView(b *testing.B) {
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	for _, n := range []int{500, 10_000} {
		for _, health := range []bool{false, true} {
			name := fmt.Sprintf("groups=%d", n)
			if health {
				name += "/health"
			}
			b.Run(name, func(b *testing.B) {
				s := viewtest.ManyGroups(n)
				m := New(viewtest.Common(120, 37, true))
				msg := ui.DataMsg{Snapshot: s, History: benchHistory(n)}
				if health {
					l := lagOf(s, 3)
					msg = ui.DataMsg{Snapshot: s, History: l, Lag: l}
				}
				m.Update(msg)
				m.Update(ui.SelectGroupMsg{Name: fmt.Sprintf("group-%05d", n/2)})
				if !strings.Contains(m.View(), fmt.Sprintf("group-%05d", n/2)) {
					b.Fatal("the selected group is not on screen")
				}
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					_ = m.View()
				}
			})
		}
	}
}

// TestHealthAndTimeLag: after a full window of polls every verdict shows,
// with the partition status behind an ERR, and time lags carry their mark.
func TestHealthAndTimeLag(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	l, s := viewtest.LagAfter(12)
	m := New(viewtest.Common(120, 12, true))
	m.Update(ui.DataMsg{Snapshot: s, History: l, Lag: l})
	want := strings.Join([]string{
		"8 groups: 1 error · 4 Stable · 1 PreparingRebalance · 1 Reconciling · 1 Empty · 1 Dead",
		// A WARN or ERR with a cause the poll knows names it; HEALTH is
		// always wide enough for one at 120 columns, so ASSIGNOR and
		// TOPICS do not show whether or not a cause does. fraud-scoring's
		// first member stopped committing on both its partitions (and
		// the ! says an ERR finding); billing-reconciler consumes slower
		// than it is produced to; the REWIND has no finding as severe as
		// itself, NO-COMMITS says its cause already; the Empty group's
		// STOP says it had no members while watched. A lag never known
		// has no trend (it is not a flat 0).
		"  NAME↑              TYPE     STATE       HEALTH                                MEMBERS    LAG TIME-LAG TREND",
		"▶ analytics-etl      consumer Stable      OK                                          2     29       3s ▁▃▁▃▁▃▁▃▁▃",
		"  billing-reconciler classic  Stable      WARN · slower than producers                2   1209     ≥55s ▄▄▄▄▅▅▅▅▅▅",
		"  ! fraud-scoring    classic  rebalancing ERR STALL · member not committing           3    725      50s ▃▄▄▄▄▄▄▄▄▄",
		"  inventory-sync     consumer rebalancing ERR REWIND                                  2    546      27s ▂▂▂▂▂▂▄▄▄▄",
		"  legacy-audit       classic  Empty       ERR STOP · no members while watched         0 498125     ≥55s ▇▇▇▇▇▇▇▇▇▇",
		"  orders-app         classic  Stable      WARN NO-COMMITS                             2     85      17s ▄▄▄▄▄▃▃▃▃▃",
		"  search-indexer     classic  Dead        -                                           0      -        - -",
		"  shipping-notifier  classic  Stable      -                                           1      -        - -",
	}, "\n")
	if got := viewtest.Strip(m.View()); got != want {
		t.Fatalf("view:\n%s\nwant\n%s", got, want)
	}
}

// TestHealthColours: OK green, WARN (NO-COMMITS too) amber, ERR red,
// unknown plain.
func TestHealthColours(t *testing.T) {
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	l, s := viewtest.LagAfter(12)
	c := viewtest.Common(120, 12, true)
	m := New(c)
	m.Update(ui.DataMsg{Snapshot: s, History: l, Lag: l})
	for range s.Groups {
		m.Update(tea.KeyMsg{Type: tea.KeyDown}) // the selected row is not coloured: take the last one
	}
	v := m.View()
	for _, want := range []string{
		c.Styles.OK.Render("OK"), c.Styles.Warn.Render("WARN · slower than producers"), c.Styles.Warn.Render("WARN NO-COMMITS"),
		c.Styles.Error.Render("ERR STALL · member not committing"),
		c.Styles.Error.Render("ERR REWIND"), c.Styles.Error.Render("ERR STOP · no members while watched"),
	} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q in\n%s", want, v)
		}
	}
	if strings.Contains(v, c.Styles.OK.Render("-")) || strings.Contains(v, c.Styles.Error.Render("-")) {
		t.Error("an unknown verdict is coloured")
	}
}

func TestSortByHealthLagAndTimeLag(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	l, s := viewtest.LagAfter(12)
	m := New(viewtest.Common(120, 12, true))
	m.Update(ui.DataMsg{Snapshot: s, History: l, Lag: l})
	names := func() string {
		var out []string
		for i := range m.rows {
			out = append(out, s.Groups[m.rows[i]].Name)
		}
		return strings.Join(out, " ")
	}
	press := func(k string) { m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}) }
	tests := []struct {
		key, want, header string
	}{
		// Worst first: ERR by what is behind it, then NO-COMMITS and
		// unknown next to them, then WARN, then OK.
		{"H", "legacy-audit inventory-sync fraud-scoring orders-app search-indexer shipping-notifier billing-reconciler analytics-etl", "HEALTH↓"},
		{"H", "analytics-etl billing-reconciler search-indexer shipping-notifier orders-app fraud-scoring inventory-sync legacy-audit", "HEALTH↑"},
		// Unmeasured lags (NO-COMMITS, unknown) first, by name, then the
		// largest lag.
		{"L", "orders-app search-indexer shipping-notifier legacy-audit billing-reconciler fraud-scoring inventory-sync analytics-etl", "LAG↓"},
		{"L", "analytics-etl inventory-sync fraud-scoring billing-reconciler legacy-audit orders-app search-indexer shipping-notifier", "LAG↑"},
		// Furthest behind first; unknown last.
		{"T", "billing-reconciler legacy-audit fraud-scoring inventory-sync orders-app analytics-etl search-indexer shipping-notifier", "TIME-LAG↓"},
		{"T", "search-indexer shipping-notifier analytics-etl orders-app inventory-sync fraud-scoring billing-reconciler legacy-audit", "TIME-LAG↑"},
	}
	for _, tt := range tests {
		press(tt.key)
		if got := names(); got != tt.want {
			t.Errorf("after %s: %s\nwant %s", tt.key, got, tt.want)
		}
		if header := strings.Split(viewtest.Strip(m.View()), "\n")[1]; !strings.Contains(header, " "+tt.header+" ") {
			t.Errorf("after %s: header %q has no %q", tt.key, header, tt.header)
		}
	}
}
