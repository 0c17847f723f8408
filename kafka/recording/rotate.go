package recording

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Rotating writes polls to a series of files, starting the next when the
// current one reaches MaxBytes or MaxAge. Every file is a recording of
// its own, with the header and a whole first poll, so that each opens
// alone.
type Rotating struct {
	// Name is the name of the i-th file, from 1.
	Name func(i int, start time.Time) string
	// Header is written at the start of every file (Started is set to
	// the file's first poll).
	Header Header
	// MaxBytes and MaxAge end a file once it reaches either; 0 means no
	// limit.
	MaxBytes int64
	MaxAge   time.Duration
	// Prune, when not nil, is called after a file is finished, with the
	// name of the one now written: serve --record drops old files there.
	Prune func(current string)

	cur     *File
	started time.Time
	n       int
	done    []string
}

// Numbered names files as `kgroups record -o` does: base for the first,
// then base with .2, .3 ... before its extension.
func Numbered(base string) func(int, time.Time) string {
	return func(i int, _ time.Time) string {
		if i == 1 {
			return base
		}
		ext := filepath.Ext(base)
		return strings.TrimSuffix(base, ext) + "." + strconv.Itoa(i) + ext
	}
}

// Write appends p to the current file, first starting a new one when the
// current one is full.
func (r *Rotating) Write(p Poll) error {
	if r.cur != nil && r.full(p.Time) {
		if err := r.finish(); err != nil {
			return err
		}
	}
	if r.cur == nil {
		r.n++
		h := r.Header
		h.Started = p.Time
		name := r.Name(r.n, p.Time)
		f, err := Create(name, h)
		if err != nil {
			return err
		}
		r.cur, r.started = f, p.Time
		if r.Prune != nil {
			r.Prune(name)
		}
	}
	return r.cur.Write(p)
}

func (r *Rotating) full(t time.Time) bool {
	return (r.MaxBytes > 0 && r.cur.Size() >= r.MaxBytes) || (r.MaxAge > 0 && t.Sub(r.started) >= r.MaxAge)
}

func (r *Rotating) finish() error {
	err := r.cur.Close()
	r.done = append(r.done, r.cur.Path())
	r.cur = nil
	if err != nil {
		return fmt.Errorf("close %s: %w", r.done[len(r.done)-1], err)
	}
	return nil
}

// Files are the files written so far, the current one last.
func (r *Rotating) Files() []string {
	out := slices.Clone(r.done)
	if r.cur != nil {
		out = append(out, r.cur.Path())
	}
	return out
}

// Polls counts the polls written to the current file.
func (r *Rotating) Polls() int {
	if r.cur == nil {
		return 0
	}
	return r.cur.Polls()
}

// Close closes the current file.
func (r *Rotating) Close() error {
	if r.cur == nil {
		return nil
	}
	return r.finish()
}

// dirPrefix starts the name of every file serve --record writes.
const dirPrefix = "kgroups-"

// dirLayout is the time in those names: UTC, sorting as it reads.
const dirLayout = "20060102T150405Z"

// InDir names the files of a rolling recording in dir by the time of
// their first poll: kgroups-20261202T131500Z.kgrec.
func InDir(dir string) func(int, time.Time) string {
	return func(_ int, t time.Time) string {
		return filepath.Join(dir, dirPrefix+t.UTC().Format(dirLayout)+Ext)
	}
}

// DirFiles lists the recordings InDir wrote in dir, oldest first, with
// their sizes.
func DirFiles(dir string) ([]DirFile, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []DirFile
	for _, e := range entries {
		name := e.Name()
		stamp, ok := strings.CutPrefix(strings.TrimSuffix(name, Ext), dirPrefix)
		if !ok || !strings.HasSuffix(name, Ext) || !e.Type().IsRegular() {
			continue
		}
		t, err := time.Parse(dirLayout, stamp)
		if err != nil {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		out = append(out, DirFile{Path: filepath.Join(dir, name), Start: t, Size: info.Size()})
	}
	slices.SortFunc(out, func(a, b DirFile) int { return a.Start.Compare(b.Start) })
	return out, nil
}

// DirFile is one file of a rolling recording.
type DirFile struct {
	Path  string
	Start time.Time
	Size  int64
}

// PruneDir removes the oldest files of dir's rolling recording, never
// current, until the rest hold at most maxBytes (0: no limit) and none
// started more than keep before now (0: no limit). It returns the files
// removed.
func PruneDir(dir, current string, maxBytes int64, keep time.Duration, now time.Time) ([]string, error) {
	files, err := DirFiles(dir)
	if err != nil {
		return nil, err
	}
	var total int64
	for _, f := range files {
		total += f.Size
	}
	var removed []string
	for i, f := range files {
		if f.Path == current {
			break
		}
		// A file's polls end where the next begins.
		end := now
		if i+1 < len(files) {
			end = files[i+1].Start
		}
		tooBig := maxBytes > 0 && total > maxBytes
		tooOld := keep > 0 && now.Sub(end) > keep
		if !tooBig && !tooOld {
			break
		}
		if err := os.Remove(f.Path); err != nil {
			return removed, err
		}
		total -= f.Size
		removed = append(removed, f.Path)
	}
	return removed, nil
}
