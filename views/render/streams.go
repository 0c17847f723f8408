package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/format"
)

// Topology is `describe --topology`: one row per topic of a streams group's
// topology.
const Topology View = 100

// StreamsPartitionColumns are the columns of `kgroups describe` for a
// streams group, those of kafka-streams-groups.sh --describe (--offsets):
// the group's committed partitions, input and repartition topics. wide
// appends LEADER-EPOCH (the Kafka tool's --verbose) and LOG-START-OFFSET.
func StreamsPartitionColumns(wide bool) []Column[PartitionRow] {
	cols := []Column[PartitionRow]{
		{Title: "GROUP", Align: left, Max: idMax, Value: func(r PartitionRow) string { return groupCell(r.Group.Name) }},
		{Title: "TOPIC", Align: left, Max: idMax, Value: func(r PartitionRow) string { return text(r.Partition.Topic) }},
		{Title: "PARTITION", Align: right, Value: func(r PartitionRow) string { return strconv.Itoa(int(r.Partition.Partition)) }},
		{Title: "CURRENT-OFFSET", Align: right, Value: func(r PartitionRow) string { return format.Offset(r.Partition.Committed) }},
		{Title: "LOG-END-OFFSET", Align: right, Value: func(r PartitionRow) string { return format.Offset(r.Partition.LogEnd) }},
		{Title: "LAG", Align: right, Value: func(r PartitionRow) string { return format.Offset(r.Partition.Lag) }},
	}
	if wide {
		cols = append(cols,
			Column[PartitionRow]{Title: "LEADER-EPOCH", Align: right, Value: func(r PartitionRow) string {
				if !r.Partition.HasCommit() || r.Partition.LeaderEpoch < 0 {
					return columns.Missing
				}
				return strconv.Itoa(int(r.Partition.LeaderEpoch))
			}},
			Column[PartitionRow]{Title: "LOG-START-OFFSET", Align: right, Value: func(r PartitionRow) string { return format.Offset(r.Partition.LogStart) }},
		)
	}
	return cols
}

// StreamsVerbosePartitionColumns are kafka-streams-groups.sh --describe
// --verbose's columns, in its order and with its names: GROUP TOPIC
// PARTITION CURRENT-OFFSET LEADER-EPOCH LOG-END-OFFSET OFFSET-LAG. wide
// appends LOG-START-OFFSET.
func StreamsVerbosePartitionColumns(wide bool) []Column[PartitionRow] {
	var out []Column[PartitionRow]
	for _, c := range StreamsPartitionColumns(wide) {
		switch c.Title {
		case "LEADER-EPOCH":
			continue
		case "LOG-END-OFFSET":
			out = append(out, LeaderEpochColumn())
		case "LAG":
			c.Title = "OFFSET-LAG"
		}
		out = append(out, c)
	}
	return out
}

// StreamsPartitionRows are a streams group's partitions by topic and
// partition, as the Kafka tool orders them.
func StreamsPartitionRows(g *kafka.Group) []PartitionRow {
	rows := make([]PartitionRow, 0, len(g.Partitions))
	for i := range g.Partitions {
		rows = append(rows, PartitionRow{Group: g, Partition: &g.Partitions[i]})
	}
	return rows
}

// StreamsMemberRow is one row of `describe --members` for a streams group.
type StreamsMemberRow struct {
	Group  *kafka.Group
	Info   *kafka.StreamsInfo
	Member *kafka.StreamsMember
}

// StreamsMemberRows are a streams group's members by member id.
func StreamsMemberRows(g *kafka.Group) []StreamsMemberRow {
	if g.Streams == nil {
		return nil
	}
	rows := make([]StreamsMemberRow, 0, len(g.Streams.Members))
	for i := range g.Streams.Members {
		rows = append(rows, StreamsMemberRow{Group: g, Info: g.Streams, Member: &g.Streams.Members[i]})
	}
	return rows
}

