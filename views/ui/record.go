package ui

// OpenRecordMsg asks the root to open the record viewer on one record of
// a group's partition (the record a diagnosis finding names).
type OpenRecordMsg struct {
	Group, Topic string
	Partition    int32
	Offset       int64
}
