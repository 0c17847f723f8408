package main

import (
	"context"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/cmd/benchseed"
)

// cluster is the cluster the UI is measured against: in process, with a
// count of the polls it has served, or a real one (kc nil), whose polls
// are not counted.
type cluster struct {
	kc    *kfake.Cluster
	addrs []string
	polls *pollClock
}

// startCluster runs a three-broker kfake cluster and fills it as l says,
// or, given the brokers of a real cluster, seeds that one.
func startCluster(ctx context.Context, l benchseed.Layout, brokers []string) (*cluster, error) {
	if len(brokers) > 0 {
		if err := benchseed.FillReal(ctx, brokers, l); err != nil {
			return nil, err
		}
		return &cluster{addrs: brokers, polls: &pollClock{}}, nil
	}
	kc, err := benchseed.StartKfake(ctx, l)
	if err != nil {
		return nil, err
	}
	c := &cluster{kc: kc, addrs: kc.ListenAddrs(), polls: &pollClock{}}
	// A poll sends ListGroups to every broker at its start: the first of
	// them after a quiet moment starts a poll.
	kc.ControlKey(int16(kmsg.ListGroups), func(kmsg.Request) (kmsg.Response, error, bool) {
		c.polls.seen(time.Now())
		return nil, nil, false
	})
	return c, nil
}

func (c *cluster) close() {
	if c.kc != nil {
		c.kc.Close()
	}
}

// real reports whether the cluster is a real one, outside this process.
func (c *cluster) real() bool { return c.kc == nil }

// pollClock records when each poll of the cluster started.
type pollClock struct {
	mu     sync.Mutex
	starts []time.Time
	last   time.Time
}

// quiet is the gap after which a ListGroups belongs to a new poll.
const quiet = 300 * time.Millisecond

func (p *pollClock) seen(t time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.last.IsZero() || t.Sub(p.last) > quiet {
		p.starts = append(p.starts, t)
	}
	p.last = t
}

// since returns the starts of the polls from t on.
func (p *pollClock) since(t time.Time) []time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []time.Time
	for _, s := range p.starts {
		if !s.Before(t) {
			out = append(out, s)
		}
	}
	return out
}
