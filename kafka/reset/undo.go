package reset

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/receipt"
)

// UndoOptions are what PrepareUndo needs beyond the receipt.
type UndoOptions struct {
	// Now is the plan's clock; zero means time.Now().
	Now time.Time
	// Context is the name of the context connected to, compared with the
	// receipt's.
	Context string
	// NewGroup allows restoring a group that does not exist from a
	// receipt that is not signed by this user's kgroups, or that was
	// written for another cluster (which creates it). A signed receipt
	// of this cluster restores a deleted group without it.
	NewGroup bool
	// Force goes ahead, with a warning, on a receipt written for another
	// cluster or context.
	Force bool
}

// OtherClusterError refuses an undo on a cluster the receipt was not
// written for.
type OtherClusterError struct {
	Path string
	// Why says how the receipt's cluster and this one differ.
	Why string
}

func (e *OtherClusterError) Error() string {
	return fmt.Sprintf("receipt %s was written for another cluster: %s. Nothing was changed; connect to the cluster it was written for (-b or --context), or add --force if this is that cluster", e.Path, e.Why)
}

// UnsignedNewGroupError refuses to create a group from a receipt this
// user's kgroups did not sign.
type UnsignedNewGroupError struct {
	Path, Group string
	// OtherCluster is a receipt written for another cluster, applied
	// with --force: restoring it here would make a group this cluster
	// never had.
	OtherCluster bool
}

func (e *UnsignedNewGroupError) Error() string {
	if e.OtherCluster {
		return fmt.Sprintf("receipt %s names group %q, which does not exist on this cluster, and the receipt was written for another cluster: restoring it would create the group here. Nothing was changed; check the cluster, or pass --new-group to create it", e.Path, e.Group)
	}
	return fmt.Sprintf("receipt %s names group %q, which does not exist on this cluster, and the receipt is not signed by your kgroups: restoring it would create the group. Nothing was changed; check the name, or pass --new-group to create it", e.Path, e.Group)
}

// PrepareUndo plans restoring the offsets a receipt recorded as "before". It
// is an ordinary plan (previewed, receipted and verified like any reset),
// clamped to the logs as they are now. Rows whose offset moved since the
// receipt say so.
//
// Undoing on the wrong cluster is its own accident, so a receipt written
// for another one is refused unless opts.Force (then it is a warning): the
// receipt's cluster id differs from this cluster's; or, when there are no
// ids to compare, its context or its brokers differ from this
// connection's. A group that does not exist is restored (created) only
// from a receipt signed by this user's kgroups for this cluster, or with
// opts.NewGroup: --force on another cluster's receipt does not create one.
func PrepareUndo(ctx context.Context, cl *kafka.Client, r *Receipt, opts UndoOptions) (*Plan, error) {
	var mismatch []string
	id, err := cl.ClusterID(ctx)
	if err != nil {
		return nil, err
	}
	sameID := r.ClusterID != "" && id == r.ClusterID
	switch {
	case r.ClusterID != "" && id != r.ClusterID:
		mismatch = append(mismatch, fmt.Sprintf("its cluster id is %s, this cluster's is %s", quoteID(r.ClusterID), quoteID(id)))
	case sameID:
	default:
		if r.Context != "" && opts.Context != "" && r.Context != opts.Context {
			mismatch = append(mismatch, fmt.Sprintf("it records context %q, this is context %q", r.Context, opts.Context))
		}
		if !sameCluster(r.Cluster, cl.Brokers()) {
			mismatch = append(mismatch, fmt.Sprintf("it records brokers %s, this connection's are %s", strings.Join(r.Cluster, ","), strings.Join(cl.Brokers(), ",")))
		}
	}
	var warnings []string
	if len(mismatch) > 0 {
		oe := &OtherClusterError{Path: r.Path, Why: strings.Join(mismatch, "; ")}
		if !opts.Force {
			return nil, oe
		}
		warnings = append(warnings, fmt.Sprintf("receipt %s was written for another cluster (%s); going ahead because of --force", r.Path, oe.Why))
	}
	want := kafka.GroupType(r.GroupType)
	p, err := Prepare(ctx, cl, Request{Group: r.Group, Scenario: UndoScenario(r), Type: want, Now: opts.Now})
	if err != nil {
		return nil, err
	}
	if !p.Exists && !opts.NewGroup && r.Authenticity != receipt.Signed {
		return nil, &UnsignedNewGroupError{Path: r.Path, Group: r.Group}
	}
	if !p.Exists && !opts.NewGroup && len(mismatch) > 0 {
		return nil, &UnsignedNewGroupError{Path: r.Path, Group: r.Group, OtherCluster: true}
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
	p.Warnings = append(p.Warnings, warnings...)
	return p, nil
}

// quoteID shows a cluster id, or says there is none.
func quoteID(id string) string {
	if id == "" {
		return "none (a broker before Kafka 0.10.1)"
	}
	return strconv.Quote(id)
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
