package kafka

import (
	"context"
	"errors"
	"fmt"
	"sort"
)

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
				m.Assignment = append(m.Assignment, TopicPartitions{Topic: t, Partitions: parts})
			}
			m.Assignment = MergeAssignment(m.Assignment)
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
			r.SetBrokerLag(so.Lag)
		}
	}
}

// shareLag sets a share partition's lag: the broker's when it sent one
// (v1+), else the log end minus the start offset.
func (gb *groupBuilder) shareLag(r *PartitionOffsets) {
	if bl := r.BrokerLag(); bl >= 0 && r.Committed >= 0 {
		r.Lag = bl
		return
	}
	if r.Committed >= 0 && r.LogEnd >= 0 {
		r.Lag = max(r.LogEnd-r.Committed, 0)
		gb.g.Share.LagSource = ShareLagLogEnd
	}
}
