package grouplist

import (
	"reflect"
	"slices"
	"testing"

	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/viewtest"
)

// TestVerdictsNotCopied: the screen keeps the tracker's verdicts of its
// poll (lag.Tracker.Verdicts) instead of copying 216 bytes a group, taken
// in Update or prepared off the UI loop, and shows that poll's verdicts
// until the next poll reaches it, though the tracker takes one in
// between.
func TestVerdictsNotCopied(t *testing.T) {
	c := viewtest.Common(160, 14, true)
	m := New(c)
	l := lag.NewTracker(lag.DefaultConfig())
	for i := range 12 {
		s := viewtest.Evolving(i)
		l.Add(s)
		msg := ui.DataMsg{Snapshot: s, History: l, Lag: l}
		if i%2 == 1 {
			msg.Prepared = m.Prepare()(msg)
		}
		m.Update(msg)
		if v := l.Verdicts(s); len(m.health) == 0 || &m.health[0] != &v[0] {
			t.Fatalf("poll %d: the screen copied the verdicts", i)
		}
		shown := slices.Clone(m.health)
		l.Add(viewtest.Evolving(i + 1)) // not shown yet
		if !reflect.DeepEqual(m.health, shown) {
			t.Fatalf("poll %d: the verdicts on show changed before the next poll reached the screen", i)
		}
		// The tracker moves on; the next round adds the poll after.
		l = lag.NewTracker(lag.DefaultConfig())
		for k := range i + 1 {
			l.Add(viewtest.Evolving(k))
		}
	}
}
