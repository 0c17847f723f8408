package tui

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/kgroups/kgroups/views/ui"
)

// The UI's part of the debug trace (Options.Log): screen pushes and pops,
// errors it shows, failed polls and context switches. Nothing is logged
// per frame or per key, and the trace never goes to the terminal: without
// a log file, Options.Log writes nothing.

func (m *Model) logOn() bool { return m.opts.Log.Enabled(context.Background(), slog.LevelDebug) }

// logScreen records a push or pop of the screen c.
func (m *Model) logScreen(msg string, c ui.Component) {
	if !m.logOn() {
		return
	}
	m.opts.Log.Debug(msg, "screen", fmt.Sprintf("%T", c), "depth", len(m.stack))
}

// logError records an error the UI shows the user.
func (m *Model) logError(text string) {
	m.opts.Log.Debug("ui error", "text", text)
}

// logPollFailed records a poll that failed and when the next one is due.
func (m *Model) logPollFailed(err error, failures int, wait time.Duration) {
	m.opts.Log.Debug("ui poll failed", "failures", failures, "retry_in", wait, "err", err)
}
