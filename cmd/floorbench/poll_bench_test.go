package main

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
)

// BenchmarkPollAgainstFloor compares, in one process against the default
// cluster (2,000 Empty groups, 24,000 committed partitions), the floor's
// reads on a new kadm client with what every kgroups command starts with:
// kafka.Connect and one Poll. The cluster runs in the same process, so its
// work is counted in both; -benchmem gives the bytes each allocates, and
// -cpuprofile shows where the poll's time goes. ms-after-answers/op is the
// time from the last answer received to the end of the reads: what the
// client does with the answers once it has them all.
func BenchmarkPollAgainstFloor(b *testing.B) {
	s := shape{groups: 2000, topics: 20, partitions: 12, records: 10}
	ctx := context.Background()
	c, err := seed(ctx, s)
	if err != nil {
		b.Fatal(err)
	}
	defer c.close()
	var last lastAnswer
	poll := func(b *testing.B) {
		b.Helper()
		cl, err := kafka.Connect(ctx, config.Cluster{Brokers: c.addrs}, kgo.WithHooks(&last))
		if err != nil {
			b.Fatal(err)
		}
		snap, err := cl.Poll(ctx)
		last.done()
		cl.Close()
		if err != nil {
			b.Fatal(err)
		}
		if len(snap.Groups) != s.groups {
			b.Fatalf("polled %d groups, want %d", len(snap.Groups), s.groups)
		}
	}
	// The first reads after seeding are slow while the brokers settle:
	// a few of each first.
	for range 5 {
		if _, err := floorOn(ctx, c.addrs); err != nil {
			b.Fatal(err)
		}
		poll(b)
	}
	runtime.GC()
	b.Run("floor", func(b *testing.B) {
		b.ReportAllocs()
		last.reset()
		for b.Loop() {
			n, err := floorOn(ctx, c.addrs, kgo.WithHooks(&last))
			last.done()
			if err != nil {
				b.Fatal(err)
			}
			if n.committed != s.committedPartitions() {
				b.Fatalf("floor read %d commits, want %d", n.committed, s.committedPartitions())
			}
		}
		last.report(b)
	})
	b.Run("kgroups-poll", func(b *testing.B) {
		b.ReportAllocs()
		last.reset()
		for b.Loop() {
			poll(b)
		}
		last.report(b)
	})
}

// lastAnswer keeps when the last answer to any request arrived, and adds up
// the time from it to the end of each round of reads.
type lastAnswer struct {
	mu     sync.Mutex
	at     time.Time
	after  time.Duration
	rounds int
}

func (l *lastAnswer) OnBrokerE2E(_ kgo.BrokerMetadata, _ int16, _ kgo.BrokerE2E) {
	l.mu.Lock()
	l.at = time.Now()
	l.mu.Unlock()
}

// done ends a round of reads.
func (l *lastAnswer) done() {
	l.mu.Lock()
	l.after += time.Since(l.at)
	l.rounds++
	l.mu.Unlock()
}

func (l *lastAnswer) reset() {
	l.mu.Lock()
	l.after, l.rounds = 0, 0
	l.mu.Unlock()
}

func (l *lastAnswer) report(b *testing.B) {
	b.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.rounds > 0 {
		b.ReportMetric(float64(l.after)/float64(l.rounds)/float64(time.Millisecond), "ms-after-answers/op")
	}
}

var _ kgo.HookBrokerE2E = (*lastAnswer)(nil)
