package main

import (
	"context"
	"math"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// The live UI keeps one poll, the lag history and the screens' rows; every
// poll adds a poll's worth of short-lived garbage. With the default GOGC
// alone the heap grows to twice what is live before a collection, so the
// process holds about twice the memory it uses. While the UI runs,
// kgroups sets a soft memory limit (debug.SetMemoryLimit) a little above
// what it keeps: the live heap after the last collection, the space lost
// inside the heap's spans, the runtime's own memory (stacks, GC metadata),
// and headroom of a quarter of the live heap, at least heapHeadroom. It is derived again every memLimitEvery, so it
// follows the cluster's size. GOGC stays as it is and still applies below
// the limit. GOMEMLIMIT in the environment wins: kgroups then sets nothing.
const (
	heapHeadroom  = 16 << 20
	memLimitEvery = time.Second
)

var memSamples = []metrics.Sample{
	{Name: "/gc/heap/live:bytes"},
	{Name: "/memory/classes/total:bytes"},
	{Name: "/memory/classes/heap/objects:bytes"},
	{Name: "/memory/classes/heap/unused:bytes"},
	{Name: "/memory/classes/heap/free:bytes"},
	{Name: "/memory/classes/heap/released:bytes"},
}

// memoryLimit is the limit for the runtime's current figures: the live
// heap, headroom, and the memory the runtime holds outside the heap.
func memoryLimit() int64 {
	metrics.Read(memSamples)
	v := func(i int) uint64 {
		if memSamples[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return memSamples[i].Value.Uint64()
	}
	live, total, unused := v(0), v(1), v(3)
	heap := v(2) + unused + v(4) + v(5)
	var runtimeOwn uint64
	if total > heap {
		runtimeOwn = total - heap
	}
	limit := live + max(live/4, heapHeadroom) + unused + runtimeOwn
	return int64(min(limit, math.MaxInt64))
}

// keepMemoryNearLive sets the soft memory limit until ctx ends, then lifts
// it. It returns at once; getenv reads GOMEMLIMIT.
func keepMemoryNearLive(ctx context.Context, getenv func(string) string) {
	if getenv("GOMEMLIMIT") != "" {
		return
	}
	// The first limit comes a moment after the start, once the first
	// poll has given the heap its size.
	go func() {
		t := time.NewTicker(memLimitEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				debug.SetMemoryLimit(math.MaxInt64)
				return
			case <-t.C:
				debug.SetMemoryLimit(memoryLimit())
			}
		}
	}()
}
