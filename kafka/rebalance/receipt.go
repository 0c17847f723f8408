package rebalance

import (
	"time"

	"github.com/kgroups/kgroups/kafka/receipt"
)

// Receipt is written before members are removed, like the receipt of an
// offset change: who removed which members of which group, when and why, and
// the whole membership with its assignment as it was. Nothing can be
// restored from it (removed members rejoin by themselves); it is the record
// of what was done and of what the group looked like before.
type Receipt struct {
	receipt.Header
	Reason     string          `json:"reason"`
	GroupType  string          `json:"groupType"`
	GroupState string          `json:"groupState"`
	Assignor   string          `json:"assignor"`
	Members    []ReceiptMember `json:"members"`
}

// ReceiptMember is one member as it was before the removal.
type ReceiptMember struct {
	MemberID   string              `json:"memberId"`
	InstanceID string              `json:"instanceId,omitempty"`
	ClientID   string              `json:"clientId"`
	Host       string              `json:"host"`
	Assignment []ReceiptAssignment `json:"assignment"`
	Removed    bool                `json:"removed"`
	Method     Method              `json:"method,omitempty"`
}

// ReceiptAssignment is one topic of a member's assignment.
type ReceiptAssignment struct {
	Topic      string  `json:"topic"`
	Partitions []int32 `json:"partitions"`
}

// Receipt describes the plan for its record; brokers and contextName name the
// cluster (no credentials), now is when it is applied.
func (p *Plan) Receipt(brokers []string, contextName string, now time.Time) *Receipt {
	r := &Receipt{
		Header: receipt.Header{
			Version: receipt.Version,
			Action:  receipt.ActionRemoveMembers,
			Cluster: append([]string(nil), brokers...),
			Context: contextName,
			Group:   p.Group,
			Time:    now,
			User:    receipt.CurrentUser(),
		},
		Reason:     p.Reason,
		GroupType:  string(p.Type),
		GroupState: p.State,
		Assignor:   p.Assignor,
	}
	method := make(map[string]Method, len(p.Targets))
	for _, t := range p.Targets {
		method[t.Member.MemberID] = t.Method
	}
	for _, m := range p.Before.Members {
		rm := ReceiptMember{MemberID: m.MemberID, InstanceID: m.InstanceID, ClientID: m.ClientID, Host: m.Host, Assignment: []ReceiptAssignment{}}
		for _, tp := range m.Assignment {
			rm.Assignment = append(rm.Assignment, ReceiptAssignment{Topic: tp.Topic, Partitions: tp.Partitions})
		}
		rm.Method, rm.Removed = method[m.MemberID]
		r.Members = append(r.Members, rm)
	}
	return r
}
