package rebalance

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// A removal writes its receipt first: the whole membership as it was, which
// members were removed and how. Then the group settles without the removed
// member, which rejoins under a new id.
func TestServiceRemoveRecordsTheGroupFirst(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 4)
	cl := c.Client(t)
	const group = "receipted"
	a := c.Join(t, group, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()), kgo.ClientID("client-a"))
	c.Join(t, group, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()), kgo.ClientID("client-b"))
	c.WaitStable(t, group, 2, 4)
	before := settledGroup(t, cl, group, 2, 4)
	oldA := a.MemberID()

	p, err := PlanRemoval(before, Selection{MemberIDs: []string{oldA}}, "stuck consumer")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "receipts")
	at := time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC)
	svc := &Service{Client: cl, ReceiptDir: dir, Context: "prod", Now: func() time.Time { return at }}
	removal, err := svc.Remove(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	path, results := removal.Receipt, removal.Results
	if len(results) != 1 || results[0].Err != nil || results[0].Target.Member.MemberID != oldA {
		t.Fatalf("results = %+v, want %s removed", results, oldA)
	}
	if got := removal.Removed(); len(got) != 1 || got[0] != oldA {
		t.Fatalf("removed = %v, want [%s]", got, oldA)
	}
	if want := filepath.Join(dir, "20260301T093000.000Z-remove-members-receipted.json"); path != want {
		t.Fatalf("receipt path %q, want %q", path, want)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("receipt mode %v, want 0600", st.Mode().Perm())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r Receipt
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if r.Action != "remove-members" || r.Group != group || r.Context != "prod" || r.Reason != "stuck consumer" ||
		r.GroupState != "Stable" || r.Assignor != "range" || r.GroupType != "classic" || !r.Time.Equal(at) ||
		strings.Join(r.Cluster, ",") != strings.Join(c.Addrs, ",") || r.User == "" {
		t.Errorf("receipt header %+v", r)
	}
	if len(r.Members) != 2 {
		t.Fatalf("receipt has %d members, want both", len(r.Members))
	}
	parts := 0
	for _, m := range r.Members {
		removed := m.MemberID == oldA
		if m.Removed != removed || (removed && m.Method != ByMemberID) || (!removed && m.Method != "") {
			t.Errorf("member %s: removed %v method %q", m.MemberID, m.Removed, m.Method)
		}
		for _, tp := range m.Assignment {
			if tp.Topic != "orders" {
				t.Errorf("member %s has topic %q", m.MemberID, tp.Topic)
			}
			parts += len(tp.Partitions)
		}
	}
	if parts != 4 {
		t.Errorf("receipt records %d assigned partitions, want 4", parts)
	}

	// The group settles: a rejoined under a new id, b kept its own.
	out, err := svc.Wait(context.Background(), p, removal.Removed(), WaitOptions{Interval: 50 * time.Millisecond, Timeout: kafkatest.WaitTimeout})
	if err != nil {
		t.Fatal(err)
	}
	newA := a.MemberID()
	if !out.Settled || out.Short || out.After.State != "Stable" || len(out.After.Members) != 2 || newA == oldA {
		t.Fatalf("outcome: settled %v short %v after %+v; a is %s, was %s", out.Settled, out.Short, out.After, newA, oldA)
	}
	if len(out.Left) != 1 || out.Left[0].MemberID != oldA || len(out.Joined) != 1 || out.Joined[0].MemberID != newA || out.Joined[0].ClientID != "client-a" {
		t.Errorf("left %+v joined %+v; want %s left and %s (client-a) joined", out.Left, out.Joined, oldA, newA)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d receipts, want the one written before the removal", len(entries))
	}
}

// When the receipt cannot be written, nothing is sent.
func TestServiceSendsNothingWithoutAReceipt(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 2)
	cl := c.Client(t)
	const group = "unreceipted"
	a := c.Join(t, group, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()))
	gi := c.WaitStable(t, group, 1, 2)
	before := settledGroup(t, cl, group, 1, 2)
	leaves := c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.LeaveGroup}, Observe: true, Count: -1})

	p, err := PlanRemoval(before, Selection{All: true}, "")
	if err != nil {
		t.Fatal(err)
	}
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	svc := &Service{Client: cl, ReceiptDir: filepath.Join(blocker, "receipts")}
	removal, err := svc.Remove(context.Background(), p)
	if err == nil || !strings.Contains(err.Error(), "nothing was sent: create receipts directory") || removal != nil {
		t.Fatalf("err %v removal %+v; want a refusal before sending", err, removal)
	}
	if n := leaves.Hits(); n != 0 {
		t.Fatalf("%d LeaveGroup requests sent without a receipt", n)
	}
	after := c.GroupInfo(group)
	if after.Epoch != gi.Epoch || len(after.Members) != 1 || after.Members[0].MemberID != a.MemberID() {
		t.Fatalf("group changed: before %+v after %+v", gi, after)
	}
}

// A Service given a Connect asks it for the connection at each call, before
// it takes the lock or writes a receipt: a failing Connect leaves nothing
// behind and its error is the call's; once it connects, the removal goes
// through on that connection.
func TestServiceConnectsAtEachCall(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 2)
	cl := c.Client(t)
	const group = "on-demand"
	a := c.Join(t, group, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()), kgo.ClientID("client-a"))
	c.Join(t, group, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()), kgo.ClientID("client-b"))
	c.WaitStable(t, group, 2, 2)
	before := settledGroup(t, cl, group, 2, 2)
	p, err := PlanRemoval(before, Selection{MemberIDs: []string{a.MemberID()}}, "")
	if err != nil {
		t.Fatal(err)
	}

	down := errors.New("no broker answers")
	calls := 0
	var give *kafka.Client
	connect := func(context.Context) (*kafka.Client, error) {
		calls++
		if give == nil {
			return nil, down
		}
		return give, nil
	}
	dir := filepath.Join(t.TempDir(), "receipts")
	svc := &Service{Connect: connect, ReceiptDir: dir}
	ctx := context.Background()
	if r, err := svc.Remove(ctx, p); !errors.Is(err, down) || r != nil {
		t.Fatalf("remove while unconnected = %+v, %v; want nil, %v", r, err, down)
	}
	if _, err := svc.Wait(ctx, p, []string{a.MemberID()}, WaitOptions{}); !errors.Is(err, down) {
		t.Fatalf("wait while unconnected: %v, want %v", err, down)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("receipts folder after failed connects: %v, want none made", err)
	}

	give = cl
	removal, err := svc.Remove(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if got := removal.Removed(); len(got) != 1 || got[0] != a.MemberID() {
		t.Fatalf("removed = %v, want [%s]", got, a.MemberID())
	}
	if _, err := os.Stat(removal.Receipt); err != nil {
		t.Fatalf("receipt: %v", err)
	}
	if calls != 3 {
		t.Errorf("Connect called %d times, want 3 (once a call)", calls)
	}
}
