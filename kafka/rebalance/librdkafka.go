package rebalance

import (
	"cmp"
	"maps"
	"slices"
)

// librdkafka's assignors, as a librdkafka 2.0 group leader runs them (kcat,
// confluent-kafka-go, -python, -dotnet). They follow librdkafka's
// documented behaviour and the order and tie-breaking it was observed to
// use; testdata/librdkafka holds assignments recorded from real librdkafka
// groups that each model reproduces exactly.
func init() {
	register(model{impl: ImplLibrdkafka, protocol: AssignorRange, plan: rdkRange})
	register(model{impl: ImplLibrdkafka, protocol: AssignorRoundRobin, plan: rdkRoundRobin})
	register(model{impl: ImplLibrdkafka, protocol: AssignorCooperativeSticky, cooperative: true, plan: rdkCooperativeSticky})
}

// rdkMemberOrder sorts members as librdkafka's leader compares them: two
// static members by instance id, any other pair by member id (byte order).
func rdkMemberOrder(members []simMember) []simMember {
	out := slices.Clone(members)
	slices.SortStableFunc(out, func(a, b simMember) int {
		if a.instance != "" && b.instance != "" {
			return cmp.Compare(a.instance, b.instance)
		}
		return cmp.Compare(a.id, b.id)
	})
	return out
}

// rdkTopics are the eligible topics: subscribed by some member and with a
// known partition count, sorted by name.
func rdkTopics(members []simMember, counts map[string]int32) []string {
	var out []string
	for _, m := range members {
		for _, t := range m.topics {
			if counts[t] > 0 {
				out = append(out, t)
			}
		}
	}
	return uniqueSorted(out)
}

func emptyPlan(members []simMember) map[string]map[string][]int32 {
	out := make(map[string]map[string][]int32, len(members))
	for _, m := range members {
		out[m.id] = map[string][]int32{}
	}
	return out
}

// rdkRange is librdkafka's range assignor: per topic, its subscribers in
// member order each get a consecutive run of partitions, the first
// count%subscribers of them one more than the rest.
func rdkRange(members []simMember, _ map[string]map[string][]int32, counts map[string]int32) (map[string]map[string][]int32, error) {
	sorted := rdkMemberOrder(members)
	out := emptyPlan(members)
	for _, topic := range rdkTopics(members, counts) {
		var subs []simMember
		for _, m := range sorted {
			if slices.Contains(m.topics, topic) {
				subs = append(subs, m)
			}
		}
		n := int32(len(subs))
		per, extra := counts[topic]/n, counts[topic]%n
		for i, m := range subs {
			i := int32(i)
			start, length := per*i+min(i, extra), per
			if i < extra {
				length++
			}
			for p := start; p < start+length; p++ {
				out[m.id][topic] = append(out[m.id][topic], p)
			}
		}
	}
	return out, nil
}

// rdkRoundRobin is librdkafka's roundrobin assignor: topics by name, each
// topic's partitions in order, dealt to the members in member order; the
// cursor runs on across topics and skips members not subscribed to the
// topic at hand.
func rdkRoundRobin(members []simMember, _ map[string]map[string][]int32, counts map[string]int32) (map[string]map[string][]int32, error) {
	sorted := rdkMemberOrder(members)
	out := emptyPlan(members)
	next := -1
	for _, topic := range rdkTopics(members, counts) {
		for p := range counts[topic] {
			for {
				next = (next + 1) % len(sorted)
				if slices.Contains(sorted[next].topics, topic) {
					break
				}
			}
			m := sorted[next].id
			out[m][topic] = append(out[m][topic], p)
		}
	}
	return out, nil
}

// rdkCooperativeSticky is one round of librdkafka's cooperative-sticky
// leader: its sticky assignment, then the incremental protocol's rule that
// a partition still owned by another member is withheld this round (the
// owner revokes it and the group rejoins).
func rdkCooperativeSticky(members []simMember, owned map[string]map[string][]int32, counts map[string]int32) (map[string]map[string][]int32, error) {
	target := rdkSticky(members, owned, counts)
	owner := map[tp]string{}
	for _, m := range members {
		for t, ps := range owned[m.id] {
			for _, p := range ps {
				owner[tp{t, p}] = m.id
			}
		}
	}
	out := emptyPlan(members)
	for _, m := range members {
		for _, p := range target[m.id] {
			if o, ok := owner[p]; ok && o != m.id {
				continue
			}
			out[m.id][p.topic] = append(out[m.id][p.topic], p.partition)
		}
	}
	for _, a := range out {
		for t := range a {
			slices.Sort(a[t])
		}
	}
	return out, nil
}

