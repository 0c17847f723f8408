package lag

// A partition whose log end and commit move at most polls takes a
// time-lag point and a commit observation at nearly every poll, so its
// points and observations are polls its ring of samples holds: a point's
// offset is the log end sampled at its poll, an observation's commit and
// lag are the commit and the lag sampled at its poll. Such a slab is
// derived: its key is numKeys above its widths' key, and it keeps of the
// points and observations only their polls (secPointSeq, secObsSeq),
// reading the rest from the samples. For the default window that leaves
// out 155 of a moving partition's 471 bytes.
//
// A derived slab keeps every point and observation at a poll whose
// sample it holds: at the end of each poll, all of them are at one of
// the latest Samples polls, so that the next poll, which writes the
// sample slot of the poll before those, leaves every number a copy of
// the History (CopyFrom) reads as it was. A partition that would keep one
// further back (a flat run of log ends keeps its first point however long
// it lasts) is repacked to a whole slab first, while the sample is still
// there; a repack makes a derived slab again once they are all recent
// (repack, and every 2*Samples polls, tryDerive). The answers are the
// same either way: a derived number is the one the whole slab would hold.

// derivedSec reports the sections a derived slab leaves out.
var derivedSec = [numSec]bool{secPointOff: true, secObsCommitted: true, secObsLag: true}

// keyDerived reports whether key k is that of a derived slab.
func keyDerived(k uint16) bool { return k >= numKeys }

// recent is the oldest poll a derived slab's points and observations
// may be at, once poll seq is written: the oldest of the latest Samples.
func (h *History) recent(seq uint64) uint64 {
	if n := uint64(h.cfg.Samples); seq >= n {
		return seq - n + 1
	}
	return 0
}

// pointOff is the offset of the point in ring slot j, taken at poll seq.
func (h *History) pointOff(ph *partHist, j int, seq uint64) int64 {
	if keyDerived(ph.wkey) {
		return h.col(ph, secLogEnd).get(h.slot(seq))
	}
	return h.col(ph, secPointOff).get(j)
}

// obsAt is the commit observation in ring slot j.
func (h *History) obsAt(ph *partHist, j int) obs {
	seq := uint64(h.col(ph, secObsSeq).get(j))
	if keyDerived(ph.wkey) {
		i := h.slot(seq)
		c := h.col(ph, secCommitted).get(i)
		return obs{seq: seq, committed: c, lag: lagOf(c, h.col(ph, secLogEnd).get(i))}
	}
	return obs{seq: seq, committed: h.col(ph, secObsCommitted).get(j), lag: h.col(ph, secObsLag).get(j)}
}

// store1 stores a, repacking the partition when it does not fit.
func (h *History) store1(ph *partHist, a write) {
	if c := h.col(ph, a.sec); c.fits(a.v) {
		c.set(a.i, a.v)
		return
	}
	ws := [...]write{a}
	h.repack(ph, ws[:])
}

// oldestHeld is the poll of the partition's oldest point or observation,
// and false when it holds none.
func (h *History) oldestHeld(ph *partHist) (uint64, bool) {
	l := &h.layout
	var oldest uint64
	ok := false
	if ph.ptLen > 0 {
		oldest, ok = ph.pointSeq(l, h.col(ph, secPointSeq), 0), true
	}
	if ph.winLen > 0 {
		s := uint64(h.col(ph, secObsSeq).get(ph.winSlot(l, 0)))
		if !ok || s < oldest {
			oldest = s
		}
		ok = true
	}
	return oldest, ok
}

// keepDerived repacks a derived slab to a whole one when a point or an
// observation is at a poll before lo, whose sample the next write may
// take.
func (h *History) keepDerived(ph *partHist, lo uint64) {
	if !keyDerived(ph.wkey) {
		return
	}
	if s, ok := h.oldestHeld(ph); ok && s < lo {
		h.repackAs(ph, nil, false)
	}
}

