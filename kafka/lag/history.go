package lag

import (
	"slices"
	"sort"

	"github.com/kgroups/kgroups/kafka"
)

// History remembers what the last polls saw for every group and partition,
// bounded in memory however long kgroups runs. Feed it every snapshot with
// Add and query it with GroupLagSeries, Rates, TimeLag and Evaluate.
//
// A History is not safe for concurrent use: it is owned by one goroutine
// (a judging job of the UI, or the sampling loop of `kgroups health`),
// which both adds snapshots and queries it, so it carries no lock. Its
// queries (Evaluate, the series, WantExact) write nothing, so several
// goroutines may query it at once while none calls Add, AddExact or
// NoteReset (TestHistoryReadsConcurrently), and while a copy made of it
// with CopyFrom, which shares its slabs, takes one poll (see CopyFrom).
//
// Memory is O(partitions x ring sizes) however long kgroups runs. Each
// partition holds one slab of 2*(Samples+1) + 2*(TimePoints+1) +
// 3*(Window+1) numbers (every ring has a spare slot, see compact.go),
// each stored in 1, 2, 4 or 8 bytes as a distance from a per-partition base,
// or in none when a class holds one number (a partition at rest; see
// compact.go; exact, never rounded), plus a fixed record of 136 bytes
// on 64-bit (checked by TestPartHistSize) and, once its commit moved,
// its moves (the latest, the waits and a trend ring: 160 bytes,
// ownTrend). The times of points and
// observations are poll numbers into one table of poll times the History
// shares between all partitions. A class whose numbers stay near its base
// over the window takes 1 or 2 bytes a number; one that needs 4 or 8 is
// repacked every 2*Samples polls, so it narrows again once the wide values
// have left its window. BenchmarkHistoryMemory and
// BenchmarkHistoryMemoryCluster measure what a partition takes; their
// figures are kept in the documentation ("History memory"), not here. Each
// group adds Samples+1 numbers for its lag series, stored the same way
// (lagRing). Only groups and partitions seen in the last EvictAfter polls
// are kept; a poll that adds or drops partitions reallocates that group's
// partition records once.
type History struct {
	cfg Config
	// seq counts accepted snapshots; the latest one is seq (0: none yet).
	seq uint64
	// times holds poll times (Unix nanoseconds), a ring indexed by seq;
	// old the times of polls that left it which points or observations
	// still refer to, by seq (see polltimes.go), swept when it reaches
	// oldSweep entries, with oldMark as scratch.
	times    []int64
	old      []oldTime
	oldSweep int
	oldMark  []bool
	// layout is the section lengths of every partition's slab, and
	// scratch holds one slab's numbers decoded while it is repacked, held
	// which of them the history reads.
	layout  layout
	starts  *sectionStarts
	scratch []int64
	held    []bool
	groups  map[string]*groupHist
	// topics are the names of the partitions' topics, which each record
	// names by its index here (partHist.topic), and topicIdx the index of
	// each name; topicsSwept is how many names the latest sweep kept
	// (sweepTopics).
	topics      []string
	topicIdx    map[string]uint32
	topicsSwept int
	// resets are the offset changes kgroups made, per group (NoteReset).
	resets map[string][]Reset
	// exact holds the records read at committed offsets (AddExact),
	// for the commits of the latest poll only.
	exact exactCache
	// clusterID and topicIDs are the latest ids the snapshots gave, and
	// restarts when a replacement of the cluster, a topic or a partition's
	// log restarted histories (replaced.go).
	clusterID string
	topicIDs  map[string]seenID
	restarts  map[restartKey]int64
	// moved and grew are judgeGroup's scratch: the members that
	// committed, and how much the lag of what they moved grew; paceIDs
	// and paced are memberPaces': the members, and how many waits each
	// showed (up to two: a rhythm).
	moved       []string
	paceIDs     []string
	paced       []uint8
	grew        []int64
	behind      []float64
	behindBound []float64
	peakTL      []float64
	workTL      []float64
	// workBy is the partition whose time lag workTL holds, and work2 the
	// greatest time lag among the member's others.
	workBy   []*partHist
	work2    []float64
	newest   []int64
	prev     []int64
	grewLong []int64
	// busy is judgeTurns' per member: the lag growth of the partitions
	// it committed on recently, summed (0), their sawtooths summed (1),
	// 1 when one of them grew past its own sawtooth (2), and how far
	// behind it is where it works by time lag alone (3: behind before
	// a lag grown past the sawtooths marks it busy).
	busy [][4]float64
	// fallIDs and fall are memberFalling's scratch: the members, and
	// the lag of their partitions at the thirds of the ring (indexes 0
	// to 3), what a keeping-up member's lag swings by there (4), how
	// many of them have a backlog now (5) and their lag a sixth of the
	// ring ago (6).
	fallIDs []string
	fall    [][7]float64
	// stretches is judgeGroup's scratch: its partitions' stretches, for
	// their median (groupPace.stretch).
	stretches []int64
	// order is scratch space for snapshots whose partitions arrive
	// unsorted or duplicated, which the snapshot contract rules out but
	// which must not corrupt the history.
	order []int
	// shared is set by CopyFrom: the partitions' slabs are another
	// History's too, so a repack writes a new slab (see CopyFrom).
	shared bool
	// gen names this History among every History of the process, and
	// changes at each CopyFrom, to it and to its source: a partition's
	// moves (trend) made under another gen may be another History's too,
	// and are copied before they are written (ownTrend).
	gen uint32
	// wide stores every number in 8 bytes: the encoding without its
	// compaction, whose widths never change. Only the tests set it, to hold the
	// compact History's answers to a wide one's, bit for bit (see
	// equivalence_test.go).
	wide bool
}

