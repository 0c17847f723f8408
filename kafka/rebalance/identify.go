package rebalance

import (
	"fmt"
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
)

// ImplMixed is a group whose members run different implementations: the
// leader is one of them, and the classic protocol does not say which.
const ImplMixed Impl = "mixed"

// Identification is what kgroups infers about the implementation a
// classic group's leader runs. DescribeGroups does not name the leader,
// so the inference rests on what all members share: each member is
// identified from the evidence of its join (see Evidence), and the leader
// is known only when every member is identified as one implementation.
type Identification struct {
	// Impl is the implementation every member runs; ImplMixed when the
	// identified members differ, ImplUnknown when some member (or every
	// one) could not be identified: the leader may be that member.
	Impl Impl
	// Protocol is the group's chosen assignor (protocol name).
	Protocol string
	// Partial reports that some members were identified and others not.
	Partial bool
	// ByMember is each member's implementation, by member id.
	ByMember map[string]Impl
	// Unidentified counts the members no evidence identifies.
	Unidentified int
	// Conflicts say, for members whose client id is another client's
	// default, which implementation their metadata showed instead
	// (kgroups trusts the metadata); not sanitized.
	Conflicts []string
	// Doubts say, for members whose implementation rests on a client id
	// (or, where two clients send one layout, on nothing), why the
	// identification is the likelier reading and not a certain one:
	// "the Java client 2.4 to 3.3 sends the same metadata, and only the
	// client id says sarama". A client id is the user's to set, so it
	// never makes a row exact alone: the rows are approximate unless
	// every implementation in Alternatives predicts the same (see
	// Simulate); not sanitized.
	Doubts []string
	// Basis is the first doubtful member's reason for the header: "by
	// metadata the Java client 2.4 to 3.3 also sends", "by client id;
	// sarama sends the same metadata", "by client id only".
	Basis string
	// Alternatives are the implementations that may lead instead, as far
	// as kgroups knows them: those that send the same metadata. Nil
	// when no member is in doubt, or when the other candidates are not
	// known (a client id alone, over a layout no recording shows).
	Alternatives []Impl
	// Unsettled reports a doubt with no known alternative: no model can
	// confirm the identification, so no row is exact.
	Unsettled bool
}

// Label is the header form: "assignor cooperative-sticky (librdkafka
// leader)"; not sanitized.
func (id Identification) Label() string {
	p := id.Protocol
	if p == "" {
		p = "-"
	}
	return "assignor " + p + " " + id.Leader()
}

// Leader is the parenthesised leader part of Label: "(librdkafka
// leader)", "(leader unknown)", "(leader unknown: 1 of 3 members not
// identified)", "(librdkafka leader, by metadata against client ids)".
func (id Identification) Leader() string {
	switch {
	case id.Impl == ImplBroker:
		// A KIP-848 group has no leader: its coordinator assigns.
		return "(server assignor)"
	case id.Impl == ImplMixed:
		return "(mixed clients: leader unknown)"
	case id.Partial:
		return fmt.Sprintf("(leader unknown: %d of %d members not identified)", id.Unidentified, len(id.ByMember))
	case id.Impl == ImplUnknown || id.Impl == "":
		return "(leader unknown)"
	case len(id.Conflicts) > 0:
		return "(" + id.Impl.Name() + " leader, by metadata against client ids)"
	case len(id.Doubts) > 0:
		return "(" + id.Impl.Name() + " leader, " + id.Basis + ")"
	}
	return "(" + id.Impl.Name() + " leader)"
}

// Short is the one-word form for a table column: "librdkafka",
// "Java/franz-go", "kafkajs", "mixed", "?" when some members are not
// identified, and "-" when nothing is known.
func (id Identification) Short() string {
	switch {
	case id.Impl == ImplMixed:
		return "mixed"
	case id.Partial:
		return "?"
	case id.Impl == ImplUnknown || id.Impl == "":
		return "-"
	}
	return id.Impl.Name()
}

// Leads reports whether a leader's implementation means anything for g:
// a classic group with members and a chosen protocol. KIP-848, share and
// streams groups are assigned by the broker.
func Leads(g *kafka.Group) bool {
	return g.Type == kafka.TypeClassic && g.Assignor != "" && len(g.Members) > 0
}

// Name is the implementation as people call it.
func (i Impl) Name() string {
	switch i {
	case ImplJava:
		return "Java/franz-go"
	case ImplUnknown, "":
		return "unknown"
	}
	return string(i)
}

// javaProtocols are the assignor names the Java client and franz-go share.
var javaProtocols = []string{AssignorRange, AssignorRoundRobin, AssignorSticky, AssignorCooperativeSticky, "uniform"}

