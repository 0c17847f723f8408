package render

import (
	"fmt"
	"io"
	"time"

	"github.com/kgroups/kgroups/kafka/lag"
)

// Health writes `kgroups health`'s verdicts (lag.Judge's, with their
// partitions): one summary row per group, then, after a blank line, one row
// per partition that is not OK, so that an unhealthy group shows where and
// why without the healthy partitions drowning it. With every partition OK
// there is no second table. atLeast marks a time lag that is only a lower
// bound (format.AtLeast for the locale); lay says how long names are cut.
func Health(w io.Writer, gs []lag.Verdict, atLeast string, lay Layout) error {
	return HealthWith(w, gs, nil, atLeast, lay)
}

// HealthWith is Health with the short cause of each group's WARN or ERR
// (causes[i] is gs[i]'s, "" for none; diagnose.GlanceAt): when some group
// has one, the summary ends with a CAUSE column ("open txn", "lost to
// retention", "member not committing", "slower than producers"), so the
// most important answer needs no second command.
func HealthWith(w io.Writer, gs []lag.Verdict, causes []string, atLeast string, lay Layout) error {
	rows := make([]*lag.Verdict, len(gs))
	cause := make(map[*lag.Verdict]string)
	for i := range gs {
		rows[i] = &gs[i]
		if i < len(causes) && causes[i] != "" {
			cause[rows[i]] = causes[i]
		}
	}
	cols := HealthColumns(atLeast)
	if len(cause) > 0 {
		cols = append(cols, Column[*lag.Verdict]{Title: "CAUSE", Align: left, Value: func(v *lag.Verdict) string { return text(cause[v]) }})
	}
	out := TableWith(cols, rows, lay)
	if bad := UnhealthyPartitionRows(gs); len(bad) > 0 {
		out += "\n" + TableWith(HealthPartitionColumns(atLeast), bad, lay)
	}
	if _, err := io.WriteString(w, out); err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	return nil
}

// The health document, like the describe one, is spelled out field by
// field: scripts and alerting depend on it. Unknown values are null.

type jsonHealthDocument struct {
	Groups []jsonHealthGroup `json:"groups"`
}

type jsonHealthGroup struct {
	Group       string `json:"group"`
	GroupBase64 string `json:"groupBase64,omitempty"`
	// Verdict is the UI's text for the verdict ("OK", "WARN", "WARN
	// NO-COMMITS", "ERR STALL", "JUDGING 3/10"), null while unknown.
	Verdict *string `json:"verdict"`
	// Cause is the short cause of a WARN or ERR when the polls know one
	// (diagnose.GlanceAt), left out when none.
	Cause    string       `json:"cause,omitempty"`
	Status   lag.Status   `json:"status"`
	Severity lag.Severity `json:"severity"`
	// Complete is false while a lagging partition has too few commit
	// observations for STALL and WARN to be detected.
	Complete bool `json:"complete"`
	// Judging is how much of the window a verdict still judging has seen,
	// null once decided (or unknown).
	Judging           *jsonJudging    `json:"judging"`
	TotalLag          *int64          `json:"totalLag"`
	MaxTimeLagSeconds *float64        `json:"maxTimeLagSeconds"`
	MaxTimeLagKind    lag.TimeLagKind `json:"maxTimeLagKind"`
	ProduceRate       *float64        `json:"produceRate"`
	ConsumeRate       *float64        `json:"consumeRate"`
	// CatchUp is the group's race with its producers, as the group
	// screen's header words it; null while unknown.
	CatchUp    *jsonCatchUp          `json:"catchUp"`
	Partitions []jsonHealthPartition `json:"partitions"`
}

// jsonCatchUp is lag.CatchUp: a state ("caught-up", "keeping-up",
// "catching-up", "falling-behind"), the seconds to catch up (catching-up
// only; at most lag.MaxCatchUpSeconds, with capped true when the estimate
// was longer, never an absurd figure) and how many messages a second the
// lag grows by (falling-behind only).
type jsonCatchUp struct {
	State      lag.CatchUpState `json:"state"`
	Seconds    *float64         `json:"seconds"`
	Capped     bool             `json:"capped"`
	BehindRate *float64         `json:"behindRate"`
}

// catchUpJSON is c for the health document, nil while unknown.
func catchUpJSON(c lag.CatchUp) *jsonCatchUp {
	j := &jsonCatchUp{State: c.State}
	switch c.State {
	case lag.CatchUpUnknown:
		return nil
	case lag.CatchingUp:
		j.Seconds = ptr(round3(min(c.Seconds, lag.MaxCatchUpSeconds)))
		j.Capped = c.Capped || c.Seconds > lag.MaxCatchUpSeconds
	case lag.FallingBehind:
		j.BehindRate = ptr(round3(max(c.Behind, 0)))
	}
	return j
}

