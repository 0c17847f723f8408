package kafka

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// describeClassic describes classic groups with DescribeGroups, batched
// per coordinator. It sends the raw request rather than kadm's, which
// decodes each member's join metadata into a struct: the poll keeps the
// bytes as the member sent them (Member.JoinMetadata), since how a client
// lays them out (kafka-go's version 1 cut short, null or empty user data)
// is what tells one client library from another.
func (c *Client) describeClassic(ctx context.Context, names []string, ix groupIndex) {
	req := kmsg.NewPtrDescribeGroupsRequest()
	req.Groups = names
	pctx, cancel := c.phase(ctx)
	shards := c.cl.RequestSharded(pctx, req)
	cancel()
	// A group's builder says whether its describe answered (described):
	// no map of the groups seen.
	for _, shard := range shards {
		if shard.Err != nil {
			if sreq, ok := shard.Req.(*kmsg.DescribeGroupsRequest); ok {
				for _, name := range sreq.Groups {
					if gb, ok := ix.byName[name]; ok && !gb.described {
						gb.described = true
						gb.addErr(fmt.Errorf("describe group: %w", shard.Err))
					}
				}
			}
			continue
		}
		resp := shard.Resp.(*kmsg.DescribeGroupsResponse)
		w := ix.walk() // the groups come in the order asked
		for i := range resp.Groups {
			rg := &resp.Groups[i]
			gb, ok := w.find(rg.Group)
			if !ok || gb.described {
				continue
			}
			gb.described = true
			if err := codeErr(rg.ErrorCode); err != nil {
				gb.addErr(fmt.Errorf("describe group: %w", err))
				continue
			}
			describedClassic(gb, rg, shard.Meta)
		}
	}
	w := ix.walk()
	for _, name := range names {
		if gb, _ := w.find(name); !gb.described {
			gb.addErr(errors.New("describe group: no response"))
		}
	}
}

// describedClassic fills a classic group from its DescribeGroups answer.
func describedClassic(gb *groupBuilder, rg *kmsg.DescribeGroupsResponseGroup, coord kgo.BrokerMetadata) {
	in := gb.in
	gb.g.State = in.get(rg.State)
	gb.g.ProtocolType = in.get(rg.ProtocolType)
	gb.g.Assignor = in.get(rg.Protocol)
	if coord.NodeID >= 0 && coord.Host != "" {
		gb.g.Coordinator = Broker{ID: coord.NodeID, Host: coord.Host, Port: coord.Port}
		if coord.Rack != nil {
			gb.g.Coordinator.Rack = *coord.Rack
		}
	}
	for _, dm := range rg.Members {
		m := Member{MemberID: in.get(dm.MemberID), ClientID: in.get(dm.ClientID), Host: in.get(dm.ClientHost)}
		if dm.InstanceID != nil {
			m.InstanceID = *dm.InstanceID
		}
		if gb.g.ProtocolType == "consumer" {
			// A decoding error leaves what was read before it, as kadm
			// would; the bytes are kept as sent (a copy, so that the
			// snapshot does not hold the whole response).
			cm, _, _ := ReadMemberMetadata(dm.ProtocolMetadata)
			m.Subscribed = internAll(cm.Topics, in)
			sort.Strings(m.Subscribed)
			if cm.Rack != nil {
				m.Rack = *cm.Rack
			}
			if len(dm.ProtocolMetadata) > 0 {
				m.JoinMetadata = slices.Clone(dm.ProtocolMetadata)
			}
			ca := kmsg.NewConsumerMemberAssignment()
			_ = ca.ReadFrom(dm.MemberAssignment)
			for _, t := range ca.Topics {
				m.Assignment = append(m.Assignment, TopicPartitions{Topic: in.get(t.Topic), Partitions: t.Partitions})
			}
			m.Assignment = MergeAssignment(m.Assignment)
		}
		gb.g.Members = append(gb.g.Members, m)
	}
	sort.Slice(gb.g.Members, func(i, j int) bool { return gb.g.Members[i].MemberID < gb.g.Members[j].MemberID })
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
	for _, shard := range shards {
		sreq, _ := shard.Req.(*kmsg.ConsumerGroupDescribeRequest)
		if shard.Err != nil {
			if sreq != nil {
				for _, name := range sreq.Groups {
					if gb, ok := builders[name]; ok && !gb.described {
						gb.described = true
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
			gb.described = true
			if err := codeErr(rg.ErrorCode); err != nil {
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
		if gb := builders[name]; !gb.described {
			gb.addErr(errors.New("describe consumer group: no response"))
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
