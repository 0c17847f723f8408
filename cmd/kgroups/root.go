package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/config"
)

// Exit codes. Scripts depend on these.
const (
	exitOK        = 0
	exitError     = 1 // a runtime failure: unreachable cluster, unknown group, ...
	exitUsage     = 2 // bad flags or arguments
	exitUnhealthy = 3 // kgroups health: a group at or above --fail-on
)

// usageError marks an error caused by how the command was called.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usageErrorf(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// exitCodeError carries a specific exit code (for example exitUnhealthy)
// together with an optional message.
type exitCodeError struct {
	code int
	err  error
}

func (e exitCodeError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}
func (e exitCodeError) Unwrap() error { return e.err }

// subcommands are registered by each command's file, so that adding a command
// touches only its own file.
var subcommands []func(*app) *cobra.Command

func register(f func(*app) *cobra.Command) { subcommands = append(subcommands, f) }

// run executes kgroups with args and returns the process exit code. It is the
// whole program apart from os.Exit, so tests drive it in-process.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, globals: config.NewCommandLine()}
	root := newRootCmd(a)
	for _, f := range subcommands {
		root.AddCommand(f(a))
	}
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	var ec exitCodeError
	if errors.As(err, &ec) {
		if ec.err != nil {
			fmt.Fprintln(stderr, "kgroups:", ec.err)
		}
		return ec.code
	}
	fmt.Fprintln(stderr, "kgroups:", err)
	var ce configError
	if errors.As(err, &ce) {
		return exitError
	}
	var ue usageError
	if errors.As(err, &ue) || isCobraUsageError(err) {
		fmt.Fprintln(stderr, "Run 'kgroups --help' for usage.")
		return exitUsage
	}
	return exitError
}

func newRootCmd(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:   "kgroups",
		Short: "Watch and operate Kafka consumer groups",
		Long: "kgroups shows every consumer group's state, members, assignments, committed offsets and lag, live.\n" +
			"Run without a command, it opens the terminal UI on the current context.\n\n" +
			"Clusters are named contexts in a configuration file; -b/--brokers works without one.\n" +
			"TLS and SASL settings, the file format and every KGROUPS_* variable: kgroups config --help.",
		SilenceUsage:  true,
		SilenceErrors: true,
		// Bare `kgroups` opens the live UI, as `kgroups tui` does.
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return openTUI(cmd.Context(), a, "")
		},
	}
	root.PersistentFlags().AddFlagSet(a.globals.Flags())
	return root
}
