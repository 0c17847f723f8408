// Command kgroups is a terminal UI and scriptable CLI for Apache Kafka
// consumer groups.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/kgroups/kgroups/views/format"
)

func main() {
	// Outside a UTF-8 locale every non-ASCII character of a broker's
	// string is escaped (format.SetUTF8).
	format.SetUTF8(format.UTF8Locale(os.Getenv))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
