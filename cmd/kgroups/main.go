// Command kgroups is a terminal UI and scriptable CLI for Apache Kafka
// consumer groups.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/charmbracelet/x/term"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/format"
)

// signalGrace is how long kgroups winds down after SIGINT or SIGTERM
// before it ends anyway: a signal always wins, within a second, whatever
// the program is waiting on (a hung broker, a write in flight, a render).
const signalGrace = 700 * time.Millisecond

func main() {
	// Outside a UTF-8 locale every non-ASCII character of a broker's
	// string is escaped (format.SetUTF8).
	utf8 := format.UTF8Locale(os.Getenv)
	format.SetUTF8(utf8)
	kafka.SetASCIINames(!utf8) // and suggestions name such groups in base64
	ctx, cancel := context.WithCancelCause(context.Background())
	g := newGuard(os.Stdin, os.Stdout, os.Stderr)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go g.watch(sigs, cancel, signalGrace)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if !g.finish() {
		select {} // the guard is ending the process
	}
	if code == exitOK {
		code = g.signalCode() // ended by a signal: 130 or 143, as shells expect
	}
	signal.Stop(sigs)
	cancel(nil)
	os.Exit(code)
}

// ttyState is the terminal's state at start, to restore on a forced exit.
func ttyState(f *os.File) (restore func()) {
	fd := f.Fd()
	if !term.IsTerminal(fd) {
		return func() {}
	}
	st, err := term.GetState(fd)
	if err != nil {
		return func() {}
	}
	return func() { _ = term.Restore(fd, st) }
}
