package lag

import (
	"encoding/binary"
	"math"
	"unsafe"

	"github.com/kgroups/kgroups/kafka"
)

// A partition's history is one slab of bytes cut into sections, each an
// array of numbers of one class. Every class has, per partition, a base
// and a width of 0, 1, 2, 4 or 8 bytes: a number is stored as its distance
// from the base in that many bytes, with all bits set for kafka.NoOffset
// (a width of 8 stores the number itself). A width of 0 stores nothing: every
// number the history reads of that class is the base, and none is
// kafka.NoOffset, so a partition at rest (its commit and log end the same
// over the window, as on an idle topic, or for a group long gone) keeps
// its rings in no bytes at all, or only its polls' numbers. The numbers of
// a class stay close together over a window (offsets grow by what was
// produced or consumed in a few minutes, polls by their count), so most
// partitions keep every class in one or two bytes. A number that does not fit its
// class repacks the partition (repack): the bases move to the smallest
// value held and the widths grow or shrink to what the values need, so an
// encoding is never lossy; it only costs memory where the values of one
// class are far apart within the window (a burst of millions of records,
// a reset by billions). Committed offsets and log ends have bases of their
// own, so a large but steady lag costs nothing.
//
// Every ring has one slot more than the history reads (Samples+1 polls,
// TimePoints+1 points, Window+1 observations), so that the next poll
// writes only into a slot the latest poll's answers do not read: a copy
// of the History that shares the slabs (CopyFrom) can take a poll while
// the original is read, as the UI does (see CopyFrom).
const (
	secCommitted    = iota // committed offset per poll, a ring indexed by seq (Samples+1)
	secLogEnd              // log-end offset per poll, likewise (Samples+1)
	secPointOff            // time-lag points' log-end offsets (TimePoints+1)
	secPointSeq            // the polls the time-lag points were taken at (TimePoints+1; the newest's is partHist.ptTop)
	secObsSeq              // commit observations' polls (Window+1)
	secObsCommitted        // commit observations' committed offsets (Window+1)
	secObsLag              // commit observations' lags (Window+1)
	numSec
)

// The classes of numbers, each with one base and one width per partition.
const (
	clsCommitted = iota
	clsLogEnd
	clsLag
	clsSeq
	numCls
)

// secClass is the class of each section's numbers.
var secClass = [numSec]uint8{clsCommitted, clsLogEnd, clsLogEnd, clsSeq, clsSeq, clsCommitted, clsLag}

// layout is the length of each section in numbers, from the Config.
type layout [numSec]int

// A partition's widths are packed in one number, a digit in base
// numWidths per class (widthCodes: 0 for 1 byte, 1 for 2, 2 for 4, 3 for
// 8, 4 for none), so that there are numKeys keys, and each key has a
// derived twin, numKeys above it, whose slab leaves out the sections the
// samples give (derived.go). sectionStarts are the byte offsets of the
// sections for every key, the last one the slab's size.
type sectionStarts [numAllKeys][numSec + 1]int32

const (
	numWidths = 5
	numKeys   = numWidths * numWidths * numWidths * numWidths // numWidths^numCls
	// numAllKeys counts the derived keys too.
	numAllKeys = 2 * numKeys
)

// widthCodes are the widths a digit of a key stands for.
var widthCodes = [numWidths]uint8{1, 2, 4, 8, 0}

// keyWidths is the width of every class in every key, and keyWide
// reports the keys with a class in 4 or 8 bytes.
var (
	keyWidths [numAllKeys][numCls]uint8
	keyWide   [numAllKeys]bool
)

func init() {
	for k := range numAllKeys {
		d := k % numKeys
		for c := range numCls {
			w := widthCodes[d%numWidths]
			keyWidths[k][c] = w
			keyWide[k] = keyWide[k] || w >= 4
			d /= numWidths
		}
	}
}

func (l *layout) starts() *sectionStarts {
	var st sectionStarts
	for k := range st {
		for s := range numSec {
			n := l[s]
			if keyDerived(uint16(k)) && derivedSec[s] {
				n = 0
			}
			st[k][s+1] = st[k][s] + int32(n*int(keyWidth(uint16(k), secClass[s])))
		}
	}
	return &st
}

