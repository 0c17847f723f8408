package main

import (
	"context"
	"io"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/charmbracelet/x/term"

	"github.com/kgroups/kgroups/kafka/write"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/render"
)

// guard makes a signal win. The first SIGINT or SIGTERM cancels the
// command's context, which every read, write and the UI obey; if the
// command has not returned after the grace (a broker that never answers,
// a UI loop still busy) or a second signal comes, the guard ends the
// process itself: it restores the terminal (off the alternate screen,
// cursor shown, the mode it found), names every write still in flight as
// unknown with its receipt, and exits.
type guard struct {
	stdout, stderr io.Writer
	tty            bool // stdout is a terminal
	restore        func()
	exit           func(int)

	mu       sync.Mutex
	done     bool // run returned: the command reports for itself
	stopping bool // the guard is ending the process
	got      os.Signal
}

// signalCode is 128 plus the number of the signal that ended the command,
// or 0 when none came.
func (g *guard) signalCode() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	if s, ok := g.got.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return exitOK
}

func newGuard(stdin, stdout, stderr *os.File) *guard {
	return &guard{
		stdout: stdout, stderr: stderr,
		tty:     term.IsTerminal(stdout.Fd()),
		restore: ttyState(stdin),
		exit:    os.Exit,
	}
}

// finish says the command returned; false when the guard is already
// ending the process, which then must not exit on its own.
func (g *guard) finish() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stopping {
		return false
	}
	g.done = true
	return true
}

// watch waits for signals: the first cancels, then the grace or a second
// signal ends the process.
func (g *guard) watch(sigs <-chan os.Signal, cancel context.CancelFunc, grace time.Duration) {
	first := <-sigs
	g.mu.Lock()
	g.got = first
	g.mu.Unlock()
	cancel()
	select {
	case <-sigs:
	case <-time.After(grace):
	}
	g.force(first)
}

// force ends the process unless the command already returned.
func (g *guard) force(sig os.Signal) {
	g.mu.Lock()
	if g.done {
		g.mu.Unlock()
		return
	}
	g.stopping = true
	g.mu.Unlock()
	g.exit(g.report(sig))
}

// report restores the terminal, says what was left undone, and returns
// the exit code: 4 (unknown) when a write was in flight, else 128 plus the
// signal's number.
func (g *guard) report(sig os.Signal) int {
	if g.tty {
		// Bracketed paste off, cursor shown, attributes reset, the
		// alternate screen left: what a UI that did not get to clean up
		// leaves behind.
		_, _ = io.WriteString(g.stdout, "\x1b[?2004l\x1b[?25h\x1b[0m\x1b[?1049l")
	}
	g.restore()
	name := "interrupted"
	code := 130
	if s, ok := sig.(syscall.Signal); ok {
		code = 128 + int(s)
		if s == syscall.SIGTERM {
			name = "terminated"
		}
	}
	flights := write.InFlight()
	if len(flights) == 0 {
		_ = render.Printf(g.stderr, "kgroups: %s", name)
		return code
	}
	for _, f := range flights {
		_ = render.Printf(g.stderr, "kgroups: %s while the %s was in flight: its outcome is unknown; its receipt is %s (check the group; kgroups undo %s restores what it recorded)", name, f.What, f.Receipt, format.ShellQuote(f.Receipt))
	}
	return exitUnknown
}
