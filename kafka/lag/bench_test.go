package lag

import (
	"fmt"
	"runtime"
	"testing"
	"time"
	"unsafe"

	"github.com/kgroups/kgroups/kafka"
)

const (
	benchGroups     = 1000
	benchPartitions = 100 // per group: 100,000 in all
)

// benchSnapshot builds 1,000 groups of 100 partitions over 10 topics.
func benchSnapshot() *kafka.Snapshot {
	s := &kafka.Snapshot{Time: t0}
	topics := make([]string, 10)
	for i := range topics {
		topics[i] = fmt.Sprintf("topic-%02d", i)
	}
	for g := range benchGroups {
		grp := kafka.Group{Name: fmt.Sprintf("group-%04d", g), Partitions: make([]kafka.PartitionOffsets, 0, benchPartitions)}
		for _, t := range topics {
			for p := range benchPartitions / len(topics) {
				grp.Partitions = append(grp.Partitions, kafka.PartitionOffsets{
					Topic: t, Partition: int32(p), Committed: 1000, LogEnd: 1100, Lag: 100, MemberID: "m",
				})
			}
		}
		s.Groups = append(s.Groups, grp)
	}
	return s
}

// advance moves the snapshot one poll on: every log grows by 10 and every
// consumer commits 9 further.
func advance(s *kafka.Snapshot, poll int) {
	s.Time = t0.Add(time.Duration(poll) * time.Second)
	for g := range s.Groups {
		ps := s.Groups[g].Partitions
		for i := range ps {
			ps[i].LogEnd += 10
			ps[i].Committed += 9
			ps[i].Lag = ps[i].LogEnd - ps[i].Committed
		}
	}
}

// newHistory is the History the benchmarks measure: the compact one, or
// with wide a History that stores every number in 8 bytes
// (newWideHistory), so that the two run in the same process and what the
// compaction saves and costs can be read side by side.
func newHistory(wide bool) *History {
	if wide {
		return newWideHistory(DefaultConfig())
	}
	return NewHistory(DefaultConfig())
}

// BenchmarkHistoryAdd measures one poll of 100,000 partitions in steady
// state: every partition already known and its rings full (Samples polls,
// so that every number has the width it keeps).
func BenchmarkHistoryAdd(b *testing.B) { benchHistoryAdd(b, false) }

// BenchmarkHistoryAddWide is BenchmarkHistoryAdd on a wide History.
func BenchmarkHistoryAddWide(b *testing.B) { benchHistoryAdd(b, true) }

func benchHistoryAdd(b *testing.B, wide bool) {
	s := benchSnapshot()
	h := newHistory(wide)
	warm := DefaultConfig().Samples + 1
	for p := range warm {
		advance(s, p)
		h.Add(s)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		advance(s, warm+i)
		b.StartTimer()
		h.Add(s)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(benchGroups*benchPartitions), "ns/partition")
}

// TestPartHistSize keeps the fixed record of a partition's memory, which
// History's documentation and docs/lag-health.md#parameters-and-memory
// count in its bound, at 136 bytes on 64-bit platforms: 112 for the
// rings' bookkeeping (the slab behind one pointer, the topic by its index
// in the History's table), the held status and its wait, the longest wait
// seen while keeping up (calm) and whose the moves are, 24 for the
// commit rhythm the rules keep beyond the rings (rhythm.go): when the
// current wait began and the rings' indexes. What only a forward move
// writes, the latest move, the waits and the trend of eight points (160
// bytes, a size class of its own), is kept out of the record, only for a
// partition whose commit moved (History.ownTrend); a partition served in
// turn has its turns (32 bytes) in its group's record.
func TestPartHistSize(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("the documented figure is for 64-bit platforms")
	}
	if got := unsafe.Sizeof(partHist{}); got != 136 {
		t.Errorf("a partition's fixed record is %d bytes; the documented bound says 136", got)
	}
	if got := unsafe.Sizeof(rhythm{}); got != 24 {
		t.Errorf("a partition's rhythm is %d bytes in its record; the documented bound says 24", got)
	}
	if got := unsafe.Sizeof([trendPoints]trendPoint{}); got != 128 {
		t.Errorf("a trend ring is %d bytes; the documented bound says 128", got)
	}
	if got := unsafe.Sizeof(rhythmMoves{}); got != 160 {
		t.Errorf("a moved partition's moves are %d bytes; the documented bound says 160", got)
	}
	if got := unsafe.Sizeof(turns{}); got != 32 {
		t.Errorf("a partition's turns are %d bytes; the documented bound says 32", got)
	}
}

// BenchmarkHistoryMemory measures the heap a History holds for 100,000
// partitions once every ring is full (Samples polls, TimePoints points and
// Window observations per partition).
func BenchmarkHistoryMemory(b *testing.B) { benchHistoryMemory(b, false, benchSnapshot, advance) }

// BenchmarkHistoryMemoryWide is BenchmarkHistoryMemory on a wide History.
func BenchmarkHistoryMemoryWide(b *testing.B) {
	benchHistoryMemory(b, true, benchSnapshot, advance)
}

// BenchmarkHistoryMemoryCluster is BenchmarkHistoryMemory on the
// development cluster's shape: 2,000 groups of 12 partitions over 20
// topics (24,000 partitions), where each group's own share weighs more.
func BenchmarkHistoryMemoryCluster(b *testing.B) {
	benchHistoryMemory(b, false, clusterSnapshot, advance)
}

