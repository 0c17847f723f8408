package reset_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/kafka/receipt"
	"github.com/kgroups/kgroups/kafka/reset"
)

// base is the timestamp of the first record of each partition; record i is
// at base+i seconds (orders/1 starts 100s later).
var base = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

type env struct {
	c   *kafkatest.Cluster
	cl  *kafka.Client
	dir string
}

// newEnv builds the cluster every test starts from:
//
//	orders/0: offsets 0-9,  timestamps base+0s .. base+9s
//	orders/1: offsets 0-19, timestamps base+100s .. base+119s
//	orders/2: offsets 0-4,  timestamps base+0s .. base+4s, log start 2
//	group g (Empty): orders/0 at 5, orders/1 at 10, orders/2 no commit
func newEnv(t *testing.T) *env {
	t.Helper()
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 3)
	c.CreateTopic(t, "audit", 1)
	if end := c.Produce(t, "orders", 0, 10, base); end != 10 {
		t.Fatalf("orders/0 end = %d", end)
	}
	if end := c.Produce(t, "orders", 1, 20, base.Add(100*time.Second)); end != 20 {
		t.Fatalf("orders/1 end = %d", end)
	}
	if end := c.Produce(t, "orders", 2, 5, base); end != 5 {
		t.Fatalf("orders/2 end = %d", end)
	}
	c.Produce(t, "audit", 0, 3, base)
	var del kadm.Offsets
	del.AddOffset("orders", 2, 2, -1)
	resp, err := c.Admin().DeleteRecords(context.Background(), del)
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		t.Fatalf("delete records: %v", err)
	}
	c.Commit(t, "g", map[string]map[int32]int64{"orders": {0: 5, 1: 10}})
	// The receipts go where kgroups keeps them, so that the key they are
	// signed with is the one undo checks them with.
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	return &env{c: c, cl: c.Client(t), dir: filepath.Join(state, "kgroups", "receipts")}
}

// clusterID is the kfake cluster's id, read with an independent client.
func (e *env) clusterID(t *testing.T) string {
	t.Helper()
	m, err := e.c.Admin().Metadata(context.Background())
	if err != nil || m.Cluster == "" {
		t.Fatalf("cluster id %q: %v", m.Cluster, err)
	}
	return m.Cluster
}

func (e *env) opts() reset.ApplyOptions {
	return reset.ApplyOptions{ReceiptDir: e.dir, Context: "test", User: "tester", Now: func() time.Time { return base.Add(time.Hour) }}
}

// commits reads a group's committed offsets straight from kfake, so that
// checks do not rest on the code under test.
func (e *env) commits(group string) map[string]int64 {
	out := make(map[string]int64)
	gi := e.c.GroupInfo(group)
	if gi == nil {
		return out
	}
	for topic, ps := range gi.Commits {
		for p, c := range ps {
			out[reset.TP{Topic: topic, Partition: p}.String()] = c.Offset
		}
	}
	return out
}

func topic(t string, ps ...int32) reset.Scope {
	return reset.Scope{Topics: []reset.TopicScope{{Topic: t, Partitions: ps}}}
}

func allTopics() reset.Scope { return reset.Scope{AllTopics: true} }

// news renders each row as "topic/p=new" for exact comparison.
func news(p *reset.Plan) []string {
	var out []string
	for _, r := range p.Rows {
		out = append(out, r.TP().String()+"="+offsetText(r.New))
	}
	return out
}

func offsetText(o int64) string {
	if o < 0 {
		return "-"
	}
	return strconv.FormatInt(o, 10)
}

func notes(p *reset.Plan) []string {
	var out []string
	for _, r := range p.Rows {
		if r.Note != "" {
			out = append(out, r.TP().String()+": "+r.Note)
		}
	}
	return out
}

