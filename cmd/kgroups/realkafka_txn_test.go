//go:build realkafka

package main

import (
	"context"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka/realkafka"
)

// TestRealOpenTransaction describes a group held back by an open
// transaction on a real broker: kgroups' Kafka columns equal
// kafka-consumer-groups.sh's, and its LAST-STABLE-OFFSET is the first
// offset of the open transaction, LSO-LAG the records a read_committed
// consumer can read before it.
func TestRealOpenTransaction(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	c := realkafka.Start(t, "", 1)
	topic, group := c.Name("tx"), c.Name("tx-g")
	c.CreateTopic(t, topic, 1)
	c.Produce(t, topic, 0, 5, time.Time{}) // offsets 0..4, not transactional

	ctx, cancel := context.WithTimeout(context.Background(), realkafka.Wait)
	defer cancel()
	tx, err := kgo.NewClient(kgo.SeedBrokers(c.Brokers()...), kgo.TransactionalID(c.Name("tx-producer")),
		kgo.TransactionTimeout(5*time.Minute), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tx.Close)
	if err := tx.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	for i := range 3 { // offsets 5..7, in a transaction left open
		r := &kgo.Record{Topic: topic, Partition: 0, Value: []byte{byte(i)}}
		if err := tx.ProduceSync(ctx, r).FirstErr(); err != nil {
			t.Fatalf("transactional produce: %v", err)
		}
	}
	c.Commit(t, group, map[string]map[int32]int64{topic: {0: 2}})

	want, err := realkafka.KafkaRows(c.Groups(t, "--describe", "--group", group))
	if err != nil || len(want) != 1 {
		t.Fatalf("kafka-consumer-groups.sh: %v %v", want, err)
	}
	if end, _ := want[0].Get("LOG-END-OFFSET"); end != "8" {
		t.Fatalf("Kafka: log end %s, want 8", end)
	}
	code, out, errOut := kg(t, "-b", c.Bootstrap, "describe", group)
	if code != 0 {
		t.Fatalf("kgroups describe exited %d:\n%s%s", code, out, errOut)
	}
	got, err := realkafka.Rows(out)
	if err != nil {
		t.Fatal(err)
	}
	if d := realkafka.Same(got, want, exact); d != "" {
		t.Errorf("kgroups describe differs from kafka-consumer-groups.sh:\n%s", d)
	}
	if len(got) == 1 {
		lso, _ := got[0].Get("LAST-STABLE-OFFSET")
		lsoLag, _ := got[0].Get("LSO-LAG")
		if lso != "5" || lsoLag != "3" {
			t.Errorf("kgroups LAST-STABLE-OFFSET %q LSO-LAG %q, want 5 and 3 (an open transaction from offset 5, a commit at 2):\n%s", lso, lsoLag, out)
		}
	}
}
