package render

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"math"
	"unicode/utf8"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/columns"
)

// The JSON document is a contract with scripts, so it is spelled out here
// field by field rather than derived from the domain types (which carry no
// json tags on purpose: renaming a Go field must not change the output).
// Unknown values are null, never a sentinel such as -1 or "-".

type jsonDocument struct {
	Groups []jsonGroup `json:"groups"`
}

type jsonGroup struct {
	Group        string `json:"group"`
	GroupBase64  string `json:"groupBase64,omitempty"`
	Type         string `json:"type"`
	ProtocolType string `json:"protocolType"`
	State        string `json:"state"`
	Assignor     string `json:"assignor"`
	// Leader is set for classic groups with members: the implementation
	// kgroups infers the leader runs.
	Leader           *jsonLeader     `json:"leader,omitempty"`
	GroupEpoch       *int32          `json:"groupEpoch"`
	AssignmentEpoch  *int32          `json:"assignmentEpoch"`
	Coordinator      *jsonBroker     `json:"coordinator"`
	OffsetsPartition *int32          `json:"offsetsPartition"`
	Members          []jsonMember    `json:"members"`
	Partitions       []jsonPartition `json:"partitions"`
	TotalLag         *int64          `json:"totalLag"`
	// LagSource is set for share groups only: "broker" or "log-end".
	LagSource string  `json:"lagSource,omitempty"`
	Error     *string `json:"error"`
	// Streams groups only (views/render/streams.go).
	*jsonStreamsGroup
}

type jsonBroker struct {
	ID   int32  `json:"id"`
	Host string `json:"host"`
	Port int32  `json:"port"`
}

type jsonMember struct {
	MemberID         string           `json:"memberId"`
	InstanceID       *string          `json:"instanceId"`
	ClientID         string           `json:"clientId"`
	Host             string           `json:"host"`
	Rack             *string          `json:"rack"`
	SubscribedTopics []string         `json:"subscribedTopics"`
	SubscribedRegex  *string          `json:"subscribedRegex"`
	Assignment       []jsonAssignment `json:"assignment"`
	MemberEpoch      *int32           `json:"memberEpoch"`
	TargetAssignment []jsonAssignment `json:"targetAssignment"`
	// Members of streams groups only (views/render/streams.go).
	*jsonStreamsMember
}

type jsonAssignment struct {
	Topic      string  `json:"topic"`
	Partitions []int32 `json:"partitions"`
}

type jsonPartition struct {
	Topic           string  `json:"topic"`
	Partition       int32   `json:"partition"`
	CommittedOffset *int64  `json:"committedOffset"`
	LeaderEpoch     *int32  `json:"leaderEpoch"`
	Metadata        string  `json:"metadata"`
	LogStartOffset  *int64  `json:"logStartOffset"`
	LogEndOffset    *int64  `json:"logEndOffset"`
	Lag             *int64  `json:"lag"`
	MemberID        *string `json:"memberId"`
	ClientID        *string `json:"clientId"`
	Host            *string `json:"host"`
	// StartOffset and Owners are present for share groups only.
	StartOffset optionalOffset `json:"startOffset,omitzero"`
	Owners      []string       `json:"owners,omitempty"`
	Error       *string        `json:"error"`
	// TimeLagSeconds is present only when time lags were asked for
	// (describe --time-lag), so the default document keeps its shape.
	TimeLagSeconds optionalSeconds `json:"timeLagSeconds,omitzero"`
	// LastStableOffset and LagToStable are present only where an open
	// transaction holds the last stable offset below the log end: a
	// read_committed consumer's backlog ends there.
	LastStableOffset *int64 `json:"lastStableOffset,omitempty"`
	LagToStable      *int64 `json:"lagToStable,omitempty"`
}

// optionalSeconds is a JSON field that is absent unless set, and null when
// set to an unknown value.
type optionalSeconds struct {
	set   bool
	known bool
	v     float64
}

func (o optionalSeconds) IsZero() bool { return !o.set }

func (o optionalSeconds) MarshalJSON() ([]byte, error) {
	if !o.known {
		return []byte("null"), nil
	}
	return json.Marshal(o.v)
}

// round3 keeps three decimals: millisecond precision for seconds (record
// timestamps have no more), and a float's last digits are noise to a
// script.
func round3(s float64) float64 { return math.Round(s*1000) / 1000 }

// timeLagSeconds is a time lag as JSON: seconds (0 when caught up) or null
// when unknown.
func timeLagSeconds(tl lag.TimeLag) *float64 {
	if !tl.Known() {
		return nil
	}
	return ptr(round3(tl.Seconds))
}

// JSON writes groups as `{"groups":[...]}`, indented, one document per call.
// Groups appear in the order given; members by member id and partitions by
// topic and partition, as in the snapshot. Every group carries all of its
// members and partitions whatever table view was asked for, so a script
// needs only one shape.
func JSON(w io.Writer, groups []*kafka.Group) error {
	return JSONWith(w, groups, JSONOptions{})
}

// JSONOptions add optional fields to the JSON document.
type JSONOptions struct {
	// TimeLag, when set, adds timeLagSeconds to every partition: seconds
	// behind, 0 when caught up, null when unknown.
	TimeLag TimeLagFunc
}

// JSONWith is JSON with the optional fields opts asks for. The document is
// streamed group by group (json_stream.go): it is never held whole in
// memory, and its bytes are those EncodeJSON writes for documentOf.
func JSONWith(w io.Writer, groups []*kafka.Group, opts JSONOptions) error {
	return streamJSON(w, groups, opts)
}

