package kafka

import "fmt"

// GroupType says which rebalance protocol a group runs. Classic groups are
// described with DescribeGroups; consumer-protocol (KIP-848) groups only with
// ConsumerGroupDescribe, and classic describe reports them as Dead; share
// groups with ShareGroupDescribe and streams groups with
// StreamsGroupDescribe. A type kgroups does not know keeps the name
// ListGroups gave it.
type GroupType string

const (
	// TypeClassic is the JoinGroup/SyncGroup protocol with client-side assignors.
	TypeClassic GroupType = "classic"
	// TypeConsumer is the KIP-848 consumer protocol with server-side assignors.
	TypeConsumer GroupType = "consumer"
	// TypeShare is a KIP-932 share group (Queues for Kafka).
	TypeShare GroupType = "share"
	// TypeStreams is a KIP-1071 streams group.
	TypeStreams GroupType = "streams"
)

// Action is something kgroups can do to a group. Not every group type
// supports every action; GroupType.Check says which.
type Action string

const (
	// ActionRebalance removes members so that the coordinator rebalances.
	ActionRebalance Action = "rebalance"
	// ActionSimulate predicts a classic group's next assignment.
	ActionSimulate Action = "simulate"
	// ActionReset moves the group's offsets.
	ActionReset Action = "reset"
	// ActionDeleteOffsets deletes the group's offsets for some topics.
	ActionDeleteOffsets Action = "delete-offsets"
	// ActionDelete deletes the group.
	ActionDelete Action = "delete"
)

// unsupported lists, for each known group type, the actions it refuses and
// why; an action listed with no reason is answered another way, not
// refused. A type absent from it is one kgroups does not know, which
// supports no action.
var unsupported = map[GroupType]map[Action]string{
	TypeClassic: {},
	TypeConsumer: {
		ActionSimulate: "", // answered by the server assignor's targets, not refused
	},
	TypeShare: {
		ActionRebalance: "the broker assigns a share group's partitions to all its members at once and Kafka has no request to remove a share-group member",
		ActionSimulate:  "the broker assigns a share group's partitions; there is no client assignor to simulate",
	},
	TypeStreams: {
		ActionRebalance: "streams groups are rebalanced by the streams assignor on the broker, not by removing members",
		ActionSimulate:  "the broker assigns a streams group's tasks; there is no client assignor to simulate",
	},
}

// UnsupportedError says that a group's type does not support an action.
type UnsupportedError struct {
	Group  string
	Type   GroupType
	Action Action
	// Why explains the refusal; empty for a type kgroups does not know.
	Why string
}

func (e *UnsupportedError) Error() string {
	if e.Why == "" {
		return fmt.Sprintf("group %q is a %s group, a type kgroups does not know: %s is for classic and consumer groups; nothing was sent", e.Group, e.Type, e.Action)
	}
	return fmt.Sprintf("group %q is a %s group: %s is not available for %s groups (%s); nothing was sent", e.Group, e.Type, e.Action, e.Type, e.Why)
}

// Known reports whether kgroups knows how to describe groups of this type.
func (t GroupType) Known() bool {
	_, ok := unsupported[t]
	return ok
}

// Supports reports whether groups of this type support the action.
func (t GroupType) Supports(a Action) bool {
	reasons, ok := unsupported[t]
	if !ok {
		return false
	}
	why, refused := reasons[a]
	return !refused || why == ""
}

// Check returns an *UnsupportedError naming the group and its type when the
// type does not support the action, and nil when it does. Commands and
// screens call it before they send anything.
func (t GroupType) Check(group string, a Action) error {
	if t.Supports(a) {
		return nil
	}
	return &UnsupportedError{Group: group, Type: t, Action: a, Why: unsupported[t][a]}
}
