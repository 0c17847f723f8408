package metrics

import (
	"runtime"
	"runtime/debug"
	rtmetrics "runtime/metrics"
	"sort"
	"time"
)

// Self is the process's and the Go runtime's families, sorted by name:
// the names, HELP, types and meanings of the families Prometheus' Go and
// process collectors (client_golang's defaults) serve, which dashboards
// for Go programs expect (TestSelfAsTheCollectors). The process's are
// read from /proc on Linux, and left out elsewhere; a family that cannot
// be read is left out alone.
func Self() []*Family {
	fams := goFamilies()
	fams = append(fams, processFamilies()...)
	sort.Slice(fams, func(i, j int) bool { return fams[i].Name < fams[j].Name })
	return fams
}

// one is a family of one unlabelled sample.
func one(name, help string, typ MetricType, v float64) *Family {
	return &Family{Name: name, Help: help, Type: typ, Samples: []Sample{{Value: v}}}
}

// The runtime/metrics the Go families are read from.
var runtimeSamples = []string{
	"/gc/heap/allocs:bytes",                       // 0
	"/gc/heap/allocs:objects",                     // 1
	"/gc/heap/frees:objects",                      // 2
	"/gc/heap/tiny/allocs:objects",                // 3
	"/gc/heap/objects:objects",                    // 4
	"/gc/heap/goal:bytes",                         // 5
	"/memory/classes/total:bytes",                 // 6
	"/memory/classes/heap/objects:bytes",          // 7
	"/memory/classes/heap/unused:bytes",           // 8
	"/memory/classes/heap/released:bytes",         // 9
	"/memory/classes/heap/free:bytes",             // 10
	"/memory/classes/heap/stacks:bytes",           // 11
	"/memory/classes/os-stacks:bytes",             // 12
	"/memory/classes/metadata/mspan/inuse:bytes",  // 13
	"/memory/classes/metadata/mspan/free:bytes",   // 14
	"/memory/classes/metadata/mcache/inuse:bytes", // 15
	"/memory/classes/metadata/mcache/free:bytes",  // 16
	"/memory/classes/profiling/buckets:bytes",     // 17
	"/memory/classes/metadata/other:bytes",        // 18
	"/memory/classes/other:bytes",                 // 19
	"/gc/gogc:percent",                            // 20
	"/gc/gomemlimit:bytes",                        // 21
	"/sched/gomaxprocs:threads",                   // 22
}

