package recording

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// Catalog is what a recording file holds, without its snapshots: the
// header and each poll's time. It is read in one pass that decodes no
// snapshot, so a long recording of a large cluster is opened in the
// memory of its times; Walk then reads the polls themselves, one at a
// time, keeping none.
type Catalog struct {
	Path   string
	Header Header
	// Times are the polls' times; Taken says which took a snapshot.
	Times []time.Time
	Taken []bool
	// Torn says why the reading stopped before the end of the file (a
	// recording cut by a crash, or still being written); nil when whole.
	Torn error
}

// OpenCatalog reads the catalog of the recording at path.
func OpenCatalog(path string) (*Catalog, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	r, err := NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c := &Catalog{Path: path, Header: r.Header}
	for {
		t, taken, err := r.nextTime()
		if errors.Is(err, io.EOF) {
			c.Torn = r.Torn()
			return c, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
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
// and what fn keeps. The file must still be the one catalogued: a poll
// it no longer holds is an error.
func (c *Catalog) Walk(last int, fn func(i int, p *Poll)) error {
	f, err := os.Open(c.Path)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }()
	r, err := NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %w", c.Path, err)
	}
	for i := 0; i <= last; i++ {
		p, err := r.Next()
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("%s: it holds %d polls now, %d when it was read", c.Path, i, len(c.Times))
		}
		if err != nil {
			return fmt.Errorf("%s: %w", c.Path, err)
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

// Cursor reads a recording's polls in order from an open file, one at a
// time, for a reader that goes forward at its own pace (the UI's
// replay). It is not safe for concurrent use.
type Cursor struct {
	f    *os.File
	r    *Reader
	next int // the index of the poll Next returns
}

// OpenCursor opens the recording at path at its first poll.
func OpenCursor(path string) (*Cursor, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r, err := NewReader(f)
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &Cursor{f: f, r: r}, nil
}

// Next reads the next poll; io.EOF past the last whole one.
func (c *Cursor) Next() (*Poll, error) {
	p, err := c.r.Next()
	if err == nil {
		c.next++
	}
	return p, err
}

// Pos is the index of the poll Next reads.
func (c *Cursor) Pos() int { return c.next }

// Close closes the file.
func (c *Cursor) Close() error { return c.f.Close() }
