package main

import (
	"context"
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// TestMemoryLimitAboveLiveHeap checks the limit's parts: the live heap,
// headroom of a headroomShare-th of it (at least heapHeadroom), and the
// runtime's memory outside the heap, which is never zero. The live heap
// is the one the last collection found, so the limit and the figures it
// is checked against are read between the same two collections: a
// collection in between (another test allocating) reads again.
func TestMemoryLimitAboveLiveHeap(t *testing.T) {
	keep := make([]byte, 96<<20) // a live heap larger than headroomShare × heapHeadroom
	s := []metrics.Sample{
		{Name: "/gc/cycles/total:gc-cycles"},
		{Name: "/gc/heap/live:bytes"},
		{Name: "/memory/classes/total:bytes"},
	}
	for try := 1; ; try++ {
		runtime.GC()
		metrics.Read(s)
		cycle := s[0].Value.Uint64()
		limit := memoryLimit()
		metrics.Read(s)
		if s[0].Value.Uint64() != cycle {
			if try == 100 {
				t.Fatalf("a collection came between the limit and its figures %d times in a row", try)
			}
			continue
		}
		live, total := int64(s[1].Value.Uint64()), int64(s[2].Value.Uint64())
		if live < int64(len(keep)) {
			t.Fatalf("the live heap is %d with %d kept", live, len(keep))
		}
		if floor := live + max(live/headroomShare, heapHeadroom); limit <= floor {
			t.Errorf("limit %d is not above the live heap and its headroom, %d", limit, floor)
		}
		if limit > total+live/headroomShare+heapHeadroom {
			t.Errorf("limit %d is above all the runtime holds (%d) and the headroom", limit, total)
		}
		break
	}
	runtime.KeepAlive(keep)
}

// TestMemoryLimitWhileTheUIRuns sets the limit after collections while the
// context lives, lifts it when it ends, and leaves GOMEMLIMIT's alone.
func TestMemoryLimitWhileTheUIRuns(t *testing.T) {
	defer debug.SetMemoryLimit(math.MaxInt64)
	waitFor := func(what string, ok func(int64) bool) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for !ok(debug.SetMemoryLimit(-1)) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: the limit is %d", what, debug.SetMemoryLimit(-1))
			}
			runtime.GC() // the limit follows each collection
			time.Sleep(10 * time.Millisecond)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	keepMemoryNearLive(ctx, func(string) string { return "" }, time.Second)
	waitFor("set while the UI runs", func(l int64) bool { return l != math.MaxInt64 })
	cancel()
	waitFor("lifted when it ends", func(l int64) bool { return l == math.MaxInt64 })

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	debug.SetMemoryLimit(1 << 40) // as GOMEMLIMIT=1TiB would
	keepMemoryNearLive(ctx, func(k string) string {
		if k == "GOMEMLIMIT" {
			return "1TiB"
		}
		return ""
	}, time.Second)
	for range 3 {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("with GOMEMLIMIT set, the limit became %d", got)
	}
}

// TestMemoryLimitHeld: the limit set is the highest derived over the
// span (two poll intervals), so it does not fall between polls; one
// older than the span, or below a later one, no longer counts, and the
// limits kept stay few however often collections come.
func TestMemoryLimitHeld(t *testing.T) {
	l := &memLimiter{span: 10 * time.Second}
	t0 := time.Unix(1000, 0)
	for _, c := range []struct {
		at          time.Duration
		limit, want int64
		kept        int
	}{
		{0, 100, 100, 1},
		{time.Second, 80, 100, 2},       // between polls: held
		{2 * time.Second, 90, 100, 2},   // above 80, which goes
		{9 * time.Second, 120, 120, 1},  // a higher one takes over
		{15 * time.Second, 70, 120, 2},  // 120 is 6s old: held
		{19*time.Second + 1, 60, 70, 2}, // 120 is past the span
		{30 * time.Second, 50, 50, 1},   // so are 70 and 60
		{30*time.Second + 1, 50, 50, 1}, // an equal one replaces it
	} {
		if got := l.hold(t0.Add(c.at), c.limit); got != c.want || len(l.recent) != c.kept {
			t.Errorf("at %v, derived %d: limit %d with %d kept, want %d with %d", c.at, c.limit, got, len(l.recent), c.want, c.kept)
		}
	}
	for i := range 10000 { // collections back to back, the live heap falling
		l.hold(t0.Add(31*time.Second+time.Duration(i)*time.Microsecond), int64(40-i%3))
	}
	if len(l.recent) > 3 {
		t.Errorf("%d limits kept after 10,000 collections, want at most 3", len(l.recent))
	}
}
