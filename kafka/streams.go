package kafka

import (
	"sort"
	"strconv"
	"strings"
)

// Streams group states (KIP-1071). Empty, Assigning, Reconciling, Stable and
// Dead are shared with the other group types.
const (
	// StateNotReady is a streams group whose topology is not yet
	// configured, typically because its internal topics are missing.
	StateNotReady = "NotReady"
)

// StreamsInfo is what StreamsGroupDescribe says about a streams group beyond
// what every group has.
type StreamsInfo struct {
	GroupEpoch            int32
	TargetAssignmentEpoch int32
	// TopologyEpoch is -1 when the group has no topology yet.
	TopologyEpoch int32
	// Subtopologies are sorted by id (numerically when the ids are
	// numbers).
	Subtopologies []Subtopology
	// Members are sorted by member id, as Group.Members.
	Members []StreamsMember
}

// Subtopology is one independent part of a Kafka Streams topology.
type Subtopology struct {
	ID string
	// SourceTopics are the topics the subtopology reads; input topics
	// are those that are not another subtopology's repartition topic.
	SourceTopics []string
	// RepartitionSinkTopics are the repartition topics it writes.
	RepartitionSinkTopics []string
	// RepartitionSourceTopics are the repartition topics it reads.
	RepartitionSourceTopics []InternalTopic
	// StateChangelogTopics back its state stores.
	StateChangelogTopics []InternalTopic
}

// InternalTopic is a topic Kafka Streams creates and manages for a group.
type InternalTopic struct {
	Topic string
	// Partitions is the partition count, 0 when the broker derives it.
	Partitions int32
	// ReplicationFactor is 0 when the broker's default applies.
	ReplicationFactor int16
}

// StreamsMember is one member (a stream thread) of a streams group.
type StreamsMember struct {
	MemberID   string
	ProcessID  string
	ClientID   string
	Host       string
	InstanceID string
	Rack       string
	// UserEndpoint is the host:port of application.server, or "".
	UserEndpoint string
	// ClientTags are sorted by key.
	ClientTags    []ClientTag
	MemberEpoch   int32
	TopologyEpoch int32
	// IsClassic says the member still uses the classic protocol.
	IsClassic   bool
	Tasks       StreamsTasks
	TargetTasks StreamsTasks
}

// ClientTag is a rack-aware assignment tag of a member.
type ClientTag struct {
	Key   string
	Value string
}

// StreamsTasks are a member's tasks by kind.
type StreamsTasks struct {
	Active  []TaskIDs
	Standby []TaskIDs
	Warmup  []TaskIDs
}

// TaskIDs are the tasks of one subtopology: one task per partition.
type TaskIDs struct {
	Subtopology string
	Partitions  []int32
}

// String renders the tasks as kafka-streams-groups.sh does: 0:[0,1].
func (t TaskIDs) String() string {
	var b strings.Builder
	b.WriteString(t.Subtopology)
	b.WriteString(":[")
	for i, p := range t.Partitions {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(int(p)))
	}
	b.WriteByte(']')
	return b.String()
}

// Count is the number of tasks of all kinds.
func (t StreamsTasks) Count() int {
	n := 0
	for _, ts := range [][]TaskIDs{t.Active, t.Standby, t.Warmup} {
		for _, x := range ts {
			n += len(x.Partitions)
		}
	}
	return n
}

// InputTopics are the topology's source topics that are not internal: the
// topics whose offsets a reset may change. Sorted.
func (s *StreamsInfo) InputTopics() []string {
	if s == nil {
		return nil
	}
	internal := s.internalTopics()
	set := make(map[string]bool)
	for _, st := range s.Subtopologies {
		for _, t := range st.SourceTopics {
			if !internal[t] {
				set[t] = true
			}
		}
	}
	return sortedKeys(set)
}

// InternalTopics are the repartition and changelog topics of the topology,
// sorted.
func (s *StreamsInfo) InternalTopics() []string {
	if s == nil {
		return nil
	}
	return sortedKeys(s.internalTopics())
}

// IsInternalTopic reports whether the topology names topic as a repartition
// or changelog topic.
func (s *StreamsInfo) IsInternalTopic(topic string) bool {
	return s != nil && s.internalTopics()[topic]
}

func (s *StreamsInfo) internalTopics() map[string]bool {
	set := make(map[string]bool)
	for _, st := range s.Subtopologies {
		for _, t := range st.RepartitionSinkTopics {
			set[t] = true
		}
		for _, t := range st.RepartitionSourceTopics {
			set[t.Topic] = true
		}
		for _, t := range st.StateChangelogTopics {
			set[t.Topic] = true
		}
	}
	return set
}

func sortedKeys(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
