package diagnosis

import (
	"reflect"
	"testing"

	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/viewtest"
)

// TestPreparedPollFindsTheSame: findings worked out off the UI loop
// (Prepare) are exactly those the tab works out in Update, poll after
// poll, the stuck transaction included (it needs the stable offset's
// history the tab keeps). A read answered between Prepare and the poll's
// arrival makes the tab work the poll out itself, with the answer.
func TestPreparedPollFindsTheSame(t *testing.T) {
	tr := lag.NewTracker(lag.DefaultConfig())
	tl := rebalance.NewTimeline(rebalance.TimelineConfig{})
	c := viewtest.Common(140, 12, true)
	taken, prep := New(c, "g", tl), New(c, "g", tl)
	for _, sec := range []int{0, 30, 61, 90} {
		s := poll(sec)
		tr.Add(s)
		tl.Add(s)
		msg := ui.DataMsg{Snapshot: s, History: tr, Lag: tr, Rebalances: tl}
		f := prep.Prepare()
		answered := sec == 90
		if answered {
			// A read answered after Prepare: the tab holds more than
			// the prepared copy did.
			prep.answers++
			taken.answers++
		}
		taken.Update(msg)
		p := f(msg).(*prepared)
		if reflect.ValueOf(p.m.stable).Pointer() == reflect.ValueOf(prep.stable).Pointer() || reflect.ValueOf(p.m.records).Pointer() == reflect.ValueOf(prep.records).Pointer() {
			t.Fatalf("at %ds: the job wrote the tab's own maps", sec)
		}
		msg.Prepared = p
		prep.Update(msg)
		if installed := len(prep.findings) > 0 && &prep.findings[0] == &p.m.findings[0]; installed == answered {
			t.Fatalf("at %ds: prepared findings installed %v, want %v", sec, installed, !answered)
		}
		if !reflect.DeepEqual(taken.Findings(), prep.Findings()) || !reflect.DeepEqual(taken.want, prep.want) || !reflect.DeepEqual(taken.stable, prep.stable) {
			t.Fatalf("at %ds: findings in Update %+v, prepared %+v", sec, taken.Findings(), prep.Findings())
		}
		if a, b := viewtest.Strip(taken.View()), viewtest.Strip(prep.View()); a != b {
			t.Fatalf("at %ds: taken in Update:\n%s\nprepared:\n%s", sec, a, b)
		}
	}
	stuck := false
	for _, f := range prep.Findings() {
		stuck = stuck || f.ID == "stuck-behind-open-transaction"
	}
	if !stuck {
		t.Fatalf("the polls found no stuck transaction: %+v", prep.Findings())
	}
}
