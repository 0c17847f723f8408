package rebalance

import (
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
)

// The classic assignors Simulate runs, in the order it reports them.
const (
	AssignorRange             = "range"
	AssignorRoundRobin        = "roundrobin"
	AssignorSticky            = "sticky"
	AssignorCooperativeSticky = "cooperative-sticky"
)

// Assignors lists the assignors Simulate runs, in output order.
var Assignors = []string{AssignorRange, AssignorRoundRobin, AssignorSticky, AssignorCooperativeSticky}

// MaxJoin bounds Change.Join: the simulation builds one member per joiner.
const MaxJoin = 1000

// maxRounds bounds the cooperative join rounds; the cooperative-sticky
// protocol settles in two, so hitting this means the balancer disagrees
// with itself.
const maxRounds = 10

// Change is the membership change to simulate: members leaving by member
// id, or new members joining.
type Change struct {
	Leave []string
	Join  int
}

// String describes the change for humans and JSON ("leave a, b", "join 2").
func (c Change) String() string {
	if len(c.Leave) > 0 {
		return "leave " + strings.Join(c.Leave, ", ")
	}
	return "join " + strconv.Itoa(c.Join)
}

func (c Change) validate() error {
	switch {
	case len(c.Leave) > 0 && c.Join != 0:
		return errors.New("simulate either members leaving or members joining, not both")
	case len(c.Leave) == 0 && c.Join == 0:
		return errors.New("nothing to simulate: name members that leave, or a number of members that join (1 to " + strconv.Itoa(MaxJoin) + ")")
	case c.Join < 0 || c.Join > MaxJoin:
		return fmt.Errorf("cannot simulate %d members joining: the number must be from 1 to %d", c.Join, MaxJoin)
	}
	for _, id := range c.Leave {
		if id == "" {
			return errors.New("a member id cannot be empty")
		}
	}
	return nil
}

// Prediction is what one assignor would do after the change.
type Prediction struct {
	Assignor string
	// Moves are the partitions whose owner changes, from the current
	// assignment to the predicted one, sorted by topic and partition.
	Moves []Move
	// ByProcess counts the prediction by process (see Reassign and
	// predictedReassign): the partitions whose owning process changes.
	ByProcess Reassignment
	// Assignment maps every member after the change (joiners included)
	// to its predicted partitions; a member with none has an empty slice.
	Assignment map[string][]kafka.TopicPartitions
	// Rounds is how many join rounds the group needs before it settles:
	// 1 for the eager assignors; cooperative-sticky takes 2 when a
	// partition must be revoked from one member before another gets it.
	Rounds int
	// Err is why the assignor could not balance the group, or, for the
	// group's own assignor when kgroups does not model it, an
	// *UnmodelledError.
	Err error
	// Impl is the implementation whose assignor made the prediction.
	Impl Impl
	// Confidence is how far the prediction can be trusted.
	Confidence Confidence
	// Note says what the row is ("the group's assignor", "if the group
	// used range") and why it is not exact, for humans; not sanitized.
	Note string

	// Results are every different result the runs gave (the joiners'
	// places, whose member ids the coordinator issues only when they
	// join, and the repeated runs of an assignor that breaks ties its
	// own way), best first: fewest partitions changing process, then
	// fewest moves, then fewest rounds, then as first met. Moves,
	// ByProcess, Assignment and Rounds above are Results[0]. One result
	// when every run agrees; none for a row that could not run.
	Results []PlaceOutcome
	// Worst is the last of Results when there are several (the one that
	// changes the most partitions' process), nil when every run gives
	// one result.
	Worst *PlaceOutcome
	// Places is how many places of the joiners were run, PlacesOf how
	// many there are, exactly (1 and 1 without joiners); fewer run than
	// there are (see MaxPlaces) makes the prediction approximate.
	Places   int
	PlacesOf *big.Int

	// distinct are the different outcomes the places run gave, in the
	// order first met.
	distinct []PlaceOutcome
}

// Best is the outcome the prediction's own fields hold: with several
// results, the one that changes the fewest partitions' process.
func (p *Prediction) Best() PlaceOutcome {
	return PlaceOutcome{Moves: p.Moves, ByProcess: p.ByProcess, Assignment: p.Assignment, Rounds: p.Rounds}
}

