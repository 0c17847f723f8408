package kafkatest

import (
	"context"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
)

// ShareEarliest makes a share group start at the log start rather than the
// log end (share.auto.offset.reset=earliest). Call it before the first
// member joins.
func (c *Cluster) ShareEarliest(group string) {
	c.SetGroupConfigs(group, map[string]string{"share.auto.offset.reset": "earliest"})
}

// JoinShare starts a real share-group member (KIP-932) of group consuming
// topics. It polls in the background; kgo accepts every record it delivered
// on the next poll, so the group's start offset advances as it consumes.
// StopPolling stops it acknowledging while it stays in the group.
func (c *Cluster) JoinShare(t testing.TB, group string, topics []string, opts ...kgo.Opt) *Member {
	t.Helper()
	all := append([]kgo.Opt{
		kgo.SeedBrokers(c.Addrs...),
		kgo.ShareGroup(group),
		kgo.ConsumeTopics(topics...),
		kgo.ClientID(group + "-member"),
	}, opts...)
	cl, err := kgo.NewClient(all...)
	if err != nil {
		t.Fatalf("share member of %s: %v", group, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &Member{Client: cl, Group: group, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(m.done)
		for ctx.Err() == nil {
			cl.PollFetches(ctx)
		}
	}()
	t.Cleanup(m.Close)
	return m
}

// StopPolling stops the member's poll loop but keeps it in its group: a
// share member then acknowledges nothing more, and the records it holds
// stay acquired until their lock times out.
func (m *Member) StopPolling() {
	m.cancel()
	<-m.done
}
