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
// covering at most the last Samples polls up to the latest poll that saw
// it. It returns dst unchanged for an unknown group or partition.
func (h *History) PartitionSeries(group, topic string, partition int32, dst []Sample) []Sample {
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
	cs, es := h.col(ph, secCommitted), h.col(ph, secLogEnd)
	for s := h.firstSeq(ph.first(), ph.lastSeq); s <= ph.lastSeq; s++ {
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