// NewHistory returns an empty history. Zero or invalid fields of cfg take
// their defaults.
func NewHistory(cfg Config) *History {
	cfg = cfg.normalize()
	l := newLayout(cfg)
	return &History{
		cfg:      cfg,
		times:    make([]int64, cfg.Samples+1),
		oldSweep: cfg.Samples,
		layout:   l,
		starts:   l.starts(),
		scratch:  make([]int64, l.total()),
		held:     make([]bool, l.total()),
		old:      make([]oldTime, 0, 2*cfg.Samples),
		groups:   make(map[string]*groupHist),
		gen:      newGen(),
	}
}

// Config returns the configuration in effect, after defaults were applied.
func (h *History) Config() Config { return h.cfg }

// Polls returns how many snapshots have been accepted.
func (h *History) Polls() int { return int(h.seq) }

// Groups returns how many groups are remembered, including those still
// waiting to be evicted.
func (h *History) Groups() int { return len(h.groups) }

// Partitions returns how many partitions are remembered across all groups,
// including those still waiting to be evicted: the figure that memory is
// proportional to.
func (h *History) Partitions() int {
	n := 0
	for _, g := range h.groups {
		n += len(g.parts)
	}
	return n
}

// slot is the index of poll seq in the rings of polls, which hold one
// poll more than the history reads (Samples+1): the next poll takes the
// slot of one no answer reads any more.
func (h *History) slot(seq uint64) int { return int(seq % uint64(h.cfg.Samples+1)) }

// Add records one poll. Its cost is O(partitions in s) and, once the set of
// groups and partitions is stable, it allocates nothing.
//
// Snapshots must arrive in time order: a nil snapshot, or one whose Time is
// not after the previous accepted snapshot's, is ignored, so that a stale
// or repeated poll can never produce a negative or infinite rate.
func (h *History) Add(s *kafka.Snapshot) {
	if s == nil {
		return
	}
	t := s.Time.UnixNano()
	if h.seq > 0 && t <= h.times[h.slot(h.seq)] {
		return
	}
	h.seq++
	h.retire()
	h.times[h.slot(h.seq)] = t
	h.noteReplacements(s, t)
	for i := range s.Groups {
		g := &s.Groups[i]
		gh, ok := h.groups[g.Name]
		if !ok {
			gh = &groupHist{firstSeq: h.seq, lag: h.newLagRing(h.cfg.Samples + 1)}
			h.groups[g.Name] = gh
		} else if gh.lastSeq == h.seq {
			continue // the same name twice in one snapshot: keep the first
		}
		gh.simple = g.Simple()
		h.noteMembers(gh, g)
		h.updateGroup(gh, g, t)
		h.catchUpPoll(gh)
	}
	for name, gh := range h.groups {
		switch {
		case gh.lastSeq == h.seq:
		case h.seq-gh.lastSeq >= uint64(h.cfg.EvictAfter):
			delete(h.groups, name)
			delete(h.resets, name)
		default:
			h.pruneAbsent(gh)
		}
	}
	if len(h.exact) > 0 {
		h.pruneExact()
	}
	h.sweepOld()
	h.sweepTopics()
}

