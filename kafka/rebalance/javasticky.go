package rebalance

import (
	"cmp"
	"maps"
	"slices"
	"unicode/utf16"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
)

// The Java client's StickyAssignor and CooperativeStickyAssignor (3.5 and
// later, whose version 3 metadata identifies them beyond doubt; older
// releases dealt the partitions otherwise) assign a group whose members
// all subscribe to the same topics with a constrained algorithm of their
// own (AbstractStickyAssignor's "constrained" builder), which breaks ties
// differently from franz-go's balancer, the model of the other Java rows.
// Read from Apache Kafka's sources and held to the Java client's
// recordings (testdata/java):
//
//  1. Quotas: with T partitions over N members, every member gets
//     floor(T/N) (min) or ceil(T/N) (max) partitions, T mod N of them max.
//  2. Each member keeps what it owned, up to its quota: its owned
//     partitions ordered by partition number, then topic, the first ones
//     kept. A member owning fewer than min keeps all and is "under min";
//     one owning max or more keeps max while fewer than T mod N members
//     have taken max; any other keeps min, and waits for one more while
//     members may still take max.
//  3. The partitions nobody kept, by topic then partition, are dealt round
//     after round to the members under min, in member id order (Java's
//     string order), each leaving the round once it reaches min; when
//     none is under min, one each to the members waiting at min, in member
//     id order.
//  4. The cooperative assignor then holds back every partition that
//     changes owner from its new owner for one round, until the old owner
//     has revoked it; the next round assigns it again (Simulate runs
//     rounds until nothing is revoked).
//
// Which member keeps max in step 2 follows the order of a Java HashMap of
// member ids when more members own max or more than may keep it; the model
// reports that case (and members of different subscriptions, and racks,
// which make the Java client balance otherwise) as not modelled, and the
// row falls back to franz-go's balancer, approximate.

// javaStickyApplies reports whether the Java client's constrained sticky
// assignment decides the members' assignment in a way the model
// reproduces: every member (joiners included, subscribed to the members'
// shared subscription) has one subscription, no member names a rack, and
// no more members own max or more than may keep it.
func javaStickyApplies(g *kafka.Group, members []simMember, joiners int, counts map[string]int32) bool {
	if len(members)+joiners == 0 {
		return false
	}
	for i := range g.Members {
		if g.Members[i].Rack != "" {
			return false
		}
	}
	for _, m := range members[1:] {
		if !slices.Equal(m.topics, members[0].topics) {
			return false
		}
	}
	total := 0
	for _, t := range members[0].topics {
		total += int(counts[t])
	}
	n := len(members) + joiners
	hi, over := (total+n-1)/n, total%n
	if over == 0 {
		return true
	}
	atMax := 0
	for _, m := range members {
		if ownedIn(m.owned, counts) >= hi {
			atMax++
		}
	}
	return atMax <= over
}

// ownedIn counts the owned partitions that exist.
func ownedIn(owned map[string][]int32, counts map[string]int32) int {
	n := 0
	for t, ps := range owned {
		for _, p := range ps {
			if p >= 0 && p < counts[t] {
				n++
			}
		}
	}
	return n
}