// BenchmarkHistoryMemoryClusterWide is BenchmarkHistoryMemoryCluster
// on a wide History.
func BenchmarkHistoryMemoryClusterWide(b *testing.B) {
	benchHistoryMemory(b, true, clusterSnapshot, advance)
}

// clusterSnapshot builds 2,000 groups of 12 partitions, group i on topic
// i%20.
func clusterSnapshot() *kafka.Snapshot {
	s := &kafka.Snapshot{Time: t0}
	for g := range 2000 {
		grp := kafka.Group{Name: fmt.Sprintf("group-%04d", g), Partitions: make([]kafka.PartitionOffsets, 0, 12)}
		for p := range 12 {
			grp.Partitions = append(grp.Partitions, kafka.PartitionOffsets{
				Topic: fmt.Sprintf("topic-%02d", g%20), Partition: int32(p), Committed: 1000, LogEnd: 1100, Lag: 100,
			})
		}
		s.Groups = append(s.Groups, grp)
	}
	return s
}

// BenchmarkHistoryMemoryAtRest is BenchmarkHistoryMemory on the
// reference cluster's shape at 10,000 groups (120,000 partitions, 12 for
// each group on topic i%20), every group Empty and nothing moving: the
// slabs take no bytes, and what remains is the records and the groups.
func BenchmarkHistoryMemoryAtRest(b *testing.B) {
	benchHistoryMemory(b, false, restSnapshot, advanceTime)
}

// BenchmarkHistoryMemoryAtRestWide is BenchmarkHistoryMemoryAtRest on a
// wide History.
func BenchmarkHistoryMemoryAtRestWide(b *testing.B) {
	benchHistoryMemory(b, true, restSnapshot, advanceTime)
}

// restSnapshot builds 10,000 Empty groups of 12 partitions, group i
// committed at the log end of topic i%20.
func restSnapshot() *kafka.Snapshot {
	s := &kafka.Snapshot{Time: t0}
	for g := range 10000 {
		grp := kafka.Group{Name: fmt.Sprintf("group-%05d", g), State: kafka.StateEmpty, Partitions: make([]kafka.PartitionOffsets, 0, 12)}
		for p := range 12 {
			grp.Partitions = append(grp.Partitions, kafka.PartitionOffsets{
				Topic: fmt.Sprintf("topic-%02d", g%20), Partition: int32(p), Committed: 100, LogEnd: 100, Lag: 0,
			})
		}
		s.Groups = append(s.Groups, grp)
	}
	return s
}

// advanceTime moves the snapshot one poll on with nothing else changed.
func advanceTime(s *kafka.Snapshot, poll int) {
	s.Time = t0.Add(time.Duration(poll) * 5 * time.Second)
}

// BenchmarkHistoryMemoryBusy is BenchmarkHistoryMemory with busy
// partitions: 5,000 records produced per poll, a consumer 1,000,000
// behind reading 4,990 per poll, so that offsets and lags need 4 bytes.
func BenchmarkHistoryMemoryBusy(b *testing.B) {
	benchHistoryMemory(b, false, benchSnapshot, advanceBusy)
}

// advanceBusy moves the snapshot one poll on for BenchmarkHistoryMemoryBusy.
func advanceBusy(s *kafka.Snapshot, poll int) {
	s.Time = t0.Add(time.Duration(poll) * time.Second)
	for g := range s.Groups {
		ps := s.Groups[g].Partitions
		for i := range ps {
			if poll == 0 {
				ps[i].LogEnd = 5_000_000_000
				ps[i].Committed = ps[i].LogEnd - 1_000_000
			}
			ps[i].LogEnd += 5000
			ps[i].Committed += 4990
			ps[i].Lag = ps[i].LogEnd - ps[i].Committed
		}
	}
}

func benchHistoryMemory(b *testing.B, wide bool, build func() *kafka.Snapshot, step func(*kafka.Snapshot, int)) {
	cfg := DefaultConfig()
	polls := max(cfg.Samples, cfg.TimePoints, cfg.Window) + 1
	var perPartition float64
	for range b.N {
		s := build()
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		h := newHistory(wide)
		for p := range polls {
			step(s, p)
			h.Add(s)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		n := 0
		for _, g := range s.Groups {
			n += len(g.Partitions)
		}
		if got := h.Partitions(); got != n {
			b.Fatalf("history holds %d partitions, want %d", got, n)
		}
		perPartition = float64(after.HeapAlloc-before.HeapAlloc) / float64(n)
		runtime.KeepAlive(h)
		runtime.KeepAlive(s)
	}
	b.ReportMetric(perPartition, "bytes/partition")
}

// BenchmarkEvaluate measures judging one group of 100 partitions with full
// windows, reusing the partition buffer as a screen would.
func BenchmarkEvaluate(b *testing.B) { benchEvaluate(b, false) }

// BenchmarkEvaluateWide is BenchmarkEvaluate on a wide History.
func BenchmarkEvaluateWide(b *testing.B) { benchEvaluate(b, true) }

func benchEvaluate(b *testing.B, wide bool) {
	s := benchSnapshot()
	s.Groups = s.Groups[:1]
	h := newHistory(wide)
	for p := range 61 {
		advance(s, p)
		h.Add(s)
	}
	now := s.Time
	var buf []PartitionHealth
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		g, ok := h.EvaluateInto("group-0000", now, buf)
		if !ok || len(g.Partitions) != benchPartitions {
			b.Fatal("group not evaluated")
		}
		buf = g.Partitions
	}
}
