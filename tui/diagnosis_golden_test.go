package tui

import (
	"context"
	"reflect"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/views/ui"
)

// fixedReads answers the Diagnosis tab's reads with fixed data: a record
// {"order":100,"amount":"NaN"} at every commit asked for and retention.ms
// of one minute for every topic. It records what it was asked.
type fixedReads struct{ asked []diagnose.Wants }

func (f *fixedReads) Read(_ context.Context, w diagnose.Wants) (*diagnose.Reads, error) {
	f.asked = append(f.asked, w)
	rs := &diagnose.Reads{Retention: map[string]int64{}, Records: map[kafka.CommitKey]diagnose.Record{}}
	for _, t := range w.Retention {
		rs.Retention[t] = 60000
	}
	for _, k := range w.Records {
		v := []byte(`{"order":100,"amount":"NaN"}`)
		rs.Records[k] = diagnose.Record{Offset: k.Offset, Timestamp: 1700000000000, Key: []byte("order-100"), KeySize: 9, Value: v, ValueSize: len(v)}
	}
	return rs, nil
}

// TestGoldenDiagnosisReads is the Diagnosis tab of share-jobs once its
// reads answered: the stalled-at-record finding with the record's preview
// and consumer-behind-retention.
func TestGoldenDiagnosisReads(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		t.Run("diagnosis_reads_"+itoa(size[0])+"x"+itoa(size[1]), func(t *testing.T) {
			r := &fixedReads{}
			h := newHarness(t, size[0], size[1], Options{Diagnosis: r}, shareSteps()...)
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
	h := newHarness(t, 120, 40, Options{Diagnosis: r}, shareSteps()...)
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
