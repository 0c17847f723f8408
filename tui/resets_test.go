package tui

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/views/ui"
)

// TestRewindAfterResetNamesTheReceipt resets a kfake group to its earliest
// offsets through the wizard and the real kafka/reset service: the next
// poll sees the committed offset go back (a REWIND), and the group screen
// says which reset did it and where its receipt is, not that a consumer
// committed out of order.
func TestRewindAfterResetNamesTheReceipt(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 1)
	c.Produce(t, "orders", 0, 100, time.Now().Add(-time.Hour))
	c.Commit(t, "g", map[string]map[int32]int64{"orders": {0: 60}})
	cl := c.Client(t)
	dir := filepath.Join(t.TempDir(), "receipts")
	h := newHarness(t, 240, 30, Options{ContextInfo: ContextInfo{Writers: Writers{Reset: &reset.Service{Client: cl, ReceiptDir: dir, Context: "test"}}}, Poller: cl})
	h.poll()

	h.run(h.send(ui.ResetMsg{Kind: ui.ResetGroup, Group: "g"}))
	h.press("1", "enter", "enter", "y") // to-earliest, all topics, preview, confirm
	receipts, _ := filepath.Glob(filepath.Join(dir, "*-reset-g.json"))
	if len(receipts) != 1 {
		t.Fatalf("receipts %v after the reset; screen:\n%s", receipts, h.view())
	}
	rc, err := reset.LoadReceipt(receipts[0])
	if err != nil {
		t.Fatal(err)
	}
	h.press("enter") // close the result: the root polls at once
	h.press("enter") // open g, the only group

	v := h.view()
	want := "! orders/0 reset by kgroups at " + rc.Time.Local().Format("15:04") + ", receipt " + receipts[0]
	if got := lines(v)[6]; got != want || !strings.Contains(v, "health ERR REWIND") {
		t.Fatalf("notice %q, want %q; screen:\n%s", got, want, v)
	}
}

// TestRewindAfterAnotherKgroupsReset: a reset made by another kgroups
// (the CLI in another terminal) while the UI watches leaves only its
// receipt in the receipts folder. The poll that shows the REWIND has the
// UI read the folder, and the group screen names the receipt.
func TestRewindAfterAnotherKgroupsReset(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 1)
	c.Produce(t, "orders", 0, 100, time.Now().Add(-time.Hour))
	c.Commit(t, "g", map[string]map[int32]int64{"orders": {0: 60}})
	cl := c.Client(t)
	dir := filepath.Join(t.TempDir(), "receipts")
	h := newHarness(t, 240, 30, Options{ContextInfo: ContextInfo{Brokers: cl.Brokers()}, Poller: cl, Receipts: dir})
	h.poll()
	h.press("enter") // open g, the only group

	ctx := context.Background()
	p, err := reset.Prepare(ctx, cl, reset.Request{Group: "g", Scenario: reset.Scenario{Kind: reset.ToEarliest}, Scope: reset.Scope{AllTopics: true}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := reset.Apply(ctx, cl, p, reset.ApplyOptions{ReceiptDir: dir, Context: "other"})
	if err != nil || !res.OK() {
		t.Fatalf("reset: %+v, %v", res, err)
	}
	// The poll that shows the REWIND has the folder read and the record
	// at the new commit read exactly; the exact read re-judges the group,
	// by which time the reset is noted, so the notice names it at once.
	h.poll()
	want := "! orders/0 reset by kgroups at " + res.Time.Local().Format("15:04") + ", receipt " + res.ReceiptPath
	if got := lines(h.view())[6]; got != want {
		t.Fatalf("notice %q, want %q", got, want)
	}
}
