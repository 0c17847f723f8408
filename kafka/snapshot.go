package kafka

import (
	"slices"
	"sort"
	"time"
)

// Group states. Classic groups use Empty, PreparingRebalance,
// CompletingRebalance, Stable and Dead; KIP-848 groups use Empty, Assigning,
// Reconciling and Stable.
const (
	StateEmpty               = "Empty"
	StateStable              = "Stable"
	StatePreparingRebalance  = "PreparingRebalance"
	StateCompletingRebalance = "CompletingRebalance"
	StateDead                = "Dead"
	StateAssigning           = "Assigning"
	StateReconciling         = "Reconciling"
	StateUnknown             = "Unknown"
)

// NoOffset marks an offset or lag that is not known: no committed offset, or a
// log offset that could not be listed.
const NoOffset int64 = -1

// Snapshot is an immutable, complete picture of one poll of the cluster.
// Callers must not modify it; views and history keep references to it.
type Snapshot struct {
	// Time is when the poll started.
	Time time.Time
	// Duration is how long the poll took.
	Duration time.Duration
	// Brokers are the brokers from metadata, sorted by id.
	Brokers []Broker
	// OffsetsTopicPartitions is the partition count of __consumer_offsets
	// used for OffsetsPartition (0 when the topic could not be described).
	OffsetsTopicPartitions int32
	// Groups are every group the cluster listed, sorted by name.
	Groups []Group
	// ListErr is set when some brokers did not answer the group listing:
	// a group absent from Groups may then exist (each listed group
	// carries the error too). A write's re-read must not take such an
	// absence for a group that is gone.
	ListErr error
	// PartitionCounts is how many partitions each topic has, from the
	// metadata the poll read (topics whose metadata failed are absent);
	// nil when unknown. The reset wizard checks typed partitions with it.
	PartitionCounts map[string]int32
	// ClusterID is the cluster id the metadata gave ("" from a broker
	// before Kafka 0.10.1, or one that sends none).
	ClusterID string
	// TopicIDs are the topics' ids from the metadata (Kafka 2.8 and
	// later; absent from older brokers): a topic deleted and created again
	// under its name gets a new one.
	TopicIDs map[string]TopicID
}

// TopicID is a topic's id (KIP-516); the zero value means none was given.
type TopicID [16]byte

// Group finds a group by name.
func (s *Snapshot) Group(name string) (*Group, bool) {
	if s == nil {
		return nil, false
	}
	i := sort.Search(len(s.Groups), func(i int) bool { return s.Groups[i].Name >= name })
	if i < len(s.Groups) && s.Groups[i].Name == name {
		return &s.Groups[i], true
	}
	return nil, false
}

// Broker is a broker's identity and address.
type Broker struct {
	ID   int32
	Host string
	Port int32
	Rack string
}

// Group is one consumer group as seen by one poll.
type Group struct {
	Name string
	Type GroupType
	// ProtocolType is "consumer" for consumer groups, "connect" for Kafka
	// Connect and so on (classic groups; KIP-848 groups are always "consumer").
	ProtocolType string
	State        string
	// Assignor is the chosen protocol for classic groups (range, roundrobin,
	// sticky, cooperative-sticky) and the server assignor for KIP-848
	// groups (uniform, range).
	Assignor string
	// GroupEpoch and AssignmentEpoch are set for KIP-848 and share groups.
	GroupEpoch      int32
	AssignmentEpoch int32
	// Coordinator is the broker that coordinates the group.
	Coordinator Broker
	// OffsetsPartition is the __consumer_offsets partition holding the
	// group's metadata and commits (-1 when unknown).
	OffsetsPartition int32
	// Members are sorted by member id.
	Members []Member
	// Partitions are every partition the group has a commit for or has
	// assigned, sorted by topic then partition.
	Partitions []PartitionOffsets
	// Share is set for share groups only (KIP-932).
	Share *ShareInfo
	// Streams is set for streams groups (KIP-1071) only: epochs, topology
	// and tasks. Members and Partitions hold the same members and the
	// input-topic offsets as for any other group.
	Streams *StreamsInfo
	// Err is a per-group failure (describe or offset fetch). The rest of
	// the group holds whatever could be read.
	Err error
}

