package lag

import (
	"math"
	"time"
	"unsafe"

	"github.com/kgroups/kgroups/kafka"
)

// partHist is one partition's history. Its rings live in a single slab of
// compactly encoded numbers (see compact.go), allocated when the partition
// first appears and again only when its numbers need another width, so a
// poll that only updates known partitions allocates nothing.
//
// A History keeps one record a partition, and the UI two while a poll is
// judged (CopyFrom), so the record names its topic by index (History.topics)
// and keeps its slab behind one pointer, whose length its widths give
// (History.slab), and what only its commit's moves write out of line
// (rhythmMoves): 136 bytes on 64-bit (TestPartHistSize).
type partHist struct {
	// data is the slab, h.starts[wkey][numSec] bytes (nil when that is
	// 0); base is each class's base.
	data *byte
	base [numCls]int64
	// logStart is the log-start offset at the latest poll.
	logStart int64
	// unLast is the time of the latest observation of the current run of
	// polls in which a member owned the partition and nothing was
	// committed for it (see unLen).
	unLast int64
	// lastSeq is the latest poll that saw the partition, and span how many
	// polls before it the first one did, at most Samples-1: the history
	// reads no older poll (see first).
	lastSeq uint64
	// ptTop is the poll the newest time-lag point was taken at. It is
	// kept here rather than in the slab because a flat run of log ends
	// moves it every poll (addPoint): a copy of the record read while the
	// next poll is written (CopyFrom) keeps its own.
	ptTop uint64
	// topic is the index of the partition's topic in History.topics
	// (History.topicOf).
	topic     uint32
	span      uint32
	partition int32
	// The time-lag points are a ring of TimePoints+1 (off, seq) pairs,
	// oldest first from ptStart, ptLen of them (at most TimePoints); the
	// commit observations a ring of Window+1 (seq, committed, lag)
	// triples, oldest first from winStart, winLen of them (at most
	// Window). The spare slot is the one the next poll writes.
	ptStart, ptLen, winStart, winLen uint16
	// unLen counts the observations (polls at least MinDistance apart, at
	// most Window) of the current run of polls in which a member owned
	// the partition and nothing was committed for it. A commit, or a poll
	// without an owner, ends the run.
	unLen int16
	// wkey is the widths of the classes (see widthKey).
	wkey uint16
	// held is the status the partition is reported with between polls
	// that change it (see hold); next is a different status seen at the
	// latest polls, holdRun how many polls in a row saw it, and decided
	// whether held was ever set from a full window.
	held, next Status
	holdRun    uint8
	decided    bool
	// raw is the rules' status at the latest poll, as judgeGroup found
	// it (judgeGroup): an evaluation as of that poll's time reads it instead of
	// applying the rules again.
	raw Status
	// owned reports whether a member owned the partition at the latest poll.
	owned bool
	// sinceMove is how many polls before lastSeq the committed offset
	// last moved forward (noMove: not since the partition was first
	// seen, or too long ago to matter).
	sinceMove uint16
	// wait is why the rules' status of the latest poll waits (judgeGroup).
	wait WaitKind
	// heldWait is why the held OK waits: the wait of the latest poll
	// whose rules gave OK while the held status was OK (hold1). A reader
	// shown JUDGING is not told OK while the hold weighs a change to
	// WARN (see partitionHealth).
	heldWait WaitKind
	// calm is the longest wait the partition showed while its consumer
	// kept up, in tenths of a second (at most calmMax): a wait that began
	// about caught up (at a caught-up poll, or at a commit whose time lag
	// was within calmNoise) and ended with a commit about caught up; how
	// long the consumer leaves records waiting while it keeps up (see
	// History.leftCalm). Its top bit (calmFromBit) reports that the
	// current wait began about caught up. Two bytes, so that the record
	// keeps its size (TestPartHistSize).
	calm uint16
	// trendGen is the History.gen of the History that made rh's moves
	// (rhythmMoves), the only one that may write them in place
	// (History.ownTrend).
	trendGen uint32
	// rh is the commit rhythm and trend the partition has shown
	// (rhythm.go), kept beyond the ring of polls.
	rh rhythm
}

