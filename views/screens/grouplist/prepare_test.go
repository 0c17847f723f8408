package grouplist

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/viewtest"
)

// TestPreparedPollShowsTheSame: a poll prepared off the UI loop (Prepare)
// shows exactly what the same poll taken in Update shows, poll after poll
// and through sorts and a filter. When the sort changes between Prepare
// and the poll's arrival, the screen works the poll out itself, sorted the
// new way.
func TestPreparedPollShowsTheSame(t *testing.T) {
	c := viewtest.Common(160, 14, true)
	taken, prep := New(c), New(c)
	l := lag.NewTracker(lag.DefaultConfig())
	press := func(k string) {
		for _, m := range []*Model{taken, prep} {
			for _, r := range k {
				m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
			}
		}
	}
	for i := range 12 {
		s := viewtest.Evolving(i)
		l.Add(s)
		msg := ui.DataMsg{Snapshot: s, History: l, Lag: l}
		switch i {
		case 3:
			press("L")
		case 5:
			press("/")
			press("a")
			taken.Update(tea.KeyMsg{Type: tea.KeyEnter})
			prep.Update(tea.KeyMsg{Type: tea.KeyEnter})
		}
		f := prep.Prepare()
		changed := i == 8
		if changed {
			press("H") // after Prepare, before the poll arrives
		}
		shown := prep.health
		taken.Update(msg)
		pm := msg
		p := f(msg).(*prepared)
		if len(shown) > 0 && &p.m.health[0] == &shown[0] {
			t.Fatalf("poll %d: the job wrote the verdicts on show", i)
		}
		pm.Prepared = p
		prep.Update(pm)
		if installed := len(prep.rows) > 0 && &prep.rows[0] == &p.m.rows[0]; installed == changed {
			t.Fatalf("poll %d: prepared figures installed %v, want %v", i, installed, !changed)
		}
		if a, b := viewtest.Strip(taken.View()), viewtest.Strip(prep.View()); a != b {
			t.Fatalf("poll %d: taken in Update:\n%s\nprepared:\n%s", i, a, b)
		}
	}
}
