package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/fixture"
	"github.com/kgroups/kgroups/views/render/metrics"
)

// wideClusterAt is a poll of groups groups, each with one member and
// parts partitions over three topics, at fixture.Epoch plus poll
// intervals, with the offsets of poll moved: every third group lags and,
// with moved = poll, grows. A fixed moved is a cluster at rest, every
// third group lagging by a fixed number of records whose time lag grows
// with the clock.
func wideClusterAt(groups, parts, poll, moved int) *kafka.Snapshot {
	s := &kafka.Snapshot{Time: fixture.Epoch.Add(time.Duration(poll) * 5 * time.Second), Brokers: fixture.Brokers, OffsetsTopicPartitions: 50, Groups: make([]kafka.Group, groups)}
	for i := range s.Groups {
		name := fmt.Sprintf("group-%05d", i)
		m := fixture.Member(name+"-member-1", "", name, "/10.1.0.1", "topic-"+name)
		g := kafka.Group{Name: name, Type: kafka.TypeClassic, ProtocolType: "consumer", State: kafka.StateStable,
			Assignor: "range", Coordinator: fixture.Brokers[i%3], OffsetsPartition: int32(i % 50), Members: []kafka.Member{m}}
		g.Partitions = make([]kafka.PartitionOffsets, 0, parts)
		for p := range parts {
			topic := fmt.Sprintf("topic-%05d-%d", i, p%3)
			end := int64(1000*i + 100*moved)
			committed := end
			if i%3 == 0 {
				committed = int64(1000*i + 90*moved)
			}
			g.Partitions = append(g.Partitions, fixture.Part(topic, int32(p/3), committed, 0, end, &m))
		}
		sort.Slice(g.Partitions, func(a, b int) bool {
			pa, pb := &g.Partitions[a], &g.Partitions[b]
			return pa.Topic < pb.Topic || pa.Topic == pb.Topic && pa.Partition < pb.Partition
		})
		s.Groups[i] = g
	}
	return s
}

// wideExporter is an exporter over wideCluster polls, polled polls
// times.
func wideExporter(tb testing.TB, groups, parts, polls int, o serveOptions) (*exporter, *atomic.Int32) {
	tb.Helper()
	return wideExporterOf(tb, groups, parts, polls, o, false)
}

// wideExporterOf is wideExporter, over a cluster at rest when rest is
// set: its offsets stay those of the first poll while the clock runs.
func wideExporterOf(tb testing.TB, groups, parts, polls int, o serveOptions, rest bool) (*exporter, *atomic.Int32) {
	tb.Helper()
	var n atomic.Int32
	poll := func(context.Context) (*kafka.Snapshot, error) {
		p := int(n.Add(1))
		moved := p
		if rest {
			moved = 1
		}
		return wideClusterAt(groups, parts, p, moved), nil
	}
	if o.interval == 0 {
		o.interval = 5 * time.Second
	}
	o.timeout = time.Minute
	e := newExporter(o, poll, nil, [2]string{"bench", "go"})
	for range polls {
		e.pollOnce(context.Background())
	}
	return e, &n
}

// TestServeTenThousandGroups: 10,000 groups of 12 partitions under a cap
// they do not fit: the series stay within it, what was left out is
// counted, and the exposition parses.
func TestServeTenThousandGroups(t *testing.T) {
	// Parallel: it changes no process-wide state (environment, working
	// directory, memory limit), so it runs beside the other parallel
	// tests once the sequential ones are done, instead of after them.
	t.Parallel()
	const limit = 50000
	e, _ := wideExporter(t, 10000, 12, 2, serveOptions{maxSeries: limit})
	var notes []string
	e.note = func(s string) { notes = append(notes, s) }
	e.lastDropped = 0
	e.pollOnce(context.Background())
	fams := parseExposition(t, e.page.Load().text.bytes())
	series := int(single(fams, "kgroups_series"))
	dropped := single(fams, "kgroups_series_dropped_total")
	if series == 0 || series > limit || single(fams, "kgroups_groups_dropped") == 0 || !(dropped > 0) {
		t.Fatalf("series %d (cap %d), dropped %v, groups dropped %v", series, limit, dropped, single(fams, "kgroups_groups_dropped"))
	}
	n := 0
	for name, f := range fams {
		if strings.HasPrefix(name, "kgroups_group_") {
			n += len(f.Metric)
		}
	}
	if n != series {
		t.Errorf("the exposition holds %d group series, kgroups_series says %d", n, series)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "the series cap of 50000 leaves out") {
		t.Errorf("notes %q", notes)
	}
}

