package tui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/screens/diagnosis"
	"github.com/kgroups/kgroups/views/screens/groupdetail"
	"github.com/kgroups/kgroups/views/screens/record"
)

// keyCounter counts the requests a client sends, by key.
type keyCounter struct {
	mu sync.Mutex
	n  map[int16]int
}

func (r *keyCounter) OnBrokerWrite(_ kgo.BrokerMetadata, key int16, _ int, _, _ time.Duration, _ error) {
	r.mu.Lock()
	r.n[key]++
	r.mu.Unlock()
}

func (r *keyCounter) take() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]int{}
	for k, v := range r.n {
		out[kmsg.NameForKey(k)] = v
	}
	r.n = map[int16]int{}
	return out
}

// shiftPoller polls a real cluster and moves each snapshot's time forward
// by shift, so that a window of polls spans minutes without waiting for
// them. Exact time lags and the record viewer read through the client.
type shiftPoller struct {
	*kafka.Client
	shift time.Duration
}

func (p *shiftPoller) Poll(ctx context.Context) (*kafka.Snapshot, error) {
	snap, err := p.Client.Poll(ctx)
	if snap != nil {
		snap.Time = snap.Time.Add(p.shift)
	}
	return snap, err
}

// diagnosisTab is the Diagnosis tab of the group screen on top.
func diagnosisTab(t *testing.T, h *harness) *diagnosis.Model {
	t.Helper()
	g, ok := h.m.top().(*groupdetail.Model)
	if !ok {
		t.Fatalf("top is %T, want a group screen", h.m.top())
	}
	hosted := g.Hosted()
	d, ok := hosted[len(hosted)-1].(*diagnosis.Model)
	if !ok {
		t.Fatalf("last tab is %T, want the Diagnosis tab", hosted[len(hosted)-1])
	}
	return d
}

func findingOf(t *testing.T, fs []diagnose.Finding, id string) diagnose.Finding {
	t.Helper()
	for _, f := range fs {
		if f.ID == id {
			return f
		}
	}
	var got []string
	for _, f := range fs {
		got = append(got, f.ID)
	}
	t.Fatalf("no %s finding in %v", id, got)
	return diagnose.Finding{}
}

func evidenceOf(t *testing.T, f diagnose.Finding, key string) any {
	t.Helper()
	v, ok := f.Evidence.Get(key)
	if !ok {
		t.Fatalf("%s has no %s in its evidence %v", f.ID, key, f.Evidence)
	}
	return v
}