// keyWidth is the width of class c in the packed widths k.
func keyWidth(k uint16, c uint8) uint8 { return keyWidths[k][c] }

// widthKey packs widths of 0, 1, 2, 4 or 8 bytes.
func widthKey(width *[numCls]uint8) uint16 {
	var k, digit uint16 = 0, 1
	for _, w := range width {
		var code uint16
		for widthCodes[code] != w {
			code++
		}
		k += code * digit
		digit *= numWidths
	}
	return k
}

// wideKey is the key of 8 bytes for every class, and zeroKey that of 0
// bytes for every class.
var (
	wideKey = widthKey(&[numCls]uint8{8, 8, 8, 8})
	zeroKey = widthKey(&[numCls]uint8{0, 0, 0, 0})
)

func newLayout(cfg Config) layout {
	s, p, w := cfg.Samples+1, cfg.TimePoints+1, cfg.Window+1
	return layout{s, s, p, p, w, w, w}
}

// total is the number of numbers a partition holds.
func (l *layout) total() int {
	n := 0
	for _, k := range l {
		n += k
	}
	return n
}

// col is one section of a partition's slab.
type col struct {
	b    []byte
	w    uint8
	base int64
}

// col returns section sec of the partition's slab.
func (h *History) col(ph *partHist, sec int) col {
	st := &h.starts[ph.wkey]
	c := secClass[sec]
	return col{b: unsafe.Slice(ph.data, st[numSec])[st[sec]:st[sec+1]], w: keyWidth(ph.wkey, c), base: ph.base[c]}
}

// get decodes the i-th number, kafka.NoOffset for none.
func (c col) get(i int) int64 {
	switch c.w {
	case 0:
		return c.base
	case 1:
		if u := c.b[i]; u != math.MaxUint8 {
			return c.base + int64(u)
		}
	case 2:
		if u := binary.LittleEndian.Uint16(c.b[2*i:]); u != math.MaxUint16 {
			return c.base + int64(u)
		}
	case 4:
		if u := binary.LittleEndian.Uint32(c.b[4*i:]); u != math.MaxUint32 {
			return c.base + int64(u)
		}
	default:
		return int64(binary.LittleEndian.Uint64(c.b[8*i:]))
	}
	return kafka.NoOffset
}

// fits reports whether v can be stored: a negative v is stored as none,
// except in 0 bytes, which store only the base.
func (c col) fits(v int64) bool {
	if c.w == 0 {
		return v == c.base && v >= 0
	}
	return v < 0 || c.w == 8 || v >= c.base && uint64(v-c.base) < widthMax(c.w)
}

// set stores v, which must fit; a negative v is stored as none. In 0
// bytes it stores nothing: v is the base, or a slot the history no longer
// reads is cleared by a repack.
func (c col) set(i int, v int64) {
	if c.w == 0 {
		return
	}
	if c.w == 8 {
		if v < 0 {
			v = kafka.NoOffset
		}
		binary.LittleEndian.PutUint64(c.b[8*i:], uint64(v))
		return
	}
	u := widthMax(c.w)
	if v >= 0 {
		u = uint64(v - c.base)
	}
	switch c.w {
	case 1:
		c.b[i] = uint8(u)
	case 2:
		binary.LittleEndian.PutUint16(c.b[2*i:], uint16(u))
	default:
		binary.LittleEndian.PutUint32(c.b[4*i:], uint32(u))
	}
}

// widthMax is the all-ones value of a width, which stands for none; every
// distance below it can be stored.
func widthMax(w uint8) uint64 {
	switch w {
	case 1:
		return math.MaxUint8
	case 2:
		return math.MaxUint16
	case 4:
		return math.MaxUint32
	}
	return math.MaxUint64
}

// widthFor is the width a History stores span in: 8 bytes in a wide one,
// otherwise the narrowest that holds it.
func (h *History) widthFor(span uint64) uint8 {
	if h.wide {
		return 8
	}
	return widthFor(span)
}

// widthFor is the narrowest width that stores every distance up to span.
func widthFor(span uint64) uint8 {
	switch {
	case span < math.MaxUint8:
		return 1
	case span < math.MaxUint16:
		return 2
	case span < math.MaxUint32:
		return 4
	}
	return 8
}

