package kafka

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"
)

// readMetadata is the poll's first request: the metadata of every broker
// and topic. Its failure is the poll's: no broker answered.
func (c *Client) readMetadata(ctx context.Context) (kadm.Metadata, error) {
	pctx, cancel := c.phase(ctx)
	meta, err := c.adm.Metadata(pctx)
	cancel()
	if err != nil {
		return kadm.Metadata{}, c.unreachable(err)
	}
	return meta, nil
}

// setMetadata puts the metadata into the snapshot (its brokers sorted by
// id, the partition counts of __consumer_offsets and of every topic) and
// into the poll's maps: brokers by id and topic names by id. It returns
// each topic name mapped to the poll's copy of it, for the offset fetch,
// which reads it while the describes intern theirs.
func (s *Snapshot) setMetadata(meta kadm.Metadata, in *interner, brokers map[int32]Broker, topicNames map[kadm.TopicID]string) map[string]string {
	for _, b := range meta.Brokers {
		br := Broker{ID: b.NodeID, Host: b.Host, Port: b.Port}
		if b.Rack != nil {
			br.Rack = *b.Rack
		}
		brokers[b.NodeID] = br
		s.Brokers = append(s.Brokers, br)
	}
	sort.Slice(s.Brokers, func(i, j int) bool { return s.Brokers[i].ID < s.Brokers[j].ID })
	s.OffsetsTopicPartitions = DefaultOffsetsTopicPartitions
	if td, ok := meta.Topics[offsetsTopic]; ok && td.Err == nil && len(td.Partitions) > 0 {
		s.OffsetsTopicPartitions = int32(len(td.Partitions))
	}
	topics := make(map[string]string, len(meta.Topics))
	s.PartitionCounts = make(map[string]int32, len(meta.Topics))
	s.ClusterID = meta.Cluster
	for name, td := range meta.Topics {
		name = in.get(name)
		topicNames[td.ID] = name
		topics[name] = name
		if td.Err == nil {
			s.PartitionCounts[name] = int32(len(td.Partitions))
		}
		if td.ID != (kadm.TopicID{}) {
			if s.TopicIDs == nil {
				s.TopicIDs = make(map[string]TopicID, len(meta.Topics))
			}
			s.TopicIDs[name] = TopicID(td.ID)
		}
	}
	return topics
}

// unreachable turns a failure of the first request into an error that names
// the brokers tried.
func (c *Client) unreachable(err error) error {
	return fmt.Errorf("cannot read cluster metadata within %s (tried %s): %w", c.timeout, strings.Join(c.brokers, ", "), err)
}

func brokerOrID(brokers map[int32]Broker, id int32) Broker {
	if b, ok := brokers[id]; ok {
		return b
	}
	return Broker{ID: id}
}
