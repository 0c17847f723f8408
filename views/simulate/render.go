// Package simulate shows what a membership change would do to a consumer
// group: per assignor, which partitions move from whom to whom, and the
// resulting assignment (kafka/rebalance.Simulate). For KIP-848 groups, whose
// assignment the broker computes, it shows each member's current and target
// assignment instead. The plain table and JSON renderers here are what
// `kgroups simulate` prints; the Model is the group screen's Simulate tab.
package simulate

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/output"
)

// SummaryRow is one assignor's line of the summary table.
type SummaryRow struct {
	Prediction *rebalance.Prediction
	Members    int
}

// SummaryColumns compare the assignors at a glance: how many partitions
// each would move and how many join rounds the group would go through.
func SummaryColumns() []columns.Column[SummaryRow] {
	return []columns.Column[SummaryRow]{
		{Title: "ASSIGNOR", Align: columns.Left, Value: func(r SummaryRow) string { return r.Prediction.Assignor }},
		{Title: "MOVED", Align: columns.Right, Value: func(r SummaryRow) string {
			if r.Prediction.Err != nil {
				return columns.Missing
			}
			return strconv.Itoa(len(r.Prediction.Moves))
		}},
		{Title: "ROUNDS", Align: columns.Right, Value: func(r SummaryRow) string {
			if r.Prediction.Err != nil {
				return columns.Missing
			}
			return strconv.Itoa(r.Prediction.Rounds)
		}},
		{Title: "MEMBERS", Align: columns.Right, Value: func(r SummaryRow) string { return strconv.Itoa(r.Members) }},
		{Title: "ERROR", Align: columns.Left, Value: func(r SummaryRow) string {
			if r.Prediction.Err != nil {
				return r.Prediction.Err.Error()
			}
			return ""
		}},
	}
}

// MoveColumns list moved partitions. FROM or TO is "-" when nobody owned
// the partition before or owns it after.
func MoveColumns() []columns.Column[rebalance.Move] {
	return []columns.Column[rebalance.Move]{
		{Title: "TOPIC", Align: columns.Left, Value: func(m rebalance.Move) string { return m.Topic }},
		{Title: "PARTITION", Align: columns.Right, Value: func(m rebalance.Move) string { return strconv.Itoa(int(m.Partition)) }},
		{Title: "FROM", Align: columns.Left, Value: func(m rebalance.Move) string { return columns.Text(m.From) }},
		{Title: "TO", Align: columns.Left, Value: func(m rebalance.Move) string { return columns.Text(m.To) }},
	}
}

// AssignmentRow is one member's predicted assignment.
type AssignmentRow struct {
	MemberID string
	// ClientID is the member's client id; empty for a simulated joiner.
	ClientID   string
	New        bool
	Assignment []kafka.TopicPartitions
}

// AssignmentColumns show a predicted assignment per member.
func AssignmentColumns() []columns.Column[AssignmentRow] {
	return []columns.Column[AssignmentRow]{
		{Title: "MEMBER", Align: columns.Left, Value: func(r AssignmentRow) string { return r.MemberID }},
		{Title: "CLIENT-ID", Align: columns.Left, Value: func(r AssignmentRow) string {
			if r.New {
				return "(new)"
			}
			return columns.Text(r.ClientID)
		}},
		{Title: "#PARTITIONS", Align: columns.Right, Value: func(r AssignmentRow) string { return strconv.Itoa(count(r.Assignment)) }},
		{Title: "ASSIGNMENT", Align: columns.Left, Value: func(r AssignmentRow) string { return columns.Assignment(r.Assignment) }},
	}
}

// AssignmentRows lists a prediction's members in the order the assignors
// saw them.
func AssignmentRows(g *kafka.Group, sim *rebalance.Simulation, p *rebalance.Prediction) []AssignmentRow {
	rows := make([]AssignmentRow, 0, len(sim.Members))
	for _, id := range sim.Members {
		r := AssignmentRow{MemberID: id, Assignment: p.Assignment[id], New: slices.Contains(sim.Joiners, id)}
		if m, ok := g.Member(id); ok {
			r.ClientID = m.ClientID
		}
		rows = append(rows, r)
	}
	return rows
}