// seedBases gives a partition that holds no number yet (new, or
// restarted) the bases of its first poll: commit c, log end end, their
// lag and the poll. Its classes take 0 bytes, so the first poll's numbers
// are their bases and are stored without a repack, in the encoding the
// repacks they would otherwise cause reach (each class in 0 bytes at the
// one number it holds). A number that is none, or a class the first poll
// stores two numbers in, repacks as before. Without it a first poll of
// 120,000 partitions made about two repacks of an empty slab each: 200 ms
// of the first frame at 10,000 groups.
func (h *History) seedBases(ph *partHist, c, end int64) {
	if c >= 0 {
		ph.base[clsCommitted] = c
	}
	if end >= 0 {
		ph.base[clsLogEnd] = end
	}
	if lag := lagOf(c, end); lag >= 0 {
		ph.base[clsLag] = lag
	}
	ph.base[clsSeq] = int64(h.seq)
}

// write is a number to store as number i of a section.
type write struct {
	sec, i int
	v      int64
}

// store2 stores a and b, repacking the partition when one of them does
// not fit. (Two and three writes have their own functions so that the
// columns stay in registers.)
func (h *History) store2(ph *partHist, a, b write) {
	ca, cb := h.col(ph, a.sec), h.col(ph, b.sec)
	if ca.fits(a.v) && cb.fits(b.v) {
		ca.set(a.i, a.v)
		cb.set(b.i, b.v)
		return
	}
	ws := [...]write{a, b}
	h.repack(ph, ws[:])
}

// store3 is store2 for three writes.
func (h *History) store3(ph *partHist, a, b, c write) {
	ca, cb, cc := h.col(ph, a.sec), h.col(ph, b.sec), h.col(ph, c.sec)
	if ca.fits(a.v) && cb.fits(b.v) && cc.fits(c.v) {
		ca.set(a.i, a.v)
		cb.set(b.i, b.v)
		cc.set(c.i, c.v)
		return
	}
	ws := [...]write{a, b, c}
	h.repack(ph, ws[:])
}

// repack re-encodes the partition with the writes stored: it decodes
// every number the history still reads (the samples of the polls in the
// ring, the points and the observations held; the newest point's poll is
// in the record), sets each class's base to its smallest value and its
// width to the narrowest that holds them all (0 bytes when they are all
// one number, or there are none, and none is none), and encodes them again. Numbers no longer
// read are set to none. The slab is reallocated only
// when its size changes, so a partition whose offsets keep growing at the
// same pace rebases in place, except in a History whose slabs another
// copy may be reading (CopyFrom): there a repack always writes a new slab
// and leaves the old one to its readers. The slab is a derived one
// (derived.go) whenever the partition's points and observations can be
// read from its samples.
func (h *History) repack(ph *partHist, ws []write) { h.repackAs(ph, ws, true) }

