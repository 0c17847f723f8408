package lag

// This file keeps the History's original representation, one slab of
// int64 per partition, as a reference: refHistory answers every question
// the History answers, and the equivalence tests (equivalence_test.go)
// require the compact History to give the same answers on recorded and
// fuzzed histories. It is the code of the History before the compact
// encoding, with its types renamed; keep it unchanged.

import (
	"sort"
	"time"

	"github.com/kgroups/kgroups/kafka"
)

// refHistory remembers what the last polls saw for every group and partition,
// bounded in memory however long kgroups runs. Feed it every snapshot with
// Add and query it with GroupLagSeries, Rates, TimeLag and Evaluate.
//
// A refHistory is not safe for concurrent use: it is owned by one goroutine
// (the UI's Update loop, or the sampling loop of `kgroups health`), which
// both adds snapshots and queries it, so it carries no lock.
//
// Memory is O(partitions x ring sizes) however long kgroups runs. Each
// partition holds one slab of 8*(2*Samples + 2*TimePoints + 3*Window) bytes
// (2160 with DefaultConfig, 2304 after the allocator rounds it up to its
// size class) plus a fixed record of 144 bytes on 64-bit (checked by
// TestPartHistSize): at most 2448 bytes per partition with the defaults,
// measured at about 2475 with the per-group share included
// (BenchmarkHistoryMemory). Each group
// adds 8*Samples bytes for its lag series. Only groups and partitions seen
// in the last EvictAfter polls are kept; a poll that adds or drops
// partitions reallocates that group's partition records once.
type refHistory struct {
	cfg Config
	// seq counts accepted snapshots; the latest one is seq (0: none yet).
	seq uint64
	// times holds poll times (Unix nanoseconds), a ring indexed by seq.
	times  []int64
	groups map[string]*refGroupHist
	// resets are the offset changes kgroups made, per group (NoteReset).
	resets map[string][]Reset
	// exact holds the records read at committed offsets (AddExact),
	// for the commits of the latest poll only.
	exact refExactCache
	// order is scratch space for snapshots whose partitions arrive
	// unsorted or duplicated, which the snapshot contract rules out but
	// which must not corrupt the history.
	order []int
}

// newRefHistory returns an empty history. Zero or invalid fields of cfg take
// their defaults.
func newRefHistory(cfg Config) *refHistory {
	cfg = cfg.normalize()
	return &refHistory{
		cfg:    cfg,
		times:  make([]int64, cfg.Samples),
		groups: make(map[string]*refGroupHist),
	}
}

// Config returns the configuration in effect, after defaults were applied.
func (h *refHistory) Config() Config { return h.cfg }

// Polls returns how many snapshots have been accepted.
func (h *refHistory) Polls() int { return int(h.seq) }

// Groups returns how many groups are remembered, including those still
// waiting to be evicted.
func (h *refHistory) Groups() int { return len(h.groups) }

// Partitions returns how many partitions are remembered across all groups,
// including those still waiting to be evicted: the figure that memory is
// proportional to.
func (h *refHistory) Partitions() int {
	n := 0
	for _, g := range h.groups {
		n += len(g.parts)
	}
	return n
}

func (h *refHistory) slot(seq uint64) int { return int(seq % uint64(h.cfg.Samples)) }

