// Package debuglog is kgroups' debug trace: the file --debug (or
// KGROUPS_DEBUG) names, an slog text handler at DEBUG with every secret
// kgroups resolves redacted, and the adapter that sends franz-go's own log
// there.
//
// The logger is made once, by cmd, and handed down in structs: kafka.Client
// carries it from kafka.Connect (so the poll, the exact reads and the write
// services log through their client), and tui.Options carries it to the UI.
// Without --debug the logger is Discard: every call returns at its Enabled
// check, nothing is formatted and no file exists.
package debuglog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Discard is the logger of a run without --debug.
var Discard = slog.New(slog.DiscardHandler)

// Or returns l, or Discard when l is nil, so that holders of a logger
// never check for nil.
func Or(l *slog.Logger) *slog.Logger {
	if l == nil {
		return Discard
	}
	return l
}

// On says whether l writes anything: callers guard work done only for the
// log (counting a poll's partitions) with it.
func On(l *slog.Logger) bool {
	return l != nil && l.Enabled(context.Background(), slog.LevelDebug)
}

// Open opens the debug log at path for appending, creating it readable and
// writable by its owner only (0600), and makes an existing file private
// too: the log names clusters, groups and hosts. It never follows a
// symbolic link (the last part of path is opened with O_NOFOLLOW, so a
// link, dangling or not, is refused and nothing is made or changed where
// it points), never waits on a FIFO (opened non-blocking, then checked),
// and appends only to a regular file owned by the user. A directory, a
// device, a FIFO, a link, another user's file or a path kgroups cannot
// write is refused with an error naming the path.
func Open(path string) (*os.File, error) {
	if path == "" {
		return nil, fmt.Errorf("debug log: no file given")
	}
	if st, err := os.Lstat(path); err == nil {
		switch {
		case st.Mode()&fs.ModeSymlink != 0:
			return nil, fmt.Errorf("debug log %s is a symbolic link: give the path of a file of your own (kgroups does not follow links for its log)", path)
		case st.IsDir():
			return nil, fmt.Errorf("debug log %s is a directory: give a file to append to", path)
		case !st.Mode().IsRegular():
			return nil, fmt.Errorf("debug log %s is not a regular file: give a file to append to", path)
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|oNoFollow|oNonBlock, 0o600)
	if err != nil {
		if st, lerr := os.Lstat(path); lerr == nil && st.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("debug log %s is a symbolic link: give the path of a file of your own (kgroups does not follow links for its log)", path)
		}
		return nil, fmt.Errorf("debug log %s cannot be written: %w", path, unwrapPath(err))
	}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("debug log %s: %w", path, unwrapPath(err))
	}
	if !st.Mode().IsRegular() {
		_ = f.Close()
		return nil, fmt.Errorf("debug log %s is not a regular file: give a file to append to", path)
	}
	if owner := ownerProblem(st); owner != "" {
		_ = f.Close()
		return nil, fmt.Errorf("debug log %s is %s: give the path of a file of your own", path, owner)
	}
	if st.Mode().Perm()&0o077 != 0 {
		if err := f.Chmod(0o600); err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("debug log %s cannot be made private (0600): %w", path, unwrapPath(err))
		}
	}
	return f, nil
}

// unwrapPath drops the *os.PathError around err, whose path the caller's
// message already names.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// New is the debug logger writing to w: one text line a record, the time
// with milliseconds, every level from DEBUG, every resolved secret
// redacted (Redact registers them).
func New(w io.Writer) *slog.Logger {
	h := slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug, ReplaceAttr: millis})
	return slog.New(newRedactor(h))
}

// timeLayout is RFC 3339 with milliseconds, in local time.
const timeLayout = "2006-01-02T15:04:05.000Z07:00"

func millis(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && a.Key == slog.TimeKey && a.Value.Kind() == slog.KindTime {
		return slog.String(slog.TimeKey, a.Value.Time().Format(timeLayout))
	}
	return a
}

// Kgo is franz-go's logger on l, at kgo's debug level (its most verbose:
// connections, metadata, retries, SASL steps), each record marked
// src=kgo. It is nil when l writes nothing, so that kgo keeps its own
// no-op logger and pays nothing.
func Kgo(l *slog.Logger) kgo.Logger {
	if !On(l) {
		return nil
	}
	return kgoLogger{l.With("src", "kgo")}
}

type kgoLogger struct{ l *slog.Logger }

func (kgoLogger) Level() kgo.LogLevel { return kgo.LogLevelDebug }

func (k kgoLogger) Log(level kgo.LogLevel, msg string, keyvals ...any) {
	k.l.Log(context.Background(), slogLevel(level), msg, keyvals...)
}

func slogLevel(l kgo.LogLevel) slog.Level {
	switch l {
	case kgo.LogLevelError:
		return slog.LevelError
	case kgo.LogLevelWarn:
		return slog.LevelWarn
	case kgo.LogLevelInfo:
		return slog.LevelInfo
	}
	return slog.LevelDebug
}