// calmFromBit is the bit of partHist.calm that reports that the current
// wait began about caught up; calmMax the longest calm wait kept, in
// tenths of a second (about 54 minutes: longer is as good as unbounded),
// and calmUnit that tenth.
const (
	calmFromBit = 1 << 15
	calmMax     = calmFromBit - 1
	calmUnit    = 100 * time.Millisecond
)

// calmFrom reports that the partition's current wait began about caught
// up (see partHist.calm).
func (ph *partHist) calmFrom() bool { return ph.calm&calmFromBit != 0 }

// calmWait is the longest wait the partition showed while its consumer
// kept up (see partHist.calm).
func (ph *partHist) calmWait() time.Duration {
	return time.Duration(ph.calm&calmMax) * calmUnit
}

// noteCalm notes a poll at t that began a new wait (a commit, or a
// caught-up poll), calm when the partition was about caught up then;
// known reports that the wait it ends began at a known point, since. A
// wait that began and ended about caught up is one the consumer showed
// while it kept up.
func (ph *partHist) noteCalm(calm, known bool, since, t int64) {
	w := ph.calm & calmMax
	if calm && known && ph.calmFrom() && t > since {
		w = max(w, uint16(min((t-since+int64(calmUnit)-1)/int64(calmUnit), calmMax)))
	}
	if calm {
		w |= calmFromBit
	}
	ph.calm = w
}

// newPartition is a partition with nothing recorded: every class in 0
// bytes, so its first poll repacks it to what its numbers need (nothing,
// for a partition at rest), and a wide History's in 8 bytes.
func (h *History) newPartition(topic uint32, partition int32) partHist {
	ph := partHist{topic: topic, partition: partition, sinceMove: noMove, wkey: zeroKey, rh: rhythm{rhythmMoves: &unmoved}}
	if h.wide {
		ph.wkey = wideKey
		ph.data = newSlab(int(h.starts[ph.wkey][numSec]))
		fillNone(h.slab(&ph))
	}
	return ph
}

// newSlab is a slab of n bytes, nil for none.
func newSlab(n int) *byte {
	if n == 0 {
		return nil
	}
	return &make([]byte, n)[0]
}

// slab is the partition's slab, as long as its widths make it.
func (h *History) slab(ph *partHist) []byte {
	return unsafe.Slice(ph.data, h.starts[ph.wkey][numSec])
}

// fillNone sets every byte of b to 0xff, "none" at every width, by
// doubling copies: a first poll of 120,000 partitions fills 56 MB of
// slabs, which a loop of single-byte stores takes several times longer to.
func fillNone(b []byte) {
	if len(b) == 0 {
		return
	}
	b[0] = 0xff
	for n := 1; n < len(b); n *= 2 {
		copy(b[n:], b[:n])
	}
}

// noMove is partHist.sinceMove when the commit was not seen to move.
const noMove = math.MaxUint16

// first is the first poll that saw the partition, or the oldest poll of
// the ring when that is later.
func (ph *partHist) first() uint64 { return ph.lastSeq - uint64(ph.span) }

// sample returns the partition's committed offset and log end at poll seq,
// which must be in the ring.
func (h *History) sample(ph *partHist, seq uint64) (c, end int64) {
	i := h.slot(seq)
	return h.col(ph, secCommitted).get(i), h.col(ph, secLogEnd).get(i)
}

