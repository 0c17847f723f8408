package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
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
// unknown with its receipt (those in flight when the first signal came,
// which the command did not get to report, and any still in flight), and
// exits.
type guard struct {
	stdout, stderr io.Writer
	tty            bool // stdout is a terminal
	restore        func()
	exit           func(int)

	mu       sync.Mutex
	done     bool // run returned: the command reports for itself
	stopping bool // the guard is ending the process
	got      os.Signal
	// atSignal are the writes that were in flight when the first signal
	// came.
	atSignal []write.Flight
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
func (g *guard) watch(sigs <-chan os.Signal, cancel context.CancelCauseFunc, grace time.Duration) {
	first := <-sigs
	// The writes in flight now, before the cancel lets them end: if the
	// command does not return to report them, the guard does.
	flights := write.InFlight()
	g.mu.Lock()
	g.got = first
	g.atSignal = flights
	g.mu.Unlock()
	cancel(signalError{first})
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
	name := signalName(sig)
	code := 130
	if s, ok := sig.(syscall.Signal); ok {
		code = 128 + int(s)
	}
	g.mu.Lock()
	flights := g.atSignal
	g.mu.Unlock()
	// Those the signal found, and any begun since; each once.
	for _, f := range write.InFlight() {
		if !slices.Contains(flights, f) {
			flights = append(flights, f)
		}
	}
	if len(flights) == 0 {
		_ = render.Printf(g.stderr, "kgroups: %s", name)
		return code
	}
	for _, f := range flights {
		_ = render.Printf(g.stderr, "kgroups: %s", inFlightText(name, f))
	}
	return exitUnknown
}

// signalError is the cause of a run's context that a signal cancelled.
type signalError struct{ sig os.Signal }

func (e signalError) Error() string { return signalName(e.sig) }

// signalName is how a message names what ended the run: "terminated"
// for SIGTERM, "interrupted" for anything else.
func signalName(sig os.Signal) string {
	if s, ok := sig.(syscall.Signal); ok && s == syscall.SIGTERM {
		return "terminated"
	}
	return "interrupted"
}

// inFlightText says that a signal (name) ended the run while write f was
// in flight, as both the guard and the UI say it.
func inFlightText(name string, f write.Flight) string {
	return fmt.Sprintf("%s while the %s was in flight: its outcome is unknown; its receipt is %s (check the group; kgroups undo %s restores what it recorded)", name, f.What, f.Receipt, format.ShellQuote(f.Receipt))
}

// writesInFlightAt runs fn, and when ctx ends while it runs, returns the
// writes that were in flight at that moment (taken as the context ends,
// before they can notice), for fn to be reported as having cut them
// short. The UI stops at once on a signal, dropping the answers of its
// writes; this is how it reports them as the CLI does.
func writesInFlightAt(ctx context.Context, fn func() error) ([]write.Flight, error) {
	var flights []write.Flight
	taken := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		flights = write.InFlight()
		close(taken)
	})
	err := fn()
	if stop() {
		return nil, err // ctx did not end while fn ran
	}
	<-taken
	return flights, err
}

// interruptedWrites is the error of a run a signal ended while writes
// were in flight: each named with its receipt, exit 4.
func interruptedWrites(ctx context.Context, flights []write.Flight) error {
	name := "interrupted"
	var se signalError
	if errors.As(context.Cause(ctx), &se) {
		name = signalName(se.sig)
	}
	lines := make([]string, len(flights))
	for i, f := range flights {
		lines[i] = inFlightText(name, f)
	}
	return exitCodeError{code: exitUnknown, err: errors.New(strings.Join(lines, "\nkgroups: "))}
}
