package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/config"
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/kafka/receipt"
	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/tui"
)

func init() {
	register(newTUICmd)
	demoUI = openDemoUI
}

func newTUICmd(a *app) *cobra.Command {
	var group string
	var b64 []string
	cmd := &cobra.Command{
		Use:   "tui [--group NAME]",
		Short: "Open the live terminal UI",
		Long: `Open the live view of every consumer group in the current context (or on
-b/--brokers): state, members, lag and its trend, refreshed every --refresh
(default 5s). Enter opens a group's partitions and members; ? lists every key.

Inside, ":ctx NAME" switches to another context of the configuration file,
":group NAME" opens a group and ":q" quits. It runs on the alternate screen
and leaves the terminal as it found it.`,
		Example: `  kgroups tui
  kgroups tui --context prod --refresh 10s
  kgroups -b 127.0.0.1:9092 tui --group orders-app`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			names, err := withGroupBase64(nil, b64)
			switch {
			case err != nil:
				return err
			case len(names) > 1 || (len(names) == 1 && group != ""):
				return usageErrorf("give one group to open first: --group or --group-base64, once")
			case len(names) == 1:
				group = names[0]
			}
			return openTUI(cmd.Context(), a, openOptions{group: group})
		},
	}
	cmd.Flags().StringVar(&group, "group", "", "open this group's screen first")
	addGroupBase64Flag(cmd, &b64, false)
	completeFlag(cmd, "group", a.completeGroups(anyGroup, false))
	return cmd
}

// openOptions is a validated `kgroups tui` (or bare `kgroups`).
type openOptions struct {
	group string // the group whose screen opens first, "" for the list
}

// openTUI connects to the effective context and runs the UI on it. The UI
// owns the connection and closes it. When no broker answers (nothing
// listens, or nothing answers in time), the UI opens anyway, shows why and
// keeps trying with its backoff; a bad configuration, certificate or
// credentials still ends kgroups with the error.
func openTUI(ctx context.Context, a *app, o openOptions) error {
	if err := needTerminal(a, "kgroups list, describe and health print what it shows without one"); err != nil {
		return err
	}
	cc, err := a.cluster()
	if err != nil {
		return err
	}
	var opts tui.Options
	cl, err := a.dial(ctx, cc)
	switch {
	case err == nil:
		opts = tuiOptions(cc, cl)
	case errors.Is(err, kafka.ErrUnreachable) && ctx.Err() == nil:
		later := &laterClient{cc: cc, log: a.log}
		opts = tuiOptions(cc, nil)
		opts.Poller, opts.Writers, opts.Diagnosis = later, laterWriters(cc, later), &laterDiagnosis{l: later}
	default:
		return err
	}
	opts.InitialGroup = o.group
	opts.Connection = connectionArgs(cc, a.selection())
	if cfg, err := a.config(); err == nil && len(cfg.Contexts) > 0 {
		opts.Contexts = cfg.Names()
		opts.Switch = switcher(cfg, a.selection(), a.log)
	}
	return runTUI(ctx, a, opts)
}

// openDemoUI is `kgroups demo` without --headless: the UI on the embedded
// cluster.
func openDemoUI(ctx context.Context, a *app, brokers []string) error {
	cc := config.Cluster{Name: "demo", Brokers: brokers, Refresh: config.DefaultRefresh}
	cl, err := kafka.ConnectLogged(ctx, cc, a.log)
	if err != nil {
		return err
	}
	opts := tuiOptions(cc, cl)
	// The demo's cluster is no context: its suggestions name the brokers.
	opts.Connection = []string{"-b", strings.Join(brokers, ",")}
	opts.NoSwitch = demoNoSwitch
	return runTUI(ctx, a, opts)
}

// needTerminal refuses to open the UI when standard input is a file that
// is not a terminal (/dev/null, a pipe: ssh without -t, cron): the UI
// could read no key, and Bubble Tea's own error says nothing a user
// can act on. instead says what works without a terminal.
func needTerminal(a *app, instead string) error {
	f, ok := a.stdin.(*os.File)
	if !ok || term.IsTerminal(f.Fd()) {
		return nil
	}
	return fmt.Errorf("the terminal UI needs a terminal, and standard input is not one (in ssh, add -t); %s", instead)
}

// demoNoSwitch is what `:ctx NAME` says in the demo.
const demoNoSwitch = "the demo has one context: quit, then kgroups --context NAME for another cluster"

