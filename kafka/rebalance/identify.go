package rebalance

import (
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
)

// ImplMixed is a group whose members run different implementations: the
// leader is one of them, and the classic protocol does not say which.
const ImplMixed Impl = "mixed"

// Identification is what kgroups infers about the implementation a
// classic group's leader runs. DescribeGroups does not name the leader,
// so the inference rests on what all members share.
type Identification struct {
	// Impl is the implementation every identified member runs, ImplMixed
	// when they differ, ImplUnknown when none could be identified.
	Impl Impl
	// Protocol is the group's chosen assignor (protocol name).
	Protocol string
	// Partial reports that some members could not be identified, so the
	// leader may run something else than Impl.
	Partial bool
	// ByMember is each member's implementation, by member id.
	ByMember map[string]Impl
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
// leader)", "(leader unknown)".
func (id Identification) Leader() string {
	switch id.Impl {
	case ImplMixed:
		return "(mixed clients: leader unknown)"
	case ImplUnknown, "":
		return "(leader unknown)"
	}
	if id.Partial {
		return "(probably " + id.Impl.Name() + " leader)"
	}
	return "(" + id.Impl.Name() + " leader)"
}

// Short is the one-word form for a table column: "librdkafka",
// "Java/franz-go", "kafkajs", "mixed", with "?" when some members are
// not identified, and "-" when nothing is known.
func (id Identification) Short() string {
	switch id.Impl {
	case ImplUnknown, "":
		return "-"
	case ImplMixed:
		return "mixed"
	}
	if id.Partial {
		return id.Impl.Name() + "?"
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
	case ImplLibrdkafka, ImplKafkaJS, ImplMixed, ImplSarama, ImplKafkaGo, ImplKafkaPython:
		return string(i)
	}
	return "unknown"
}

// javaProtocols are the assignor names the Java client and franz-go share.
var javaProtocols = []string{AssignorRange, AssignorRoundRobin, AssignorSticky, AssignorCooperativeSticky, "uniform"}

// Identify infers the implementation of a classic group's leader from the
// chosen protocol, each member's client id and its join metadata.
func Identify(g *kafka.Group) Identification {
	id := Identification{Impl: ImplUnknown, Protocol: g.Assignor, ByMember: make(map[string]Impl, len(g.Members))}
	var seen []Impl
	for i := range g.Members {
		m := &g.Members[i]
		impl := identifyMember(g.Assignor, m)
		id.ByMember[m.MemberID] = impl
		if impl == ImplUnknown {
			id.Partial = true
			continue
		}
		if !slices.Contains(seen, impl) {
			seen = append(seen, impl)
		}
	}
	switch len(seen) {
	case 0:
		id.Partial = false
	case 1:
		id.Impl = seen[0]
	default:
		id.Impl = ImplMixed
	}
	return id
}

// identifyMember reads one member's implementation. The protocol name
// RoundRobinAssigner is kafkajs's alone; otherwise the client id decides
// when it is a client's default (librdkafka and kcat "rdkafka", kafkajs
// "kafkajs", franz-go "kgo", Java "consumer-<group>-<n>"), checked against
// the metadata: kafkajs sends version 0 without user data, and the
// cooperative protocol needs version 1 or later (owned partitions).
func identifyMember(protocol string, m *kafka.Member) Impl {
	version, userData, ok := metadataVersion(m.JoinMetadata)
	if protocol == ProtocolKafkaJSRoundRobin {
		if ok && (version != 0 || userData) {
			return ImplUnknown
		}
		return ImplKafkaJS
	}
	cid := strings.ToLower(m.ClientID)
	var impl Impl
	switch {
	case cid == "rdkafka" || strings.HasPrefix(cid, "rdkafka-") || strings.HasPrefix(cid, "kcat") || strings.HasPrefix(cid, "kafkacat"):
		impl = ImplLibrdkafka
	case cid == "kafkajs" || strings.HasPrefix(cid, "kafkajs-"):
		impl = ImplKafkaJS
	case cid == "kgo" || strings.HasPrefix(cid, "consumer-"):
		impl = ImplJava
	default:
		return ImplUnknown
	}
	switch {
	case impl == ImplKafkaJS:
		// kafkajs with a protocol other than its own is a custom assignor.
		return ImplKafkaJS
	case !slices.Contains(javaProtocols, protocol):
		return impl // a custom assignor: the client is still known
	case ok && protocol == AssignorCooperativeSticky && version < 1:
		return ImplUnknown // no client sends cooperative metadata at v0
	}
	return impl
}

// metadataVersion decodes the version of a member's ConsumerMemberMetadata
// and whether it carries user data.
func metadataVersion(b []byte) (version int16, userData, ok bool) {
	if len(b) == 0 {
		return 0, false, false
	}
	meta := kmsg.NewConsumerMemberMetadata()
	if err := meta.ReadFrom(b); err != nil {
		return 0, false, false
	}
	return meta.Version, len(meta.UserData) > 0, true
}
