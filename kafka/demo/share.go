package demo

import (
	"context"
	"fmt"

	"github.com/twmb/franz-go/pkg/kgo"
)

// shareGroup is the demo's share group (KIP-932, Queues for Kafka): two
// members consume the jobs topic together and acknowledge every record
// they are given (kgo accepts a poll's records on the next poll), so its
// start offsets follow the steady producer.
const shareGroup = "jobs-share"

// shareMembers is how many members jobs-share has.
const shareMembers = 2

// jobsTopic is the share group's topic; it is in topics, so it is seeded
// and written at a steady rate like the others.
var jobsTopic = topic{name: "jobs", partitions: 3, perSecond: 3, keyPrefix: "job", keys: 30}

// startShare makes jobs-share start at the log start (without
// share.auto.offset.reset=earliest a new share group starts at the log
// end) and starts its members.
func (c *Cluster) startShare(wctx context.Context) error {
	c.fake.SetGroupConfigs(shareGroup, map[string]string{"share.auto.offset.reset": "earliest"})
	for i := range shareMembers {
		id := fmt.Sprintf("%s-%d", shareGroup, i+1)
		cl, err := kgo.NewClient(
			kgo.SeedBrokers(c.addrs...),
			kgo.ClientID(id),
			kgo.ShareGroup(shareGroup),
			kgo.ConsumeTopics(jobsTopic.name),
		)
		if err != nil {
			return fmt.Errorf("create member %s of share group %s: %w", id, shareGroup, err)
		}
		m := member{group: shareGroup, clientID: id, mode: keepUp}
		c.wg.Go(func() {
			defer cl.Close() // acknowledges what it holds and leaves the group
			c.consume(wctx, cl, m)
		})
	}
	return nil
}
