package main

import (
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kgroups/kgroups/kafka/debuglog"
)

// startDebug opens the debug trace named by --debug or KGROUPS_DEBUG, if
// any, before the command runs, and logs which build runs which command.
// Only the names of the flags given are logged, never their values or the
// arguments, which may name secrets' files or hold what a user typed. A
// path that cannot be a log (a directory, a device, an unwritable place)
// is a usage error. Without a path nothing is opened and a.log stays
// debuglog.Discard.
func (a *app) startDebug(cmd *cobra.Command, args []string) error {
	path := a.globals.DebugPath()
	if path == "" || a.logFile != nil {
		return nil
	}
	f, err := debuglog.Open(path)
	if err != nil {
		return usageError{err}
	}
	a.logFile, a.log, a.started = f, debuglog.New(f), time.Now()
	bi, _ := debug.ReadBuildInfo()
	info := resolveBuildInfo(version, commit, date, bi)
	flags := []string{}
	cmd.Flags().Visit(func(f *pflag.Flag) { flags = append(flags, "--"+f.Name) })
	a.log.Debug("start", "version", info.Version, "commit", info.Commit, "go", info.GoVersion, "platform", info.Platform,
		"command", cmd.CommandPath(), "flags", flags, "args", len(args))
	return nil
}

// endDebug logs how the run ended and closes the trace.
func (a *app) endDebug(code int, err error) {
	if a.logFile == nil {
		return
	}
	a.log.Debug("exit", "code", code, "duration", time.Since(a.started).Round(time.Millisecond), "err", err)
	_ = a.logFile.Close()
	a.logFile, a.log = nil, debuglog.Discard
}
