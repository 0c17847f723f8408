package render

// What `kgroups simulate` prints: per assignor, which partitions a
// membership change would move from whom to whom, and the resulting
// assignment (kafka/rebalance.Simulate); for a KIP-848 group, whose
// assignment the broker computes, each member's current and target
// assignment. The simulate tab of the UI shows the same columns.

import (
	"fmt"
	"io"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/format"
)

// SummaryRow is one assignor's line of the summary table.
type SummaryRow struct {
	Prediction *rebalance.Prediction
	Members    int
}

// SummaryColumns compare the assignors at a glance: how many partitions
// each would move to another process (a partition handed between two
// members of one process does not count: rebalance.Reassign) and how many
// join rounds the group would go through.
func SummaryColumns() []Column[SummaryRow] {
	return []Column[SummaryRow]{
		{Title: "ASSIGNOR", Align: left, Max: idMax, Value: func(r SummaryRow) string { return r.Prediction.Assignor }},
		{Title: "CONFIDENCE", Align: left, Value: func(r SummaryRow) string { return text(string(r.Prediction.Confidence)) }},
		{Title: "MOVED", Align: right, Value: func(r SummaryRow) string {
			if r.Prediction.Err != nil {
				return format.Missing
			}
			return span(len(r.Prediction.ByProcess.Moves), worstOf(r.Prediction, func(o rebalance.PlaceOutcome) int { return len(o.ByProcess.Moves) }))
		}},
		{Title: "ROUNDS", Align: right, Value: func(r SummaryRow) string {
			if r.Prediction.Err != nil {
				return format.Missing
			}
			return span(r.Prediction.Rounds, worstOf(r.Prediction, func(o rebalance.PlaceOutcome) int { return o.Rounds }))
		}},
		{Title: "MEMBERS", Align: right, Value: func(r SummaryRow) string { return strconv.Itoa(r.Members) }},
		{Title: "NOTE", Align: left, Value: func(r SummaryRow) string { return r.Prediction.Note }},
		{Title: "ERROR", Align: left, Value: func(r SummaryRow) string {
			if r.Prediction.Err != nil {
				return r.Prediction.Err.Error()
			}
			return ""
		}},
	}
}

// span is "5" or, when the joiners' places give different figures,
// "5–7" (lowest first).
func span(a, b int) string {
	if a == b {
		return strconv.Itoa(a)
	}
	return strconv.Itoa(min(a, b)) + "–" + strconv.Itoa(max(a, b))
}

// worstOf is f of the worst place of the joiners, or of the prediction
// itself when every place gives one result.
func worstOf(p *rebalance.Prediction, f func(rebalance.PlaceOutcome) int) int {
	return f(p.Outcome(true))
}

// ResultTitle is the heading of the i-th result of a prediction (0 is the
// best): "range: 5 partitions change process", and, when the runs gave
// several results (the joiners' places, or a leader that breaks ties its
// own way), which one it is: "range, result 2 of 3: …"; not sanitized.
func ResultTitle(p *rebalance.Prediction, i int) string {
	o := p.Result(i)
	name := p.Assignor
	if n := len(p.Results); n > 1 {
		name += fmt.Sprintf(", result %d of %d", i+1, n)
	}
	return name + ": " + format.Predicted(len(o.ByProcess.Moves), o.ByProcess.Rejoined)
}

