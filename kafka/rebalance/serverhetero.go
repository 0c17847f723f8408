package rebalance

// Kafka 4.2's uniform assignor for a KIP-848 group whose members subscribe
// to different topics: the group coordinator's heterogeneous builder
// (UniformHeterogeneousAssignmentBuilder), read from its sources and
// written here anew.

import (
	"cmp"
	"encoding/binary"
	"slices"
	"strings"

	"github.com/kgroups/kgroups/kafka"
)

// heteroPasses bounds the heterogeneous builder's last phase: it walks the
// topics that many times at most, rebalancing each among its subscribers.
const heteroPasses = 16

// heteroPlan is the uniform assignor for members of different
// subscriptions. The members are numbered in order (the broker's hash map
// order); ties between members are broken by that number, and ties
// between topics (as many partitions and subscribers) by their topic ids,
// or by their place in ties when the ids are not known.
//
//   - Each member keeps every partition of its target that it still
//     subscribes to.
//   - The partitions nobody holds go out topic by topic (most partitions
//     per subscriber first, then fewest subscribers, then topic id), each
//     topic's in number order, to its subscribers in turn, fewest
//     partitions first (levelled as they fill, the first numbers first).
//   - Then every topic of two or more subscribers, in that order, is
//     levelled: partitions move from its subscribers that hold the most
//     in all (the highest numbered first, each giving up its highest
//     partition of the topic) to those that hold the fewest, until they
//     differ by one at most; the topics are walked again until a whole
//     walk moves nothing, heteroPasses times at most.
func heteroPlan(ms []simMember, order, ties []string, ids map[string]kafka.TopicID, counts map[string]int32) map[string]map[string][]int32 {
	byID := make(map[string]simMember, len(ms))
	for _, m := range ms {
		byID[m.id] = m
	}
	h := &heteroState{
		order:       order,
		subscribers: map[string][]int{},
		owner:       map[string][]int{},
		size:        make([]int, len(order)),
	}
	for i, id := range order {
		for _, t := range byID[id].topics {
			h.subscribers[t] = append(h.subscribers[t], i)
		}
	}
	var topics []string
	for t := range h.subscribers {
		topics = append(topics, t)
		own := make([]int, counts[t])
		for p := range own {
			own[p] = -1
		}
		h.owner[t] = own
	}
	h.rank = heteroTopicRank(topics, ids, ties)

	// A member keeps what it holds of the topics it subscribes to.
	for i, id := range order {
		m := byID[id]
		for _, t := range m.topics {
			for _, p := range m.owned[t] {
				if p >= 0 && int(p) < len(h.owner[t]) {
					h.owner[t][p] = i
					h.size[i]++
				}
			}
		}
	}

	var open []string
	for _, t := range topics {
		if slices.Contains(h.owner[t], -1) {
			open = append(open, t)
		}
	}
	h.sortTopics(open)
	for _, t := range open {
		lv := h.levels(h.subscribers[t])
		for p, o := range h.owner[t] {
			if o == -1 {
				h.move(t, p, lv.nextLow())
			}
		}
	}

	var shared []string
	for _, t := range topics {
		if len(h.subscribers[t]) >= 2 {
			shared = append(shared, t)
		}
	}
	h.sortTopics(shared)
	last := -1
walk:
	for range heteroPasses {
		for i, t := range shared {
			if i == last {
				break walk
			}
			if moved := h.levelTopic(t); moved > 0 || last == -1 {
				last = i
			}
		}
	}

	plan := make(map[string]map[string][]int32, len(order))
	for _, id := range order {
		plan[id] = map[string][]int32{}
	}
	for t, own := range h.owner {
		for p, o := range own {
			if o >= 0 {
				plan[order[o]][t] = append(plan[order[o]][t], int32(p))
			}
		}
	}
	return plan
}

// heteroState is the heterogeneous builder's working state: members by
// number, each topic's subscribers (ascending numbers) and owners (-1:
// nobody), and each member's partition count.
type heteroState struct {
	order       []string
	subscribers map[string][]int
	owner       map[string][]int
	size        []int
	rank        map[string]int
}

func (h *heteroState) move(t string, p, to int) {
	if from := h.owner[t][p]; from >= 0 {
		h.size[from]--
	}
	h.owner[t][p] = to
	h.size[to]++
}