// goFamilies is the Go runtime's: goroutines, threads, GC pauses, the
// memory statistics of runtime.MemStats (read from runtime/metrics, which
// stops no goroutine) and the GC and scheduler settings.
func goFamilies() []*Family {
	s := make([]rtmetrics.Sample, len(runtimeSamples))
	for i, name := range runtimeSamples {
		s[i].Name = name
	}
	rtmetrics.Read(s)
	v := func(i int) float64 {
		if s[i].Value.Kind() != rtmetrics.KindUint64 {
			return 0 // not in this Go version
		}
		return float64(s[i].Value.Uint64())
	}
	u := func(i int) uint64 {
		if s[i].Value.Kind() != rtmetrics.KindUint64 {
			return 0
		}
		return s[i].Value.Uint64()
	}
	// Each MemStats field as runtime/metrics gives it.
	tiny := u(3)
	heapAlloc := v(7)
	heapInuse := heapAlloc + v(8)
	heapIdle := v(9) + v(10)

	var gc debug.GCStats
	gc.PauseQuantiles = make([]time.Duration, 5)
	debug.ReadGCStats(&gc)
	pauses := make([]Quantile, len(gc.PauseQuantiles))
	for i, p := range gc.PauseQuantiles {
		pauses[i] = Quantile{Quantile: float64(i) / float64(len(gc.PauseQuantiles)-1), Value: p.Seconds()}
	}
	threads, _ := runtime.ThreadCreateProfile(nil)

	const G, C = Gauge, Counter
	ms := func(name, help string, typ MetricType, x float64) *Family {
		return one("go_memstats_"+name, help, typ, x)
	}
	return []*Family{
		{Name: "go_gc_duration_seconds", Help: "A summary of the wall-time pause (stop-the-world) duration in garbage collection cycles.", Type: Summary,
			Samples: []Sample{{Value: gc.PauseTotal.Seconds(), Quantiles: pauses, Count: uint64(gc.NumGC)}}},
		{Name: "go_gc_gogc_percent", Help: "Heap size target percentage configured by the user, otherwise 100. This value is set by the GOGC environment variable, and the runtime/debug.SetGCPercent function. Sourced from /gc/gogc:percent.", Unit: "percent", Type: G,
			Samples: []Sample{{Value: v(20)}}},
		{Name: "go_gc_gomemlimit_bytes", Help: "Go runtime memory limit configured by the user, otherwise math.MaxInt64. This value is set by the GOMEMLIMIT environment variable, and the runtime/debug.SetMemoryLimit function. Sourced from /gc/gomemlimit:bytes.", Unit: "bytes", Type: G,
			Samples: []Sample{{Value: v(21)}}},
		one("go_goroutines", "Number of goroutines that currently exist.", G, float64(runtime.NumGoroutine())),
		{Name: "go_info", Help: "Information about the Go environment.", Type: G,
			Samples: []Sample{{Labels: []Label{{Name: "version", Value: runtime.Version()}}, Value: 1}}},
		ms("alloc_bytes", "Number of bytes allocated in heap and currently in use. Equals to /memory/classes/heap/objects:bytes.", G, heapAlloc),
		ms("alloc_bytes_total", "Total number of bytes allocated in heap until now, even if released already. Equals to /gc/heap/allocs:bytes.", C, v(0)),
		ms("buck_hash_sys_bytes", "Number of bytes used by the profiling bucket hash table. Equals to /memory/classes/profiling/buckets:bytes.", G, v(17)),
		ms("frees_total", "Total number of heap objects frees. Equals to /gc/heap/frees:objects + /gc/heap/tiny/allocs:objects.", C, float64(u(2)+tiny)),
		ms("gc_sys_bytes", "Number of bytes used for garbage collection system metadata. Equals to /memory/classes/metadata/other:bytes.", G, v(18)),
		ms("heap_alloc_bytes", "Number of heap bytes allocated and currently in use, same as go_memstats_alloc_bytes. Equals to /memory/classes/heap/objects:bytes.", G, heapAlloc),
		ms("heap_idle_bytes", "Number of heap bytes waiting to be used. Equals to /memory/classes/heap/released:bytes + /memory/classes/heap/free:bytes.", G, heapIdle),
		ms("heap_inuse_bytes", "Number of heap bytes that are in use. Equals to /memory/classes/heap/objects:bytes + /memory/classes/heap/unused:bytes", G, heapInuse),
		ms("heap_objects", "Number of currently allocated objects. Equals to /gc/heap/objects:objects.", G, v(4)),
		ms("heap_released_bytes", "Number of heap bytes released to OS. Equals to /memory/classes/heap/released:bytes.", G, v(9)),
		ms("heap_sys_bytes", "Number of heap bytes obtained from system. Equals to /memory/classes/heap/objects:bytes + /memory/classes/heap/unused:bytes + /memory/classes/heap/released:bytes + /memory/classes/heap/free:bytes.", G, heapInuse+heapIdle),
		ms("last_gc_time_seconds", "Number of seconds since 1970 of last garbage collection.", G, float64(gc.LastGC.UnixNano())/1e9),
		ms("mallocs_total", "Total number of heap objects allocated, both live and gc-ed. Semantically a counter version for go_memstats_heap_objects gauge. Equals to /gc/heap/allocs:objects + /gc/heap/tiny/allocs:objects.", C, float64(u(1)+tiny)),
		ms("mcache_inuse_bytes", "Number of bytes in use by mcache structures. Equals to /memory/classes/metadata/mcache/inuse:bytes.", G, v(15)),
		ms("mcache_sys_bytes", "Number of bytes used for mcache structures obtained from system. Equals to /memory/classes/metadata/mcache/inuse:bytes + /memory/classes/metadata/mcache/free:bytes.", G, v(15)+v(16)),
		ms("mspan_inuse_bytes", "Number of bytes in use by mspan structures. Equals to /memory/classes/metadata/mspan/inuse:bytes.", G, v(13)),
		ms("mspan_sys_bytes", "Number of bytes used for mspan structures obtained from system. Equals to /memory/classes/metadata/mspan/inuse:bytes + /memory/classes/metadata/mspan/free:bytes.", G, v(13)+v(14)),
		ms("next_gc_bytes", "Number of heap bytes when next garbage collection will take place. Equals to /gc/heap/goal:bytes.", G, v(5)),
		ms("other_sys_bytes", "Number of bytes used for other system allocations. Equals to /memory/classes/other:bytes.", G, v(19)),
		ms("stack_inuse_bytes", "Number of bytes obtained from system for stack allocator in non-CGO environments. Equals to /memory/classes/heap/stacks:bytes.", G, v(11)),
		ms("stack_sys_bytes", "Number of bytes obtained from system for stack allocator. Equals to /memory/classes/heap/stacks:bytes + /memory/classes/os-stacks:bytes.", G, v(11)+v(12)),
		ms("sys_bytes", "Number of bytes obtained from system. Equals to /memory/classes/total:byte.", G, v(6)),
		{Name: "go_sched_gomaxprocs_threads", Help: "The current runtime.GOMAXPROCS setting, or the number of operating system threads that can execute user-level Go code simultaneously. Sourced from /sched/gomaxprocs:threads.", Unit: "threads", Type: G,
			Samples: []Sample{{Value: v(22)}}},
		one("go_threads", "Number of OS threads created.", G, float64(threads)),
	}
}
