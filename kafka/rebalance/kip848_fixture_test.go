package rebalance

import (
	"encoding/base64"
	"fmt"

	"github.com/kgroups/kgroups/kafka"
)

// kip848TopicIDs decodes a recording's topic ids (base64, as kadm prints
// them); nil when none were recorded.
func kip848TopicIDs(in map[string]string) (map[string]kafka.TopicID, error) {
	if len(in) == 0 {
		return nil, nil
	}
	out := make(map[string]kafka.TopicID, len(in))
	for name, s := range in {
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil || len(b) != 16 {
			return nil, fmt.Errorf("topic %s: id %q is not 16 bytes of base64", name, s)
		}
		out[name] = kafka.TopicID(b)
	}
	return out, nil
}

// kip848Snapshot is a KIP-848 group as ConsumerGroupDescribe reported it:
// the form of the fixtures in testdata/java-kip848 (before_group and
// after_group).
type kip848Snapshot struct {
	State           string         `json:"state"`
	Epoch           int32          `json:"group_epoch"`
	AssignmentEpoch int32          `json:"assignment_epoch"`
	Assignor        string         `json:"assignor"`
	Members         []kip848Member `json:"members"`
}

// kip848Member is one member of a kip848Snapshot, sorted by member id.
type kip848Member struct {
	MemberID    string             `json:"member_id"`
	InstanceID  string             `json:"instance_id,omitempty"`
	ClientID    string             `json:"client_id"`
	Host        string             `json:"host"`
	MemberEpoch int32              `json:"member_epoch"`
	Subscribed  []string           `json:"subscribed"`
	Assigned    map[string][]int32 `json:"assigned"`
	Target      map[string][]int32 `json:"target"`
	// TargetOrder is the target as ConsumerGroupDescribe listed it: the
	// broker's hash map order of topics and of each topic's partitions
	// (recorded since the fixtures carry topic ids).
	TargetOrder []kip848Ordered `json:"target_order,omitempty"`
}

// kip848Ordered is one topic of a target in the broker's order.
type kip848Ordered struct {
	Topic      string  `json:"topic"`
	Partitions []int32 `json:"partitions"`
}