func TestPrepareScenarios(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	now := base.Add(200 * time.Second)
	at := func(s string) time.Time {
		tm, err := reset.ParseDatetime(s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	tests := []struct {
		name      string
		sc        reset.Scenario
		scope     reset.Scope
		want      []string
		wantNotes []string
	}{
		{"to-earliest all-topics", reset.Scenario{Kind: reset.ToEarliest}, allTopics(),
			[]string{"orders/0=0", "orders/1=0"}, nil},
		{"to-earliest topic", reset.Scenario{Kind: reset.ToEarliest}, topic("orders"),
			[]string{"orders/0=0", "orders/1=0", "orders/2=2"}, nil},
		{"to-latest", reset.Scenario{Kind: reset.ToLatest}, topic("orders"),
			[]string{"orders/0=10", "orders/1=20", "orders/2=5"}, nil},
		{"to-current", reset.Scenario{Kind: reset.ToCurrent}, topic("orders"),
			[]string{"orders/0=5", "orders/1=10", "orders/2=5"}, []string{"orders/2: no commit: log end"}},
		{"to-offset clamps both ends", reset.Scenario{Kind: reset.ToOffset, Offset: 1}, topic("orders"),
			[]string{"orders/0=1", "orders/1=1", "orders/2=2"}, []string{"orders/2: 1 is before the log start: clamped to 2"}},
		{"to-offset past the end", reset.Scenario{Kind: reset.ToOffset, Offset: 15}, topic("orders"),
			[]string{"orders/0=10", "orders/1=15", "orders/2=5"}, []string{"orders/0: 15 is past the log end: clamped to 10", "orders/2: 15 is past the log end: clamped to 5"}},
		{"shift-by back", reset.Scenario{Kind: reset.ShiftBy, Shift: -7}, allTopics(),
			[]string{"orders/0=0", "orders/1=3"}, []string{"orders/0: -2 is before the log start: clamped to 0"}},
		{"shift-by forward", reset.Scenario{Kind: reset.ShiftBy, Shift: 8}, topic("orders", 0, 1),
			[]string{"orders/0=10", "orders/1=18"}, []string{"orders/0: 13 is past the log end: clamped to 10"}},
		{"to-datetime Kafka format", reset.Scenario{Kind: reset.ToDatetime, Time: at("2024-01-01T00:00:03.000")}, topic("orders"),
			[]string{"orders/0=3", "orders/1=0", "orders/2=3"}, nil},
		{"to-datetime between records", reset.Scenario{Kind: reset.ToDatetime, Time: at("2024-01-01T01:01:45.500+01:00")}, topic("orders"),
			[]string{"orders/0=10", "orders/1=6", "orders/2=5"}, []string{
				"orders/0: no record at or after 2024-01-01T00:01:45.500Z: log end",
				"orders/2: no record at or after 2024-01-01T00:01:45.500Z: log end",
			}},
		{"to-datetime before everything", reset.Scenario{Kind: reset.ToDatetime, Time: at("2023-12-31T23:59:59Z")}, topic("orders"),
			[]string{"orders/0=0", "orders/1=0", "orders/2=2"}, nil},
		{"by-duration", reset.Scenario{Kind: reset.ByDuration, Duration: 95 * time.Second}, allTopics(),
			[]string{"orders/0=10", "orders/1=5"}, []string{"orders/0: no record at or after 2024-01-01T00:01:45.000Z: log end"}},
		{"from-file", reset.Scenario{Kind: reset.FromFile, Source: "f.csv", Rows: []reset.FileRow{
			{Topic: "orders", Partition: 0, Offset: 3, Line: 1},
			{Topic: "orders", Partition: 1, Offset: 50, Line: 2},
			{Topic: "orders", Partition: 2, Offset: 0, Line: 3},
		}}, reset.Scope{},
			[]string{"orders/0=3", "orders/1=20", "orders/2=2"}, []string{"orders/1: 50 is past the log end: clamped to 20", "orders/2: 0 is before the log start: clamped to 2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := reset.Prepare(ctx, e.cl, reset.Request{Group: "g", Scenario: tt.sc, Scope: tt.scope, Now: now})
			if err != nil {
				t.Fatalf("Prepare: %v", err)
			}
			if got := news(p); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("new offsets = %v, want %v", got, tt.want)
			}
			if got := notes(p); !reflect.DeepEqual(got, tt.wantNotes) {
				t.Errorf("notes = %q, want %q", got, tt.wantNotes)
			}
			if p.State != kafka.StateEmpty || !p.Exists || p.Blocker() != nil {
				t.Errorf("plan state %s exists=%v blocker=%v", p.State, p.Exists, p.Blocker())
			}
		})
	}
	// Nothing was written by planning.
	if got := e.commits("g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 5, "orders/1": 10}) {
		t.Fatalf("planning changed commits: %v", got)
	}
}

func TestPrepareBadInput(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	tests := []struct {
		name string
		req  reset.Request
		want string
	}{
		{"unknown group", reset.Request{Group: "nosuch", Scenario: reset.Scenario{Kind: reset.ToEarliest}, Scope: topic("orders")},
			`group "nosuch" not found: check the name with 'kgroups list'; to give a new group its first offsets, pass --new-group`},
		{"unknown topic", reset.Request{Group: "g", Scenario: reset.Scenario{Kind: reset.ToEarliest}, Scope: topic("nosuch")},
			`topic "nosuch" does not exist`},
		{"partition out of range", reset.Request{Group: "g", Scenario: reset.Scenario{Kind: reset.ToEarliest}, Scope: topic("orders", 1, 3)},
			`topic "orders" has 3 partitions (0-2); partition 3 does not exist`},
		{"shift-by without a commit", reset.Request{Group: "g", Scenario: reset.Scenario{Kind: reset.ShiftBy, Shift: 1}, Scope: topic("orders")},
			`group "g" has no commit for orders/2`},
		{"file partition out of range", reset.Request{Group: "g", Scenario: reset.Scenario{Kind: reset.FromFile, Source: "f", Rows: []reset.FileRow{{Topic: "orders", Partition: 7, Offset: 1, Line: 4}}}},
			`line 4: topic "orders" has 3 partitions (0-2); partition 7 does not exist`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := reset.Prepare(ctx, e.cl, tt.req)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Prepare = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestApplyReceiptAndUndo(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	p, err := reset.Prepare(ctx, e.cl, reset.Request{Group: "g", Scenario: reset.Scenario{Kind: reset.ToEarliest}, Scope: topic("orders")})
	if err != nil {
		t.Fatal(err)
	}
	if s := p.Summary(); s != (reset.Summary{Partitions: 3, Changed: 3, Rewind: 15, NoCommit: 1}) {
		t.Fatalf("summary = %+v", s)
	}
	res, err := reset.Apply(ctx, e.cl, p, e.opts())
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if !res.OK() {
		t.Fatalf("Apply failed: %+v", res.Failed())
	}
	var statuses []string
	for _, pr := range res.Partitions {
		statuses = append(statuses, pr.TP().String()+" "+offsetText(pr.Before)+"->"+offsetText(pr.Got)+" "+pr.Status())
	}
	if want := []string{"orders/0 5->0 ok", "orders/1 10->0 ok", "orders/2 -->2 ok"}; !reflect.DeepEqual(statuses, want) {
		t.Fatalf("results = %q, want %q", statuses, want)
	}
	if got := e.commits("g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 0, "orders/1": 0, "orders/2": 2}) {
		t.Fatalf("commits after reset = %v", got)
	}

	// The receipt: private, complete, no credentials.
	st, err := os.Stat(res.ReceiptPath)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("receipt mode = %v", st.Mode().Perm())
	}
	if dst, _ := os.Stat(e.dir); dst.Mode().Perm() != 0o700 {
		t.Errorf("receipts dir mode = %v", dst.Mode().Perm())
	}
	if filepath.Base(res.ReceiptPath) != "20240101T010000.000Z-reset-g.json" {
		t.Errorf("receipt name = %s", filepath.Base(res.ReceiptPath))
	}
	rc, err := reset.LoadReceipt(res.ReceiptPath)
	if err != nil {
		t.Fatal(err)
	}
	five, ten, zero, two := int64(5), int64(10), int64(0), int64(2)
	want := &reset.Receipt{
		Header: receipt.Header{
			Version: 1, Action: "reset", Cluster: e.c.Addrs, ClusterID: e.clusterID(t), Context: "test", Group: "g",
			Time: base.Add(time.Hour), User: "tester",
		},
		Scenario: "--to-earliest", Scope: "--topic orders", GroupState: "Empty",
		Offsets: []reset.ReceiptOffset{
			{Topic: "orders", Partition: 0, Before: &five, After: &zero},
			{Topic: "orders", Partition: 1, Before: &ten, After: &zero},
			{Topic: "orders", Partition: 2, Before: nil, After: &two},
		},
		Path: res.ReceiptPath,
	}
	// The receipt is sealed with the checksum of exactly this content.
	if want.Checksum, err = receipt.Sum(want); err != nil {
		t.Fatal(err)
	}
	// and signed with this user's key (TestReceiptBytes checks the
	// signature's bytes).
	if rc.Authenticity != receipt.Signed || !strings.HasPrefix(rc.Signature, receipt.SignaturePrefix) {
		t.Fatalf("receipt signature %q: %v", rc.Signature, rc.Authenticity)
	}
	want.Signature, want.Authenticity = rc.Signature, receipt.Signed
	if !reflect.DeepEqual(rc, want) {
		t.Fatalf("receipt =\n%+v\nwant\n%+v", rc, want)
	}

	// Undo restores 5 and 10 and removes the commit orders/2 did not have.
	up, err := reset.PrepareUndo(ctx, e.cl, rc, reset.UndoOptions{Context: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if got := news(up); !reflect.DeepEqual(got, []string{"orders/0=5", "orders/1=10", "orders/2=-"}) {
		t.Fatalf("undo plan = %v", got)
	}
	if len(up.Warnings) != 0 {
		t.Errorf("warnings on the same cluster: %v", up.Warnings)
	}
	ures, err := reset.Apply(ctx, e.cl, up, e.opts())
	if err != nil {
		t.Fatal(err)
	}
	if !ures.OK() {
		t.Fatalf("undo failed: %+v", ures.Failed())
	}
	if got := e.commits("g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 5, "orders/1": 10}) {
		t.Fatalf("commits after undo = %v", got)
	}
	// The undo wrote its own receipt, next to the first.
	if ures.ReceiptPath == res.ReceiptPath || filepath.Dir(ures.ReceiptPath) != e.dir {
		t.Fatalf("undo receipt = %s", ures.ReceiptPath)
	}
	urc, err := reset.LoadReceipt(ures.ReceiptPath)
	if err != nil || urc.Action != "undo" || urc.Scenario != "undo "+res.ReceiptPath {
		t.Fatalf("undo receipt = %+v, %v", urc, err)
	}
}

func TestUndoNotesMovesAndOtherCluster(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	p, err := reset.Prepare(ctx, e.cl, reset.Request{Group: "g", Scenario: reset.Scenario{Kind: reset.ToOffset, Offset: 8}, Scope: topic("orders", 0)})
	if err != nil {
		t.Fatal(err)
	}
	res, err := reset.Apply(ctx, e.cl, p, e.opts())
	if err != nil || !res.OK() {
		t.Fatalf("Apply: %v %+v", err, res)
	}
	e.c.Commit(t, "g", map[string]map[int32]int64{"orders": {0: 9}})
	rc, err := reset.LoadReceipt(res.ReceiptPath)
	if err != nil {
		t.Fatal(err)
	}
	// Other brokers of the same cluster (its id says so): no warning.
	rc.Cluster = []string{"elsewhere:9092"}
	up, err := reset.PrepareUndo(ctx, e.cl, rc, reset.UndoOptions{Context: "other"})
	if err != nil {
		t.Fatal(err)
	}
	if got := notes(up); !reflect.DeepEqual(got, []string{"orders/0: moved since the receipt (8 after it)"}) {
		t.Errorf("notes = %q", got)
	}
	if len(up.Warnings) != 0 {
		t.Errorf("warnings = %q", up.Warnings)
	}
	id, err := e.cl.ClusterID(ctx)
	if err != nil || id == "" || rc.ClusterID != id {
		t.Fatalf("receipt's cluster id %q, cluster's %q (%v)", rc.ClusterID, id, err)
	}
	brokers := strings.Join(e.c.Addrs, ",")
	// Another cluster is refused, not just warned about; --force goes
	// ahead with the warning.
	for _, c := range []struct {
		name            string
		clusterID, cctx string
		brokers         []string
		why             string
	}{
		{"another cluster id", "other-cluster", "test", e.c.Addrs, `its cluster id is "other-cluster", this cluster's is "` + id + `"`},
		{"no id, another context", "", "prod", e.c.Addrs, `it records context "test", this is context "prod"`},
		{"no id, other brokers", "", "test", []string{"elsewhere:9092"}, "it records brokers elsewhere:9092, this connection's are " + brokers},
		{"no id, both", "", "prod", []string{"elsewhere:9092"}, `it records context "test", this is context "prod"; it records brokers elsewhere:9092, this connection's are ` + brokers},
	} {
		t.Run(c.name, func(t *testing.T) {
			rc := *rc
			rc.ClusterID, rc.Cluster = c.clusterID, c.brokers
			_, err := reset.PrepareUndo(ctx, e.cl, &rc, reset.UndoOptions{Context: c.cctx})
			want := "receipt " + rc.Path + " was written for another cluster: " + c.why + ". Nothing was changed; connect to the cluster it was written for (-b or --context), or add --force if this is that cluster"
			if err == nil || err.Error() != want {
				t.Fatalf("err = %v\nwant %s", err, want)
			}
			up, err := reset.PrepareUndo(ctx, e.cl, &rc, reset.UndoOptions{Context: c.cctx, Force: true})
			if err != nil {
				t.Fatal(err)
			}
			if w := []string{"receipt " + rc.Path + " was written for another cluster (" + c.why + "); going ahead because of --force"}; !reflect.DeepEqual(up.Warnings, w) {
				t.Errorf("warnings = %q\nwant %q", up.Warnings, w)
			}
		})
	}
}

func TestExportImportRoundTrip(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	tm, _ := reset.ParseDatetime("2024-01-01T00:01:46Z")
	p, err := reset.Prepare(ctx, e.cl, reset.Request{Group: "g", Scenario: reset.Scenario{Kind: reset.ToDatetime, Time: tm}, Scope: topic("orders")})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := reset.WriteCSV(&b, p.Offsets(), false); err != nil {
		t.Fatal(err)
	}
	if b.String() != "orders,0,10\norders,1,6\norders,2,5\n" {
		t.Fatalf("export = %q", b.String())
	}
	rows, err := reset.ParseCSV(&b)
	if err != nil {
		t.Fatal(err)
	}
	fp, err := reset.Prepare(ctx, e.cl, reset.Request{Group: "g", Scenario: reset.Scenario{Kind: reset.FromFile, Source: "export.csv", Rows: rows}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := news(fp), news(p); !reflect.DeepEqual(got, want) {
		t.Fatalf("imported plan = %v, exported plan = %v", got, want)
	}
	res, err := reset.Apply(ctx, e.cl, fp, e.opts())
	if err != nil || !res.OK() {
		t.Fatalf("Apply: %v %+v", err, res)
	}
	if got := e.commits("g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 10, "orders/1": 6, "orders/2": 5}) {
		t.Fatalf("commits = %v", got)
	}
}

func TestLiveGroupRefused(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.c.Commit(t, "live", map[string]map[int32]int64{"orders": {0: 4, 1: 4, 2: 4}})
	m := e.c.Join(t, "live", []string{"orders"}, kgo.ClientID("live-app"))
	before := e.c.WaitStable(t, "live", 1, 3)

	p, err := reset.Prepare(ctx, e.cl, reset.Request{Group: "live", Scenario: reset.Scenario{Kind: reset.ToEarliest}, Scope: allTopics()})
	if err != nil {
		t.Fatalf("a dry run on a live group must still plan: %v", err)
	}
	if got := news(p); !reflect.DeepEqual(got, []string{"orders/0=0", "orders/1=0", "orders/2=2"}) {
		t.Fatalf("plan = %v", got)
	}
	// Planning did not join or disturb the group.
	after := e.c.GroupInfo("live")
	if after.State != "Stable" || after.Epoch != before.Epoch || len(after.Members) != 1 || after.Members[0].MemberID != before.Members[0].MemberID {
		t.Fatalf("planning disturbed the group: before %+v, after %+v", before, after)
	}
	if p.Blocker() == nil {
		t.Fatal("no blocker on a Stable group")
	}

	_, err = reset.Apply(ctx, e.cl, p, e.opts())
	var live *reset.LiveGroupError
	if !errors.As(err, &live) {
		t.Fatalf("Apply on a live group = %v, want a LiveGroupError", err)
	}
	msg := err.Error()
	for _, w := range []string{`cannot reset the offsets of group "live": it is Stable with 1 live member:`, "member " + m.MemberID() + ", client live-app, host 127.0.0.1", "kgroups rebalance live --all"} {
		if !strings.Contains(msg, w) {
			t.Errorf("refusal %q does not say %q", msg, w)
		}
	}
	if got := e.commits("live"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 4, "orders/1": 4, "orders/2": 4}) {
		t.Fatalf("commits changed on refusal: %v", got)
	}
	if entries, _ := os.ReadDir(e.dir); len(entries) != 0 {
		t.Fatalf("a refused reset left a receipt: %v", entries)
	}
}

func TestLiveConsumerProtocolGroupRefused(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.c.Commit(t, "k848", map[string]map[int32]int64{"orders": {0: 4}})
	e.c.Join(t, "k848", []string{"orders"}, kgo.ServerSideBalancer())
	kafkatest.Eventually(t, "k848 Stable with an assignment", func() bool {
		gi := e.c.GroupInfo("k848")
		return gi != nil && gi.State == "Stable" && gi.NumAssigned() == 3
	})
	p, err := reset.Prepare(ctx, e.cl, reset.Request{Group: "k848", Scenario: reset.Scenario{Kind: reset.ToLatest}, Scope: allTopics()})
	if err != nil {
		t.Fatal(err)
	}
	_, err = reset.Apply(ctx, e.cl, p, e.opts())
	var live *reset.LiveGroupError
	if !errors.As(err, &live) || len(live.Members) != 1 {
		t.Fatalf("Apply = %v", err)
	}
	if got := e.commits("k848"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 4}) {
		t.Fatalf("commits changed: %v", got)
	}
}

func TestApplyWithoutReceiptChangesNothing(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	p, err := reset.Prepare(ctx, e.cl, reset.Request{Group: "g", Scenario: reset.Scenario{Kind: reset.ToLatest}, Scope: allTopics()})
	if err != nil {
		t.Fatal(err)
	}
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	opts := e.opts()
	opts.ReceiptDir = filepath.Join(blocker, "receipts")
	_, err = reset.Apply(ctx, e.cl, p, opts)
	if err == nil || !strings.Contains(err.Error(), "nothing was changed, because no change is made without a receipt") {
		t.Fatalf("Apply = %v", err)
	}
	if got := e.commits("g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 5, "orders/1": 10}) {
		t.Fatalf("commits changed: %v", got)
	}
}

func TestApplyRefusesStalePlan(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	p, err := reset.Prepare(ctx, e.cl, reset.Request{Group: "g", Scenario: reset.Scenario{Kind: reset.ToLatest}, Scope: allTopics()})
	if err != nil {
		t.Fatal(err)
	}
	e.c.Commit(t, "g", map[string]map[int32]int64{"orders": {1: 12}})
	_, err = reset.Apply(ctx, e.cl, p, e.opts())
	var oc *reset.OffsetsChangedError
	if !errors.As(err, &oc) || !strings.Contains(err.Error(), "orders/1: 12 now, 10 planned") {
		t.Fatalf("Apply = %v", err)
	}
	if got := e.commits("g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 5, "orders/1": 12}) {
		t.Fatalf("commits changed: %v", got)
	}
}

func TestNewGroup(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	req := reset.Request{Group: "fresh", Scenario: reset.Scenario{Kind: reset.ToOffset, Offset: 3}, Scope: topic("orders", 0, 1), NewGroup: true}
	p, err := reset.Prepare(ctx, e.cl, req)
	if err != nil {
		t.Fatal(err)
	}
	if p.Exists || p.Blocker() != nil {
		t.Fatalf("plan for a new group: exists=%v blocker=%v", p.Exists, p.Blocker())
	}
	res, err := reset.Apply(ctx, e.cl, p, e.opts())
	if err != nil || !res.OK() {
		t.Fatalf("Apply: %v %+v", err, res)
	}
	if got := e.commits("fresh"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 3, "orders/1": 3}) {
		t.Fatalf("commits = %v", got)
	}
	rc, _ := reset.LoadReceipt(res.ReceiptPath)
	if rc.GroupState != "" || rc.Offsets[0].Before != nil {
		t.Fatalf("receipt for a new group = %+v", rc)
	}
}

func TestDeleteGroupAndUndo(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	ds, err := reset.PrepareDeleteGroups(ctx, e.cl, []string{"g", "nosuch"}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 2 || ds[0].Blocker() != nil || len(ds[0].Offsets) != 2 {
		t.Fatalf("deletions = %+v", ds)
	}
	if err := ds[1].Blocker(); err == nil || err.Error() != `group "nosuch" not found: check the name with 'kgroups list'` {
		t.Fatalf("blocker for a missing group = %v", err)
	}
	res, err := reset.ApplyDeleteGroup(ctx, e.cl, ds[0], e.opts())
	if err != nil || res.Err != nil {
		t.Fatalf("ApplyDeleteGroup: %v %+v", err, res)
	}
	if gi := e.c.GroupInfo("g"); gi != nil {
		t.Fatalf("group still there: %+v", gi)
	}
	rc, err := reset.LoadReceipt(res.ReceiptPath)
	if err != nil || rc.Action != "delete-group" || len(rc.Offsets) != 2 || rc.Offsets[0].After != nil {
		t.Fatalf("receipt = %+v, %v", rc, err)
	}
	up, err := reset.PrepareUndo(ctx, e.cl, rc, reset.UndoOptions{Context: "test"})
	if err != nil {
		t.Fatal(err)
	}
	ures, err := reset.Apply(ctx, e.cl, up, e.opts())
	if err != nil || !ures.OK() {
		t.Fatalf("undo: %v %+v", err, ures)
	}
	if got := e.commits("g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 5, "orders/1": 10}) {
		t.Fatalf("commits after undoing the delete = %v", got)
	}
}

func TestDeleteLiveGroupRefused(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.c.Commit(t, "live", map[string]map[int32]int64{"orders": {0: 4}})
	e.c.Join(t, "live", []string{"orders"})
	e.c.WaitStable(t, "live", 1, 3)
	ds, err := reset.PrepareDeleteGroups(ctx, e.cl, []string{"live"}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ds[0].Blocker(); err == nil || !strings.Contains(err.Error(), `cannot delete group "live": it is Stable with 1 live member`) {
		t.Fatalf("Blocker = %v", err)
	}
	_, err = reset.ApplyDeleteGroup(ctx, e.cl, ds[0], e.opts())
	var live *reset.LiveGroupError
	if !errors.As(err, &live) {
		t.Fatalf("ApplyDeleteGroup = %v", err)
	}
	if gi := e.c.GroupInfo("live"); gi == nil || gi.State != "Stable" || gi.Commits["orders"][0].Offset != 4 {
		t.Fatalf("group changed: %+v", gi)
	}
}

func TestDeleteOffsets(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	// A live group subscribed to orders, with an old commit for audit.
	e.c.Commit(t, "live", map[string]map[int32]int64{"orders": {0: 4}, "audit": {0: 2}})
	e.c.Join(t, "live", []string{"orders"})
	e.c.WaitStable(t, "live", 1, 3)

	// Subscribed topic on a live group: refused, nothing changes.
	p, err := reset.PrepareDeleteOffsets(ctx, e.cl, "live", topic("orders"), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = reset.Apply(ctx, e.cl, p, e.opts())
	if err == nil || !strings.Contains(err.Error(), `cannot delete the offsets of group "live" for topic orders, which its members subscribe to`) {
		t.Fatalf("Apply = %v", err)
	}
	// Unsubscribed topic on a live group: allowed.
	p, err = reset.PrepareDeleteOffsets(ctx, e.cl, "live", topic("audit"), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Blocker() != nil {
		t.Fatalf("Blocker = %v", p.Blocker())
	}
	res, err := reset.Apply(ctx, e.cl, p, e.opts())
	if err != nil || !res.OK() {
		t.Fatalf("Apply: %v %+v", err, res)
	}
	if got := e.commits("live"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 4}) {
		t.Fatalf("commits = %v", got)
	}

	// On an Empty group any topic may go; the receipt allows undo.
	p, err = reset.PrepareDeleteOffsets(ctx, e.cl, "g", topic("orders", 1), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	res, err = reset.Apply(ctx, e.cl, p, e.opts())
	if err != nil || !res.OK() {
		t.Fatalf("Apply: %v %+v", err, res)
	}
	if got := e.commits("g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 5}) {
		t.Fatalf("commits = %v", got)
	}
	rc, _ := reset.LoadReceipt(res.ReceiptPath)
	up, err := reset.PrepareUndo(ctx, e.cl, rc, reset.UndoOptions{Context: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if ures, err := reset.Apply(ctx, e.cl, up, e.opts()); err != nil || !ures.OK() {
		t.Fatalf("undo: %v %+v", err, ures)
	}
	if got := e.commits("g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 5, "orders/1": 10}) {
		t.Fatalf("commits after undo = %v", got)
	}

	// Naming partitions without a commit is an error.
	if _, err := reset.PrepareDeleteOffsets(ctx, e.cl, "g", topic("orders", 2), time.Time{}); err == nil ||
		!strings.Contains(err.Error(), `group "g" has no committed offset for topic "orders" partition 2 (it has commits for partitions 0, 1)`) {
		t.Fatalf("PrepareDeleteOffsets = %v", err)
	}
}

func TestLoadReceiptErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct{ body, want string }{
		{"not json", "is not a kgroups receipt"},
		{`{"version":1,"group":"g","offsets":[],"extra":1}`, `unknown field "extra"`},
		{`{"version":2,"group":"g"}`, "version 2; this kgroups reads version 1"},
		{`{"version":1,"group":""}`, "no group"},
		{`{"version":1,"group":"g","offsets":[]}`, "no offsets"},
		{`{"version":1,"group":"g","offsets":[{"topic":"a b","partition":0}]}`, "offset 1: the topic name contains ' '"},
		{`{"version":1,"group":"g","offsets":[{"topic":"t","partition":-1}]}`, "negative partition -1"},
		{`{"version":1,"group":"g","offsets":[{"topic":"t","partition":0,"before":-3}]}`, "negative offset"},
		{`{"version":1,"group":"g","offsets":[{"topic":"t","partition":0},{"topic":"t","partition":0}]}`, "partition t/0 is listed twice"},
	}
	for i, tt := range tests {
		p := write(string(rune('a'+i))+".json", tt.body)
		if _, err := reset.LoadReceipt(p); err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("LoadReceipt(%s) = %v, want %q", tt.body, err, tt.want)
		}
	}
	if _, err := reset.LoadReceipt(filepath.Join(dir, "missing.json")); err == nil || !strings.Contains(err.Error(), "read receipt") {
		t.Errorf("missing receipt: %v", err)
	}
}