// MoveColumns list moved partitions. FROM or TO is "-" when nobody owned
// the partition before or owns it after.
func MoveColumns() []Column[rebalance.Move] {
	return []Column[rebalance.Move]{
		{Title: "TOPIC", Align: left, Max: idMax, Value: func(m rebalance.Move) string { return m.Topic }},
		{Title: "PARTITION", Align: right, Value: func(m rebalance.Move) string { return strconv.Itoa(int(m.Partition)) }},
		{Title: "FROM", Align: left, Max: idMax, Value: func(m rebalance.Move) string { return text(m.From) }},
		{Title: "TO", Align: left, Max: idMax, Value: func(m rebalance.Move) string { return text(m.To) }},
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
func AssignmentColumns() []Column[AssignmentRow] {
	return []Column[AssignmentRow]{
		{Title: "MEMBER", Align: left, Max: idMax, Value: func(r AssignmentRow) string { return r.MemberID }},
		{Title: "CLIENT-ID", Align: left, Max: hostMax, Value: func(r AssignmentRow) string {
			if r.New {
				return "(new)"
			}
			return text(r.ClientID)
		}},
		{Title: "#PARTITIONS", Align: right, Value: func(r AssignmentRow) string { return strconv.Itoa(count(r.Assignment)) }},
		{Title: "ASSIGNMENT", Align: left, Value: func(r AssignmentRow) string { return columns.Assignment(r.Assignment) }},
	}
}

// AssignmentRows lists a prediction's members in the order the assignors
// saw them (joiners last), with its i-th result's assignment (0 is the
// best).
func AssignmentRows(g *kafka.Group, sim *rebalance.Simulation, p *rebalance.Prediction, i int) []AssignmentRow {
	o := p.Result(i)
	rows := make([]AssignmentRow, 0, len(sim.Members))
	for _, id := range sim.Members {
		r := AssignmentRow{MemberID: id, Assignment: o.Assignment[id], New: slices.Contains(sim.Joiners, id)}
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

// ChangeHeader is the one-line description of the group and the change
// (what `simulate` and `rebalance` print first), terminal-safe.
func ChangeHeader(g *kafka.Group, change string) string {
	return fmt.Sprintf("Group %s (%s, %s, assignor %s, %s): %s",
		format.Sanitize(g.Name), format.Sanitize(string(g.Type)), format.Sanitize(g.State), format.Sanitize(text(g.Assignor)), format.Count(len(g.Members), "member", "members"), format.Sanitize(change))
}

// SimulationHeader is ChangeHeader with the assignor named with the
// implementation kgroups infers its leader runs ("assignor
// cooperative-sticky (librdkafka leader)"), terminal-safe.
func SimulationHeader(g *kafka.Group, sim *rebalance.Simulation) string {
	return fmt.Sprintf("Group %s (%s, %s, %s, %s): %s",
		format.Sanitize(g.Name), format.Sanitize(string(g.Type)), format.Sanitize(g.State), format.Sanitize(sim.Leader.Label()), format.Count(len(g.Members), "member", "members"), format.Sanitize(sim.Change.String()))
}

// Simulation prints a simulation: a summary per assignor, then each
// assignor's moves and resulting assignment; lay says how long ids are cut.
func Simulation(w io.Writer, g *kafka.Group, sim *rebalance.Simulation, lay Layout) error {
	var b strings.Builder
	b.WriteString(SimulationHeader(g, sim))
	b.WriteString("\n\n")
	writePredictions(&b, g, sim, lay)
	return Print(w, b.String())
}

// writePredictions writes the summary table and each prediction's
// results.
func writePredictions(b *strings.Builder, g *kafka.Group, sim *rebalance.Simulation, lay Layout) {
	b.WriteString(TableWith(summaryColumns(sim), SummaryRows(sim), lay))
	if note := StaticRejoinNote(sim); note != "" {
		b.WriteString(note + "\n")
	}
	for i := range sim.Predictions {
		p := &sim.Predictions[i]
		if p.Err != nil {
			continue
		}
		for r := range max(len(p.Results), 1) {
			o := p.Result(r)
			b.WriteByte('\n')
			b.WriteString(format.Sanitize(ResultTitle(p, r)) + "\n")
			if len(o.Moves) > 0 {
				b.WriteString(TableWith(MoveColumns(), o.Moves, lay))
			}
			b.WriteString(TableWith(AssignmentColumns(), AssignmentRows(g, sim, p, r), lay))
		}
	}
}

// StaticRejoinNote says, when static members leave, what happens if they
// come back in time instead: "If the static member that leaves rejoins
// under its instance id within the session timeout, the coordinator hands
// back its partitions without a rebalance: 0 partitions change process, 1
// member rejoins with a new id." "" unless only static members leave.
func StaticRejoinNote(sim *rebalance.Simulation) string {
	r := sim.StaticRejoin
	if r == nil {
		return ""
	}
	who, whose := "the static members that leave rejoin under their instance ids", "their"
	if r.Rejoined == 1 {
		who, whose = "the static member that leaves rejoins under its instance id", "its"
	}
	return "If " + who + " within the session timeout, the coordinator hands back " + whose + " partitions without a rebalance: " +
		format.Predicted(len(r.Moves), r.Rejoined) + "."
}

// summaryColumns drops ERROR when no assignor failed, so that the usual
// table has no empty column.
func summaryColumns(sim *rebalance.Simulation) []Column[SummaryRow] {
	cols := SummaryColumns()
	for _, p := range sim.Predictions {
		if p.Err != nil {
			return cols
		}
	}
	return cols[:len(cols)-1]
}

// TargetRow is one KIP-848 member with its current and target assignment.
type TargetRow struct {
	Member *kafka.Member
}

// TargetColumns show a KIP-848 group's members: the broker has already
// decided the target; CURRENT is what the member has reconciled so far.
func TargetColumns() []Column[TargetRow] {
	return []Column[TargetRow]{
		{Title: "MEMBER", Align: left, Max: idMax, Value: func(r TargetRow) string { return r.Member.MemberID }},
		{Title: "CLIENT-ID", Align: left, Max: hostMax, Value: func(r TargetRow) string { return text(r.Member.ClientID) }},
		{Title: "EPOCH", Align: right, Value: func(r TargetRow) string { return strconv.Itoa(int(r.Member.MemberEpoch)) }},
		{Title: "CURRENT", Align: left, Value: func(r TargetRow) string { return columns.Assignment(r.Member.Assignment) }},
		{Title: "TARGET", Align: left, Value: func(r TargetRow) string { return columns.Assignment(r.Member.Target) }},
	}
}

// TargetRows lists a KIP-848 group's members by member id.
func TargetRows(g *kafka.Group) []TargetRow {
	rows := make([]TargetRow, len(g.Members))
	for i := range g.Members {
		rows[i] = TargetRow{Member: &g.Members[i]}
	}
	return rows
}

// TargetsNote explains what a KIP-848 group shows: the broker's targets,
// then the models' predictions.
const TargetsNote = "The broker assigns partitions for consumer-protocol (KIP-848) groups. Each member's target assignment is what the broker has decided; CURRENT is what the member has reconciled."

// Targets prints a KIP-848 group's current and target assignments, and the
// partitions still to move, then sim's predictions of the broker's
// assignors (or why there are none, simErr); lay says how long ids are
// cut.
func Targets(w io.Writer, g *kafka.Group, change string, lay Layout, sim *rebalance.Simulation, simErr error) error {
	var b strings.Builder
	b.WriteString(ChangeHeader(g, change))
	fmt.Fprintf(&b, "\n%s\nGroup epoch %d, assignment epoch %d, server assignor %s.\n\n", TargetsNote, g.GroupEpoch, g.AssignmentEpoch, format.Sanitize(text(g.Assignor)))
	b.WriteString(TableWith(TargetColumns(), TargetRows(g), lay))
	pending := rebalance.Reconciliation(g)
	if len(pending) == 0 {
		b.WriteString("\nEvery member holds its target assignment.\n")
	} else {
		fmt.Fprintf(&b, "\n%s still to move:\n", format.Count(len(pending), "partition", "partitions"))
		b.WriteString(TableWith(MoveColumns(), pending, lay))
	}
	switch {
	case sim != nil:
		fmt.Fprintf(&b, "\nPredicted by kgroups' models of Kafka 4.2's server assignors after the change (%s):\n\n", format.Sanitize(sim.Change.String()))
		writePredictions(&b, g, sim, lay)
	case simErr != nil:
		b.WriteString("\nNo prediction: " + format.Sanitize(simErr.Error()) + "\n")
	}
	return Print(w, b.String())
}

// The JSON documents are a contract with scripts, spelled out field by
// field. from/to are null when nobody owned or owns the partition.

type jsonSimulation struct {
	Group       string `json:"group"`
	GroupBase64 string `json:"groupBase64,omitempty"`
	Change      string `json:"change"`
	Type        string `json:"type"`
	// Leader is the implementation inferred for a classic group's leader.
	Leader    *jsonLeader    `json:"leader,omitempty"`
	Assignors []jsonAssignor `json:"assignors"`
	// Members is set for KIP-848 groups only.
	Members []jsonTargetMember `json:"members,omitempty"`
	Pending []jsonMove         `json:"pendingMoves,omitempty"`
	// StaticRejoin is set when static members leave (see
	// StaticRejoinNote).
	StaticRejoin *jsonRejoin `json:"staticRejoin,omitempty"`
	// Error is why a KIP-848 group has no predictions.
	Error *string `json:"error,omitempty"`
}

type jsonRejoin struct {
	MovedByProcess int `json:"movedByProcess"`
	Rejoined       int `json:"rejoined"`
}

type jsonLeader struct {
	Impl     string `json:"impl"`
	Protocol string `json:"protocol"`
	Partial  bool   `json:"partial"`
	Label    string `json:"label"`
}

type jsonAssignor struct {
	Assignor   string `json:"assignor"`
	Impl       string `json:"impl"`
	Confidence string `json:"confidence"`
	Note       string `json:"note"`
	Moved      int    `json:"moved"`
	Rounds     int    `json:"rounds"`
	// MovedByProcess and Rejoined count the prediction by process (the
	// rule of the rebalance result and the Timeline).
	MovedByProcess int                         `json:"movedByProcess"`
	Rejoined       int                         `json:"rejoined"`
	Moves          []jsonMove                  `json:"moves"`
	Assignment     map[string][]jsonAssignment `json:"assignment"`
	// Places and PlacesOf are how many places of the joiners were run
	// and how many there are, exactly (a JSON number that may not fit
	// 64 bits); Results are every different result the runs gave, best
	// first (the fields above are the first); Worst is the last of them
	// when there are several, else null.
	Places   int          `json:"places"`
	PlacesOf *big.Int     `json:"placesOf"`
	Results  []*jsonPlace `json:"results"`
	Worst    *jsonPlace   `json:"worst"`
	Error    *string      `json:"error"`
}

type jsonPlace struct {
	Moved          int                         `json:"moved"`
	Rounds         int                         `json:"rounds"`
	MovedByProcess int                         `json:"movedByProcess"`
	Rejoined       int                         `json:"rejoined"`
	Moves          []jsonMove                  `json:"moves"`
	Assignment     map[string][]jsonAssignment `json:"assignment"`
}

func toJSONPlace(o rebalance.PlaceOutcome) *jsonPlace {
	j := &jsonPlace{Moved: len(o.Moves), Rounds: o.Rounds, MovedByProcess: len(o.ByProcess.Moves), Rejoined: o.ByProcess.Rejoined,
		Moves: toJSONMoves(o.Moves), Assignment: map[string][]jsonAssignment{}}
	for id, tps := range o.Assignment {
		j.Assignment[id] = toJSONAssignment(tps)
	}
	return j
}

type jsonMove struct {
	Topic     string  `json:"topic"`
	Partition int32   `json:"partition"`
	From      *string `json:"from"`
	To        *string `json:"to"`
}

type jsonTargetMember struct {
	MemberID    string           `json:"memberId"`
	ClientID    string           `json:"clientId"`
	MemberEpoch int32            `json:"memberEpoch"`
	Current     []jsonAssignment `json:"current"`
	Target      []jsonAssignment `json:"target"`
}

// SimulationJSON prints a simulation as
// {"group","change","type","leader":{"impl","protocol","partial","label"},"assignors":[{"assignor","impl","confidence","note","moved","rounds","movedByProcess","rejoined","moves":[{"topic","partition","from","to"}],"assignment":{member:[{"topic","partitions"}]},"places","placesOf","results":[{"moved","rounds","movedByProcess","rejoined","moves","assignment"}],"worst":null|{…},"error"}],"staticRejoin":{"movedByProcess","rejoined"}}.
func SimulationJSON(w io.Writer, g *kafka.Group, sim *rebalance.Simulation) error {
	doc := jsonSimulation{Group: sim.Group, GroupBase64: groupBase64(sim.Group), Change: sim.Change.String(), Type: string(g.Type)}
	fillJSONPredictions(&doc, sim)
	return EncodeJSON(w, doc)
}

// fillJSONPredictions sets the leader, the static rejoin and one assignor
// entry per prediction of sim.
func fillJSONPredictions(doc *jsonSimulation, sim *rebalance.Simulation) {
	doc.Assignors = make([]jsonAssignor, 0, len(sim.Predictions))
	if sim.Leader.Impl != "" {
		doc.Leader = &jsonLeader{Impl: string(sim.Leader.Impl), Protocol: sim.Leader.Protocol, Partial: sim.Leader.Partial, Label: sim.Leader.Label()}
	}
	if r := sim.StaticRejoin; r != nil {
		doc.StaticRejoin = &jsonRejoin{MovedByProcess: len(r.Moves), Rejoined: r.Rejoined}
	}
	for _, p := range sim.Predictions {
		j := jsonAssignor{Assignor: p.Assignor, Impl: string(p.Impl), Confidence: string(p.Confidence), Note: p.Note, Moved: len(p.Moves), Rounds: p.Rounds, Moves: toJSONMoves(p.Moves), Assignment: map[string][]jsonAssignment{}}
		j.MovedByProcess, j.Rejoined = len(p.ByProcess.Moves), p.ByProcess.Rejoined
		j.Places, j.PlacesOf, j.Results = p.Places, p.PlacesOf, []*jsonPlace{}
		if j.PlacesOf == nil {
			j.PlacesOf = new(big.Int)
		}
		for _, o := range p.Results {
			j.Results = append(j.Results, toJSONPlace(o))
		}
		if p.Worst != nil {
			j.Worst = toJSONPlace(*p.Worst)
		}
		for id, tps := range p.Assignment {
			j.Assignment[id] = toJSONAssignment(tps)
		}
		if p.Err != nil {
			s := p.Err.Error()
			j.Error = &s
		}
		doc.Assignors = append(doc.Assignors, j)
	}
}

// TargetsJSON prints a KIP-848 group in the same document shape as
// SimulationJSON: each member's current and target assignment, and sim's
// predictions of the broker's assignors (none when sim is nil; simErr,
// when set, is why, in "error").
func TargetsJSON(w io.Writer, g *kafka.Group, change string, sim *rebalance.Simulation, simErr error) error {
	doc := jsonSimulation{Group: g.Name, GroupBase64: groupBase64(g.Name), Change: change, Type: string(g.Type), Assignors: []jsonAssignor{}, Members: []jsonTargetMember{}}
	if sim != nil {
		fillJSONPredictions(&doc, sim)
	} else if simErr != nil {
		s := simErr.Error()
		doc.Error = &s
	}
	for _, m := range g.Members {
		doc.Members = append(doc.Members, jsonTargetMember{MemberID: m.MemberID, ClientID: m.ClientID, MemberEpoch: m.MemberEpoch,
			Current: toJSONAssignment(m.Assignment), Target: toJSONAssignment(m.Target)})
	}
	doc.Pending = toJSONMoves(rebalance.Reconciliation(g))
	return EncodeJSON(w, doc)
}

func toJSONMoves(moves []rebalance.Move) []jsonMove {
	out := make([]jsonMove, 0, len(moves))
	for _, m := range moves {
		out = append(out, jsonMove{Topic: m.Topic, Partition: m.Partition, From: nonEmpty(m.From), To: nonEmpty(m.To)})
	}
	return out
}

func count(tps []kafka.TopicPartitions) int {
	n := 0
	for _, tp := range tps {
		n += len(tp.Partitions)
	}
	return n
}
