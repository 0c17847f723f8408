package kafka

import (
	"slices"
	"strings"
)

// MergeAssignment is the one form of an assignment kgroups keeps: one entry
// per topic, topics sorted, each topic's partitions sorted with repeats
// dropped. A client may name a topic twice in one ConsumerMemberAssignment
// (librdkafka's cooperative-sticky writes `t5[0 1] t7[1 2] t5[4 2]` after a
// leave), and a KIP-848 answer may name one topic by name and by id; every
// reader of an assignment (describe, its JSON, the Members and Partitions
// tabs, simulate) sees the merged form. The result shares no memory with
// tps; entries with no partitions are kept (a topic assigned nothing).
func MergeAssignment(tps []TopicPartitions) []TopicPartitions {
	if len(tps) == 0 {
		return nil
	}
	out := make([]TopicPartitions, 0, len(tps))
	for _, tp := range tps {
		out = append(out, TopicPartitions{Topic: tp.Topic, Partitions: slices.Clone(tp.Partitions)})
	}
	slices.SortStableFunc(out, func(a, b TopicPartitions) int { return strings.Compare(a.Topic, b.Topic) })
	merged := out[:1]
	for _, tp := range out[1:] {
		last := &merged[len(merged)-1]
		if tp.Topic == last.Topic {
			last.Partitions = append(last.Partitions, tp.Partitions...)
			continue
		}
		merged = append(merged, tp)
	}
	for i := range merged {
		slices.Sort(merged[i].Partitions)
		merged[i].Partitions = slices.Compact(merged[i].Partitions)
	}
	return slices.Clip(merged)
}
