package diagnose_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// TestDiagnosisRequestsDoNotGrowWithGroups runs a whole diagnosis (polls,
// exact reads, producers and transactions of the partitions behind an open
// transaction, retention, records) over 10 groups and over 60 groups that
// sit on the same partitions at the same offsets, and requires the same
// number of requests of every kind (Fetch within a bound): the cost follows brokers and flagged
// partitions, not groups.
func TestDiagnosisRequestsDoNotGrowWithGroups(t *testing.T) {
	counts := func(groups int) map[string]int {
		c := kafkatest.NewCluster(t, kfake.BrokerConfigs(map[string]string{"transaction.max.timeout.ms": "3600000"}))
		c.CreateTopic(t, "t", 3)
		for p := range int32(3) {
			c.Produce(t, "t", p, 20, time.Now().Add(-time.Minute))
		}
		ctx := context.Background()
		txp, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...), kgo.TransactionalID("tx"),
			kgo.TransactionTimeout(30*time.Minute), kgo.RecordPartitioner(kgo.ManualPartitioner()))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(txp.Close)
		if err := txp.BeginTransaction(); err != nil {
			t.Fatal(err)
		}
		if err := txp.ProduceSync(ctx, &kgo.Record{Topic: "t", Partition: 1, Value: []byte("open")}).FirstErr(); err != nil {
			t.Fatal(err)
		}
		names := make([]string, groups)
		for i := range names {
			names[i] = fmt.Sprintf("group-%03d", i)
			c.Commit(t, names[i], map[string]map[int32]int64{"t": {0: 5, 1: 20, 2: 2}})
		}
		rc := &requestCounter{n: map[int16]int{}}
		cl := c.Client(t, kgo.WithHooks(rc))
		got, _ := runDiagnosis(t, cl, names, 4)
		for _, n := range names {
			if ids := ids(got[n]); len(ids) != 1 || ids[0] != "ERR stuck-behind-open-transaction" {
				t.Fatalf("%s findings %v", n, ids)
			}
		}
		return rc.take()
	}
	few, many := counts(10), counts(60)
	t.Logf("10 groups: %v", few)
	t.Logf("60 groups: %v", many)
	for _, key := range []string{"ListOffsets", "DescribeProducers", "ListTransactions", "DescribeTransactions", "DescribeConfigs", "OffsetFetch", "DescribeGroups"} {
		if few[key] != many[key] {
			t.Errorf("%s: %d requests for 10 groups, %d for 60", key, few[key], many[key])
		}
	}
	// A direct consumer's Fetch count depends on timing (an empty
	// answer before the data is there is fetched again), so it is
	// bounded rather than compared: the records read are the same three
	// partitions, one per broker, for 10 groups and for 60.
	for _, n := range []int{few["Fetch"], many["Fetch"]} {
		if n == 0 || n > 12 {
			t.Errorf("Fetch: %d requests, want 1..12 (a few per broker)", n)
		}
	}
	if few["DescribeProducers"] == 0 || few["DescribeProducers"] > 3 {
		t.Errorf("DescribeProducers: %d requests, want 1..3 (one per leader of a flagged partition)", few["DescribeProducers"])
	}
}
