// Package demo runs a self-contained Kafka-protocol cluster with a live
// consumer-group workload, so that kgroups can be tried, shown and tested end
// to end without a real Kafka. Everything runs in-process: three brokers of
// franz-go's kfake on loopback, and real kgo producers and group members.
//
// # Topics
//
// Each topic is seeded with 10 records per partition before the workload
// starts, then written with small keyed records at a steady rate (about 21
// records a second in total, so a laptop or a small jump host barely notices):
//
//	orders     6 partitions  5/s
//	payments   3 partitions  2/s
//	clicks    12 partitions  8/s
//	audit      2 partitions  1/s
//	inventory  4 partitions  2/s
//	search     6 partitions  3/s
//
// # Groups
//
// Every group below shows one thing a consumer-group tool must get right:
//
//	orders-range        range assignor, 2 members on orders
//	orders-roundrobin   roundrobin assignor, 3 members on orders and payments
//	clicks-sticky       sticky assignor, 2 members on clicks
//	clicks-cooperative  cooperative-sticky assignor, 3 members on clicks
//	payments-848        the KIP-848 consumer protocol (server-side "uniform"
//	                    assignor), 2 members on payments; classic
//	                    DescribeGroups does not see its members
//	inventory-static    static membership: 2 members with group.instance.id
//	                    inventory-static-1 and inventory-static-2
//	analytics-slow      1 member on clicks that processes about 2 records a
//	                    second, fewer than are written, so its lag grows
//	                    steadily
//	audit-nocommit      1 live member on audit that never commits: its lag is
//	                    unknown ("-"), not zero
//	billing-archive     Empty: an archived consumer, whose one member joins
//	                    and leaves at startup, then offsets committed once
//	                    (payments partition 0 at 10, partition 1 at 4,
//	                    partition 2 never)
//	search-churn        2 steady members on search plus one that joins and
//	                    leaves every 20-30 seconds, so the group keeps
//	                    rebalancing
//
// Classic members heartbeat every second with a 10s session timeout and, unless
// stated otherwise above, autocommit every second.
package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
)

// numBrokers is fixed: three brokers make coordinators and partition leaders
// spread over several nodes, which is what kgroups must handle.
const numBrokers = 3

// Options configures Start. The zero value is a cluster on random loopback
// ports with the default workload.
type Options struct {
	// Listen fixes the first broker's address as HOST:PORT (see ParseListen);
	// the other brokers take PORT+1 and PORT+2. Empty picks random ports on
	// 127.0.0.1, which is what tests want.
	Listen string

	// ChurnInterval is how long search-churn's coming-and-going member stays
	// in, and then out of, the group. Zero picks 20-30s at random each time.
	ChurnInterval time.Duration

	// Log receives workload errors that are not part of normal operation
	// (a produce or fetch that failed for a reason other than shutdown). nil
	// discards them: a TUI owning the terminal must not be written over.
	Log io.Writer
}

// Cluster is a running demo: the brokers plus the workload against them.
type Cluster struct {
	fake     *kfake.Cluster
	addrs    []string
	producer *kgo.Client
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	log      *logger
	close    sync.Once
}

// Start starts the brokers, seeds the topics, commits billing-archive's
// offsets and starts the producers and group members. ctx bounds the startup
// only: the workload runs until Close.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	if opts.ChurnInterval < 0 {
		return nil, fmt.Errorf("churn interval %v: must not be negative", opts.ChurnInterval)
	}
	kopts := []kfake.Opt{
		kfake.NumBrokers(numBrokers),
		kfake.BrokerConfigs(map[string]string{
			// KIP-848 members learn of assignments on heartbeats; the
			// broker default of 5s makes payments-848 slow to settle.
			"group.consumer.heartbeat.interval.ms": "1000",
			"group.share.heartbeat.interval.ms":    "1000",
		}),
	}
	for _, t := range topics {
		kopts = append(kopts, kfake.SeedTopics(t.partitions, t.name))
	}
	if opts.Listen != "" {
		host, port, err := ParseListen(opts.Listen)
		if err != nil {
			return nil, err
		}
		kopts = append(kopts,
			kfake.Ports(port, port+1, port+2),
			kfake.ListenFn(func(network, address string) (net.Listener, error) {
				// kfake always asks for 127.0.0.1; bind the loopback
				// host that was asked for instead.
				_, p, err := net.SplitHostPort(address)
				if err != nil {
					return nil, err
				}
				return net.Listen(network, net.JoinHostPort(host, p))
			}),
		)
	}
	fake, err := kfake.NewCluster(kopts...)
	if err != nil {
		if opts.Listen != "" {
			return nil, fmt.Errorf("start demo brokers on %s and the next two ports: %w", opts.Listen, err)
		}
		return nil, fmt.Errorf("start demo brokers: %w", err)
	}

	wctx, cancel := context.WithCancel(context.Background())
	c := &Cluster{
		fake:   fake,
		addrs:  fake.ListenAddrs(),
		cancel: cancel,
		log:    &logger{w: opts.Log},
	}
	if err := c.start(ctx, wctx, opts); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// start seeds the data and launches the workload goroutines. On error the
