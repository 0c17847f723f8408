package groupdetail

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/viewtest"
)

func TestChartScope(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	l, s := viewtest.LagAfter(12)
	m := New(viewtest.Common(80, 21, true), "billing-reconciler", s, l)
	scope := func() string { return strings.Split(viewtest.Strip(m.View()), "\n")[5] }
	titles := func() (string, string) {
		ls := strings.Split(viewtest.Strip(m.View()), "\n")
		var out []string
		for _, l := range ls {
			if strings.HasPrefix(l, "lag ") || strings.HasPrefix(l, "time lag ") {
				out = append(out, l)
			}
		}
		if len(out) != 2 {
			t.Fatalf("chart titles %q in\n%s", out, strings.Join(ls, "\n"))
		}
		return out[0], out[1]
	}
	m.Update(tea.KeyMsg{Type: tea.KeyTab})
	m.Update(tea.KeyMsg{Type: tea.KeyTab})
	if m.Tab() != Chart || scope() != "whole group · c selected partition · 12 polls over 55s" {
		t.Fatalf("tab %v, scope %q", m.Tab(), scope())
	}
	if lagTitle, tlTitle := titles(); lagTitle != "lag messages · now 1209" || tlTitle != "time lag · now ≥55s" {
		t.Fatalf("group chart titles %q %q", lagTitle, tlTitle)
	}
	press(m, "c")
	if scope() != "partition invoices/0 · c whole group · ↑↓ partition · 12 polls over 55s" {
		t.Fatalf("scope after c: %q", scope())
	}
	// Up and down pick the partition, and the Partitions tab follows.
	press(m, "down")
	if scope() != "partition invoices/1 · c whole group · ↑↓ partition · 12 polls over 55s" || m.wins[Partitions].Cursor != 1 {
		t.Fatalf("scope after down: %q, cursor %d", scope(), m.wins[Partitions].Cursor)
	}
	if lagTitle, tlTitle := titles(); lagTitle != "lag messages · now 879" || tlTitle != "time lag · now ≥55s" {
		t.Fatalf("partition chart titles %q %q", lagTitle, tlTitle)
	}
	// A new poll redraws the chart from the history.
	l.Add(viewtest.Evolving(12))
	m.Update(ui.DataMsg{Snapshot: viewtest.Evolving(12), Lag: l})
	if lagTitle, _ := titles(); lagTitle != "lag messages · now 889" || !strings.HasSuffix(scope(), "13 polls over 1m00s") {
		t.Fatalf("after a poll: %q, %q", lagTitle, scope())
	}
	press(m, "c")
	if !strings.HasPrefix(scope(), "whole group") {
		t.Fatalf("scope after c c: %q", scope())
	}
	if len(strings.Split(m.View(), "\n")) != 21 {
		t.Fatalf("the chart tab is not 21 lines:\n%s", viewtest.Strip(m.View()))
	}

	// Without a history there is nothing to chart.
	m = New(viewtest.Common(80, 21, true), "billing-reconciler", s, nil)
	m.Update(tea.KeyMsg{Type: tea.KeyShiftTab})
	if got := strings.Split(viewtest.Strip(m.View()), "\n")[5:]; strings.Join(got, "\n") != "whole group · c selected partition\n  no history yet" {
		t.Fatalf("chart without history:\n%s", strings.Join(got, "\n"))
	}
}

// TestChartUnknownLagIsNotZero: a group whose lag was never known
// (shipping-notifier: its offsets could not be read) has a header that
// says "lag -", and a chart that says "now -" and draws no bar: unknown
// is never drawn as 0.
func TestChartUnknownLagIsNotZero(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	l, s := viewtest.LagAfter(12)
	m := New(viewtest.Common(80, 21, true), "shipping-notifier", s, l)
	ls := strings.Split(viewtest.Strip(m.View()), "\n")
	if !strings.HasPrefix(ls[2], "health - · lag - · ") {
		t.Fatalf("header %q", ls[2])
	}
	m.Update(tea.KeyMsg{Type: tea.KeyShiftTab})
	if m.Tab() != Chart {
		t.Fatalf("tab %v", m.Tab())
	}
	v := viewtest.Strip(m.View())
	var title string
	for _, l := range strings.Split(v, "\n") {
		if strings.HasPrefix(l, "lag ") {
			title = l
		}
	}
	if title != "lag messages · now -" {
		t.Fatalf("lag chart title %q in\n%s", title, v)
	}
	if strings.ContainsAny(v, "▁▂▃▄▅▆▇█") {
		t.Fatalf("the chart draws bars for a lag never known:\n%s", v)
	}
}
