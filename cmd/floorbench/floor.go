package main

import (
	"context"
	"fmt"
	"sort"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// floorCounts is what the floor read, counted, so that the harness can check
// that the floor and kgroups saw the same cluster.
type floorCounts struct {
	groups     int // groups listed
	described  int // groups described
	committed  int // (group, partition) pairs with a commit
	partitions int // partitions whose log bounds were listed
	// requestsBy counts the requests sent, by API key name.
	requests int
}

// floorReads makes the reads kgroups needs for describe --all-groups and
// list, with bare kadm calls, and discards the answers: ListGroups,
// DescribeGroups, FetchManyOffsets, ListStartOffsets, ListEndOffsets, and
// ListCommittedOffsets (the last stable offsets, which kgroups prints where
// an open transaction holds them below the log end). kadm batches each of
// them per coordinator or leader, as kgroups does. Groups of the
// KIP-848, share or streams protocols would need their own describes; the
// cluster has none.
func floorReads(ctx context.Context, adm *kadm.Client) (floorCounts, error) {
	var n floorCounts
	listed, err := adm.ListGroups(ctx)
	if err != nil {
		return n, fmt.Errorf("list groups: %w", err)
	}
	names := listed.Groups()
	n.groups = len(names)
	described, err := adm.DescribeGroups(ctx, names...)
	if err != nil {
		return n, fmt.Errorf("describe groups: %w", err)
	}
	n.described = len(described)
	fetched := adm.FetchManyOffsets(ctx, names...)
	if err := fetched.Error(); err != nil {
		return n, fmt.Errorf("fetch offsets: %w", err)
	}
	topicSet := make(map[string]struct{})
	for _, fr := range fetched {
		for t, ps := range fr.Fetched {
			topicSet[t] = struct{}{}
			n.committed += len(ps)
		}
	}
	topics := make([]string, 0, len(topicSet))
	for t := range topicSet {
		topics = append(topics, t)
	}
	sort.Strings(topics)
	starts, err := adm.ListStartOffsets(ctx, topics...)
	if err == nil {
		err = starts.Error()
	}
	if err != nil {
		return n, fmt.Errorf("list start offsets: %w", err)
	}
	ends, err := adm.ListEndOffsets(ctx, topics...)
	if err == nil {
		err = ends.Error()
	}
	if err != nil {
		return n, fmt.Errorf("list end offsets: %w", err)
	}
	stables, err := adm.ListCommittedOffsets(ctx, topics...)
	if err == nil {
		err = stables.Error()
	}
	if err != nil {
		return n, fmt.Errorf("list stable offsets: %w", err)
	}
	ends.Each(func(kadm.ListedOffset) { n.partitions++ })
	return n, nil
}

// runFloor is the floor process: connect, read, print the counts, exit.
func runFloor(ctx context.Context, brokers []string) error {
	n, err := floorOn(ctx, brokers)
	if err != nil {
		return err
	}
	fmt.Printf("groups=%d described=%d committed=%d partitions=%d requests=%d\n", n.groups, n.described, n.committed, n.partitions, n.requests)
	return nil
}

// floorOn connects a bare client to brokers (with opts) and makes the
// floor's reads.
func floorOn(ctx context.Context, brokers []string, opts ...kgo.Opt) (floorCounts, error) {
	var counter requestCounter
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(brokers...), kgo.WithHooks(&counter)}, opts...)...)
	if err != nil {
		return floorCounts{}, err
	}
	defer cl.Close()
	n, err := floorReads(ctx, kadm.NewClient(cl))
	n.requests = int(counter.n.Load())
	return n, err
}