// documentOf is the document of groups as one value: the reference the
// stream is tested against.
func documentOf(groups []*kafka.Group, opts JSONOptions) jsonDocument {
	doc := jsonDocument{Groups: make([]jsonGroup, 0, len(groups))}
	for _, g := range groups {
		doc.Groups = append(doc.Groups, toJSONGroup(g, opts))
	}
	return doc
}

func toJSONGroup(g *kafka.Group, opts JSONOptions) jsonGroup {
	j := jsonGroup{
		Group:        g.Name,
		GroupBase64:  groupBase64(g.Name),
		Type:         string(g.Type),
		ProtocolType: g.ProtocolType,
		State:        g.State,
		Assignor:     g.Assignor,
		Members:      make([]jsonMember, 0, len(g.Members)),
		Partitions:   make([]jsonPartition, 0, len(g.Partitions)),
		TotalLag:     offset(columns.GroupLag(g)),
		Error:        errString(g.Err),
	}
	if rebalance.Leads(g) {
		id := rebalance.Identify(g)
		j.Leader = &jsonLeader{Impl: string(id.Impl), Protocol: id.Protocol, Partial: id.Partial, Label: id.Label()}
	}
	// Streams groups have epochs and targets as KIP-848 groups do.
	consumer := g.Type == kafka.TypeConsumer || g.Type == kafka.TypeStreams
	if consumer {
		j.GroupEpoch = ptr(g.GroupEpoch)
		j.AssignmentEpoch = ptr(g.AssignmentEpoch)
	}
	if g.Coordinator.Host != "" && g.Coordinator.ID >= 0 {
		j.Coordinator = &jsonBroker{ID: g.Coordinator.ID, Host: g.Coordinator.Host, Port: g.Coordinator.Port}
	}
	if g.OffsetsPartition >= 0 {
		j.OffsetsPartition = ptr(g.OffsetsPartition)
	}
	for i := range g.Members {
		j.Members = append(j.Members, toJSONMember(&g.Members[i], consumer))
	}
	for i := range g.Partitions {
		p := toJSONPartition(&g.Partitions[i])
		if opts.TimeLag != nil {
			tl := opts.TimeLag(g, &g.Partitions[i])
			p.TimeLagSeconds = optionalSeconds{set: true, known: tl.Known(), v: round3(tl.Seconds)}
		}
		j.Partitions = append(j.Partitions, p)
	}
	if g.IsShare() {
		shareJSON(g, &j)
	}
	addStreamsJSON(&j, g)
	return j
}

func toJSONMember(m *kafka.Member, consumer bool) jsonMember {
	j := jsonMember{
		MemberID:         m.MemberID,
		InstanceID:       nonEmpty(m.InstanceID),
		ClientID:         m.ClientID,
		Host:             m.Host,
		Rack:             nonEmpty(m.Rack),
		SubscribedTopics: append(make([]string, 0, len(m.Subscribed)), m.Subscribed...),
		SubscribedRegex:  nonEmpty(m.SubscribedRegex),
		Assignment:       toJSONAssignment(m.Assignment),
	}
	if consumer {
		j.MemberEpoch = ptr(m.MemberEpoch)
		j.TargetAssignment = toJSONAssignment(m.Target)
	}
	return j
}

func toJSONAssignment(tps []kafka.TopicPartitions) []jsonAssignment {
	out := make([]jsonAssignment, 0, len(tps))
	for _, tp := range tps {
		out = append(out, jsonAssignment{Topic: tp.Topic, Partitions: append(make([]int32, 0, len(tp.Partitions)), tp.Partitions...)})
	}
	return out
}

func toJSONPartition(p *kafka.PartitionOffsets) jsonPartition {
	j := jsonPartition{
		Topic:           p.Topic,
		Partition:       p.Partition,
		CommittedOffset: offset(p.Committed),
		Metadata:        p.Metadata,
		LogStartOffset:  offset(p.LogStart),
		LogEndOffset:    offset(p.LogEnd),
		Lag:             offset(p.Lag),
		MemberID:        nonEmpty(p.MemberID),
		ClientID:        nonEmpty(p.ClientID()),
		Host:            nonEmpty(p.Host()),
		Error:           errString(p.Err),
	}
	if p.HasCommit() && p.LeaderEpoch >= 0 {
		j.LeaderEpoch = ptr(p.LeaderEpoch)
	}
	if p.StableTrails {
		j.LastStableOffset = ptr(p.LastStable)
		j.LagToStable = offset(p.StableLag())
	}
	return j
}

func ptr[T any](v T) *T { return &v }

// groupBase64 is the groupBase64 field of a document: a group id's exact
// bytes in standard base64, for an id that is not valid UTF-8 (which a JSON
// string cannot carry: "group" has U+FFFD in place of each bad byte), and
// empty, so absent, for every other id. `--group-base64` takes it back.
func groupBase64(name string) string {
	if utf8.ValidString(name) {
		return ""
	}
	return base64.StdEncoding.EncodeToString([]byte(name))
}

// offset maps kafka.NoOffset (any negative offset) to null.
func offset(o int64) *int64 {
	if o < 0 {
		return nil
	}
	return &o
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func errString(err error) *string {
	if err == nil {
		return nil
	}
	s := err.Error()
	return &s
}
