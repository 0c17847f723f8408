package render

import (
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/format"
)

// StableTrails reports whether some partition of g has a last stable
// offset below its log end (an open transaction), when describe adds the
// stable offset columns.
func StableTrails(g *kafka.Group) bool {
	for i := range g.Partitions {
		if g.Partitions[i].StableTrails {
			return true
		}
	}
	return false
}

// StableColumns are LAST-STABLE-OFFSET and LSO-LAG, which describe appends
// after every other column when an open transaction holds some partition's
// last stable offset below its log end: LSO-LAG is a read_committed
// consumer's real backlog. Other partitions show "-".
func StableColumns() []Column[PartitionRow] {
	return []Column[PartitionRow]{
		{Title: "LAST-STABLE-OFFSET", Align: right, Value: func(r PartitionRow) string {
			if !r.Partition.StableTrails {
				return format.Missing
			}
			return format.Offset(r.Partition.LastStable)
		}},
		{Title: "LSO-LAG", Align: right, Value: func(r PartitionRow) string { return format.Offset(r.Partition.StableLag()) }},
	}
}