type jsonHealthPartition struct {
	Topic           string          `json:"topic"`
	Partition       int32           `json:"partition"`
	Status          lag.Status      `json:"status"`
	CommittedOffset *int64          `json:"committedOffset"`
	LogEndOffset    *int64          `json:"logEndOffset"`
	Lag             *int64          `json:"lag"`
	TimeLagSeconds  *float64        `json:"timeLagSeconds"`
	TimeLagKind     lag.TimeLagKind `json:"timeLagKind"`
	ProduceRate     *float64        `json:"produceRate"`
	ConsumeRate     *float64        `json:"consumeRate"`
	// Rewind holds the offsets of a REWIND: high was committed, then the
	// older low.
	Rewind *jsonRewind `json:"rewind"`
}

type jsonJudging struct {
	Observations int `json:"observations"`
	Window       int `json:"window"`
	// Reason says why the verdict waits (lag.Verdict.Reason).
	Reason string `json:"reason,omitempty"`
}

type jsonRewind struct {
	High int64 `json:"high"`
	Low  int64 `json:"low"`
	// ResetBy is the reset kgroups made that did it, null when none.
	ResetBy *jsonResetBy `json:"resetBy"`
}

type jsonResetBy struct {
	Time    time.Time `json:"time"`
	Receipt string    `json:"receipt"`
}

// HealthJSON writes the verdicts as `{"groups":[...]}`, every partition of
// every group included (OK ones too, so a script sees the whole group).
func HealthJSON(w io.Writer, gs []lag.Verdict) error { return HealthJSONWith(w, gs, nil) }

// HealthJSONWith is HealthJSON with each group's short cause (causes[i]
// is gs[i]'s) as "cause", left out where there is none.
func HealthJSONWith(w io.Writer, gs []lag.Verdict, causes []string) error {
	doc := jsonHealthDocument{Groups: make([]jsonHealthGroup, 0, len(gs))}
	for i := range gs {
		g := &gs[i]
		j := jsonHealthGroup{
			Group:             g.Group,
			GroupBase64:       groupBase64(g.Group),
			Verdict:           verdictText(g),
			Cause:             at(causes, i),
			Status:            g.Status,
			Severity:          g.Severity,
			Complete:          g.Complete,
			Judging:           judging(g),
			TotalLag:          offset(HealthTotalLag(g)),
			MaxTimeLagSeconds: timeLagSeconds(g.MaxTimeLag),
			MaxTimeLagKind:    g.MaxTimeLag.Kind,
			ProduceRate:       rate(g.ProduceRate),
			ConsumeRate:       rate(g.ConsumeRate),
			CatchUp:           catchUpJSON(g.CatchUp),
			Partitions:        make([]jsonHealthPartition, 0, len(g.Partitions)),
		}
		for k := range g.Partitions {
			p := &g.Partitions[k]
			jp := jsonHealthPartition{
				Topic:           p.Topic,
				Partition:       p.Partition,
				Status:          p.Status,
				CommittedOffset: offset(p.Committed),
				LogEndOffset:    offset(p.LogEnd),
				Lag:             offset(p.Lag),
				TimeLagSeconds:  timeLagSeconds(p.TimeLag),
				TimeLagKind:     p.TimeLag.Kind,
				ProduceRate:     rate(p.ProduceRate),
				ConsumeRate:     rate(p.ConsumeRate),
			}
			if p.Status == lag.StatusRewind {
				jp.Rewind = &jsonRewind{High: p.Rewind.High, Low: p.Rewind.Low}
				if r := p.ResetBy; r != nil {
					jp.Rewind.ResetBy = &jsonResetBy{Time: r.Time, Receipt: r.Receipt}
				}
			}
			j.Partitions = append(j.Partitions, jp)
		}
		doc.Groups = append(doc.Groups, j)
	}
	return EncodeJSON(w, doc)
}

func at(ss []string, i int) string {
	if i < len(ss) {
		return ss[i]
	}
	return ""
}

// judging is the verdict's progress while it is judging, else null.
func judging(v *lag.Verdict) *jsonJudging {
	if !v.Judging() {
		return nil
	}
	return &jsonJudging{Observations: v.Observations, Window: v.Window, Reason: v.Reason()}
}

// verdictText is the verdict's text, null for lag.NoVerdict.
func verdictText(v *lag.Verdict) *string {
	t := v.Text()
	if t == lag.NoVerdict {
		return nil
	}
	return &t
}

// rate maps lag.UnknownRate to null and keeps three decimals.
func rate(r float64) *float64 {
	if r < 0 {
		return nil
	}
	return ptr(round3(r))
}
