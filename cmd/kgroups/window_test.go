package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
)

// TestSampleWindow runs the sampling health and diagnose share on replayed
// polls stamped in the past (so it never waits): every snapshot the
// History takes reaches added, first one included, a failed poll is
// skipped and counted, and a named group gone by the last poll is judged
// nowhere and noted.
func TestSampleWindow(t *testing.T) {
	start := time.Now().Add(-time.Hour)
	grp := func(name string) kafka.Group {
		return kafka.Group{Name: name, Type: kafka.TypeClassic, State: kafka.StateStable,
			Partitions: []kafka.PartitionOffsets{{Topic: "t", Partition: 0, Committed: 5, LogEnd: 10, Lag: 5, MemberID: "m"}}}
	}
	snaps := []*kafka.Snapshot{
		{Time: start, Groups: []kafka.Group{grp("a"), grp("b")}},
		{Time: start.Add(time.Second), Groups: []kafka.Group{grp("a"), grp("b")}},
		nil, // fails
		{Time: start.Add(3 * time.Second), Groups: []kafka.Group{grp("a")}},
	}
	next := 0
	poll := func(context.Context) (*kafka.Snapshot, error) {
		s := snaps[next]
		next++
		if s == nil {
			return nil, errors.New("broker gone")
		}
		return s, nil
	}
	var stdout, stderr bytes.Buffer
	a := newApp(nil, &stdout, &stderr, func(string) string { return "" })
	o := healthOptions{names: []string{"a", "b"}, polls: len(snaps), interval: time.Nanosecond, cfg: lag.Config{Window: 3, MinDistance: time.Nanosecond}}
	var added []*kafka.Snapshot
	w, err := sampleWindow(context.Background(), a, "health", poll, o, func(s *kafka.Snapshot) { added = append(added, s) })
	if err != nil {
		t.Fatal(err)
	}
	if len(added) != 3 || added[0] != snaps[0] || added[1] != snaps[1] || added[2] != snaps[3] || w.history.Polls() != 3 {
		t.Errorf("added %d snapshots, the History took %d; want the 3 that did not fail", len(added), w.history.Polls())
	}
	if w.first != snaps[0] || w.last != snaps[3] || w.failed != 1 || w.lastErr == nil {
		t.Errorf("first %p last %p failed %d (%v)", w.first, w.last, w.failed, w.lastErr)
	}
	if len(w.verdicts) != 1 || w.verdicts[0].Group != "a" || len(w.judged) != 1 || w.judged[0] != &snaps[3].Groups[0] || strings.Join(w.gone, ",") != "b" {
		t.Errorf("verdicts %+v, judged %v, gone %v; want a judged as last seen and b gone", w.verdicts, w.judged, w.gone)
	}
	stderr.Reset()
	if !w.noteFailures(a, o.polls) {
		t.Error("noteFailures reports none")
	}
	want := "kgroups: group \"b\" not found at the end of the window\nkgroups: 1 of 4 polls failed, the last with: broker gone\n"
	if stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}

	// A named group missing from the first poll fails before sampling.
	next = 0
	o.names = []string{"a", "c", "d"}
	added = nil
	_, err = sampleWindow(context.Background(), a, "diagnose", poll, o, func(s *kafka.Snapshot) { added = append(added, s) })
	if err == nil || err.Error() != `group "d" not found` || next != 1 || len(added) != 0 {
		t.Errorf("missing groups: %v after %d polls, %d added", err, next, len(added))
	}
}
