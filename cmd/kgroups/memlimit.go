package main

import (
	"context"
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"

	"github.com/kgroups/kgroups/config"
)

// The live UI keeps one poll, the lag history and the screens' rows; every
// poll adds a poll's worth of short-lived garbage. With the default GOGC
// alone the heap grows to twice what is live before a collection, so the
// process holds about twice the memory it uses. While the UI runs,
// kgroups sets a soft memory limit (debug.SetMemoryLimit) a little above
// what it keeps: the live heap after the last collection, the space lost
// inside the heap's spans, the runtime's own memory (stacks, GC metadata),
// and headroom of an eighth of the live heap (headroomShare), at least
// heapHeadroom. It is derived again after every collection, so it
// follows the cluster's size at once, and costs nothing while nothing is
// allocated. GOGC stays as it is and still applies below the limit.
// GOMEMLIMIT in the environment wins: kgroups then sets nothing.
//
// The limit set is the highest derived over the last two poll intervals
// (memLimiter.hold), not the latest: the live heap swings within each
// poll (low between polls, high while a poll is read and judged), and a
// limit that followed it down made the runtime collect more often and
// hand memory back to the system between polls, only to fault it in
// again at the next. Held, the limit stays at what each poll needs, so
// the peak is the same and the collections and page faults fewer; and
// the headroom can be an eighth rather than the quarter it was: between
// polls the held limit leaves room enough. A sixteenth saved another
// 2.4 MiB at 10,000 groups for twice the collections (docs/performance.md).
const heapHeadroom = 8 << 20

// headroomShare is the headroom as a share of the live heap: an eighth.
const headroomShare = 8

// memoryLimit is the limit for the runtime's current figures.
func memoryLimit() int64 {
	s := []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/heap/unused:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
	}
	metrics.Read(s)
	v := func(i int) uint64 {
		if s[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return s[i].Value.Uint64()
	}
	live, total, unused := v(0), v(1), v(3)
	heap := v(2) + unused + v(4) + v(5)
	var runtimeOwn uint64
	if total > heap {
		runtimeOwn = total - heap
	}
	limit := live + max(live/headroomShare, heapHeadroom) + unused + runtimeOwn
	return int64(min(limit, math.MaxInt64))
}

// memLimiter sets the limit after each collection until it is stopped.
type memLimiter struct {
	mu      sync.Mutex
	stopped bool
	// span is how long a derived limit holds (hold); recent the limits
	// derived within it that a later one did not exceed, oldest (and
	// highest) first.
	span   time.Duration
	recent []heldLimit
}

// heldLimit is a limit derived at a time.
type heldLimit struct {
	at    time.Time
	limit int64
}

// hold notes limit, derived at t, and returns the highest derived in the
// span before t. A limit is dropped once it is older than the span or a
// later one is as high: recent stays short however often the runtime
// collects.
func (l *memLimiter) hold(t time.Time, limit int64) int64 {
	i := 0
	for i < len(l.recent) && t.Sub(l.recent[i].at) > l.span {
		i++
	}
	n := copy(l.recent, l.recent[i:])
	l.recent = l.recent[:n]
	for len(l.recent) > 0 && l.recent[len(l.recent)-1].limit <= limit {
		l.recent = l.recent[:len(l.recent)-1]
	}
	l.recent = append(l.recent, heldLimit{at: t, limit: limit})
	return l.recent[0].limit
}

// arm sets the limit again after the next collection: the cleanup of an
// object nothing keeps runs once a collection has freed it.
func (l *memLimiter) arm() {
	runtime.AddCleanup(new([64]byte), func(l *memLimiter) {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.stopped {
			return
		}
		debug.SetMemoryLimit(l.hold(time.Now(), memoryLimit()))
		l.arm()
	}, l)
}

// keepMemoryNearLive sets the soft memory limit from the next collection
// on until ctx ends, then lifts it, each limit held for two poll
// intervals (every). It returns at once; getenv reads GOMEMLIMIT.
func keepMemoryNearLive(ctx context.Context, getenv func(string) string, every time.Duration) {
	if getenv("GOMEMLIMIT") != "" {
		return
	}
	if every <= 0 {
		every = config.DefaultRefresh
	}
	l := &memLimiter{span: 2 * every}
	l.arm()
	go func() {
		<-ctx.Done()
		l.mu.Lock()
		defer l.mu.Unlock()
		l.stopped = true
		debug.SetMemoryLimit(math.MaxInt64)
	}()
}