// Simple reports whether g is what Kafka calls a simple consumer group:
// an Empty classic group with no protocol type, which has only ever had
// offsets committed to it, never a member join (a job that assigns its
// partitions itself and commits on checkpoints, as Flink's Kafka source
// does, or a group a reset created). A group whose members left keeps
// the protocol type they joined with ("consumer"), on Kafka 2.8 to 4.2
// and on kfake alike, so it is not simple.
func (g *Group) Simple() bool {
	return g.Type == TypeClassic && g.ProtocolType == "" && g.State == StateEmpty && len(g.Members) == 0
}

// TotalLag sums the lag of the partitions that have a commit and a known log
// end.
func (g *Group) TotalLag() int64 {
	var n int64
	for i := range g.Partitions {
		if g.Partitions[i].Lag > 0 {
			n += g.Partitions[i].Lag
		}
	}
	return n
}

// Topics returns the distinct topics of the group's partitions, sorted.
func (g *Group) Topics() []string {
	var ts []string
	for i := range g.Partitions {
		t := g.Partitions[i].Topic
		if len(ts) == 0 || ts[len(ts)-1] != t {
			ts = append(ts, t)
		}
	}
	return ts
}

// Member finds a member by id.
func (g *Group) Member(id string) (*Member, bool) {
	for i := range g.Members {
		if g.Members[i].MemberID == id {
			return &g.Members[i], true
		}
	}
	return nil, false
}

// Member is one member of a group.
type Member struct {
	MemberID   string
	InstanceID string // group.instance.id for static members, else ""
	ClientID   string
	Host       string
	Rack       string
	// Subscribed lists subscribed topic names; KIP-848 members may instead
	// (or also) subscribe by SubscribedRegex.
	Subscribed      []string
	SubscribedRegex string
	// Assignment is the member's current assignment, sorted by topic.
	Assignment []TopicPartitions
	// MemberEpoch and Target are set for KIP-848 members only.
	MemberEpoch int32
	Target      []TopicPartitions
	// JoinMetadata is the classic member's raw ConsumerMemberMetadata for
	// the chosen protocol (subscription, owned partitions, user data), kept
	// so that assignors can be simulated offline.
	JoinMetadata []byte
}

// PartitionCount counts the partitions in the member's assignment.
func (m *Member) PartitionCount() int {
	n := 0
	for _, tp := range m.Assignment {
		n += len(tp.Partitions)
	}
	return n
}

// TopicPartitions is a topic and some of its partitions, sorted.
type TopicPartitions struct {
	Topic      string
	Partitions []int32
}

// PartitionOffsets is one partition of a group with its committed offset and
// the log's bounds.
//
// Fields are ordered so that the struct packs tightly (128 bytes on 64-bit
// platforms): a poll holds one per committed or assigned partition. What
// only owned and share partitions carry (the owner's client id and host,
// the owners, the broker's lag) is behind one pointer, shared by every
// partition of the same member of a poll.
type PartitionOffsets struct {
	Topic       string
	Partition   int32
	LeaderEpoch int32
	// Committed is the next offset the group will consume, or NoOffset.
	// For a share group it is the share-partition start offset (SPSO),
	// the group's progress; share groups have no committed offsets.
	Committed int64
	Metadata  string
	// LogStart and LogEnd (high watermark) are NoOffset when unknown.
	LogStart int64
	LogEnd   int64
	// Lag is LogEnd - Committed, floored at 0, or NoOffset when either is
	// unknown.
	Lag int64
	// LastStable is the last stable offset (ListOffsets with
	// read_committed isolation) when StableTrails is set; it means nothing
	// otherwise.
	LastStable int64
	// MemberID is the owning member's id, empty when no member has the
	// partition. In a share group several members share a partition: this
	// is the first by member id, and Owners lists them all. ClientID and
	// Host give the same member's client id and host.
	MemberID string
	// owned holds ClientID, Host, Owners and BrokerLag; nil for their zero
	// values (BrokerLag 0), notOwned for a row as a poll starts it
	// (BrokerLag NoOffset). Never written once set: SetOwner and
	// SetBrokerLag give the row a new one.
	owned *rowOwner
	// Err is a per-partition failure (fetching the commit or listing the
	// log's offsets).
	Err error
	// StableTrails reports that the last stable offset is below LogEnd: an
	// open transaction holds read_committed consumers at LastStable.
	StableTrails bool
}

