package main

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/kgroups/kgroups/cmd/benchseed"
)

// BenchmarkLiveUI runs the poll → history → screens path of the real UI
// (tui.Run on a pty, polling an in-process cluster) and reports, per
// iteration, the time from the first poll's result to the first frame
// listing groups, and the live heap the UI keeps after 12 polls a second
// apart (the cluster's excluded), a committed partition's share of it, and
// how many polls are still alive (one: nothing keeps two). The binary's
// RSS, CPU and bytes on the wire are `go run ./cmd/uibench`'s.
func BenchmarkLiveUI(b *testing.B) {
	if testing.Short() {
		b.Skip("polls a cluster of thousands of groups for seconds")
	}
	if runtime.GOOS != "linux" {
		b.Skip("the UI runs on a pty: Linux only")
	}
	b.Setenv("TERM", "xterm-256color")
	for _, groups := range []int{2000, 10000} {
		b.Run(fmt.Sprintf("groups=%d", groups), func(b *testing.B) {
			ctx := context.Background()
			l := benchseed.Layout{Groups: groups, Topics: 20, Partitions: 12}
			c, err := startCluster(ctx, l, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer c.close()
			var frame time.Duration
			var kept uint64
			var alive int64
			for b.Loop() {
				if frame, err = firstFrame(ctx, c, 120, 40); err != nil {
					b.Fatal(err)
				}
				if kept, alive, err = retainedHeap(ctx, c, 120, 40, 12, time.Second, ""); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(frame)/float64(time.Millisecond), "first-frame-ms")
			b.ReportMetric(float64(kept)/(1<<20), "kept-MiB")
			b.ReportMetric(float64(kept)/float64(groups*l.Partitions), "kept-B/partition")
			b.ReportMetric(float64(alive), "polls-alive")
		})
	}
}
