// Command capture runs one consumer group member of sarama or
// segmentio/kafka-go until it is sent SIGINT or SIGTERM, then closes it
// (leaving the group as the library does on close). With -commit, a
// sarama member marks every record it processes (after -sleep each) and
// lets sarama's autocommit commit them every -commit, from the oldest
// offset: a consumer whose health kgroups' real-Kafka tier judges. With
// -reader, a kafka-go member is a Reader of the group instead, which
// commits each record once processed (after -sleep) with CommitMessages,
// synchronously, as kafka-go does by default (CommitInterval 0): the
// tier's other-libraries test judges it. It is started by
// kafka/rebalance's capture test (clients_capture_test.go, build tag
// capture) to record real assignments; it is a module of its own so that
// neither library is a dependency of kgroups.
//
// When this member leads the group, the assignor's inputs (the member ids,
// the topics and each topic's partitions in the order the library handed
// them to the assignor) are appended to -leader-log as one JSON line.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/IBM/sarama"
	kafkago "github.com/segmentio/kafka-go"
)

type options struct {
	lib, brokers, group, assignor, clientID, instanceID, topics, leaderLog string
	// commit, when not zero, marks each record processed and autocommits
	// every commit; sleep is each record's processing time.
	commit, sleep time.Duration
	// reader makes a kafka-go member a Reader that commits each record.
	reader bool
}

func main() {
	var o options
	flag.StringVar(&o.lib, "lib", "", "sarama or kafka-go")
	flag.StringVar(&o.brokers, "brokers", "", "comma-separated broker addresses")
	flag.StringVar(&o.group, "group", "", "consumer group")
	flag.StringVar(&o.assignor, "assignor", "", "range, roundrobin or sticky (sarama only)")
	flag.StringVar(&o.clientID, "client-id", "", "client id; empty keeps the library's default")
	flag.StringVar(&o.instanceID, "instance-id", "", "group.instance.id (static membership, sarama only)")
	flag.StringVar(&o.topics, "topics", "", "comma-separated topics")
	flag.StringVar(&o.leaderLog, "leader-log", "", "file the leader appends its assignor's inputs to")
	flag.DurationVar(&o.commit, "commit", 0, "mark each record and autocommit this often, from the oldest offset (sarama only; 0: never commit)")
	flag.DurationVar(&o.sleep, "sleep", 0, "time to process each record (with -commit or -reader)")
	flag.BoolVar(&o.reader, "reader", false, "read with a kafka-go Reader of the group from the oldest offset, committing each record once processed (kafka-go only)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch o.lib {
	case "sarama":
		err = runSarama(ctx, o)
	case "kafka-go":
		if o.reader {
			err = runKafkaGoReader(ctx, o)
		} else {
			err = runKafkaGo(ctx, o)
		}
	default:
		err = fmt.Errorf("-lib %q: want sarama or kafka-go", o.lib)
	}
	if err != nil {
		log.Fatal(err)
	}
}

// leaderInput is what the leader's assignor was given.
type leaderInput struct {
	Members    []string           `json:"members"`
	Topics     []string           `json:"topics"`
	Partitions map[string][]int32 `json:"partitions"`
}

var logMu sync.Mutex

func writeLeaderInput(path string, in leaderInput) {
	if path == "" {
		return
	}
	logMu.Lock()
	defer logMu.Unlock()
	b, err := json.Marshal(in)
	if err != nil {
		log.Print(err)
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		log.Print(err)
		return
	}
	defer f.Close()
	if _, err := f.Write(append(b, '\n')); err != nil {
		log.Print(err)
	}
}

// saramaStrategy wraps one of sarama's strategies to log its inputs.
type saramaStrategy struct {
	sarama.BalanceStrategy
	leaderLog string
}

func (s saramaStrategy) Plan(members map[string]sarama.ConsumerGroupMemberMetadata, topics map[string][]int32) (sarama.BalanceStrategyPlan, error) {
	in := leaderInput{Partitions: map[string][]int32{}}
	for id := range members {
		in.Members = append(in.Members, id)
	}
	slices.Sort(in.Members)
	for t, ps := range topics {
		in.Topics = append(in.Topics, t)
		in.Partitions[t] = slices.Clone(ps)
	}
	slices.Sort(in.Topics)
	writeLeaderInput(s.leaderLog, in)
	return s.BalanceStrategy.Plan(members, topics)
}

// saramaHandler reads its claims; with mark it marks each record once it
// has slept sleep over it.
type saramaHandler struct {
	mark  bool
	sleep time.Duration
}

func (saramaHandler) Setup(sarama.ConsumerGroupSession) error   { return nil }
func (saramaHandler) Cleanup(sarama.ConsumerGroupSession) error { return nil }
func (h saramaHandler) ConsumeClaim(sess sarama.ConsumerGroupSession, claim sarama.ConsumerGroupClaim) error {
	for {
		select {
		case m, ok := <-claim.Messages():
			if !ok {
				return nil
			}
			if h.mark {
				time.Sleep(h.sleep)
				sess.MarkMessage(m, "")
			}
		case <-sess.Context().Done():
			return nil
		}
	}
}

