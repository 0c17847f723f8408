package reset_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/kafka/write"
)

// Faults: every write is reported verified, refused or of unknown outcome,
// and the re-read decides. Offsets are checked with an independent kadm
// client, so that the checks do not rest on the code under test.

// faultTimeout is the request timeout of the client under test: short, so
// that a held request outlives it.
const faultTimeout = 2 * time.Second

// shortClient is a kgroups client whose requests time out after
// faultTimeout.
func (e *env) shortClient(t *testing.T) *kafka.Client {
	t.Helper()
	kc, err := kgo.NewClient(kgo.SeedBrokers(e.c.Addrs...), kgo.MetadataMinAge(250*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(kc.Close)
	return kafka.NewClient(kc, e.c.Addrs, faultTimeout)
}

// adminCommits reads a group's commits with an independent kadm client.
func (e *env) adminCommits(t *testing.T, group string) map[string]int64 {
	t.Helper()
	kc, err := kgo.NewClient(kgo.SeedBrokers(e.c.Addrs...))
	if err != nil {
		t.Fatal(err)
	}
	defer kc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := kadm.NewClient(kc).FetchOffsets(ctx, group)
	if errors.Is(err, kerr.GroupIDNotFound) {
		return map[string]int64{}
	}
	if err != nil {
		t.Fatalf("independent re-read of %s: %v", group, err)
	}
	out := make(map[string]int64)
	resp.Each(func(o kadm.OffsetResponse) {
		if o.Err == nil && o.At >= 0 {
			out[reset.TP{Topic: o.Topic, Partition: o.Partition}.String()] = o.At
		}
	})
	return out
}

// holdFirst holds the first request of key past the client's timeout, then
// lets the broker apply it: the answer is lost, the write lands.
func holdFirst(c *kfake.Cluster, key kmsg.Key) {
	var n atomic.Int32
	c.ControlKey(int16(key), func(kmsg.Request) (kmsg.Response, error, bool) {
		if n.Add(1) == 1 {
			time.Sleep(faultTimeout + time.Second)
		}
		return nil, nil, false
	})
}

func statuses(res *reset.Result) []string {
	var out []string
	for _, p := range res.Partitions {
		out = append(out, p.TP().String()+" "+offsetText(p.Got)+" "+p.Status())
	}
	return out
}

func toEarliest(t *testing.T, cl *kafka.Client) *reset.Plan {
	t.Helper()
	p, err := reset.Prepare(context.Background(), cl, reset.Request{Group: "g", Scenario: reset.Scenario{Kind: reset.ToEarliest}, Scope: topic("orders")})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestApplyVerifiedThoughTheAnswerWasLost(t *testing.T) {
	e := newEnv(t)
	cl := e.shortClient(t)
	p := toEarliest(t, cl)
	holdFirst(e.c.Cluster, kmsg.OffsetCommit)
	res, err := reset.Apply(context.Background(), cl, p, e.opts())
	if err != nil {
		t.Fatal(err)
	}
	const why = "verified (the broker's answer was lost: commit: context deadline exceeded)"
	if got, want := statuses(res), []string{"orders/0 0 " + why, "orders/1 0 " + why, "orders/2 2 " + why}; !reflect.DeepEqual(got, want) {
		t.Fatalf("statuses =\n%q\nwant\n%q", got, want)
	}
	if res.Outcome() != write.Verified || !res.OK() {
		t.Errorf("outcome = %v", res.Outcome())
	}
	if got := e.adminCommits(t, "g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 0, "orders/1": 0, "orders/2": 2}) {
		t.Errorf("independent re-read = %v", got)
	}
}

// The broker applies the commit but answers REQUEST_TIMED_OUT: every row
// holds its new offset, so every row is verified, saying both.
func TestApplyVerifiedThoughTheBrokerAnsweredRequestTimedOut(t *testing.T) {
	e := newEnv(t)
	cl := e.shortClient(t)
	p := toEarliest(t, cl)
	var n atomic.Int32
	e.c.ControlKey(int16(kmsg.OffsetCommit), func(kr kmsg.Request) (kmsg.Response, error, bool) {
		if n.Add(1) != 1 {
			return nil, nil, false
		}
		req := kr.(*kmsg.OffsetCommitRequest)
		// Apply the commit through another connection, then answer
		// REQUEST_TIMED_OUT for every partition.
		var applyErr error
		e.c.SleepControl(func() {
			// v10+ names topics by id: commit the plan's rows.
			os := make(kadm.Offsets)
			for _, r := range p.Rows {
				os.AddOffset(r.Topic, r.Partition, r.New, -1)
			}
			resp, err := e.c.Admin().CommitOffsets(context.Background(), req.Group, os)
			if err == nil {
				err = resp.Error()
			}
			applyErr = err
		})
		if applyErr != nil {
			t.Errorf("apply behind the fault: %v", applyErr)
		}
		resp := req.ResponseKind().(*kmsg.OffsetCommitResponse)
		for _, tp := range req.Topics {
			rt := kmsg.NewOffsetCommitResponseTopic()
			rt.Topic, rt.TopicID = tp.Topic, tp.TopicID
			for _, pp := range tp.Partitions {
				rp := kmsg.NewOffsetCommitResponseTopicPartition()
				rp.Partition = pp.Partition
				rp.ErrorCode = kerr.RequestTimedOut.Code
				rt.Partitions = append(rt.Partitions, rp)
			}
			resp.Topics = append(resp.Topics, rt)
		}
		return resp, nil, true
	})
	res, err := reset.Apply(context.Background(), cl, p, e.opts())
	if err != nil {
		t.Fatal(err)
	}
	const why = "verified (the broker's answer was lost: commit: REQUEST_TIMED_OUT: The request timed out.)"
	if got, want := statuses(res), []string{"orders/0 0 " + why, "orders/1 0 " + why, "orders/2 2 " + why}; !reflect.DeepEqual(got, want) {
		t.Fatalf("statuses =\n%q\nwant\n%q", got, want)
	}
	if res.Outcome() != write.Verified || len(res.Failed()) != 0 {
		t.Errorf("outcome = %v, failed %v", res.Outcome(), res.Failed())
	}
	if got := e.adminCommits(t, "g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 0, "orders/1": 0, "orders/2": 2}) {
		t.Errorf("independent re-read = %v", got)
	}
}

// A member joins between the plan's last check and the commit: the broker
// refuses the admin commit with UNKNOWN_MEMBER_ID and nothing changes.
func TestApplyRefusedByALiveGroup(t *testing.T) {
	e := newEnv(t)
	cl := e.shortClient(t)
	p := toEarliest(t, cl)
	var n atomic.Int32
	var joinErr error
	e.c.ControlKey(int16(kmsg.OffsetCommit), func(kmsg.Request) (kmsg.Response, error, bool) {
		if n.Add(1) == 1 {
			e.c.SleepControl(func() {
				e.c.Join(t, "g", []string{"orders"})
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				_, joinErr = e.c.WaitGroupInfo(ctx, "g", func(gi *kfake.GroupInfo) bool { return gi != nil && gi.State == "Stable" })
			})
		}
		return nil, nil, false
	})
	res, err := reset.Apply(context.Background(), cl, p, e.opts())
	if joinErr != nil {
		t.Fatalf("join: %v", joinErr)
	}
	if err != nil {
		t.Fatal(err)
	}
	const why = "refused: commit: UNKNOWN_MEMBER_ID: The coordinator is not aware of this member. (the group has live members again)"
	if got, want := statuses(res), []string{"orders/0 5 " + why, "orders/1 10 " + why, "orders/2 - " + why}; !reflect.DeepEqual(got, want) {
		t.Fatalf("statuses =\n%q\nwant\n%q", got, want)
	}
	if res.Outcome() != write.Refused {
		t.Errorf("outcome = %v", res.Outcome())
	}
	if got := e.adminCommits(t, "g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 5, "orders/1": 10}) {
		t.Errorf("independent re-read = %v", got)
	}
}

// The commit lands but the re-read fails: the outcome is unknown, and the
// report does not guess.
func TestApplyUnknownWhenTheReReadFails(t *testing.T) {
	e := newEnv(t)
	cl := e.shortClient(t)
	p := toEarliest(t, cl)
	var committed, broken atomic.Bool
	e.c.ControlKey(int16(kmsg.OffsetCommit), func(kmsg.Request) (kmsg.Response, error, bool) {
		e.c.KeepControl()
		committed.Store(true)
		return nil, nil, false
	})
	e.c.ControlKey(int16(kmsg.OffsetFetch), func(kmsg.Request) (kmsg.Response, error, bool) {
		e.c.KeepControl()
		if committed.Load() && !broken.Load() {
			return nil, errors.New("dropped by the test"), true
		}
		return nil, nil, false
	})
	res, err := reset.Apply(context.Background(), cl, p, e.opts())
	broken.Store(true)
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range res.Partitions {
		if pr.Outcome() != write.Unknown || !strings.HasPrefix(pr.Status(), "outcome unknown: the re-read failed: ") {
			t.Errorf("%s: %v, %q", pr.TP(), pr.Outcome(), pr.Status())
		}
	}
	if res.Outcome() != write.Unknown {
		t.Errorf("outcome = %v", res.Outcome())
	}
	// It did land: unknown was the honest answer.
	if got := e.adminCommits(t, "g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 0, "orders/1": 0, "orders/2": 2}) {
		t.Errorf("independent re-read = %v", got)
	}
}

// A reset whose orders/1 is refused leaves orders/1 at 10; undoing it
// restores orders/0 and removes orders/2's commit, and orders/1, which
// already holds its target, is verified even when the broker answers the
// undo's commit for it with an error.
func TestUndoAfterAPartialFailure(t *testing.T) {
	e := newEnv(t)
	cl := e.shortClient(t)
	ctx := context.Background()
	p := toEarliest(t, cl)
	e.c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.OffsetCommit}, Topic: "orders", Partitions: []int32{1}, Err: kerr.UnknownMemberID})
	res, err := reset.Apply(ctx, cl, p, e.opts())
	if err != nil {
		t.Fatal(err)
	}
	refused := "refused: commit: UNKNOWN_MEMBER_ID: The coordinator is not aware of this member. (the group has live members again)"
	if got, want := statuses(res), []string{"orders/0 0 ok", "orders/1 10 " + refused, "orders/2 2 ok"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("reset statuses =\n%q\nwant\n%q", got, want)
	}
	if res.Outcome() != write.Refused || res.Tally() != (write.Tally{Verified: 2, Refused: 1}) {
		t.Errorf("reset outcome = %v %+v", res.Outcome(), res.Tally())
	}
	if got := e.adminCommits(t, "g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 0, "orders/1": 10, "orders/2": 2}) {
		t.Fatalf("independent re-read after the reset = %v", got)
	}

	rc, err := reset.LoadReceipt(res.ReceiptPath)
	if err != nil {
		t.Fatal(err)
	}
	up, err := reset.PrepareUndo(ctx, cl, rc, reset.UndoOptions{Context: "test"})
	if err != nil {
		t.Fatal(err)
	}
	e.c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.OffsetCommit}, Topic: "orders", Partitions: []int32{1}, Err: kerr.UnknownMemberID})
	ures, err := reset.Apply(ctx, cl, up, e.opts())
	if err != nil {
		t.Fatal(err)
	}
	verified := "verified (though the broker answered: commit: UNKNOWN_MEMBER_ID: The coordinator is not aware of this member. (the group has live members again))"
	if got, want := statuses(ures), []string{"orders/0 5 ok", "orders/1 10 " + verified, "orders/2 - ok"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("undo statuses =\n%q\nwant\n%q", got, want)
	}
	if !ures.OK() || ures.Outcome() != write.Verified {
		t.Errorf("undo outcome = %v", ures.Outcome())
	}
	if got := e.adminCommits(t, "g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 5, "orders/1": 10}) {
		t.Errorf("independent re-read after the undo = %v", got)
	}
}

