package main

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/kgroups/kgroups/kafka/recording"
)

// The rolling recording's defaults: a day, at most a gigabyte, a file an
// hour.
const (
	defaultRecordKeep    = 24 * time.Hour
	defaultRecordMaxSize = "1GB"
	recordFileAge        = time.Hour
)

// serveRecordFlags are --record and its bounds as given.
type serveRecordFlags struct {
	dir     string
	keep    time.Duration
	maxSize string
}

func addServeRecordFlags(cmd *cobra.Command, f *serveRecordFlags) {
	fs := cmd.Flags()
	fs.StringVar(&f.dir, "record", "", "keep a rolling recording of every poll in `DIR` (kgroups replay reads it)")
	fs.DurationVar(&f.keep, "record-keep", defaultRecordKeep, "with --record, remove the files older than this")
	fs.StringVar(&f.maxSize, "record-max-size", defaultRecordMaxSize, "with --record, remove the oldest files past this total: 500MB, 2GiB")
	completeFlag(cmd, "record", dirs)
	completeFlag(cmd, "record-keep", fixed("6h", "24h", "168h"))
	completeFlag(cmd, "record-max-size", fixed("500MB", "1GB", "10GB"))
}

// parseServeRecord validates --record and its bounds, and creates the
// folder (0700) when missing, before anything connects.
func parseServeRecord(f serveRecordFlags) (serveRecord, error) {
	if f.dir == "" {
		return serveRecord{}, nil
	}
	r := serveRecord{dir: f.dir, keep: f.keep, fileAge: recordFileAge}
	if f.keep <= 0 {
		return r, usageErrorf("invalid --record-keep %s: it must be above zero", f.keep)
	}
	n, err := parseSize(f.maxSize)
	if err != nil || n <= 0 {
		return r, usageErrorf("invalid --record-max-size %q: give a size above zero such as 500MB, 1GB, 2GiB", f.maxSize)
	}
	r.maxBytes = n
	// A file never outgrows an eighth of the folder's cap, so removing
	// the oldest keeps most of what the cap allows.
	r.fileBytes = max(n/8, 1)
	st, err := os.Stat(f.dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(f.dir, 0o700); err != nil {
			return r, fmt.Errorf("--record: %w", err)
		}
	case err != nil:
		return r, fmt.Errorf("--record: %w", err)
	case !st.IsDir():
		return r, usageErrorf("--record %s is not a folder: give the folder the recording's files go in", f.dir)
	}
	return r, nil
}

// startRecording makes every poll of e also go to its rolling recording.
func (e *exporter) startRecording() {
	e.sink = recordSink(e.o, func(msg string) { e.note(msg) })
	e.rec = &recording.Recorder{Loop: e.loop, Sink: e.sink}
}

// recordSink is serve's rolling recording: a file an hour in the folder,
// the oldest removed past the bounds. note logs what it removes.
func recordSink(o serveOptions, note func(string)) *recording.Rotating {
	r := o.record
	h := recording.Header{Version: recording.Version, Refresh: o.interval, Window: o.window, Cluster: o.cluster, Program: "kgroups " + buildVersion()[0]}
	sink := &recording.Rotating{Name: recording.InDir(r.dir), Header: h, MaxBytes: r.fileBytes, MaxAge: r.fileAge}
	sink.Prune = func(current string) {
		removed, err := recording.PruneDir(r.dir, current, r.maxBytes, r.keep, time.Now())
		if err != nil {
			note(fmt.Sprintf("--record: removing old files of %s: %v", r.dir, err))
		}
		for _, f := range removed {
			note("--record: removed " + f)
		}
	}
	return sink
}