// caller closes c, which stops whatever was started.
func (c *Cluster) start(ctx, wctx context.Context, opts Options) error {
	if err := seed(ctx, c.addrs); err != nil {
		return err
	}
	producer, err := kgo.NewClient(
		kgo.SeedBrokers(c.addrs...),
		kgo.ClientID("demo-producer"),
		kgo.ProducerLinger(50*time.Millisecond),
	)
	if err != nil {
		return fmt.Errorf("create demo producer: %w", err)
	}
	c.producer = producer
	for _, t := range topics {
		c.wg.Go(func() { c.produce(wctx, t) })
	}

	for _, m := range members(c.addrs) {
		cl, err := kgo.NewClient(m.opts...)
		if err != nil {
			return fmt.Errorf("create member %s of group %s: %w", m.clientID, m.group, err)
		}
		c.wg.Go(func() {
			defer closeMember(cl)
			c.consume(wctx, cl, m)
		})
	}

	if err := c.startShare(wctx); err != nil {
		return err
	}

	churner := churnMember(c.addrs)
	c.wg.Go(func() { c.churn(wctx, churner, opts.ChurnInterval) })
	return nil
}

// stopGrace is how long Close lets members leave their groups politely
// before it closes the brokers under them.
const stopGrace = 5 * time.Second

// memberLeaveTimeout bounds how long a demo member waits for its LeaveGroup
// answer when the demo stops.
const memberLeaveTimeout = 2 * time.Second

// closeMember leaves the group with a bounded wait, then closes the client.
// kgo's Close waits for the LeaveGroup answer with no deadline, and a
// coordinator in the middle of a rebalance (common in the first seconds of
// the demo, or on a loaded machine) can hold that answer for the whole
// rebalance timeout; stopping the demo must not wait for that.
func closeMember(cl *kgo.Client) {
	ctx, cancel := context.WithTimeout(context.Background(), memberLeaveTimeout)
	_ = cl.LeaveGroupContext(ctx) // best effort: the demo is shutting down
	cancel()
	cl.Close()
}

// Addrs returns the brokers' host:port addresses, the bootstrap list for any
// Kafka client.
func (c *Cluster) Addrs() []string { return append([]string(nil), c.addrs...) }

// Close stops every producer and group member, waits for them to finish and
// then stops the brokers, releasing their ports. It is safe to call more than
// once.
func (c *Cluster) Close() {
	c.close.Do(func() {
		c.cancel()
		stopped := make(chan struct{})
		go func() {
			c.wg.Wait()
			close(stopped)
		}()
		if c.producer != nil {
			c.releaseStaticMembers(stopped)
			c.producer.Close()
		} else {
			select {
			case <-stopped:
			case <-time.After(stopGrace):
			}
		}
		// Closing the brokers ends any request a member is still
		// waiting on, so every member stops even if its coordinator
		// was holding a JoinGroup open for a rebalance.
		c.fake.Close()
		<-stopped
	})
}

// releaseStaticMembers removes the static members by instance id, as an
// operator would, until every member has stopped. A static member does not
// leave when it closes, so a member that closes during a rebalance would hold
// the others' join, and with it their Close, until its session timed out.
// Removing repeatedly covers members that rejoin before they stop.
func (c *Cluster) releaseStaticMembers(stopped <-chan struct{}) {
	adm := kadm.NewClient(c.producer)
	deadline := time.After(stopGrace)
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		for group, ids := range staticInstanceIDs() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			// Failures are fine: the member may be gone already, and
			// the next round tries again.
			_, _ = adm.LeaveGroup(ctx, kadm.LeaveGroup(group).InstanceIDs(ids...).Reason("demo shutting down"))
			cancel()
		}
		select {
		case <-stopped:
			return
		case <-deadline:
			return
		case <-tick.C:
		}
	}
}

// logger serialises workload error reports from many goroutines.
type logger struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *logger) printf(format string, args ...any) {
	if l.w == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = fmt.Fprintf(l.w, "demo: "+format+"\n", args...)
}

// benign reports errors that only mean the workload is shutting down.
func benign(err error) bool {
	return err == nil || errors.Is(err, context.Canceled) || errors.Is(err, kgo.ErrClientClosed)
}

// sleepCtx waits for d or until ctx is done, and reports whether the full
// wait elapsed.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
