package reset_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/receipt"
	"github.com/kgroups/kgroups/kafka/reset"
)

// TestConcurrentResetsCannotBothSucceed: two resets of one group planned
// from the same offsets and applied at once. The lock makes the second
// wait for the first to finish; its re-check then finds the offsets
// changed and refuses, so exactly one reports success and the group holds
// its offsets.
func TestConcurrentResetsCannotBothSucceed(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	for round := range 3 {
		start := e.commits("g")
		var plans [2]*reset.Plan
		// Two targets, both different from the offsets now.
		for i, to := range []int64{int64(2*round + 1), int64(2*round + 2)} {
			p, err := reset.Prepare(ctx, e.cl, reset.Request{Group: "g", Scenario: reset.Scenario{Kind: reset.ToOffset, Offset: to}, Scope: topic("orders", 0, 1)})
			if err != nil {
				t.Fatal(err)
			}
			plans[i] = p
		}
		var wg sync.WaitGroup
		var res [2]*reset.Result
		var errs [2]error
		for i := range plans {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res[i], errs[i] = reset.Apply(ctx, e.cl, plans[i], e.opts())
			}()
		}
		wg.Wait()
		var won []int
		for i := range 2 {
			if errs[i] == nil && res[i].OK() {
				won = append(won, i)
				continue
			}
			var oc *reset.OffsetsChangedError
			if !errors.As(errs[i], &oc) {
				t.Fatalf("round %d: apply %d: %v, %+v; want success or a refusal because the offsets changed", round, i, errs[i], res[i])
			}
		}
		if len(won) != 1 {
			t.Fatalf("round %d: %d resets report success from %v, want 1 (errors %v)", round, len(won), start, errs)
		}
		want := map[string]int64{}
		for k, v := range start {
			want[k] = v
		}
		for _, r := range plans[won[0]].Rows {
			want[r.TP().String()] = r.New
		}
		if got := e.commits("g"); !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: commits %v, want the winner's %v", round, got, want)
		}
	}
}

// TestWritesRefusedWhileLocked: while another kgroups holds the group's
// lock, a reset, an undo-like removal of commits, a delete-offsets and a
// group deletion are refused, naming the holder's pid, and change nothing.
func TestWritesRefusedWhileLocked(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	held, err := receipt.LockGroup(ctx, e.dir, lockCluster(t, e.cl), "g")
	if err != nil {
		t.Fatal(err)
	}
	reset1, err := reset.Prepare(ctx, e.cl, reset.Request{Group: "g", Scenario: reset.Scenario{Kind: reset.ToEarliest}, Scope: allTopics()})
	if err != nil {
		t.Fatal(err)
	}
	delOffsets, err := reset.PrepareDeleteOffsets(ctx, e.cl, "g", topic("orders"), base)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := reset.PrepareDeleteGroups(ctx, e.cl, []string{"g"}, base)
	if err != nil {
		t.Fatal(err)
	}
	svc := &reset.Service{Client: e.cl, ReceiptDir: e.dir, Context: "test"}
	for name, apply := range map[string]func(context.Context) error{
		"reset":          func(ctx context.Context) error { _, err := reset.Apply(ctx, e.cl, reset1, e.opts()); return err },
		"service reset":  func(ctx context.Context) error { _, err := svc.Apply(ctx, reset1); return err },
		"delete-offsets": func(ctx context.Context) error { _, err := reset.Apply(ctx, e.cl, delOffsets, e.opts()); return err },
		"delete": func(ctx context.Context) error {
			_, err := reset.ApplyDeleteGroup(ctx, e.cl, ds[0], e.opts())
			return err
		},
		"service delete": func(ctx context.Context) error { _, err := svc.ApplyDelete(ctx, ds[0]); return err },
	} {
		wctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		err := apply(wctx)
		cancel()
		var le *receipt.LockedError
		if !errors.As(err, &le) || le.Holder.PID != os.Getpid() || !strings.Contains(err.Error(), fmt.Sprintf(`group "g" is being changed by another kgroups (pid %d on `, os.Getpid())) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if got := e.commits("g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 5, "orders/1": 10}) {
		t.Fatalf("commits changed: %v", got)
	}
	if entries, _ := os.ReadDir(e.dir); len(entries) != 1 { // the lock file alone
		t.Fatalf("receipts folder holds %v", entries)
	}
	if err := held.Unlock(); err != nil {
		t.Fatal(err)
	}
	if _, err := reset.Apply(ctx, e.cl, reset1, e.opts()); err != nil {
		t.Fatalf("after the lock is released: %v", err)
	}
}

// TestStaleLockTakenOver: a lock file left by a process that died holding
// it does not block a write; the write takes it over and says so.
func TestStaleLockTakenOver(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs a pid that has exited")
	}
	e := newEnv(t)
	ctx := context.Background()
	l, err := receipt.LockGroup(ctx, e.dir, lockCluster(t, e.cl), "g")
	if err != nil {
		t.Fatal(err)
	}
	path := l.Path
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	stale := fmt.Sprintf(`{"pid":%d,"host":%q,"since":"2026-01-01T00:00:00Z"}`, gone.Process.Pid, host)
	if err := os.WriteFile(path, []byte(stale), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := reset.Prepare(ctx, e.cl, reset.Request{Group: "g", Scenario: reset.Scenario{Kind: reset.ToEarliest}, Scope: allTopics()})
	if err != nil {
		t.Fatal(err)
	}
	var notes []string
	opts := e.opts()
	opts.Note = func(s string) { notes = append(notes, s) }
	res, err := reset.Apply(ctx, e.cl, p, opts)
	if err != nil || !res.OK() {
		t.Fatalf("Apply = %+v, %v", res, err)
	}
	want := "took over the lock " + path + ", left by pid " + strconv.Itoa(gone.Process.Pid) + " on " + host + ", since 2026-01-01T00:00:00Z, which no longer runs"
	if len(notes) != 1 || notes[0] != want {
		t.Fatalf("notes %q, want %q", notes, want)
	}
	// The result carries it too, for the UI, which shows it with the result.
	if res.LockNote != want {
		t.Fatalf("Result.LockNote = %q, want %q", res.LockNote, want)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the lock file outlived the write: %v", err)
	}
}

// lockCluster is the cluster as the writers' locks name it: by its id.
// It also reads, once, what a write reads of the cluster before it takes
// the lock (the cluster id, the brokers' API versions; cl keeps both), so
// that a short deadline a test gives a write covers the wait for the lock
// alone, however slow the machine.
func lockCluster(t *testing.T, cl *kafka.Client) receipt.Cluster {
	t.Helper()
	id, err := cl.ClusterID(context.Background())
	if err != nil || id == "" {
		t.Fatalf("cluster id %q: %v", id, err)
	}
	if _, err := cl.BrokerVersions(context.Background()); err != nil {
		t.Fatal(err)
	}
	return receipt.Cluster{ID: id, Brokers: cl.Brokers()}
}
