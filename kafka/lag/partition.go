package lag

import (
	"math"

	"github.com/kgroups/kgroups/kafka"
)

// partHist is one partition's history. Its three rings live in a single
// slab allocated once when the partition first appears, so a poll that
// only updates known partitions allocates nothing.
type partHist struct {
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

func (h *History) newPartition(topic string, partition int32) partHist {
	s, p, w := h.cfg.Samples, h.cfg.TimePoints, h.cfg.Window
	slab := make([]int64, 2*s+2*p+3*w)
	return partHist{
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
func (h *History) updatePartition(ph *partHist, p *kafka.PartitionOffsets, t int64, fetched bool) int64 {
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

// table is the partition's time-lag points.
func (ph *partHist) table() pointTable {
	return pointTable{pts: ph.points, start: int(ph.ptStart), n: int(ph.ptLen)}
}

// point returns the i-th oldest time-lag point.
func (ph *partHist) point(i int) (off, t int64) { return ph.table().at(i) }

func (ph *partHist) setPoint(i int, off, t int64) {
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
func (ph *partHist) addPoint(off, t int64) {
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

// obs is one commit observation.
type obs struct {
	t, committed, lag int64
}

// observation returns the i-th oldest commit observation.
func (ph *partHist) observation(i int) obs {
	n := int32(len(ph.win) / 3)
	j := 3 * ((ph.winStart + int32(i)) % n)
	return obs{ph.win[j], ph.win[j+1], ph.win[j+2]}
}

// observe records a commit observation: always when the committed offset
// changed, and for an unchanged offset only while a member owns the
// partition and at least minDist after the previous observation (a live
// consumer re-commits; polling cannot see it, so time stands in for it).
func (ph *partHist) observe(c, lag, t int64, owned bool, minDist int64) {
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
