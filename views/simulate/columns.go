// Package simulate is the group screen's Simulate tab: what a membership
// change would do to a consumer group, per assignor (kafka/rebalance.Simulate),
// or for a KIP-848 group each member's current and target assignment. Its
// tables have the columns of `kgroups simulate`, defined once in
// views/output.
package simulate

import (
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/output"
)

type (
	// SummaryRow is one assignor's line of the summary table.
	SummaryRow = output.SummaryRow
	// MemberRow is one KIP-848 member with its current and target
	// assignment.
	MemberRow = output.TargetRow
)

// SummaryColumns are `kgroups simulate`'s summary columns.
func SummaryColumns() []columns.Column[SummaryRow] { return output.SummaryColumns() }

// SummaryRows is one row per assignor.
func SummaryRows(sim *rebalance.Simulation) []SummaryRow { return output.SummaryRows(sim) }

// MoveColumns list moved partitions.
func MoveColumns() []columns.Column[rebalance.Move] { return output.MoveColumns() }

// ConsumerColumns show a KIP-848 group's current and target assignments.
func ConsumerColumns() []columns.Column[MemberRow] { return output.TargetColumns() }

// ConsumerRows lists a KIP-848 group's members by member id.
func ConsumerRows(g *kafka.Group) []MemberRow { return output.TargetRows(g) }
