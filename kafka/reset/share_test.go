package reset_test

import (
	"context"
	"errors"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/kafka/reset"
)

// shareMember is a real kgo share-group member that polls (and so
// acknowledges what it polled) until closed.
type shareMember struct {
	cl     *kgo.Client
	cancel context.CancelFunc
	done   chan struct{}
	once   sync.Once
}

func joinShare(t *testing.T, c *kafkatest.Cluster, group string, topics ...string) *shareMember {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...), kgo.ShareGroup(group), kgo.ConsumeTopics(topics...), kgo.ClientID("share-app"))
	if err != nil {
		t.Fatalf("share member: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &shareMember{cl: cl, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(m.done)
		for ctx.Err() == nil {
			cl.PollFetches(ctx)
		}
	}()
	t.Cleanup(m.Close)
	return m
}

func (m *shareMember) Close() {
	m.once.Do(func() {
		m.cancel()
		<-m.done
		m.cl.Close()
	})
}

// requestCounter counts the requests of some keys the cluster receives and
// calls onFirst (if set) when the first of key arrives.
type requestCounter struct {
	mu sync.Mutex
	n  map[int16]int
}

func countRequests(c *kafkatest.Cluster, keys ...int16) *requestCounter {
	rc := &requestCounter{n: make(map[int16]int)}
	for _, k := range keys {
		c.ControlKey(k, func(kmsg.Request) (kmsg.Response, error, bool) {
			c.KeepControl()
			rc.mu.Lock()
			rc.n[k]++
			rc.mu.Unlock()
			return nil, nil, false
		})
	}
	return rc
}

func (rc *requestCounter) get(k int16) int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.n[k]
}

// startOffsets reads a share group's start offsets straight from the
// cluster, so that checks do not rest on the code under test.
func startOffsets(t *testing.T, c *kafkatest.Cluster, group string) map[string]int64 {
	t.Helper()
	resp, err := c.Admin().DescribeShareGroupOffsets(context.Background(), group)
	if err != nil {
		t.Fatalf("describe share group offsets: %v", err)
	}
	out := make(map[string]int64)
	for _, ps := range resp[group].Offsets {
		for _, o := range ps {
			if o.Err != nil {
				t.Fatalf("start offset of %s/%d: %v", o.Topic, o.Partition, o.Err)
			}
			if o.StartOffset >= 0 {
				out[o.Topic+"/"+itoa(o.Partition)] = o.StartOffset
			}
		}
	}
	return out
}

func itoa(p int32) string { return offsetText(int64(p)) }

func shareState(t *testing.T, c *kafkatest.Cluster, group string) string {
	t.Helper()
	ds, err := c.Admin().DescribeShareGroups(context.Background(), group)
	if err != nil {
		return ""
	}
	return ds[group].GroupState
}

// newShareEnv adds to newEnv a share group "sg" on topic "jobs":
//
//	jobs/0: offsets 0-9, timestamps base+0s .. base+9s
//	jobs/1: offsets 0-5, timestamps base+100s .. base+105s
//
// with one live member that has acknowledged every record, so the start
// offsets are jobs/0 at 10 and jobs/1 at 6.
func newShareEnv(t *testing.T) (*env, *shareMember) {
	t.Helper()
	e := newEnv(t)
	e.c.CreateTopic(t, "jobs", 2)
	e.c.Produce(t, "jobs", 0, 10, base)
	e.c.Produce(t, "jobs", 1, 6, base.Add(100*time.Second))
	e.c.SetGroupConfigs("sg", map[string]string{"share.auto.offset.reset": "earliest"})
	m := joinShare(t, e.c, "sg", "jobs")
	want := map[string]int64{"jobs/0": 10, "jobs/1": 6}
	kafkatest.Eventually(t, "the share member acknowledges every record", func() bool {
		return reflect.DeepEqual(startOffsets(t, e.c, "sg"), want)
	})
	return e, m
}

func waitShareEmpty(t *testing.T, e *env) {
	t.Helper()
	kafkatest.Eventually(t, "the share group is Empty", func() bool { return shareState(t, e.c, "sg") == kafka.StateEmpty })
}

func receiptCount(t *testing.T, dir string) int {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	n := 0
	for _, en := range entries {
		if strings.HasSuffix(en.Name(), ".json") {
			n++
		}
	}
	return n
}

