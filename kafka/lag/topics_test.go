package lag

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
)

// TestTopicTableSweptAsTopicsGo holds the topic table, which records name
// their topics through (partHist.topic), to the topics the History
// remembers: a cluster whose topics come and go, one new topic a poll,
// keeps a bounded table, and every record still names its own topic.
func TestTopicTableSweptAsTopicsGo(t *testing.T) {
	h := NewHistory(Config{EvictAfter: 2})
	now := t0
	for i := range 500 {
		now = now.Add(5 * time.Second)
		topic := fmt.Sprintf("churn-%03d", i)
		h.Add(snap(now,
			grp("stays", po("kept", 0, 10, 20), po("kept", 1, 10, 20)),
			grp("moves", po(topic, 0, int64(i), int64(i)+3))))
		if n := len(h.topics); n > 2*minTopicSweep {
			t.Fatalf("poll %d: the topic table holds %d names for %d topics remembered", i, n, len(h.topicIdx))
		}
		if len(h.topics) != len(h.topicIdx) {
			t.Fatalf("poll %d: %d names, %d indexed", i, len(h.topics), len(h.topicIdx))
		}
		for name, gh := range h.groups {
			for k := range gh.parts {
				ph := &gh.parts[k]
				if got := h.topicOf(ph); h.topicIdx[got] != ph.topic {
					t.Fatalf("poll %d: %s's record names %q at %d, indexed at %d", i, name, got, ph.topic, h.topicIdx[got])
				}
			}
		}
		gh, ok := h.Evaluate("moves", now)
		if !ok || len(gh.Partitions) == 0 || gh.Partitions[len(gh.Partitions)-1].Topic != topic {
			t.Fatalf("poll %d: moves is judged on %+v, want its newest partition on %s", i, gh.Partitions, topic)
		}
		if s := h.PartitionSeries("stays", "kept", 1, nil); len(s) != min(i+1, h.cfg.Samples) {
			t.Fatalf("poll %d: kept/1 has %d samples", i, len(s))
		}
	}
}

// TestCopyNamesItsOwnTopics writes, into a copy, partitions of topics
// its source never saw, and sweeps the copy's table: the source's
// records keep naming their topics, and its table does not change (the
// copy's table and records are its own; CopyFrom).
func TestCopyNamesItsOwnTopics(t *testing.T) {
	cfg := Config{EvictAfter: 1}
	src, dst := NewHistory(cfg), NewHistory(cfg)
	now := t0.Add(5 * time.Second)
	var gs []kafka.Group
	for i := range minTopicSweep - 1 { // a table one name short of a sweep
		gs = append(gs, grp(fmt.Sprintf("g%02d", i), po(fmt.Sprintf("old-%02d", i), 0, 5, 9)))
	}
	src.Add(snap(now, gs...))
	names := slices.Clone(src.topics)
	want, _ := src.Evaluate("g07", now)
	dst.CopyFrom(src)
	now = now.Add(5 * time.Second)
	dst.Add(snap(now, grp("g07", po("new", 0, 5, 9), po("old-07", 0, 5, 9))))
	if len(dst.topics) != 2 {
		t.Fatalf("the copy's table holds %v after the sweep, want new and old-07", dst.topics)
	}
	if !slices.Equal(src.topics, names) {
		t.Fatalf("the source's table changed to %v", src.topics)
	}
	if got, _ := src.Evaluate("g07", t0.Add(5*time.Second)); got.Partitions[0].Topic != "old-07" || got.Partitions[0] != want.Partitions[0] {
		t.Fatalf("the source judges %+v, want %+v", got.Partitions, want.Partitions)
	}
	got, _ := dst.Evaluate("g07", now)
	if len(got.Partitions) != 2 || got.Partitions[0].Topic != "new" || got.Partitions[1].Topic != "old-07" {
		t.Fatalf("the copy judges %+v, want new/0 and old-07/0", got.Partitions)
	}
}
