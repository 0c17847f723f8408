package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/views/render"
)

// Exit codes. Scripts depend on these.
const (
	exitOK        = 0
	exitError     = 1 // a runtime failure: unreachable cluster, unknown group, ...
	exitUsage     = 2 // bad flags or arguments
	exitUnhealthy = 3 // kgroups health: a group at or above --fail-on
	// exitUnknown: a write whose outcome is not known (no answer came, or
	// the re-read failed), or that another writer changed after ours. It
	// wins over exitError when both apply: a refusal changed nothing, an
	// unknown outcome needs a human to look.
	exitUnknown = 4
)

// usageError marks an error caused by how the command was called. It is
// made where the mistake is found: a command's own validation, cobra's flag
// parsing (SetFlagErrorFunc), its argument checks (typeArgErrors) and a bad
// setting given as a flag (config.FromFlags).
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
	stderr = silenceCompletion(args, stderr)
	a := newApp(stdin, stdout, stderr, os.Getenv)
	a.ctx = ctx
	root := commandTree(a, args)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteContextC(ctx)
	code := exitCodeFor(stderr, cmd, err)
	a.endDebug(code, err)
	return code
}

// commandTree is the root command with every registered command under it,
// ready to run args: typed argument errors, and the root's completions
// (each command registers its own where it declares its flags).
func commandTree(a *app, args []string) *cobra.Command {
	root := newRootCmd(a)
	for _, f := range subcommands {
		root.AddCommand(f(a))
	}
	root.SetFlagErrorFunc(flagError)
	// cobra adds these when it runs; added now, their argument checks are
	// typed too.
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd(args...)
	useBashFallback(root)
	typeArgErrors(root)
	addRootCompletions(root, a)
	return root
}

// exitCode prints err, terminal-safe, and says which exit code it means.
func exitCode(stderr io.Writer, err error) int { return exitCodeFor(stderr, nil, err) }

// exitCodeFor is exitCode for an error of cmd, whose help a usage error
// points at.
func exitCodeFor(stderr io.Writer, cmd *cobra.Command, err error) int {
	if err == nil {
		return exitOK
	}
	var ec exitCodeError
	if errors.As(err, &ec) {
		if ec.err != nil {
			printError(stderr, ec.err)
		}
		return ec.code
	}
	printError(stderr, err)
	var ue usageError
	if errors.As(err, &ue) {
		_ = render.Print(stderr, usageHint(cmd))
		return exitUsage
	}
	return exitError
}

// printError writes "kgroups: " and the error, each line made terminal-safe:
// group names and broker error strings end up in errors.
func printError(w io.Writer, err error) {
	_ = render.Print(w, "kgroups: "+err.Error())
}

// typeArgErrors makes the argument checks of c and every command under it
// return usage errors: a wrong number of arguments, or an unknown command.
// A command without a check keeps cobra's default (a root with subcommands
// takes no arguments; any other command takes any). A command that only
// groups others (config, completion) prints its help when called alone,
// as cobra does, but an unknown subcommand of it is an error too, not
// its help and exit 0.
func typeArgErrors(c *cobra.Command) {
	if c.HasParent() && c.HasSubCommands() && !c.Runnable() {
		c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	}
	check := c.Args
	c.Args = func(cmd *cobra.Command, args []string) error {
		var err error
		switch {
		case cmd.HasSubCommands() && len(args) > 0:
			err = unknownCommand(cmd, args[0])
		case check != nil:
			err = check(cmd, args)
		}
		if err != nil {
			return usageError{err}
		}
		return nil
	}
	for _, sub := range c.Commands() {
		typeArgErrors(sub)
	}
}

func newRootCmd(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:   "kgroups",
		Short: "Watch and operate Kafka consumer groups",
		Long: "kgroups shows every consumer group's state, members, assignments, committed offsets and lag, live.\n" +
			"Run without a command, it opens the terminal UI on the current context.\n\n" +
			"Clusters are named contexts in a configuration file; -b/--brokers works without one.\n" +
			"TLS and SASL flags (--tls, --tls-ca-file, --sasl-mechanism, ...) are not listed below: kgroups config --help\n" +
			"lists them with the file format and every KGROUPS_* variable.",
		SilenceUsage:  true,
		SilenceErrors: true,
		// Bare `kgroups` opens the live UI, as `kgroups tui` does.
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return openTUI(cmd.Context(), a, openOptions{})
		},
		// Every command (no other sets a PersistentPreRunE) starts the
		// debug trace first.
		PersistentPreRunE: a.startDebug,
	}
	root.PersistentFlags().AddFlagSet(a.globals.Flags())
	addVersionFlag(root, a)
	return root
}
