package lag

import (
	"maps"
	"slices"
	"sync/atomic"
)

// CopyFrom makes h a copy of src, as of src's latest poll, that shares
// src's partition slabs, the bulk of a History's memory: after it, h and
// src hold the per-partition history once between them. Everything else
// (the records of groups and partitions, the group lag rings, the poll
// times, the record cache, the resets) is h's own, copied into the memory
// h already had where it fits.
//
// The point is to write the next poll while src is read. h may then take
// writes (Add of one poll, AddExact, NoteReset) on one goroutine while
// other goroutines read src (Evaluate, the series, WantExact), with no
// lock: the writes change h's own records and maps, and write the shared
// slabs only where src's answers do not read. A ring of polls has one
// slot more than the history reads, and the next poll takes the slot of
// the one that left src's window; a time-lag point or commit observation
// goes into its ring's spare slot; the newest point's poll, which a flat
// run moves every poll, is in the record; and a partition whose numbers
// need new widths is repacked into a new slab, leaving the old one to src;
// a partition's commit moves and trend, kept out of its record and shared
// until written, are copied by the first of h and src that writes them
// (ownTrend), so only those of partitions whose commits moved are held
// twice.
// A second poll written before src is copied again would write a slot
// src reads: the UI copies the front into the back before each poll it
// judges (tui/judge.go). src must not be written while h copies it. h and
// src must have the same configuration.
func (h *History) CopyFrom(src *History) {
	h.cfg, h.layout, h.starts, h.wide = src.cfg, src.layout, src.starts, src.wide
	// Neither may write a trend in place any more: each copies one before
	// it writes it. src.gen is read only by src's own writes, which wait
	// for the copy (src is not written while h copies it).
	h.gen, src.gen = newGen(), newGen()
	h.seq = src.seq
	h.times = append(h.times[:0], src.times...)
	h.old = append(h.old[:0], src.old...)
	h.oldSweep = src.oldSweep
	if len(h.scratch) != len(src.scratch) {
		h.scratch = make([]int64, len(src.scratch))
		h.held = make([]bool, len(src.scratch))
	}
	if len(h.groups) == 0 {
		h.copyGroupsFresh(src)
	} else {
		h.copyGroups(src)
	}
	h.topics = append(h.topics[:0], src.topics...)
	clear(h.topicIdx)
	if len(src.topicIdx) > 0 {
		if h.topicIdx == nil {
			h.topicIdx = make(map[string]uint32, len(src.topicIdx))
		}
		maps.Copy(h.topicIdx, src.topicIdx)
	}
	h.topicsSwept = src.topicsSwept
	clear(h.resets)
	for name, rs := range src.resets {
		if h.resets == nil {
			h.resets = make(map[string][]Reset, len(src.resets))
		}
		// Clipped: NoteReset appends to a copy, never into src's array.
		h.resets[name] = slices.Clip(rs)
	}
	clear(h.exact)
	if len(src.exact) > 0 {
		if h.exact == nil {
			h.exact = make(exactCache, len(src.exact))
		}
		maps.Copy(h.exact, src.exact)
	}
	h.clusterID = src.clusterID
	clear(h.topicIDs)
	if len(src.topicIDs) > 0 {
		if h.topicIDs == nil {
			h.topicIDs = make(map[string]seenID, len(src.topicIDs))
		}
		maps.Copy(h.topicIDs, src.topicIDs)
	}
	clear(h.restarts)
	if len(src.restarts) > 0 {
		if h.restarts == nil {
			h.restarts = make(map[restartKey]int64, len(src.restarts))
		}
		maps.Copy(h.restarts, src.restarts)
	}
	h.shared = true
}

// copyGroups makes h's group records those of src, in the memory h
// already has where it fits.
func (h *History) copyGroups(src *History) {
	mirror(h.groups, src.groups, (*groupHist).drop, func(g, sg *groupHist) {
		parts := append(g.parts[:0], sg.parts...)
		clear(parts[len(parts):cap(parts)]) // no stale slab stays reachable
		lag := append(g.lag.b[:0], sg.lag.b...)
		var memberless []pollRun
		if len(sg.memberless) > 0 {
			memberless = append(g.memberless[:0], sg.memberless...)
		}
		var unpaced []uint8
		if len(sg.unpaced) > 0 {
			unpaced = append(g.unpaced[:0], sg.unpaced...)
		}
		var rewinds []heldRewind
		if len(sg.rewinds) > 0 {
			rewinds = append(g.rewinds[:0], sg.rewinds...)
		}
		var tu []heldTurns
		if len(sg.turns) > 0 {
			tu = append(g.turns[:0], sg.turns...)
		}
		*g = *sg
		g.parts, g.lag.b, g.memberless, g.unpaced, g.rewinds, g.turns = parts, lag, memberless, unpaced, rewinds, tu
	})
}

