package lag

import (
	"sort"

	"github.com/kgroups/kgroups/kafka"
)

// DefaultExactBudget is how many committed offsets one exact read covers
// at most (History.WantExact): the most lagging first, the rest on later
// polls, shown as lower bounds meanwhile.
const DefaultExactBudget = 256

// exactRetryPolls is how many polls a record that could not be read waits
// before it is asked for again, so that an unreadable partition (no read
// permission, say) costs one read every few polls, not one every poll.
const exactRetryPolls = 10

// exactEntry is what the History knows about the record at one committed
// offset: records never change, so a commit that stays put is read once.
type exactEntry struct {
	rec kafka.RecordTime
	// seen is the latest poll whose snapshot had this commit (or this
	// offset as a log start); entries not seen by the latest poll are
	// dropped, which bounds the cache by the partitions of one snapshot.
	seen uint64
	// failed is the poll at which a failed read came back.
	failed uint64
}

// exactCache holds the records read at committed offsets, by commit. Its
// entries are values, so that a copy of the map (CopyFrom) shares nothing
// the copy's writes change.
type exactCache map[kafka.CommitKey]exactEntry

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
func (h *History) AddExact(recs map[kafka.CommitKey]kafka.RecordTime) int {
	if h.exact == nil {
		h.exact = make(exactCache)
	}
	n := 0
	for k, r := range recs {
		e, ok := h.exact[k]
		if !ok {
			e = exactEntry{seen: h.seq}
		}
		e.rec = r
		if r.Err != nil {
			e.failed = h.seq
			h.exact[k] = e
			continue
		}
		e.failed = 0
		h.exact[k] = e
		n++
		if !r.NoRecords && r.Offset > k.Offset {
			at := kafka.CommitKey{Topic: k.Topic, Partition: k.Partition, Offset: r.Offset}
			if _, ok := h.exact[at]; !ok {
				h.exact[at] = exactEntry{rec: r, seen: h.seq}
			}
		}
	}
	if n > 0 {
		h.fillTrend()
	}
	return n
}

// ExactCached is how many committed offsets the History holds a record
// for (read or failed), at most two per partition of the latest poll.
func (h *History) ExactCached() int { return len(h.exact) }

// markExact keeps the entries for a partition's commit and log start
// alive through this poll.
func (h *History) markExact(topic string, partition int32, c, logStart int64) {
	if len(h.exact) == 0 {
		return
	}
	k := kafka.CommitKey{Topic: topic, Partition: partition, Offset: c}
	if e, ok := h.exact[k]; ok {
		e.seen = h.seq
		h.exact[k] = e
	}
	if logStart >= 0 && logStart != c {
		k.Offset = logStart
		if e, ok := h.exact[k]; ok {
			e.seen = h.seq
			h.exact[k] = e
		}
	}
}