// updatePartition records the partition's state at the current poll (time
// t) and returns its lag, kafka.NoOffset when unknown, for the group total.
// fetched is false when the group's offsets could not be read (Group.Err):
// a missing commit then says nothing about the consumer.
func (h *History) updatePartition(gh *groupHist, ph *partHist, p *kafka.PartitionOffsets, t int64, fetched bool) int64 {
	if ph.lastSeq+1 < h.seq {
		// This poll writes the sample slots of the polls it missed too,
		// those of the polls before the latest Samples+1 (derived.go);
		// after the poll before, every point was past them.
		h.keepDerived(ph, h.recent(h.seq)-min(h.recent(h.seq), 1))
	}
	if gap := h.gapStart(ph.lastSeq); gap < h.seq {
		cs, es := h.col(ph, secCommitted), h.col(ph, secLogEnd)
		if cs.w == 0 || es.w == 0 {
			// None takes a byte: the polls that missed the partition
			// are written by a repack.
			ws := make([]write, 0, 2*(h.seq-gap))
			for s := gap; s < h.seq; s++ {
				ws = append(ws, write{secCommitted, h.slot(s), kafka.NoOffset}, write{secLogEnd, h.slot(s), kafka.NoOffset})
			}
			h.repack(ph, ws)
		} else {
			for s := gap; s < h.seq; s++ {
				cs.set(h.slot(s), kafka.NoOffset)
				es.set(h.slot(s), kafka.NoOffset)
			}
		}
	}
	var prevC int64 // the commit at the partition's latest poll
	if ph.lastSeq > 0 {
		var prevEnd int64
		prevC, prevEnd = h.sample(ph, ph.lastSeq)
		h.restartIfReplaced(gh, ph, p, t, prevC, prevEnd)
	}
	if ph.lastSeq > 0 {
		ph.span = uint32(min(uint64(ph.span)+h.seq-ph.lastSeq, uint64(h.cfg.Samples-1)))
		switch {
		case p.Committed >= 0 && prevC >= 0 && p.Committed > prevC:
			ph.sinceMove = 0
		case ph.sinceMove != noMove:
			ph.sinceMove = uint16(min(uint64(ph.sinceMove)+h.seq-ph.lastSeq, noMove))
		}
	}
	fresh := ph.lastSeq == 0 && ph.ptLen == 0 && ph.winLen == 0 && ph.wkey == zeroKey && !h.wide
	ph.lastSeq = h.seq
	c, end := p.Committed, p.LogEnd
	if c < 0 {
		c = kafka.NoOffset
	}
	if end < 0 {
		end = kafka.NoOffset
	}
	if fresh {
		h.seedBases(ph, c, end)
	}
	i := h.slot(h.seq)
	h.store2(ph, write{secCommitted, i, c}, write{secLogEnd, i, end})
	ph.logStart = p.LogStart
	ph.owned = p.MemberID != ""
	h.markExact(h.topicOf(ph), ph.partition, c, p.LogStart)

	lag := lagOf(c, end)
	if end >= 0 {
		h.addPoint(ph, end)
	}
	h.noteRhythm(gh, ph, c, end, prevC, t)
	if c >= 0 {
		h.observe(ph, c, lag, t, ph.owned)
	}
	ph.observeUncommitted(fetched && c < 0 && ph.owned, t, int64(h.cfg.MinDistance), h.cfg.Window)
	// A repack happens when a number does not fit, which never happens to
	// a class stored in 8 bytes: once every 2*Samples polls (at a phase
	// set by the partition number, to spread the work), a partition with
	// a class in 4 or 8 bytes is repacked to the widths its numbers need
	// now, so that one huge value does not keep it wide after the value
	// has left the window.
	h.keepDerived(ph, h.recent(h.seq))
	h.tryDerive(ph)
	if keyWide[ph.wkey] && (h.seq+uint64(uint32(ph.partition)))%uint64(2*h.cfg.Samples) == 0 {
		h.repack(ph, nil)
	}
	return lag
}

// observeUncommitted counts the polls in which a live owner has committed
// nothing, spaced like commit observations (at least minDist apart) and
// capped at window: a consumer that commits gets a window's time to show
// its first commit before it is judged NO-COMMITS.
func (ph *partHist) observeUncommitted(uncommitted bool, t, minDist int64, window int) {
	switch {
	case !uncommitted:
		ph.unLen = 0
	case ph.unLen == 0 || t-ph.unLast >= minDist:
		ph.unLen = int16(min(int(ph.unLen)+1, window))
		ph.unLast = t
	}
}

