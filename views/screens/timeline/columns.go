package timeline

import (
	"strconv"
	"strings"

	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/format"
)

// Columns are the timeline's columns: when, what kind of event, and what
// happened.
func Columns() []columns.Column[rebalance.Event] {
	return []columns.Column[rebalance.Event]{
		{Title: "TIME", Align: columns.Left, Value: func(e rebalance.Event) string { return e.Time.Format("15:04:05") }},
		{Title: "EVENT", Align: columns.Left, Value: func(e rebalance.Event) string { return string(e.Kind) }},
		{Title: "DETAIL", Align: columns.Left, Value: Detail},
	}
}

// Detail says what an event records, in words.
func Detail(e rebalance.Event) string {
	switch e.Kind {
	case rebalance.EventState:
		return columns.Text(e.From) + " -> " + columns.Text(e.To)
	case rebalance.EventJoined, rebalance.EventLeft:
		var b strings.Builder
		b.WriteString(e.MemberID)
		b.WriteString(" client ")
		b.WriteString(columns.Text(e.ClientID))
		if e.InstanceID != "" {
			b.WriteString(" instance ")
			b.WriteString(e.InstanceID)
		}
		if e.Host != "" {
			b.WriteString(" host ")
			b.WriteString(e.Host)
		}
		return b.String()
	case rebalance.EventAssignment:
		parts := []string{format.Moved(e.Moved, e.Rejoined)}
		if e.Assigned > 0 {
			parts = append(parts, strconv.Itoa(e.Assigned)+" newly assigned")
		}
		if e.Unassigned > 0 {
			parts = append(parts, strconv.Itoa(e.Unassigned)+" no longer assigned")
		}
		return strings.Join(parts, ", ") + " (" + strconv.Itoa(e.Total) + " assigned)"
	case rebalance.EventEpoch:
		return epoch("group epoch", e.PrevGroupEpoch, e.GroupEpoch) + ", " + epoch("assignment epoch", e.PrevAssignmentEpoch, e.AssignmentEpoch)
	case rebalance.EventRebalance:
		switch {
		case e.Between:
			return "finished between two polls (shorter than the refresh interval)"
		case e.AtLeast:
			return "took at least " + format.Lasted(e.Duration) + " (already rebalancing when first seen)"
		}
		return "took " + format.Lasted(e.Duration)
	}
	return ""
}

func epoch(name string, from, to int32) string {
	if from == to {
		return name + " " + strconv.Itoa(int(to))
	}
	return name + " " + strconv.Itoa(int(from)) + " -> " + strconv.Itoa(int(to))
}
