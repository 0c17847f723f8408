package lag

import (
	"time"

	"github.com/kgroups/kgroups/kafka"
)

// ExactTimeLag is p's time lag at now measured from the record at its
// committed offset, as read by kafka.Client.CommittedTimestamps: now minus
// the timestamp of the oldest message the group has not consumed. Unlike
// the History's estimate it needs no polling history. The History keeps
// such records too (History.AddExact) and uses them in place of its
// estimate, with the same rules.
//
// The rules match the estimate's: a caught-up partition (commit at or past
// the log end, or only transaction markers left) is 0; no commit, no known
// log end, or a record that was not read is unknown, never 0. A record
// stamped after now (a producer clock ahead of ours) counts as 0 seconds
// behind rather than a negative lag.
func ExactTimeLag(p *kafka.PartitionOffsets, recs map[kafka.CommitKey]kafka.RecordTime, now time.Time) TimeLag {
	if !p.HasCommit() || p.LogEnd < 0 {
		return TimeLag{}
	}
	if p.Committed >= p.LogEnd {
		return TimeLag{Kind: TimeLagCaughtUp}
	}
	r, ok := recs[kafka.CommitKey{Topic: p.Topic, Partition: p.Partition, Offset: p.Committed}]
	if !ok || r.Err != nil {
		return TimeLag{}
	}
	return exactAt(r, now.UnixNano())
}