// lagOf is log end minus committed, floored at 0, or NoOffset when either is
// unknown.
func lagOf(committed, end int64) int64 {
	if committed < 0 || end < 0 {
		return kafka.NoOffset
	}
	if end <= committed {
		return 0
	}
	return end - committed
}

// ptSlot is the slot of the i-th oldest time-lag point.
func (ph *partHist) ptSlot(l *layout, i int) int {
	return (int(ph.ptStart) + i) % l[secPointOff]
}

// winSlot is the slot of the i-th oldest commit observation.
func (ph *partHist) winSlot(l *layout, i int) int {
	return (int(ph.winStart) + i) % l[secObsSeq]
}

// table is the partition's time-lag points.
func (h *History) table(ph *partHist) pointTable {
	tb := pointTable{
		h:    h,
		seqs: h.col(ph, secPointSeq),
		top:  ph.ptTop,
		ring: h.layout[secPointOff],
		base: int(ph.ptStart),
		n:    int(ph.ptLen),
	}
	if keyDerived(ph.wkey) {
		tb.offs, tb.derived = h.col(ph, secLogEnd), true
		tb.topSlot, tb.samples = h.slot(ph.ptTop), h.cfg.Samples+1
	} else {
		tb.offs = h.col(ph, secPointOff)
	}
	return tb
}

// pointSeq is the poll of the i-th oldest time-lag point, whose poll
// section is seqs.
func (ph *partHist) pointSeq(l *layout, seqs col, i int) uint64 {
	if i == int(ph.ptLen)-1 {
		return ph.ptTop
	}
	return uint64(seqs.get(ph.ptSlot(l, i)))
}

// point returns the i-th oldest time-lag point's offset and poll.
func (h *History) point(ph *partHist, i int) (off int64, seq uint64) {
	l := &h.layout
	seq = ph.pointSeq(l, h.col(ph, secPointSeq), i)
	return h.pointOff(ph, ph.ptSlot(l, i), seq), seq
}

// addPoint adds a (log end, time) point for the current poll to the
// interpolation table, the way kafka-lag-exporter keeps its table:
//   - a log end below the newest point is a transient dip (a stale answer
//     from a new leader) and is dropped, unless it is below the oldest point
//     too: then the log was recreated or truncated and the table restarts;
//   - a third equal log end in a row moves the newest point's time instead of
//     adding a point, so a flat run keeps only its first and last point;
//   - a full table drops its oldest point.
//
// A point's time is its poll's (History.timeAt). The slab is written only
// in the ring's spare slot (the new point's offset) and in the previous
// newest point's poll, which the record held until now (ptTop): a copy of
// the record taken before this poll reads neither (see CopyFrom). A
// restarted table begins at the spare slot for the same reason.
func (h *History) addPoint(ph *partHist, off int64) {
	l := &h.layout
	if ph.ptLen > 0 {
		last, _ := h.point(ph, int(ph.ptLen)-1)
		if off < last {
			if first, _ := h.point(ph, 0); off >= first {
				return
			}
			ph.ptStart, ph.ptLen = uint16(ph.ptSlot(l, int(ph.ptLen))), 0
		} else if off == last && ph.ptLen >= 2 {
			if prev, _ := h.point(ph, int(ph.ptLen)-2); prev == off {
				ph.ptTop = h.seq
				return
			}
		}
	}
	if int(ph.ptLen) == h.cfg.TimePoints {
		ph.ptStart = uint16(ph.ptSlot(l, 1))
		ph.ptLen--
	}
	at := write{secPointOff, ph.ptSlot(l, int(ph.ptLen)), off}
	seq := write{secPointSeq, at.i, int64(h.seq)}
	if ph.ptLen > 0 {
		seq = write{secPointSeq, ph.ptSlot(l, int(ph.ptLen)-1), int64(ph.ptTop)}
	}
	if keyDerived(ph.wkey) {
		// off is the log end sampled at this poll; the point is not yet
		// counted, so a repack to a whole slab leaves it to be written.
		h.store1(ph, seq)
		if !keyDerived(ph.wkey) {
			h.store1(ph, at)
		}
	} else {
		h.store2(ph, at, seq)
	}
	ph.ptLen++
	ph.ptTop = h.seq
}