// BenchmarkServeScrape is the server's side of one scrape of /metrics at
// 10,000 groups of 12 partitions (120,000 partitions) while polls run
// back to back on another goroutine; p99-ms is the 99th percentile of the
// scrapes.
func BenchmarkServeScrape(b *testing.B) {
	for _, gr := range []metrics.Granularity{metrics.ByGroup, metrics.ByPartition} {
		b.Run(gr.String(), func(b *testing.B) {
			e, _ := wideExporter(b, 10000, 12, 2, serveOptions{granularity: gr})
			h := e.handler()
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				for ctx.Err() == nil {
					e.pollOnce(ctx)
				}
			}()
			durs := make([]time.Duration, 0, b.N)
			var size int
			req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				w := &countingWriter{header: http.Header{}}
				h.ServeHTTP(w, req)
				durs = append(durs, time.Since(start))
				size = w.n
			}
			b.StopTimer()
			cancel()
			wg.Wait()
			sort.Slice(durs, func(i, j int) bool { return durs[i] < durs[j] })
			b.ReportMetric(float64(durs[len(durs)*99/100].Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(size)/(1<<20), "MiB/scrape")
		})
	}
}

// countingWriter is a ResponseWriter that counts the body: the server's
// side of a scrape, without a client's buffer growing.
type countingWriter struct {
	header http.Header
	n      int
}

func (w *countingWriter) Header() http.Header { return w.header }
func (w *countingWriter) WriteHeader(int)     {}
func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += len(p)
	return len(p), nil
}

// BenchmarkServePoll is one judged poll and its rendering at 10,000
// groups of 12 partitions: the tracker's judging, the findings, the
// families and their encoding; cpu-ms is the process's CPU time per
// poll (user and system, every goroutine). group-at-rest is the same
// cluster with no offset moving, as the benches' seeded clusters are.
func BenchmarkServePoll(b *testing.B) {
	for _, bc := range []struct {
		gr   metrics.Granularity
		rest bool
	}{{metrics.ByGroup, false}, {metrics.ByPartition, false}, {metrics.ByGroup, true}} {
		name := bc.gr.String()
		if bc.rest {
			name += "-at-rest"
		}
		b.Run(name, func(b *testing.B) {
			warm := 2
			if bc.rest {
				warm = 70 // past the rings: what a poll costs once serve has run a while
			}
			e, _ := wideExporterOf(b, 10000, 12, warm, serveOptions{granularity: bc.gr}, bc.rest)
			var before, after syscall.Rusage
			_ = syscall.Getrusage(syscall.RUSAGE_SELF, &before)
			b.ResetTimer()
			for range b.N {
				e.pollOnce(context.Background())
			}
			b.StopTimer()
			_ = syscall.Getrusage(syscall.RUSAGE_SELF, &after)
			cpu := time.Duration(after.Utime.Nano()-before.Utime.Nano()) + time.Duration(after.Stime.Nano()-before.Stime.Nano())
			b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/poll")
			b.ReportMetric(single(parseExposition(b, e.page.Load().text.bytes()), "kgroups_series"), "series")
		})
	}
}

// BenchmarkServeScrapeHTTP is one scrape as a scraper sees it: over
// loopback HTTP, the body read whole, at 10,000 groups of 12 partitions
// while polls run back to back.
func BenchmarkServeScrapeHTTP(b *testing.B) {
	for _, gr := range []metrics.Granularity{metrics.ByGroup, metrics.ByPartition} {
		b.Run(gr.String(), func(b *testing.B) {
			e, _ := wideExporter(b, 10000, 12, 2, serveOptions{granularity: gr})
			srv := httptest.NewServer(e.handler())
			defer srv.Close()
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				for ctx.Err() == nil {
					e.pollOnce(ctx)
				}
			}()
			client := srv.Client()
			durs := make([]time.Duration, 0, b.N)
			var size int64
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				resp, err := client.Get(srv.URL + "/metrics")
				if err != nil {
					b.Fatal(err)
				}
				size, err = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
				if err != nil {
					b.Fatal(err)
				}
				durs = append(durs, time.Since(start))
			}
			b.StopTimer()
			cancel()
			wg.Wait()
			sort.Slice(durs, func(i, j int) bool { return durs[i] < durs[j] })
			b.ReportMetric(float64(durs[len(durs)*99/100].Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(size)/(1<<20), "MiB/scrape")
		})
	}
}