// Outcome is the best result, or the worst one when worst is set and the
// runs differ.
func (p *Prediction) Outcome(worst bool) PlaceOutcome {
	if worst && p.Worst != nil {
		return *p.Worst
	}
	return p.Best()
}

// Result is the i-th of Results (0 is the best), or Best when the row
// has none.
func (p *Prediction) Result(i int) PlaceOutcome {
	if i >= 0 && i < len(p.Results) {
		return p.Results[i]
	}
	return p.Best()
}

// Ranged reports whether the runs give different results.
func (p *Prediction) Ranged() bool { return len(p.Results) > 1 }

// Confidence grades a prediction.
type Confidence string

const (
	// ConfidenceExact is a modelled implementation with all its inputs
	// known: the group will do this.
	ConfidenceExact Confidence = "exact"
	// ConfidenceApproximate is a prediction whose ties may break
	// differently or whose inputs were not all reported (owned partitions,
	// sticky user data, joiners' member ids, another client's assignor).
	ConfidenceApproximate Confidence = "approximate"
	// ConfidenceUnknown is no prediction: the assignor is not modelled.
	ConfidenceUnknown Confidence = "unknown"
)

// UnmodelledError is the group's own assignor when kgroups has no model
// of it for the leader's implementation: only counts are known.
type UnmodelledError struct {
	Impl     Impl
	Protocol string
}

func (e *UnmodelledError) Error() string {
	if e.Impl == ImplBroker {
		return "counts only: the broker runs the server assignor " + e.Protocol + ", which kgroups does not model"
	}
	name := e.Protocol
	known := slices.Contains(javaProtocols, e.Protocol) || e.Protocol == ProtocolKafkaJSRoundRobin
	if known && e.Impl != ImplUnknown && e.Impl != ImplMixed && e.Impl != "" {
		name = e.Impl.Name() + "'s " + e.Protocol
	}
	return "counts only: this group's leader runs " + name + ", which kgroups does not model"
}

// Simulation is the result of Simulate.
type Simulation struct {
	Group  string
	Change Change
	// Members are the member ids after the change, in the order the
	// assignors see them (static members by instance id, then dynamic
	// members by id, then joiners).
	Members []string
	// Joiners are the ids given to the simulated new members.
	Joiners []string
	// Leader is the implementation inferred for the group's leader.
	Leader Identification
	// Predictions are the group's own assignor first, when the leader's
	// implementation is modelled (or a row saying it is not), then the
	// Java/franz-go assignors in Assignors order.
	Predictions []Prediction

	// StaticRejoin is set when static members leave: counted by
	// process, what happens if they rejoin under their instance ids
	// within the session timeout instead (no rebalance; see staticRejoin).
	StaticRejoin *Reassignment
}

// Prediction returns the prediction of one assignor.
func (s *Simulation) Prediction(assignor string) (*Prediction, bool) {
	for i := range s.Predictions {
		if s.Predictions[i].Assignor == assignor {
			return &s.Predictions[i], true
		}
	}
	return nil, false
}

// simMember is one member as the balancers will see it.
type simMember struct {
	id       string // the real member id, or a joiner's made-up one
	instance string
	topics   []string // sorted
	// ordered is the subscription in the order the member sent it (nil
	// means the same as topics), for the assignors that keep that order.
	ordered []string
	owned   map[string][]int32
	joiner  bool // a simulated new member: no generation yet
}

// SimulateWithTopicIDs is Simulate given the topics' ids (the snapshot's
// TopicIDs), which decide the order the broker's uniform assignor takes a
// KIP-848 group's topics in; without them every order is tried and the
// prediction may be approximate. A classic group does not use them.
func SimulateWithTopicIDs(g *kafka.Group, partitions map[string]int32, topicIDs map[string]kafka.TopicID, change Change) (*Simulation, error) {
	if g.Type == kafka.TypeConsumer {
		return simulateServer(g, partitions, topicIDs, change)
	}
	return Simulate(g, partitions, change)
}

