package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"sync/atomic"
	"time"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/tui"
)

// countingPoller counts the polls whose results went to the UI, and the
// snapshots whose groups the garbage collector has freed since.
type countingPoller struct {
	p     tui.Poller
	n     atomic.Int64
	freed atomic.Int64
}

func (c *countingPoller) Poll(ctx context.Context) (*kafka.Snapshot, error) {
	s, err := c.p.Poll(ctx)
	if err == nil {
		c.n.Add(1)
		// The groups are the bulk of a poll, and a screen may hold one
		// of them (and so all) after the Snapshot itself is gone.
		if len(s.Groups) > 0 {
			runtime.AddCleanup(&s.Groups[0], func(n *atomic.Int64) { n.Add(1) }, &c.freed)
		} else {
			c.freed.Add(1)
		}
	}
	return s, err
}

// liveHeap collects and returns the bytes in live heap objects.
func liveHeap() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// retainedHeap runs the real UI in this process (poll, history, screens,
// as in the binary) for polls polls every refresh, then measures the heap
// it keeps: the live heap while it runs less the live heap before it
// started (the cluster's), and how many of the polls' snapshots are still
// alive. With profile set, it writes a heap profile
// there at that moment.
func retainedHeap(ctx context.Context, c *cluster, cols, rows, polls int, refresh time.Duration, profile string) (kept uint64, snapshots int64, err error) {
	cl, err := kafka.Connect(ctx, config.Cluster{Name: "uibench", Brokers: c.addrs})
	if err != nil {
		return 0, 0, err
	}
	defer cl.Close()
	master, slave, err := openPTY(cols, rows)
	if err != nil {
		return 0, 0, err
	}
	defer func() { _ = master.Close() }()
	watch(master, nil)
	// The client's first poll warms its caches; the cluster's heap is
	// measured after it, so the UI's share is what remains.
	if _, err := cl.Poll(ctx); err != nil {
		return 0, 0, err
	}
	before := liveHeap()
	cp := &countingPoller{p: cl}
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- tui.Run(rctx, tui.Options{
			ContextInfo: tui.ContextInfo{Name: "uibench", Brokers: c.addrs, Refresh: refresh},
			Poller:      cp,
			Getenv:      harnessEnv,
			Input:       slave,
			Output:      slave,
		})
	}()
	defer func() {
		cancel()
		<-done //nolint:errcheck // the UI ends because it was cancelled; how it ends is not measured
		_ = slave.Close()
	}()
	deadline := time.Now().Add(time.Duration(polls+10) * (refresh + 10*time.Second))
	for cp.n.Load() < int64(polls) {
		select {
		case err := <-done:
			done <- err
			return 0, 0, fmt.Errorf("the UI ended after %d polls: %w", cp.n.Load(), err)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return 0, 0, fmt.Errorf("only %d polls of %d before the deadline", cp.n.Load(), polls)
		}
	}
	// Let the last result reach the screens.
	time.Sleep(refresh / 2)
	after := liveHeap()
	time.Sleep(50 * time.Millisecond) // cleanups run after the collection
	snapshots = cp.n.Load() - cp.freed.Load()
	if profile != "" {
		f, err := os.Create(profile)
		if err != nil {
			return 0, 0, err
		}
		err = pprof.WriteHeapProfile(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return 0, 0, err
		}
	}
	if after < before {
		return 0, snapshots, nil
	}
	return after - before, snapshots, nil
}
