// Package tui is kgroups' terminal UI: the root Bubble Tea program. It owns
// the refresh loop, the screen stack, the status bar and the command line,
// and forwards everything else to the screen on top (views/...).
package tui

import (
	"context"
	"io"
	"log/slog"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/debuglog"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/screens/removal"
	"github.com/kgroups/kgroups/views/screens/resetwizard"
)

// Writers are how the UI changes a cluster, bound to one connection (and
// replaced with it on :ctx). A nil field makes its actions unavailable,
// with the reason.
type Writers struct {
	// Reset plans and applies offset resets and group deletions
	// (kafka/reset.Service).
	Reset resetwizard.Backend
	// Members removes members and waits for the group to settle.
	Members removal.Backend
}

// Poller takes one snapshot of the cluster. *kafka.Client implements it;
// tests use fakes.
type Poller interface {
	Poll(ctx context.Context) (*kafka.Snapshot, error)
}

// TimestampReader reads the records at committed offsets, for exact time
// lag. *kafka.Client implements it; when the poller does too, the group
// screen's exact mode works.
type TimestampReader interface {
	CommittedTimestamps(ctx context.Context, parts []kafka.PartitionOffsets) (map[kafka.CommitKey]kafka.RecordTime, error)
}

// ContextInfo is what the UI holds per context: the cluster it shows and
// the settings that come with it. Options embed it for the context the UI
// opens on, and Switch returns one for the context `:ctx` connects to, so
// a per-context setting is a field here, set once in cmd's contextInfo.
type ContextInfo struct {
	// Name and Brokers are shown in the status bar.
	Name    string
	Brokers []string
	// Connection are the words that name the cluster on a kgroups
	// command line ("--context", NAME, or "-b", HOSTS, and the connection
	// flags given; never a secret), put into the commands the Diagnosis
	// tab suggests so that they run pasted into the same shell.
	Connection []string
	// Refresh is the poll interval (default config.DefaultRefresh, the
	// refresh setting's default). From a Switch, zero keeps the current.
	Refresh time.Duration
	// Timeout bounds one poll (default 30s). From a Switch, zero keeps
	// the current.
	Timeout time.Duration
	// ReadOnly disables every action that writes to the cluster;
	// Protected makes them ask for typed confirmation.
	ReadOnly  bool
	Protected bool
	// Writers change the cluster the context's poller reads; see Writers.
	Writers Writers
	// Diagnosis makes the Diagnosis tab's extra reads on the cluster the
	// context's poller reads. Nil: the tab shows what the polls alone
	// support.
	Diagnosis DiagnosisReader
}

// Options configure the UI.
type Options struct {
	// ContextInfo is the context the UI opens on; `:ctx` replaces it.
	ContextInfo
	// Poller reads the cluster. Required. The UI owns it from then on:
	// when the poller has a Close method, the UI calls it on switching
	// away from it and when Run returns.
	Poller Poller
	// Receipts is the receipts folder. When a poll shows a REWIND, the
	// resets and undos of this cluster written there since the first
	// poll (by this kgroups or another) are read, so that a REWIND one
	// caused names it. "" reads nothing.
	Receipts string
	// Contexts are the names `:ctx` accepts, listed by a bare `:ctx`.
	Contexts []string
	// Switch connects to another context for `:ctx NAME`. It runs outside
	// the UI loop. Nil means switching is unavailable. The poller it
	// returns is owned by the UI, as Poller is.
	Switch func(ctx context.Context, name string) (Poller, ContextInfo, error)
	// NoSwitch is what `:ctx NAME` says when Switch is nil, when the
	// caller knows better than "unavailable" (the demo has one context).
	NoSwitch string
	// Lag sets the lag history's windows and health thresholds; zero
	// fields take lag.DefaultConfig's values.
	Lag lag.Config
	// ExactBudget caps the commits one exact time-lag read covers after
	// a poll (default lag.DefaultExactBudget); the rest wait for later
	// polls and show lower bounds meanwhile.
	ExactBudget int
	// Replay, when set, opens the UI on a recording instead of the
	// cluster: read-only, with a time bar; Poller may then be nil.
	Replay *Replay
	// InitialGroup opens that group's screen at start.
	InitialGroup string
	// Now is the clock (default time.Now); tests fix it.
	Now func() time.Time
	// After makes the Cmd that delivers msg once d has passed: the next
	// scheduled poll and the status bar's clock (default tea.Tick). A
	// test that runs the model's Cmds by hand gives one that returns nil,
	// so that every Cmd left is work that ends.
	After func(d time.Duration, msg tea.Msg) tea.Cmd
	// Getenv reads NO_COLOR and the locale (default os.Getenv).
	Getenv func(string) string
	// Log is the debug trace (nil: none). It never writes to Output.
	Log *slog.Logger
	// Input and Output are the terminal (default stdin and stdout).
	Input  io.Reader
	Output io.Writer
}

// DefaultTimeout bounds a poll when no timeout is configured.
const DefaultTimeout = 30 * time.Second

// MaxBackoff caps the wait between retries of a failing poll.
const MaxBackoff = time.Minute

func (o Options) withDefaults() Options {
	if o.After == nil {
		o.After = after
	}
	if o.Refresh <= 0 {
		o.Refresh = config.DefaultRefresh
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.ExactBudget <= 0 {
		o.ExactBudget = lag.DefaultExactBudget
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	o.Log = debuglog.Or(o.Log)
	if o.Input == nil {
		o.Input = os.Stdin
	}
	if o.Output == nil {
		o.Output = os.Stdout
	}
	return o
}
