package kafka_test

import (
	"context"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
)

// TestPollOffsetFetchErrors has the brokers answer OffsetFetch with a
// group the caller may not read, and a group one of whose partitions
// cannot be answered yet: the first group carries "fetch offsets: ..."
// and no rows, the second its good row and the failed one with its own
// error; the poll itself succeeds.
func TestPollOffsetFetchErrors(t *testing.T) {
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "t", 2)
	produceCounts(t, c, "t", 2, 5) // log ends 5 and 6
	c.Commit(t, "denied", map[string]map[int32]int64{"t": {0: 1}})
	c.Commit(t, "partial", map[string]map[int32]int64{"t": {0: 1, 1: 3}})
	// OffsetFetch v10 names topics by ID.
	md, err := c.Admin().ListTopics(context.Background(), "t")
	if err != nil {
		t.Fatal(err)
	}
	topicID := md["t"].ID
	c.ControlKey(int16(kmsg.OffsetFetch), func(kreq kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		req := kreq.(*kmsg.OffsetFetchRequest)
		resp := req.ResponseKind().(*kmsg.OffsetFetchResponse)
		for _, rg := range req.Groups {
			g := kmsg.NewOffsetFetchResponseGroup()
			g.Group = rg.Group
			switch rg.Group {
			case "denied":
				g.ErrorCode = kerr.GroupAuthorizationFailed.Code
			case "partial":
				tp := kmsg.NewOffsetFetchResponseGroupTopic()
				tp.Topic, tp.TopicID = "t", topicID
				p1 := kmsg.NewOffsetFetchResponseGroupTopicPartition()
				p1.Partition, p1.Offset = 1, 3
				p0 := kmsg.NewOffsetFetchResponseGroupTopicPartition()
				p0.Partition, p0.Offset, p0.ErrorCode = 0, -1, kerr.UnstableOffsetCommit.Code
				tp.Partitions = []kmsg.OffsetFetchResponseGroupTopicPartition{p1, p0}
				g.Topics = append(g.Topics, tp)
			}
			resp.Groups = append(resp.Groups, g)
		}
		return resp, nil, true
	})
	s, err := c.Client(t).Poll(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	denied, ok := s.Group("denied")
	if !ok || denied.Err == nil || !strings.Contains(denied.Err.Error(), "fetch offsets: "+kerr.GroupAuthorizationFailed.Error()) || len(denied.Partitions) != 0 {
		t.Fatalf("denied: %+v", denied)
	}
	partial, ok := s.Group("partial")
	if !ok || partial.Err != nil || len(partial.Partitions) != 2 {
		t.Fatalf("partial: %+v", partial)
	}
	p0, p1 := partial.Partitions[0], partial.Partitions[1]
	if p0.Partition != 0 || p0.Err == nil || !strings.HasPrefix(p0.Err.Error(), "fetch offset: "+kerr.UnstableOffsetCommit.Error()) || p0.Committed != kafka.NoOffset || p0.Lag != kafka.NoOffset {
		t.Errorf("t/0: %+v", p0)
	}
	if p1.Partition != 1 || p1.Err != nil || p1.Committed != 3 || p1.LogEnd != 6 || p1.Lag != 3 {
		t.Errorf("t/1: %+v (want committed 3, end 6, lag 3)", p1)
	}
}