// Add records one poll. Its cost is O(partitions in s) and, once the set of
// groups and partitions is stable, it allocates nothing.
//
// Snapshots must arrive in time order: a nil snapshot, or one whose Time is
// not after the previous accepted snapshot's, is ignored, so that a stale
// or repeated poll can never produce a negative or infinite rate.
func (h *refHistory) Add(s *kafka.Snapshot) {
	if s == nil {
		return
	}
	t := s.Time.UnixNano()
	if h.seq > 0 && t <= h.times[h.slot(h.seq)] {
		return
	}
	h.seq++
	h.times[h.slot(h.seq)] = t
	for i := range s.Groups {
		g := &s.Groups[i]
		gh, ok := h.groups[g.Name]
		if !ok {
			gh = &refGroupHist{firstSeq: h.seq, lag: make([]int64, h.cfg.Samples)}
			h.groups[g.Name] = gh
		} else if gh.lastSeq == h.seq {
			continue // the same name twice in one snapshot: keep the first
		}
		h.updateGroup(gh, g, t)
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
}

// pruneAbsent drops the partitions of a group missing from this poll that
// have now been missing for EvictAfter polls, so that no partition outlives
// the bound because its group went missing too.
func (h *refHistory) pruneAbsent(gh *refGroupHist) {
	kept := gh.parts[:0]
	for i := range gh.parts {
		if h.seq-gh.parts[i].lastSeq < uint64(h.cfg.EvictAfter) {
			kept = append(kept, gh.parts[i])
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
func (h *refHistory) GroupLagSeries(group string, dst []int64) []int64 {
	gh, ok := h.groups[group]
	if !ok {
		return dst
	}
	for s := h.firstSeq(gh.firstSeq, gh.lastSeq); s <= gh.lastSeq; s++ {
		dst = append(dst, gh.lag[h.slot(s)])
	}
	return dst
}

// firstSeq is the oldest poll still in the ring for something first seen at
// first and last seen at last.
func (h *refHistory) firstSeq(first, last uint64) uint64 {
	n := uint64(h.cfg.Samples)
	if last >= n && last-n+1 > first {
		return last - n + 1
	}
	return first
}

// refGroupHist is one group's history.
type refGroupHist struct {
	firstSeq, lastSeq uint64
	// lag is the group's total lag per poll, a ring indexed by seq.
	lag []int64
	// parts are sorted by topic then partition, like snapshots.
	parts []refPartHist
	// obsLen counts the polls that saw the group at least MinDistance
	// apart, up to Window, and obsLast is the latest one's time: how much
	// of a window the group itself has been watched for (see Verdict).
	obsLen  int
	obsLast int64
}

// observe counts a poll that saw the group, spaced like commit
// observations.
func (gh *refGroupHist) observe(t, minDist int64, window int) {
	if gh.obsLen == 0 || t-gh.obsLast >= minDist {
		gh.obsLen = min(gh.obsLen+1, window)
		gh.obsLast = t
	}
}

func (h *refHistory) updateGroup(gh *refGroupHist, g *kafka.Group, t int64) {
	for s := h.gapStart(gh.lastSeq); s < h.seq; s++ {
		gh.lag[h.slot(s)] = kafka.NoOffset
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
		same = gh.parts[k].topic == p.Topic && gh.parts[k].partition == p.Partition
	}
	if same {
		for k := 0; k < n; k++ {
			total = addKnownLag(total, h.updatePartition(&gh.parts[k], at(k), t, fetched))
		}
		gh.lag[h.slot(h.seq)] = total
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
		return compareKey(old[i].topic, old[i].partition, at(k).Topic, at(k).Partition)
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
		out = make([]refPartHist, 0, size)
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
			out = append(out, h.newPartition(p.Topic, p.Partition))
			total = addKnownLag(total, h.updatePartition(&out[len(out)-1], p, t, fetched))
			k++
		default:
			out = append(out, old[i])
			total = addKnownLag(total, h.updatePartition(&out[len(out)-1], at(k), t, fetched))
			i++
			k++
		}
	}
	if adds == 0 {
		clear(old[len(out):]) // drop the evicted partitions' slabs
	}
	gh.parts = out
	gh.lag[h.slot(h.seq)] = total
}

// gapStart is the first poll after last whose ring slot must be marked
// missing; slots older than the ring are overwritten anyway.
func (h *refHistory) gapStart(last uint64) uint64 {
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
func (h *refHistory) sortedOrder(ps []kafka.PartitionOffsets) []int {
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

// refPartHist is one partition's history. Its three rings live in a single
// slab allocated once when the partition first appears, so a poll that
// only updates known partitions allocates nothing.
type refPartHist struct {
	topic     string
	partition int32
	// owned reports whether a member owned the partition at the latest poll.
	owned bool
	// unLen counts the observations (polls at least MinDistance apart, at
	// most Window) of the current run of polls in which a member owned
	// the partition and nothing was committed for it; unLast is the time
	// of the latest. A commit, or a poll without an owner, ends the run.
	unLen  int16
	unLast int64
	// firstSeq and lastSeq are the first and latest polls that saw the
	// partition.
	firstSeq, lastSeq uint64
	// logStart is the log-start offset at the latest poll.
	logStart int64
	// samples holds (committed, log end) per poll, a ring indexed by seq:
	// samples[2*slot] and samples[2*slot+1].
	samples []int64
	// points holds (log-end offset, Unix nanos) pairs for time-lag
	// interpolation, oldest first from ptStart, ptLen of them.
	points         []int64
	ptStart, ptLen int32
	// win holds the last commit observations as (Unix nanos, committed,
	// lag) triples, oldest first from winStart, winLen of them.
	win              []int64
	winStart, winLen int32
}

func (h *refHistory) newPartition(topic string, partition int32) refPartHist {
	s, p, w := h.cfg.Samples, h.cfg.TimePoints, h.cfg.Window
	slab := make([]int64, 2*s+2*p+3*w)
	return refPartHist{
		topic:     topic,
		partition: partition,
		firstSeq:  h.seq,
		samples:   slab[: 2*s : 2*s],
		points:    slab[2*s : 2*s+2*p : 2*s+2*p],
		win:       slab[2*s+2*p:],
	}
}

// updatePartition records the partition's state at the current poll (time
// t) and returns its lag, kafka.NoOffset when unknown, for the group total.
// fetched is false when the group's offsets could not be read (Group.Err):
// a missing commit then says nothing about the consumer.
func (h *refHistory) updatePartition(ph *refPartHist, p *kafka.PartitionOffsets, t int64, fetched bool) int64 {
	for s := h.gapStart(ph.lastSeq); s < h.seq; s++ {
		i := 2 * h.slot(s)
		ph.samples[i], ph.samples[i+1] = kafka.NoOffset, kafka.NoOffset
	}
	ph.lastSeq = h.seq
	c, end := p.Committed, p.LogEnd
	if c < 0 {
		c = kafka.NoOffset
	}
	if end < 0 {
		end = kafka.NoOffset
	}
	i := 2 * h.slot(h.seq)
	ph.samples[i], ph.samples[i+1] = c, end
	ph.logStart = p.LogStart
	ph.owned = p.MemberID != ""
	h.markExact(ph.topic, ph.partition, c, p.LogStart)

	lag := lagOf(c, end)
	if end >= 0 {
		ph.addPoint(end, t)
	}
	if c >= 0 {
		ph.observe(c, lag, t, ph.owned, int64(h.cfg.MinDistance))
	}
	ph.observeUncommitted(fetched && c < 0 && ph.owned, t, int64(h.cfg.MinDistance), h.cfg.Window)
	return lag
}

// observeUncommitted counts the polls in which a live owner has committed
// nothing, spaced like commit observations (at least minDist apart) and
// capped at window: a consumer that commits gets a window's time to show
// its first commit before it is judged NO-COMMITS.
func (ph *refPartHist) observeUncommitted(uncommitted bool, t, minDist int64, window int) {
	switch {
	case !uncommitted:
		ph.unLen = 0
	case ph.unLen == 0 || t-ph.unLast >= minDist:
		ph.unLen = int16(min(int(ph.unLen)+1, window))
		ph.unLast = t
	}
}

// table is the partition's time-lag points.
func (ph *refPartHist) table() refPointTable {
	return refPointTable{pts: ph.points, start: int(ph.ptStart), n: int(ph.ptLen)}
}

// point returns the i-th oldest time-lag point.
func (ph *refPartHist) point(i int) (off, t int64) { return ph.table().at(i) }

func (ph *refPartHist) setPoint(i int, off, t int64) {
	n := int32(len(ph.points) / 2)
	j := 2 * ((ph.ptStart + int32(i)) % n)
	ph.points[j], ph.points[j+1] = off, t
}

// addPoint adds a (log end, time) point to the interpolation table, the way
// kafka-lag-exporter keeps its table:
//   - a log end below the newest point is a transient dip (a stale answer
//     from a new leader) and is dropped, unless it is below the oldest point
//     too: then the log was recreated or truncated and the table restarts;
//   - a third equal log end in a row moves the newest point's time instead of
//     adding a point, so a flat run keeps only its first and last point;
//   - a full table drops its oldest point.
func (ph *refPartHist) addPoint(off, t int64) {
	n := int32(len(ph.points) / 2)
	if ph.ptLen > 0 {
		last, _ := ph.point(int(ph.ptLen) - 1)
		if off < last {
			if first, _ := ph.point(0); off >= first {
				return
			}
			ph.ptLen = 0
		} else if off == last && ph.ptLen >= 2 {
			if prev, _ := ph.point(int(ph.ptLen) - 2); prev == off {
				ph.setPoint(int(ph.ptLen)-1, off, t)
				return
			}
		}
	}
	if ph.ptLen == n {
		ph.ptStart = (ph.ptStart + 1) % n
		ph.ptLen--
	}
	ph.ptLen++
	ph.setPoint(int(ph.ptLen)-1, off, t)
}

// refObs is one commit observation.
type refObs struct {
	t, committed, lag int64
}

// observation returns the i-th oldest commit observation.
func (ph *refPartHist) observation(i int) refObs {
	n := int32(len(ph.win) / 3)
	j := 3 * ((ph.winStart + int32(i)) % n)
	return refObs{ph.win[j], ph.win[j+1], ph.win[j+2]}
}

// observe records a commit observation: always when the committed offset
// changed, and for an unchanged offset only while a member owns the
// partition and at least minDist after the previous observation (a live
// consumer re-commits; polling cannot see it, so time stands in for it).
func (ph *refPartHist) observe(c, lag, t int64, owned bool, minDist int64) {
	n := int32(len(ph.win) / 3)
	if ph.winLen > 0 {
		last := ph.observation(int(ph.winLen) - 1)
		if c == last.committed && (!owned || t-last.t < minDist) {
			return
		}
	}
	if ph.winLen == n {
		ph.winStart = (ph.winStart + 1) % n
		ph.winLen--
	}
	ph.winLen++
	j := 3 * ((ph.winStart + ph.winLen - 1) % n)
	ph.win[j], ph.win[j+1], ph.win[j+2] = t, c, lag
}

// PartitionSeries appends to dst the partition's samples, oldest first,
// covering the polls of the last Samples that saw it (a partition missing
// from the latest polls has fewer). It returns dst unchanged for an
// unknown group or partition.
func (h *refHistory) PartitionSeries(group, topic string, partition int32, dst []Sample) []Sample {
	gh, ok := h.groups[group]
	if !ok {
		return dst
	}
	i := sort.Search(len(gh.parts), func(i int) bool {
		return compareKey(gh.parts[i].topic, gh.parts[i].partition, topic, partition) >= 0
	})
	if i == len(gh.parts) || gh.parts[i].topic != topic || gh.parts[i].partition != partition {
		return dst
	}
	ph := &gh.parts[i]
	from := h.firstSeq(ph.firstSeq, ph.lastSeq)
	if n := uint64(h.cfg.Samples); h.seq >= n {
		from = max(from, h.seq-n+1)
	}
	for s := from; s <= ph.lastSeq; s++ {
		j := 2 * h.slot(s)
		c, end := ph.samples[j], ph.samples[j+1]
		dst = append(dst, Sample{
			Time:      time.Unix(0, h.times[h.slot(s)]).UTC(),
			Committed: c,
			LogEnd:    end,
			Lag:       lagOf(c, end),
		})
	}
	return dst
}

// rate measures how fast one column of a partition's samples grew over the
// last RatePolls polls, in offsets per second. It adds up every forward step
// between consecutive known samples and ignores steps backwards, so a reset
// or a rewind does not turn the rate negative and the messages re-read after
// it count as consumed.
func (h *refHistory) rate(ph *refPartHist, col int) float64 {
	from := h.firstSeq(ph.firstSeq, ph.lastSeq)
	if n := uint64(h.cfg.RatePolls); ph.lastSeq >= n && ph.lastSeq-n+1 > from {
		from = ph.lastSeq - n + 1
	}
	var (
		first, last int64
		prev        int64 = -1
		sum         float64
		known       int
	)
	for s := from; s <= ph.lastSeq; s++ {
		v := ph.samples[2*h.slot(s)+col]
		if v < 0 {
			continue
		}
		t := h.times[h.slot(s)]
		if known == 0 {
			first = t
		} else if v > prev {
			sum += float64(v - prev)
		}
		prev, last = v, t
		known++
	}
	if known < 2 || last <= first {
		return UnknownRate
	}
	return sum / ((float64(last) - float64(first)) / 1e9)
}

// produceRate is log-end growth per second; consumeRate committed growth
// per second.
func (h *refHistory) produceRate(ph *refPartHist) float64 { return h.rate(ph, 1) }

func (h *refHistory) consumeRate(ph *refPartHist) float64 { return h.rate(ph, 0) }

// refPointTable is a table of (log-end offset, Unix nanos) points, oldest
// first, whose offsets never decrease: n points from index start of the
// ring pts holds in (offset, time) pairs. A refHistory keeps one per partition
// (see refPartHist.addPoint); SampleTimeLags builds one from a chart's samples.
type refPointTable struct {
	pts      []int64
	start, n int
}

// at returns the i-th oldest point.
func (tb refPointTable) at(i int) (off, t int64) {
	j := 2 * ((tb.start + i) % (len(tb.pts) / 2))
	return tb.pts[j], tb.pts[j+1]
}

// firstAbove is the index of the first point whose offset is above off, n
// when there is none.
func (tb refPointTable) firstAbove(off int64) int {
	lo, hi := 0, tb.n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if o, _ := tb.at(m); o <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// timeLag estimates the partition's time lag at now (Unix nanos) from its
// committed offset c and log end, over its table of points.
func (ph *refPartHist) timeLag(c, end, now int64) TimeLag {
	return refTimeLagAt(ph.table(), c, end, now)
}

// refTimeLagAt is the one time-lag estimate, in the manner of
// kafka-lag-exporter: the log end grew through the table's points; the time
// the log end passed the committed offset c is when the record at c was
// written, interpolated linearly between the last point at or below c and
// the first point above it. A c older than the oldest point is at least as
// old as that point (a lower bound, never an extrapolation: the refHistory
// replaces it with the exact value once the record at c is read, see
// refHistory.AddExact). Caught up (c >= end) is 0; no commit, no log end or fewer
// than two points is unknown. The time lag is now minus that time, never
// negative.
func refTimeLagAt(tb refPointTable, c, end, now int64) TimeLag {
	if c < 0 || end < 0 {
		return TimeLag{}
	}
	if c >= end {
		return TimeLag{Kind: TimeLagCaughtUp}
	}
	n := tb.n
	if n < 2 {
		return TimeLag{}
	}
	r := tb.firstAbove(c)
	var t float64
	kind := TimeLagInterpolated
	switch r {
	case n:
		// Unreachable while every known log end reaches the table (the
		// newest point is then at or above the current log end, which is
		// above c); kept so that a future caller cannot index past it.
		// The newest point is the latest time the log end was at or
		// below c.
		_, nt := tb.at(n - 1)
		t = float64(nt)
	case 0:
		_, t0 := tb.at(0)
		t, kind = float64(t0), TimeLagAtLeast
	default:
		lOff, lT := tb.at(r - 1)
		rOff, rT := tb.at(r)
		t = float64(rT) - float64(rOff-c)*(float64(rT)-float64(lT))/float64(rOff-lOff)
	}
	sec := (float64(now) - t) / 1e9
	if !finite(sec) {
		return TimeLag{}
	}
	if sec < 0 {
		sec = 0 // points stamped after now: the caller's clock is behind
	}
	return TimeLag{Seconds: sec, Kind: kind}
}

// verdict applies Burrow's rules to one partition whose committed offset is
// c and log end is end at the latest poll. The rules, checked in order over
// the partition's commit observations (at most Window of them, oldest
// first):
//
//  0. Only a partition with lag > 0 now is judged, and it is OK if its lag
//     was zero at any poll since the oldest observation (it caught up to
//     a recent log end).
//  1. STOP: the time from the newest observation to now exceeds the
//     window's span (newest minus oldest observation time), with the span
//     taken as at least (Window-1) x MinDistance: the span a full window
//     of a live consumer re-committing every MinDistance would have. The
//     floor keeps the first, arbitrarily close, observations of a fresh
//     history from raising false alarms, and lets a partition nobody
//     consumes from reach STOP without a second observation.
//  2. REWIND: some observation is below the highest one before it, and the
//     current offset is still below that high (needs 2 observations).
//  3. STALL: the window is full and every observation has the same offset.
//  4. WARN: the window is full and the lag never decreased from one
//     observation to the next.
//
// STALL and WARN judge a trend and so wait for a full window: until then a
// partition that is neither stopped nor rewound is OK, and
// PartitionHealth.Observations says how full its window is.
func (h *refHistory) verdict(ph *refPartHist, c, end, now int64) (Status, Rewind) {
	lag := lagOf(c, end)
	n := int(ph.winLen)
	if lag <= 0 || n == 0 {
		return StatusOK, Rewind{}
	}
	oldest, newest := ph.observation(0), ph.observation(n-1)
	for i := 0; i < n; i++ {
		if ph.observation(i).lag == 0 {
			return StatusOK, Rewind{}
		}
	}
	for s := h.firstSeq(ph.firstSeq, ph.lastSeq); s <= ph.lastSeq; s++ {
		if h.times[h.slot(s)] < oldest.t {
			continue
		}
		i := 2 * h.slot(s)
		if lagOf(ph.samples[i], ph.samples[i+1]) == 0 {
			return StatusOK, Rewind{}
		}
	}

	span := float64(newest.t) - float64(oldest.t)
	if floor := float64(h.cfg.Window-1) * float64(h.cfg.MinDistance); span < floor {
		span = floor
	}
	if float64(now)-float64(newest.t) > span {
		return StatusStop, Rewind{}
	}

	if rw, ok := ph.rewind(c); ok {
		return StatusRewind, rw
	}

	full := n == h.cfg.Window
	if !full {
		return StatusOK, Rewind{}
	}
	stalled := true
	for i := 1; i < n && stalled; i++ {
		stalled = ph.observation(i).committed == oldest.committed
	}
	if stalled {
		return StatusStall, Rewind{}
	}
	prev := oldest.lag
	for i := 1; i < n; i++ {
		l := ph.observation(i).lag
		if l < 0 {
			continue
		}
		if prev >= 0 && l < prev {
			return StatusOK, Rewind{}
		}
		prev = l
	}
	return StatusWarn, Rewind{}
}

// rewind finds the latest drop of the committed offset within the window
// that the current offset c has not recovered from. For a run of drops
// below one high (100, 80, 90, 85) it reports the first: High 100, Low 80;
// once an observation is back at or past the high the drop is forgotten.
func (ph *refPartHist) rewind(c int64) (Rewind, bool) {
	var (
		found bool
		rw    Rewind
		high  = ph.observation(0).committed
	)
	for i := 1; i < int(ph.winLen); i++ {
		o := ph.observation(i)
		if o.committed >= high {
			found = false // back at or past the high: recovered
			high = o.committed
			continue
		}
		if !found {
			found = true
			rw = Rewind{High: high, Low: o.committed, At: time.Unix(0, o.t).UTC()}
		}
	}
	if !found || c >= rw.High {
		return Rewind{}, false
	}
	return rw, true
}

// Evaluate judges a group as of now (the caller's clock, so that tests and
// `kgroups health` control time). It reports false when the group was not
// in the latest snapshot.
func (h *refHistory) Evaluate(group string, now time.Time) (GroupHealth, bool) {
	return h.EvaluateInto(group, now, nil)
}

// EvaluateInto is Evaluate appending the partitions to buf[:0], so a screen
// that evaluates every group on every poll can reuse one buffer per group.
func (h *refHistory) EvaluateInto(group string, now time.Time, buf []PartitionHealth) (GroupHealth, bool) {
	gh, ok := h.groups[group]
	if !ok || gh.lastSeq != h.seq || h.seq == 0 {
		return GroupHealth{}, false
	}
	nowNs := now.UnixNano()
	g := GroupHealth{
		Group:        group,
		ProduceRate:  UnknownRate,
		ConsumeRate:  UnknownRate,
		Complete:     true,
		Observations: gh.obsLen,
		Partitions:   buf[:0],
	}
	var (
		cuLag              int64
		cuProd, cuCons     float64
		cuKnown, cuUnknown bool
		lagKnown           bool
		lagging, keeping   int
	)
	for i := range gh.parts {
		ph := &gh.parts[i]
		if ph.lastSeq != h.seq {
			continue // missing from the latest poll, kept until evicted
		}
		p := h.partitionHealth(ph, nowNs)
		if p.Status == StatusRewind {
			p.ResetBy = h.resetBehind(group, p.Topic, p.Partition, p.Rewind)
		}
		g.Partitions = append(g.Partitions, p)

		if p.Status > g.Status {
			g.Status = p.Status
		}
		if p.Lag >= 0 {
			lagKnown = true
		}
		if p.Lag > 0 {
			g.TotalLag = addLag(g.TotalLag, p.Lag)
		}
		if p.waits(h.cfg.Window) {
			g.Complete = false
		}
		if p.TimeLag.Known() && (!g.MaxTimeLag.Known() || p.TimeLag.Seconds > g.MaxTimeLag.Seconds ||
			p.TimeLag.Seconds == g.MaxTimeLag.Seconds && p.TimeLag.Kind == TimeLagAtLeast) {
			// On a tie the lower bound wins: that partition may be further
			// behind, so the group's maximum is a lower bound too.
			g.MaxTimeLag = p.TimeLag
		}
		if p.ProduceRate >= 0 {
			g.ProduceRate = addRate(g.ProduceRate, p.ProduceRate)
		}
		if p.ConsumeRate >= 0 {
			g.ConsumeRate = addRate(g.ConsumeRate, p.ConsumeRate)
		}
		if p.Lag > 0 {
			lagging++
			if p.CatchUp.State == KeepingUp {
				keeping++
			}
		}
		if p.Lag >= 0 && p.ProduceRate >= 0 && p.ConsumeRate >= 0 {
			cuKnown = true
			cuLag = addLag(cuLag, p.Lag)
			cuProd += p.ProduceRate
			cuCons += p.ConsumeRate
		} else if p.Lag > 0 {
			cuUnknown = true
		}
	}
	g.Severity = g.Status.Severity()
	switch {
	case cuUnknown:
		// A lagging partition without rates: the group's answer would
		// leave it out.
	case lagKnown && g.TotalLag == 0:
		g.CatchUp = CatchUp{State: CaughtUp}
	case cuKnown:
		g.CatchUp = catchUp(cuLag, cuProd, cuCons)
		if g.CatchUp.State == KeepingUp && keeping < lagging {
			g.CatchUp = CatchUp{State: FallingBehind, Behind: max(0, cuProd-cuCons)}
		}
	}
	return g, true
}

func (h *refHistory) partitionHealth(ph *refPartHist, now int64) PartitionHealth {
	i := 2 * h.slot(h.seq)
	c, end := ph.samples[i], ph.samples[i+1]
	p := PartitionHealth{
		Topic:        ph.topic,
		Partition:    ph.partition,
		Committed:    c,
		LogStart:     ph.logStart,
		LogEnd:       end,
		Lag:          lagOf(c, end),
		Truncated:    c >= 0 && ph.logStart > c,
		Owned:        ph.owned,
		TimeLag:      h.timeLagOf(ph, c, end, now),
		ProduceRate:  h.produceRate(ph),
		ConsumeRate:  h.consumeRate(ph),
		Observations: int(ph.winLen),
	}
	if p.LogStart < 0 {
		p.LogStart = kafka.NoOffset
	}
	p.CatchUp = catchUp(p.Lag, p.ProduceRate, p.ConsumeRate)
	p.Status, p.Rewind = h.verdict(ph, c, end, now)
	if ph.unLen > 0 {
		p.Uncommitted = true
		p.Observations = int(ph.unLen)
		if p.Observations >= h.cfg.Window {
			p.Status = StatusNoCommits
		}
	}
	return p
}

// AddExact stores records read at committed offsets (the answer of
// kafka.Client.CommittedTimestamps for what WantExact asked), so that
// every later evaluation uses the exact time lag of those commits: the
// rows, the group's maximum, charts, `kgroups health`. A record that
// could not be read is asked for again after a few polls. It returns the
// number of records stored with a timestamp or as "nothing left to read".
//
// A record found after its commit (the commit fell below the log start)
// is also stored under its own offset: it is the log-start record, whose
// age caps the time lag of every commit on that partition.
func (h *refHistory) AddExact(recs map[kafka.CommitKey]kafka.RecordTime) int {
	if h.exact == nil {
		h.exact = make(refExactCache)
	}
	n := 0
	for k, r := range recs {
		e := h.exact[k]
		if e == nil {
			e = &exactEntry{seen: h.seq}
			h.exact[k] = e
		}
		e.rec = r
		if r.Err != nil {
			e.failed = h.seq
			continue
		}
		e.failed = 0
		n++
		if !r.NoRecords && r.Offset > k.Offset {
			at := kafka.CommitKey{Topic: k.Topic, Partition: k.Partition, Offset: r.Offset}
			if h.exact[at] == nil {
				h.exact[at] = &exactEntry{rec: r, seen: h.seq}
			}
		}
	}
	return n
}

// ExactCached is how many committed offsets the refHistory holds a record
// for (read or failed), at most two per partition of the latest poll.
func (h *refHistory) ExactCached() int { return len(h.exact) }

// markExact keeps the entries for a partition's commit and log start
// alive through this poll.
func (h *refHistory) markExact(topic string, partition int32, c, logStart int64) {
	if len(h.exact) == 0 {
		return
	}
	if e := h.exact[kafka.CommitKey{Topic: topic, Partition: partition, Offset: c}]; e != nil {
		e.seen = h.seq
	}
	if logStart >= 0 && logStart != c {
		if e := h.exact[kafka.CommitKey{Topic: topic, Partition: partition, Offset: logStart}]; e != nil {
			e.seen = h.seq
		}
	}
}

// pruneExact drops the records of commits the latest poll no longer had.
func (h *refHistory) pruneExact() {
	for k, e := range h.exact {
		if e.seen != h.seq {
			delete(h.exact, k)
		}
	}
}

// exactRecord is the record read at commit c of a partition whose log
// spans logStart to end, when it is still the next record the group will
// consume: one read before retention moved the log start past it is not,
// and "only transaction markers left" no longer holds once the log grew
// past the markers read.
func (h *refHistory) exactRecord(topic string, partition int32, c, logStart, end int64) (kafka.RecordTime, bool) {
	if len(h.exact) == 0 {
		return kafka.RecordTime{}, false
	}
	e := h.exact[kafka.CommitKey{Topic: topic, Partition: partition, Offset: c}]
	if e == nil || !e.usable(logStart, end) {
		return kafka.RecordTime{}, false
	}
	return e.rec, true
}

// timeLagOf is the partition's time lag at now: exact when the record at
// its commit was read, otherwise the estimate over its points (refTimeLagAt),
// capped by the age of the log-start record when that is known, since the
// group's next record cannot be older than the first one the log holds.
func (h *refHistory) timeLagOf(ph *refPartHist, c, end, now int64) TimeLag {
	if c >= 0 && end >= 0 && c < end {
		if r, ok := h.exactRecord(ph.topic, ph.partition, c, ph.logStart, end); ok {
			return exactAt(r, now)
		}
	}
	tl := ph.timeLag(c, end, now)
	if c < 0 || end < 0 || c >= end || ph.logStart < 0 {
		return tl
	}
	r, ok := h.exactRecord(ph.topic, ph.partition, ph.logStart, ph.logStart, end)
	if !ok || r.NoRecords || r.Offset != ph.logStart {
		return tl
	}
	limit := exactAt(r, now)
	if c < ph.logStart {
		return limit // the next record the group consumes is the log start's
	}
	if (tl.Kind == TimeLagInterpolated || tl.Kind == TimeLagAtLeast) && limit.Seconds < tl.Seconds {
		tl.Seconds = limit.Seconds
	}
	return tl
}

// WantExact appends to dst the partitions of the latest poll whose time
// lag wants the record at their committed offset: a commit below the log
// end, older than the oldest log-end point the refHistory holds (so the time
// lag is only a lower bound, or unknown on the first poll), with no record
// read for it yet (or a failed read due for a retry). Interpolation within
// the points is sound and is not asked for.
//
// The most lagging come first (the oldest lower bound, then the largest
// offset lag), at most budget of them (DefaultExactBudget when budget <=
// 0), each commit once, and at most one commit per partition, so that
// kafka.Client.CommittedTimestamps reads them in one round, batched per
// partition leader. The rest are asked for after the next poll.
func (h *refHistory) WantExact(budget int, dst []kafka.PartitionOffsets) []kafka.PartitionOffsets {
	if budget <= 0 {
		budget = DefaultExactBudget
	}
	if h.seq == 0 {
		return dst
	}
	type want struct {
		p     kafka.PartitionOffsets
		since int64 // the oldest point's time: the lower bound's start
		lag   int64
	}
	type tp struct {
		topic     string
		partition int32
	}
	var ws []want
	seen := make(map[tp]int)
	for _, gh := range h.groups {
		if gh.lastSeq != h.seq {
			continue
		}
		for i := range gh.parts {
			ph := &gh.parts[i]
			if ph.lastSeq != h.seq || ph.ptLen == 0 {
				continue
			}
			j := 2 * h.slot(h.seq)
			c, end := ph.samples[j], ph.samples[j+1]
			if c < 0 || end < 0 || c >= end {
				continue
			}
			off0, t0 := ph.point(0)
			if c >= off0 {
				continue // within the points: interpolated
			}
			k := kafka.CommitKey{Topic: ph.topic, Partition: ph.partition, Offset: c}
			if e := h.exact[k]; e != nil {
				if e.rec.Err != nil {
					if h.seq-e.failed < exactRetryPolls {
						continue // failed lately: retried later
					}
				} else if e.usable(ph.logStart, end) {
					continue // read, and still the next record
				}
			}
			if c < ph.logStart {
				if r, ok := h.exactRecord(ph.topic, ph.partition, ph.logStart, ph.logStart, end); ok && !r.NoRecords && r.Offset == ph.logStart {
					continue // the log-start record is known: exact
				}
			}
			w := want{
				p:     kafka.PartitionOffsets{Topic: ph.topic, Partition: ph.partition, Committed: c, LogStart: ph.logStart, LogEnd: end},
				since: t0,
				lag:   end - c,
			}
			key := tp{ph.topic, ph.partition}
			if at, ok := seen[key]; ok {
				// One commit per partition per read: keep the
				// most lagging; the other waits for a later poll.
				if o := &ws[at]; w.since < o.since || (w.since == o.since && w.lag > o.lag) {
					*o = w
				}
				continue
			}
			seen[key] = len(ws)
			ws = append(ws, w)
		}
	}
	sort.Slice(ws, func(i, j int) bool {
		a, b := &ws[i], &ws[j]
		switch {
		case a.since != b.since:
			return a.since < b.since
		case a.lag != b.lag:
			return a.lag > b.lag
		case a.p.Topic != b.p.Topic:
			return a.p.Topic < b.p.Topic
		}
		return a.p.Partition < b.p.Partition
	})
	for i := 0; i < len(ws) && i < budget; i++ {
		dst = append(dst, ws[i].p)
	}
	return dst
}

// NoteReset tells the history of a change kgroups made to group's
// committed offsets, so that the REWIND it causes is told apart from a
// consumer's out-of-order commit. The newest MaxResets per group are kept,
// and forgotten with the group.
func (h *refHistory) NoteReset(group string, r Reset) {
	if h.resets == nil {
		h.resets = make(map[string][]Reset)
	}
	rs := append(h.resets[group], r)
	if len(rs) > MaxResets {
		rs = append(rs[:0:0], rs[len(rs)-MaxResets:]...)
	}
	h.resets[group] = rs
}

// resetBehind finds the newest reset of group that explains a REWIND of
// topic/partition: it moved the partition's commit back from at least the
// rewind's high to at most its low (a consumer may have committed a little
// past the reset's offset before the poll saw it).
func (h *refHistory) resetBehind(group, topic string, partition int32, rw Rewind) *Reset {
	rs := h.resets[group]
	for i := len(rs) - 1; i >= 0; i-- {
		for _, o := range rs[i].Offsets {
			if o.Topic == topic && o.Partition == partition &&
				o.After >= 0 && o.After < o.Before && o.After <= rw.Low && rw.High <= o.Before {
				return &rs[i]
			}
		}
	}
	return nil
}

// refExactCache is the reference's record cache: entries by pointer, as
// the History kept them before its entries became values.
type refExactCache map[kafka.CommitKey]*exactEntry
