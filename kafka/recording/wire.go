package recording

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// enc appends the format's primitives to a byte slice.
type enc struct{ b []byte }

func (e *enc) byte(v byte)      { e.b = append(e.b, v) }
func (e *enc) uvarint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *enc) varint(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *enc) bool(v bool) {
	if v {
		e.byte(1)
	} else {
		e.byte(0)
	}
}
func (e *enc) bytes(v []byte) {
	e.uvarint(uint64(len(v)))
	e.b = append(e.b, v...)
}

// errCorrupt is what every malformed frame gives; the reader wraps it
// with where it was found.
var errCorrupt = errors.New("malformed frame")

// dec reads the format's primitives from a frame. The first error sticks:
// every later read returns zero values, so a decoder checks err once at
// the end of a block rather than after each read.
type dec struct {
	b   []byte
	err error
}

func (d *dec) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", errCorrupt, fmt.Sprintf(format, args...))
		d.b = nil
	}
}

func (d *dec) byte() byte {
	if len(d.b) == 0 {
		d.fail("ends early")
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}

func (d *dec) bool() bool {
	switch d.byte() {
	case 0:
		return false
	case 1:
		return true
	}
	d.fail("a flag is neither 0 nor 1")
	return false
}

func (d *dec) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("bad unsigned number")
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *dec) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail("bad number")
		return 0
	}
	d.b = d.b[n:]
	return v
}

// int32 reads a number that must fit in 32 bits.
func (d *dec) int32() int32 {
	v := d.varint()
	if int64(int32(v)) != v {
		d.fail("number %d does not fit in 32 bits", v)
		return 0
	}
	return int32(v)
}

// count reads a count of items each taking at least least bytes, and
// refuses one the rest of the frame cannot hold: no count read from a
// file makes the reader allocate more than the file's size.
func (d *dec) count(least int) int {
	v := d.uvarint()
	if d.err != nil {
		return 0
	}
	if v > uint64(len(d.b)/max(least, 1)) {
		d.fail("count %d exceeds what the frame holds", v)
		return 0
	}
	return int(v)
}

func (d *dec) bytes() []byte {
	n := d.count(1)
	if d.err != nil {
		return nil
	}
	v := d.b[:n:n]
	d.b = d.b[n:]
	return v
}
