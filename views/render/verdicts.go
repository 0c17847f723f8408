package render

import (
	"fmt"
	"io"
	"time"

	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/format"
)

// VerdictChange is one row of a recording's verdict timeline: a group's
// verdict at the poll where its words changed (and at its first poll).
type VerdictChange struct {
	Time    time.Time
	Verdict lag.Verdict
	// Cause is the short cause of a WARN or ERR, "" for none.
	Cause string
}

// TimelineTimeLayout is how the verdict timeline writes a poll's time.
const TimelineTimeLayout = "2006-01-02T15:04:05Z07:00"

// VerdictTimelineColumns are the columns of `kgroups health --from FILE`
// over a whole recording: when, which group, and its verdict with the
// figures of the health table.
func VerdictTimelineColumns(atLeast string) []Column[*VerdictChange] {
	return []Column[*VerdictChange]{
		{Title: "TIME", Align: left, Value: func(c *VerdictChange) string { return c.Time.UTC().Format(TimelineTimeLayout) }},
		{Title: "GROUP", Align: left, Max: idMax, Value: func(c *VerdictChange) string { return groupCell(c.Verdict.Group) }},
		{Title: "STATUS", Align: left, Value: func(c *VerdictChange) string { return c.Verdict.Text() }},
		{Title: "TOTAL-LAG", Align: right, Value: func(c *VerdictChange) string { return format.Offset(HealthTotalLag(&c.Verdict)) }},
		{Title: "MAX-TIME-LAG", Align: right, Value: func(c *VerdictChange) string { return format.TimeLag(c.Verdict.MaxTimeLag, atLeast) }},
		{Title: "CAUSE", Align: left, Value: func(c *VerdictChange) string { return text(c.Cause) }},
	}
}

// VerdictTimeline writes the changes as a table, in the order given.
func VerdictTimeline(w io.Writer, cs []VerdictChange, atLeast string, lay Layout) error {
	rows := make([]*VerdictChange, len(cs))
	for i := range cs {
		rows[i] = &cs[i]
	}
	if _, err := io.WriteString(w, TableWith(VerdictTimelineColumns(atLeast), rows, lay)); err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	return nil
}

type jsonVerdictTimeline struct {
	Changes []jsonVerdictChange `json:"changes"`
}

type jsonVerdictChange struct {
	Time              time.Time       `json:"time"`
	Group             string          `json:"group"`
	GroupBase64       string          `json:"groupBase64,omitempty"`
	Verdict           *string         `json:"verdict"`
	Cause             string          `json:"cause,omitempty"`
	Status            lag.Status      `json:"status"`
	Severity          lag.Severity    `json:"severity"`
	TotalLag          *int64          `json:"totalLag"`
	MaxTimeLagSeconds *float64        `json:"maxTimeLagSeconds"`
	MaxTimeLagKind    lag.TimeLagKind `json:"maxTimeLagKind"`
}

// VerdictTimelineJSON writes the changes as {"changes":[...]}, with the
// fields of the health document's groups.
func VerdictTimelineJSON(w io.Writer, cs []VerdictChange) error {
	doc := jsonVerdictTimeline{Changes: make([]jsonVerdictChange, 0, len(cs))}
	for i := range cs {
		v := &cs[i].Verdict
		doc.Changes = append(doc.Changes, jsonVerdictChange{
			Time:              cs[i].Time.UTC(),
			Group:             v.Group,
			GroupBase64:       groupBase64(v.Group),
			Verdict:           verdictText(v),
			Cause:             cs[i].Cause,
			Status:            v.Status,
			Severity:          v.Severity,
			TotalLag:          offset(HealthTotalLag(v)),
			MaxTimeLagSeconds: timeLagSeconds(v.MaxTimeLag),
			MaxTimeLagKind:    v.MaxTimeLag.Kind,
		})
	}
	return EncodeJSON(w, doc)
}
