package reset_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/kafka/write"
)

// A write is verified only by a re-read that succeeded and shows it. Here
// the write's answer is lost and the write never lands (the connection is
// dropped on every try), and the re-reads fail in the two ways a broker
// can say "nothing there": GROUP_ID_NOT_FOUND for the group, or
// UNKNOWN_TOPIC_OR_PARTITION for each partition. A deletion's target ("no
// commit", "no group") looks exactly like such a failed read, so these are
// the faults that could pass for success; every write kind must say
// unknown, and the independent re-read shows that nothing changed.

// rereadFault is how the re-reads fail once the write was sent.
type rereadFault struct {
	name  string
	fault func(t *testing.T, e *env, armed *atomic.Bool) []kfake.Fault
}

var rereadFaults = []rereadFault{
	{"GROUP_ID_NOT_FOUND", func(_ *testing.T, _ *env, armed *atomic.Bool) []kfake.Fault {
		when := func(kmsg.Request) bool { return armed.Load() }
		return []kfake.Fault{
			{Keys: []kmsg.Key{kmsg.OffsetFetch, kmsg.DescribeGroups, kmsg.ConsumerGroupDescribe}, Group: "g", Err: kerr.GroupIDNotFound, Count: -1, When: when},
		}
	}},
	{"partition UNKNOWN_TOPIC_OR_PARTITION", nil},
	// The credentials may no longer describe the topic: a fetch of all
	// topics leaves it out without a word, which reads as "no commit".
	{"topic TOPIC_AUTHORIZATION_FAILED", func(_ *testing.T, _ *env, armed *atomic.Bool) []kfake.Fault {
		when := func(kmsg.Request) bool { return armed.Load() }
		return []kfake.Fault{
			{Keys: []kmsg.Key{kmsg.OffsetFetch}, Topic: "orders", Err: kerr.TopicAuthorizationFailed, Count: -1, When: when},
		}
	}},
	// The group is listed only by its coordinator: when that broker's
	// listing fails and the others answer, the group is missing from a
	// listing that is incomplete, which is no proof that it is gone.
	{"listing without the coordinator", func(t *testing.T, e *env, armed *atomic.Bool) []kfake.Fault {
		t.Helper()
		for _, g := range []string{"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7"} {
			e.c.Commit(t, g, map[string]map[int32]int64{"audit": {0: 1}})
		}
		s, err := e.cl.PollGroups(context.Background(), "g")
		if err != nil {
			t.Fatal(err)
		}
		g, _ := s.Group("g")
		when := func(kmsg.Request) bool { return armed.Load() }
		return []kfake.Fault{
			{Keys: []kmsg.Key{kmsg.ListGroups}, Nodes: []int32{g.Coordinator.ID}, TopLevel: true, Err: kerr.CoordinatorNotAvailable, Count: -1, When: when},
		}
	}},
}

// answerUnknownPartitions answers every OffsetFetch of group g, once
// armed, with each of the group's partitions (orders/0 and orders/1)
// failing UNKNOWN_TOPIC_OR_PARTITION: a kfake fault cannot reach the
// partitions of a fetch that names no topics.
func answerUnknownPartitions(e *env, armed *atomic.Bool) {
	e.c.ControlKey(int16(kmsg.OffsetFetch), func(r kmsg.Request) (kmsg.Response, error, bool) {
		e.c.KeepControl()
		req := r.(*kmsg.OffsetFetchRequest)
		if !armed.Load() {
			return nil, nil, false
		}
		resp := req.ResponseKind().(*kmsg.OffsetFetchResponse)
		bad := func(p int32) (int32, int64, int16) { return p, -1, kerr.UnknownTopicOrPartition.Code }
		if req.Version <= 7 {
			if req.Group != "g" {
				return nil, nil, false
			}
			t := kmsg.NewOffsetFetchResponseTopic()
			t.Topic = "orders"
			for _, p := range []int32{0, 1} {
				sp := kmsg.NewOffsetFetchResponseTopicPartition()
				sp.Partition, sp.Offset, sp.ErrorCode = bad(p)
				t.Partitions = append(t.Partitions, sp)
			}
			resp.Topics = append(resp.Topics, t)
			return resp, nil, true
		}
		for _, rg := range req.Groups {
			if rg.Group != "g" {
				return nil, nil, false
			}
			g := kmsg.NewOffsetFetchResponseGroup()
			g.Group = rg.Group
			t := kmsg.NewOffsetFetchResponseGroupTopic()
			t.Topic = "orders"
			for _, p := range []int32{0, 1} {
				sp := kmsg.NewOffsetFetchResponseGroupTopicPartition()
				sp.Partition, sp.Offset, sp.ErrorCode = bad(p)
				t.Partitions = append(t.Partitions, sp)
			}
			g.Topics = append(g.Topics, t)
			resp.Groups = append(resp.Groups, g)
		}
		return resp, nil, true
	})
}

