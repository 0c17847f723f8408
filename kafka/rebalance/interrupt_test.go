package rebalance

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// A wait stopped by its caller (Ctrl+C, SIGTERM) says "interrupted" with
// what it saw, not that the group did not settle within the timeout,
// which had not passed.
func TestWaitInterrupted(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 2)
	cl := c.Client(t)
	const group = "waited"
	a := c.Join(t, group, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()))
	c.Join(t, group, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()))
	c.WaitStable(t, group, 2, 2)
	before := settledGroup(t, cl, group, 2, 2)
	p, err := PlanRemoval(before, Selection{MemberIDs: []string{a.MemberID()}}, "")
	if err != nil {
		t.Fatal(err)
	}
	// Nothing is removed, so the member is still listed and the group
	// cannot settle: only the interruption ends the wait.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The interval is shorter than a poll takes: the tick is ready
	// beside the cancellation when the first poll returns, and the wait
	// must not poll again.
	out, err := Wait(ctx, cl, p, []string{a.MemberID()}, WaitOptions{
		Interval:   time.Millisecond,
		Timeout:    kafkatest.WaitTimeout,
		OnSnapshot: func(*kafka.Snapshot) { cancel() },
	})
	want := `interrupted while waiting for group "waited" to settle (last seen Stable with 2 members, still listing removed member(s) ` + a.MemberID() + `)`
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
	if !errors.Is(err, ErrInterrupted) || errors.Is(err, ErrNotSettled) {
		t.Errorf("err %v: interrupted %v, not settled %v", err, errors.Is(err, ErrInterrupted), errors.Is(err, ErrNotSettled))
	}
	if out == nil || out.Settled || out.After == nil || out.Polls != 1 {
		t.Fatalf("outcome %+v", out)
	}

	// The timeout passing is still "did not settle within" (and the
	// poll the deadline cut short may be named after it).
	_, err = Wait(context.Background(), cl, p, []string{a.MemberID()}, WaitOptions{Interval: 20 * time.Millisecond, Timeout: 200 * time.Millisecond})
	want = `group "waited": the group did not settle within 200ms (last seen Stable with 2 members, still listing removed member(s) ` + a.MemberID()
	if err == nil || !strings.HasPrefix(err.Error(), want) || !errors.Is(err, ErrNotSettled) || errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
}