// Identify infers the implementation of a classic group's leader from
// each member's evidence: its join metadata's layout, the group's chosen
// protocol and the member's client id.
func Identify(g *kafka.Group) Identification {
	id := Identification{Impl: ImplUnknown, Protocol: g.Assignor, ByMember: make(map[string]Impl, len(g.Members))}
	var seen []Impl
	for i := range g.Members {
		m := &g.Members[i]
		r := identifyMember(EvidenceOf(g.Name, g.Assignor, m))
		impl := r.impl
		id.ByMember[m.MemberID] = impl
		if r.conflict != "" && !slices.Contains(id.Conflicts, r.conflict) {
			id.Conflicts = append(id.Conflicts, r.conflict)
		}
		if r.doubt != "" && !slices.Contains(id.Doubts, r.doubt) {
			if len(id.Doubts) == 0 {
				id.Basis = r.basis
			}
			id.Doubts = append(id.Doubts, r.doubt)
			if len(r.alternatives) == 0 {
				id.Unsettled = true
			}
			for _, a := range r.alternatives {
				if !slices.Contains(id.Alternatives, a) {
					id.Alternatives = append(id.Alternatives, a)
				}
			}
		}
		if impl == ImplUnknown {
			id.Unidentified++
			continue
		}
		if !slices.Contains(seen, impl) {
			seen = append(seen, impl)
		}
	}
	switch {
	case len(seen) > 1:
		id.Impl = ImplMixed
	case len(seen) == 1 && id.Unidentified == 0:
		id.Impl = seen[0]
	case len(seen) == 1:
		id.Partial = true
	}
	return id
}

// memberIdentity is one member's identification: its implementation,
// the conflict between its client id and its metadata (the metadata won),
// and the doubt when the client id decided, or nothing could: why, the
// header's basis, and the implementations that may run it instead.
type memberIdentity struct {
	impl         Impl
	conflict     string
	doubt, basis string
	alternatives []Impl
}

// identifyMember weighs every implementation's recogniser on one member:
// the metadata's layout decides when exactly one implementation claims it,
// unless the client id is another implementation's default and that
// implementation's metadata fits too (the client id then decides, in
// doubt); when the client id's owner is ruled out, the metadata wins and
// conflict names the disagreement. A layout several claim is decided by
// the client id being one of theirs' default, in doubt; with no claim, a
// client's default client id decides when the metadata does not rule that
// client out, in doubt. Anything else is unknown. A layout that another
// client (one without a recogniser claiming it, such as the Java client's
// older releases) also sends is in doubt whatever the client id: a client
// id is the user's to set, so it can make an identification likelier,
// never certain.
func identifyMember(ev Evidence) memberIdentity {
	var byMeta, byID []Impl
	graded := make(map[Impl]Recognition, len(recognisers))
	for _, r := range recognisers {
		g := r.recognise(ev)
		graded[r.impl] = g
		switch g {
		case ByMetadata:
			byMeta = append(byMeta, r.impl)
		case ByClientID:
			byID = append(byID, r.impl)
		}
	}
	idOf := func() Impl {
		for _, r := range recognisers {
			if r.defaultID != nil && r.defaultID(ev) {
				return r.impl
			}
		}
		return ImplUnknown
	}
	switch {
	case len(byMeta) == 1:
		owner, claim := idOf(), byMeta[0]
		shared := recogniserOf(claim)
		if owner != ImplUnknown && owner != claim && graded[owner] == ByClientID {
			// Metadata both send: the client id decides, in doubt.
			return memberIdentity{impl: owner, alternatives: []Impl{claim},
				doubt: claim.Name() + " sends the same metadata, and only the client id says " + owner.Name(),
				basis: "by client id; " + claim.Name() + " sends the same metadata"}
		}
		out := memberIdentity{impl: claim}
		if owner != ImplUnknown && owner != claim {
			out.conflict = "client id " + ev.ClientID + " is " + owner.Name() + "'s default form, but its metadata is " + claim.Name() + "'s"
		}
		if shared.sharedWith != "" {
			out.alternatives, out.basis = []Impl{shared.sharedImpl}, "by metadata "+shared.sharedWith+" also sends"
			out.doubt = shared.sharedWith + " sends the same metadata, and the client ids are neither's default"
			if owner == claim {
				out.doubt = shared.sharedWith + " sends the same metadata, and only the client id says " + claim.Name()
			}
		}
		return out
	case len(byMeta) > 1:
		if owner := idOf(); slices.Contains(byMeta, owner) {
			others := slices.DeleteFunc(slices.Clone(byMeta), func(i Impl) bool { return i == owner })
			return memberIdentity{impl: owner, alternatives: others,
				doubt: others[0].Name() + " sends the same metadata, and only the client id says " + owner.Name(),
				basis: "by client id; " + others[0].Name() + " sends the same metadata"}
		}
		return memberIdentity{impl: ImplUnknown}
	case len(byID) == 1:
		return memberIdentity{impl: byID[0], basis: "by client id only",
			doubt: "only the client id says " + byID[0].Name() + ", and no recorded layout of its metadata does"}
	}
	return memberIdentity{impl: ImplUnknown}
}

