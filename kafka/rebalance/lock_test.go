package rebalance

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/kafka/receipt"
)

// While another kgroups holds the group's lock, a removal is refused
// naming the holder's pid, and nothing is written or sent.
func TestServiceRemoveRefusedWhileLocked(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 2)
	cl := c.Client(t)
	const group = "locked"
	c.Join(t, group, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()))
	gi := c.WaitStable(t, group, 1, 2)
	before := settledGroup(t, cl, group, 1, 2)
	leaves := c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.LeaveGroup}, Observe: true, Count: -1})
	p, err := PlanRemoval(before, Selection{All: true}, "")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "receipts")
	held, err := receipt.LockGroup(context.Background(), dir, lockCluster(t, cl), group)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = held.Unlock() }()

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	svc := &Service{Client: cl, ReceiptDir: dir}
	removal, err := svc.Remove(ctx, p)
	var le *receipt.LockedError
	if !errors.As(err, &le) || removal != nil || !strings.Contains(err.Error(), `group "locked" is being changed by another kgroups (pid `+strconv.Itoa(os.Getpid())+" on ") {
		t.Fatalf("err %v removal %+v; want a refusal naming pid %d", err, removal, os.Getpid())
	}
	if n := leaves.Hits(); n != 0 {
		t.Fatalf("%d LeaveGroup requests sent while locked", n)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("receipts folder holds %v, want the lock file alone", entries)
	}
	if after := c.GroupInfo(group); after.Epoch != gi.Epoch {
		t.Fatalf("group changed: before %+v after %+v", gi, after)
	}
}

// lockCluster is the cluster as the writers' locks name it: by its id.
func lockCluster(t *testing.T, cl *kafka.Client) receipt.Cluster {
	t.Helper()
	id, err := cl.ClusterID(context.Background())
	if err != nil || id == "" {
		t.Fatalf("cluster id %q: %v", id, err)
	}
	return receipt.Cluster{ID: id, Brokers: cl.Brokers()}
}
