package render

import (
	"github.com/kgroups/kgroups/kafka"
)

// A share group (KIP-932) has no committed offsets: its plan and result
// show the share-partition start offset, the first record not yet
// acknowledged, under titles that say so. The values and their order are
// those of a consumer group's table.

// shareTitles maps a consumer group's column titles to a share group's.
var shareTitles = map[string]string{
	"CURRENT-OFFSET":  "START-OFFSET",
	"PREVIOUS-OFFSET": "PREVIOUS-START",
	"COMMITTED-NOW":   "START-NOW",
}

func retitle[R any](cs []Column[R], t kafka.GroupType) []Column[R] {
	if t != kafka.TypeShare {
		return cs
	}
	for i := range cs {
		if s, ok := shareTitles[cs[i].Title]; ok {
			cs[i].Title = s
		}
	}
	return cs
}

// PlanColumnsFor are PlanColumns titled for a group of type t.
func PlanColumnsFor(t kafka.GroupType) []Column[PlanRow] { return retitle(PlanColumns(), t) }

// ResultColumnsFor are ResultColumns titled for a group of type t.
func ResultColumnsFor(t kafka.GroupType) []Column[ResultRow] { return retitle(ResultColumns(), t) }

// jsonGroupType is the plan document's groupType: "share" for a share
// group, whose currentOffset, newOffset and committedNow are start
// offsets; absent for a consumer group.
func jsonGroupType(t kafka.GroupType) string {
	if t == kafka.TypeShare {
		return string(kafka.TypeShare)
	}
	return ""
}
