package diagnose_test

import (
	"context"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// TestRetentionMaxAge: a Reader keeps retention.ms for RetentionMaxAge and
// reads it again after, with one DescribeConfigs for every topic due.
func TestRetentionMaxAge(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "a", 1)
	c.CreateTopic(t, "b", 1)
	rc := &requestCounter{n: map[int16]int{}}
	cl := c.Client(t, kgo.WithHooks(rc))
	now := time.Unix(1_700_000_000, 0)
	r := diagnose.NewReader(cl)
	r.RetentionMaxAge = 5 * time.Minute
	r.Now = func() time.Time { return now }
	ctx := context.Background()
	read := func(want int) {
		t.Helper()
		got, err := r.Retention(ctx, []string{"a", "b"})
		if err != nil {
			t.Fatal(err)
		}
		if got["a"] != 604800000 || got["b"] != 604800000 {
			t.Errorf("retention = %v, want 604800000 for a and b", got)
		}
		if n := rc.take()["DescribeConfigs"]; n != want {
			t.Errorf("%d DescribeConfigs requests, want %d", n, want)
		}
	}
	read(1)
	now = now.Add(5*time.Minute - time.Second)
	read(0)
	now = now.Add(time.Second)
	read(1)
}