// pruneExact drops the records of commits the latest poll no longer had.
func (h *History) pruneExact() {
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
func (h *History) exactRecord(topic string, partition int32, c, logStart, end int64) (kafka.RecordTime, bool) {
	if len(h.exact) == 0 {
		return kafka.RecordTime{}, false
	}
	e, ok := h.exact[kafka.CommitKey{Topic: topic, Partition: partition, Offset: c}]
	if !ok || !e.usable(logStart, end) {
		return kafka.RecordTime{}, false
	}
	return e.rec, true
}

// usable reports whether a record read is still the answer for its commit
// on a log spanning logStart to end.
func (e *exactEntry) usable(logStart, end int64) bool {
	switch {
	case e.rec.Err != nil:
		return false
	case e.rec.NoRecords:
		return end <= e.rec.Offset+1
	}
	return e.rec.Offset >= logStart
}

// timeLagOf is the partition's time lag at now: exact when the record at
// its commit was read, otherwise the estimate over its points (timeLagAt),
// capped by the age of the log-start record when that is known, since the
// group's next record cannot be older than the first one the log holds.
func (h *History) timeLagOf(ph *partHist, c, end, now int64) TimeLag {
	if c >= 0 && end >= 0 && c < end {
		if r, ok := h.exactRecord(h.topicOf(ph), ph.partition, c, ph.logStart, end); ok {
			return exactAt(r, now)
		}
	}
	tl := h.timeLag(ph, c, end, now)
	if c < 0 || end < 0 || c >= end || ph.logStart < 0 {
		return tl
	}
	r, ok := h.exactRecord(h.topicOf(ph), ph.partition, ph.logStart, ph.logStart, end)
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

// exactAt is the time lag at now (Unix nanos) given the record at the
// commit, with ExactTimeLag's rules.
func exactAt(r kafka.RecordTime, now int64) TimeLag {
	if r.NoRecords {
		return TimeLag{Kind: TimeLagCaughtUp}
	}
	sec := float64(now-r.Timestamp.UnixNano()) / 1e9
	if sec < 0 {
		sec = 0
	}
	return TimeLag{Seconds: sec, Kind: TimeLagExact}
}

// WantExact appends to dst the partitions of the latest poll whose time
// lag wants the record at their committed offset: a commit below the log
// end, older than the oldest log-end point the History holds (so the time
// lag is only a lower bound, or unknown on the first poll), with no record
// read for it yet (or a failed read due for a retry). Interpolation within
// the points is sound and is not asked for.
//
// The most lagging come first (the oldest lower bound, then the largest
// offset lag), at most budget of them (DefaultExactBudget when budget <=
// 0), each commit once, and at most one commit per partition, so that
// kafka.Client.CommittedTimestamps reads them in one round, batched per
// partition leader. The rest are asked for after the next poll.
func (h *History) WantExact(budget int, dst []kafka.PartitionOffsets) []kafka.PartitionOffsets {
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
			c, end := h.sample(ph, h.seq)
			if c < 0 || end < 0 || c >= end {
				continue
			}
			off0, seq0 := h.point(ph, 0)
			if c >= off0 {
				continue // within the points: interpolated
			}
			k := kafka.CommitKey{Topic: h.topicOf(ph), Partition: ph.partition, Offset: c}
			if e, ok := h.exact[k]; ok {
				if e.rec.Err != nil {
					if h.seq-e.failed < exactRetryPolls {
						continue // failed lately: retried later
					}
				} else if e.usable(ph.logStart, end) {
					continue // read, and still the next record
				}
			}
			if c < ph.logStart {
				if r, ok := h.exactRecord(h.topicOf(ph), ph.partition, ph.logStart, ph.logStart, end); ok && !r.NoRecords && r.Offset == ph.logStart {
					continue // the log-start record is known: exact
				}
			}
			w := want{
				p:     kafka.PartitionOffsets{Topic: h.topicOf(ph), Partition: ph.partition, Committed: c, LogStart: ph.logStart, LogEnd: end},
				since: h.timeAt(seq0),
				lag:   end - c,
			}
			key := tp{h.topicOf(ph), ph.partition}
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

// judgedTimeLag is timeLagOf as the rules read it while a poll is added,
// and whether timeLagOf gave only a lower bound (TimeLagAtLeast). The
// record at a commit older than the partition's points is read after the
// poll is judged (WantExact, then AddExact): until then its time lag is a
// lower bound, the age of the oldest point, which grows a second a
// second whatever the consumer does. Where the record at the
// partition's commit of the poll before was read, the new commit's record
// was written between that record and the oldest point: its time is read
// on the line between them, as timeLagAt reads one between two points
// (exact where production was steady; never above the older record's
// age nor below the lower bound).
func (h *History) judgedTimeLag(ph *partHist, c, end, now int64) (TimeLag, bool) {
	tl := h.timeLagOf(ph, c, end, now)
	atLeast := tl.Kind == TimeLagAtLeast
	if !atLeast || h.seq < 2 || ph.ptLen == 0 {
		return tl, atLeast
	}
	prev, _ := h.sample(ph, h.seq-1)
	if prev < 0 || prev >= c {
		return tl, atLeast
	}
	r, ok := h.exactRecord(h.topicOf(ph), ph.partition, prev, ph.logStart, end)
	if !ok || r.NoRecords {
		return tl, atLeast
	}
	lo := max(prev, r.Offset) // a commit below the log start: its first record
	off0, seq0 := h.point(ph, 0)
	t0, tr := h.timeAt(seq0), r.Timestamp.UnixNano()
	if lo >= c || off0 <= c || t0 <= tr {
		return tl, atLeast
	}
	written := float64(tr) + float64(c-lo)*float64(t0-tr)/float64(off0-lo)
	sec := (float64(now) - written) / 1e9
	if !finite(sec) || sec < tl.Seconds {
		return tl, atLeast
	}
	return TimeLag{Seconds: sec, Kind: TimeLagInterpolated}, atLeast
}
