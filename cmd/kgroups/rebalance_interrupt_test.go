package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// TestRebalanceInterrupted: Ctrl+C or SIGTERM (the run's context ends)
// while `rebalance --execute` waits for the group to settle says
// "interrupted", with what was seen, the verified removal and its
// receipt, not that the group did not settle within the timeout.
func TestRebalanceInterrupted(t *testing.T) {
	isolateConfig(t)
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 2)
	brokers := strings.Join(c.Addrs, ",")
	const group = "rb-int"
	// A static member whose process is gone does not come back, so the
	// group stays short of a member for the whole --settle.
	gone := c.Join(t, group, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()), kgo.InstanceID("gone"))
	c.Join(t, group, []string{"orders"}, kgo.Balancers(kgo.RangeBalancer()), kgo.InstanceID("stays"))
	c.WaitStable(t, group, 2, 2)
	waitSeen(t, c, group, 2)
	gone.Close()

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var left atomic.Bool
	var describes atomic.Int32
	c.ControlKey(int16(kmsg.LeaveGroup), func(kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		left.Store(true)
		return nil, nil, false
	})
	c.ControlKey(int16(kmsg.DescribeGroups), func(kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		// The removal's re-read, then Wait's first poll; the
		// interruption comes during the second.
		if left.Load() && describes.Add(1) == 3 {
			cancel()
		}
		return nil, nil, false
	})
	var out, errOut bytes.Buffer
	code := run(ctx, []string{"-b", brokers, "rebalance", group, "--instance", "gone", "--execute", "--timeout", "1m", "--settle", "1m"}, strings.NewReader(""), &out, &errOut)
	stderr := errOut.String()
	receipts, _ := filepath.Glob(filepath.Join(state, "kgroups", "receipts", "*-remove-members-"+group+".json"))
	if len(receipts) != 1 {
		t.Fatalf("receipts %v; exit %d\n%s\n%s", receipts, code, out.String(), stderr)
	}
	prefix := `kgroups: interrupted while waiting for group "rb-int" to settle (last seen `
	suffix := "). The removal itself was sent and verified (RESULT above); the receipt: " + receipts[0] + ". See what the group does now with: kgroups -b " + brokers + " describe rb-int\n"
	if code != 1 || !strings.HasPrefix(stderr, prefix) || !strings.HasSuffix(stderr, suffix) || strings.Contains(stderr, "did not settle within") {
		t.Fatalf("exit %d\nstderr %q\nwant %q ... %q\nstdout\n%s", code, stderr, prefix, suffix, out.String())
	}
	if !strings.Contains(out.String(), "Receipt: "+receipts[0]+"\n") {
		t.Errorf("stdout lacks the receipt:\n%s", out.String())
	}
}

// TestResetInterruptedBeforeVerified: an interruption after the commit
// was sent, while it is re-read, leaves the outcome unknown (exit 4), and
// the verdict says it was interrupted, with the receipt.
func TestResetInterruptedBeforeVerified(t *testing.T) {
	rc := startResetCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var committed atomic.Bool
	rc.ControlKey(int16(kmsg.OffsetCommit), func(kmsg.Request) (kmsg.Response, error, bool) {
		rc.KeepControl()
		committed.Store(true)
		return nil, nil, false
	})
	rc.ControlKey(int16(kmsg.OffsetFetch), func(kmsg.Request) (kmsg.Response, error, bool) {
		rc.KeepControl()
		if committed.Load() {
			cancel()
		}
		return nil, nil, false
	})
	var out, errOut bytes.Buffer
	code := run(ctx, []string{"-b", rc.brokers, "reset", "g", "--to-earliest", "--topic", "orders:0,1", "--execute"}, strings.NewReader(""), &out, &errOut)
	stderr := errOut.String()
	path := receiptPath(t, stderr)
	want := "kgroups: interrupted before the write was verified: 2 of 2 partitions with an outcome unknown; see STATUS above. Check what the group holds now with: kgroups -b " + rc.brokers + " describe g (the receipt of this change: " + path + ")\n"
	if code != exitUnknown || !strings.HasSuffix(stderr, want) {
		t.Fatalf("exit %d\nstderr %s\nwant suffix %s\nstdout %s", code, stderr, want, out.String())
	}
	// The commit landed: unknown was the honest answer.
	rc.assertCommits(t, "g", map[string]int64{"orders/0": 0, "orders/1": 0})
}
