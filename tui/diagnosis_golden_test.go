package tui

import (
	"context"
	"reflect"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/viewtest"
)

// fixedReads answers the Diagnosis tab's reads with fixed data: a record
// {"order":100,"amount":"NaN"} at every commit asked for and retention.ms
// of one minute for every topic. It records what it was asked.
type fixedReads struct{ asked []diagnose.Wants }

func (f *fixedReads) Read(_ context.Context, w diagnose.Wants) (*diagnose.Reads, error) {
	f.asked = append(f.asked, w)
	rs := &diagnose.Reads{Retention: map[string]int64{}, Records: map[kafka.CommitKey]diagnose.Record{},
		Producers: map[diagnose.TP][]diagnose.Producer{}, Transactions: map[int64]diagnose.Transaction{}}
	for _, tp := range w.Transactions {
		rs.Producers[tp] = []diagnose.Producer{{ProducerID: 4001, ProducerEpoch: 2, LastTimestamp: viewtest.Epoch.UnixMilli(), TxnStartOffset: openTxnAt}}
		rs.Transactions[4001] = diagnose.Transaction{TransactionalID: "payments-tx-7", ProducerID: 4001, State: "Ongoing",
			TimeoutMillis: 900000, StartTimestamp: viewtest.Epoch.Add(-10 * time.Minute).UnixMilli()}
	}
	for _, t := range w.Retention {
		rs.Retention[t] = 60000
	}
	for _, k := range w.Records {
		v := []byte(`{"order":100,"amount":"NaN"}`)
		rs.Records[k] = diagnose.Record{Offset: k.Offset, Timestamp: 1700000000000, Key: []byte("order-100"), KeySize: 9, Value: v, ValueSize: len(v)}
	}
	return rs, nil
}

// openTxnAt is where the open transaction of txnSteps on orders/2 begins,
// between the first poll's commit and log end.
const openTxnAt = 121100

// txnSteps are the trend polls and two more, 5s apart, where a
// transaction left open holds the last stable offset of orders-app's
// orders/2 at openTxnAt: put for more than a minute.
func txnSteps() []func(time.Time) (*kafka.Snapshot, error) {
	var steps []func(time.Time) (*kafka.Snapshot, error)
	for i := range warmPolls + 2 {
		steps = append(steps, func(time.Time) (*kafka.Snapshot, error) {
			s := viewtest.Evolving(i)
			for _, g := range s.Groups {
				if g.Name != "orders-app" {
					continue
				}
				for j := range g.Partitions {
					p := &g.Partitions[j]
					if p.Topic == "orders" && p.Partition == 2 {
						p.StableTrails, p.LastStable = true, openTxnAt
					}
				}
			}
			return s, nil
		})
	}
	return steps
}

// TestGoldenDiagnosisTransaction is orders-app's Diagnosis tab with a
// transaction left open, named once the reads answered.
func TestGoldenDiagnosisTransaction(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		t.Run("diagnosis_transaction_"+itoa(size[0])+"x"+itoa(size[1]), func(t *testing.T) {
			h := newHarness(t, size[0], size[1], Options{ContextInfo: ContextInfo{Diagnosis: &fixedReads{}}}, txnSteps()...)
			h.poll()
			h.press("j", "j", "j", "j", "j", "enter", "shift+tab") // orders-app
			h.warm()
			h.poll()
			h.clock.Advance(viewtest.PollEvery)
			golden.RequireEqual(t, []byte(h.view()))
		})
	}
}

// TestGoldenDiagnosisReads is the Diagnosis tab of share-jobs once its
// reads answered: the stalled-at-record finding with the record's preview
// and consumer-behind-retention.
func TestGoldenDiagnosisReads(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		t.Run("diagnosis_reads_"+itoa(size[0])+"x"+itoa(size[1]), func(t *testing.T) {
			r := &fixedReads{}
			h := newHarness(t, size[0], size[1], Options{ContextInfo: ContextInfo{Diagnosis: r}}, shareSteps()...)
			h.poll()
			h.press(openShare...)
			h.press("shift+tab")
			h.warm()
			if len(r.asked) == 0 {
				t.Fatal("the tab asked for no read")
			}
			golden.RequireEqual(t, []byte(h.view()))
		})
	}
}

// TestDiagnosisTabAsksWhenShown: the tab reads nothing while hidden, asks
// once when brought on show for exactly what its findings need, and a
// poll with nothing new asks for nothing; while a request is in flight,
// polls send no other.
func TestDiagnosisTabAsksWhenShown(t *testing.T) {
	r := &fixedReads{}
	h := newHarness(t, 120, 40, Options{ContextInfo: ContextInfo{Diagnosis: r}}, shareSteps()...)
	h.warm()
	h.press(openShare...)
	h.poll()
	if len(r.asked) != 0 {
		t.Fatalf("the hidden tab asked %+v", r.asked)
	}
	cmd := h.send(keyMsg("shift+tab"))
	req, ok := cmd().(ui.DiagnosisRequestMsg)
	if !ok {
		t.Fatal("showing the tab sent no DiagnosisRequestMsg")
	}
	want := diagnose.Wants{Retention: []string{"jobs"}, Records: []kafka.CommitKey{{Topic: "jobs", Partition: 2, Offset: 100}}}
	if !reflect.DeepEqual(req.Wants, want) {
		t.Errorf("asked %+v, want %+v", req.Wants, want)
	}
	h.poll() // while the request is in flight
	if len(r.asked) != 0 {
		t.Errorf("a poll sent another request while one was in flight: %+v", r.asked)
	}
	h.run(func() tea.Msg { return req })
	if len(r.asked) != 1 {
		t.Fatalf("%d reads, want 1", len(r.asked))
	}
	h.poll()
	h.poll()
	if len(r.asked) != 1 {
		t.Errorf("polls with nothing new read again: %+v", r.asked[1:])
	}
}

// TestDiagnosisTabConnection: the Diagnosis tab's suggested commands carry
// the words that name the cluster (Options.Connection), and a context
// switch replaces them with the new context's.
func TestDiagnosisTabConnection(t *testing.T) {
	staging := &seqPoller{steps: []func(time.Time) (*kafka.Snapshot, error){fixture}}
	h := newHarness(t, 120, 30, Options{
		ContextInfo: ContextInfo{Connection: []string{"-b", "prod-1:9092"}},
		Contexts:    []string{"prod", "staging"},
		Switch: func(context.Context, string) (Poller, ContextInfo, error) {
			return staging, ContextInfo{Name: "staging", Connection: []string{"--context", "staging"}}, nil
		},
	}, fixture)
	staging.clock = h.clock
	h.poll()
	h.press("enter")
	if got := diagnosisTab(t, h).Connection; !equal(got, []string{"-b", "prod-1:9092"}) {
		t.Fatalf("Diagnosis tab connection = %q, want [-b prod-1:9092]", got)
	}
	h.press("esc", ":")
	h.typeText("ctx staging")
	h.run(h.send(keyMsg("enter")))
	h.poll()
	h.press("enter")
	if got := diagnosisTab(t, h).Connection; !equal(got, []string{"--context", "staging"}) {
		t.Fatalf("after :ctx staging, Diagnosis tab connection = %q, want [--context staging]", got)
	}
}