// KafkaStreamsAssignments is kafka-streams-groups.sh --verbose's
// ASSIGNMENTS cell: each kind of task the member has, then each kind of its
// target, "ACTIVE: 0:[0,1]; 1:[0]; TARGET-ACTIVE: 0:[0,1]; 1:[0];" (its
// last space cut), "-" when there is none at all.
func KafkaStreamsAssignments(m *kafka.StreamsMember) string {
	var b strings.Builder
	kind := func(name string, ts []kafka.TaskIDs) {
		if len(ts) == 0 {
			return
		}
		b.WriteString(name)
		b.WriteString(": ")
		for _, t := range ts {
			b.WriteString(t.String())
			b.WriteString("; ")
		}
	}
	kind("ACTIVE", m.Tasks.Active)
	kind("STANDBY", m.Tasks.Standby)
	kind("WARMUP", m.Tasks.Warmup)
	kind("TARGET-ACTIVE", m.TargetTasks.Active)
	kind("TARGET-STANDBY", m.TargetTasks.Standby)
	kind("TARGET-WARMUP", m.TargetTasks.Warmup)
	if b.Len() == 0 {
		return columns.Missing
	}
	return strings.TrimSuffix(b.String(), " ")
}

// StreamsVerboseMemberColumns are kafka-streams-groups.sh --describe
// --members --verbose's columns, in its order: GROUP
// TARGET-ASSIGNMENT-EPOCH TOPOLOGY-EPOCH MEMBER MEMBER-PROTOCOL
// MEMBER-EPOCH PROCESS CLIENT-ID ASSIGNMENTS, the assignments in its form
// (KafkaStreamsAssignments), last since they hold spaces.
func StreamsVerboseMemberColumns() []Column[StreamsMemberRow] {
	return []Column[StreamsMemberRow]{
		{Title: "GROUP", Align: left, Max: idMax, Value: func(r StreamsMemberRow) string { return groupCell(r.Group.Name) }},
		{Title: "TARGET-ASSIGNMENT-EPOCH", Align: left, Value: func(r StreamsMemberRow) string { return strconv.Itoa(int(r.Info.TargetAssignmentEpoch)) }},
		{Title: "TOPOLOGY-EPOCH", Align: left, Value: func(r StreamsMemberRow) string { return strconv.Itoa(int(r.Info.TopologyEpoch)) }},
		{Title: "MEMBER", Align: left, Max: idMax, Value: func(r StreamsMemberRow) string { return text(r.Member.MemberID) }},
		{Title: "MEMBER-PROTOCOL", Align: left, Value: func(r StreamsMemberRow) string { return MemberProtocol(r.Member) }},
		{Title: "MEMBER-EPOCH", Align: left, Value: func(r StreamsMemberRow) string { return strconv.Itoa(int(r.Member.MemberEpoch)) }},
		{Title: "PROCESS", Align: left, Max: idMax, Value: func(r StreamsMemberRow) string { return text(r.Member.ProcessID) }},
		{Title: "CLIENT-ID", Align: left, Max: idMax, Value: func(r StreamsMemberRow) string { return text(r.Member.ClientID) }},
		{Title: "ASSIGNMENTS", Align: left, Value: func(r StreamsMemberRow) string { return KafkaStreamsAssignments(r.Member) }},
	}
}

// StreamsMemberColumns are the columns of `describe --members` for a
// streams group: kafka-streams-groups.sh's GROUP MEMBER PROCESS CLIENT-ID
// ASSIGNMENTS, then MEMBER-PROTOCOL (classic or streams) and MEMBER-EPOCH.
// wide appends HOST, INSTANCE-ID, RACK, ENDPOINT and CLIENT-TAGS.
func StreamsMemberColumns(wide bool) []Column[StreamsMemberRow] {
	cols := []Column[StreamsMemberRow]{
		{Title: "GROUP", Align: left, Max: idMax, Value: func(r StreamsMemberRow) string { return groupCell(r.Group.Name) }},
		{Title: "MEMBER", Align: left, Max: idMax, Value: func(r StreamsMemberRow) string { return text(r.Member.MemberID) }},
		{Title: "PROCESS", Align: left, Max: idMax, Value: func(r StreamsMemberRow) string { return text(r.Member.ProcessID) }},
		{Title: "CLIENT-ID", Align: left, Max: idMax, Value: func(r StreamsMemberRow) string { return text(r.Member.ClientID) }},
		{Title: "ASSIGNMENTS", Align: left, Value: func(r StreamsMemberRow) string { return columns.StreamsAssignments(r.Member) }},
		{Title: "MEMBER-PROTOCOL", Align: left, Value: func(r StreamsMemberRow) string { return MemberProtocol(r.Member) }},
		{Title: "MEMBER-EPOCH", Align: right, Value: func(r StreamsMemberRow) string { return strconv.Itoa(int(r.Member.MemberEpoch)) }},
	}
	if wide {
		cols = append(cols,
			Column[StreamsMemberRow]{Title: "HOST", Align: left, Max: hostMax, Value: func(r StreamsMemberRow) string { return text(r.Member.Host) }},
			Column[StreamsMemberRow]{Title: "INSTANCE-ID", Align: left, Max: idMax, Value: func(r StreamsMemberRow) string { return text(r.Member.InstanceID) }},
			Column[StreamsMemberRow]{Title: "RACK", Align: left, Max: hostMax, Value: func(r StreamsMemberRow) string { return text(r.Member.Rack) }},
			Column[StreamsMemberRow]{Title: "ENDPOINT", Align: left, Max: hostMax, Value: func(r StreamsMemberRow) string { return text(r.Member.UserEndpoint) }},
			Column[StreamsMemberRow]{Title: "CLIENT-TAGS", Align: left, Value: func(r StreamsMemberRow) string { return ClientTags(r.Member.ClientTags) }},
		)
	}
	return cols
}

