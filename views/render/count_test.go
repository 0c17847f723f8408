package render

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/rebalance"
)

// TestOneMemberIsSingular: the sentences that count a group's members
// say "1 member", not "1 members": the header of simulate and rebalance,
// and how the group settled after a removal.
func TestOneMemberIsSingular(t *testing.T) {
	g := &kafka.Group{Name: "orders-app", Type: kafka.TypeClassic, State: kafka.StateStable, Assignor: "range",
		Members: []kafka.Member{{MemberID: "m1", ClientID: "app", Host: "/10.0.0.1"}}}
	if got, want := ChangeHeader(g, "join 1"), "Group orders-app (classic, Stable, assignor range, 1 member): join 1"; got != want {
		t.Errorf("ChangeHeader = %q, want %q", got, want)
	}
	two := *g
	two.Members = append(append([]kafka.Member(nil), g.Members...), kafka.Member{MemberID: "m2", ClientID: "app", Host: "/10.0.0.2"})
	if got, want := ChangeHeader(&two, "leave 1"), "Group orders-app (classic, Stable, assignor range, 2 members): leave 1"; got != want {
		t.Errorf("ChangeHeader = %q, want %q", got, want)
	}

	p := &rebalance.Plan{Group: g.Name, Before: two}
	for _, tc := range []struct {
		out  rebalance.Outcome
		want string
	}{
		{rebalance.Outcome{After: g, Settled: true, Took: 1500 * time.Millisecond},
			"Group orders-app is Stable again after 1.5s, with 1 member.\n"},
		{rebalance.Outcome{After: g, Settled: true, Short: true, Took: 1500 * time.Millisecond},
			"Group orders-app is Stable again after 1.5s, with 1 member (2 before): the removed members that did not rejoin within the settle time are gone.\n"},
		{rebalance.Outcome{After: g, Took: 10 * time.Second},
			"Group orders-app has not settled after 10s: it is Stable with 1 member.\n"},
	} {
		var b bytes.Buffer
		if err := RemovalOutcome(&b, p, &tc.out, nil, Layout{}); err != nil {
			t.Fatal(err)
		}
		// The outcome starts with a blank line, then how the group settled.
		if first, _, _ := strings.Cut(strings.TrimPrefix(b.String(), "\n"), "\n"); first+"\n" != tc.want {
			t.Errorf("outcome %+v starts\n%q\nwant\n%q", tc.out, first+"\n", tc.want)
		}
	}
}
