package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/debuglog"
	"github.com/kgroups/kgroups/kafka/receipt"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/render"
)

// app holds what every command shares: streams, the global flags and
// environment, and the loaded configuration. Each command turns its flags
// into an options struct and runs as run<Command>(ctx, app, options), so
// that it can be driven without cobra.
type app struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// getenv reads the environment for what is not a setting (the
	// locale); os.Getenv outside tests.
	getenv func(string) string

	// globals are the global flags and the KGROUPS_* variables; the file
	// and defaults are layered underneath by config.Effective.
	globals *config.CommandLine

	// cfg is the configuration file, read on first use so that commands
	// that need no configuration (version, help) never fail on a bad file.
	cfg *config.Config
	// noted holds the configuration notes already printed, so that each
	// is said once however often the context is resolved.
	noted map[string]bool
	// ctx is the run's context (cancelled by Ctrl+C and SIGTERM); reading
	// the configuration file stops when it is done.
	ctx context.Context

	// log is the debug trace of --debug or KGROUPS_DEBUG (debug.go),
	// debuglog.Discard without one; logFile is its file, closed when the
	// run ends.
	log     *slog.Logger
	logFile io.Closer
	started time.Time

	// midPoll is what every connection dialled runs in the middle of each
	// poll (kafka.Client.SetMidPoll): a collection while a one-shot read
	// runs (oneShot), nil otherwise.
	midPoll func()
}

func newApp(stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) *app {
	return &app{stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv, globals: config.NewCommandLine(), ctx: context.Background(), log: debuglog.Discard}
}

// config loads the configuration file named by --config or KGROUPS_CONFIG,
// else the default file, which may be absent.
func (a *app) config() (*config.Config, error) {
	if a.cfg != nil {
		return a.cfg, nil
	}
	path, explicit := a.globals.ConfigPath()
	if path == "" {
		p, err := config.DefaultPath()
		if err != nil {
			return nil, fmt.Errorf("config: %w", err)
		}
		path, explicit = p, false
	}
	cfg, err := config.LoadContext(a.ctx, path, explicit)
	if err != nil {
		return nil, err
	}
	a.cfg = cfg
	for _, w := range cfg.Warnings {
		a.noteOnce("warning: " + w)
	}
	return cfg, nil
}

// selection gathers the context choice and the overrides from flags and the
// environment, naming the flag or variable each came from.
func (a *app) selection() config.Selection { return a.globals.Selection() }

// cluster is the effective, validated cluster: the file's selected context
// with environment and flag overrides applied, or an ad-hoc one from
// -b/--brokers. A bad value given as a flag is a usage error (exit 2); one
// from the environment or the file is not.
func (a *app) cluster() (config.Cluster, error) {
	cfg, err := a.config()
	if err != nil {
		return config.Cluster{}, err
	}
	c, err := cfg.Effective(a.selection())
	if err != nil {
		if config.FromFlags(err) {
			return config.Cluster{}, usageError{err}
		}
		return config.Cluster{}, err
	}
	a.noteOnce(c.Notes()...)
	a.tightenReceipts()
	a.log.Debug("context", "name", c.Name, "brokers", c.Brokers, "read_only", c.ReadOnly, "protected", c.Protected)
	return c, nil
}

// tightenReceipts makes the receipts directory private again when it is
// open to others, with a warning; kgroups writes receipts only there.
func (a *app) tightenReceipts() {
	dir, err := receipt.DefaultDir()
	if err != nil {
		return
	}
	note, err := receipt.Tighten(dir)
	if err != nil {
		a.noteOnce("warning: " + err.Error())
	} else if note != "" {
		a.noteOnce("warning: " + note)
	}
}

// noteOnce writes each configuration note to stderr, once per run.
func (a *app) noteOnce(notes ...string) {
	for _, n := range notes {
		if a.noted[n] {
			continue
		}
		if a.noted == nil {
			a.noted = make(map[string]bool)
		}
		a.noted[n] = true
		a.notef("kgroups: %s", n)
	}
}

