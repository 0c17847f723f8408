package rebalance

// segmentio/kafka-go's assignors (its GroupBalancers), as a kafka-go
// 0.4 group leader runs them; testdata/kafka-go holds assignments
// recorded from real kafka-go groups (TestKafkaGoFixtures).
func init() {
	register(model{impl: ImplKafkaGo, protocol: AssignorRange, idOnly: true, plan: kafkagoRange, inexact: kafkagoInexact})
	register(model{impl: ImplKafkaGo, protocol: AssignorRoundRobin, idOnly: true, plan: kafkagoRoundRobin, inexact: kafkagoInexact})
}

// kafkagoRange is kafka-go's RangeGroupBalancer with each topic's
// partitions listed by id. The leader takes the order its metadata
// response gave, which the model cannot see: by id is an assumption
// (kfake lists them in map order, and the recorded groups differ from
// the by-id result in every case).
func kafkagoRange(members []simMember, _ map[string]map[string][]int32, counts map[string]int32) (map[string]map[string][]int32, error) {
	return kafkagoAssign(members, counts, byIDOrder(members, counts), kafkagoRangeTopic), nil
}

// kafkagoRoundRobin is kafka-go's RoundRobinGroupBalancer with each
// topic's partitions listed by id.
func kafkagoRoundRobin(members []simMember, _ map[string]map[string][]int32, counts map[string]int32) (map[string]map[string][]int32, error) {
	return kafkagoAssign(members, counts, byIDOrder(members, counts), kafkagoRoundRobinTopic), nil
}

// byIDOrder lists every subscribed topic's partitions by id.
func byIDOrder(members []simMember, counts map[string]int32) map[string][]int32 {
	order := map[string][]int32{}
	for _, t := range rdkTopics(members, counts) {
		order[t] = byID(counts[t])
	}
	return order
}

// kafkagoAssign runs one of kafka-go's per-topic rules: kafka-go's leader
// takes each topic's partitions in the order the broker's metadata
// response lists them (order; it does not sort them) and the topic's
// subscribers sorted by member id (it has no static membership), and
// assigns every topic on its own: nothing carries over from one topic to
// the next. A joiner is placed by its member id, which the broker makes
// from the client id and a random suffix; kafka-go's default client id,
// "<program>@<host> (github.com/segmentio/kafka-go)", is the same for
// every member of one program on one host, so the place is random.
func kafkagoAssign(members []simMember, counts map[string]int32, order map[string][]int32, rule func(out map[string]map[string][]int32, subs []simMember, topic string, partitions []int32)) map[string]map[string][]int32 {
	sorted := idOrder(members)
	out := emptyPlan(members)
	for _, topic := range rdkTopics(members, counts) {
		rule(out, subscribers(sorted, topic), topic, order[topic])
	}
	return out
}

// kafkagoRangeTopic is kafka-go's range rule: subscriber i of n gets the
// listed partitions at positions i*count/n up to (i+1)*count/n, so the
// remainder falls to the last subscribers, not the first as in Java (5
// partitions over 2 members: 2 and 3). The runs are of positions in the
// metadata's list: partition ids are consecutive only when the broker
// lists them by id.
func kafkagoRangeTopic(out map[string]map[string][]int32, subs []simMember, topic string, partitions []int32) {
	n := len(subs)
	for i, m := range subs {
		lo, hi := i*len(partitions)/n, (i+1)*len(partitions)/n
		out[m.id][topic] = append(out[m.id][topic], partitions[lo:hi]...)
	}
}

// kafkagoRoundRobinTopic is kafka-go's round-robin rule: subscriber i of
// n gets the listed partitions at positions i, i+n, i+2n...; every topic
// starts again at the first subscriber.
func kafkagoRoundRobinTopic(out map[string]map[string][]int32, subs []simMember, topic string, partitions []int32) {
	n := len(subs)
	for pos, p := range partitions {
		m := subs[pos%n]
		out[m.id][topic] = append(out[m.id][topic], p)
	}
}

// kafkagoInexact is why no kafka-go row is exact: its leader deals each
// topic's partitions in the order the broker's metadata response listed
// them, which DescribeGroups does not report (real brokers list them by
// id; kfake, where the fixtures were recorded, in random order).
const kafkagoInexact = "kafka-go's leader takes partitions in the order the broker lists them, which kgroups cannot see (assumed by id)"
