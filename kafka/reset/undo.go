package reset

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/kgroups/kgroups/kafka"
)

// PrepareUndo plans restoring the offsets a receipt recorded as "before". It
// is an ordinary plan (previewed, receipted and verified like any reset),
// clamped to the logs as they are now. Rows whose offset moved since the
// receipt say so, and a receipt written for other brokers is flagged, since
// undoing on the wrong cluster is its own accident.
func PrepareUndo(ctx context.Context, cl *kafka.Client, r *Receipt, now time.Time) (*Plan, error) {
	want := kafka.GroupType(r.GroupType)
	p, err := Prepare(ctx, cl, Request{Group: r.Group, Scenario: UndoScenario(r), Type: want, Now: now})
	if err != nil {
		return nil, err
	}
	if p.Exists && (p.Type == kafka.TypeShare) != (want == kafka.TypeShare) {
		return nil, fmt.Errorf("receipt %s records a %s group, but group %q is now a %s group: its offsets cannot be restored onto it; nothing was changed", r.Path, typeName(want), r.Group, typeName(p.Type))
	}
	after := make(map[TP]int64, len(r.Offsets))
	for _, o := range r.Offsets {
		a := kafka.NoOffset
		if o.After != nil {
			a = *o.After
		}
		after[TP{o.Topic, o.Partition}] = a
	}
	for i := range p.Rows {
		row := &p.Rows[i]
		if a := after[row.TP()]; a != row.Current {
			row.Note = joinNotes(row.Note, fmt.Sprintf("moved since the receipt (%s after it)", fmtOffset(a)))
		}
	}
	if !sameCluster(r.Cluster, cl.Brokers()) {
		p.Warnings = append(p.Warnings, fmt.Sprintf("the receipt was written for brokers %s, but this context connects to %s: make sure this is the same cluster",
			strings.Join(r.Cluster, ","), strings.Join(cl.Brokers(), ",")))
	}
	return p, nil
}

func joinNotes(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// sameCluster reports whether two bootstrap lists share a broker; lists may
// name different brokers of one cluster, so any overlap counts.
func sameCluster(a, b []string) bool {
	set := make(map[string]bool, len(a))
	for _, s := range a {
		set[strings.ToLower(s)] = true
	}
	for _, s := range b {
		if set[strings.ToLower(s)] {
			return true
		}
	}
	return false
}