// topicOf is the name of the partition's topic.
func (h *History) topicOf(ph *partHist) string { return h.topics[ph.topic] }

// topicIndex is the index of the topic name in h.topics, which it adds
// when it is not there yet.
func (h *History) topicIndex(name string) uint32 {
	if i, ok := h.topicIdx[name]; ok {
		return i
	}
	if h.topicIdx == nil {
		h.topicIdx = make(map[string]uint32)
	}
	i := uint32(len(h.topics))
	h.topics = append(h.topics, name)
	h.topicIdx[name] = i
	return i
}

// minTopicSweep is how many names the topic table holds before a sweep
// looks for names no record uses.
const minTopicSweep = 64

// sweepTopics drops the names no record names any more, the topics whose
// partitions were all evicted, once the table has twice as many names as
// the latest sweep kept (and at least minTopicSweep): a cluster whose
// topics come and go keeps only the names of those it remembers, for a
// scan of the records now and then.
func (h *History) sweepTopics() {
	if len(h.topics) < max(2*h.topicsSwept, minTopicSweep) {
		return
	}
	used := make([]bool, len(h.topics))
	for _, gh := range h.groups {
		for i := range gh.parts {
			used[gh.parts[i].topic] = true
		}
	}
	to := make([]uint32, len(h.topics))
	kept := h.topics[:0]
	for i, name := range h.topics {
		if !used[i] {
			delete(h.topicIdx, name)
			continue
		}
		to[i] = uint32(len(kept))
		h.topicIdx[name] = to[i]
		kept = append(kept, name)
	}
	clear(h.topics[len(kept):])
	h.topics, h.topicsSwept = kept, len(kept)
	for _, gh := range h.groups {
		for i := range gh.parts {
			gh.parts[i].topic = to[gh.parts[i].topic]
		}
		if len(gh.rewinds) > 0 {
			// Kept only for partitions it has records of (pruneAbsent).
			gh.rewinds = slices.DeleteFunc(gh.rewinds, func(r heldRewind) bool { return !used[r.topic] })
			for i := range gh.rewinds {
				gh.rewinds[i].topic = to[gh.rewinds[i].topic]
			}
		}
		if len(gh.turns) > 0 {
			gh.turns = slices.DeleteFunc(gh.turns, func(t heldTurns) bool { return !used[t.topic] })
			for i := range gh.turns {
				gh.turns[i].topic = to[gh.turns[i].topic]
			}
		}
	}
}

// pruneAbsent drops the partitions of a group missing from this poll that
// have now been missing for EvictAfter polls, so that no partition outlives
// the bound because its group went missing too.
func (h *History) pruneAbsent(gh *groupHist) {
	kept := gh.parts[:0]
	for i := range gh.parts {
		if h.seq-gh.parts[i].lastSeq < uint64(h.cfg.EvictAfter) {
			kept = append(kept, gh.parts[i])
		} else {
			if len(gh.rewinds) > 0 {
				gh.forgetRewind(&gh.parts[i]) // its events go with its history
			}
			if len(gh.turns) > 0 {
				gh.forgetTurns(&gh.parts[i])
			}
		}
	}
	clear(gh.parts[len(kept):])
	gh.parts = kept
}

