package kafka

import (
	"context"

	"github.com/twmb/franz-go/pkg/kadm"
)

// listStable lists the last stable offsets of topics' partitions with
// ListOffsets at isolation level read_committed, one request per partition
// leader, like the log bounds. A failure leaves the partitions without a
// stable offset: the poll does not fail for it, since lag and verdicts do
// not depend on it.
func (c *Client) listStable(ctx context.Context, topics []string) kadm.ListedOffsets {
	los, _ := c.adm.ListCommittedOffsets(ctx, topics...)
	return los
}

// StableLag is a read_committed consumer's backlog: the records from the
// commit up to the last stable offset, or NoOffset when the stable offset
// does not trail the log end or nothing is committed.
func (p *PartitionOffsets) StableLag() int64 {
	if !p.StableTrails || !p.HasCommit() {
		return NoOffset
	}
	return max(p.LastStable-p.Committed, 0)
}
