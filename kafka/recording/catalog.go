package recording

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// Catalog is what a recording holds, without its snapshots: the header
// and each poll's time. It is read in one pass that decodes no
// snapshot, so a long recording of a large cluster is opened in the
// memory of its times; Walk and Cursor then read the polls themselves,
// one at a time, keeping none.
//
// A catalog is one file, or a folder of `serve --record`'s files taken
// in order as one recording: each file starts with a whole poll, and the
// polls are judged across them as serve judged them.
type Catalog struct {
	// Path is the file or folder.
	Path string
	// Header is the first file's.
	Header Header
	// Times are the polls' times; Taken says which took a snapshot.
	Times []time.Time
	Taken []bool
	// Torn says why the reading of the last file stopped before its end
	// (a recording cut by a crash, or still being written); nil when
	// whole.
	Torn error
	// files are the files read, in order; ends[k] is how many polls
	// files[:k+1] hold.
	files []string
	ends  []int
}

// OpenCatalog reads the catalog of the recording at path: a file, or a
// folder of serve --record's files (DirFiles).
func OpenCatalog(path string) (*Catalog, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	files := []string{path}
	if st.IsDir() {
		dfs, err := DirFiles(path)
		if err != nil {
			return nil, err
		}
		if len(dfs) == 0 {
			return nil, fmt.Errorf("%s holds no recording (files named %s*%s)", path, dirPrefix, Ext)
		}
		files = files[:0]
		for _, f := range dfs {
			files = append(files, f.Path)
		}
	}
	c := &Catalog{Path: path}
	for k, file := range files {
		if err := c.scan(file, k == 0); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// scan adds the polls of file to the catalog.
func (c *Catalog) scan(file string, first bool) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }()
	r, err := NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if first {
		c.Header = r.Header
	}
	for {
		t, taken, err := r.nextTime()
		if errors.Is(err, io.EOF) {
			// A file torn before the last is one a crash cut: the next
			// starts whole, with the recorder's restart.
			c.Torn = r.Torn()
			c.files = append(c.files, file)
			c.ends = append(c.ends, len(c.Times))
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		c.Times = append(c.Times, t)
		c.Taken = append(c.Taken, taken)
	}
}

// nextTime reads the next frame's time and whether it took a snapshot,
// decoding nothing else. A Reader that scans this way cannot then Next:
// the strings the frames add are not kept.
func (r *Reader) nextTime() (time.Time, bool, error) {
	if r.torn != nil {
		return time.Time{}, false, io.EOF
	}
	payload, err := r.frame()
	if err != nil {
		if !errors.Is(err, io.EOF) {
			r.torn = err
		}
		return time.Time{}, false, io.EOF
	}
	d := &dec{b: payload}
	if k := d.byte(); k != kindPoll {
		return time.Time{}, false, fmt.Errorf("poll %d of the recording: %w: a frame of kind %q where a poll belongs", r.polls+1, errCorrupt, k)
	}
	for n := d.count(1); n > 0 && d.err == nil; n-- {
		d.bytes()
	}
	t := unixNano(d.varint())
	flags := d.byte()
	if d.err != nil {
		return time.Time{}, false, fmt.Errorf("poll %d of the recording: %w", r.polls+1, d.err)
	}
	r.polls++
	return t, flags&pollSnapshot != 0, nil
}

// Len is how many polls the recording holds.
func (c *Catalog) Len() int { return len(c.Times) }

// Snapshots counts the polls that took a snapshot.
func (c *Catalog) Snapshots() int {
	n := 0
	for _, ok := range c.Taken {
		if ok {
			n++
		}
	}
	return n
}

// Index is the last poll with a snapshot taken at or before t, or -1
// when there is none.
func (c *Catalog) Index(t time.Time) int {
	return lastTaken(len(c.Times), func(i int) (time.Time, bool) { return c.Times[i], c.Taken[i] }, t)
}

// Start is the time of the first poll (the header's start without one).
func (c *Catalog) Start() time.Time {
	if len(c.Times) == 0 {
		return c.Header.Started
	}
	return c.Times[0]
}

// End is the time of the last poll.
func (c *Catalog) End() time.Time {
	if len(c.Times) == 0 {
		return c.Header.Started
	}
	return c.Times[len(c.Times)-1]
}

// Walk reads the polls from the first up to and including last, giving
// each to fn; nothing is kept between calls, so memory holds one poll
// and what fn keeps. The files must still be those catalogued: a poll
// they no longer hold is an error.
func (c *Catalog) Walk(last int, fn func(i int, p *Poll)) error {
	cur, err := c.Cursor()
	if err != nil {
		return err
	}
	defer func() { _ = cur.Close() }()
	for cur.Pos() <= last {
		i := cur.Pos()
		p, err := cur.Next()
		if err != nil {
			return err
		}
		fn(i, p)
	}
	return nil
}

// lastTaken is the last of n polls with a snapshot taken at or before t,
// or -1.
func lastTaken(n int, poll func(int) (time.Time, bool), t time.Time) int {
	at := -1
	for i := range n {
		pt, taken := poll(i)
		if pt.After(t) {
			break
		}
		if taken {
			at = i
		}
	}
	return at
}

// Cursor reads a recording's polls in order, one at a time, file after
// file, for a reader that goes forward at its own pace (the UI's
// replay). It is not safe for concurrent use.
type Cursor struct {
	c    *Catalog
	k    int // the file open
	f    *os.File
	r    *Reader
	next int // the index of the poll Next returns
}

// Cursor opens the recording at its first poll.
func (c *Catalog) Cursor() (*Cursor, error) {
	cur := &Cursor{c: c, k: -1}
	return cur, cur.open(0)
}

func (cur *Cursor) open(k int) error {
	if cur.f != nil {
		_ = cur.f.Close()
		cur.f, cur.r = nil, nil
	}
	cur.k = k
	if k >= len(cur.c.files) {
		return nil
	}
	file := cur.c.files[k]
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	r, err := NewReader(f)
	if err != nil {
		_ = f.Close()
		return fmt.Errorf("%s: %w", file, err)
	}
	cur.f, cur.r = f, r
	return nil
}

// Next reads the next poll. Past the catalogue's last poll it returns
// io.EOF; a poll the files no longer hold is an error.
func (cur *Cursor) Next() (*Poll, error) {
	if cur.next >= len(cur.c.Times) {
		return nil, io.EOF
	}
	for cur.k < len(cur.c.files) && cur.next >= cur.c.ends[cur.k] {
		if err := cur.open(cur.k + 1); err != nil {
			return nil, err
		}
	}
	if cur.r == nil {
		return nil, io.EOF
	}
	p, err := cur.r.Next()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: it holds fewer polls now than when it was read", cur.c.files[cur.k])
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cur.c.files[cur.k], err)
	}
	cur.next++
	return p, nil
}

// Pos is the index of the poll Next reads.
func (cur *Cursor) Pos() int { return cur.next }

// Close closes the file open.
func (cur *Cursor) Close() error {
	if cur.f == nil {
		return nil
	}
	err := cur.f.Close()
	cur.f, cur.r = nil, nil
	return err
}

// Files are the files the catalog reads, in order.
func (c *Catalog) Files() []string { return c.files }