// GroupLagSeries appends to dst the group's total lag at each poll, oldest
// first, covering at most the last Samples polls up to the latest poll that
// saw the group. Polls in which the group was missing, or in which none of
// its partitions' lags was known, hold kafka.NoOffset (never 0).
// It returns dst unchanged for an unknown group. Pass a reused dst[:0] to
// avoid allocating on every frame.
func (h *History) GroupLagSeries(group string, dst []int64) []int64 {
	gh, ok := h.groups[group]
	if !ok {
		return dst
	}
	for s := h.firstSeq(gh.firstSeq, gh.lastSeq); s <= gh.lastSeq; s++ {
		dst = append(dst, gh.lag.col().get(h.slot(s)))
	}
	return dst
}

// firstSeq is the oldest poll still in the ring for something first seen at
// first and last seen at last.
func (h *History) firstSeq(first, last uint64) uint64 {
	n := uint64(h.cfg.Samples)
	if last >= n && last-n+1 > first {
		return last - n + 1
	}
	return first
}

// groupHist is one group's history.
type groupHist struct {
	firstSeq, lastSeq uint64
	// lag is the group's total lag per poll, a ring indexed by seq.
	lag lagRing
	// parts are sorted by topic then partition, like snapshots.
	parts []partHist
	// obsLen counts the polls that saw the group at least MinDistance
	// apart, up to Window, and obsLast is the latest one's time: how much
	// of a window the group itself has been watched for (see Verdict).
	obsLen  int
	obsLast int64
	// pace is the group's rhythm and latest commit at the latest poll
	// (groupRhythm).
	pace groupPace
	// unpaced is, for each of the parts, how far short of a rhythm of
	// its own its member was at the latest poll: 0 it showed one, 1 a
	// single wait, 2 none (memberPaces; empty: every member showed one).
	unpaced []uint8
	// memberless are the runs of polls, within the ring, at which the
	// group had no members (noteMembers): commits that moved then are
	// not consumption. Most groups have none.
	memberless []pollRun
	// rewinds are the REWINDs found within the event hold
	// (rewindhold.go). Most groups have none.
	rewinds []heldRewind
	// cu is the group's catch-up answer, held against flapping
	// (catchup.go).
	cu catchUpHold
	// members identifies the group's member ids at the latest poll (a
	// sum of their hashes, 0 before the first), and membersAt is the
	// time of the poll they last changed at (0: not while observed).
	members   uint64
	membersAt int64
	// leftAt is the time of the first poll of the latest run without
	// members (memberless; 0: none while observed), kept past the ring.
	leftAt int64
	// turns are the turns of its partitions served in turn
	// (turns.go). Most groups have none.
	turns []heldTurns
	// simple reports whether the latest poll saw a simple group
	// (kafka.Group.Simple): its commits come from a job outside any
	// membership, so a standing commit may be its rhythm, and its moves
	// are consumption.
	simple bool
}

// observe counts a poll that saw the group, spaced like commit
// observations.
func (gh *groupHist) observe(t, minDist int64, window int) {
	if gh.obsLen == 0 || t-gh.obsLast >= minDist {
		gh.obsLen = min(gh.obsLen+1, window)
		gh.obsLast = t
	}
}