// repackAs is repack, to a derived slab (derived.go) only when allow
// and the partition's points and observations are all read from its
// samples.
func (h *History) repackAs(ph *partHist, ws []write, allow bool) {
	l := &h.layout
	vals, held := h.scratch, h.held
	for k := range vals {
		vals[k] = kafka.NoOffset
	}
	clear(held)
	var start [numSec + 1]int
	for s := range numSec {
		start[s+1] = start[s] + l[s]
	}
	decode := func(s, j int) {
		vals[start[s]+j] = h.col(ph, s).get(j)
		held[start[s]+j] = true
	}
	derived := keyDerived(ph.wkey)
	var from uint64 // the first poll whose samples are kept
	if ph.lastSeq > 0 {
		from = h.firstSeq(ph.first(), ph.lastSeq)
		if s, ok := h.oldestHeld(ph); derived && ok && s < from && s+1 >= h.recent(h.seq) {
			// The poll before the ring's: a derived slab's oldest point
			// or observation, which this poll drops, is still read from
			// its sample until then (derived.go).
			from = s
		}
		for q := from; q <= ph.lastSeq; q++ {
			decode(secCommitted, h.slot(q))
			decode(secLogEnd, h.slot(q))
		}
	}
	for k := range int(ph.ptLen) {
		j := ph.ptSlot(l, k)
		if !derived {
			decode(secPointOff, j)
		}
		if k < int(ph.ptLen)-1 {
			decode(secPointSeq, j)
		}
	}
	for k := range int(ph.winLen) {
		j := ph.winSlot(l, k)
		decode(secObsSeq, j)
		if !derived {
			decode(secObsCommitted, j)
			decode(secObsLag, j)
		}
	}
	derive := allow && !h.wide
	for _, w := range ws {
		vals[start[w.sec]+w.i] = w.v
		held[start[w.sec]+w.i] = true
		// A point or observation written now may not be counted in its
		// ring yet: the slab stays whole.
		derive = derive && !derivedSec[w.sec]
	}
	if derived {
		h.undrive(ph, ws, vals, held, &start)
	}
	derive = derive && h.derivable(ph, vals, held, &start, from)

	var lo, hi [numCls]int64
	var seen, none [numCls]bool
	for s := range numSec {
		if derive && derivedSec[s] {
			continue
		}
		c := secClass[s]
		for j, x := range vals[start[s]:start[s+1]] {
			if x < 0 {
				none[c] = none[c] || held[start[s]+j]
				continue
			}
			if !seen[c] || x < lo[c] {
				lo[c] = x
			}
			if !seen[c] || x > hi[c] {
				hi[c] = x
			}
			seen[c] = true
		}
	}
	var width [numCls]uint8
	var base [numCls]int64
	for c := range numCls {
		width[c] = h.widthFor(uint64(hi[c] - lo[c]))
		if !none[c] && lo[c] == hi[c] && !h.wide {
			width[c] = 0
		}
		if width[c] < 8 {
			base[c] = lo[c]
		}
	}
	had := h.starts[ph.wkey][numSec]
	ph.wkey, ph.base = widthKey(&width), base
	if derive {
		ph.wkey += numKeys
	}
	if n := h.starts[ph.wkey][numSec]; n != had || h.shared {
		ph.data = newSlab(int(n))
	}
	for s := range numSec {
		if derive && derivedSec[s] {
			continue
		}
		c := h.col(ph, s)
		for j, x := range vals[start[s]:start[s+1]] {
			c.set(j, x)
		}
	}
}

// lagRing is a group's total lag per poll, a ring of Samples numbers
// stored like a partition's: distances from a base in 1, 2, 4 or 8 bytes,
// all bits set for kafka.NoOffset.
type lagRing struct {
	b    []byte
	base int64
	w    uint8
}

func (h *History) newLagRing(n int) lagRing {
	r := lagRing{b: make([]byte, n), w: 1}
	if h.wide {
		r = lagRing{b: make([]byte, 8*n), w: 8}
	}
	fillNone(r.b) // none at every width
	return r
}

func (r *lagRing) col() col { return col{b: r.b, w: r.w, base: r.base} }

// setGroupLag stores the group's total lag at the current poll, repacking
// its ring when the total does not fit: the base moves to the smallest
// total of the polls in the ring and the width to what they need. A ring
// in 4 or 8 bytes is repacked every 2*Samples polls too, so it narrows
// again once a huge total has left it.
func (h *History) setGroupLag(gh *groupHist, v int64) {
	i := h.slot(h.seq)
	c := gh.lag.col()
	narrow := gh.lag.w >= 4 && h.seq%uint64(2*h.cfg.Samples) == 0
	if c.fits(v) && !narrow {
		c.set(i, v)
		return
	}
	vals := h.scratch[:h.cfg.Samples+1]
	for k := range vals {
		vals[k] = kafka.NoOffset
	}
	for s := h.firstSeq(gh.firstSeq, gh.lastSeq); s < h.seq; s++ {
		vals[h.slot(s)] = c.get(h.slot(s))
	}
	vals[i] = v
	lo, hi, seen := int64(0), int64(0), false
	for _, x := range vals {
		if x < 0 {
			continue
		}
		if !seen || x < lo {
			lo = x
		}
		if !seen || x > hi {
			hi = x
		}
		seen = true
	}
	r := lagRing{b: gh.lag.b, w: h.widthFor(uint64(hi - lo))}
	if r.w < 8 {
		r.base = lo
	}
	if n := len(vals) * int(r.w); n != len(r.b) {
		r.b = make([]byte, n)
	}
	gh.lag = r
	c = r.col()
	for k, x := range vals {
		c.set(k, x)
	}
}
