package tui

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/viewtest"
)

// waitLong bounds waits on the running program. It is a deadline for a
// broken test, not a performance assertion.
const waitLong = 30 * time.Second

// TestSlowPollDoesNotBlockKeys runs the real Bubble Tea program with a poll
// that never returns on its own: keys are still handled, the program quits,
// and quitting cancels the poll.
func TestSlowPollDoesNotBlockKeys(t *testing.T) {
	bp := newBlockPoller(viewtest.Snapshot(viewtest.Epoch, 0))
	returned := make(chan error, 1)
	poller := pollerFunc(func(ctx context.Context) error {
		_, err := bp.Poll(ctx)
		returned <- err
		return err
	})
	c := newClock()
	m := New(Options{
		ContextInfo: ContextInfo{Name: "prod"},
		Poller:      poller,
		Now:         c.Now,
		Getenv: func(k string) string {
			if k == "LANG" {
				return "en_US.UTF-8"
			}
			return ""
		},
	})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24))
	select {
	case <-bp.started:
	case <-time.After(waitLong):
		t.Fatal("the first poll never started")
	}

	// The poll is blocked; the help opens anyway.
	tm.Type("?")
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("sort by lag"))
	}, teatest.WithDuration(waitLong), teatest.WithCheckInterval(10*time.Millisecond))
	// So does the command line.
	tm.Type(":")
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte(":█"))
	}, teatest.WithDuration(waitLong), teatest.WithCheckInterval(10*time.Millisecond))
	tm.Type("q")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})

	tm.WaitFinished(t, teatest.WithFinalTimeout(waitLong))
	final := tm.FinalModel(t).(*Model)
	if final.snap != nil {
		t.Fatal("the blocked poll delivered a snapshot")
	}
	select {
	case err := <-returned:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("the poll ended with %v, want context.Canceled", err)
		}
	case <-time.After(waitLong):
		t.Fatal("quitting did not cancel the poll in flight")
	}
}

type pollerFunc func(ctx context.Context) error

func (f pollerFunc) Poll(ctx context.Context) (*kafka.Snapshot, error) {
	return nil, f(ctx)
}

// TestRunUsesTheAlternateScreenAndRestores runs Run on a pipe: it enters the
// alternate screen, leaves it on quit, and returns nil.
func TestRunUsesTheAlternateScreenAndRestores(t *testing.T) {
	in, inW := io.Pipe()
	var out syncBuffer
	c := newClock()
	p := &seqPoller{clock: c, steps: []func(time.Time) (*kafka.Snapshot, error){fixture}}
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), Options{Poller: p, Input: in, Output: &out, Now: c.Now, Getenv: func(string) string { return "" }})
	}()
	// Quit once the first poll has drawn the groups.
	deadline := time.Now().Add(waitLong)
	for !strings.Contains(out.String(), "shipping-notifier") {
		if time.Now().After(deadline) {
			t.Fatalf("the groups never showed:\n%q", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := inW.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run = %v", err)
		}
	case <-time.After(waitLong):
		t.Fatal("Run did not return after q")
	}
	got := out.String()
	enter, leave := strings.Index(got, "\x1b[?1049h"), strings.LastIndex(got, "\x1b[?1049l")
	if enter < 0 || leave < enter {
		t.Fatalf("alternate screen enter at %d, leave at %d", enter, leave)
	}
	if strings.Contains(got, "\x1b[?1000h") || strings.Contains(got, "\x1b[?1002h") || strings.Contains(got, "\x1b[?1003h") {
		t.Fatal("the mouse was captured")
	}
}

// TestRunEndsWithContext: cancelling the caller's context (SIGTERM) ends
// the UI without an error.
func TestRunEndsWithContext(t *testing.T) {
	in, _ := io.Pipe()
	var out syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	bp := newBlockPoller(nil)
	done := make(chan error, 1)
	go func() { done <- Run(ctx, Options{Poller: bp, Input: in, Output: &out}) }()
	select {
	case <-bp.started:
	case <-time.After(waitLong):
		t.Fatal("no poll started")
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run = %v", err)
		}
	case <-time.After(waitLong):
		t.Fatal("Run did not return when its context ended")
	}
	if !strings.Contains(out.String(), "\x1b[?1049l") {
		t.Fatal("the alternate screen was not left")
	}
}

func TestRunNeedsAPoller(t *testing.T) {
	if err := Run(context.Background(), Options{}); err == nil || err.Error() != "tui: no poller" {
		t.Fatalf("Run without a poller = %v", err)
	}
}

// syncBuffer is a bytes.Buffer the program writes to while the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestRunRestoresTheTerminalOnPanic: a panic inside the program (here in a
// poll) ends Run with an error and leaves the alternate screen.
func TestRunRestoresTheTerminalOnPanic(t *testing.T) {
	in, _ := io.Pipe()
	var out syncBuffer
	boom := pollerFunc(func(context.Context) error { panic("poller exploded") })
	done := make(chan error, 1)
	go func() { done <- Run(context.Background(), Options{Poller: boom, Input: in, Output: &out}) }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "panic") {
			t.Fatalf("Run after a panic = %v", err)
		}
	case <-time.After(waitLong):
		t.Fatal("Run did not return after a panic")
	}
	got := out.String()
	if enter, leave := strings.Index(got, "\x1b[?1049h"), strings.LastIndex(got, "\x1b[?1049l"); enter < 0 || leave < enter {
		t.Fatalf("alternate screen enter at %d, leave at %d", enter, leave)
	}
}
