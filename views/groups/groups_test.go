package groups

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/kgroups/kgroups/tui/common"
	"github.com/kgroups/kgroups/views/viewtest"
)

func TestView(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	m := New(viewtest.Common(100, 8, true))
	if got := viewtest.Strip(m.View()); got != "Groups\n  waiting for the first poll…" {
		t.Fatalf("before data:\n%s", got)
	}
	hist := viewtest.History{"orders-app": {0, 5, 10, 20, 40, 80, 160}, "legacy-audit": {9, 9, 9}}
	m.Update(common.DataMsg{Snapshot: viewtest.Snapshot(viewtest.Epoch, 0), History: hist})
	want := strings.Join([]string{
		"8 groups: 1 error · 4 Stable · 1 PreparingRebalance · 1 Reconciling · 1 Empty · 1 Dead",
		"  NAME↑              TYPE     STATE              ASSIGNOR           MEMBERS TOPICS    LAG TREND",
		"▶ analytics-etl      consumer Stable             uniform                  2      1     29",
		"  billing-reconciler classic  Stable             range                    2      1    769",
		"  fraud-scoring      classic  PreparingRebalance roundrobin               3      1   2620",
		"  inventory-sync     consumer Reconciling        range                    2      1      6",
		"  legacy-audit       classic  Empty              -                        0      1 497850        ███",
		"  orders-app         classic  Stable             cooperative-sticky       2      2    139    ▁▂▂▂▃▅█",
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
	m.Update(common.DataMsg{Snapshot: s, History: viewtest.History{}})
	if got := viewtest.Strip(m.View()); got != "0 groups\n  NAME↑ TYPE STATE ASSIGNOR MEMBERS TOPICS PARTS LAG TREND COORD\n  no consumer groups in this cluster" {
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

// BenchmarkView draws the groups screen at 120x40 with the cursor in the
// middle of the list: the cost must not depend on the number of groups.
func BenchmarkView(b *testing.B) {
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	for _, n := range []int{500, 10_000} {
		b.Run(fmt.Sprintf("groups=%d", n), func(b *testing.B) {
			m := New(viewtest.Common(120, 37, true))
			m.Update(common.DataMsg{Snapshot: viewtest.ManyGroups(n), History: benchHistory(n)})
			m.Update(common.SelectGroupMsg{Name: fmt.Sprintf("group-%05d", n/2)})
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