// Verified, then another writer commits: the second re-read says so
// instead of ok.
func TestApplyChangedByAnotherWriterAfterOurs(t *testing.T) {
	e := newEnv(t)
	cl := e.shortClient(t)
	p := toEarliest(t, cl)
	defer reset.SetAfterVerify(func() { e.c.Commit(t, "g", map[string]map[int32]int64{"orders": {0: 7}}) })()
	res, err := reset.Apply(context.Background(), cl, p, e.opts())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := statuses(res), []string{"orders/0 0 changed by another writer after ours (now 7)", "orders/1 0 ok", "orders/2 2 ok"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("statuses =\n%q\nwant\n%q", got, want)
	}
	if res.Outcome() != write.ChangedAfter || res.OK() {
		t.Errorf("outcome = %v", res.Outcome())
	}
	if got := e.adminCommits(t, "g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 7, "orders/1": 0, "orders/2": 2}) {
		t.Errorf("independent re-read = %v", got)
	}
}

// groupListed reports whether an independent kadm client lists group.
func (e *env) groupListed(t *testing.T, group string) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	gs, err := e.c.Admin().ListGroups(ctx)
	if err != nil {
		t.Fatalf("independent list: %v", err)
	}
	_, ok := gs[group]
	return ok
}

func TestDeleteGroupOutcomes(t *testing.T) {
	t.Run("verified though the answer was lost", func(t *testing.T) {
		e := newEnv(t)
		cl := e.shortClient(t)
		ds, err := reset.PrepareDeleteGroups(context.Background(), cl, []string{"g"}, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		holdFirst(e.c.Cluster, kmsg.DeleteGroups)
		res, err := reset.ApplyDeleteGroup(context.Background(), cl, ds[0], e.opts())
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome() != write.Verified || res.Status() != "verified deleted (the broker's answer was lost: request DeleteGroups has 1 separate shard errors, first: context deadline exceeded)" {
			t.Errorf("outcome %v, status %q", res.Outcome(), res.Status())
		}
		if e.groupListed(t, "g") || len(e.adminCommits(t, "g")) != 0 {
			t.Error("the independent client still sees group g")
		}
	})
	t.Run("refused", func(t *testing.T) {
		e := newEnv(t)
		cl := e.shortClient(t)
		ds, err := reset.PrepareDeleteGroups(context.Background(), cl, []string{"g"}, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		e.c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.DeleteGroups}, Group: "g", Err: kerr.NonEmptyGroup})
		res, err := reset.ApplyDeleteGroup(context.Background(), cl, ds[0], e.opts())
		if err != nil {
			t.Fatal(err)
		}
		if want := "refused: NON_EMPTY_GROUP: The group is not empty. (the group has live members)"; res.Outcome() != write.Refused || res.Status() != want {
			t.Errorf("outcome %v, status %q, want %q", res.Outcome(), res.Status(), want)
		}
		if got := e.adminCommits(t, "g"); !e.groupListed(t, "g") || !reflect.DeepEqual(got, map[string]int64{"orders/0": 5, "orders/1": 10}) {
			t.Errorf("independent re-read after a refused delete = %v", got)
		}
	})
}