func TestShareResetRefusedLiveThenAppliedAndUndone(t *testing.T) {
	e, m := newShareEnv(t)
	ctx := context.Background()
	counts := countRequests(e.c, kmsg.AlterShareGroupOffsets.Int16(), kmsg.OffsetCommit.Int16(), kmsg.DeleteShareGroupOffsets.Int16())

	// A dry run plans from the start offsets and sends nothing.
	p, err := reset.Prepare(ctx, e.cl, reset.Request{Group: "sg", Scenario: reset.Scenario{Kind: reset.ToEarliest}, Scope: allTopics()})
	if err != nil {
		t.Fatalf("prepare: %v", err)
	}
	if p.Type != kafka.TypeShare || p.State != kafka.StateStable || len(p.Members) != 1 {
		t.Fatalf("plan type %q state %q members %d, want share Stable 1", p.Type, p.State, len(p.Members))
	}
	if got := news(p); !reflect.DeepEqual(got, []string{"jobs/0=0", "jobs/1=0"}) {
		t.Fatalf("plan = %v", got)
	}
	if s := p.Summary(); s.Rewind != 16 || s.Changed != 2 {
		t.Fatalf("summary = %+v, want 16 records again over 2 partitions", s)
	}

	// --execute while the member is live: refused, nothing sent.
	if p.Blocker() == nil {
		t.Fatal("no blocker on a live share group")
	}
	_, err = reset.Apply(ctx, e.cl, p, e.opts())
	var live *reset.LiveGroupError
	if !errors.As(err, &live) {
		t.Fatalf("Apply on a live share group = %v, want a LiveGroupError", err)
	}
	for _, w := range []string{`cannot reset the offsets of share group "sg": it is Stable with 1 live member:`, "client share-app", "stop its consumers"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("refusal %q does not say %q", err, w)
		}
	}
	if n := counts.get(kmsg.AlterShareGroupOffsets.Int16()) + counts.get(kmsg.OffsetCommit.Int16()); n != 0 {
		t.Fatalf("a refused reset sent %d offset requests", n)
	}
	if n := receiptCount(t, e.dir); n != 0 {
		t.Fatalf("a refused reset left %d receipts", n)
	}

	// Empty: applied, re-read, verified; the receipt was on disk before
	// the request went out.
	m.Close()
	waitShareEmpty(t, e)
	receiptsAtSend := -1
	e.c.ControlKey(kmsg.AlterShareGroupOffsets.Int16(), func(kmsg.Request) (kmsg.Response, error, bool) {
		receiptsAtSend = receiptCount(t, e.dir)
		return nil, nil, false
	})
	p, err = reset.Prepare(ctx, e.cl, reset.Request{Group: "sg", Scenario: reset.Scenario{Kind: reset.ToEarliest}, Scope: allTopics()})
	if err != nil {
		t.Fatalf("prepare: %v", err)
	}
	if p.State != kafka.StateEmpty || p.Blocker() != nil {
		t.Fatalf("state %q blocker %v", p.State, p.Blocker())
	}
	res, err := reset.Apply(ctx, e.cl, p, e.opts())
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	if !res.OK() || len(res.Partitions) != 2 || res.Partitions[0].Got != 0 || res.Partitions[1].Got != 0 || res.Partitions[0].Before != 10 || res.Partitions[1].Before != 6 {
		t.Fatalf("result = %+v", res.Partitions)
	}
	if receiptsAtSend != 1 {
		t.Fatalf("receipts on disk when AlterShareGroupOffsets arrived = %d, want 1", receiptsAtSend)
	}
	if got := startOffsets(t, e.c, "sg"); !reflect.DeepEqual(got, map[string]int64{"jobs/0": 0, "jobs/1": 0}) {
		t.Fatalf("start offsets after reset = %v", got)
	}
	if n := counts.get(kmsg.AlterShareGroupOffsets.Int16()); n != 1 {
		t.Fatalf("AlterShareGroupOffsets sent %d times, want 1", n)
	}
	if n := counts.get(kmsg.OffsetCommit.Int16()); n != 0 {
		t.Fatalf("a share reset sent %d OffsetCommit requests", n)
	}
	rc, err := reset.LoadReceipt(res.ReceiptPath)
	if err != nil {
		t.Fatal(err)
	}
	if rc.GroupType != "share" || rc.Scenario != "--to-earliest" || rc.GroupState != "Empty" || len(rc.Offsets) != 2 || *rc.Offsets[0].Before != 10 || *rc.Offsets[1].Before != 6 || *rc.Offsets[0].After != 0 {
		t.Fatalf("receipt = %+v", rc)
	}

	// Undo restores the start offsets before the reset, through the share
	// path.
	up, err := reset.PrepareUndo(ctx, e.cl, rc, reset.UndoOptions{Context: "test"})
	if err != nil {
		t.Fatalf("prepare undo: %v", err)
	}
	if up.Type != kafka.TypeShare {
		t.Fatalf("undo plan type %q", up.Type)
	}
	ures, err := reset.Apply(ctx, e.cl, up, e.opts())
	if err != nil || !ures.OK() {
		t.Fatalf("undo: %v %+v", err, ures)
	}
	if got := startOffsets(t, e.c, "sg"); !reflect.DeepEqual(got, map[string]int64{"jobs/0": 10, "jobs/1": 6}) {
		t.Fatalf("start offsets after undo = %v", got)
	}
	if n := counts.get(kmsg.OffsetCommit.Int16()); n != 0 {
		t.Fatalf("undo of a share reset sent %d OffsetCommit requests", n)
	}
}

