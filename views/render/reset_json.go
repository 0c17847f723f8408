package render

import (
	"io"

	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/kafka/write"
)

// The JSON document of a plan (and of its result, once applied) is a
// contract with scripts, spelled out field by field. Absent offsets are
// null, never -1.

type jsonPlan struct {
	Group       string        `json:"group"`
	GroupBase64 string        `json:"groupBase64,omitempty"`
	GroupType   string        `json:"groupType,omitempty"`
	GroupExists bool          `json:"groupExists"`
	State       *string       `json:"state"`
	Scenario    string        `json:"scenario"`
	Scope       string        `json:"scope"`
	Time        *string       `json:"time"`
	DryRun      bool          `json:"dryRun"`
	Partitions  []jsonPlanRow `json:"partitions"`
	Summary     jsonSummary   `json:"summary"`
	Warnings    []string      `json:"warnings"`
	Blocked     *string       `json:"blocked"`
	Result      *jsonResult   `json:"result"`
}

type jsonPlanRow struct {
	Topic          string  `json:"topic"`
	Partition      int32   `json:"partition"`
	CurrentOffset  *int64  `json:"currentOffset"`
	NewOffset      *int64  `json:"newOffset"`
	LogStartOffset *int64  `json:"logStartOffset"`
	LogEndOffset   *int64  `json:"logEndOffset"`
	Delta          *int64  `json:"delta"`
	Note           *string `json:"note"`
}

type jsonSummary struct {
	Partitions           int   `json:"partitions"`
	Changed              int   `json:"changed"`
	RecordsConsumedAgain int64 `json:"recordsConsumedAgain"`
	RecordsSkipped       int64 `json:"recordsSkipped"`
	WithoutCommit        int   `json:"partitionsWithoutCommit"`
}

type jsonResult struct {
	Receipt string `json:"receipt"`
	OK      bool   `json:"ok"`
	// Outcome is the worst partition's: verified, refused, unknown or
	// changedAfter.
	Outcome    string            `json:"outcome"`
	Partitions []jsonResultEntry `json:"partitions"`
}

type jsonResultEntry struct {
	Topic          string  `json:"topic"`
	Partition      int32   `json:"partition"`
	PreviousOffset *int64  `json:"previousOffset"`
	NewOffset      *int64  `json:"newOffset"`
	CommittedNow   *int64  `json:"committedNow"`
	OK             bool    `json:"ok"`
	Outcome        string  `json:"outcome"`
	Error          *string `json:"error"`
}

// PlanJSON writes a plan, whether it was a dry run, why it cannot be applied
// now (blocked, nil when it can) and, once applied, the result.
func PlanJSON(w io.Writer, p *reset.Plan, dryRun bool, blocked error, res *reset.Result) error {
	s := p.Summary()
	doc := jsonPlan{
		Group:       p.Group,
		GroupBase64: groupBase64(p.Group),
		GroupType:   jsonGroupType(p.Type),
		GroupExists: p.Exists,
		Scenario:    p.Scenario.String(),
		Scope:       p.Scope.String(),
		DryRun:      dryRun,
		Partitions:  make([]jsonPlanRow, 0, len(p.Rows)),
		Summary: jsonSummary{
			Partitions: s.Partitions, Changed: s.Changed,
			RecordsConsumedAgain: s.Rewind, RecordsSkipped: s.Skip, WithoutCommit: s.NoCommit,
		},
		Warnings: append(make([]string, 0, len(p.Warnings)), p.Warnings...),
	}
	if p.Exists {
		doc.State = &p.State
	}
	if !p.Time.IsZero() {
		t := reset.FormatTime(p.Time)
		doc.Time = &t
	}
	if blocked != nil {
		msg := blocked.Error()
		doc.Blocked = &msg
	}
	for _, r := range p.Rows {
		jr := jsonPlanRow{
			Topic: r.Topic, Partition: r.Partition,
			CurrentOffset: offset(r.Current), NewOffset: offset(r.New),
			LogStartOffset: offset(r.LogStart), LogEndOffset: offset(r.LogEnd),
		}
		if d, ok := r.Delta(); ok {
			jr.Delta = &d
		}
		if r.Note != "" {
			note := r.Note
			jr.Note = &note
		}
		doc.Partitions = append(doc.Partitions, jr)
	}
	if res != nil {
		jr := &jsonResult{Receipt: res.ReceiptPath, OK: res.OK(), Outcome: OutcomeName(res.Outcome()), Partitions: make([]jsonResultEntry, 0, len(res.Partitions))}
		for _, pr := range res.Partitions {
			e := jsonResultEntry{
				Topic: pr.Topic, Partition: pr.Partition,
				PreviousOffset: offset(pr.Before), NewOffset: offset(pr.Want), CommittedNow: offset(pr.Got),
				OK: pr.OK(), Outcome: OutcomeName(pr.Outcome()),
			}
			if pr.Status() != "ok" {
				msg := pr.Status()
				e.Error = &msg
			}
			jr.Partitions = append(jr.Partitions, e)
		}
		doc.Result = jr
	}
	return EncodeJSON(w, doc)
}

// OutcomeName is an outcome's name in JSON: verified, refused, unknown or
// changedAfter.
func OutcomeName(o write.Outcome) string {
	switch o {
	case write.Verified:
		return "verified"
	case write.Refused:
		return "refused"
	case write.ChangedAfter:
		return "changedAfter"
	}
	return "unknown"
}
