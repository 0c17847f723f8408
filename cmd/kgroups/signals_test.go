package main

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka/write"
)

type exitRecorder struct{ code chan int }

func testGuard(tty bool) (*guard, *strings.Builder, *strings.Builder, *exitRecorder, *bool) {
	var out, errw strings.Builder
	restored := false
	rec := &exitRecorder{code: make(chan int, 1)}
	g := &guard{stdout: &out, stderr: &errw, tty: tty, restore: func() { restored = true }, exit: func(c int) { rec.code <- c }}
	return g, &out, &errw, rec, &restored
}

// TestGuardEndsAHungCommand: the first signal cancels the context; a
// command that does not return within the grace is ended anyway, the
// terminal restored and the write in flight named as unknown with its
// receipt (exit 4).
func TestGuardEndsAHungCommand(t *testing.T) {
	g, out, errw, rec, restored := testGuard(true)
	end := write.Begin("reset of group bill\ning", "/state/receipts/r 1.json")
	defer end()
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 2)
	go g.watch(sigs, cancel, 10*time.Millisecond)
	sigs <- syscall.SIGTERM
	select {
	case code := <-rec.code:
		if code != exitUnknown {
			t.Errorf("exit %d, want %d", code, exitUnknown)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the guard never ended the process")
	}
	if ctx.Err() == nil {
		t.Error("the signal did not cancel the context")
	}
	if got := out.String(); got != "\x1b[?2004l\x1b[?25h\x1b[0m\x1b[?1049l" {
		t.Errorf("terminal restore %q", got)
	}
	if !*restored {
		t.Error("the terminal mode was not restored")
	}
	want := `kgroups: terminated while the reset of group bill\ning was in flight: its outcome is unknown; its receipt is /state/receipts/r 1.json (check the group; kgroups undo '/state/receipts/r 1.json' restores what it recorded)` + "\n"
	if got := errw.String(); got != want {
		t.Errorf("stderr\n%q\nwant\n%q", got, want)
	}
	if g.finish() {
		t.Error("finish after the guard took over")
	}
}

// TestGuardSecondSignal: a second signal ends at once, even with a long
// grace; with no write in flight the exit code is 128 + the signal.
func TestGuardSecondSignal(t *testing.T) {
	g, out, errw, rec, _ := testGuard(false)
	sigs := make(chan os.Signal, 2)
	go g.watch(sigs, func(error) {}, time.Hour)
	sigs <- os.Interrupt
	sigs <- os.Interrupt
	select {
	case code := <-rec.code:
		if code != 130 {
			t.Errorf("exit %d, want 130", code)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a second signal did not end the process")
	}
	if out.Len() != 0 {
		t.Errorf("escape sequences written to a non-terminal: %q", out.String())
	}
	if got := errw.String(); got != "kgroups: interrupted\n" {
		t.Errorf("stderr %q", got)
	}
}

// TestGuardLetsAFinishedCommandReport: a command that returned within the
// grace reports for itself; the guard does nothing.
func TestGuardLetsAFinishedCommandReport(t *testing.T) {
	g, _, errw, rec, _ := testGuard(true)
	if !g.finish() {
		t.Fatal("finish")
	}
	g.force(syscall.SIGTERM)
	select {
	case code := <-rec.code:
		t.Fatalf("the guard exited %d after the command returned", code)
	default:
	}
	if errw.Len() != 0 {
		t.Errorf("stderr %q", errw.String())
	}
}

// TestGuardReportsAWriteCutShortBeforeItForces: a write in flight when
// the signal came, which the cancel ended before the guard forced the
// exit (the command, stuck elsewhere, never reported it), is still
// reported as unknown with its receipt, exit 4.
func TestGuardReportsAWriteCutShortBeforeItForces(t *testing.T) {
	g, _, errw, rec, _ := testGuard(false)
	end := write.Begin("reset of group billing", "/state/receipts/r.json")
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() { <-ctx.Done(); end() }() // the write notices and ends
	sigs := make(chan os.Signal, 2)
	go g.watch(sigs, cancel, 50*time.Millisecond)
	sigs <- syscall.SIGTERM
	select {
	case code := <-rec.code:
		if code != exitUnknown {
			t.Errorf("exit %d, want %d", code, exitUnknown)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the guard never ended the process")
	}
	want := "kgroups: terminated while the reset of group billing was in flight: its outcome is unknown; its receipt is /state/receipts/r.json (check the group; kgroups undo /state/receipts/r.json restores what it recorded)\n"
	if got := errw.String(); got != want {
		t.Errorf("stderr\n%q\nwant\n%q", got, want)
	}
}