func TestShareResetScenarios(t *testing.T) {
	e, m := newShareEnv(t)
	m.Close()
	waitShareEmpty(t, e)
	ctx := context.Background()
	counts := countRequests(e.c, kmsg.AlterShareGroupOffsets.Int16(), kmsg.OffsetCommit.Int16())

	// to-datetime: jobs/0 has no record at or after base+103s (log end
	// 10); jobs/1's record 3 is at base+103s.
	p, err := reset.Prepare(ctx, e.cl, reset.Request{Group: "sg", Scenario: reset.Scenario{Kind: reset.ToDatetime, Time: base.Add(103 * time.Second)}, Scope: topic("jobs")})
	if err != nil {
		t.Fatalf("prepare: %v", err)
	}
	if got := news(p); !reflect.DeepEqual(got, []string{"jobs/0=10", "jobs/1=3"}) {
		t.Fatalf("to-datetime plan = %v", got)
	}
	if res, err := reset.Apply(ctx, e.cl, p, e.opts()); err != nil || !res.OK() {
		t.Fatalf("apply: %v %+v", err, res)
	}
	if got := startOffsets(t, e.c, "sg"); !reflect.DeepEqual(got, map[string]int64{"jobs/0": 10, "jobs/1": 3}) {
		t.Fatalf("start offsets after to-datetime = %v", got)
	}

	// to-offset sets explicit start offsets, clamped to the log.
	p, err = reset.Prepare(ctx, e.cl, reset.Request{Group: "sg", Scenario: reset.Scenario{Kind: reset.ToOffset, Offset: 7}, Scope: topic("jobs")})
	if err != nil {
		t.Fatalf("prepare: %v", err)
	}
	if got := news(p); !reflect.DeepEqual(got, []string{"jobs/0=7", "jobs/1=6"}) {
		t.Fatalf("to-offset plan = %v", got)
	}

	// Scenarios without meaning for a share group are refused before
	// anything is read beyond the group, and nothing is sent.
	before := counts.get(kmsg.AlterShareGroupOffsets.Int16())
	for _, sc := range []reset.Scenario{{Kind: reset.ShiftBy, Shift: -2}, {Kind: reset.ToCurrent}} {
		_, err := reset.Prepare(ctx, e.cl, reset.Request{Group: "sg", Scenario: sc, Scope: allTopics()})
		var se *reset.ShareScenarioError
		if !errors.As(err, &se) {
			t.Fatalf("%s on a share group = %v, want a ShareScenarioError", sc, err)
		}
		for _, w := range []string{`group "sg" is a share group: --` + string(sc.Kind) + " does not apply", "Share groups accept --to-earliest, --to-latest, --to-offset, --to-datetime, --by-duration, --from-file."} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("refusal %q does not say %q", err, w)
			}
		}
	}
	if n := counts.get(kmsg.AlterShareGroupOffsets.Int16()) - before; n != 0 {
		t.Fatalf("refused scenarios sent %d AlterShareGroupOffsets", n)
	}
	if n := counts.get(kmsg.OffsetCommit.Int16()); n != 0 {
		t.Fatalf("share resets sent %d OffsetCommit", n)
	}
}

