package lag

import (
	"maps"
	"time"

	"github.com/kgroups/kgroups/kafka"
)

// History keyed to what it measures: the offsets, points, observations and
// cached records of a partition describe one log. When that log is
// replaced, its history is dropped and starts again, so that nothing is
// judged across the replacement: no REWIND for the commit of a new log
// below the old one's, no time lag read off the old log's points or
// records. A replacement is seen as
//
//   - another cluster id: every group's history restarts;
//   - another topic id for a topic (brokers from Kafka 2.8 give them):
//     every partition of that topic restarts;
//   - without topic ids, a log that cannot be the one before: its log
//     start moved backwards (retention only moves it forward), or its log
//     end fell below the previous commit and below half the previous log
//     end (a lagging replica's dip is a few records, not half the log).
//
// PartitionHealth.Restarted says when the partition's history restarted,
// for as long as the history's span still covers that poll.

// restartKey names what was replaced: a partition, or the cluster (topic
// "", partition -1).
type restartKey struct {
	topic     string
	partition int32
}

// noteReplacements compares the snapshot's cluster and topic ids with the
// last ones known, restarts what they replaced, and forgets restarts the
// ring of polls no longer covers. t is the poll's time.
func (h *History) noteReplacements(s *kafka.Snapshot, t int64) {
	if oldest := h.times[h.slot(h.seq-min(h.seq-1, uint64(h.cfg.Samples-1)))]; len(h.restarts) > 0 {
		maps.DeleteFunc(h.restarts, func(_ restartKey, at int64) bool { return at < oldest })
	}
	if s.ClusterID != "" {
		if h.clusterID != "" && s.ClusterID != h.clusterID {
			for name, gh := range h.groups {
				gh.drop()
				delete(h.groups, name)
			}
			clear(h.exact)
			clear(h.resets)
			clear(h.topicIDs)
			clear(h.restarts)
			h.restart(restartKey{partition: -1}, t)
		}
		h.clusterID = s.ClusterID
	}
	for topic, id := range s.TopicIDs {
		was, ok := h.topicIDs[topic]
		if ok && was.id != id {
			h.restartTopic(topic, t, was.at)
		}
		if h.topicIDs == nil {
			h.topicIDs = make(map[string]seenID, len(s.TopicIDs))
		}
		h.topicIDs[topic] = seenID{id: id, at: t}
	}
}

// seenID is a topic's id and the latest poll that gave it.
type seenID struct {
	id kafka.TopicID
	at int64
}

// restartTopic starts every group's history of topic again, but for the
// partitions whose logs were already seen replaced at or after since, the
// latest poll that gave the old id: metadata can lag the offsets by a
// poll, and those histories already hold the new log only.
func (h *History) restartTopic(topic string, t, since int64) {
	for _, gh := range h.groups {
		for i := range gh.parts {
			ph := &gh.parts[i]
			if h.topicOf(ph) != topic || h.restarts[restartKey{topic: topic, partition: ph.partition}] >= since {
				continue
			}
			gh.forgetTurns(ph)
			gh.forgetRewind(ph)
			*ph = h.newPartition(ph.topic, ph.partition)
			maps.DeleteFunc(h.exact, func(k kafka.CommitKey, _ exactEntry) bool {
				return k.Topic == topic && k.Partition == ph.partition
			})
			h.restart(restartKey{topic: topic, partition: ph.partition}, t)
		}
	}
}

// restartIfReplaced starts the partition's history again when the poll's
// offsets p cannot come from the log it has seen (see the top of this
// file), for brokers that give no topic ids, and forgets its turns and
// a REWIND held for it (gh's). prevC and prevEnd are its commit and log
// end at its latest poll.
func (h *History) restartIfReplaced(gh *groupHist, ph *partHist, p *kafka.PartitionOffsets, t, prevC, prevEnd int64) {
	backStart := p.LogStart >= 0 && ph.logStart > 0 && p.LogStart < ph.logStart
	backEnd := p.LogEnd >= 0 && prevC > p.LogEnd && p.LogEnd < prevEnd/2
	if !backStart && !backEnd {
		return
	}
	topic := h.topicOf(ph)
	// Its turns and a REWIND held for it were the old log's.
	gh.forgetTurns(ph)
	gh.forgetRewind(ph)
	*ph = h.newPartition(ph.topic, ph.partition)
	maps.DeleteFunc(h.exact, func(k kafka.CommitKey, _ exactEntry) bool {
		return k.Topic == topic && k.Partition == ph.partition
	})
	h.restart(restartKey{topic: topic, partition: ph.partition}, t)
}

func (h *History) restart(k restartKey, t int64) {
	if h.restarts == nil {
		h.restarts = make(map[restartKey]int64)
	}
	h.restarts[k] = t
}

// restartedAt is when the partition's history last restarted because its
// log, its topic or the cluster was replaced, or the zero time.
func (h *History) restartedAt(topic string, partition int32) time.Time {
	if len(h.restarts) == 0 {
		return time.Time{}
	}
	at := max(h.restarts[restartKey{partition: -1}], h.restarts[restartKey{topic: topic, partition: partition}])
	if at == 0 {
		return time.Time{}
	}
	return time.Unix(0, at).UTC()
}