// Simulate predicts a consumer group's next assignment after the change.
// A KIP-848 group's is predicted under the broker's uniform and range
// assignors (see simulateServer); the rest of this comment is about
// classic groups.
//
// Simulate predicts a classic consumer group's next assignment after the
// change under each of Assignors, by running franz-go's own balancers (the
// same code a kgo group leader runs) offline.
//
// Each remaining member keeps the subscription decoded from its real join
// metadata and reports its current assignment as owned partitions (and, for
// sticky, as sticky user data, as Java clients do; kgo's eager sticky
// clients rejoin with none, so a kgo sticky group may move more than
// predicted). Joiners subscribe to the union of the members' topics and own
// nothing; their real member ids are random, so the simulation places them
// after the existing members, which is where range and roundrobin's
// prediction for them may differ from reality. Cooperative-sticky is run
// round after round, as the group would, until no member has partitions
// revoked.
//
// partitions gives the partition count of every subscribed topic.
func Simulate(g *kafka.Group, partitions map[string]int32, change Change) (*Simulation, error) {
	if g.Type == kafka.TypeConsumer {
		return simulateServer(g, partitions, nil, change)
	}
	if g.ProtocolType != "" && g.ProtocolType != "consumer" {
		return nil, fmt.Errorf("group %q has protocol type %q, not consumer: only consumer groups use the consumer assignors", g.Name, g.ProtocolType)
	}
	leaving, err := checkChange(g, &change)
	if err != nil {
		return nil, err
	}

	var members []simMember
	var union []string
	gen := int32(0)
	for i := range g.Members {
		m := &g.Members[i]
		meta, err := decodeMetadata(m)
		if err != nil {
			return nil, err
		}
		gen = max(gen, meta.Generation+1)
		union = append(union, meta.Topics...)
		if leaving[m.MemberID] {
			continue
		}
		members = append(members, simMember{
			id:       m.MemberID,
			instance: m.InstanceID,
			topics:   uniqueSorted(meta.Topics),
			ordered:  slices.Clone(meta.Topics),
			owned:    assignmentMap(m.Assignment),
		})
	}
	shared := sharedSubscription(members)
	sort.SliceStable(members, func(i, j int) bool { return memberLess(members[i], members[j]) })
	union = uniqueSorted(union)

	sim := &Simulation{Group: g.Name, Change: change, StaticRejoin: staticRejoin(g, change.Leave)}
	taken := make(map[string]bool, len(g.Members))
	for _, m := range g.Members {
		taken[m.MemberID] = true
	}
	remaining := make([]string, 0, len(members))
	for _, m := range members {
		remaining = append(remaining, m.id)
	}
	for n := 1; len(sim.Joiners) < change.Join; n++ {
		id := "new-" + strconv.Itoa(n)
		if taken[id] {
			continue
		}
		sim.Joiners = append(sim.Joiners, id)
	}
	sim.Members = append(slices.Clone(remaining), sim.Joiners...)

	counts := make(map[string]int32, len(union))
	var missing []string
	for _, m := range members {
		for _, t := range m.topics {
			n, ok := partitions[t]
			if !ok || n <= 0 {
				missing = append(missing, t)
				continue
			}
			counts[t] = n
		}
	}
	if len(sim.Joiners) > 0 {
		for _, t := range union {
			if n, ok := partitions[t]; ok && n > 0 {
				counts[t] = n
			} else {
				missing = append(missing, t)
			}
		}
	}
	if missing = uniqueSorted(missing); len(missing) > 0 {
		return nil, fmt.Errorf("partition count unknown for subscribed topic(s) %s", strings.Join(missing, ", "))
	}

	javaPlaces, javaTotal, javaAll, javaHow := joinPlaces(members, len(sim.Joiners))
	// withJoiners is the members as one place of the joiners has them,
	// in kgo's leader order.
	withJoiners := func(pl joinPlace, base []simMember) []simMember {
		out := slices.Clone(base)
		for j, id := range pl.ids {
			jm := simMember{id: id, topics: union, ordered: shared, joiner: true}
			if pl.instances != nil {
				jm.instance = pl.instances[j]
			}
			out = append(out, jm)
		}
		sort.SliceStable(out, func(i, j int) bool { return memberLess(out[i], out[j]) })
		return out
	}
	before := ownersOf(g.Members)
	sim.Leader = Identify(g)
	// settle runs one assignor over every place of the joiners, trials
	// times each, from the members base. ties says the assignor breaks
	// ties between members in a way kgroups does not model: franz-go's
	// sticky balancers at random (one input may give several results),
	// the Java client's by its own iteration orders.
	settle := func(p *Prediction, idOnly bool, base []simMember, trials int, ties bool, runPlace func([]simMember) (map[string]map[string][]int32, int, error)) {
		places, total, all, how := javaPlaces, javaTotal, javaAll, javaHow
		if idOnly {
			places, total, all, how = idPlaces(members, len(sim.Joiners))
		}
		p.Places, p.PlacesOf = len(places), total
		runs := 0
		for _, pl := range places {
			for range trials {
				runs++
				final, rounds, err := runPlace(withJoiners(pl, base))
				if err != nil {
					p.Err = err
					return
				}
				p.addOutcome(g, sim, before, renamed(final, pl.ids, sim.Joiners), rounds)
			}
		}
		same := p.rankResults()
		// With one member left there is nothing to break a tie between.
		ties = ties && len(sim.Members) > 1
		if (!same || !all || ties) && p.Confidence == ConfidenceExact {
			p.Confidence = ConfidenceApproximate
		}
		placesRun := kafka.Count(len(places), "place", "places")
		if !all {
			placesRun = fmt.Sprintf("%d of %s places", len(places), placesCount(total))
		}
		switch {
		case ties && len(sim.Joiners) > 0:
			p.Note += fmt.Sprintf("; the leader breaks ties its own way (franz-go's at random): %s in %d runs over %s of the joiners%s", kafka.Count(len(p.distinct), "result", "results"), runs, placesRun, how)
		case ties:
			p.Note += fmt.Sprintf("; the leader breaks ties its own way (franz-go's at random): %s in %d runs", kafka.Count(len(p.distinct), "result", "results"), runs)
		case !same:
			p.Note += fmt.Sprintf("; joiners' member ids decide the result: %s in %s run%s", kafka.Count(len(p.distinct), "result", "results"), placesRun, how)
		case !all:
			p.Note += fmt.Sprintf("; joiners' member ids may decide the result: 1 result in %s run%s", placesRun, how)
		}
	}
	// runImpl runs impl's assignor for protocol into p, as the group's
	// own row or a Java row is run; false when kgroups has no exact model
	// of it.
	runImpl := func(p *Prediction, impl Impl, protocol string) bool {
		if impl == ImplJava {
			if !slices.Contains(Assignors, protocol) {
				return false
			}
			settle(p, false, members, 1, false, func(ms []simMember) (map[string]map[string][]int32, int, error) {
				return run(balancer(protocol), ms, counts, gen)
			})
			return true
		}
		md, ok := lookupModel(impl, protocol)
		if !ok || md.inexact != "" {
			return false
		}
		settle(p, md.idOnly, members, 1, false, func(ms []simMember) (map[string]map[string][]int32, int, error) { return runModel(md, ms, counts) })
		return true
	}
	ownSeen := false
	if own, ok := ownPrediction(g, sim.Leader); ok {
		if md, ok := lookupModel(sim.Leader.Impl, g.Assignor); ok {
			settle(&own, md.idOnly, members, 1, false, func(ms []simMember) (map[string]map[string][]int32, int, error) { return runModel(md, ms, counts) })
		}
		confirmLeader(&own, sim, true, runImpl)
		sim.Predictions = append(sim.Predictions, own)
		ownSeen = true
	}
	for _, name := range Assignors {
		p := javaPrediction(g, sim.Leader, name)
		base, trials, ties := members, 1, false
		if name == AssignorSticky || name == AssignorCooperativeSticky {
			trials, ties = stickyTrials(len(javaPlaces)), true
		}
		if name == g.Assignor && sim.Leader.Impl == ImplJava && len(sim.Leader.Doubts) == 0 && !sim.Leader.Partial &&
			(name == AssignorSticky || name == AssignorCooperativeSticky) && javaStickyClient(g) &&
			javaStickyApplies(g, members, len(sim.Joiners), counts) {
			// The Java client's own sticky assignors, modelled: members
			// sorted by member id alone, so joiners go anywhere among
			// the member ids.
			cooperative := name == AssignorCooperativeSticky
			md := model{impl: ImplJava, protocol: name, cooperative: cooperative, idOnly: true,
				plan: func(ms []simMember, owned map[string]map[string][]int32, counts map[string]int32) (map[string]map[string][]int32, error) {
					return javaStickyPlan(ms, owned, counts, cooperative), nil
				}}
			// Members that sent no sticky user data joined for the first
			// time; at the next join every Java member sends what it
			// owns, which is what the model takes.
			p.Confidence = ConfidenceExact
			p.Note = "the group's assignor" + conflictNote(sim.Leader) + "; the Java client's " + name + " assignor"
			settle(&p, true, members, 1, false, func(ms []simMember) (map[string]map[string][]int32, int, error) { return runModel(md, ms, counts) })
			confirmLeader(&p, sim, !ownSeen, runImpl)
			sim.Predictions = append(sim.Predictions, p)
			continue
		}
		if name == AssignorSticky && g.Assignor == AssignorSticky && eagerWithoutHistory(g) {
			// franz-go's eager sticky members revoke everything before
			// they rejoin and send no previous assignment: the leader
			// balances from nothing.
			base = forgetOwned(members)
			p.Note += "; members rejoin without their previous assignment"
		}
		settle(&p, false, base, trials, ties, func(ms []simMember) (map[string]map[string][]int32, int, error) {
			return run(balancer(name), ms, counts, gen)
		})
		confirmLeader(&p, sim, !ownSeen && name == g.Assignor, runImpl)
		sim.Predictions = append(sim.Predictions, p)
	}
	return sim, nil
}