// sortTopics orders topics as the builder takes them: partitions per
// subscriber, descending; subscribers, ascending; then rank.
func (h *heteroState) sortTopics(ts []string) {
	slices.SortFunc(ts, func(a, b string) int {
		na, nb := len(h.owner[a]), len(h.owner[b])
		sa, sb := len(h.subscribers[a]), len(h.subscribers[b])
		if c := cmp.Compare(float64(nb)/float64(sb), float64(na)/float64(sa)); c != 0 {
			return c
		}
		if c := cmp.Compare(sa, sb); c != 0 {
			return c
		}
		if c := cmp.Compare(h.rank[a], h.rank[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b) // unranked: any order is one the ids may give
	})
}

// levelTopic moves t's partitions from its most loaded subscribers to its
// least loaded ones until their loads differ by one at most, and returns
// how many moved.
func (h *heteroState) levelTopic(t string) int {
	lv := h.levels(h.subscribers[t])
	if h.size[lv.members[len(lv.members)-1]]-h.size[lv.members[0]] <= 1 {
		return 0
	}
	own := h.owner[t]
	// The topic's partitions grouped by owner number, then by number: each
	// owner gives up the last of its run first.
	parts := make([]int, len(own))
	for p := range parts {
		parts[p] = p
	}
	slices.SortStableFunc(parts, func(a, b int) int { return cmp.Compare(own[a], own[b]) })
	first, end := map[int]int{}, map[int]int{}
	for i, p := range parts {
		if _, ok := first[own[p]]; !ok {
			first[own[p]] = i
		}
		end[own[p]] = i + 1
	}
	moved := 0
	for !lv.balanced() {
		from := -1
		for {
			from = lv.nextHigh()
			if from == -1 {
				break
			}
			if e, ok := end[from]; !ok || e-first[from] <= 0 {
				lv.dropHigh()
				continue
			}
			break
		}
		if from == -1 {
			break
		}
		end[from]--
		p := parts[end[from]]
		to := lv.nextLow()
		if lv.balanced() {
			break
		}
		h.move(t, p, to)
		moved++
	}
	return moved
}

// levels walks one topic's subscribers by load as the builder's balancer
// does: a low band of the least loaded, filled one member at a time and
// widened to the next members as its level rises, and a high band of the
// most loaded, emptied one at a time from its top and widened downwards.
// Loads are read live (h.size), as the broker reads them.
type levels struct {
	size    []int
	members []int
	// Low band: members[0:lowEnd] at lowLevel, next to fill lowNext.
	lowEnd, lowLevel, lowNext int
	// High band: members[highStart:highEnd] at highLevel, next to empty
	// highNext (counting down).
	highStart, highEnd, highLevel, highNext int
}

func (h *heteroState) levels(members []int) *levels {
	ms := slices.Clone(members)
	slices.SortFunc(ms, func(a, b int) int {
		if c := cmp.Compare(h.size[a], h.size[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	n := len(ms)
	return &levels{size: h.size, members: ms,
		lowLevel: h.size[ms[0]] - 1, highStart: n, highEnd: n, highLevel: h.size[ms[n-1]] + 1, highNext: n - 1}
}

// nextLow is the member to give the next partition to.
func (l *levels) nextLow() int {
	if l.lowNext >= l.lowEnd {
		l.lowLevel++
		for l.lowEnd < len(l.members) && l.size[l.members[l.lowEnd]] == l.lowLevel {
			l.lowEnd++
		}
		l.lowNext = 0
	}
	m := l.members[l.lowNext]
	l.lowNext++
	return m
}

// nextHigh is the member to take the next partition from, -1 when none
// is left.
func (l *levels) nextHigh() int {
	if l.highNext < l.highStart {
		if l.highEnd <= l.highStart && l.highStart > 0 {
			// The band was emptied by dropHigh: restart it at the level
			// below, so that it widens.
			l.highLevel = l.size[l.members[l.highStart-1]]
		} else {
			l.highLevel--
		}
		for l.highStart > 0 && l.size[l.members[l.highStart-1]] == l.highLevel {
			l.highStart--
		}
		l.highNext = l.highEnd - 1
	}
	if l.highNext < 0 {
		return -1
	}
	m := l.members[l.highNext]
	l.highNext--
	return m
}

// dropHigh takes the member nextHigh last gave out of the high band (it
// holds none of the topic's partitions to give up).
func (l *levels) dropHigh() {
	i, j := l.highNext+1, l.highEnd-1
	l.members[i], l.members[j] = l.members[j], l.members[i]
	l.highEnd--
}

func (l *levels) balanced() bool { return l.highLevel-l.lowLevel <= 1 }

// heteroTopicRank ranks topics for the builder's last tie-break: by topic
// id (Java's Uuid.compareTo: the two halves as signed 64-bit numbers)
// when every id is known, else by place in ties.
func heteroTopicRank(topics []string, ids map[string]kafka.TopicID, ties []string) map[string]int {
	rank := make(map[string]int, len(topics))
	if topicIDsKnown(topics, ids) {
		sorted := slices.Clone(topics)
		slices.SortFunc(sorted, func(a, b string) int { return compareJavaUUID(ids[a], ids[b]) })
		for i, t := range sorted {
			rank[t] = i
		}
		return rank
	}
	for i, t := range ties {
		rank[t] = i
	}
	return rank
}

func compareJavaUUID(a, b kafka.TopicID) int {
	if c := cmp.Compare(int64(binary.BigEndian.Uint64(a[:8])), int64(binary.BigEndian.Uint64(b[:8]))); c != 0 {
		return c
	}
	return cmp.Compare(int64(binary.BigEndian.Uint64(a[8:])), int64(binary.BigEndian.Uint64(b[8:])))
}

func topicIDsKnown(topics []string, ids map[string]kafka.TopicID) bool {
	for _, t := range topics {
		if id, ok := ids[t]; !ok || id == (kafka.TopicID{}) {
			return false
		}
	}
	return true
}

// heteroOrders lists the orders the heterogeneous builder may take:
// members in the broker's hash map order (every order of ids that share a
// bucket, as for the homogeneous builder), and, only when the topic ids
// are not known, every order of the topics that tie on partition count
// and subscribers (their ids would decide). Topics' hash orders do not
// matter to it: it sorts them.
func heteroOrders(members []simMember, joiners int, topics []string, ids map[string]kafka.TopicID, counts map[string]int32) ([]hashOrder, bool, string) {
	memberIDs := make([]string, len(members))
	subscribers := map[string]int{}
	for i, m := range members {
		memberIDs[i] = m.id
		for _, t := range m.topics {
			subscribers[t]++
		}
	}
	for _, t := range topics {
		subscribers[t] += joiners
	}
	memberOrders := javaHashOrders(memberIDs, len(members)+joiners, javaStringHash, tableForPuts)
	all := len(memberOrders) < maxServerOrders
	tieOrders := [][]string{topics}
	if !topicIDsKnown(topics, ids) {
		var every bool
		tieOrders, every = heteroTieOrders(topics, subscribers, counts)
		all = all && every
	}
	var out []hashOrder
	for _, mo := range memberOrders {
		for _, to := range tieOrders {
			if len(out) == maxServerOrders {
				all = false
				break
			}
			out = append(out, hashOrder{members: mo, ties: to})
		}
	}
	var why []string
	if len(tieOrders) > 1 {
		why = append(why, "the order of the ids of topics alike in partitions and subscribers (ids not read)")
	}
	if len(memberOrders) > 1 {
		why = append(why, "the order of members whose ids share a hash bucket")
	}
	return out, all, strings.Join(why, " and ")
}

// heteroTieOrders lists the orders of topics (sorted) in which those of
// as many partitions and subscribers take every order among themselves,
// up to maxServerOrders; all is false when that left some out.
func heteroTieOrders(topics []string, subscribers map[string]int, counts map[string]int32) (orders [][]string, all bool) {
	type alike struct {
		partitions  int32
		subscribers int
	}
	var kinds []alike
	byKind := map[alike][]string{}
	for _, t := range topics {
		k := alike{counts[t], subscribers[t]}
		if byKind[k] == nil {
			kinds = append(kinds, k)
		}
		byKind[k] = append(byKind[k], t)
	}
	orders, total := [][]string{nil}, 1
	for _, k := range kinds {
		total *= factorial(len(byKind[k]))
		var next [][]string
		for _, o := range orders {
			for _, g := range permutations(byKind[k], maxServerOrders) {
				if len(next) < maxServerOrders {
					next = append(next, append(slices.Clone(o), g...))
				}
			}
		}
		orders = next
	}
	return orders, total <= maxServerOrders && len(orders) == total
}