// MemberProtocol says which protocol a streams member speaks: "classic"
// for one that still uses the classic protocol, else "streams".
func MemberProtocol(m *kafka.StreamsMember) string {
	if m.IsClassic {
		return "classic"
	}
	return "streams"
}

// ClientTags renders tags as key=value pairs separated by commas, sorted by
// key, or Missing.
func ClientTags(tags []kafka.ClientTag) string {
	if len(tags) == 0 {
		return columns.Missing
	}
	parts := make([]string, len(tags))
	for i, t := range tags {
		parts[i] = t.Key + "=" + t.Value
	}
	return strings.Join(parts, ",")
}

// StreamsStateColumns are the columns of `describe --state` for a streams
// group: kafka-streams-groups.sh --state --verbose's GROUP COORDINATOR (ID)
// STATE GROUP-EPOCH TARGET-ASSIGNMENT-EPOCH #MEMBERS, then TOPOLOGY-EPOCH.
func StreamsStateColumns() []Column[*kafka.Group] {
	epoch := func(g *kafka.Group, f func(*kafka.StreamsInfo) int32) string {
		if g.Streams == nil || f(g.Streams) < 0 {
			return columns.Missing
		}
		return strconv.Itoa(int(f(g.Streams)))
	}
	return []Column[*kafka.Group]{
		{Title: "GROUP", Align: left, Max: idMax, Value: func(g *kafka.Group) string { return groupCell(g.Name) }},
		{Title: "COORDINATOR (ID)", Align: left, Value: func(g *kafka.Group) string { return columns.Coordinator(g.Coordinator) }},
		{Title: "STATE", Align: left, Value: func(g *kafka.Group) string { return text(g.State) }},
		{Title: "GROUP-EPOCH", Align: right, Value: func(g *kafka.Group) string {
			return epoch(g, func(s *kafka.StreamsInfo) int32 { return s.GroupEpoch })
		}},
		{Title: "TARGET-ASSIGNMENT-EPOCH", Align: right, Value: func(g *kafka.Group) string {
			return epoch(g, func(s *kafka.StreamsInfo) int32 { return s.TargetAssignmentEpoch })
		}},
		{Title: "#MEMBERS", Align: right, Value: func(g *kafka.Group) string { return strconv.Itoa(len(g.Members)) }},
		{Title: "TOPOLOGY-EPOCH", Align: right, Value: func(g *kafka.Group) string {
			return epoch(g, func(s *kafka.StreamsInfo) int32 { return s.TopologyEpoch })
		}},
	}
}

// TopologyRow is one topic of a streams group's topology.
type TopologyRow struct {
	Group       *kafka.Group
	Subtopology string
	// Role is source, repartition-sink, repartition-source or changelog.
	Role  string
	Topic string
	// Partitions is the partition count the topology declares for an
	// internal topic, 0 when not declared (source and sink topics).
	Partitions int32
}

// Topology roles, in the order rows of one subtopology are listed.
const (
	RoleSource            = "source"
	RoleRepartitionSource = "repartition-source"
	RoleRepartitionSink   = "repartition-sink"
	RoleChangelog         = "changelog"
)

// TopologyRows lists a streams group's topology: each subtopology in order,
// its source topics, repartition source topics, repartition sink topics and
// changelog topics, each sorted.
func TopologyRows(g *kafka.Group) []TopologyRow {
	if g.Streams == nil {
		return nil
	}
	var rows []TopologyRow
	for _, st := range g.Streams.Subtopologies {
		add := func(role, topic string, n int32) {
			rows = append(rows, TopologyRow{Group: g, Subtopology: st.ID, Role: role, Topic: topic, Partitions: n})
		}
		for _, t := range st.SourceTopics {
			add(RoleSource, t, 0)
		}
		for _, t := range st.RepartitionSourceTopics {
			add(RoleRepartitionSource, t.Topic, t.Partitions)
		}
		for _, t := range st.RepartitionSinkTopics {
			add(RoleRepartitionSink, t, 0)
		}
		for _, t := range st.StateChangelogTopics {
			add(RoleChangelog, t.Topic, t.Partitions)
		}
	}
	return rows
}

