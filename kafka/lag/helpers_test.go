package lag

import (
	"time"

	"github.com/kgroups/kgroups/kafka"
)

// t0 is the time of the first synthetic poll.
var t0 = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

// at returns the time sec seconds after t0.
func at(sec float64) time.Time { return t0.Add(time.Duration(sec * float64(time.Second))) }

// po builds a partition with a commit (or kafka.NoOffset), a log end and an
// owner, deriving Lag as the poller does.
func po(topic string, partition int32, committed, end int64) kafka.PartitionOffsets {
	return kafka.PartitionOffsets{
		Topic:     topic,
		Partition: partition,
		Committed: committed,
		LogStart:  0,
		LogEnd:    end,
		Lag:       lagOf(committed, end),
		MemberID:  "m-1",
	}
}

// unowned drops the partition's owner, as when no member holds it.
func unowned(p kafka.PartitionOffsets) kafka.PartitionOffsets {
	p.MemberID = ""
	return p
}

// snap builds a snapshot at time t holding the given groups.
func snap(t time.Time, groups ...kafka.Group) *kafka.Snapshot {
	return &kafka.Snapshot{Time: t, Groups: groups}
}

// grp builds a stable group.
func grp(name string, ps ...kafka.PartitionOffsets) kafka.Group {
	return kafka.Group{Name: name, State: kafka.StateStable, Partitions: ps}
}