func (h *History) updateGroup(gh *groupHist, g *kafka.Group, t int64) {
	for s := h.gapStart(gh.lastSeq); s < h.seq; s++ {
		gh.lag.col().set(h.slot(s), kafka.NoOffset)
	}
	gh.lastSeq = h.seq

	ps := g.Partitions
	order := h.sortedOrder(ps)
	n := len(ps)
	if order != nil {
		n = len(order)
	}
	at := func(k int) *kafka.PartitionOffsets {
		if order != nil {
			return &ps[order[k]]
		}
		return &ps[k]
	}

	gh.observe(t, int64(h.cfg.MinDistance), h.cfg.Window)
	fetched := g.Err == nil
	total := kafka.NoOffset
	same := len(gh.parts) == n
	for k := 0; same && k < n; k++ {
		p := at(k)
		same = h.topics[gh.parts[k].topic] == p.Topic && gh.parts[k].partition == p.Partition
	}
	if same {
		for k := 0; k < n; k++ {
			total = addKnownLag(total, h.updatePartition(gh, &gh.parts[k], at(k), t, fetched))
		}
		h.setGroupLag(gh, total)
		h.judgeGroup(gh, at, n, t)
		return
	}

	// The set changed: merge the remembered partitions with the
	// snapshot's, keeping absent ones until they have been missing for
	// EvictAfter polls. A first pass sizes the result: without new
	// partitions the merge is a subsequence of the old slice and runs in
	// place; with new ones it goes to one exactly sized allocation.
	old := gh.parts
	cmp := func(i, k int) int {
		switch {
		case i == len(old):
			return 1
		case k == n:
			return -1
		}
		return compareKey(h.topics[old[i].topic], old[i].partition, at(k).Topic, at(k).Partition)
	}
	keep := func(i int) bool { return h.seq-old[i].lastSeq < uint64(h.cfg.EvictAfter) }
	size, adds := 0, 0
	for i, k := 0, 0; i < len(old) || k < n; {
		switch c := cmp(i, k); {
		case c < 0:
			if keep(i) {
				size++
			}
			i++
		case c > 0:
			size++
			adds++
			k++
		default:
			size++
			i++
			k++
		}
	}
	out := old[:0]
	if adds > 0 {
		out = make([]partHist, 0, size)
	}
	for i, k := 0, 0; i < len(old) || k < n; {
		switch c := cmp(i, k); {
		case c < 0:
			if keep(i) {
				out = append(out, old[i])
			}
			i++
		case c > 0:
			p := at(k)
			out = append(out, h.newPartition(h.topicIndex(p.Topic), p.Partition))
			total = addKnownLag(total, h.updatePartition(gh, &out[len(out)-1], p, t, fetched))
			k++
		default:
			out = append(out, old[i])
			total = addKnownLag(total, h.updatePartition(gh, &out[len(out)-1], at(k), t, fetched))
			i++
			k++
		}
	}
	if adds == 0 {
		clear(old[len(out):]) // drop the evicted partitions' slabs
	}
	gh.parts = out
	h.setGroupLag(gh, total)
	h.judgeGroup(gh, at, n, t)
}

// gapStart is the first poll after last whose ring slot must be marked
// missing; slots older than the ring are overwritten anyway.
func (h *History) gapStart(last uint64) uint64 {
	if last == 0 {
		return h.seq
	}
	n := uint64(h.cfg.Samples)
	if h.seq > n && last+1 < h.seq-n+1 {
		return h.seq - n + 1
	}
	return last + 1
}

// sortedOrder returns nil when ps is strictly sorted by topic and partition
// (the snapshot contract), and otherwise the indices of ps in that order
// with duplicates dropped.
func (h *History) sortedOrder(ps []kafka.PartitionOffsets) []int {
	ok := true
	for i := 1; i < len(ps); i++ {
		if compareKey(ps[i-1].Topic, ps[i-1].Partition, ps[i].Topic, ps[i].Partition) >= 0 {
			ok = false
			break
		}
	}
	if ok {
		return nil
	}
	order := h.order[:0]
	for i := range ps {
		order = append(order, i)
	}
	sort.SliceStable(order, func(a, b int) bool {
		pa, pb := &ps[order[a]], &ps[order[b]]
		return compareKey(pa.Topic, pa.Partition, pb.Topic, pb.Partition) < 0
	})
	u := order[:0]
	for _, i := range order {
		if len(u) > 0 {
			prev := &ps[u[len(u)-1]]
			if prev.Topic == ps[i].Topic && prev.Partition == ps[i].Partition {
				continue
			}
		}
		u = append(u, i)
	}
	h.order = order
	return u
}

func compareKey(ta string, pa int32, tb string, pb int32) int {
	switch {
	case ta < tb:
		return -1
	case ta > tb:
		return 1
	case pa < pb:
		return -1
	case pa > pb:
		return 1
	}
	return 0
}
