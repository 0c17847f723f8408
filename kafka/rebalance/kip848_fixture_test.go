package rebalance

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
}