// dropWrites drops every request of key on the floor once it arrives (the
// connection is closed, nothing is applied) and arms the re-read faults.
func dropWrites(e *env, key kmsg.Key, armed *atomic.Bool) {
	e.c.ControlKey(int16(key), func(kmsg.Request) (kmsg.Response, error, bool) {
		e.c.KeepControl()
		armed.Store(true)
		return nil, errors.New("dropped by the test"), true
	})
}

func installRereadFault(t *testing.T, e *env, f rereadFault, armed *atomic.Bool) {
	t.Helper()
	if f.fault == nil {
		answerUnknownPartitions(e, armed)
		return
	}
	for _, fl := range f.fault(t, e, armed) {
		h := e.c.Fault(fl)
		t.Cleanup(h.Remove)
	}
}

// assertUnknownReread checks an outcome unknown after a lost answer. The
// offsets re-read may still succeed (the listing fault leaves it alone),
// and then it shows the offset as it was.
func assertUnknownReread(t *testing.T, f rereadFault, outcome write.Outcome, status string) {
	t.Helper()
	if outcome != write.Unknown {
		t.Errorf("outcome = %v, want outcome unknown (status %q)", outcome, status)
	}
	if !strings.HasPrefix(status, "outcome unknown: no answer (") {
		t.Errorf("status = %q, want \"outcome unknown: no answer (...\"", status)
	}
	if f.name != "listing without the coordinator" && !strings.Contains(status, ") and the re-read failed (") {
		t.Errorf("status = %q, want \"outcome unknown: no answer (...) and the re-read failed (...)\"", status)
	}
}

func TestResetUnknownWhenTheReReadFails(t *testing.T) {
	for _, f := range rereadFaults {
		t.Run(f.name, func(t *testing.T) {
			e := newEnv(t)
			cl := e.shortClient(t)
			p := toEarliest(t, cl)
			var armed atomic.Bool
			installRereadFault(t, e, f, &armed)
			dropWrites(e, kmsg.OffsetCommit, &armed)
			res, err := reset.Apply(context.Background(), cl, p, e.opts())
			if err != nil {
				t.Fatal(err)
			}
			for _, pr := range res.Partitions {
				assertUnknownReread(t, f, pr.Outcome(), pr.Status())
			}
			if res.Outcome() != write.Unknown {
				t.Errorf("outcome = %v", res.Outcome())
			}
			armed.Store(false)
			if got := e.adminCommits(t, "g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 5, "orders/1": 10}) {
				t.Errorf("independent re-read = %v", got)
			}
		})
	}
}

