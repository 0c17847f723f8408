package rebalance

import (
	"encoding/binary"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
)

// ImplEvidence is what one client implementation shows of itself in a classic
// consumer group, as DescribeGroups reports each member: its default
// client id, the ConsumerMemberMetadata it sends for each protocol and
// what the leader puts in each assignment. The entries are what the
// recorded fixtures (testdata/<library>) hold; TestClientEvidence checks
// every recorded member against its library's entry.
type ImplEvidence struct {
	Impl Impl
	// DefaultClientID reports whether a client id is this implementation's
	// default; a member given its own client id (client.id) shows nothing
	// here.
	DefaultClientID func(clientID string) bool
	// ClientIDs describes the default client ids, for people.
	ClientIDs string
	// Protocols are the assignor (protocol) names it offers.
	Protocols []string
	// Metadata is, by protocol, what its members send.
	Metadata map[string]MetadataEvidence
	// Static reports that it can join with a group.instance.id.
	Static bool
}

// MetadataEvidence is the layout of the ConsumerMemberMetadata one
// implementation sends for one protocol, and of the assignments its
// leader sends back.
type MetadataEvidence struct {
	// Version is the ConsumerMemberMetadata version.
	Version int16
	// UserData is the subscription's user data: UserDataNone (null or
	// empty) or one of the formats below.
	UserData UserDataFormat
	// NullUserData reports user data written as null (length -1) rather
	// than empty (length 0), when there is none.
	NullUserData bool
	// OwnedPartitions reports that members list the partitions they own
	// (version 1 and later): false means a v1+ member sends the field
	// empty even while it owns partitions.
	OwnedPartitions bool
	// AssignmentUserData is the user data the leader puts in each
	// member's assignment.
	AssignmentUserData UserDataFormat
	// Truncated reports version 1 metadata that stops after the user
	// data, without the owned partitions field (kafka-go): no other
	// client writes it, and kmsg refuses it (ReadMemberMetadata reads it).
	Truncated bool
	// AssignmentVersion is the ConsumerMemberAssignment version its leader
	// writes.
	AssignmentVersion int16
}

// UserDataFormat names a user data layout.
type UserDataFormat string

// The user data layouts the recorded clients send.
const (
	// UserDataNone is null or empty user data.
	UserDataNone UserDataFormat = ""
	// UserDataStickyV1 is the Java client's original sticky layout,
	// version 1: the member's previous assignment (topics, each with its
	// partitions) and the generation it was made in. sarama's sticky
	// and librdkafka's cooperative-sticky assignors send it in the
	// subscription, and their leaders in each assignment too.
	UserDataStickyV1 UserDataFormat = "sticky-v1"
)

// ClientEvidence is the evidence of every implementation kgroups models
// beside Java/franz-go and kafkajs, as recorded.
var ClientEvidence = []ImplEvidence{
	{
		Impl:            ImplSarama,
		DefaultClientID: func(id string) bool { return id == "sarama" },
		ClientIDs:       `"sarama"`,
		Protocols:       []string{AssignorRange, AssignorRoundRobin, AssignorSticky},
		Metadata: map[string]MetadataEvidence{
			AssignorRange:      {Version: 1, NullUserData: true},
			AssignorRoundRobin: {Version: 1, NullUserData: true},
			AssignorSticky:     {Version: 1, UserData: UserDataStickyV1, NullUserData: true, AssignmentUserData: UserDataStickyV1},
		},
		Static: true,
	},
	{
		Impl: ImplKafkaGo,
		DefaultClientID: func(id string) bool {
			return strings.HasSuffix(id, " (github.com/segmentio/kafka-go)")
		},
		ClientIDs: `"<program>@<host> (github.com/segmentio/kafka-go)"`,
		Protocols: []string{AssignorRange, AssignorRoundRobin},
		Metadata: map[string]MetadataEvidence{
			AssignorRange:      {Version: 1, NullUserData: true, Truncated: true, AssignmentVersion: 1},
			AssignorRoundRobin: {Version: 1, NullUserData: true, Truncated: true, AssignmentVersion: 1},
		},
	},
	{
		Impl:            ImplKafkaPython,
		DefaultClientID: func(id string) bool { return strings.HasPrefix(id, "kafka-python-") },
		ClientIDs:       `"kafka-python-<version>"`,
		Protocols:       []string{AssignorRange, AssignorRoundRobin, AssignorSticky},
		Metadata: map[string]MetadataEvidence{
			AssignorRange:      {Version: 0},
			AssignorRoundRobin: {Version: 0},
		},
	},
	{
		Impl:            ImplLibrdkafka,
		DefaultClientID: func(id string) bool { return id == "rdkafka" },
		ClientIDs:       `"rdkafka" (kcat, confluent-kafka-go, -python, -dotnet)`,
		Protocols:       []string{AssignorRange, AssignorRoundRobin, AssignorCooperativeSticky},
		Metadata: map[string]MetadataEvidence{
			AssignorRange:             {Version: 1},
			AssignorRoundRobin:        {Version: 1},
			AssignorCooperativeSticky: {Version: 1, UserData: UserDataStickyV1, OwnedPartitions: true, AssignmentUserData: UserDataStickyV1},
		},
		Static: true,
	},
}

// ReadMemberMetadata decodes a member's ConsumerMemberMetadata as the
// clients write it, kafka-go's truncated version 1 included: it is
// kafka.ReadMemberMetadata, the one decoder the poll uses too.
func ReadMemberMetadata(b []byte) (meta kmsg.ConsumerMemberMetadata, truncated bool, err error) {
	return kafka.ReadMemberMetadata(b)
}

// UserDataLength is the length a ConsumerMemberMetadata's user data was
// written with: -1 for null; ok is false when b is too short to hold it.
func UserDataLength(b []byte) (n int32, ok bool) {
	if len(b) < 6 {
		return 0, false
	}
	topics := int32(binary.BigEndian.Uint32(b[2:6]))
	off := 6
	for range max(topics, 0) {
		if len(b) < off+2 {
			return 0, false
		}
		off += 2 + int(int16(binary.BigEndian.Uint16(b[off:])))
	}
	if len(b) < off+4 {
		return 0, false
	}
	return int32(binary.BigEndian.Uint32(b[off:])), true
}
