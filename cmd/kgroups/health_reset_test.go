package main

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/kafka/reset"
)

// TestHealthRewindByKgroupsReset resets an Empty group to its earliest
// offsets through kafka/reset while `kgroups health` samples it: the
// committed offset goes from 40 back to 0, a REWIND, and the command names
// the reset's receipt (read from the receipts folder) instead of leaving it
// to look like a consumer's out-of-order commit.
func TestHealthRewindByKgroupsReset(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_CTYPE", "")
	t.Setenv("LANG", "C.UTF-8")
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "t-rs", 1)
	c.Produce(t, "t-rs", 0, 50, zeroTime)
	c.Commit(t, "g-reset", map[string]map[int32]int64{"t-rs": {0: 40}})
	dir := filepath.Join(state, "kgroups", "receipts")

	// The reset goes in once kgroups has fetched the group's offsets 6
	// times (at 1s of the 2s window): seen after half the window, the drop
	// is a REWIND, not a STOP.
	fetched := make(chan struct{}, 1)
	var n atomic.Int32
	c.ControlKey(int16(kmsg.OffsetFetch), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		r := req.(*kmsg.OffsetFetchRequest)
		asks := r.Group == "g-reset"
		for _, g := range r.Groups {
			asks = asks || g.Group == "g-reset"
		}
		if asks && n.Add(1) == 6 {
			fetched <- struct{}{}
		}
		return nil, nil, false
	})
	done := make(chan error, 1)
	var receiptPath string
	go func() {
		select {
		case <-fetched:
		case <-time.After(kafkatest.WaitTimeout):
			done <- errors.New("kgroups never fetched g-reset's offsets six times")
			return
		}
		ctx := context.Background()
		cl := c.Client(t)
		p, err := reset.Prepare(ctx, cl, reset.Request{Group: "g-reset", Scenario: reset.Scenario{Kind: reset.ToEarliest}, Scope: reset.Scope{AllTopics: true}})
		if err != nil {
			done <- err
			return
		}
		res, err := reset.Apply(ctx, cl, p, reset.ApplyOptions{ReceiptDir: dir, Context: "test"})
		if err == nil && !res.OK() {
			err = errors.New("the reset was not verified")
		}
		if res != nil {
			receiptPath = res.ReceiptPath
		}
		done <- err
	}()
	code, stdout, stderr := kg(t, "-b", strings.Join(c.Addrs, ","), "health", "g-reset", "--window", "2s", "--interval", "200ms")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	rc, err := reset.LoadReceipt(receiptPath)
	if err != nil {
		t.Fatal(err)
	}
	note := "kgroups: g-reset t-rs/0 went back from 40 to 0: reset by kgroups at " + rc.Time.Local().Format("15:04") + ", receipt " + receiptPath + "\n"
	expectRun(t, code, stderr, 0, note)
	got := fields(stdout)
	if len(got) != 5 || len(got[4]) != 12 {
		t.Fatalf("stdout:\n%s", stdout)
	}
	exactOverWindow(t, got[4][7])
	got[4][7] = "TL"
	if row, want := strings.Join(got[4], " "), "g-reset t-rs 0 REWIND 0 50 50 TL 40->0 by kgroups reset"; row != want {
		t.Fatalf("partition row %q, want %q\n%s", row, want, stdout)
	}
}