// tryDerive repacks a whole slab to a derived one when its points and
// observations are all at recent polls, once every 2*Samples polls (at
// a phase set by the partition number), when its widths give it bytes to
// leave out: a flat run of log ends, or a commit standing, made it
// whole, and a partition that moves again at every poll is derived
// again.
func (h *History) tryDerive(ph *partHist) {
	if h.wide || keyDerived(ph.wkey) || (h.seq+uint64(uint32(ph.partition)))%uint64(2*h.cfg.Samples) != uint64(h.cfg.Samples) {
		return
	}
	if h.starts[ph.wkey+numKeys][numSec] == h.starts[ph.wkey][numSec] {
		return // nothing to leave out at these widths (a partition at rest)
	}
	if s, ok := h.oldestHeld(ph); !ok || s < h.recent(h.seq) {
		return
	}
	h.repack(ph, nil)
}

// derivable reports whether a repack may make the partition's slab a
// derived one: every point and observation in vals (decoded by repack,
// start the sections' first numbers there) is at a poll whose sample the
// repack keeps (from on), none before the one this poll's write leaves
// intact, and its numbers are the sample's.
func (h *History) derivable(ph *partHist, vals []int64, held []bool, start *[numSec + 1]int, from uint64) bool {
	if ph.lastSeq == 0 {
		return false
	}
	l := &h.layout
	r := h.recent(h.seq)
	lo := max(from, r-min(r, 1))
	sample := func(sec int, seq uint64) (int64, bool) {
		if seq < lo || seq > ph.lastSeq {
			return 0, false
		}
		k := start[sec] + h.slot(seq)
		return vals[k], held[k]
	}
	for k := range int(ph.ptLen) {
		j := ph.ptSlot(l, k)
		seq := ph.ptTop
		if k < int(ph.ptLen)-1 {
			v := vals[start[secPointSeq]+j]
			if v < 0 {
				return false
			}
			seq = uint64(v)
		}
		if end, ok := sample(secLogEnd, seq); !ok || end != vals[start[secPointOff]+j] {
			return false
		}
	}
	for k := range int(ph.winLen) {
		j := ph.winSlot(l, k)
		v := vals[start[secObsSeq]+j]
		if v < 0 {
			return false
		}
		c, okC := sample(secCommitted, uint64(v))
		end, okE := sample(secLogEnd, uint64(v))
		if !okC || !okE || c != vals[start[secObsCommitted]+j] || lagOf(c, end) != vals[start[secObsLag]+j] {
			return false
		}
	}
	return true
}

// undrive fills in vals, for a repack of a derived slab, the offsets of
// its points and the commits and lags of its observations, read from its
// samples at their polls (given in vals, after the writes ws): a sample
// ws writes is ws's, any other the slab's, still that of its poll.
func (h *History) undrive(ph *partHist, ws []write, vals []int64, held []bool, start *[numSec + 1]int) {
	l := &h.layout
	sample := func(sec int, seq uint64) int64 {
		i := h.slot(seq)
		v, found := int64(0), false
		for _, w := range ws {
			if w.sec == sec && w.i == i {
				v, found = w.v, true
			}
		}
		if found {
			return v
		}
		return h.col(ph, sec).get(i)
	}
	for k := range int(ph.ptLen) {
		j := ph.ptSlot(l, k)
		seq := ph.ptTop
		if k < int(ph.ptLen)-1 {
			seq = uint64(vals[start[secPointSeq]+j])
		}
		vals[start[secPointOff]+j] = sample(secLogEnd, seq)
		held[start[secPointOff]+j] = true
	}
	for k := range int(ph.winLen) {
		j := ph.winSlot(l, k)
		seq := uint64(vals[start[secObsSeq]+j])
		c := sample(secCommitted, seq)
		vals[start[secObsCommitted]+j], vals[start[secObsLag]+j] = c, lagOf(c, sample(secLogEnd, seq))
		held[start[secObsCommitted]+j], held[start[secObsLag]+j] = true, true
	}
}
