package lag

import (
	"testing"

	"github.com/kgroups/kgroups/kafka"
)

// replacedSnap is one poll of group g on t/0 with the given ids.
func replacedSnap(sec float64, cluster string, id byte, p kafka.PartitionOffsets) *kafka.Snapshot {
	s := snap(at(sec), grp("g", p))
	s.ClusterID = cluster
	if id != 0 {
		s.TopicIDs = map[string]kafka.TopicID{"t": {id}}
	}
	return s
}

func TestReplacedLogsRestartTheirHistory(t *testing.T) {
	cfg := testConfig()
	// Four polls of the old log: committed 100..130, 20 behind.
	old := func(h *History, cluster string, id byte) {
		for i := range 4 {
			h.Add(replacedSnap(float64(i), cluster, id, po("t", 0, 100+int64(10*i), 120+int64(10*i))))
		}
	}
	check := func(t *testing.T, h *History, sec float64, wantStatus Status, wantObs int, restarted bool) {
		t.Helper()
		g, ok := h.Evaluate("g", at(sec))
		if !ok || len(g.Partitions) != 1 {
			t.Fatalf("group %+v", g)
		}
		p := g.Partitions[0]
		if p.Status != wantStatus || p.Observations != wantObs || p.Restarted.IsZero() == restarted {
			t.Fatalf("status %v, %d observations, restarted %v; want %v, %d, restarted %v", p.Status, p.Observations, p.Restarted, wantStatus, wantObs, restarted)
		}
		if restarted && !p.Restarted.Equal(at(sec)) {
			t.Fatalf("restarted at %v, want %v", p.Restarted, at(sec))
		}
	}

	t.Run("a new topic id", func(t *testing.T) {
		h := NewHistory(cfg)
		old(h, "c1", 1)
		// The recreated topic's commit (30) is below the old one (130)
		// but its log end is not: only the id tells. Not a REWIND.
		h.Add(replacedSnap(4, "c1", 2, po("t", 0, 30, 200)))
		check(t, h, 4, StatusOK, 1, true)
	})
	t.Run("the same offsets without ids are a REWIND", func(t *testing.T) {
		h := NewHistory(cfg)
		old(h, "c1", 0)
		h.Add(replacedSnap(4, "c1", 0, po("t", 0, 30, 200)))
		check(t, h, 4, StatusRewind, 4, false)
	})
	t.Run("another cluster at the address", func(t *testing.T) {
		h := NewHistory(cfg)
		old(h, "c1", 1)
		h.Add(replacedSnap(4, "c2", 1, po("t", 0, 30, 200)))
		check(t, h, 4, StatusOK, 1, true)
		if h.Groups() != 1 || h.Partitions() != 1 {
			t.Fatalf("%d groups, %d partitions after the cluster changed; want the new poll's 1 and 1", h.Groups(), h.Partitions())
		}
	})
	t.Run("without ids, a log start moving back", func(t *testing.T) {
		h := NewHistory(cfg)
		for i := range 4 {
			p := po("t", 0, 100+int64(10*i), 120+int64(10*i))
			p.LogStart = 50
			h.Add(replacedSnap(float64(i), "", 0, p))
		}
		h.Add(replacedSnap(4, "", 0, po("t", 0, 30, 200))) // log start 0
		check(t, h, 4, StatusOK, 1, true)
	})
	t.Run("without ids, a log end far below the commit", func(t *testing.T) {
		h := NewHistory(cfg)
		old(h, "", 0)
		h.Add(replacedSnap(4, "", 0, po("t", 0, 3, 40)))
		check(t, h, 4, StatusOK, 1, true)
	})
	t.Run("a replica's dip is not a replacement", func(t *testing.T) {
		h := NewHistory(cfg)
		old(h, "", 0)
		h.Add(replacedSnap(4, "", 0, po("t", 0, 130, 128)))
		check(t, h, 4, StatusOK, 4, false)
	})
	t.Run("cached records of the old log are dropped", func(t *testing.T) {
		h := NewHistory(cfg)
		for i := range 4 { // stuck at 100, below every point: read exactly
			h.Add(replacedSnap(float64(i), "c1", 1, po("t", 0, 100, 120+int64(10*i))))
		}
		want := h.WantExact(4, nil)
		if len(want) != 1 {
			t.Fatalf("wanted %d exact reads, want 1", len(want))
		}
		k := kafka.CommitKey{Topic: "t", Partition: 0, Offset: want[0].Committed}
		h.AddExact(map[kafka.CommitKey]kafka.RecordTime{k: {Offset: k.Offset, Timestamp: at(-3600)}})
		if h.ExactCached() != 1 {
			t.Fatalf("%d cached", h.ExactCached())
		}
		// The new log reuses offset 100, for a record written now.
		h.Add(replacedSnap(4, "c1", 2, po("t", 0, 100, 101)))
		if h.ExactCached() != 0 {
			t.Fatalf("%d records of the old log still cached", h.ExactCached())
		}
		g, _ := h.Evaluate("g", at(4))
		if tl := g.Partitions[0].TimeLag; tl.Known() && tl.Seconds > 0 {
			t.Fatalf("time lag %+v of a log one poll old", tl)
		}
	})
}
