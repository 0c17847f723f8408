package lag

import "time"

// CommitUnmovedSince is the time of the oldest poll, among the polls the
// History keeps (PartitionSeries), since which the partition's committed
// offset has stood at its latest value without a break: how old the last
// commit is, at least. ok is false for an unknown partition or one
// without a commit at the latest poll.
func (h *History) CommitUnmovedSince(group, topic string, partition int32) (since time.Time, ok bool) {
	var buf [64]Sample
	ss := h.PartitionSeries(group, topic, partition, buf[:0])
	if len(ss) == 0 || ss[len(ss)-1].Committed < 0 {
		return time.Time{}, false
	}
	c := ss[len(ss)-1].Committed
	since = ss[len(ss)-1].Time
	for i := len(ss) - 2; i >= 0 && ss[i].Committed == c; i-- {
		since = ss[i].Time
	}
	return since, true
}

// CommitUnmovedSince is History.CommitUnmovedSince over the Tracker's
// history.
func (l *Tracker) CommitUnmovedSince(group, topic string, partition int32) (time.Time, bool) {
	if l == nil {
		return time.Time{}, false
	}
	return l.hist.CommitUnmovedSince(group, topic, partition)
}

// Samples is History.PartitionSeries over the Tracker's history: the
// partition's committed offsets and log ends at each poll the history
// keeps, oldest first (the diagnosis rules read a member's commit rhythm
// from it). It returns dst unchanged for an unknown partition.
func (l *Tracker) Samples(group, topic string, partition int32, dst []Sample) []Sample {
	if l == nil {
		return dst
	}
	return l.hist.PartitionSeries(group, topic, partition, dst)
}
