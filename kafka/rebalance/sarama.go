package rebalance

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
)

// sarama's assignors (IBM/sarama's BalanceStrategy implementations), as a
// sarama 1.x group leader runs them; testdata/sarama holds assignments
// recorded from real sarama groups (TestSaramaFixtures).
func init() {
	register(model{impl: ImplSarama, protocol: AssignorRange, idOnly: true, plan: saramaRange})
	register(model{impl: ImplSarama, protocol: AssignorRoundRobin, idOnly: true, plan: saramaRoundRobin})
	register(model{impl: ImplSarama, protocol: AssignorSticky, idOnly: true, plan: saramaSticky,
		inexact: "sarama's sticky walks Go maps, so which of equally good partitions moves, and to whom, is random"})
}

// idOrder sorts members by member id alone (byte order), ignoring
// group.instance.id: the order of the assignors that never look at
// instance ids (sarama, kafka-go, kafka-python).
func idOrder(members []simMember) []simMember {
	out := slices.Clone(members)
	slices.SortStableFunc(out, func(a, b simMember) int { return cmp.Compare(a.id, b.id) })
	return out
}

// subscribers are the members of sorted subscribed to topic, in order.
func subscribers(sorted []simMember, topic string) []simMember {
	var out []simMember
	for _, m := range sorted {
		if slices.Contains(m.topics, topic) {
			out = append(out, m)
		}
	}
	return out
}

// leadingRanges gives each of subs (in order) a consecutive run of
// partitions (the list, in order), the first len%len(subs) one more than
// the rest: the Java client's range rule.
func leadingRanges(out map[string]map[string][]int32, subs []simMember, topic string, partitions []int32) {
	n := len(subs)
	if n == 0 {
		return
	}
	per, extra := len(partitions)/n, len(partitions)%n
	for i, m := range subs {
		start, length := per*i+min(i, extra), per
		if i < extra {
			length++
		}
		out[m.id][topic] = append(out[m.id][topic], partitions[start:start+length]...)
	}
}

// byID are a topic's partitions 0..count-1.
func byID(count int32) []int32 {
	out := make([]int32, count)
	for p := range count {
		out[p] = p
	}
	return out
}

// dealSkipping deals tps in order to sorted, one each in turn; the cursor
// runs on across topics and passes over members not subscribed to the
// partition's topic.
func dealSkipping(out map[string]map[string][]int32, sorted []simMember, tps []tp) {
	next := -1
	for _, k := range tps {
		found := false
		for range sorted {
			next = (next + 1) % len(sorted)
			if slices.Contains(sorted[next].topics, k.topic) {
				found = true
				break
			}
		}
		if found {
			m := sorted[next].id
			out[m][k.topic] = append(out[m][k.topic], k.partition)
		}
	}
}

// saramaRange is sarama's range strategy: per topic, its subscribers
// sorted by member id (sarama ignores instance ids) each get a
// consecutive run of the partitions, the first count%subscribers one more
// than the rest. sarama's client keeps each topic's partitions sorted by
// id, so the runs are contiguous. A joiner's place is its member id's,
// which the broker makes from its client id (or instance id) and a random
// suffix: with a shared client id the place is random.
func saramaRange(members []simMember, _ map[string]map[string][]int32, counts map[string]int32) (map[string]map[string][]int32, error) {
	sorted := idOrder(members)
	out := emptyPlan(members)
	for _, topic := range rdkTopics(members, counts) {
		leadingRanges(out, subscribers(sorted, topic), topic, byID(counts[topic]))
	}
	return out, nil
}

// saramaRoundRobin is sarama's roundrobin strategy: every subscribed
// topic's partitions in one list sorted as text, "topic-partition" (so
// t12-10 and t12-11 come before t12-2, and topic "a-b" sorts among "a"'s
// partitions), dealt to the members sorted by member id, the cursor
// running on across topics and passing over members not subscribed to a
// partition's topic. A joiner is placed by its member id, as in range.
func saramaRoundRobin(members []simMember, _ map[string]map[string][]int32, counts map[string]int32) (map[string]map[string][]int32, error) {
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
	slices.SortStableFunc(tps, func(a, b tp) int {
		return cmp.Compare(a.topic+"-"+strconv.Itoa(int(a.partition)), b.topic+"-"+strconv.Itoa(int(b.partition)))
	})
	dealSkipping(out, idOrder(members), tps)
	return out, nil
}

// saramaSticky is sarama's eager sticky strategy, a port of the Java
// client's original sticky algorithm: members report their previous
// assignment in StickyAssignorUserDataV1 (topics and generation), the
// leader keeps every still-valid owned partition, hands the unowned ones
// to the least-loaded eligible member and then moves partitions from the
// most- to the least-loaded until balanced. sarama walks Go maps while
// doing so (the unassigned partitions, the members), so which of several
// equally good partitions moves, and to which of equally loaded members,
// differs from run to run: the model computes one balanced sticky outcome
// (librdkafka's deterministic port of the same algorithm) with the same
// per-member counts and kept partitions as sarama's, not necessarily the
// same partitions. A joiner owns nothing and is placed by load, not id.
func saramaSticky(members []simMember, owned map[string]map[string][]int32, counts map[string]int32) (map[string]map[string][]int32, error) {
	return eagerSticky(members, owned, counts)
}

// eagerSticky is one eager round of the Java client's original sticky
// algorithm (see saramaSticky), as a plan.
func eagerSticky(members []simMember, owned map[string]map[string][]int32, counts map[string]int32) (map[string]map[string][]int32, error) {
	for _, m := range members {
		for _, t := range m.topics {
			if _, ok := counts[t]; !ok {
				return nil, fmt.Errorf("partition count unknown for topic %s", t)
			}
		}
	}
	target := rdkSticky(members, owned, counts)
	out := emptyPlan(members)
	for id, ps := range target {
		for _, p := range ps {
			out[id][p.topic] = append(out[id][p.topic], p.partition)
		}
	}
	return out, nil
}
