package rebalance

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/kgroups/kgroups/kafka"
)

// Subscriptions returns the distinct topics a group's members subscribe
// to, sorted.
func Subscriptions(g *kafka.Group) []string {
	var ts []string
	for i := range g.Members {
		ts = append(ts, g.Members[i].Subscribed...)
	}
	return uniqueSorted(ts)
}

// PartitionCountsFromGroup derives each topic's partition count from what
// a snapshot of the group shows: the highest partition any member owns or
// the group has committed, plus one. It needs no request, which suits the
// TUI, but it undercounts a topic whose last partitions nobody owns or
// committed; PartitionCounts asks the cluster instead.
func PartitionCountsFromGroup(g *kafka.Group) map[string]int32 {
	counts := make(map[string]int32)
	see := func(topic string, p int32) {
		if p+1 > counts[topic] {
			counts[topic] = p + 1
		}
	}
	for i := range g.Partitions {
		see(g.Partitions[i].Topic, g.Partitions[i].Partition)
	}
	for i := range g.Members {
		for _, a := range g.Members[i].Assignment {
			for _, p := range a.Partitions {
				see(a.Topic, p)
			}
		}
	}
	return counts
}

// PartitionCounts asks the cluster for the partition count of each topic.
// A topic that does not exist or cannot be described is an error naming it.
func PartitionCounts(ctx context.Context, cl *kafka.Client, topics []string) (map[string]int32, error) {
	if len(topics) == 0 {
		return map[string]int32{}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, cl.Timeout())
	defer cancel()
	details, err := cl.Admin().ListTopics(ctx, topics...)
	if err != nil {
		return nil, fmt.Errorf("describe topics %s: %w", strings.Join(topics, ", "), err)
	}
	counts := make(map[string]int32, len(topics))
	var bad []string
	for _, t := range topics {
		d, ok := details[t]
		switch {
		case !ok:
			bad = append(bad, t+": not in the metadata")
		case d.Err != nil:
			bad = append(bad, t+": "+d.Err.Error())
		default:
			counts[t] = int32(len(d.Partitions))
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		return nil, fmt.Errorf("describe topics: %s", strings.Join(bad, "; "))
	}
	return counts, nil
}
