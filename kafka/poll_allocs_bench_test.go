package kafka_test

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// floorCluster is the cluster: 2,000 Empty groups over 20 topics of
// 12 partitions, group i committing every partition of topic i mod 20, so
// 24,000 partitions carry a commit. Each partition holds 3 records; group
// i commits at 3 − (i mod 4 capped at 3).
func floorCluster(b testing.TB, groups int) *kafkatest.Cluster {
	b.Helper()
	const topics, partitions = 20, 12
	c := kafkatest.NewCluster(b)
	for t := range topics {
		c.CreateTopic(b, fmt.Sprintf("topic-%02d", t), partitions)
	}
	for t := range topics {
		for p := range partitions {
			c.Produce(b, fmt.Sprintf("topic-%02d", t), int32(p), 3, time.Time{})
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, groups)
	work := make(chan int)
	for range 8 {
		wg.Go(func() {
			for i := range work {
				os := make(kadm.Offsets)
				for p := range partitions {
					os.AddOffset(fmt.Sprintf("topic-%02d", i%topics), int32(p), int64(max(0, 3-i%4)), -1)
				}
				ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
				resp, err := c.Admin().CommitOffsets(ctx, fmt.Sprintf("group-%05d", i), os)
				cancel()
				if err == nil {
					err = resp.Error()
				}
				if err != nil {
					errs <- err
				}
			}
		})
	}
	for i := range groups {
		work <- i
	}
	close(work)
	wg.Wait()
	close(errs)
	for err := range errs {
		b.Fatalf("commit: %v", err)
	}
	return c
}

// floorPoll is the bare reads a poll cannot do without, through kadm, with
// the results discarded: ListGroups, DescribeGroups, FetchManyOffsets,
// ListStartOffsets and ListEndOffsets. (kgroups also reads the metadata and
// the last stable offsets, one more ListOffsets per leader.)
func floorPoll(ctx context.Context, adm *kadm.Client, topics []string) error {
	listed, err := adm.ListGroups(ctx)
	if err != nil {
		return err
	}
	names := listed.Groups()
	if _, err := adm.DescribeGroups(ctx, names...); err != nil {
		return err
	}
	fetched := adm.FetchManyOffsets(ctx, names...)
	if err := fetched.Error(); err != nil {
		return err
	}
	if _, err := adm.ListStartOffsets(ctx, topics...); err != nil {
		return err
	}
	_, err = adm.ListEndOffsets(ctx, topics...)
	return err
}

// allocatedBy is the bytes the process allocated while f ran n times,
// divided by n.
func allocatedBy(n int, f func()) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range n {
		f()
	}
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
}

// BenchmarkPollAllocs compares what one warm poll of 2,000 and of 10,000
// groups (24,000 and 120,000 committed partitions) allocates with the
// floor's bare kadm reads on the same cluster: B/op is kgroups' Poll;
// floor-B/op the floor's, measured in the same process; x-floor their
// ratio (target at 2,000 groups: at most 2). Both include what the
// in-process brokers allocate to answer.
func BenchmarkPollAllocs(b *testing.B) {
	for _, groups := range []int{2000, 10000} {
		b.Run(fmt.Sprintf("groups=%d", groups), func(b *testing.B) { benchmarkPollAllocs(b, groups) })
	}
}

func benchmarkPollAllocs(b *testing.B, groups int) {
	b.Helper()
	c := floorCluster(b, groups)
	ctx := context.Background()
	cl := c.Client(b)
	fcl, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...), kgo.MetadataMinAge(250*time.Millisecond))
	if err != nil {
		b.Fatal(err)
	}
	defer fcl.Close()
	adm := kadm.NewClient(fcl)
	topics := make([]string, 20)
	for t := range topics {
		topics[t] = fmt.Sprintf("topic-%02d", t)
	}
	floorErr := func() {
		if err := floorPoll(ctx, adm, topics); err != nil {
			b.Fatal(err)
		}
	}
	poll := func() {
		s, err := cl.Poll(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if len(s.Groups) != groups {
			b.Fatalf("polled %d groups, want %d", len(s.Groups), groups)
		}
	}
	// Warm both: connections, coordinators and metadata cached.
	for range 2 {
		floorErr()
		poll()
	}
	floor := allocatedBy(5, floorErr)
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	n := 0
	for b.Loop() {
		poll()
		n++
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(floor, "floor-B/op")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(n)/floor, "x-floor")
}
