// Package simulate is the group screen's Simulate tab: what a membership
// change would do to a consumer group, per assignor (kafka/rebalance.Simulate),
// or for a KIP-848 group each member's current and target assignment. Its
// tables have the columns of `kgroups simulate`, defined once in
// views/render.
package simulate

import (
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/render"
)

type (
	// SummaryRow is one assignor's line of the summary table.
	SummaryRow = render.SummaryRow
	// MemberRow is one KIP-848 member with its current and target
	// assignment.
	MemberRow = render.TargetRow
)

// SummaryColumns are `kgroups simulate`'s summary columns.
func SummaryColumns() []columns.Column[SummaryRow] { return render.SummaryColumns() }

// SummaryRows is one row per assignor.
func SummaryRows(sim *rebalance.Simulation) []SummaryRow { return render.SummaryRows(sim) }

// MoveColumns list moved partitions.
func MoveColumns() []columns.Column[rebalance.Move] { return render.MoveColumns() }

// ConsumerColumns show a KIP-848 group's current and target assignments.
func ConsumerColumns() []columns.Column[MemberRow] { return render.TargetColumns() }

// ConsumerRows lists a KIP-848 group's members by member id.
func ConsumerRows(g *kafka.Group) []MemberRow { return render.TargetRows(g) }