func recogniserOf(impl Impl) recogniser {
	for _, r := range recognisers {
		if r.impl == impl {
			return r
		}
	}
	return recogniser{}
}

// Recognition grades how well one implementation accounts for one
// member's evidence.
type Recognition int

const (
	// RuledOut is evidence against: the member sent what this client never sends.
	RuledOut Recognition = iota
	// Possible is nothing for or against.
	Possible
	// ByClientID is a default client id: the client id is this client's default and the
	// metadata fits it.
	ByClientID
	// ByMetadata is the layout: the metadata's layout is this client's (another client
	// may share it; Identify then asks the client id).
	ByMetadata
)

// Evidence is what one member's join shows about the client that sent it.
type Evidence struct {
	// Group is the group's name: the Java client's default client id
	// names it.
	Group string
	// Protocol is the group's chosen assignor.
	Protocol string
	// ClientID is the member's client id, as the member set it.
	ClientID string
	// InstanceID is the member's group.instance.id, "" for a dynamic
	// member: a static Java member's default client id names it.
	InstanceID string
	// Metadata is the member's ConsumerMemberMetadata as laid out on the
	// wire; OK is false when it did not decode.
	Metadata Layout
}

// Layout is a ConsumerMemberMetadata as a client wrote it, with what
// decoding into kmsg's struct hides: whether user data was null or empty.
type Layout struct {
	OK      bool
	Version int16
	Topics  []string
	// UserDataNull is a null user data (length -1), as the Java client
	// and franz-go write for range and roundrobin; UserData is empty
	// and not null when a client writes length 0.
	UserDataNull bool
	UserData     []byte
	// Owned is how many owned partitions the member reported (version
	// 1 and later).
	Owned int
	// Generation is the member's generation (version 2 and later), -1
	// when absent.
	Generation int32
	// Rack is the member's rack (version 3 and later), nil when absent.
	Rack *string
	// Truncated is version 1 metadata that stops after the user data,
	// without the owned partitions version 1 adds: kafka-go's layout
	// (see ReadMemberMetadata).
	Truncated bool
}

// EvidenceOf reads one member's evidence in group.
func EvidenceOf(group, protocol string, m *kafka.Member) Evidence {
	return Evidence{Group: group, Protocol: protocol, ClientID: m.ClientID, InstanceID: m.InstanceID, Metadata: layoutOf(m.JoinMetadata)}
}

// layoutOf decodes join metadata as ReadMemberMetadata does (kafka-go's
// truncated version 1 included), keeping what kmsg's struct hides.
func layoutOf(b []byte) Layout {
	if len(b) == 0 {
		return Layout{}
	}
	meta, truncated, err := ReadMemberMetadata(b)
	if err != nil {
		return Layout{}
	}
	l := Layout{OK: true, Version: meta.Version, Topics: meta.Topics, UserData: meta.UserData, Generation: -1, Rack: meta.Rack, Truncated: truncated}
	if n, ok := UserDataLength(b); ok {
		l.UserDataNull = n < 0
	}
	for _, o := range meta.OwnedPartitions {
		l.Owned += len(o.Partitions)
	}
	if meta.Version >= 2 {
		l.Generation = meta.Generation
	}
	return l
}

// stickyUserData reports whether b decodes as the sticky assignors' user
// data (StickyAssignorUserData: the previous assignment, and from version
// 1 a generation), as the Java client's and franz-go's sticky, and
// librdkafka's cooperative-sticky, write it.
func stickyUserData(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	s := kmsg.NewStickyMemberMetadata()
	return s.ReadFrom(b) == nil
}

// recogniser is one implementation's reading of evidence, and its default
// client ids.
type recogniser struct {
	impl      Impl
	recognise func(Evidence) Recognition
	defaultID func(Evidence) bool
	// sharedWith names a client that sends the layouts this recogniser
	// claims by metadata, though they cannot be claimed for it: the Java
	// client 2.4 to 3.3 sends what sarama sends. sharedImpl is the
	// implementation whose assignors that client runs.
	sharedWith string
	sharedImpl Impl
}

var recognisers []recogniser

// registerRecogniser adds an implementation's recogniser (from an init
// function of the file that models it).
func registerRecogniser(impl Impl, defaultID func(Evidence) bool, recognise func(Evidence) Recognition) {
	recognisers = append(recognisers, recogniser{impl: impl, recognise: recognise, defaultID: defaultID})
}

// fromClientID is the common ending of a recogniser: with nothing in the
// metadata for or against, a default client id identifies.
func fromClientID(ev Evidence, defaultID func(Evidence) bool) Recognition {
	if defaultID(ev) {
		return ByClientID
	}
	return Possible
}

// metadataVersion decodes the version of a member's ConsumerMemberMetadata
// and whether it carries user data.
func metadataVersion(b []byte) (version int16, userData, ok bool) {
	l := layoutOf(b)
	return l.Version, len(l.UserData) > 0, l.OK
}
