package lag

import (
	"sort"
	"time"
)

// Sample is one poll of one partition, for lag charts.
type Sample struct {
	Time time.Time
	// Committed, LogEnd and Lag are kafka.NoOffset when unknown or when
	// the partition was missing from that poll.
	Committed, LogEnd, Lag int64
}

// PartitionSeries appends to dst the partition's samples, oldest first,
// covering the polls of the last Samples that saw it (a partition missing
// from the latest polls has fewer: the History keeps the times of the
// last Samples polls only, and the next poll may write the ring slots of
// older ones while a copy is read, see CopyFrom). It returns dst
// unchanged for an unknown group or partition.
func (h *History) PartitionSeries(group, topic string, partition int32, dst []Sample) []Sample {
	gh, ok := h.groups[group]
	if !ok {
		return dst
	}
	i := sort.Search(len(gh.parts), func(i int) bool {
		return compareKey(h.topicOf(&gh.parts[i]), gh.parts[i].partition, topic, partition) >= 0
	})
	if i == len(gh.parts) || h.topicOf(&gh.parts[i]) != topic || gh.parts[i].partition != partition {
		return dst
	}
	ph := &gh.parts[i]
	cs, es := h.col(ph, secCommitted), h.col(ph, secLogEnd)
	from := h.firstSeq(ph.first(), ph.lastSeq)
	if n := uint64(h.cfg.Samples); h.seq >= n {
		from = max(from, h.seq-n+1)
	}
	for s := from; s <= ph.lastSeq; s++ {
		c, end := cs.get(h.slot(s)), es.get(h.slot(s))
		dst = append(dst, Sample{
			Time:      time.Unix(0, h.times[h.slot(s)]).UTC(),
			Committed: c,
			LogEnd:    end,
			Lag:       lagOf(c, end),
		})
	}
	return dst
}
