package rebalance

import (
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/kgroups/kgroups/kafka"
)

// The server-side assignors of KIP-848 groups that Simulate models, as
// Kafka 4.2's group coordinator runs them (group.consumer.assignors).
const (
	// AssignorUniform is the broker's default: balanced and sticky.
	AssignorUniform = "uniform"
	// ServerRange is the broker's range assignor (AssignorRange's name).
	ServerRange = AssignorRange
)

// ServerAssignors lists the modelled KIP-848 assignors, in output order.
var ServerAssignors = []string{AssignorUniform, ServerRange}

// ImplBroker is the group coordinator, which assigns KIP-848 groups.
const ImplBroker Impl = "broker"

// maxServerOrders bounds the orders of topics (and of members whose ids
// share a hash bucket) that the uniform model runs for one place of the
// joiners; past it the row is approximate.
const maxServerOrders = 120

// simulateServer predicts a KIP-848 group's next target assignment under
// the broker's uniform and range assignors (see docs/simulate.md). The
// group's own assignor comes first.
func simulateServer(g *kafka.Group, partitions map[string]int32, topicIDs map[string]kafka.TopicID, change Change) (*Simulation, error) {
	leaving, err := checkChange(g, &change)
	if err != nil {
		return nil, err
	}

	var members []simMember
	var union []string
	for i := range g.Members {
		m := &g.Members[i]
		if len(m.Subscribed) == 0 {
			if m.SubscribedRegex != "" {
				return nil, fmt.Errorf("member %q subscribes by regular expression %q: the topics the broker resolved it to are not reported, so its assignment cannot be simulated", m.MemberID, m.SubscribedRegex)
			}
			return nil, fmt.Errorf("member %q subscribes to no topics", m.MemberID)
		}
		if leaving[m.MemberID] {
			continue
		}
		// The group subscribes to what its remaining members do;
		// joiners subscribe to all of it.
		union = append(union, m.Subscribed...)
		// The broker's assignors start from the target assignment (the
		// same as the current one once the group has settled).
		owned := m.Target
		if owned == nil {
			owned = m.Assignment
		}
		members = append(members, simMember{id: m.MemberID, instance: m.InstanceID, topics: uniqueSorted(m.Subscribed), owned: assignmentMap(owned)})
	}
	union = uniqueSorted(union)
	sort.SliceStable(members, func(i, j int) bool { return memberLess(members[i], members[j]) })

	sim := &Simulation{Group: g.Name, Change: change, StaticRejoin: staticRejoin(g, change.Leave),
		Leader: Identification{Impl: ImplBroker, Protocol: g.Assignor}}
	taken := make(map[string]bool, len(g.Members))
	for _, m := range g.Members {
		taken[m.MemberID] = true
	}
	for _, m := range members {
		sim.Members = append(sim.Members, m.id)
	}
	for n := 1; len(sim.Joiners) < change.Join; n++ {
		if id := "new-" + strconv.Itoa(n); !taken[id] {
			sim.Joiners = append(sim.Joiners, id)
		}
	}
	sim.Members = append(sim.Members, sim.Joiners...)

	counts := make(map[string]int32, len(union))
	var missing []string
	for _, t := range union {
		if n, ok := partitions[t]; ok && n > 0 {
			counts[t] = n
		} else {
			missing = append(missing, t)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("partition count unknown for subscribed topic(s) %v", missing)
	}

	var names []string
	if g.Assignor != "" {
		names = append(names, g.Assignor)
	}
	for _, name := range ServerAssignors {
		if name != g.Assignor {
			names = append(names, name)
		}
	}
	for i, name := range names {
		p := Prediction{Assignor: name, Impl: ImplBroker, Confidence: ConfidenceExact, Note: "the group's assignor"}
		if i > 0 {
			p.Note = "if the group used " + name
		}
		switch name {
		case ServerRange:
			p.Note += "; the broker's range"
			places, total, all, how := joinPlaces(members, len(sim.Joiners))
			settleServer(&p, sim, g, members, union, places, total, all, how, func(ms []simMember, _ []string, _ hashOrder) (map[string]map[string][]int32, error) {
				return serverRangePlan(ms, counts), nil
			}, nil)
		case AssignorUniform:
			places, total, all, how := idPlaces(members, len(sim.Joiners))
			if !sameTopics(members, union, len(sim.Joiners) > 0) {
				// The broker's heterogeneous builder (serverhetero.go).
				p.Note += "; the broker's uniform, for members of different subscriptions"
				settleServer(&p, sim, g, members, union, places, total, all, how, func(ms []simMember, order []string, v hashOrder) (map[string]map[string][]int32, error) {
					return heteroPlan(ms, order, v.ties, topicIDs, counts), nil
				}, func(members []simMember, joiners int, topics []string) ([]hashOrder, bool, string) {
					return heteroOrders(members, joiners, topics, topicIDs, counts)
				})
				break
			}
			p.Note += "; the broker's uniform"
			settleServer(&p, sim, g, members, union, places, total, all, how, func(ms []simMember, order []string, v hashOrder) (map[string]map[string][]int32, error) {
				return uniformPlan(ms, order, v.set, v.owned, counts)
			}, func(members []simMember, joiners int, topics []string) ([]hashOrder, bool, string) {
				return uniformOrders(members, joiners, topics, topicIDs)
			})
		default:
			p.Confidence = ConfidenceUnknown
			p.Err = &UnmodelledError{Impl: ImplBroker, Protocol: name}
		}
		sim.Predictions = append(sim.Predictions, p)
	}
	return sim, nil
}

// sameTopics reports whether every member subscribes to the same topics
// (and, with joiners, to all of union, which joiners subscribe to): the
// broker's homogeneous case.
func sameTopics(members []simMember, union []string, joiners bool) bool {
	for _, m := range members {
		if !slices.Equal(m.topics, members[0].topics) || (joiners && !slices.Equal(m.topics, union)) {
			return false
		}
	}
	return true
}

// orderings lists the iteration orders a model must try: for each, the
// member ids (existing members only, joiners excluded) and the topics in
// the broker's hash order. how says why there are several; all is false
// when not every order was listed.
type orderings func(members []simMember, joiners int, topics []string) (orders []hashOrder, all bool, how string)

// hashOrder is one way the broker's hash maps may iterate: the existing
// members (nil: as sorted), the subscribed topics (the set the assignor
// lists unassigned partitions from) and the topics of a member's target
// assignment (its own map, whose table may be sized otherwise); for the
// heterogeneous builder, which sorts its topics, ties is the order of
// topics whose ids would break a tie but are not known.
type hashOrder struct {
	members, set, owned, ties []string
}

// settleServer runs plan over every place of the joiners and every order
// the broker's hash maps may take, and fills p as settle does for the
// client assignors: the distinct results best first, approximate when
// they differ or not every place or order was run.
func settleServer(p *Prediction, sim *Simulation, g *kafka.Group, members []simMember, union []string, places []joinPlace, total *big.Int, all bool, how string,
	plan func(ms []simMember, order []string, v hashOrder) (map[string]map[string][]int32, error), orders orderings) {
	p.Places, p.PlacesOf = len(places), total
	before := ownersOf(g.Members)
	variants := []hashOrder{{set: union, owned: union}}
	allOrders, orderHow := true, ""
	if orders != nil {
		variants, allOrders, orderHow = orders(members, len(sim.Joiners), union)
	}
	for _, pl := range places {
		for _, v := range variants {
			ms := slices.Clone(members)
			for j, id := range pl.ids {
				jm := simMember{id: id, topics: union, joiner: true}
				if pl.instances != nil {
					jm.instance = pl.instances[j]
				}
				ms = append(ms, jm)
			}
			if orders != nil {
				// The uniform assignor's order is its hash map's: the
				// joiners' places are gaps among the member ids.
				sort.SliceStable(ms, func(i, j int) bool { return ms[i].id < ms[j].id })
			} else {
				sort.SliceStable(ms, func(i, j int) bool { return memberLess(ms[i], ms[j]) })
			}
			final, err := plan(ms, placeOrder(ms, v.members), v)
			if err != nil {
				p.Err = err
				p.Confidence = ConfidenceUnknown
				return
			}
			p.addOutcome(g, sim, before, renamed(final, pl.ids, sim.Joiners), 1)
		}
	}
	same := p.rankResults()
	if !same || !all || !allOrders {
		p.Confidence = ConfidenceApproximate
	}
	placesRun := kafka.Count(len(places), "place", "places")
	if !all {
		placesRun = fmt.Sprintf("%d of %s places", len(places), placesCount(p.PlacesOf))
	}
	ordersRun := kafka.Count(len(variants), "order", "orders")
	switch {
	case !same && len(variants) > 1 && len(sim.Joiners) > 0:
		p.Note += fmt.Sprintf("; %s and the joiners' member ids decide the result: %s in %s over %s run%s", orderHow, kafka.Count(len(p.distinct), "result", "results"), ordersRun, placesRun, how)
	case !same && len(variants) > 1:
		p.Note += fmt.Sprintf("; %s decides the result: %s in %s run", orderHow, kafka.Count(len(p.distinct), "result", "results"), ordersRun)
	case !same:
		p.Note += fmt.Sprintf("; joiners' member ids decide the result: %s in %s run%s", kafka.Count(len(p.distinct), "result", "results"), placesRun, how)
	case !all:
		p.Note += fmt.Sprintf("; joiners' member ids may decide the result: 1 result in %s run%s", placesRun, how)
	case !allOrders:
		p.Note += fmt.Sprintf("; %s may decide the result: 1 result in %s run", orderHow, ordersRun)
	}
}

// placeOrder is the order of ms (one place of the joiners, sorted by
// memberLess) in which the uniform assignor iterates them: order gives the
// existing members' own order, and the joiners keep the gaps their place
// gives them among the existing members. With order nil it is ms as is.
func placeOrder(ms []simMember, order []string) []string {
	out := make([]string, 0, len(ms))
	next := 0
	for _, m := range ms {
		if m.joiner || order == nil {
			out = append(out, m.id)
			continue
		}
		out = append(out, order[next])
		next++
	}
	return out
}

// serverRangePlan is Kafka 4.2's server-side range assignor: members
// sorted by instance id (static members first), then member id; each
// topic's partitions dealt in contiguous ranges to the members subscribed
// to it, in that order, the remainder one each to the first members. It
// keeps nothing of the current assignment.
func serverRangePlan(ms []simMember, counts map[string]int32) map[string]map[string][]int32 {
	subscribers := map[string]int{}
	for _, m := range ms {
		for _, t := range m.topics {
			subscribers[t]++
		}
	}
	next := map[string]int32{}
	extra := map[string]int{}
	for t, n := range subscribers {
		extra[t] = int(counts[t]) % n
	}
	plan := make(map[string]map[string][]int32, len(ms))
	for _, m := range ms {
		a := map[string][]int32{}
		for _, t := range m.topics {
			quota := counts[t] / int32(subscribers[t])
			if extra[t] > 0 {
				quota++
				extra[t]--
			}
			start := next[t]
			end := min(start+quota, counts[t])
			next[t] = end
			for p := start; p < end; p++ {
				a[t] = append(a[t], p)
			}
		}
		plan[m.id] = a
	}
	return plan
}

// uniformPlan is Kafka 4.2's server-side uniform assignor for a group whose
// members subscribe to the same topics (UniformHomogeneousAssignmentBuilder),
// members iterated in order (the broker's hash map order) and topics in
// topics' order (the order of their topic ids' hashes):
//
//   - every partition no member holds is unassigned, by topic then
//     partition;
//   - each member in turn gets a quota of ⌊T/N⌋, plus one while members
//     owed an extra partition remain, keeps its partitions up to the quota
//     (topic by topic, partitions in the order the broker's hash set holds
//     them), and gives the rest up, appended to the unassigned ones; a
//     member that could not fill its extra partition hands it on, unless
//     only as many members as extras remain;
//   - the members left short take the unassigned partitions in order, each
//     up to what it lacks, one member after the other.
func uniformPlan(ms []simMember, order, topics, ownedOrder []string, counts map[string]int32) (map[string]map[string][]int32, error) {
	byID := make(map[string]simMember, len(ms))
	for _, m := range ms {
		byID[m.id] = m
	}
	held := map[string]map[int32]bool{}
	for _, m := range ms {
		for t, ps := range m.owned {
			for _, p := range ps {
				if held[t] == nil {
					held[t] = map[int32]bool{}
				}
				held[t][p] = true
			}
		}
	}
	type tp struct {
		t string
		p int32
	}
	var unassigned []tp
	total := 0
	for _, t := range topics {
		for p := range counts[t] {
			if !held[t][p] {
				unassigned = append(unassigned, tp{t, p})
			}
		}
		total += int(counts[t])
	}
	n := len(order)
	if n == 0 {
		// Every member left: nothing is assigned until one joins.
		return map[string]map[string][]int32{}, nil
	}
	minQuota, extra := total/n, total%n
	subscribed := map[string]bool{}
	for _, t := range topics {
		subscribed[t] = true
	}
	type short struct {
		id   string
		need int
	}
	var unfilled []short
	plan := make(map[string]map[string][]int32, n)
	for i, id := range order {
		m := byID[id]
		quota, hasExtra := minQuota, false
		if extra > 0 {
			quota++
			hasExtra = true
		}
		keep := map[string][]int32{}
		for _, t := range ownedOrder {
			ps, ok := m.owned[t]
			if !ok || len(ps) == 0 || !subscribed[t] {
				continue
			}
			if len(ps) <= quota {
				keep[t] = slices.Clone(ps)
				quota -= len(ps)
				continue
			}
			for _, p := range javaIntSetOrder(ps) {
				if quota > 0 {
					keep[t] = append(keep[t], p)
					quota--
				} else {
					unassigned = append(unassigned, tp{t, p})
				}
			}
		}
		if quota > 0 && hasExtra && n-i > extra {
			quota--
			hasExtra = false
		}
		if quota > 0 {
			unfilled = append(unfilled, short{id, quota})
		}
		if hasExtra {
			extra--
		}
		plan[id] = keep
	}
	next := 0
	for _, u := range unfilled {
		for range u.need {
			if next >= len(unassigned) {
				break
			}
			x := unassigned[next]
			next++
			plan[u.id][x.t] = append(plan[u.id][x.t], x.p)
		}
	}
	if next < len(unassigned) {
		return nil, errors.New("uniform: partitions were left unassigned")
	}
	return plan, nil
}

// uniformOrders lists the orders the uniform assignor may iterate in. The
// broker keeps members and topics in Java hash maps: members in the order
// of their ids' String hashes (computed here; members whose ids share a
// bucket are in an order kgroups cannot see, so every order of them is
// tried), topics in the order of their topic ids' hashes: computed when
// ids gives every topic's id, else every order of the topics is tried.
func uniformOrders(members []simMember, joiners int, topics []string, ids map[string]kafka.TopicID) ([]hashOrder, bool, string) {
	memberIDs := make([]string, len(members))
	for i, m := range members {
		memberIDs[i] = m.id
	}
	memberOrders := javaHashOrders(memberIDs, len(members)+joiners, javaStringHash, tableForPuts)
	all := len(memberOrders) < maxServerOrders
	known := true
	for _, t := range topics {
		if id, ok := ids[t]; !ok || id == (kafka.TopicID{}) {
			known = false
		}
	}
	var topicOrders [][2][]string
	if known {
		// The subscribed topic ids are a HashSet made from a collection;
		// a member's target assignment a HashMap filled one put at a time.
		hash := func(t string) int32 { return javaUUIDHash(ids[t]) }
		sets := javaHashOrders(topics, len(topics), hash, tableForCollection)
		owned := javaHashOrders(topics, len(topics), hash, tableForPuts)
		if len(sets) > 1 || len(owned) > 1 {
			// Topics whose ids share a bucket: each map may hold them in
			// its own order of insertion.
			all = false
		}
		for _, so := range sets {
			for _, oo := range owned {
				topicOrders = append(topicOrders, [2][]string{so, oo})
			}
		}
	} else {
		for _, o := range permutations(topics, maxServerOrders) {
			topicOrders = append(topicOrders, [2][]string{o, o})
		}
		// One order serves both maps while both tables have 16 buckets
		// (up to 11 topics).
		if len(topicOrders) < factorial(len(topics)) || len(topics) > 11 {
			all = false
		}
	}
	var out []hashOrder
	for _, mo := range memberOrders {
		for _, to := range topicOrders {
			if len(out) == maxServerOrders {
				all = false
				break
			}
			out = append(out, hashOrder{members: mo, set: to[0], owned: to[1]})
		}
	}
	var why []string
	if !known {
		why = append(why, "the order of the topic ids' hashes (ids not read)")
	} else if len(topicOrders) > 1 {
		why = append(why, "the order of topics whose ids share a hash bucket")
	}
	if len(memberOrders) > 1 {
		why = append(why, "the order of members whose ids share a hash bucket")
	}
	return out, all, strings.Join(why, " and ")
}