func tpCompare(a, b tp) int {
	if c := cmp.Compare(a.topic, b.topic); c != 0 {
		return c
	}
	return cmp.Compare(a.partition, b.partition)
}

// stickyState is librdkafka's sticky assignor's working state. Its maps
// iterate in a definite order where librdkafka's do: librdkafka's hash
// maps iterate most recently inserted key first, so the partitions are
// kept in insertion order and walked backwards.
type stickyState struct {
	// partitions are all eligible partitions in the order first seen:
	// topics by name, each topic's partitions in order.
	partitions []tp
	// potential maps each partition to the members subscribed to its topic,
	// in member order; consumerPotential maps each member to its
	// partitions.
	potential         map[tp][]string
	consumerPotential map[string][]tp
	// current is each participating member's assignment in progress,
	// owner each assigned partition's member.
	current map[string][]tp
	owner   map[tp]string
	// sorted are the participating members by assignment size, then id.
	sorted []string
	moves  movements
}

func (s *stickyState) resort() {
	slices.SortFunc(s.sorted, func(a, b string) int {
		if c := cmp.Compare(len(s.current[a]), len(s.current[b])); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
}

// rdkSticky is librdkafka's sticky assignment (shared by its sticky and
// cooperative-sticky assignors), a port in spirit of the Java client's
// original general algorithm with librdkafka's own orderings.
func rdkSticky(members []simMember, owned map[string]map[string][]int32, counts map[string]int32) map[string][]tp {
	s := &stickyState{
		potential:         map[tp][]string{},
		consumerPotential: map[string][]tp{},
		current:           map[string][]tp{},
		owner:             map[tp]string{},
		moves:             movements{byPartition: map[tp]pair{}, byTopic: map[string]map[pair][]tp{}},
	}
	subscribed := make(map[string]map[string]bool, len(members))
	for _, m := range members {
		subscribed[m.id] = map[string]bool{}
		for _, t := range m.topics {
			subscribed[m.id][t] = true
		}
		s.current[m.id] = nil
		s.consumerPotential[m.id] = nil
	}

	// Owned partitions: a partition claimed by two members of the same
	// generation stays with the first in member order (librdkafka skips
	// the later claim). Each member's list is built walking the claims
	// backwards, as librdkafka's map yields them.
	var claims []tp
	for _, m := range members {
		for _, t := range slices.Sorted(maps.Keys(owned[m.id])) {
			for _, p := range owned[m.id][t] {
				k := tp{t, p}
				if _, ok := s.owner[k]; ok {
					continue
				}
				s.owner[k] = m.id
				claims = append(claims, k)
			}
		}
	}
	for i := len(claims) - 1; i >= 0; i-- {
		k := claims[i]
		s.current[s.owner[k]] = append(s.current[s.owner[k]], k)
	}

	for _, topic := range rdkTopics(members, counts) {
		for _, m := range members {
			if !subscribed[m.id][topic] {
				continue
			}
			for p := range counts[topic] {
				k := tp{topic, p}
				s.consumerPotential[m.id] = append(s.consumerPotential[m.id], k)
				if _, ok := s.potential[k]; !ok {
					s.partitions = append(s.partitions, k)
				}
				s.potential[k] = append(s.potential[k], m.id)
			}
		}
	}

	sortedPartitions := s.sortPartitions(members)
	unassigned := slices.Clone(sortedPartitions)
	revocationRequired := false
	for _, m := range members {
		kept := s.current[m.id][:0]
		for _, k := range s.current[m.id] {
			switch {
			case s.potential[k] == nil:
				delete(s.owner, k)
			case !subscribed[m.id][k.topic]:
				revocationRequired = true
			default:
				kept = append(kept, k)
				unassigned = slices.DeleteFunc(unassigned, func(u tp) bool { return u == k })
			}
		}
		s.current[m.id] = kept
	}
	for _, m := range members {
		s.sorted = append(s.sorted, m.id)
	}
	s.resort()
	s.balance(sortedPartitions, unassigned, revocationRequired)
	return s.current
}

// identicalSubscriptions reports whether every partition has the same
// potential members and every member the same potential partitions.
func (s *stickyState) identicalSubscriptions(members []simMember) bool {
	for i := 1; i < len(s.partitions); i++ {
		if !slices.Equal(s.potential[s.partitions[i]], s.potential[s.partitions[i-1]]) {
			return false
		}
	}
	for i := 1; i < len(members); i++ {
		if !slices.Equal(s.consumerPotential[members[i].id], s.consumerPotential[members[i-1].id]) {
			return false
		}
	}
	return true
}

// sortPartitions orders the partitions for reassignment. With differing
// subscriptions: by number of potential members, then topic and
// partition. With identical ones: one partition at a time from the member
// holding most (its lowest), then the partitions nobody holds, most
// recently seen first.
func (s *stickyState) sortPartitions(members []simMember) []tp {
	var out []tp
	if !s.identicalSubscriptions(members) {
		out = slices.Clone(s.partitions)
		slices.SortStableFunc(out, func(a, b tp) int {
			if c := cmp.Compare(len(s.potential[a]), len(s.potential[b])); c != 0 {
				return c
			}
			return tpCompare(a, b)
		})
		return out
	}
	remaining := map[string][]tp{}
	var consumers []string
	for _, m := range members {
		slices.SortFunc(s.current[m.id], tpCompare)
		var valid []tp
		for _, k := range s.current[m.id] {
			if s.potential[k] != nil {
				valid = append(valid, k)
			}
		}
		if len(valid) > 0 {
			remaining[m.id] = valid
			consumers = append(consumers, m.id)
		}
	}
	byRemaining := func(a, b string) int {
		if c := cmp.Compare(len(remaining[a]), len(remaining[b])); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	}
	slices.SortFunc(consumers, byRemaining)
	for len(consumers) > 0 {
		last := consumers[len(consumers)-1]
		if len(remaining[last]) == 0 {
			consumers = consumers[:len(consumers)-1]
			continue
		}
		out = append(out, remaining[last][0])
		remaining[last] = remaining[last][1:]
		slices.SortFunc(consumers, byRemaining)
	}
	wasEmpty := len(out) == 0
	for i := len(s.partitions) - 1; i >= 0; i-- {
		if !slices.Contains(out, s.partitions[i]) {
			out = append(out, s.partitions[i])
		}
	}
	if wasEmpty {
		slices.SortFunc(out, tpCompare)
	}
	return out
}

func (s *stickyState) balance(sortedPartitions, unassigned []tp, revocationRequired bool) {
	if len(s.sorted) == 0 {
		return
	}
	initializing := len(s.current[s.sorted[len(s.sorted)-1]]) == 0

	for _, k := range unassigned {
		for _, c := range s.sorted {
			if slices.Contains(s.consumerPotential[c], k) {
				s.current[c] = append(s.current[c], k)
				s.owner[k] = c
				s.resort()
				break
			}
		}
	}

	// Only partitions with two or more potential members, and members
	// that could gain or lose one, take part in the reassignment.
	movable := func(k tp) bool { return len(s.potential[k]) >= 2 }
	sortedPartitions = slices.DeleteFunc(sortedPartitions, func(k tp) bool { return !movable(k) })
	unassigned = slices.DeleteFunc(unassigned, func(k tp) bool { return !movable(k) })
	fixed := map[string][]tp{}
	var fixedOrder []string
	for i := 0; i < len(s.sorted); i++ {
		c := s.sorted[i]
		if len(s.current[c]) < len(s.consumerPotential[c]) || slices.ContainsFunc(s.current[c], movable) {
			continue
		}
		s.sorted = slices.Delete(s.sorted, i, i+1)
		i--
		fixed[c] = s.current[c]
		fixedOrder = append(fixedOrder, c)
		delete(s.current, c)
	}

	preCurrent := make(map[string][]tp, len(s.current))
	for c, ps := range s.current {
		preCurrent[c] = slices.Clone(ps)
	}
	preOwner := maps.Clone(s.owner)

	if !revocationRequired && len(unassigned) > 0 {
		s.performReassignments(unassigned)
	}
	performed := s.performReassignments(sortedPartitions)
	if !initializing && performed && balanceScore(s.current) >= balanceScore(preCurrent) {
		s.current, s.owner = preCurrent, preOwner
	}
	for _, c := range fixedOrder {
		s.current[c] = fixed[c]
	}
}

func balanceScore(a map[string][]tp) int {
	sizes := make([]int, 0, len(a))
	for _, ps := range a {
		sizes = append(sizes, len(ps))
	}
	score := 0
	for i := range sizes {
		for j := i + 1; j < len(sizes); j++ {
			score += max(sizes[i]-sizes[j], sizes[j]-sizes[i])
		}
	}
	return score
}

// isBalanced: sizes within one of each other, or no member that lacks a
// potential partition could take it from a member holding more. Like
// librdkafka, the scan of members stops after the first member that does
// not hold all its potential partitions once it has walked that member's
// potential partitions (the member index and the partition index share
// one counter there).
func (s *stickyState) isBalanced() bool {
	if len(s.sorted) == 0 {
		return true
	}
	lo, hi := len(s.current[s.sorted[0]]), len(s.current[s.sorted[len(s.sorted)-1]])
	if lo >= hi-1 {
		return true
	}
	for i := 0; i < len(s.sorted); i++ {
		c := s.sorted[i]
		mine, potential := s.current[c], s.consumerPotential[c]
		if len(mine) == len(potential) {
			continue
		}
		for i = 0; i < len(potential); i++ {
			k := potential[i]
			if slices.Contains(mine, k) {
				continue
			}
			other, ok := s.owner[k]
			if !ok {
				continue
			}
			if len(mine) < len(s.current[other]) {
				return false
			}
		}
	}
	return true
}

func (s *stickyState) performReassignments(partitions []tp) bool {
	performed := false
	for {
		modified := false
		for i := 0; i < len(partitions) && !s.isBalanced(); i++ {
			k := partitions[i]
			c := s.owner[k]
			for _, other := range s.potential[k] {
				if other == c || len(s.current[c]) <= len(s.current[other])+1 {
					continue
				}
				s.reassign(k)
				performed, modified = true, true
				break
			}
		}
		if !modified {
			return performed
		}
	}
}

// reassign moves k to the least loaded member that can take it, or moves
// instead a partition that went the other way between the same two
// members earlier in this balance, which keeps the result sticky.
func (s *stickyState) reassign(k tp) {
	for _, to := range s.sorted {
		if !slices.Contains(s.consumerPotential[to], k) {
			continue
		}
		from := s.owner[k]
		k = s.moves.actual(k, from, to)
		from = s.owner[k]
		s.moves.move(k, from, to)
		s.current[to] = append(s.current[to], k)
		s.current[from] = slices.DeleteFunc(s.current[from], func(x tp) bool { return x == k })
		s.owner[k] = to
		s.resort()
		return
	}
}

type pair struct{ src, dst string }

// movements records the partitions moved during one balance, per
// partition and per topic and member pair.
type movements struct {
	byPartition map[tp]pair
	byTopic     map[string]map[pair][]tp
}

func (m *movements) add(k tp, p pair) {
	m.byPartition[k] = p
	if m.byTopic[k.topic] == nil {
		m.byTopic[k.topic] = map[pair][]tp{}
	}
	m.byTopic[k.topic][p] = append(m.byTopic[k.topic][p], k)
}

func (m *movements) remove(k tp) pair {
	p := m.byPartition[k]
	delete(m.byPartition, k)
	list := slices.DeleteFunc(m.byTopic[k.topic][p], func(x tp) bool { return x == k })
	if len(list) == 0 {
		delete(m.byTopic[k.topic], p)
	} else {
		m.byTopic[k.topic][p] = list
	}
	if len(m.byTopic[k.topic]) == 0 {
		delete(m.byTopic, k.topic)
	}
	return p
}

func (m *movements) move(k tp, from, to string) {
	if _, ok := m.byPartition[k]; ok {
		prev := m.remove(k)
		if prev.src != to {
			m.add(k, pair{prev.src, to})
		}
		return
	}
	m.add(k, pair{from, to})
}

// actual returns the partition to move from from to to instead of k: the
// first of the topic's partitions that moved from to to from earlier in
// this balance, if any (librdkafka looks up that pair by k's current
// owner, even when k itself moved earlier).
func (m *movements) actual(k tp, from, to string) tp {
	byPair, ok := m.byTopic[k.topic]
	if !ok {
		return k
	}
	if list := byPair[pair{src: to, dst: from}]; len(list) > 0 {
		return list[0]
	}
	return k
}