func TestDeleteGroupChangedByAnotherWriterAfterOurs(t *testing.T) {
	e := newEnv(t)
	cl := e.shortClient(t)
	ds, err := reset.PrepareDeleteGroups(context.Background(), cl, []string{"g"}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	defer reset.SetAfterVerify(func() { e.c.Commit(t, "g", map[string]map[int32]int64{"orders": {0: 3}}) })()
	res, err := reset.ApplyDeleteGroup(context.Background(), cl, ds[0], e.opts())
	if err != nil {
		t.Fatal(err)
	}
	if want := "changed by another writer after ours: the group was deleted, then it existed again"; res.Outcome() != write.ChangedAfter || res.Status() != want {
		t.Errorf("outcome %v, status %q", res.Outcome(), res.Status())
	}
	if got := e.adminCommits(t, "g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 3}) {
		t.Errorf("independent re-read = %v", got)
	}
}

func TestDeleteOffsetsOutcomes(t *testing.T) {
	t.Run("verified though the answer was lost", func(t *testing.T) {
		e := newEnv(t)
		cl := e.shortClient(t)
		p, err := reset.PrepareDeleteOffsets(context.Background(), cl, "g", topic("orders", 0), time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		holdFirst(e.c.Cluster, kmsg.OffsetDelete)
		res, err := reset.Apply(context.Background(), cl, p, e.opts())
		if err != nil {
			t.Fatal(err)
		}
		if got, want := statuses(res), []string{"orders/0 - verified (the broker's answer was lost: delete offset: context deadline exceeded)"}; !reflect.DeepEqual(got, want) {
			t.Fatalf("statuses =\n%q\nwant\n%q", got, want)
		}
		if got := e.adminCommits(t, "g"); !reflect.DeepEqual(got, map[string]int64{"orders/1": 10}) {
			t.Errorf("independent re-read = %v", got)
		}
	})
	t.Run("refused", func(t *testing.T) {
		e := newEnv(t)
		cl := e.shortClient(t)
		p, err := reset.PrepareDeleteOffsets(context.Background(), cl, "g", topic("orders", 0), time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		e.c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.OffsetDelete}, Topic: "orders", Err: kerr.GroupSubscribedToTopic})
		res, err := reset.Apply(context.Background(), cl, p, e.opts())
		if err != nil {
			t.Fatal(err)
		}
		if got, want := statuses(res), []string{"orders/0 5 refused: delete offset: GROUP_SUBSCRIBED_TO_TOPIC: Deleting offsets of a topic is forbidden while the consumer group is actively subscribed to it. (a live member subscribes to the topic)"}; !reflect.DeepEqual(got, want) {
			t.Fatalf("statuses =\n%q\nwant\n%q", got, want)
		}
		if got := e.adminCommits(t, "g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 5, "orders/1": 10}) {
			t.Errorf("independent re-read = %v", got)
		}
	})
}