// confirmLeader settles a row whose leader was identified in doubt (a
// client id decided, or two clients send the same metadata): an exact row
// stays exact only when every implementation that may lead instead
// predicts the same results, run over the same places; otherwise it is
// approximate, and the note says why. own is the group's own row, which
// names the doubt even when it is approximate for another reason.
func confirmLeader(p *Prediction, sim *Simulation, own bool, runImpl func(*Prediction, Impl, string) bool) {
	id := sim.Leader
	if len(id.Doubts) == 0 || p.Err != nil {
		return
	}
	doubt := id.Doubts[0]
	if p.Confidence != ConfidenceExact {
		if own {
			p.Note += "; " + doubt
		}
		return
	}
	if id.Unsettled || len(id.Alternatives) == 0 {
		p.Confidence = ConfidenceApproximate
		p.Note += "; " + doubt
		return
	}
	var names []string
	for _, alt := range id.Alternatives {
		if alt == p.Impl {
			continue
		}
		q := Prediction{Assignor: p.Assignor, Impl: alt, Confidence: ConfidenceExact}
		if !runImpl(&q, alt, p.Assignor) {
			p.Confidence = ConfidenceApproximate
			p.Note += "; " + doubt + ", and kgroups has no exact model of " + alt.Name() + "'s " + p.Assignor
			return
		}
		if q.Err != nil || !sameResults(p.distinct, q.distinct, sim.Joiners) {
			p.Confidence = ConfidenceApproximate
			p.Note += "; " + doubt + ", and " + alt.Name() + "'s " + p.Assignor + " gives other results"
			return
		}
		names = append(names, alt.Name()+"'s")
	}
	if len(names) > 0 {
		p.Note += "; " + doubt + ", but " + strings.Join(names, " and ") + " " + p.Assignor + " gives the same results"
	}
}