// TopologyColumns are the columns of `describe --topology`.
func TopologyColumns() []Column[TopologyRow] {
	return []Column[TopologyRow]{
		{Title: "GROUP", Align: left, Max: idMax, Value: func(r TopologyRow) string { return groupCell(r.Group.Name) }},
		{Title: "SUBTOPOLOGY", Align: left, Max: idMax, Value: func(r TopologyRow) string { return text(r.Subtopology) }},
		{Title: "ROLE", Align: left, Value: func(r TopologyRow) string { return r.Role }},
		{Title: "TOPIC", Align: left, Max: idMax, Value: func(r TopologyRow) string { return text(r.Topic) }},
		{Title: "PARTITIONS", Align: right, Value: func(r TopologyRow) string {
			if r.Partitions <= 0 {
				return columns.Missing
			}
			return strconv.Itoa(int(r.Partitions))
		}},
	}
}

// streamsTable renders a streams group's table for the chosen view, or ""
// and the note that explains why there is none.
func streamsTable(g *kafka.Group, opts DescribeOptions) (table, empty string) {
	name := format.Sanitize(g.Name)
	switch opts.View {
	case Members:
		if rows := StreamsMemberRows(g); len(rows) > 0 {
			if opts.Verbose {
				return TableWith(StreamsVerboseMemberColumns(), rows, opts.layout()), ""
			}
			return TableWith(StreamsMemberColumns(opts.Wide), rows, opts.layout()), ""
		}
		return "", fmt.Sprintf("Streams group '%s' has no members.", name)
	case State:
		return TableWith(StreamsStateColumns(), []*kafka.Group{g}, opts.layout()), ""
	case Topology:
		if rows := TopologyRows(g); len(rows) > 0 {
			return TableWith(TopologyColumns(), rows, opts.layout()), ""
		}
		return "", fmt.Sprintf("Streams group '%s' has no topology yet.", name)
	default:
		if rows := StreamsPartitionRows(g); len(rows) > 0 {
			cols := StreamsPartitionColumns(opts.Wide)
			if opts.Verbose {
				cols = StreamsVerbosePartitionColumns(opts.Wide)
			}
			if opts.TimeLag != nil {
				cols = append(cols, TimeLagColumn(opts.TimeLag, opts.AtLeast))
			}
			return TableWith(cols, rows, opts.layout()), ""
		}
		return "", fmt.Sprintf("Streams group '%s' has no committed offsets.", name)
	}
}

// streamsStateNote is StateNote for a streams group, worded as
// kafka-streams-groups.sh words it.
func streamsStateNote(g *kafka.Group) string {
	switch g.State {
	case kafka.StateEmpty:
		return fmt.Sprintf("Streams group '%s' has no active members.", format.Sanitize(g.Name))
	case kafka.StateAssigning, kafka.StateReconciling:
		return fmt.Sprintf("Warning: Streams group '%s' is rebalancing.", format.Sanitize(g.Name))
	case kafka.StateNotReady:
		return fmt.Sprintf("Warning: Streams group '%s' is not ready: its topology is not configured yet (missing internal topics?).", format.Sanitize(g.Name))
	}
	return ""
}

// CannotDescribe is the refusal for a group of a type kgroups does not know:
// listed, but not described.
func CannotDescribe(g *kafka.Group) string {
	return fmt.Sprintf("kgroups cannot describe groups of type %s yet (group %s is %s)", format.Sanitize(string(g.Type)), format.Sanitize(strconv.Quote(g.Name)), format.Sanitize(g.State))
}

// The JSON additions of a streams group and its members. They are embedded
// pointers, so other groups' documents do not change.

type jsonStreamsGroup struct {
	Topology jsonTopology `json:"topology"`
}

type jsonTopology struct {
	Epoch         *int32            `json:"epoch"`
	Subtopologies []jsonSubtopology `json:"subtopologies"`
}