// rowOwner is what a partition row keeps behind its owned pointer.
type rowOwner struct {
	clientID, host string
	owners         []string
	// brokerLag is a share partition's lag as the broker reported it
	// (DescribeShareGroupOffsets v1+), or -1.
	brokerLag int64
}

// notOwned is a row's owned part as a poll starts the row: no owner and
// no broker lag. Shared by every such row; never written.
var notOwned = &rowOwner{brokerLag: NoOffset}

// HasCommit reports whether the group has committed an offset here.
func (p *PartitionOffsets) HasCommit() bool { return p.Committed >= 0 }

// HasLag reports whether Lag is known.
func (p *PartitionOffsets) HasLag() bool { return p.Lag >= 0 }

// ClientID is the owning member's client id, empty when no member has the
// partition.
func (p *PartitionOffsets) ClientID() string {
	if p.owned == nil {
		return ""
	}
	return p.owned.clientID
}

// Host is the owning member's host, empty when no member has the
// partition.
func (p *PartitionOffsets) Host() string {
	if p.owned == nil {
		return ""
	}
	return p.owned.host
}

// Owners are the member ids of every member assigned the partition,
// sorted; nil when none. Callers must not modify them.
func (p *PartitionOffsets) Owners() []string {
	if p.owned == nil {
		return nil
	}
	return p.owned.owners
}

// BrokerLag is a share partition's lag as the broker reported it, or
// NoOffset: what the poll read, kept so that a recording of the poll
// gives back the same row.
func (p *PartitionOffsets) BrokerLag() int64 {
	if p.owned == nil {
		return 0
	}
	return p.owned.brokerLag
}

// SetBrokerLag sets what BrokerLag returns. Only code building a
// snapshot calls it (a recording's reader); a snapshot once built is
// never changed.
func (p *PartitionOffsets) SetBrokerLag(n int64) {
	o := p.ownedCopy()
	o.brokerLag = n
	p.setOwned(o)
}

// SetOwner sets the owning member (MemberID, ClientID and Host) and
// Owners. Only code building a snapshot calls it (a recording's reader,
// tests); a snapshot once built is never changed.
func (p *PartitionOffsets) SetOwner(memberID, clientID, host string, owners []string) {
	p.MemberID = memberID
	o := p.ownedCopy()
	o.clientID, o.host, o.owners = clientID, host, owners
	p.setOwned(o)
}

// WithOwner is p with ClientID, Host and Owners set as SetOwner sets them
// (MemberID as p has it), for rows built in one expression.
func (p PartitionOffsets) WithOwner(clientID, host string, owners []string) PartitionOffsets {
	p.SetOwner(p.MemberID, clientID, host, owners)
	return p
}

// ownedCopy is a copy of the row's owned part, to change and set.
func (p *PartitionOffsets) ownedCopy() *rowOwner {
	if p.owned == nil {
		return &rowOwner{}
	}
	o := *p.owned
	return &o
}

// setOwned sets o as the row's owned part, keeping nil and notOwned for
// the two values they stand for, so that equal rows are equal
// field by field.
func (p *PartitionOffsets) setOwned(o *rowOwner) {
	switch {
	case o.clientID != "" || o.host != "" || o.owners != nil:
		p.owned = o
	case o.brokerLag == 0:
		p.owned = nil
	case o.brokerLag == NoOffset:
		p.owned = notOwned
	default:
		p.owned = o
	}
}

// sameOwned reports whether a and b hold the same owned part.
func sameOwned(a, b *rowOwner) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	return a.clientID == b.clientID && a.host == b.host && a.brokerLag == b.brokerLag &&
		slices.Equal(a.owners, b.owners)
}