// sameResults reports whether two rows ran the same set of distinct
// results.
func sameResults(a, b []PlaceOutcome, joiners []string) bool {
	in := func(o PlaceOutcome, set []PlaceOutcome) bool {
		return slices.ContainsFunc(set, func(d PlaceOutcome) bool { return sameOutcome(d, o, joiners) })
	}
	for _, o := range a {
		if !in(o, b) {
			return false
		}
	}
	for _, o := range b {
		if !in(o, a) {
			return false
		}
	}
	return true
}

// addOutcome adds to p's distinct results the outcome of a place whose
// final plan (member id to topic to partitions, the joiners under their
// own ids) took rounds rounds, unless an equal one is there already.
func (p *Prediction) addOutcome(g *kafka.Group, sim *Simulation, before owners, final map[string]map[string][]int32, rounds int) {
	o := PlaceOutcome{Rounds: rounds, Assignment: make(map[string][]kafka.TopicPartitions, len(sim.Members))}
	for _, id := range sim.Members {
		o.Assignment[id] = topicPartitions(final[id])
	}
	o.Moves = diff(before, ownersOfAssignment(o.Assignment))
	o.ByProcess = predictedReassign(g, o.Assignment)
	if !slices.ContainsFunc(p.distinct, func(d PlaceOutcome) bool { return sameOutcome(d, o, sim.Joiners) }) {
		p.distinct = append(p.distinct, o)
	}
}

