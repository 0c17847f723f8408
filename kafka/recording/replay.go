package recording

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/watch"
)

// Config is the lag configuration the recorder judged with, derived
// from the header as `kgroups serve` derives its own: the groups screen's
// history (lag.DefaultConfig) without a window, watch.Config over the
// window at the recording's refresh with one. Replaying with it gives,
// poll by poll, the verdicts the recorder saw.
func (h Header) Config() lag.Config {
	if h.Window > 0 && h.Refresh > 0 {
		cfg, _ := watch.Config(h.Window, h.Refresh)
		return cfg
	}
	return lag.DefaultConfig()
}

// Judger is what a replay feeds: a lag.Tracker, or a lag.History through
// ForHistory.
type Judger interface {
	Add(*kafka.Snapshot)
	AddExact(map[kafka.CommitKey]kafka.RecordTime)
}

// Feed gives j one recorded poll as the recorder gave its own tracker:
// the snapshot, then the records read after it. A failed poll changes
// nothing, as live.
func Feed(j Judger, p *Poll) {
	if p.Snapshot == nil {
		return
	}
	j.Add(p.Snapshot)
	if p.Exact != nil {
		j.AddExact(p.Exact)
	}
}

// ForHistory is h as a Judger.
func ForHistory(h *lag.History) Judger { return historyJudger{h} }

type historyJudger struct{ *lag.History }

func (h historyJudger) AddExact(recs map[kafka.CommitKey]kafka.RecordTime) { h.History.AddExact(recs) }

// Sink takes polls: a Writer, a File, or a Rotating set of files.
type Sink interface {
	Write(Poll) error
}

// Recorder is the judged poll of watch.Loop that also writes every poll
// to a Sink: the snapshot (or why it failed), and the records the exact
// time-lag cycle read after it, so that a replay judges the same polls
// with the same records.
type Recorder struct {
	watch.Loop
	Sink Sink
	// Now is the clock of a failed poll's time (time.Now when nil).
	Now func() time.Time
}

// Step polls once, judges the poll, reads the exact records the tracker
// wants and writes all of it. The snapshot's time loses its monotonic
// reading first, so that the live judging uses the very times the file
// keeps. err is the poll's error; werr the recording's.
func (r *Recorder) Step(ctx context.Context) (snap *kafka.Snapshot, exactErr, err, werr error) {
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	start := now()
	var got map[kafka.CommitKey]kafka.RecordTime
	loop := r.Loop
	poll := loop.Poll
	loop.Poll = func(ctx context.Context) (*kafka.Snapshot, error) {
		s, err := poll(ctx)
		if s != nil {
			s.Time = s.Time.Round(0)
		}
		return s, err
	}
	if read := loop.Read; read != nil {
		loop.Read = func(ctx context.Context, parts []kafka.PartitionOffsets) (map[kafka.CommitKey]kafka.RecordTime, error) {
			recs, err := read(ctx, parts)
			if err == nil {
				got = recs
				if got == nil {
					got = map[kafka.CommitKey]kafka.RecordTime{}
				}
			}
			return recs, err
		}
	}
	snap, exactErr, err = loop.Step(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, err, nil
		}
		return nil, nil, err, r.Sink.Write(Poll{Time: start.Round(0), Err: err})
	}
	return snap, exactErr, nil, r.Sink.Write(Poll{Time: snap.Time, Snapshot: snap, Exact: got})
}

// File is a recording being written to a file.
type File struct {
	f    *os.File
	w    *Writer
	path string
}

// Create creates the recording path, refusing to replace a file there,
// and writes its header. The file is readable by its owner only: it
// names the cluster's groups, members and hosts.
func Create(path string, h Header) (*File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("%s already exists: kgroups never writes over a recording; give another file name", path)
		}
		return nil, err
	}
	w, err := NewWriter(f, h)
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &File{f: f, w: w, path: path}, nil
}

// Write appends a poll, in one write: a crash loses at most this poll.
func (f *File) Write(p Poll) error {
	if err := f.w.Write(p); err != nil {
		return fmt.Errorf("%s: %w", f.path, err)
	}
	return nil
}

// Size is the file's size so far.
func (f *File) Size() int64 { return f.w.Size() }

// Polls is how many polls the file holds.
func (f *File) Polls() int { return f.w.Polls() }

// Path is the file's name.
func (f *File) Path() string { return f.path }

// Close flushes the file to disk and closes it.
func (f *File) Close() error {
	err := f.f.Sync()
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Recording is a whole recording read into memory.
type Recording struct {
	Header Header
	Polls  []*Poll
	// Torn says why the reading stopped before the end of the file (a
	// recording cut by a crash, or still being written); nil when whole.
	Torn error
}

// Load reads the whole recording at path. Polls share what did not
// change between them, so a long recording of a quiet cluster stays
// small in memory.
func Load(path string) (*Recording, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	rec, err := ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rec, nil
}

// ReadAll reads every poll of r.
func ReadAll(r io.Reader) (*Recording, error) {
	rd, err := NewReader(r)
	if err != nil {
		return nil, err
	}
	rec := &Recording{Header: rd.Header}
	for {
		p, err := rd.Next()
		if errors.Is(err, io.EOF) {
			rec.Torn = rd.Torn()
			return rec, nil
		}
		if err != nil {
			return nil, err
		}
		rec.Polls = append(rec.Polls, p)
	}
}

// Snapshots counts the polls that took a snapshot.
func (r *Recording) Snapshots() int {
	n := 0
	for _, p := range r.Polls {
		if p.Snapshot != nil {
			n++
		}
	}
	return n
}

// Index is the last poll with a snapshot taken at or before t, or -1
// when there is none.
func (r *Recording) Index(t time.Time) int {
	at := -1
	for i, p := range r.Polls {
		if p.Time.After(t) {
			break
		}
		if p.Snapshot != nil {
			at = i
		}
	}
	return at
}

// Start and End are the times of the first and last polls.
func (r *Recording) Start() time.Time {
	if len(r.Polls) == 0 {
		return r.Header.Started
	}
	return r.Polls[0].Time
}

// End is the time of the last poll.
func (r *Recording) End() time.Time {
	if len(r.Polls) == 0 {
		return r.Header.Started
	}
	return r.Polls[len(r.Polls)-1].Time
}
