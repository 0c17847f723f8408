package render_test

import (
	"fmt"
	"io"
	"testing"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/render"
)

// floorGroups are the groups floorbench seeds, as a poll reads them: n
// Empty classic groups, each with a commit on every partition of one of
// topics topics of partitions partitions.
func floorGroups(n, topics int, partitions int32) []*kafka.Group {
	groups := make([]*kafka.Group, n)
	for i := range groups {
		g := &kafka.Group{Name: fmt.Sprintf("group-%05d", i), Type: kafka.TypeClassic, ProtocolType: "consumer",
			State: kafka.StateEmpty, Coordinator: kafka.Broker{ID: int32(i % 3), Host: "127.0.0.1", Port: 40000 + int32(i%3)},
			OffsetsPartition: int32(i % 50)}
		topic := fmt.Sprintf("topic-%02d", i%topics)
		for p := range partitions {
			c := int64((i + int(p)) % 11)
			g.Partitions = append(g.Partitions, kafka.PartitionOffsets{Topic: topic, Partition: p, Committed: c,
				LeaderEpoch: -1, LogStart: 0, LogEnd: 10, Lag: max(10-c, 0)})
		}
		groups[i] = g
	}
	return groups
}

// BenchmarkDescribeAll renders describe --all-groups for floorbench's
// cluster (2,000 groups, 24,000 partitions) as tables and as JSON.
func BenchmarkDescribeAll(b *testing.B) {
	groups := floorGroups(2000, 20, 12)
	b.Run("table", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := render.Describe(io.Discard, io.Discard, groups, render.DescribeOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := render.JSON(io.Discard, groups); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json-document", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := render.DocumentJSON(io.Discard, groups, render.JSONOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("list", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := render.List(io.Discard, groups, render.Layout{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