// obs is one commit observation: the poll that made it, and the committed
// offset and lag it saw.
type obs struct {
	seq            uint64
	committed, lag int64
}

// observation returns the i-th oldest commit observation.
func (h *History) observation(ph *partHist, i int) obs {
	return h.obsAt(ph, ph.winSlot(&h.layout, i))
}

// observations appends the partition's commit observations, oldest first,
// to dst. Queries decode into a buffer of their own (on the stack for
// windows up to 32), so that reading a History writes nothing.
func (h *History) observations(ph *partHist, dst []obs) []obs {
	l := &h.layout
	seqs := h.col(ph, secObsSeq)
	if keyDerived(ph.wkey) {
		// Read from the samples at their polls (derived.go).
		cs, es := h.col(ph, secCommitted), h.col(ph, secLogEnd)
		for i := range int(ph.winLen) {
			seq := uint64(seqs.get(ph.winSlot(l, i)))
			k := h.slot(seq)
			c := cs.get(k)
			dst = append(dst, obs{seq: seq, committed: c, lag: lagOf(c, es.get(k))})
		}
		return dst
	}
	cs, lags := h.col(ph, secObsCommitted), h.col(ph, secObsLag)
	for i := range int(ph.winLen) {
		j := ph.winSlot(l, i)
		dst = append(dst, obs{seq: uint64(seqs.get(j)), committed: cs.get(j), lag: lags.get(j)})
	}
	return dst
}

// observe records a commit observation at the current poll (time t):
// always when the committed offset changed, and for an unchanged offset
// only while a member owns the partition and at least MinDistance after
// the previous observation (a live consumer re-commits; polling cannot see
// it, so time stands in for it).
//
// The new observation goes into the ring's spare slot, which a copy of the
// record taken before this poll does not read (see CopyFrom).
func (h *History) observe(ph *partHist, c, lag, t int64, owned bool) {
	l := &h.layout
	if ph.winLen > 0 {
		o := h.obsAt(ph, ph.winSlot(l, int(ph.winLen)-1))
		if c == o.committed && (!owned || t-h.timeAt(o.seq) < int64(h.cfg.MinDistance)) {
			return
		}
	}
	if int(ph.winLen) == h.cfg.Window {
		ph.winStart = uint16(ph.winSlot(l, 1))
		ph.winLen--
	}
	j := ph.winSlot(l, int(ph.winLen))
	ph.winLen++
	if keyDerived(ph.wkey) {
		// c and lag are the commit and lag sampled at this poll.
		h.store1(ph, write{secObsSeq, j, int64(h.seq)})
		return
	}
	h.store3(ph, write{secObsSeq, j, int64(h.seq)}, write{secObsCommitted, j, c}, write{secObsLag, j, lag})
}

// addKnownLag adds a partition's lag to a group's total, where either may
// be kafka.NoOffset (unknown): the total of a group none of whose lags is
// known stays unknown, never 0.
func addKnownLag(total, lag int64) int64 {
	switch {
	case lag < 0:
		return total
	case total < 0:
		return lag
	}
	return addLag(total, lag)
}

// addLag adds a non-negative lag to a total, saturating instead of wrapping
// so that a corrupt offset near the int64 limit cannot turn a total negative.
func addLag(total, lag int64) int64 {
	if lag > math.MaxInt64-total {
		return math.MaxInt64
	}
	return total + lag
}
