package main

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/kafka/reset"
)

// TestLaterClient: the poller of a UI opened while nothing listened says
// why each poll fails, connects once a cluster listens, and its writers
// use that connection; after Close it connects no more.
func TestLaterClient(t *testing.T) {
	isolateConfig(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	ports := make([]int, 3)
	var first string
	for i := range ports {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ports[i] = ln.Addr().(*net.TCPAddr).Port
		if i == 0 {
			first = ln.Addr().String()
		}
		_ = ln.Close()
	}
	cc := config.Cluster{Name: config.AdHocContext, Brokers: []string{first}, RequestTimeout: 5 * time.Second}
	l := &laterClient{cc: cc}
	w := laterWriters(cc, l)
	d := &laterDiagnosis{l: l}
	ctx := context.Background()
	wants := diagnose.Wants{Retention: []string{"orders"}, Records: []kafka.CommitKey{{Topic: "orders", Partition: 0, Offset: 3}}}
	if _, err := d.Read(ctx, wants); err == nil || !strings.HasPrefix(err.Error(), "connection refused by ") {
		t.Fatalf("diagnosis read with nothing listening: %v", err)
	}

	_, err := l.Poll(ctx)
	if want := "connection refused by " + first + " (tried " + first + "): nothing listens there; check the brokers setting and that Kafka is running"; err == nil || err.Error() != want {
		t.Fatalf("poll with nothing listening: %v\nwant %s", err, want)
	}
	if _, err := w.Reset.Plan(ctx, reset.Request{Group: "g", Scenario: reset.Scenario{Kind: reset.ToEarliest}, Scope: reset.Scope{AllTopics: true}}); err == nil || !strings.HasPrefix(err.Error(), "connection refused by ") {
		t.Fatalf("plan with nothing listening: %v", err)
	}

	c := kafkatest.NewCluster(t, kfake.Ports(ports...))
	c.CreateTopic(t, "orders", 2)
	c.Produce(t, "orders", 0, 4, time.Now())
	c.Commit(t, "g", map[string]map[int32]int64{"orders": {0: 3}})
	snap, err := l.Poll(ctx)
	if err != nil {
		t.Fatalf("poll once the cluster listens: %v", err)
	}
	if g, ok := snap.Group("g"); !ok || len(g.Partitions) != 1 || g.Partitions[0].Committed != 3 {
		t.Fatalf("group g in the snapshot: %+v", g)
	}
	p, err := w.Reset.Plan(ctx, reset.Request{Group: "g", Scenario: reset.Scenario{Kind: reset.ToEarliest}, Scope: reset.Scope{AllTopics: true}})
	if err != nil {
		t.Fatalf("plan: %v", err)
	}
	if len(p.Rows) != 1 || p.Rows[0].Current != 3 || p.Rows[0].New != 0 {
		t.Fatalf("plan rows = %+v", p.Rows)
	}

	reads, err := d.Read(ctx, wants)
	if err != nil {
		t.Fatalf("diagnosis read: %v", err)
	}
	if got := reads.Retention["orders"]; got != 604800000 {
		t.Errorf("retention.ms of orders = %d, want kfake's default 604800000", got)
	}
	if r := reads.Records[wants.Records[0]]; r.Err != nil || r.Offset != 3 || string(r.Value) != "v3" {
		t.Errorf("record at orders/0@3 = %+v, want offset 3 value v3", r)
	}

	l.Close()
	if _, err := d.Read(ctx, wants); !errors.Is(err, errUIClosed) {
		t.Fatalf("diagnosis read after Close: %v", err)
	}
	if _, err := l.Poll(ctx); !errors.Is(err, errUIClosed) {
		t.Fatalf("poll after Close: %v", err)
	}
}
