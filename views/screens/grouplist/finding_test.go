package grouplist

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/viewtest"
)

// TestErrFindingMark: a group whose commit retention overtook (an ERR
// diagnosis finding) has its name marked; the others do not, and the
// HEALTH column keeps its width (the width's alone at 100 columns).
func TestErrFindingMark(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	m := New(viewtest.Common(100, 12, true))
	s := viewtest.Snapshot(viewtest.Epoch, 0)
	for i := range s.Groups {
		if s.Groups[i].Name == "orders-app" {
			p := &s.Groups[i].Partitions[0]
			p.LogStart = p.Committed + 5
		}
	}
	m.Update(ui.DataMsg{Snapshot: s, History: viewtest.History{}})
	var marked []string
	header := ""
	for _, l := range strings.Split(viewtest.Strip(m.View()), "\n") {
		if strings.Contains(l, "NAME") {
			header = l
		}
		if strings.HasPrefix(strings.TrimLeft(l, "▶ "), FindingMark) {
			marked = append(marked, strings.Fields(strings.TrimLeft(l, "▶ "))[1])
		}
	}
	if len(marked) != 1 || marked[0] != "orders-app" {
		t.Errorf("marked %q, want orders-app alone", marked)
	}
	if !strings.Contains(header, "HEALTH                  MEMBERS") {
		t.Errorf("HEALTH moved: %q", header)
	}
}