// copyGroupsFresh makes the group records of h, which has none, those of
// src, in a few allocations rather than three a group: every group's
// record from one block, every partition's record from another, and
// every lag ring's bytes from a third, each group's share of a block
// clipped to its length, so that a write past it (a group whose
// partitions grow) makes a slice of the group's own. The UI's judging
// job copies the front into a new History before each poll it judges
// (tui/judge.go), so these are the back's records every poll: at 50,000
// groups of 12 partitions, one block of records is 81.6 MB where a slice
// a group took 89.6 (the 1,632 bytes of twelve records rounded to a
// 1,792-byte size class), twice while a poll is judged, and 150,000
// fewer allocations a poll. A block is kept while any group's records
// are in it: a History copied into once and then fed for long holds at
// most the records it was copied with.
func (h *History) copyGroupsFresh(src *History) {
	nparts, nlag := 0, 0
	for _, sg := range src.groups {
		nparts += len(sg.parts)
		nlag += len(sg.lag.b)
	}
	ghs := make([]groupHist, len(src.groups))
	parts := make([]partHist, nparts)
	lags := make([]byte, nlag)
	h.groups = make(map[string]*groupHist, len(src.groups))
	i := 0
	for name, sg := range src.groups {
		g := &ghs[i]
		i++
		*g = *sg
		// Nothing of src's memory stays shared: a slice emptied in
		// place ([:0]) keeps its array, and h's next poll would write
		// into it while src is read (memberPaces refills unpaced).
		g.parts, g.lag.b = nil, nil
		g.memberless, g.unpaced, g.rewinds, g.turns = nil, nil, nil, nil
		if n := len(sg.parts); n > 0 {
			g.parts, parts = parts[:n:n], parts[n:]
			copy(g.parts, sg.parts)
		}
		if n := len(sg.lag.b); n > 0 {
			g.lag.b, lags = lags[:n:n], lags[n:]
			copy(g.lag.b, sg.lag.b)
		}
		if len(sg.memberless) > 0 {
			g.memberless = slices.Clone(sg.memberless)
		}
		if len(sg.unpaced) > 0 {
			g.unpaced = slices.Clone(sg.unpaced)
		}
		if len(sg.rewinds) > 0 {
			g.rewinds = slices.Clone(sg.rewinds)
		}
		if len(sg.turns) > 0 {
			g.turns = slices.Clone(sg.turns)
		}
		h.groups[name] = g
	}
}

// gens hands out History.gen.
var gens atomic.Uint32

// newGen is a History.gen no History has had: 0 never is, and the count
// wraps only after four billion copies.
func newGen() uint32 {
	for {
		if g := gens.Add(1); g != 0 {
			return g
		}
	}
}

// ownTrend makes ph's moves (its latest move, waits and trend ring:
// rhythmMoves) ones h may write in place: new ones for a partition that
// reads unmoved, and a copy when they were made under another gen
// (another History's, or this one's before a CopyFrom, which may share
// them). A partition whose commit never moves keeps none; one whose
// commit moves copies its moves once a poll in the UI, which copies the
// poll data before each poll it judges.
func (h *History) ownTrend(ph *partHist) {
	if ph.rh.rhythmMoves != &unmoved && ph.trendGen == h.gen {
		return
	}
	m := new(rhythmMoves)
	*m = *ph.rh.rhythmMoves
	ph.rh.rhythmMoves, ph.trendGen = m, h.gen
}

// drop lets go of a group's records and their slabs.
func (gh *groupHist) drop() {
	clear(gh.parts[:cap(gh.parts)])
	gh.parts = nil
}

// CopyFrom makes l a copy of src, as of src's latest poll: its History
// shares src's partition slabs (History.CopyFrom, which says what l may
// be fed while src is read), its groups' time-lag series share src's
// rings in the same way (timeLagRing), and the verdicts are l's own. src
// must not be written while l copies it.
func (l *Tracker) CopyFrom(src *Tracker) {
	l.hist.CopyFrom(src.hist)
	l.cfg = src.cfg
	l.snap = src.snap
	if l.lent {
		l.health, l.lent = nil, false // a reader keeps the lent verdicts
	}
	l.health = append(l.health[:0], src.health...)
	l.counts, l.judging = src.counts, src.judging
	l.seq = src.seq
	l.times = append(l.times[:0], src.times...)
	if len(l.series) == 0 && len(src.series) > 0 {
		// A new tracker (the UI's judging job makes one each poll): the
		// rings in one block, as History.copyGroupsFresh.
		rs := make([]timeLagRing, len(src.series))
		l.series = make(map[string]*timeLagRing, len(src.series))
		i := 0
		for name, sr := range src.series {
			rs[i] = *sr // sharing v: see timeLagRing
			l.series[name] = &rs[i]
			i++
		}
		return
	}
	mirror(l.series, src.series, nil, func(r, sr *timeLagRing) {
		*r = *sr // sharing v: see timeLagRing
	})
}

// mirror makes dst hold src's keys: an entry src no longer has is dropped
// (after drop, when set), one dst lacks is made, and set copies each of
// src's values into dst's, whose storage it may reuse.
func mirror[V any](dst, src map[string]*V, drop func(*V), set func(d, s *V)) {
	for name, d := range dst {
		if _, ok := src[name]; !ok {
			if drop != nil {
				drop(d)
			}
			delete(dst, name)
		}
	}
	for name, s := range src {
		d := dst[name]
		if d == nil {
			d = new(V)
			dst[name] = d
		}
		set(d, s)
	}
}
