package ui

// ShowPartitionMsg asks the group screen of Group to show the Partitions
// tab with the cursor on Topic/Partition (a Diagnosis finding's link).
type ShowPartitionMsg struct {
	Group, Topic string
	Partition    int32
}

// ShowMemberMsg asks the group screen of Group to show the Members tab
// with the cursor on MemberID.
type ShowMemberMsg struct {
	Group, MemberID string
}
