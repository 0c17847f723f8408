package removal

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/viewtest"
)

func TestRemovalOutcomesOnScreen(t *testing.T) {
	t.Run("removed though the answer was lost", func(t *testing.T) {
		f := &fakeBackend{
			answers: map[string]rebalance.Result{member1: {Err: context.DeadlineExceeded, Gone: true}},
			out:     &rebalance.Outcome{Settled: true, Left: []kafka.Member{{MemberID: member1}}},
		}
		m := open(t, f, "orders-app", rebalance.Selection{MemberIDs: []string{member1}}, false)
		m.Update(execute(t, m.Update(execute(t, press(m, "y")))))
		if _, w := f.calls(); !reflect.DeepEqual(w, [][]string{{member1}}) {
			t.Fatalf("waits %v, want one for member1", w)
		}
		v := strings.ReplaceAll(viewtest.Strip(m.View()), ":\n", ": ")
		for _, want := range []string{member1 + ": verified removed (the broker's answer was lost: context deadline exceeded)", "removed: " + member1, "Receipt: " + receiptPath} {
			if !strings.Contains(v, want) {
				t.Errorf("screen does not show %q:\n%s", want, v)
			}
		}
		if strings.Contains(v, "not removed") || strings.Contains(v, "unknown") {
			t.Errorf("screen:\n%s", v)
		}
	})
	t.Run("rounds counted from generations", func(t *testing.T) {
		rounds := rebalance.Rounds{Known: true, From: 7, To: 10, MayBeMissed: true,
			Seen: []rebalance.Round{{Generation: 8, Kind: rebalance.RoundRevoke}, {Generation: 10, Kind: rebalance.RoundAssign}}}
		f := &fakeBackend{
			answers: map[string]rebalance.Result{member1: {Gone: true}},
			out:     &rebalance.Outcome{Settled: true, Left: []kafka.Member{{MemberID: member1}}, Rejoined: 1, Rounds: rounds},
		}
		m := open(t, f, "orders-app", rebalance.Selection{MemberIDs: []string{member1}}, false)
		m.Update(execute(t, m.Update(execute(t, press(m, "y")))))
		v := strings.Join(strings.Fields(viewtest.Strip(m.View())), " ")
		for _, want := range []string{
			"the group rebalanced in 2 rounds (incremental revoke, then assign), generation 7 to 10; rounds may have been missed between reads: the generation rose by more than 1 between two of them",
			"0 partitions changed process, 1 member rejoined with a new id",
		} {
			if !strings.Contains(v, want) {
				t.Errorf("screen does not show %q:\n%s", want, v)
			}
		}
	})
	t.Run("outcome unknown", func(t *testing.T) {
		f := &fakeBackend{answers: map[string]rebalance.Result{member1: {Err: context.DeadlineExceeded}}}
		m := open(t, f, "orders-app", rebalance.Selection{MemberIDs: []string{member1}}, false)
		if cmd := m.Update(execute(t, press(m, "y"))); cmd != nil {
			t.Fatal("an unknown outcome started a wait")
		}
		v := viewtest.Strip(m.View())
		for _, want := range []string{member1 + ": outcome unknown: no answer (context deadline exceeded)", "The outcome is unknown for 1 member", "kgroups describe orders-app", "Receipt: " + receiptPath} {
			if !strings.Contains(strings.ReplaceAll(v, "\n", " "), want) {
				t.Errorf("screen does not show %q:\n%s", want, v)
			}
		}
		if strings.Contains(v, "Nothing changed.") {
			t.Errorf("an unknown outcome says nothing changed:\n%s", v)
		}
		if got := m.summary(); got != "outcome unknown for some members of orders-app: check the group; receipt "+receiptPath {
			t.Errorf("summary %q", got)
		}
	})
}
