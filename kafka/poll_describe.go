package kafka

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// describeClassic describes classic groups with DescribeGroups, batched
// per coordinator.
func (c *Client) describeClassic(ctx context.Context, names []string, builders map[string]*groupBuilder) {
	pctx, cancel := c.phase(ctx)
	described, err := c.adm.DescribeGroups(pctx, names...)
	cancel()
	for _, name := range names {
		gb := builders[name]
		dg, ok := described[name]
		if !ok {
			if err == nil {
				err = errors.New("no response")
			}
			gb.addErr(fmt.Errorf("describe group: %w", err))
			continue
		}
		if dg.Err != nil {
			gb.addErr(fmt.Errorf("describe group: %w", dg.Err))
			continue
		}
		in := gb.in
		gb.g.State = in.get(dg.State)
		gb.g.ProtocolType = in.get(dg.ProtocolType)
		gb.g.Assignor = in.get(dg.Protocol)
		if dg.Coordinator.NodeID >= 0 && dg.Coordinator.Host != "" {
			gb.g.Coordinator = Broker{ID: dg.Coordinator.NodeID, Host: dg.Coordinator.Host, Port: dg.Coordinator.Port}
			if dg.Coordinator.Rack != nil {
				gb.g.Coordinator.Rack = *dg.Coordinator.Rack
			}
		}
		for _, dm := range dg.Members {
			m := Member{MemberID: in.get(dm.MemberID), ClientID: in.get(dm.ClientID), Host: in.get(dm.ClientHost)}
			if dm.InstanceID != nil {
				m.InstanceID = *dm.InstanceID
			}
			if cm, ok := dm.Join.AsConsumer(); ok {
				m.Subscribed = internAll(cm.Topics, in)
				sort.Strings(m.Subscribed)
				if cm.Rack != nil {
					m.Rack = *cm.Rack
				}
				m.JoinMetadata = cm.AppendTo(nil)
			}
			if ca, ok := dm.Assigned.AsConsumer(); ok {
				for _, t := range ca.Topics {
					m.Assignment = append(m.Assignment, TopicPartitions{Topic: in.get(t.Topic), Partitions: t.Partitions})
				}
				m.Assignment = MergeAssignment(m.Assignment)
			}
			gb.g.Members = append(gb.g.Members, m)
		}
		sort.Slice(gb.g.Members, func(i, j int) bool { return gb.g.Members[i].MemberID < gb.g.Members[j].MemberID })
	}
}

// describeConsumer describes KIP-848 groups with ConsumerGroupDescribe,
// sharded to each group's coordinator. It uses the raw request rather than
// kadm's so that topic IDs can be resolved to names when a broker sends only
// the ID.
func (c *Client) describeConsumer(ctx context.Context, names []string, builders map[string]*groupBuilder, brokers map[int32]Broker, topicNames map[kadm.TopicID]string) {
	req := kmsg.NewPtrConsumerGroupDescribeRequest()
	req.Groups = names
	pctx, cancel := c.phase(ctx)
	shards := c.cl.RequestSharded(pctx, req)
	cancel()
	seen := make(map[string]bool, len(names))
	for _, shard := range shards {
		sreq, _ := shard.Req.(*kmsg.ConsumerGroupDescribeRequest)
		if shard.Err != nil {
			if sreq != nil {
				for _, name := range sreq.Groups {
					if gb, ok := builders[name]; ok && !seen[name] {
						seen[name] = true
						gb.addErr(fmt.Errorf("describe consumer group: %w", shard.Err))
					}
				}
			}
			continue
		}
		resp := shard.Resp.(*kmsg.ConsumerGroupDescribeResponse)
		coord := brokerOrID(brokers, shard.Meta.NodeID)
		if shard.Meta.Host != "" {
			coord = Broker{ID: shard.Meta.NodeID, Host: shard.Meta.Host, Port: shard.Meta.Port}
		}
		for _, rg := range resp.Groups {
			gb, ok := builders[rg.Group]
			if !ok {
				continue
			}
			seen[rg.Group] = true
			if err := kerr.ErrorForCode(rg.ErrorCode); err != nil {
				gb.addErr(fmt.Errorf("describe consumer group: %w", err))
				continue
			}
			in := gb.in
			gb.g.State = in.get(rg.State)
			gb.g.ProtocolType = "consumer"
			gb.g.Assignor = in.get(rg.AssignorName)
			gb.g.GroupEpoch = rg.Epoch
			gb.g.AssignmentEpoch = rg.AssignmentEpoch
			gb.g.Coordinator = coord
			for _, rm := range rg.Members {
				m := Member{
					MemberID:    in.get(rm.MemberID),
					ClientID:    in.get(rm.ClientID),
					Host:        in.get(rm.ClientHost),
					MemberEpoch: rm.MemberEpoch,
					Subscribed:  internAll(rm.SubscribedTopics, in),
					Assignment:  resolveAssignment(rm.Assignment.TopicPartitions, topicNames, in),
					Target:      resolveAssignment(rm.TargetAssignment.TopicPartitions, topicNames, in),
				}
				sort.Strings(m.Subscribed)
				if rm.InstanceID != nil {
					m.InstanceID = *rm.InstanceID
				}
				if rm.RackID != nil {
					m.Rack = *rm.RackID
				}
				if rm.SubscribedTopicRegex != nil {
					m.SubscribedRegex = *rm.SubscribedTopicRegex
				}
				gb.g.Members = append(gb.g.Members, m)
			}
			sort.Slice(gb.g.Members, func(i, j int) bool { return gb.g.Members[i].MemberID < gb.g.Members[j].MemberID })
		}
	}
	for _, name := range names {
		if !seen[name] {
			builders[name].addErr(errors.New("describe consumer group: no response"))
		}
	}
}

func resolveAssignment(tps []kmsg.AssignmentTopicPartition, topicNames map[kadm.TopicID]string, in *interner) []TopicPartitions {
	var out []TopicPartitions
	for _, tp := range tps {
		name := in.get(tp.Topic)
		if name == "" {
			name = topicNames[kadm.TopicID(tp.TopicID)]
		}
		if name == "" {
			name = kadm.TopicID(tp.TopicID).String()
		}
		out = append(out, TopicPartitions{Topic: name, Partitions: tp.Partitions})
	}
	return MergeAssignment(out)
}

func sortedInt32s(ps []int32) []int32 {
	out := append([]int32(nil), ps...)
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
