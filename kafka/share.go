package kafka

import (
	"context"
	"errors"
	"fmt"
	"sort"
)

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

// describeShare describes share groups with ShareGroupDescribe and reads
// their start offsets with DescribeShareGroupOffsets, each batched per
// coordinator.
func (c *Client) describeShare(ctx context.Context, names []string, builders map[string]*groupBuilder) {
	pctx, cancel := c.phase(ctx)
	described, err := c.adm.DescribeShareGroups(pctx, names...)
	cancel()
	for _, name := range names {
		gb := builders[name]
		gb.g.Share = &ShareInfo{LagSource: ShareLagBroker}
		dg, ok := described[name]
		if !ok {
			derr := err
			if derr == nil {
				derr = errors.New("no response")
			}
			gb.addErr(fmt.Errorf("describe share group: %w", derr))
			continue
		}
		if dg.Err != nil {
			gb.addErr(fmt.Errorf("describe share group: %w", dg.Err))
			continue
		}
		gb.g.State = dg.GroupState
		gb.g.Assignor = dg.Assignor
		gb.g.GroupEpoch = dg.GroupEpoch
		gb.g.AssignmentEpoch = dg.AssignmentEpoch
		if dg.Coordinator.NodeID >= 0 && dg.Coordinator.Host != "" {
			gb.g.Coordinator = Broker{ID: dg.Coordinator.NodeID, Host: dg.Coordinator.Host, Port: dg.Coordinator.Port}
			if dg.Coordinator.Rack != nil {
				gb.g.Coordinator.Rack = *dg.Coordinator.Rack
			}
		}
		for _, dm := range dg.Members {
			m := Member{
				MemberID:    dm.MemberID,
				ClientID:    dm.ClientID,
				Host:        dm.ClientHost,
				MemberEpoch: dm.MemberEpoch,
				Subscribed:  append([]string(nil), dm.SubscribedTopicNames...),
			}
			if dm.RackID != nil {
				m.Rack = *dm.RackID
			}
			sort.Strings(m.Subscribed)
			for t, ps := range dm.Assignment {
				parts := make([]int32, 0, len(ps))
				for p := range ps {
					parts = append(parts, p)
				}
				m.Assignment = append(m.Assignment, TopicPartitions{Topic: t, Partitions: sortedInt32s(parts)})
			}
			sortTopicPartitions(m.Assignment)
			gb.g.Members = append(gb.g.Members, m)
		}
		sort.Slice(gb.g.Members, func(i, j int) bool { return gb.g.Members[i].MemberID < gb.g.Members[j].MemberID })
	}

	pctx, cancel = c.phase(ctx)
	offsets, err := c.adm.DescribeShareGroupOffsets(pctx, names...)
	cancel()
	for _, name := range names {
		gb := builders[name]
		do, ok := offsets[name]
		if !ok {
			oerr := err
			if oerr == nil {
				oerr = errors.New("no response")
			}
			gb.addErr(fmt.Errorf("describe share group offsets: %w", oerr))
			continue
		}
		if do.Err != nil {
			gb.addErr(fmt.Errorf("describe share group offsets: %w", do.Err))
			continue
		}
		gb.shareOffsets = do.Offsets
	}
}

// shareRows fills the rows of a share group from its start offsets. It runs
// before the log bounds are joined; shareLag runs after.
func (gb *groupBuilder) shareRows(row func(string, int32) *PartitionOffsets) {
	for t, ps := range gb.shareOffsets {
		for p, so := range ps {
			r := row(t, p)
			if so.Err != nil {
				r.Err = fmt.Errorf("describe share offset: %w", so.Err)
				continue
			}
			if so.StartOffset >= 0 {
				r.Committed = so.StartOffset
				r.LeaderEpoch = so.LeaderEpoch
			}
			r.brokerLag = so.Lag
		}
	}
}

// shareLag sets a share partition's lag: the broker's when it sent one
// (v1+), else the log end minus the start offset.
func (gb *groupBuilder) shareLag(r *PartitionOffsets) {
	if r.brokerLag >= 0 && r.Committed >= 0 {
		r.Lag = r.brokerLag
		return
	}
	if r.Committed >= 0 && r.LogEnd >= 0 {
		r.Lag = max(r.LogEnd-r.Committed, 0)
		gb.g.Share.LagSource = ShareLagLogEnd
	}
}
