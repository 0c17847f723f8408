package rebalance

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ProtocolKafkaJSRoundRobin is the protocol name of kafkajs's default
// assignor.
const ProtocolKafkaJSRoundRobin = "RoundRobinAssigner"

func init() {
	register(model{impl: ImplKafkaJS, protocol: ProtocolKafkaJSRoundRobin, plan: kafkajsRoundRobin})
}

// kafkajsRoundRobin is kafkajs's RoundRobinAssigner as documented: the
// leader lists its own subscription's topics in the order it subscribed
// (not sorted), each topic's partitions in the order its metadata lists
// them (by id, from a Kafka broker), and deals that one
// list out to the members sorted by member id, one partition each in
// turn. It ignores what members own (the protocol is eager) and what each
// member subscribes to (every member gets from the leader's list), so the
// model needs every member to share one subscription, in one order: the
// leader's cannot be known otherwise.
func kafkajsRoundRobin(members []simMember, _ map[string]map[string][]int32, counts map[string]int32) (map[string]map[string][]int32, error) {
	if len(members) == 0 {
		return nil, errors.New("no members to assign to")
	}
	topics := members[0].subscription()
	for _, m := range members[1:] {
		if !slices.Equal(m.subscription(), topics) {
			return nil, fmt.Errorf("members subscribe to different topics (%s and %s): kafkajs's leader assigns its own subscription to all, and the leader is not known",
				strings.Join(topics, ","), strings.Join(m.subscription(), ","))
		}
	}
	order := make(map[string][]int32, len(topics))
	for _, t := range topics {
		n, ok := counts[t]
		if !ok {
			return nil, fmt.Errorf("partition count unknown for topic %s", t)
		}
		for p := range n {
			order[t] = append(order[t], p)
		}
	}
	return kafkajsDeal(members, topics, order), nil
}

// kafkajsDeal deals topics' partitions, each topic's in the order the
// leader's metadata lists them (order), to members sorted by member id.
// Kafka brokers list partitions by id, which is what kafkajsRoundRobin
// assumes; the recorded fixtures keep the order their leader saw. Each
// member's partitions are in the order dealt.
func kafkajsDeal(members []simMember, topics []string, order map[string][]int32) map[string]map[string][]int32 {
	ids := make([]string, len(members))
	for i, m := range members {
		ids[i] = m.id
	}
	slices.Sort(ids) // JavaScript's default sort: member ids are ASCII
	plan := make(map[string]map[string][]int32, len(ids))
	for _, id := range ids {
		plan[id] = map[string][]int32{}
	}
	i := 0
	for _, t := range topics {
		for _, p := range order[t] {
			id := ids[i%len(ids)]
			plan[id][t] = append(plan[id][t], p)
			i++
		}
	}
	return plan
}