// runTUI runs the UI on the app's terminal. The UI owns opts.Poller and
// closes it.
func runTUI(ctx context.Context, a *app, opts tui.Options) error {
	if opts.Input == nil {
		opts.Input = a.stdin
	}
	if opts.Output == nil {
		opts.Output = a.stdout
	}
	opts.Log = a.log
	mctx, stop := context.WithCancel(ctx)
	defer stop()
	keepMemoryNearLive(mctx, a.getenv, opts.Refresh)
	// A signal stops the UI at once, and the answers of its writes with
	// it: those in flight when it came are reported here, as the CLI
	// reports its own (outcome unknown, the receipt, exit 4).
	flights, err := writesInFlightAt(ctx, func() error { return tui.Run(ctx, opts) })
	if err == nil && len(flights) > 0 {
		return interruptedWrites(ctx, flights)
	}
	return err
}

// pollRounds is how many request timeouts one poll may take: it lists
// groups, describes them, fetches their offsets and lists log offsets, one
// round after another.
const pollRounds = 4

// tuiOptions are the UI's options for cc; with a nil cl, the caller sets
// Poller and Writers.
func tuiOptions(cc config.Cluster, cl *kafka.Client) tui.Options {
	opts := tui.Options{ContextInfo: contextInfo(cc, cl), Receipts: receiptsDir()}
	if cl != nil {
		opts.Poller = cl
	}
	return opts
}

// contextInfo is what the UI holds for the context cc, connected by cl
// (nil: the caller sets Writers and Diagnosis): the UI opens on one and
// `:ctx` switches to another, so a per-context setting is set here once.
// Connection is left to the caller, who knows the command line.
func contextInfo(cc config.Cluster, cl *kafka.Client) tui.ContextInfo {
	info := tui.ContextInfo{
		Name:      receiptContext(cc),
		Brokers:   cc.Brokers,
		Refresh:   cc.Refresh,
		Timeout:   pollTimeout(cc.RequestTimeout),
		ReadOnly:  cc.ReadOnly,
		Protected: cc.Protected,
	}
	if cl != nil {
		info.Writers, info.Diagnosis = writers(cc, cl), diagnosisReader(cl)
	}
	return info
}

// receiptsDir is the receipts folder, "" when there is none to find.
func receiptsDir() string {
	dir, err := receipt.DefaultDir()
	if err != nil {
		return ""
	}
	return dir
}

// writers binds the UI's writes to the context's connection: resets,
// deletions and member removals, each with its receipt in the usual
// directory (none without one, as the CLI refuses to apply without a
// receipt). Member removal is the same Service `kgroups rebalance
// --execute` uses.
func writers(cc config.Cluster, cl *kafka.Client) tui.Writers {
	var w tui.Writers
	if dir, err := receipt.DefaultDir(); err == nil {
		w.Reset = &reset.Service{Client: cl, ReceiptDir: dir, Context: receiptContext(cc)}
		w.Members = &rebalance.Service{Client: cl, ReceiptDir: dir, Context: receiptContext(cc)}
	}
	return w
}

func pollTimeout(request time.Duration) time.Duration {
	if request <= 0 {
		request = config.DefaultRequestTimeout
	}
	return pollRounds * request
}

// switcher connects to another context of cfg for `:ctx NAME`. The
// command line's settings still apply, except the connection settings
// (config.Setting.Connection: brokers, TLS and SASL), which only make sense
// for the cluster they were given for. The new connection logs to log (nil:
// nowhere).
func switcher(cfg *config.Config, sel config.Selection, log *slog.Logger) func(context.Context, string) (tui.Poller, tui.ContextInfo, error) {
	var keep []config.Override
	for _, o := range sel.Overrides {
		if s, ok := config.Lookup(o.Key); ok && s.Connection {
			continue
		}
		keep = append(keep, o)
	}
	return func(ctx context.Context, name string) (tui.Poller, tui.ContextInfo, error) {
		cc, err := cfg.Effective(config.Selection{Context: name, ContextSource: config.Source{Name: ":ctx"}, Overrides: keep, Config: sel.Config})
		if err != nil {
			return nil, tui.ContextInfo{}, err
		}
		cl, err := kafka.ConnectLogged(ctx, cc, log)
		if err != nil {
			return nil, tui.ContextInfo{}, err
		}
		info := contextInfo(cc, cl)
		info.Connection = connectionArgs(cc, config.Selection{Overrides: keep})
		return cl, info, nil
	}
}

// uiRetentionMaxAge is how long the UI keeps a topic's retention.ms before
// the Diagnosis tab's reads fetch it again.
const uiRetentionMaxAge = 5 * time.Minute

// diagnosisReader is the Diagnosis tab's reader on cl: the one
// `kgroups diagnose` uses, keeping retention.ms for uiRetentionMaxAge.
func diagnosisReader(cl *kafka.Client) *diagnose.Reader {
	r := diagnose.NewReader(cl)
	r.RetentionMaxAge = uiRetentionMaxAge
	return r
}
