package render

import (
	"io"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/rebalance"
)

// The JSON document of `kgroups rebalance -o json`: the plan's targets,
// then, when it was executed, the receipt, each member's result and how
// the group settled, with the partitions that changed process and the
// rebalance rounds counted from the generations read.

type jsonRemoval struct {
	Group       string              `json:"group"`
	GroupBase64 string              `json:"groupBase64,omitempty"`
	Executed    bool                `json:"executed"`
	Targets     []jsonRemovalTarget `json:"targets"`
	Receipt     *string             `json:"receipt"`
	Results     []jsonRemovalResult `json:"results"`
	Outcome     *jsonRemovalOutcome `json:"outcome"`
}

type jsonRemovalTarget struct {
	MemberID   string `json:"memberId"`
	InstanceID string `json:"instanceId,omitempty"`
	ClientID   string `json:"clientId"`
	Host       string `json:"host"`
	Method     string `json:"method"`
}

type jsonRemovalResult struct {
	MemberID string  `json:"memberId"`
	Result   string  `json:"result"`
	Error    *string `json:"error"`
}

type jsonRemovalOutcome struct {
	Settled           bool       `json:"settled"`
	State             string     `json:"state"`
	Members           int        `json:"members"`
	Left              []string   `json:"left"`
	Joined            []string   `json:"joined"`
	MovedByProcess    int        `json:"movedByProcess"`
	Rejoined          int        `json:"rejoined"`
	Moves             []jsonMove `json:"moves"`
	RoundsKnown       bool       `json:"roundsKnown"`
	Rounds            int        `json:"rounds"`
	RoundKinds        []string   `json:"roundKinds"`
	FromGeneration    int32      `json:"fromGeneration"`
	ToGeneration      int32      `json:"toGeneration"`
	RoundsMayBeMissed bool       `json:"roundsMayBeMissed"`
}

// RemovalJSON prints a removal as {"group","executed","targets":[{"memberId",
// "instanceId","clientId","host","method"}],"receipt","results":[{"memberId",
// "result","error"}],"outcome":{"settled","state","members","left","joined",
// "movedByProcess","rejoined","moves","roundsKnown","rounds","roundKinds",
// "fromGeneration","toGeneration","roundsMayBeMissed"}}. removal and out are
// nil for a dry run (receipt and outcome are null); out is nil, or its
// After nil, when the group could not be read after the removal.
func RemovalJSON(w io.Writer, p *rebalance.Plan, removal *rebalance.Removal, out *rebalance.Outcome) error {
	doc := jsonRemoval{Group: p.Group, GroupBase64: groupBase64(p.Group), Targets: []jsonRemovalTarget{}, Results: []jsonRemovalResult{}}
	for _, t := range p.Targets {
		doc.Targets = append(doc.Targets, jsonRemovalTarget{MemberID: t.Member.MemberID, InstanceID: t.Member.InstanceID,
			ClientID: t.Member.ClientID, Host: t.Member.Host, Method: string(t.Method)})
	}
	if removal != nil {
		doc.Executed = true
		doc.Receipt = &removal.Receipt
		for _, r := range removal.Results {
			j := jsonRemovalResult{MemberID: r.Target.Member.MemberID, Result: RemovalResult(r)}
			if r.Err != nil || r.ReadErr != nil {
				j.Error = nonEmpty(r.Status())
			}
			doc.Results = append(doc.Results, j)
		}
	}
	if out != nil && out.After != nil {
		o := &jsonRemovalOutcome{Settled: out.Settled, State: out.After.State, Members: len(out.After.Members),
			Left: memberIDList(out.Left), Joined: memberIDList(out.Joined), MovedByProcess: len(out.Moves), Rejoined: out.Rejoined,
			Moves: toJSONMoves(out.Moves), RoundsKnown: out.Rounds.Known, Rounds: out.Rounds.Count(), RoundKinds: []string{},
			FromGeneration: out.Rounds.From, ToGeneration: out.Rounds.To, RoundsMayBeMissed: out.Rounds.MayBeMissed}
		for _, r := range out.Rounds.Seen {
			o.RoundKinds = append(o.RoundKinds, string(r.Kind))
		}
		doc.Outcome = o
	}
	return EncodeJSON(w, doc)
}

func memberIDList(ms []kafka.Member) []string {
	ids := make([]string, 0, len(ms))
	for _, m := range ms {
		ids = append(ids, m.MemberID)
	}
	return ids
}
