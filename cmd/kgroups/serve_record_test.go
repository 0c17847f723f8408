package main

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/fixture"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/recording"
)

// TestServeRecordsWhatItJudges: serve --record writes every poll to its
// folder; replaying the file judges every group as serve did. Files are
// named by their first poll, and the oldest go once past --record-keep.
func TestServeRecordsWhatItJudges(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rec")
	rec, err := parseServeRecord(serveRecordFlags{dir: dir, keep: 24 * time.Hour, maxSize: "1GB"})
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(dir); err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("the folder: %v, %v; want it made 0700", st, err)
	}
	n := 0
	poll := func(context.Context) (*kafka.Snapshot, error) {
		s := fixture.Evolving(n)
		n++
		return s, nil
	}
	var notes []string
	e := newExporter(serveOptions{interval: fixture.PollEvery, timeout: time.Minute, record: rec}, poll, nil, [2]string{"test", "go"})
	e.note = func(s string) { notes = append(notes, s) }
	e.startRecording()
	const polls = 14
	for range polls {
		e.pollOnce(context.Background())
	}
	if err := e.sink.Close(); err != nil {
		t.Fatal(err)
	}
	files, err := recording.DirFiles(dir)
	if err != nil || len(files) != 1 {
		t.Fatalf("%d files (%v): %+v", len(files), err, files)
	}
	if want := filepath.Join(dir, "kgroups-"+fixture.Epoch.UTC().Format("20060102T150405Z")+".kgrec"); files[0].Path != want {
		t.Errorf("file %s, want %s", files[0].Path, want)
	}
	got, err := recording.Load(files[0].Path)
	if err != nil || len(got.Polls) != polls {
		t.Fatalf("%d polls: %v", len(got.Polls), err)
	}
	l := lag.NewTracker(got.Header.Config())
	for _, p := range got.Polls {
		recording.Feed(l, p)
	}
	last := got.Polls[polls-1].Snapshot
	for i := range last.Groups {
		a, b := l.Group(last, i), e.loop.Tracker.Group(last, i)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: the replay judges %+v, serve judged %+v", last.Groups[i].Name, a, b)
		}
	}
	if len(notes) != 0 {
		t.Errorf("notes: %q", notes)
	}

	// A file a poll: the files of 2025 are past a day old, so each new
	// one removes the one before.
	rec.fileBytes = 1
	e = newExporter(serveOptions{interval: fixture.PollEvery, timeout: time.Minute, record: rec}, poll, nil, [2]string{"test", "go"})
	e.note = func(s string) { notes = append(notes, s) }
	e.startRecording()
	for range 3 {
		e.pollOnce(context.Background())
	}
	_ = e.sink.Close()
	files, _ = recording.DirFiles(dir)
	if len(files) != 1 || len(notes) != 3 || !strings.HasPrefix(notes[0], "--record: removed "+filepath.Join(dir, "kgroups-")) {
		t.Errorf("after three files: %+v, notes %q", files, notes)
	}
}

func TestServeRecordUsageErrors(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	const help = "Run 'kgroups serve --help' for usage.\n"
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"serve", "--record", file}, "kgroups: --record " + file + " is not a folder: give the folder the recording's files go in\n"},
		{[]string{"serve", "--record", t.TempDir(), "--record-keep", "0s"}, "kgroups: invalid --record-keep 0s: it must be above zero\n"},
		{[]string{"serve", "--record", t.TempDir(), "--record-max-size", "big"}, "kgroups: invalid --record-max-size \"big\": give a size above zero such as 500MB, 1GB, 2GiB\n"},
	} {
		code, stdout, stderr := kg(t, append([]string{"-b", "127.0.0.1:1", "--timeout", "1s"}, tc.args...)...)
		if code != 2 || stdout != "" || stderr != tc.stderr+help {
			t.Errorf("%q: exit %d stdout %q stderr %q, want exit 2 and %q", tc.args, code, stdout, stderr, tc.stderr+help)
		}
	}
}
