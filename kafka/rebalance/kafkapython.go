package rebalance

import "slices"

// kafka-python's assignors, as a kafka-python 2.0 group leader runs
// them; testdata/kafka-python holds assignments recorded from real
// kafka-python groups (TestKafkaPythonFixtures). Its sticky assignor is
// not modelled: in kafka-python 2.0.2 on Python 3 a member that has had an
// assignment fails to encode its sticky user data (TypeError) on every
// rejoin, so no such group survives its first rebalance.
func init() {
	register(model{impl: ImplKafkaPython, protocol: AssignorRange, idOnly: true, plan: kafkaPythonRange})
	register(model{impl: ImplKafkaPython, protocol: AssignorRoundRobin, idOnly: true, plan: kafkaPythonRoundRobin})
}

// kafkaPythonRange is kafka-python's RangePartitionAssignor: per topic,
// its partitions sorted by id and its subscribers sorted by member id
// (kafka-python 2.0 has no static membership), each subscriber a
// consecutive run, the first count%subscribers one more than the rest.
// A joiner is placed by its member id, which the broker makes from the
// client id and a random suffix; the default client id
// "kafka-python-<version>" is the same for every member, so the place is
// random.
func kafkaPythonRange(members []simMember, _ map[string]map[string][]int32, counts map[string]int32) (map[string]map[string][]int32, error) {
	sorted := idOrder(members)
	out := emptyPlan(members)
	for _, topic := range rdkTopics(members, counts) {
		leadingRanges(out, subscribers(sorted, topic), topic, byID(counts[topic]))
	}
	return out, nil
}

// kafkaPythonRoundRobin is kafka-python's RoundRobinPartitionAssignor:
// every subscribed topic's partitions in one list sorted by topic name,
// then partition id as a number, dealt to the members sorted by member id
// in a cycle that runs on across topics and passes over members not
// subscribed to a partition's topic. A joiner is placed by its member id,
// as in range.
func kafkaPythonRoundRobin(members []simMember, _ map[string]map[string][]int32, counts map[string]int32) (map[string]map[string][]int32, error) {
	out := emptyPlan(members)
	if len(members) == 0 {
		return out, nil
	}
	var tps []tp
	for _, topic := range rdkTopics(members, counts) {
		for p := range counts[topic] {
			tps = append(tps, tp{topic, p})
		}
	}
	slices.SortFunc(tps, tpCompare)
	dealSkipping(out, idOrder(members), tps)
	return out, nil
}
