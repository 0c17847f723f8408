package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/views/screens/record"
)

// TestRecordViewerOnKfake opens the viewer with v on a real group, through
// the root and the real kafka client: the record at the commit is shown,
// and n reaches a record of a transaction left open, named as open.
func TestRecordViewerOnKfake(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 1)
	c.Produce(t, "orders", 0, 3, time.Now().Add(-time.Minute)) // values v0 v1 v2
	p, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...), kgo.TransactionalID("tx-open"),
		kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.TransactionTimeout(60*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	ctx, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	defer cancel()
	if err := p.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	if err := p.ProduceSync(ctx, &kgo.Record{Topic: "orders", Partition: 0, Key: []byte("k3"), Value: []byte(`{"pending":true}`)}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	c.Commit(t, "g", map[string]map[int32]int64{"orders": {0: 2}})

	cl := c.Client(t)
	h := newHarness(t, 120, 40, Options{Poller: cl})
	h.poll()
	h.press("enter", "v") // open g, the only group; view orders/0
	if _, ok := h.m.top().(*record.Model); !ok {
		t.Fatalf("top is %T, want the record viewer", h.m.top())
	}
	v := h.view()
	for _, want := range []string{"committed 2 · log 0..4", "offset       2", "value        text, 2 bytes", "  v2"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q in\n%s", want, v)
		}
	}
	h.press("n")
	v = h.view()
	for _, want := range []string{"offset       3", "key          k3", "transaction  open", `    "pending": true`} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q in\n%s", want, v)
		}
	}
}
