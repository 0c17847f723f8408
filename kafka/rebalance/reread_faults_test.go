package rebalance

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/kafka/write"
)

// A member is verified removed only by a re-read that succeeded and no
// longer shows it. Here the LeaveGroup's answer is lost and the request
// never applied (the connection is dropped on every try), and the re-read
// fails in the ways that look like "no such member": the group answered
// with GROUP_ID_NOT_FOUND, or left out of a listing that its coordinator
// did not answer. Both must be unknown, and the member is still there.
func TestRemovalUnknownWhenTheReReadFails(t *testing.T) {
	for _, fault := range []string{"GROUP_ID_NOT_FOUND", "listing without the coordinator"} {
		t.Run(fault, func(t *testing.T) {
			c := kafkatest.NewCluster(t)
			c.CreateTopic(t, "orders", 2)
			cl := c.Client(t)
			const group = "faulty"
			a := c.Join(t, group, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()))
			c.Join(t, group, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()))
			c.WaitStable(t, group, 2, 2)
			// Groups on every broker, so that the other brokers'
			// listings are not empty when the coordinator's fails.
			for _, g := range []string{"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7"} {
				c.Commit(t, g, map[string]map[int32]int64{"orders": {0: 1}})
			}
			before := settledGroup(t, cl, group, 2, 2)
			p, err := PlanRemoval(before, Selection{MemberIDs: []string{a.MemberID()}}, "")
			if err != nil {
				t.Fatal(err)
			}
			kc, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(kc.Close)
			short := kafka.NewClient(kc, c.Addrs, 2*time.Second)

			var armed atomic.Bool
			c.ControlKey(int16(kmsg.LeaveGroup), func(kmsg.Request) (kmsg.Response, error, bool) {
				c.KeepControl()
				armed.Store(true)
				return nil, errors.New("dropped by the test"), true
			})
			when := func(kmsg.Request) bool { return armed.Load() }
			var h *kfake.FaultHandle
			if fault == "GROUP_ID_NOT_FOUND" {
				h = c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.DescribeGroups}, Group: group, Err: kerr.GroupIDNotFound, Count: -1, When: when})
			} else {
				h = c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.ListGroups}, Nodes: []int32{before.Coordinator.ID}, TopLevel: true, Err: kerr.CoordinatorNotAvailable, Count: -1, When: when})
			}
			results, _ := Remove(context.Background(), short, p)
			Verify(context.Background(), short, p, results)
			armed.Store(false)
			h.Remove()
			if len(results) != 1 {
				t.Fatalf("results %+v", results)
			}
			r := results[0]
			if r.Outcome() != write.Unknown || !strings.HasPrefix(r.Status(), "outcome unknown: no answer (") || !strings.Contains(r.Status(), ") and the re-read failed (re-read group \"faulty\": ") {
				t.Fatalf("outcome %v, status %q", r.Outcome(), r.Status())
			}
			if gi := c.GroupInfo(group); gi == nil || len(gi.Members) != 2 {
				t.Fatalf("the member was removed after all: %+v", gi)
			}
		})
	}
}