type jsonSubtopology struct {
	ID                      string              `json:"id"`
	SourceTopics            []string            `json:"sourceTopics"`
	RepartitionSourceTopics []jsonInternalTopic `json:"repartitionSourceTopics"`
	RepartitionSinkTopics   []string            `json:"repartitionSinkTopics"`
	StateChangelogTopics    []jsonInternalTopic `json:"stateChangelogTopics"`
}

type jsonInternalTopic struct {
	Topic             string `json:"topic"`
	Partitions        *int32 `json:"partitions"`
	ReplicationFactor *int16 `json:"replicationFactor"`
}

type jsonStreamsMember struct {
	ProcessID     string          `json:"processId"`
	UserEndpoint  *string         `json:"userEndpoint"`
	ClientTags    []jsonClientTag `json:"clientTags"`
	TopologyEpoch int32           `json:"topologyEpoch"`
	IsClassic     bool            `json:"isClassic"`
	Tasks         jsonTasks       `json:"tasks"`
	TargetTasks   jsonTasks       `json:"targetTasks"`
}

type jsonClientTag struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

type jsonTasks struct {
	Active  []jsonTaskIDs `json:"active"`
	Standby []jsonTaskIDs `json:"standby"`
	Warmup  []jsonTaskIDs `json:"warmup"`
}

type jsonTaskIDs struct {
	Subtopology string  `json:"subtopology"`
	Partitions  []int32 `json:"partitions"`
}

// addStreamsJSON adds a streams group's topology and its members' tasks to
// its document.
func addStreamsJSON(j *jsonGroup, g *kafka.Group) {
	si := g.Streams
	if si == nil {
		return
	}
	sg := &jsonStreamsGroup{Topology: jsonTopology{Subtopologies: make([]jsonSubtopology, 0, len(si.Subtopologies))}}
	if si.TopologyEpoch >= 0 {
		sg.Topology.Epoch = ptr(si.TopologyEpoch)
	}
	for _, st := range si.Subtopologies {
		sg.Topology.Subtopologies = append(sg.Topology.Subtopologies, jsonSubtopology{
			ID:                      st.ID,
			SourceTopics:            append(make([]string, 0, len(st.SourceTopics)), st.SourceTopics...),
			RepartitionSourceTopics: jsonInternal(st.RepartitionSourceTopics),
			RepartitionSinkTopics:   append(make([]string, 0, len(st.RepartitionSinkTopics)), st.RepartitionSinkTopics...),
			StateChangelogTopics:    jsonInternal(st.StateChangelogTopics),
		})
	}
	j.jsonStreamsGroup = sg
	byID := make(map[string]*kafka.StreamsMember, len(si.Members))
	for i := range si.Members {
		byID[si.Members[i].MemberID] = &si.Members[i]
	}
	for i := range j.Members {
		m, ok := byID[j.Members[i].MemberID]
		if !ok {
			continue
		}
		sm := &jsonStreamsMember{
			ProcessID:     m.ProcessID,
			UserEndpoint:  nonEmpty(m.UserEndpoint),
			ClientTags:    make([]jsonClientTag, 0, len(m.ClientTags)),
			TopologyEpoch: m.TopologyEpoch,
			IsClassic:     m.IsClassic,
			Tasks:         toJSONTasks(m.Tasks),
			TargetTasks:   toJSONTasks(m.TargetTasks),
		}
		for _, t := range m.ClientTags {
			sm.ClientTags = append(sm.ClientTags, jsonClientTag(t))
		}
		j.Members[i].jsonStreamsMember = sm
	}
}

func jsonInternal(ts []kafka.InternalTopic) []jsonInternalTopic {
	out := make([]jsonInternalTopic, 0, len(ts))
	for _, t := range ts {
		jt := jsonInternalTopic{Topic: t.Topic}
		if t.Partitions > 0 {
			jt.Partitions = ptr(t.Partitions)
		}
		if t.ReplicationFactor > 0 {
			jt.ReplicationFactor = ptr(t.ReplicationFactor)
		}
		out = append(out, jt)
	}
	return out
}

func toJSONTasks(t kafka.StreamsTasks) jsonTasks {
	conv := func(ts []kafka.TaskIDs) []jsonTaskIDs {
		out := make([]jsonTaskIDs, 0, len(ts))
		for _, x := range ts {
			out = append(out, jsonTaskIDs{Subtopology: x.Subtopology, Partitions: append(make([]int32, 0, len(x.Partitions)), x.Partitions...)})
		}
		return out
	}
	return jsonTasks{Active: conv(t.Active), Standby: conv(t.Standby), Warmup: conv(t.Warmup)}
}