// SummaryRows is one row per assignor, in Assignors order.
func SummaryRows(sim *rebalance.Simulation) []SummaryRow {
	rows := make([]SummaryRow, len(sim.Predictions))
	for i := range sim.Predictions {
		rows[i] = SummaryRow{Prediction: &sim.Predictions[i], Members: len(sim.Members)}
	}
	return rows
}

// Header is the one-line description of the group and the change.
func Header(g *kafka.Group, change string) string {
	assignor := g.Assignor
	if assignor == "" {
		assignor = columns.Missing
	}
	return fmt.Sprintf("Group %s (%s, %s, assignor %s, %d members): %s", g.Name, g.Type, g.State, assignor, len(g.Members), change)
}

// WriteTable prints a simulation: a summary per assignor, then each
// assignor's moves and resulting assignment.
func WriteTable(w io.Writer, g *kafka.Group, sim *rebalance.Simulation) error {
	var b strings.Builder
	b.WriteString(Header(g, sim.Change.String()))
	b.WriteString("\n\n")
	b.WriteString(output.Table(summaryColumns(sim), SummaryRows(sim)))
	for i := range sim.Predictions {
		p := &sim.Predictions[i]
		if p.Err != nil {
			continue
		}
		b.WriteByte('\n')
		switch n := len(p.Moves); n {
		case 0:
			fmt.Fprintf(&b, "%s: no partition moves\n", p.Assignor)
		default:
			fmt.Fprintf(&b, "%s: %d %s\n", p.Assignor, n, plural(n, "partition moves", "partitions move"))
			b.WriteString(output.Table(MoveColumns(), p.Moves))
		}
		b.WriteString(output.Table(AssignmentColumns(), AssignmentRows(g, sim, p)))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// summaryColumns drops ERROR when no assignor failed, so that the usual
// table has no empty column.
func summaryColumns(sim *rebalance.Simulation) []columns.Column[SummaryRow] {
	cols := SummaryColumns()
	for _, p := range sim.Predictions {
		if p.Err != nil {
			return cols
		}
	}
	return cols[:len(cols)-1]
}

// MemberRow is one KIP-848 member with its current and target assignment.
type MemberRow struct {
	Member *kafka.Member
}

// ConsumerColumns show a KIP-848 group's members: the broker has already
// decided the target; CURRENT is what the member has reconciled so far.
func ConsumerColumns() []columns.Column[MemberRow] {
	return []columns.Column[MemberRow]{
		{Title: "MEMBER", Align: columns.Left, Value: func(r MemberRow) string { return r.Member.MemberID }},
		{Title: "CLIENT-ID", Align: columns.Left, Value: func(r MemberRow) string { return columns.Text(r.Member.ClientID) }},
		{Title: "EPOCH", Align: columns.Right, Value: func(r MemberRow) string { return strconv.Itoa(int(r.Member.MemberEpoch)) }},
		{Title: "CURRENT", Align: columns.Left, Value: func(r MemberRow) string { return columns.Assignment(r.Member.Assignment) }},
		{Title: "TARGET", Align: columns.Left, Value: func(r MemberRow) string { return columns.Assignment(r.Member.Target) }},
	}
}

// ConsumerRows lists a KIP-848 group's members by member id.
func ConsumerRows(g *kafka.Group) []MemberRow {
	rows := make([]MemberRow, len(g.Members))
	for i := range g.Members {
		rows[i] = MemberRow{Member: &g.Members[i]}
	}
	return rows
}

// ConsumerNote explains why a KIP-848 group shows targets, not predictions.
const ConsumerNote = "The broker assigns partitions for consumer-protocol (KIP-848) groups, so client assignors cannot be simulated. Each member's target assignment is what the broker has decided; CURRENT is what the member has reconciled."

// WriteConsumerTable prints a KIP-848 group's current and target
// assignments, and the partitions still to move.
func WriteConsumerTable(w io.Writer, g *kafka.Group, change string) error {
	var b strings.Builder
	b.WriteString(Header(g, change))
	fmt.Fprintf(&b, "\n%s\nGroup epoch %d, assignment epoch %d, server assignor %s.\n\n", ConsumerNote, g.GroupEpoch, g.AssignmentEpoch, columns.Text(g.Assignor))
	b.WriteString(output.Table(ConsumerColumns(), ConsumerRows(g)))
	pending := rebalance.Reconciliation(g)
	if len(pending) == 0 {
		b.WriteString("\nEvery member holds its target assignment.\n")
	} else {
		fmt.Fprintf(&b, "\n%d %s still to move:\n", len(pending), plural(len(pending), "partition", "partitions"))
		b.WriteString(output.Table(MoveColumns(), pending))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// The JSON documents are a contract with scripts, spelled out field by
// field. from/to are null when nobody owned or owns the partition.

type jsonSimulation struct {
	Group     string         `json:"group"`
	Change    string         `json:"change"`
	Type      string         `json:"type"`
	Assignors []jsonAssignor `json:"assignors"`
	// Members is set for KIP-848 groups only.
	Members []jsonMember `json:"members,omitempty"`
	Pending []jsonMove   `json:"pendingMoves,omitempty"`
}

type jsonAssignor struct {
	Assignor   string                      `json:"assignor"`
	Moved      int                         `json:"moved"`
	Rounds     int                         `json:"rounds"`
	Moves      []jsonMove                  `json:"moves"`
	Assignment map[string][]jsonAssignment `json:"assignment"`
	Error      *string                     `json:"error"`
}

type jsonMove struct {
	Topic     string  `json:"topic"`
	Partition int32   `json:"partition"`
	From      *string `json:"from"`
	To        *string `json:"to"`
}

type jsonAssignment struct {
	Topic      string  `json:"topic"`
	Partitions []int32 `json:"partitions"`
}

type jsonMember struct {
	MemberID    string           `json:"memberId"`
	ClientID    string           `json:"clientId"`
	MemberEpoch int32            `json:"memberEpoch"`
	Current     []jsonAssignment `json:"current"`
	Target      []jsonAssignment `json:"target"`
}

// WriteJSON prints a simulation as
// {"group","change","type","assignors":[{"assignor","moved","rounds","moves":[{"topic","partition","from","to"}],"assignment":{member:[{"topic","partitions"}]},"error"}]}.
func WriteJSON(w io.Writer, g *kafka.Group, sim *rebalance.Simulation) error {
	doc := jsonSimulation{Group: sim.Group, Change: sim.Change.String(), Type: string(g.Type), Assignors: make([]jsonAssignor, 0, len(sim.Predictions))}
	for _, p := range sim.Predictions {
		j := jsonAssignor{Assignor: p.Assignor, Moved: len(p.Moves), Rounds: p.Rounds, Moves: toJSONMoves(p.Moves), Assignment: map[string][]jsonAssignment{}}
		for id, tps := range p.Assignment {
			j.Assignment[id] = toJSONAssignment(tps)
		}
		if p.Err != nil {
			s := p.Err.Error()
			j.Error = &s
		}
		doc.Assignors = append(doc.Assignors, j)
	}
	return encode(w, doc)
}

// WriteConsumerJSON prints a KIP-848 group in the same document shape, with
// no assignors and each member's current and target assignment.
func WriteConsumerJSON(w io.Writer, g *kafka.Group, change string) error {
	doc := jsonSimulation{Group: g.Name, Change: change, Type: string(g.Type), Assignors: []jsonAssignor{}, Members: []jsonMember{}}
	for _, m := range g.Members {
		doc.Members = append(doc.Members, jsonMember{MemberID: m.MemberID, ClientID: m.ClientID, MemberEpoch: m.MemberEpoch,
			Current: toJSONAssignment(m.Assignment), Target: toJSONAssignment(m.Target)})
	}
	doc.Pending = toJSONMoves(rebalance.Reconciliation(g))
	return encode(w, doc)
}

func encode(w io.Writer, doc any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}

func toJSONMoves(moves []rebalance.Move) []jsonMove {
	out := make([]jsonMove, 0, len(moves))
	for _, m := range moves {
		out = append(out, jsonMove{Topic: m.Topic, Partition: m.Partition, From: nonEmpty(m.From), To: nonEmpty(m.To)})
	}
	return out
}

func toJSONAssignment(tps []kafka.TopicPartitions) []jsonAssignment {
	out := make([]jsonAssignment, 0, len(tps))
	for _, tp := range tps {
		out = append(out, jsonAssignment{Topic: tp.Topic, Partitions: append(make([]int32, 0, len(tp.Partitions)), tp.Partitions...)})
	}
	return out
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func count(tps []kafka.TopicPartitions) int {
	n := 0
	for _, tp := range tps {
		n += len(tp.Partitions)
	}
	return n
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