func TestShareDeleteOffsetsAndDeleteGroup(t *testing.T) {
	e, m := newShareEnv(t)
	ctx := context.Background()
	counts := countRequests(e.c, kmsg.DeleteShareGroupOffsets.Int16(), kmsg.OffsetDelete.Int16(), kmsg.DeleteGroups.Int16())

	// Partitions cannot be named: the protocol deletes whole topics.
	_, err := reset.PrepareDeleteOffsets(ctx, e.cl, "sg", topic("jobs", 0), time.Time{})
	if err == nil || !strings.Contains(err.Error(), `group "sg" is a share group, whose start offsets are deleted for a whole topic: give --topic jobs without partitions (not jobs:0)`) {
		t.Fatalf("delete-offsets jobs:0 = %v", err)
	}
	p, err := reset.PrepareDeleteOffsets(ctx, e.cl, "sg", topic("jobs"), time.Time{})
	if err != nil {
		t.Fatalf("prepare delete-offsets: %v", err)
	}
	if got := news(p); !reflect.DeepEqual(got, []string{"jobs/0=-", "jobs/1=-"}) || p.Rows[0].Current != 10 || p.Rows[1].Current != 6 {
		t.Fatalf("delete-offsets plan = %v %+v", got, p.Rows)
	}
	// Unlike a consumer group's, a live share group's offsets cannot be
	// deleted even for a subscribed topic's: refused, nothing sent.
	if _, err := reset.Apply(ctx, e.cl, p, e.opts()); err == nil || !strings.Contains(err.Error(), `cannot delete the offsets of share group "sg"`) {
		t.Fatalf("delete-offsets on a live share group = %v", err)
	}
	if _, err := reset.PrepareDeleteGroups(ctx, e.cl, []string{"sg"}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	ds, _ := reset.PrepareDeleteGroups(ctx, e.cl, []string{"sg"}, time.Time{})
	if ds[0].Type != kafka.TypeShare || len(ds[0].Offsets) != 2 {
		t.Fatalf("deletion = %+v", ds[0])
	}
	if _, err := reset.ApplyDeleteGroup(ctx, e.cl, ds[0], e.opts()); err == nil || !strings.Contains(err.Error(), `cannot delete share group "sg": it is Stable`) {
		t.Fatalf("delete of a live share group = %v", err)
	}
	if n := counts.get(kmsg.DeleteShareGroupOffsets.Int16()) + counts.get(kmsg.DeleteGroups.Int16()) + counts.get(kmsg.OffsetDelete.Int16()); n != 0 {
		t.Fatalf("refusals sent %d requests", n)
	}

	m.Close()
	waitShareEmpty(t, e)

	// delete-offsets applied: the start offsets are gone; undo brings
	// them back (the group, emptied of everything, is recreated).
	p, err = reset.PrepareDeleteOffsets(ctx, e.cl, "sg", topic("jobs"), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := reset.Apply(ctx, e.cl, p, e.opts())
	if err != nil || !res.OK() {
		t.Fatalf("delete-offsets: %v %+v", err, res)
	}
	if got := startOffsets(t, e.c, "sg"); len(got) != 0 {
		t.Fatalf("start offsets after delete-offsets = %v", got)
	}
	if n := counts.get(kmsg.DeleteShareGroupOffsets.Int16()); n != 1 {
		t.Fatalf("DeleteShareGroupOffsets sent %d times", n)
	}
	if n := counts.get(kmsg.OffsetDelete.Int16()); n != 0 {
		t.Fatalf("OffsetDelete sent %d times to a share group", n)
	}
	rc, err := reset.LoadReceipt(res.ReceiptPath)
	if err != nil {
		t.Fatal(err)
	}
	up, err := reset.PrepareUndo(ctx, e.cl, rc, reset.UndoOptions{Context: "test"})
	if err != nil {
		t.Fatalf("prepare undo: %v", err)
	}
	if ures, err := reset.Apply(ctx, e.cl, up, e.opts()); err != nil || !ures.OK() {
		t.Fatalf("undo delete-offsets: %v %+v", err, ures)
	}
	if got := startOffsets(t, e.c, "sg"); !reflect.DeepEqual(got, map[string]int64{"jobs/0": 10, "jobs/1": 6}) {
		t.Fatalf("start offsets after undo = %v", got)
	}

	// delete the group: DeleteGroups, verified gone, the receipt keeps
	// the start offsets, and undo recreates the share group with them.
	ds, err = reset.PrepareDeleteGroups(ctx, e.cl, []string{"sg"}, time.Time{})
	if err != nil || ds[0].Blocker() != nil {
		t.Fatalf("prepare delete: %v %v", err, ds[0].Blocker())
	}
	dres, err := reset.ApplyDeleteGroup(ctx, e.cl, ds[0], e.opts())
	if err != nil || !dres.Gone || dres.Err != nil {
		t.Fatalf("delete: %v %+v", err, dres)
	}
	if typ, found, err := reset.GroupTypeOf(ctx, e.cl, "sg"); err != nil || found {
		t.Fatalf("after delete: type %q found %v err %v", typ, found, err)
	}
	drc, err := reset.LoadReceipt(dres.ReceiptPath)
	if err != nil {
		t.Fatal(err)
	}
	if drc.GroupType != "share" || len(drc.Offsets) != 2 || *drc.Offsets[0].Before != 10 || *drc.Offsets[1].Before != 6 {
		t.Fatalf("delete receipt = %+v", drc)
	}
	up, err = reset.PrepareUndo(ctx, e.cl, drc, reset.UndoOptions{Context: "test"})
	if err != nil {
		t.Fatalf("prepare undo of delete: %v", err)
	}
	if up.Type != kafka.TypeShare || up.Exists {
		t.Fatalf("undo plan type %q exists %v", up.Type, up.Exists)
	}
	if ures, err := reset.Apply(ctx, e.cl, up, e.opts()); err != nil || !ures.OK() {
		t.Fatalf("undo delete: %v %+v", err, ures)
	}
	if typ, found, _ := reset.GroupTypeOf(ctx, e.cl, "sg"); !found || typ != kafka.TypeShare {
		t.Fatalf("after undo: type %q found %v", typ, found)
	}
	if got := startOffsets(t, e.c, "sg"); !reflect.DeepEqual(got, map[string]int64{"jobs/0": 10, "jobs/1": 6}) {
		t.Fatalf("start offsets after undo of delete = %v", got)
	}
}

// A receipt's groupType is "share" or absent; anything else is refused
// before undo could act on it, even with force.
func TestReceiptUnknownGroupTypeRefused(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/r.json"
	doc := `{"version":1,"action":"reset","cluster":["a:9092"],"context":"c","group":"sg","time":"2024-01-01T00:00:00Z","user":"u","groupType":"streams","scenario":"--to-earliest","scope":"--all-topics","groupState":"Empty","offsets":[{"topic":"jobs","partition":0,"before":10,"after":0}]}`
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, force := range []bool{false, true} {
		_, _, err := reset.ReadReceipt(context.Background(), path, force)
		if err == nil || !strings.Contains(err.Error(), `unknown groupType "streams"; this kgroups restores the offsets of consumer groups (no groupType) and share groups ("share")`) {
			t.Fatalf("force %v: %v", force, err)
		}
	}
}

// A plan made while the share group was Empty is refused when a member
// has joined by the time it is applied: the re-check comes right before the
// send, under the lock.
func TestShareApplyRechecksEmpty(t *testing.T) {
	e, m := newShareEnv(t)
	m.Close()
	waitShareEmpty(t, e)
	ctx := context.Background()
	p, err := reset.Prepare(ctx, e.cl, reset.Request{Group: "sg", Scenario: reset.Scenario{Kind: reset.ToEarliest}, Scope: allTopics()})
	if err != nil || p.Blocker() != nil {
		t.Fatalf("prepare: %v, blocker %v", err, p.Blocker())
	}
	joinShare(t, e.c, "sg", "jobs")
	kafkatest.Eventually(t, "sg is Stable again", func() bool { return shareState(t, e.c, "sg") == kafka.StateStable })
	counts := countRequests(e.c, kmsg.AlterShareGroupOffsets.Int16())
	_, err = reset.Apply(ctx, e.cl, p, e.opts())
	var live *reset.LiveGroupError
	if !errors.As(err, &live) || live.State != kafka.StateStable || len(live.Members) != 1 {
		t.Fatalf("Apply after a member joined = %v", err)
	}
	if n := counts.get(kmsg.AlterShareGroupOffsets.Int16()); n != 0 {
		t.Fatalf("AlterShareGroupOffsets sent %d times", n)
	}
	if n := receiptCount(t, e.dir); n != 0 {
		t.Fatalf("%d receipts", n)
	}
	if got := startOffsets(t, e.c, "sg"); !reflect.DeepEqual(got, map[string]int64{"jobs/0": 10, "jobs/1": 6}) {
		t.Fatalf("start offsets = %v", got)
	}
}

// A share group's partition without a start offset is worded so.
func TestShareSummaryWording(t *testing.T) {
	s := reset.Summary{Partitions: 2, Changed: 2, Rewind: 4, NoCommit: 1, Share: true}
	if got, want := s.String(), "2 of 2 partitions change; 4 records will be consumed again, 0 skipped; 1 partition had no start offset"; got != want {
		t.Fatalf("summary = %q, want %q", got, want)
	}
	s.Share = false
	if got, want := s.String(), "2 of 2 partitions change; 4 records will be consumed again, 0 skipped; 1 partition had no commit"; got != want {
		t.Fatalf("summary = %q, want %q", got, want)
	}
}