// The bug found: delete-offsets said "verified (the broker's answer was
// lost ...)" while the offset was still there.
func TestDeleteOffsetsUnknownWhenTheReReadFails(t *testing.T) {
	for _, f := range rereadFaults {
		t.Run(f.name, func(t *testing.T) {
			e := newEnv(t)
			cl := e.shortClient(t)
			p, err := reset.PrepareDeleteOffsets(context.Background(), cl, "g", topic("orders", 1), time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			var armed atomic.Bool
			installRereadFault(t, e, f, &armed)
			dropWrites(e, kmsg.OffsetDelete, &armed)
			res, err := reset.Apply(context.Background(), cl, p, e.opts())
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Partitions) != 1 {
				t.Fatalf("partitions = %v", statuses(res))
			}
			assertUnknownReread(t, f, res.Partitions[0].Outcome(), res.Partitions[0].Status())
			armed.Store(false)
			if got := e.adminCommits(t, "g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 5, "orders/1": 10}) {
				t.Errorf("independent re-read = %v", got)
			}
		})
	}
}

func TestDeleteGroupUnknownWhenTheReReadFails(t *testing.T) {
	for _, f := range rereadFaults {
		t.Run(f.name, func(t *testing.T) {
			e := newEnv(t)
			cl := e.shortClient(t)
			ds, err := reset.PrepareDeleteGroups(context.Background(), cl, []string{"g"}, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			var armed atomic.Bool
			installRereadFault(t, e, f, &armed)
			dropWrites(e, kmsg.DeleteGroups, &armed)
			res, err := reset.ApplyDeleteGroup(context.Background(), cl, ds[0], e.opts())
			if err != nil {
				t.Fatal(err)
			}
			// With partition errors the group is still listed and
			// described: the re-read shows it exists.
			if res.Outcome() != write.Unknown || !strings.HasPrefix(res.Status(), "outcome unknown: no answer (") {
				t.Errorf("outcome %v, status %q", res.Outcome(), res.Status())
			}
			armed.Store(false)
			if got := e.adminCommits(t, "g"); !e.groupListed(t, "g") || !reflect.DeepEqual(got, map[string]int64{"orders/0": 5, "orders/1": 10}) {
				t.Errorf("independent re-read = %v (listed %v)", got, e.groupListed(t, "g"))
			}
		})
	}
}

// A share group's start offsets: the AlterShareGroupOffsets answer is
// lost and the write dropped; the re-read answers GROUP_ID_NOT_FOUND
// (the group is still there) or UNKNOWN_TOPIC_OR_PARTITION for each
// partition. Unknown, and the start offsets are as they were.
func TestShareResetUnknownWhenTheReReadFails(t *testing.T) {
	for _, fault := range []*kerr.Error{kerr.GroupIDNotFound, kerr.UnknownTopicOrPartition} {
		t.Run(fault.Message, func(t *testing.T) {
			e, m := newShareEnv(t)
			m.Close()
			waitShareEmpty(t, e)
			cl := e.shortClient(t)
			ctx := context.Background()
			p, err := reset.Prepare(ctx, cl, reset.Request{Group: "sg", Scenario: reset.Scenario{Kind: reset.ToEarliest}, Scope: allTopics()})
			if err != nil {
				t.Fatal(err)
			}
			var armed atomic.Bool
			fl := kfake.Fault{Keys: []kmsg.Key{kmsg.DescribeShareGroupOffsets}, Group: "sg", Err: fault, Count: -1, When: func(kmsg.Request) bool { return armed.Load() }}
			if fault == kerr.UnknownTopicOrPartition {
				fl.Group, fl.Topic = "", "jobs"
			}
			h := e.c.Fault(fl)
			dropWrites(e, kmsg.AlterShareGroupOffsets, &armed)
			res, err := reset.Apply(ctx, cl, p, e.opts())
			armed.Store(false)
			h.Remove()
			if err != nil {
				t.Fatal(err)
			}
			for _, pr := range res.Partitions {
				if pr.Outcome() != write.Unknown || !strings.HasPrefix(pr.Status(), "outcome unknown: no answer (") || !strings.Contains(pr.Status(), ") and the re-read failed (") {
					t.Errorf("%s: %v, %q", pr.TP(), pr.Outcome(), pr.Status())
				}
			}
			if got := startOffsets(t, e.c, "sg"); !reflect.DeepEqual(got, map[string]int64{"jobs/0": 10, "jobs/1": 6}) {
				t.Errorf("independent re-read = %v", got)
			}
		})
	}
}