func runSarama(ctx context.Context, o options) error {
	cfg := sarama.NewConfig()
	if o.clientID != "" {
		cfg.ClientID = o.clientID
	}
	var strategy sarama.BalanceStrategy
	switch o.assignor {
	case "range":
		strategy = sarama.NewBalanceStrategyRange()
	case "roundrobin":
		strategy = sarama.NewBalanceStrategyRoundRobin()
	case "sticky":
		strategy = sarama.NewBalanceStrategySticky()
	default:
		return fmt.Errorf("-assignor %q: sarama has range, roundrobin and sticky", o.assignor)
	}
	cfg.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{saramaStrategy{strategy, o.leaderLog}}
	cfg.Consumer.Group.Session.Timeout = 6 * time.Second
	cfg.Consumer.Group.Heartbeat.Interval = 500 * time.Millisecond
	cfg.Consumer.Group.InstanceId = o.instanceID
	cfg.Consumer.Return.Errors = false
	if o.commit > 0 {
		cfg.Consumer.Offsets.Initial = sarama.OffsetOldest
		cfg.Consumer.Offsets.AutoCommit.Enable = true
		cfg.Consumer.Offsets.AutoCommit.Interval = o.commit
		// A slow member reads few records ahead, as a slow Java consumer
		// with a small max.poll.records does.
		cfg.ChannelBufferSize = 2
	}
	cg, err := sarama.NewConsumerGroup(strings.Split(o.brokers, ","), o.group, cfg)
	if err != nil {
		return err
	}
	for ctx.Err() == nil {
		if err := cg.Consume(ctx, strings.Split(o.topics, ","), saramaHandler{mark: o.commit > 0, sleep: o.sleep}); err != nil && !errors.Is(err, sarama.ErrClosedConsumerGroup) {
			log.Print(err)
			time.Sleep(200 * time.Millisecond)
		}
	}
	return cg.Close()
}

// kafkagoBalancer wraps one of kafka-go's balancers to log its inputs.
type kafkagoBalancer struct {
	kafkago.GroupBalancer
	leaderLog string
}

func (b kafkagoBalancer) AssignGroups(members []kafkago.GroupMember, partitions []kafkago.Partition) kafkago.GroupMemberAssignments {
	in := leaderInput{Partitions: map[string][]int32{}}
	for _, m := range members {
		in.Members = append(in.Members, m.ID)
	}
	slices.Sort(in.Members)
	for _, p := range partitions {
		if !slices.Contains(in.Topics, p.Topic) {
			in.Topics = append(in.Topics, p.Topic)
		}
		in.Partitions[p.Topic] = append(in.Partitions[p.Topic], int32(p.ID))
	}
	slices.Sort(in.Topics)
	writeLeaderInput(b.leaderLog, in)
	return b.GroupBalancer.AssignGroups(members, partitions)
}

func runKafkaGo(ctx context.Context, o options) error {
	if o.instanceID != "" {
		return errors.New("kafka-go has no static membership (group.instance.id)")
	}
	var bal kafkago.GroupBalancer
	switch o.assignor {
	case "range":
		bal = kafkago.RangeGroupBalancer{}
	case "roundrobin":
		bal = kafkago.RoundRobinGroupBalancer{}
	default:
		return fmt.Errorf("-assignor %q: kafka-go has range and roundrobin", o.assignor)
	}
	dialer := kafkago.DefaultDialer
	if o.clientID != "" {
		d := *kafkago.DefaultDialer
		d.ClientID = o.clientID
		dialer = &d
	}
	cg, err := kafkago.NewConsumerGroup(kafkago.ConsumerGroupConfig{
		ID:                o.group,
		Brokers:           strings.Split(o.brokers, ","),
		Dialer:            dialer,
		Topics:            strings.Split(o.topics, ","),
		GroupBalancers:    []kafkago.GroupBalancer{kafkagoBalancer{bal, o.leaderLog}},
		HeartbeatInterval: 500 * time.Millisecond,
		SessionTimeout:    6 * time.Second,
		RebalanceTimeout:  10 * time.Second,
		JoinGroupBackoff:  500 * time.Millisecond,
	})
	if err != nil {
		return err
	}
	for {
		gen, err := cg.Next(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return cg.Close()
			}
			log.Print(err)
			continue
		}
		done := make(chan struct{})
		gen.Start(func(gctx context.Context) {
			<-gctx.Done()
			close(done)
		})
		select {
		case <-done:
		case <-ctx.Done():
			return cg.Close()
		}
	}
}

// runKafkaGoReader reads the group's partitions with a kafka-go Reader on
// its defaults but for the session: StartOffset FirstOffset, and
// CommitInterval 0, with which CommitMessages commits synchronously. Each
// record is committed once processed, FetchMessage then CommitMessages, as
// kafka-go's documentation recommends for at-least-once processing
// (ReadMessage would commit a record before it is processed).
func runKafkaGoReader(ctx context.Context, o options) error {
	r := kafkago.NewReader(kafkago.ReaderConfig{
		Brokers:           strings.Split(o.brokers, ","),
		GroupID:           o.group,
		GroupTopics:       strings.Split(o.topics, ","),
		HeartbeatInterval: 500 * time.Millisecond,
		SessionTimeout:    10 * time.Second,
		RebalanceTimeout:  10 * time.Second,
		JoinGroupBackoff:  500 * time.Millisecond,
	})
	n := 0
	for {
		m, err := r.FetchMessage(ctx)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			log.Print(err)
			time.Sleep(200 * time.Millisecond)
			continue
		}
		time.Sleep(o.sleep)
		if err := r.CommitMessages(ctx, m); err != nil {
			if ctx.Err() != nil {
				break
			}
			log.Print(err)
			continue
		}
		n++
	}
	fmt.Printf("consumed %d\n", n)
	return r.Close()
}
