package kafka

// Share-group lag sources: where a share partition's lag came from.
const (
	// ShareLagBroker is the lag the coordinator reports in
	// DescribeShareGroupOffsets v1+ (KIP-1226).
	ShareLagBroker = "broker"
	// ShareLagLogEnd is the log end minus the start offset, computed by
	// kgroups when the broker only speaks DescribeShareGroupOffsets v0.
	ShareLagLogEnd = "log-end"
)

// ShareInfo is what a share group (KIP-932) has beyond other groups.
//
// A share group's progress on a partition is its share-partition start
// offset (SPSO): every record before it is acknowledged or archived. kgroups
// keeps it in PartitionOffsets.Committed, so that one set of lag rules
// judges consumer and share groups alike; output names it START-OFFSET
// (startOffset in JSON, where committedOffset is null).
type ShareInfo struct {
	// LagSource is ShareLagBroker when every partition's lag came from the
	// broker, ShareLagLogEnd when kgroups computed some from the log end.
	LagSource string
}

// IsShare reports whether the group is a share group.
func (g *Group) IsShare() bool { return g.Type == TypeShare }