// rankResults orders p's distinct results best first into Results, takes
// the best as the prediction and the last as Worst when they differ, and
// reports whether every run gave the same result.
func (p *Prediction) rankResults() (same bool) {
	same = len(p.distinct) == 1
	p.Results = slices.Clone(p.distinct)
	slices.SortStableFunc(p.Results, func(a, b PlaceOutcome) int {
		switch {
		case placeLess(a, b):
			return -1
		case placeLess(b, a):
			return 1
		}
		return 0
	})
	best := p.Results[0]
	p.Moves, p.ByProcess, p.Assignment, p.Rounds = best.Moves, best.ByProcess, best.Assignment, best.Rounds
	if !same {
		p.Worst = &p.Results[len(p.Results)-1]
	}
	return same
}

// checkChange checks change against group g (a valid change, a group with
// members, leavers that are members), sorts its leavers without repeats,
// and returns them as a set.
func checkChange(g *kafka.Group, change *Change) (map[string]bool, error) {
	if err := change.validate(); err != nil {
		return nil, err
	}
	if len(g.Members) == 0 {
		return nil, fmt.Errorf("group %q has no members (state %s): there is no assignment to change", g.Name, g.State)
	}
	leaving := make(map[string]bool, len(change.Leave))
	for _, id := range change.Leave {
		if _, ok := g.Member(id); !ok {
			return nil, &MemberNotFoundError{Group: g.Name, Name: id, MemberIDs: memberIDs(g)}
		}
		leaving[id] = true
	}
	change.Leave = uniqueSorted(change.Leave)
	return leaving, nil
}

// placeLess orders the outcomes of two places of the joiners from best to
// worst: fewer partitions changing process, then fewer moves, then fewer
// rounds.
func placeLess(a, b PlaceOutcome) bool {
	if x, y := len(a.ByProcess.Moves), len(b.ByProcess.Moves); x != y {
		return x < y
	}
	if x, y := len(a.Moves), len(b.Moves); x != y {
		return x < y
	}
	return a.Rounds < b.Rounds
}

// ownPrediction is the row for the group's own assignor when the Java rows
// do not already run it: the leader's model when kgroups has one, else a
// counts-only row. ok is false when a Java row is the group's own.
func ownPrediction(g *kafka.Group, leader Identification) (Prediction, bool) {
	// A Java name under a Java, unidentified or mixed leader is the Java
	// row itself (approximate unless the leader is Java).
	javaOwn := slices.Contains(Assignors, g.Assignor) &&
		(leader.Impl == ImplJava || leader.Impl == ImplUnknown || leader.Impl == ImplMixed)
	if javaOwn || g.Assignor == "" {
		return Prediction{}, false
	}
	p := Prediction{Assignor: g.Assignor, Impl: leader.Impl, Note: "the group's assignor"}
	if _, ok := lookupModel(leader.Impl, g.Assignor); !ok {
		p.Confidence = ConfidenceUnknown
		p.Err = &UnmodelledError{Impl: leader.Impl, Protocol: g.Assignor}
		return p, true
	}
	p.Confidence = ConfidenceExact
	if leader.Partial {
		p.Confidence = ConfidenceApproximate
		p.Note += "; some members' clients are not identified"
	}
	if md, _ := lookupModel(leader.Impl, g.Assignor); md.inexact != "" {
		p.Confidence = ConfidenceApproximate
		p.Note += "; " + md.inexact
	}
	p.Note += conflictNote(leader)
	return p, true
}

// javaPrediction starts a Java/franz-go row: exact when the group's
// leader is a Java or franz-go client, approximate when it is another
// client (whose assignor of the same name breaks ties its own way) or
// when eager sticky members sent no user data.
func javaPrediction(g *kafka.Group, leader Identification, name string) Prediction {
	p := Prediction{Assignor: name, Impl: ImplJava, Confidence: ConfidenceExact}
	switch {
	case g.Assignor == name && leader.Impl == ImplJava:
		p.Note = "the group's assignor" + conflictNote(leader)
	case g.Assignor == name && (leader.Impl == ImplUnknown || leader.Impl == ImplMixed):
		p.Note = "the group's assignor, if its leader runs the Java or franz-go one"
	default:
		p.Note = "if the group used " + name
	}
	switch {
	case leader.Impl != ImplJava || leader.Partial:
		p.Confidence = ConfidenceApproximate
	case name == AssignorSticky && g.Assignor == AssignorSticky && !allUserData(g):
		p.Confidence = ConfidenceApproximate
		p.Note += "; members sent no sticky user data"
	}
	return p
}

