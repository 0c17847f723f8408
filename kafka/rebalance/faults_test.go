package rebalance

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/kafka/write"
)

// faultTimeout is the request timeout of the client under test: short, so
// that a held LeaveGroup outlives it.
const faultTimeout = 2 * time.Second

func shortClient(t *testing.T, c *kafkatest.Cluster) *kafka.Client {
	t.Helper()
	kc, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...), kgo.MetadataMinAge(250*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(kc.Close)
	return kafka.NewClient(kc, c.Addrs, faultTimeout)
}

// independentMembers reads the group's member ids with an independent kadm client,
// and the member id of each instance id.
func independentMembers(t *testing.T, c *kafkatest.Cluster, group string) (ids map[string]bool, byInstance map[string]string) {
	t.Helper()
	kc, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...))
	if err != nil {
		t.Fatal(err)
	}
	defer kc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	gs, err := kadm.NewClient(kc).DescribeGroups(ctx, group)
	if err == nil {
		err = gs.Error()
	}
	if err != nil {
		t.Fatalf("independent describe: %v", err)
	}
	ids, byInstance = make(map[string]bool), make(map[string]string)
	for _, m := range gs[group].Members {
		ids[m.MemberID] = true
		if m.InstanceID != nil {
			byInstance[*m.InstanceID] = m.MemberID
		}
	}
	return ids, byInstance
}

// A LeaveGroup whose answer is lost, though the coordinator removed the
// member: the re-read finds it gone (or back under a new id), so the
// removal is verified and says both.
func TestRemoveVerifiedThoughTheAnswerWasLost(t *testing.T) {
	for _, static := range []bool{false, true} {
		name := map[bool]string{false: "dynamic", true: "static"}[static]
		t.Run(name, func(t *testing.T) {
			c := kafkatest.NewCluster(t)
			c.CreateTopic(t, "orders", 4)
			cl := shortClient(t, c)
			group := "lost-" + name
			var opts []kgo.Opt
			if static {
				opts = append(opts, kgo.InstanceID("s1"))
			}
			a := c.Join(t, group, []string{"orders"}, opts...)
			c.Join(t, group, []string{"orders"})
			c.WaitStable(t, group, 2, 4)
			before := settledGroup(t, cl, group, 2, 4)
			oldA := a.MemberID()
			sel := Selection{MemberIDs: []string{oldA}}
			if static {
				sel = Selection{InstanceIDs: []string{"s1"}}
			}
			p, err := PlanRemoval(before, sel, "")
			if err != nil {
				t.Fatal(err)
			}
			var n atomic.Int32
			c.ControlKey(int16(kmsg.LeaveGroup), func(kmsg.Request) (kmsg.Response, error, bool) {
				if n.Add(1) == 1 {
					time.Sleep(faultTimeout + time.Second)
				}
				return nil, nil, false
			})
			svc := &Service{Client: cl, ReceiptDir: filepath.Join(t.TempDir(), "receipts")}
			removal, err := svc.Remove(context.Background(), p)
			if removal == nil {
				t.Fatalf("no removal: %v", err)
			}
			if len(removal.Results) != 1 {
				t.Fatalf("results %+v", removal.Results)
			}
			r := removal.Results[0]
			if r.Outcome() != write.Verified || removal.Outcome() != write.Verified ||
				!strings.HasPrefix(r.Status(), "verified removed (the broker's answer was lost: ") || !strings.Contains(r.Status(), "context deadline exceeded") {
				t.Errorf("outcome %v, status %q", r.Outcome(), r.Status())
			}
			if got := removal.Removed(); len(got) != 1 || got[0] != oldA {
				t.Errorf("removed = %v, want [%s]", got, oldA)
			}
			ids, byInstance := independentMembers(t, c, group)
			if ids[oldA] {
				t.Errorf("the independent client still sees %s", oldA)
			}
			if static && byInstance["s1"] == oldA {
				t.Errorf("instance s1 still has member id %s", oldA)
			}
		})
	}
}

// A LeaveGroup that never gets an answer and never lands: the member is
// still there, and the outcome is unknown, not refused.
func TestRemoveUnknownWhenNoAnswerCame(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 2)
	cl := shortClient(t, c)
	const group = "unanswered"
	a := c.Join(t, group, []string{"orders"})
	c.WaitStable(t, group, 1, 2)
	before := settledGroup(t, cl, group, 1, 2)
	p, err := PlanRemoval(before, Selection{MemberIDs: []string{a.MemberID()}}, "")
	if err != nil {
		t.Fatal(err)
	}
	var done atomic.Bool
	c.ControlKey(int16(kmsg.LeaveGroup), func(kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		if done.Load() {
			return nil, nil, false
		}
		return nil, errors.New("dropped by the test"), true
	})
	svc := &Service{Client: cl, ReceiptDir: filepath.Join(t.TempDir(), "receipts")}
	removal, _ := svc.Remove(context.Background(), p)
	done.Store(true)
	if removal == nil || len(removal.Results) != 1 {
		t.Fatalf("removal %+v", removal)
	}
	r := removal.Results[0]
	if r.Outcome() != write.Unknown || !strings.HasPrefix(r.Status(), "outcome unknown: no answer (") ||
		!strings.HasSuffix(r.Status(), "the member is still in the group, and the request may still land") {
		t.Errorf("outcome %v, status %q", r.Outcome(), r.Status())
	}
	if len(removal.Removed()) != 0 {
		t.Errorf("removed = %v", removal.Removed())
	}
	if ids, _ := independentMembers(t, c, group); !ids[a.MemberID()] {
		t.Errorf("the member is gone: %v", ids)
	}
}