// javaStickyPlan is one join round of the Java client's constrained sticky
// assignment (see above) for members of one subscription, each owning
// owned[member id]; cooperative holds back the partitions that change
// owner, as the CooperativeStickyAssignor does.
func javaStickyPlan(members []simMember, owned map[string]map[string][]int32, counts map[string]int32, cooperative bool) map[string]map[string][]int32 {
	type tp struct {
		topic string
		part  int32
	}
	topics := slices.Clone(members[0].topics)
	slices.Sort(topics)
	var all []tp
	for _, t := range topics {
		for p := range counts[t] {
			all = append(all, tp{t, p})
		}
	}
	n := len(members)
	lo, hi, over := len(all)/n, (len(all)+n-1)/n, len(all)%n
	assigned := make(map[string][]tp, n)
	taken := map[tp]bool{}
	revoked := map[tp]bool{}
	var underMin, atMin []string
	atMax := 0
	// Step 2. The order members are visited in does not change the
	// outcome when javaStickyApplies holds.
	for _, m := range members {
		var own []tp
		for t, ps := range owned[m.id] {
			if !slices.Contains(topics, t) {
				continue
			}
			for _, p := range ps {
				if p >= 0 && p < counts[t] {
					own = append(own, tp{t, p})
				}
			}
		}
		slices.SortFunc(own, func(a, b tp) int {
			return cmp.Or(cmp.Compare(a.part, b.part), cmp.Compare(a.topic, b.topic))
		})
		keep := len(own)
		switch {
		case len(own) < lo:
			underMin = append(underMin, m.id)
		case len(own) >= hi && atMax < over:
			keep = hi
			atMax++
			if atMax == over {
				atMin = nil
			}
		default:
			keep = lo
			if atMax < over {
				atMin = append(atMin, m.id)
			}
		}
		assigned[m.id] = append(assigned[m.id], own[:keep]...)
		for _, x := range own[:keep] {
			taken[x] = true
		}
		for _, x := range own[keep:] {
			revoked[x] = true
		}
	}
	var free []tp
	for _, x := range all {
		if !taken[x] {
			free = append(free, x)
		}
	}
	slices.SortFunc(underMin, javaCompare)
	slices.SortFunc(atMin, javaCompare)
	// Step 3.
	moving := map[tp]bool{}
	next := 0
	for _, x := range free {
		var id string
		switch {
		case next < len(underMin):
			id = underMin[next]
		case len(underMin) > 0:
			next = 0
			id = underMin[0]
		case len(atMin) > 0:
			id, atMin = atMin[0], atMin[1:]
		default:
			continue // cannot happen with the quotas above
		}
		assigned[id] = append(assigned[id], x)
		if revoked[x] {
			moving[x] = true
		}
		if len(assigned[id]) == lo && next < len(underMin) && underMin[next] == id {
			underMin = slices.Delete(underMin, next, next+1)
			atMin = append(atMin, id)
			continue
		}
		if next < len(underMin) && underMin[next] == id {
			next++
		}
	}
	plan := make(map[string]map[string][]int32, n)
	for _, m := range members {
		p := map[string][]int32{}
		for _, x := range assigned[m.id] {
			if cooperative && moving[x] {
				continue // step 4
			}
			p[x.topic] = append(p[x.topic], x.part)
		}
		for _, t := range slices.Collect(maps.Keys(p)) {
			slices.Sort(p[t])
		}
		plan[m.id] = p
	}
	return plan
}

// javaCompare orders strings as Java's String.compareTo does: by UTF-16
// code unit, which differs from Go's byte order only past U+FFFF.
func javaCompare(a, b string) int {
	if a == b {
		return 0
	}
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	return slices.Compare(ua, ub)
}

// javaStickyClient reports whether the members of a group whose protocol
// is the Java sticky or cooperative-sticky assignor are the Java client's,
// not franz-go's (both are ImplJava, and their metadata both version 3):
// the Java client's CooperativeStickyAssignor sends the generation alone as
// user data (4 bytes), franz-go's its sticky record; the Java client's
// StickyAssignor sends the partitions it owned before the join (none, null
// user data, at its first join), franz-go's eager sticky none (it revokes
// everything first).
func javaStickyClient(g *kafka.Group) bool {
	named := false
	for i := range g.Members {
		l := layoutOf(g.Members[i].JoinMetadata)
		if !l.OK {
			return false
		}
		switch g.Assignor {
		case AssignorCooperativeSticky:
			if len(l.UserData) != 4 {
				return false
			}
			named = true
		case AssignorSticky:
			if len(l.UserData) == 0 {
				continue // a member's first join: nothing owned before
			}
			s := kmsg.NewStickyMemberMetadata()
			if s.ReadFrom(l.UserData) != nil {
				return false
			}
			named = named || len(s.CurrentAssignment) > 0
		default:
			return false
		}
	}
	return named && !eagerWithoutHistory(g)
}