// conflictNote says that the leader was identified by its metadata
// against what a client id suggested.
func conflictNote(leader Identification) string {
	if len(leader.Conflicts) == 0 {
		return ""
	}
	return "; identified by metadata: " + leader.Conflicts[0]
}

// allUserData reports whether every member's join metadata carries user
// data (the eager sticky assignor's record of what it owns).
func allUserData(g *kafka.Group) bool {
	for i := range g.Members {
		if _, ud, ok := metadataVersion(g.Members[i].JoinMetadata); !ok || !ud {
			return false
		}
	}
	return true
}

// runModel runs an implementation's model as run runs a kgo balancer.
func runModel(md model, members []simMember, counts map[string]int32) (map[string]map[string][]int32, int, error) {
	owned := make(map[string]map[string][]int32, len(members))
	for _, m := range members {
		owned[m.id] = m.owned
	}
	for round := 1; round <= maxRounds; round++ {
		plan, err := md.plan(members, owned, counts)
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", md.protocol, err)
		}
		for id := range plan {
			for t := range plan[id] {
				slices.Sort(plan[id][t])
			}
		}
		revoked := false
		for _, m := range members {
			if lost(owned[m.id], plan[m.id]) {
				revoked = true
			}
		}
		if !md.cooperative || !revoked {
			return plan, round, nil
		}
		owned = plan
	}
	return nil, 0, fmt.Errorf("%s did not settle within %d rounds", md.protocol, maxRounds)
}

// sharedSubscription is the subscription, in order, that all members
// share, or nil when they differ.
func sharedSubscription(members []simMember) []string {
	if len(members) == 0 {
		return nil
	}
	first := members[0].subscription()
	for _, m := range members[1:] {
		if !slices.Equal(m.subscription(), first) {
			return nil
		}
	}
	return slices.Clone(first)
}

func balancer(name string) kgo.GroupBalancer {
	switch name {
	case AssignorRange:
		return kgo.RangeBalancer()
	case AssignorRoundRobin:
		return kgo.RoundRobinBalancer()
	case AssignorSticky:
		return kgo.StickyBalancer()
	default:
		return kgo.CooperativeStickyBalancer()
	}
}

// run balances members repeatedly, as the group would: after each round,
// members that lost partitions rejoin (cooperative protocols only), owning
// what the round gave them. It returns the settled assignment keyed by
// member id and the number of rounds.
func run(bal kgo.GroupBalancer, members []simMember, counts map[string]int32, gen int32) (map[string]map[string][]int32, int, error) {
	owned := make(map[string]map[string][]int32, len(members))
	for _, m := range members {
		owned[m.id] = m.owned
	}
	for round := 1; round <= maxRounds; round++ {
		plan, err := balanceOnce(bal, members, owned, counts, gen)
		if err != nil {
			return nil, 0, err
		}
		revoked := false
		for _, m := range members {
			if lost(owned[m.id], plan[m.id]) {
				revoked = true
			}
		}
		if !bal.IsCooperative() || !revoked {
			return plan, round, nil
		}
		owned = plan
		gen++
	}
	return nil, 0, fmt.Errorf("%s did not settle within %d rounds", bal.ProtocolName(), maxRounds)
}

