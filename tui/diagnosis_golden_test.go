package tui

import (
	"context"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/diagnose"
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
