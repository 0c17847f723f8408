package kafka_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// TestHeadlineOfAStalePoll: once the cluster is gone, a poll fails with
// kgo's words for it; the status line's headline names the broker that
// refused, whichever request failed.
func TestHeadlineOfAStalePoll(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 1)
	c.Commit(t, "g", map[string]map[int32]int64{"orders": {0: 0}})
	cl, err := kafka.Connect(context.Background(), config.Cluster{Name: "x", Brokers: c.Addrs[:1], RequestTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if _, err := cl.Poll(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.Close()
	// The first poll may see the connections close (EOF); the next ones
	// dial and are refused.
	var got string
	kafkatest.Eventually(t, "a refused poll", func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
		defer cancel()
		_, err := cl.Poll(ctx)
		if err == nil {
			return false
		}
		got = kafka.Headline(err)
		return got != err.Error()
	})
	want := map[string]bool{}
	for _, a := range c.Addrs {
		want["connection refused by "+a] = true
	}
	if !want[got] {
		t.Fatalf("headline %q, want connection refused by one of %v", got, c.Addrs)
	}
	if other := errors.New("list groups: NOT_COORDINATOR"); kafka.Headline(other) != other.Error() {
		t.Fatalf("headline of another error = %q", kafka.Headline(other))
	}
}