// balanceOnce runs one join round: every member's metadata is what the
// balancer itself would send, then the balancer computes the plan.
func balanceOnce(bal kgo.GroupBalancer, members []simMember, owned map[string]map[string][]int32, counts map[string]int32, gen int32) (map[string]map[string][]int32, error) {
	// Balancer ids keep the order kgo's leader would use (instance ids,
	// then member ids) while placing joiners last.
	join := make([]kmsg.JoinGroupResponseMember, len(members))
	byKey := make(map[string]string, len(members))
	for i, m := range members {
		key := fmt.Sprintf("m%06d", i)
		byKey[key] = m.id
		memberGen := gen
		if m.joiner && owned[m.id] == nil {
			memberGen = -1
		}
		join[i] = kmsg.JoinGroupResponseMember{
			MemberID:         key,
			ProtocolMetadata: bal.JoinGroupMetadata(m.topics, cloneAssignment(owned[m.id]), memberGen),
		}
	}
	mb, _, err := bal.MemberBalancer(join)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", bal.ProtocolName(), err)
	}
	var into kgo.IntoSyncAssignment
	if be, ok := mb.(kgo.GroupMemberBalancerOrError); ok {
		into, err = be.BalanceOrError(maps.Clone(counts))
	} else {
		into = mb.Balance(maps.Clone(counts))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", bal.ProtocolName(), err)
	}
	if into == nil {
		return nil, fmt.Errorf("%s returned no plan", bal.ProtocolName())
	}
	plan := make(map[string]map[string][]int32, len(members))
	for _, a := range into.IntoSyncAssignment() {
		parsed, err := bal.ParseSyncAssignment(a.MemberAssignment)
		if err != nil {
			return nil, fmt.Errorf("%s: parse its assignment for a member: %w", bal.ProtocolName(), err)
		}
		id, ok := byKey[a.MemberID]
		if !ok {
			return nil, fmt.Errorf("%s assigned partitions to an unknown member", bal.ProtocolName())
		}
		for t := range parsed {
			slices.Sort(parsed[t])
		}
		plan[id] = parsed
	}
	return plan, nil
}

// decodeMetadata reads the member's real ConsumerMemberMetadata, as
// ReadMemberMetadata does (kafka-go's truncated version 1 included).
func decodeMetadata(m *kafka.Member) (*kmsg.ConsumerMemberMetadata, error) {
	if len(m.JoinMetadata) == 0 {
		return nil, fmt.Errorf("member %q sent no subscription metadata that kgroups could read (is the group rebalancing? try again when it is Stable)", m.MemberID)
	}
	meta, _, err := ReadMemberMetadata(m.JoinMetadata)
	if err != nil {
		return nil, fmt.Errorf("member %q: decode its subscription metadata: %w", m.MemberID, err)
	}
	if len(meta.Topics) == 0 {
		return nil, fmt.Errorf("member %q subscribes to no topics", m.MemberID)
	}
	return &meta, nil
}

// memberLess is kgo's leader order: static members by instance id first,
// then dynamic members by member id.
func memberLess(a, b simMember) bool {
	switch {
	case a.instance != "" && b.instance != "":
		return a.instance < b.instance
	case a.instance != "":
		return true
	case b.instance != "":
		return false
	}
	return a.id < b.id
}

// subscription is the member's topics in the order it subscribed.
func (m simMember) subscription() []string {
	if m.ordered != nil {
		return m.ordered
	}
	return m.topics
}

// lost reports whether before has a partition that after lacks.
func lost(before, after map[string][]int32) bool {
	for t, ps := range before {
		for _, p := range ps {
			if !slices.Contains(after[t], p) {
				return true
			}
		}
	}
	return false
}

func assignmentMap(tps []kafka.TopicPartitions) map[string][]int32 {
	if len(tps) == 0 {
		return nil
	}
	m := make(map[string][]int32, len(tps))
	for _, tp := range tps {
		m[tp.Topic] = append(m[tp.Topic], tp.Partitions...)
	}
	for t := range m {
		slices.Sort(m[t])
	}
	return m
}

func cloneAssignment(m map[string][]int32) map[string][]int32 {
	if m == nil {
		return nil
	}
	out := make(map[string][]int32, len(m))
	for t, ps := range m {
		out[t] = slices.Clone(ps)
	}
	return out
}

// topicPartitions turns a topic -> partitions map into the snapshot's
// sorted form; never nil, so that a member with nothing shows as such.
func topicPartitions(m map[string][]int32) []kafka.TopicPartitions {
	out := make([]kafka.TopicPartitions, 0, len(m))
	for _, t := range slices.Sorted(maps.Keys(m)) {
		if len(m[t]) == 0 {
			continue
		}
		ps := slices.Clone(m[t])
		slices.Sort(ps)
		out = append(out, kafka.TopicPartitions{Topic: t, Partitions: ps})
	}
	return out
}

func memberIDs(g *kafka.Group) []string {
	ids := make([]string, len(g.Members))
	for i := range g.Members {
		ids[i] = g.Members[i].MemberID
	}
	return ids
}

func uniqueSorted(ss []string) []string {
	out := slices.Clone(ss)
	slices.Sort(out)
	return slices.Compact(out)
}
