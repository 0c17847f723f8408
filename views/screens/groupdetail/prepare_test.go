package groupdetail

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/viewtest"
)

// TestPreparedPollShowsTheSame: a poll whose partitions were judged off
// the UI loop (Prepare) shows exactly what the same poll judged in Update
// shows, on the Partitions tab (with its chart's pane) and on Members,
// poll after poll; the judged partitions are the prepared ones.
func TestPreparedPollShowsTheSame(t *testing.T) {
	c := viewtest.Common(160, 20, true)
	l := lag.NewTracker(lag.DefaultConfig())
	s := viewtest.Evolving(0)
	l.Add(s)
	taken, prep := New(c, "orders-app", s, l), New(c, "orders-app", s, l)
	for i := 1; i < 12; i++ {
		s = viewtest.Evolving(i)
		l.Add(s)
		msg := ui.DataMsg{Snapshot: s, History: l, Lag: l}
		shown := prep.health.Partitions
		f := prep.Prepare()
		taken.Update(msg)
		p := f(msg).(*prepared)
		if len(shown) > 0 && &p.gh.Partitions[0] == &shown[0] {
			t.Fatalf("poll %d: the job judged into the partitions on show", i)
		}
		if !p.ok || len(p.gh.Partitions) == 0 {
			t.Fatalf("poll %d: nothing judged off the loop", i)
		}
		msg.Prepared = p
		prep.Update(msg)
		if &prep.health.Partitions[0] != &p.gh.Partitions[0] {
			t.Fatalf("poll %d: the screen judged the poll again", i)
		}
		if a, b := viewtest.Strip(taken.View()), viewtest.Strip(prep.View()); a != b {
			t.Fatalf("poll %d: judged in Update:\n%s\nprepared:\n%s", i, a, b)
		}
		if i == 6 {
			for _, m := range []*Model{taken, prep} {
				m.Update(tea.KeyMsg{Type: tea.KeyDown})
			}
		}
	}
	for _, m := range []*Model{taken, prep} {
		m.tab = Members
	}
	if a, b := viewtest.Strip(taken.View()), viewtest.Strip(prep.View()); a != b {
		t.Fatalf("members: judged in Update:\n%s\nprepared:\n%s", a, b)
	}
}