// dial connects to c; the caller closes the client.
func (a *app) dial(ctx context.Context, c config.Cluster) (*kafka.Client, error) {
	cl, err := kafka.ConnectLogged(ctx, c, a.log)
	if err != nil {
		label := clusterLabel(c)
		if label == "" {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	if a.midPoll != nil {
		cl.SetMidPoll(a.midPoll)
	}
	return cl, nil
}

// connect resolves the effective cluster and connects to it. The caller
// closes the client.
func (a *app) connect(ctx context.Context) (*kafka.Client, config.Cluster, error) {
	c, err := a.cluster()
	if err != nil {
		return nil, c, err
	}
	cl, err := a.dial(ctx, c)
	return cl, c, err
}

// connected is how a command opens: it resolves the effective cluster, lets
// check refuse the command before anything is sent (the write policy of a
// read-only or protected context; nil to skip), connects, runs fn and
// closes the connection.
func (a *app) connected(ctx context.Context, check func(config.Cluster) error, fn func(*kafka.Client, config.Cluster) error) error {
	c, err := a.cluster()
	if err != nil {
		return err
	}
	return a.connectedTo(ctx, c, check, fn)
}

// connectedTo is connected for a cluster already resolved.
func (a *app) connectedTo(ctx context.Context, c config.Cluster, check func(config.Cluster) error, fn func(*kafka.Client, config.Cluster) error) error {
	if check != nil {
		if err := check(c); err != nil {
			return err
		}
	}
	cl, err := a.dial(ctx, c)
	if err != nil {
		return err
	}
	defer cl.Close()
	return fn(cl, c)
}

// atLeast is the mark of a time lag that is only a lower bound: "≥" in a
// UTF-8 locale, ">=" elsewhere.
func (a *app) atLeast() string { return format.AtLeast(format.UTF8Locale(a.getenv)) }

// layout is how tables cut long cells: not at all with --wide (wide), else
// with "…" in a UTF-8 locale and "..." elsewhere.
func (a *app) layout(wide bool) render.Layout {
	return render.LayoutFor(wide, format.UTF8Locale(a.getenv))
}

// lockNote tells the user that a write took over a group lock left by a
// process that died holding it.
func (a *app) lockNote(note string) { a.notef("kgroups: note: %s", note) }

// notef writes a note or warning to stderr, terminal-safe.
func (a *app) notef(layout string, args ...any) {
	_ = render.Printf(a.stderr, layout, args...)
}

// pairedStreams buffers a command's stdout and stderr for output written in
// many pieces (a table per group, a note per group), so that it costs a few
// writes rather than two per group. Whatever reaches one file keeps its
// order: unless stdout and stderr are known to be different files, writing
// to one first writes out what the other holds, so a terminal (or one pipe
// for 2>&1) shows notes and tables interleaved as they were written. flush
// writes out the rest; call it before writing to the streams directly.
func pairedStreams(stdout, stderr io.Writer) (out, errw io.Writer, flush func() error) {
	p := &streamPair{}
	p.out = streamHalf{pair: p, w: bufio.NewWriterSize(stdout, 64<<10)}
	p.err = streamHalf{pair: p, w: bufio.NewWriterSize(stderr, 16<<10)}
	p.out.other, p.err.other = &p.err, &p.out
	p.ordered = !differentFiles(stdout, stderr)
	return &p.out, &p.err, func() error {
		return errors.Join(p.out.w.Flush(), p.err.w.Flush())
	}
}

type streamPair struct {
	out, err streamHalf
	// ordered: the two may be one file, so a switch writes the other
	// out first.
	ordered bool
}

type streamHalf struct {
	pair  *streamPair
	w     *bufio.Writer
	other *streamHalf
}

func (h *streamHalf) Write(b []byte) (int, error) {
	if h.pair.ordered && h.other.w.Buffered() > 0 {
		if err := h.other.w.Flush(); err != nil {
			return 0, err
		}
	}
	return h.w.Write(b)
}

// differentFiles reports whether a and b are open files known to be
// different (stdout to /dev/null or a file, stderr to a terminal).
func differentFiles(a, b io.Writer) bool {
	fa, ok := a.(*os.File)
	if !ok {
		return false
	}
	fb, ok := b.(*os.File)
	if !ok {
		return false
	}
	sa, err := fa.Stat()
	if err != nil {
		return false
	}
	sb, err := fb.Stat()
	if err != nil {
		return false
	}
	return !os.SameFile(sa, sb)
}
