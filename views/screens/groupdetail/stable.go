package groupdetail

import (
	"slices"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/widgets/table"
)

// stableTrails reports whether an open transaction holds some partition's
// last stable offset below its log end: the Partitions tab then shows
// LSO-LAG, a read_committed consumer's real backlog.
func stableTrails(g *kafka.Group) bool {
	for i := range g.Partitions {
		if g.Partitions[i].StableTrails {
			return true
		}
	}
	return false
}

// withStableLag inserts LSO-LAG after LAG: the records up to the last
// stable offset where a transaction holds it, "-" elsewhere.
func withStableLag(cols []table.Col[partRow]) []table.Col[partRow] {
	i := slices.IndexFunc(cols, func(c table.Col[partRow]) bool { return c.Title == "LAG" })
	c := table.Col[partRow]{Column: col("LSO-LAG", columns.Right, func(r partRow) string { return columns.Offset(r.p.StableLag()) })}
	return slices.Insert(cols, i+1, c)
}
