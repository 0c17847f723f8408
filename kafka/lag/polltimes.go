package lag

import "fmt"

// Partitions store the polls their time-lag points and commit observations
// were made at, not the times: the History keeps the time of every poll in
// its ring of the last Samples polls (times), and past the ring the times
// of the polls some point or observation still refers to (old). A flat run
// of log ends keeps its first point however long it lasts, so a point can
// refer to a poll of hours ago.
//
// The old times cost 16 bytes per poll still referred to (twice that
// before a sweep) plus Samples entries, shared by every partition: the
// polls referred to are at most TimePoints+Window per partition, and at
// most every poll since the oldest one referred to, so partitions polled
// together, as all are, share them.

// oldTime is the time of a poll that has left the ring.
type oldTime struct {
	seq uint64
	t   int64
}

// timeAt is the time (Unix nanos) of poll seq, which the ring or the old
// polls must hold. A poll some partition refers to is always there; a
// missing one is a broken invariant, not an unknown value.
func (h *History) timeAt(seq uint64) int64 {
	if seq+uint64(h.cfg.Samples) > h.seq {
		return h.times[h.slot(seq)]
	}
	lo, hi := 0, len(h.old)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if h.old[m].seq < seq {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == len(h.old) || h.old[lo].seq != seq {
		panic(fmt.Sprintf("lag: the time of poll %d is not kept (latest %d)", seq, h.seq))
	}
	return h.old[lo].t
}

// retire keeps the time of the poll about to leave the ring, as the
// current poll takes its slot.
func (h *History) retire() {
	n := uint64(h.cfg.Samples)
	if h.seq <= n {
		return
	}
	seq := h.seq - n
	h.old = append(h.old, oldTime{seq: seq, t: h.times[h.slot(seq)]})
}

// sweepOld drops the old poll times no point or observation refers to any
// more, once the old polls have doubled since the last sweep (and at least
// Samples polls have left the ring), so that it costs O(1) per poll over
// time and the old polls stay within twice those referred to plus Samples.
func (h *History) sweepOld() {
	if len(h.old) < h.oldSweep {
		return
	}
	if cap(h.oldMark) < len(h.old) {
		h.oldMark = make([]bool, len(h.old), cap(h.old))
	}
	mark := h.oldMark[:len(h.old)]
	clear(mark)
	ring := h.seq + 1 - uint64(h.cfg.Samples) // the oldest poll in the ring
	l := &h.layout
	for _, gh := range h.groups {
		for i := range gh.parts {
			ph := &gh.parts[i]
			// Points and observations are oldest first, so their polls
			// ascend: stop at the first one in the ring.
			seqs, at := h.col(ph, secPointSeq), 0
			for k := range int(ph.ptLen) {
				s := ph.pointSeq(l, seqs, k)
				if s >= ring {
					break
				}
				at = h.markOld(mark, at, s)
			}
			seqs, at = h.col(ph, secObsSeq), 0
			for k := range int(ph.winLen) {
				s := uint64(seqs.get(ph.winSlot(l, k)))
				if s >= ring {
					break
				}
				at = h.markOld(mark, at, s)
			}
		}
	}
	kept := h.old[:0]
	for i, o := range h.old {
		if mark[i] {
			kept = append(kept, o)
		}
	}
	h.old = kept
	h.oldSweep = 2*len(kept) + h.cfg.Samples
}

// markOld marks poll seq among the old polls from index from on, and
// returns its index for the next, later, poll of the same partition.
func (h *History) markOld(mark []bool, from int, seq uint64) int {
	lo, hi := from, len(h.old)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if h.old[m].seq < seq {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(h.old) && h.old[lo].seq == seq {
		mark[lo] = true
	}
	return lo
}
