package kafka_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// BenchmarkPoll measures one warm poll of a cluster with 10, 200 and 1,000
// Empty groups (each with commits on two 6-partition topics), and reports
// the requests a poll sends: that number must not grow with the groups.
func BenchmarkPoll(b *testing.B) {
	for _, groups := range []int{10, 200, 1000} {
		b.Run(fmt.Sprintf("groups=%d", groups), func(b *testing.B) {
			c := kafkatest.NewCluster(b)
			c.CreateTopic(b, "t1", 6)
			c.CreateTopic(b, "t2", 6)
			for i := range groups {
				c.Commit(b, fmt.Sprintf("group-%04d", i), map[string]map[int32]int64{"t1": {int32(i % 6): 0}, "t2": {int32(i % 6): 0}})
			}
			rc := &requestCounter{n: map[int16]int{}}
			cl := c.Client(b, kgo.WithHooks(rc))
			ctx := context.Background()
			if _, err := cl.Poll(ctx); err != nil {
				b.Fatal(err)
			}
			rc.take()
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				s, err := cl.Poll(ctx)
				if err != nil {
					b.Fatal(err)
				}
				if len(s.Groups) != groups {
					b.Fatalf("polled %d groups, want %d", len(s.Groups), groups)
				}
			}
			b.StopTimer()
			total := 0
			for _, n := range rc.take() {
				total += n
			}
			b.ReportMetric(float64(total)/float64(b.N), "requests/op")
		})
	}
}