// TestDiagnosisTabReadsOnKfake runs the root on a real cluster with the
// reader `kgroups diagnose` uses: the Diagnosis tab names the open
// transaction, shows the record a stalled member is stuck on and finds a
// consumer behind a short retention.ms; a poll that brings nothing new
// reads nothing again; Enter on the stalled finding opens the record.
func TestDiagnosisTabReadsOnKfake(t *testing.T) {
	c := kafkatest.NewCluster(t, kfake.BrokerConfigs(map[string]string{"transaction.max.timeout.ms": "3600000"}))
	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()

	// An open transaction: 3 committed records, then 5 in a transaction
	// that never ends; the group committed up to the stable offset.
	c.CreateTopic(t, "txn", 1)
	c.Produce(t, "txn", 0, 3, time.Time{})
	txp, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...), kgo.TransactionalID("tx-open"),
		kgo.TransactionTimeout(30*time.Minute), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(txp.Close)
	if err := txp.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if err := txp.ProduceSync(ctx, &kgo.Record{Topic: "txn", Partition: 0, Value: []byte("t")}).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	pid, _, err := txp.ProducerID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c.Commit(t, "g-txn", map[string]map[int32]int64{"txn": {0: 3}})

	// A stalled member: committed 5 of 10 records, then consumes without
	// committing, staying in the group.
	c.CreateTopic(t, "stall", 1)
	c.Produce(t, "stall", 0, 10, time.Now().Add(-time.Minute)) // values v0..v9
	c.Commit(t, "g-stall", map[string]map[int32]int64{"stall": {0: 5}})
	c.Join(t, "g-stall", []string{"stall"}, kgo.DisableAutoCommit(), kgo.ClientID("worker-1"))
	c.WaitStable(t, "g-stall", 1, 1)

	// Behind retention: a topic keeping records one minute, an Empty
	// group at its first record.
	c.CreateTopic(t, "short", 1)
	c.Produce(t, "short", 0, 3, time.Now())
	c.Commit(t, "g-old", map[string]map[int32]int64{"short": {0: 0}})
	alter := []kadm.AlterConfig{{Op: kadm.SetConfig, Name: "retention.ms", Value: kadm.StringPtr("60000")}}
	if resp, err := c.Admin().AlterTopicConfigs(ctx, alter, "short"); err != nil || resp[0].Err != nil {
		t.Fatalf("alter retention.ms: %v %v", err, resp)
	}

	rc := &keyCounter{n: map[int16]int{}}
	cl := c.Client(t, kgo.WithHooks(rc))
	sp := &shiftPoller{Client: cl}
	h := newHarness(t, 120, 40, Options{
		ContextInfo: ContextInfo{Diagnosis: diagnose.NewReader(cl)},
		Poller:      sp,
		Lag:         lag.Config{Window: 3, MinDistance: time.Nanosecond},
	})
	polls := func(n int) {
		for range n {
			sp.shift += 61 * time.Second
			h.poll()
		}
	}

	// The tab reads nothing until it is on show.
	h.poll()
	h.m.openGroup("g-txn")
	polls(1)
	if sent := rc.take(); sent["DescribeProducers"] != 0 || sent["DescribeConfigs"] != 0 {
		t.Errorf("hidden Diagnosis tab read %v", sent)
	}
	h.press("shift+tab")
	polls(3)
	t.Logf("requests of showing the tab and 3 polls: %v", rc.take())
	d := diagnosisTab(t, h)
	f := findingOf(t, d.Findings(), diagnose.IDOpenTransaction)
	if got := evidenceOf(t, f, "transactionalId"); got != "tx-open" {
		t.Errorf("transactionalId %v, want tx-open", got)
	}
	if got := evidenceOf(t, f, "producerId"); got != pid {
		t.Errorf("producerId %v, want %d", got, pid)
	}
	for key, want := range map[string]int64{"lastStableOffset": 3, "logEndOffset": 8, "transactionStartOffset": 3} {
		if got := evidenceOf(t, f, key); got != want {
			t.Errorf("%s %v, want %d", key, got, want)
		}
	}
	v := h.view()
	for _, want := range []string{"stuck-behind-open-transaction", "tx-open"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q in\n%s", want, v)
		}
	}

	// A poll with nothing new reads nothing again.
	h.poll()
	sent := rc.take()
	for _, key := range []string{"DescribeProducers", "ListTransactions", "DescribeTransactions", "DescribeConfigs", "Fetch"} {
		if sent[key] != 0 {
			t.Errorf("a poll with nothing new sent %d %s requests (%v)", sent[key], key, sent)
		}
	}

	// The stalled member: the record at its commit.
	h.press("esc")
	h.m.openGroup("g-stall")
	h.press("shift+tab")
	// Eleven minutes on, its commit has stood 16 minutes since the first
	// poll: a commit with no rhythm seen is STALL once it stands three
	// ceilings (lag.UnseenRhythms), 15 minutes.
	sp.shift += 11 * time.Minute
	polls(1)
	d = diagnosisTab(t, h)
	f = findingOf(t, d.Findings(), diagnose.IDStalledAtRecord)
	for key, want := range map[string]any{"committedOffset": int64(5), "recordOffset": int64(5), "recordValuePreview": "v5", "recordValueSize": int64(2), "clientId": "worker-1"} {
		if got := evidenceOf(t, f, key); got != want {
			t.Errorf("%s %v, want %v", key, got, want)
		}
	}
	if v := h.view(); !strings.Contains(v, "v5") {
		t.Errorf("no record preview v5 in\n%s", v)
	}
	h.press("enter")
	if _, ok := h.m.top().(*record.Model); !ok {
		t.Fatalf("top is %T after enter, want the record viewer", h.m.top())
	}
	if v := h.view(); !strings.Contains(v, "offset       5") {
		t.Errorf("the viewer is not on offset 5:\n%s", v)
	}

	// Behind retention.
	h.press("esc", "esc")
	h.m.openGroup("g-old")
	h.press("shift+tab")
	polls(1)
	d = diagnosisTab(t, h)
	f = findingOf(t, d.Findings(), diagnose.IDBehindRetention)
	for key, want := range map[string]any{"retentionMs": int64(60000), "marginMs": int64(6000), "committedOffset": int64(0)} {
		if got := evidenceOf(t, f, key); got != want {
			t.Errorf("%s %v, want %v", key, got, want)
		}
	}
}
