package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/tui"
)

// timedPoller notes when each poll's result is handed to the UI.
type timedPoller struct {
	p     tui.Poller
	first chan time.Time
	once  sync.Once
}

func (t *timedPoller) Poll(ctx context.Context) (*kafka.Snapshot, error) {
	s, err := t.p.Poll(ctx)
	if err == nil {
		t.once.Do(func() { t.first <- time.Now() })
	}
	return s, err
}

// groupMark is in every group's name and nowhere else on screen: its first
// appearance is the first frame of the groups screen with groups in it.
const groupMark = "group-0"

// firstFrame runs the real UI (tui.Run: the root model in a Bubble Tea
// program on a pty of the given size) in this process and measures the
// time from the first poll's result leaving the poller to the first frame
// that lists groups reaching the terminal.
func firstFrame(ctx context.Context, c *cluster, cols, rows int) (time.Duration, error) {
	cl, err := kafka.Connect(ctx, config.Cluster{Name: "uibench", Brokers: c.addrs})
	if err != nil {
		return 0, err
	}
	defer cl.Close()
	master, slave, err := openPTY(cols, rows)
	if err != nil {
		return 0, err
	}
	defer func() { _ = master.Close() }()
	term := watch(master, nil, groupMark)
	tp := &timedPoller{p: cl, first: make(chan time.Time, 1)}
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- tui.Run(rctx, tui.Options{
			ContextInfo: tui.ContextInfo{Name: "uibench", Brokers: c.addrs, Refresh: time.Hour}, // one poll: the first
			Poller:      tp,
			Getenv:      harnessEnv,
			Input:       slave,
			Output:      slave,
		})
	}()
	stop := func() error {
		cancel()
		err := <-done
		_ = slave.Close()
		return err
	}
	var arrived time.Time
	select {
	case arrived = <-tp.first:
	case err := <-done:
		_ = slave.Close()
		return 0, fmt.Errorf("the UI ended before its first poll: %w", err)
	case <-time.After(2 * time.Minute):
		_ = stop()
		return 0, errors.New("no poll result within 2m")
	}
	deadline := time.Now().Add(time.Minute)
	for {
		if at, ok := term.mark(groupMark); ok {
			if err := stop(); err != nil {
				return 0, fmt.Errorf("the UI: %w", err)
			}
			return at.Sub(arrived), nil
		}
		if time.Now().After(deadline) {
			_ = stop()
			return 0, errors.New("the groups were not drawn within 1m of the first poll result")
		}
		time.Sleep(time.Millisecond)
	}
}

// harnessEnv is the environment the UI sees: a UTF-8 xterm with colour.
func harnessEnv(key string) string {
	switch key {
	case "TERM":
		return "xterm-256color"
	case "LANG":
		return "C.UTF-8"
	}
	return ""
}
