package rebalance

import (
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
)

// MaxPlaces bounds how many places of the joiners Simulate runs for each
// assignor. A joiner's member id is issued by the coordinator when it joins
// (its client id, a dash and a random suffix), so it may sort anywhere
// among the members' ids; every assignor modelled orders members by id. n
// joiners among m members have C(m+n, n) places; when there are more than
// MaxPlaces, Simulate runs MaxPlaces of them, evenly spaced in order from
// every joiner first to every joiner last, and the prediction cannot be
// exact.
const MaxPlaces = 64

// PlaceOutcome is the assignment one place of the joiners leads to.
type PlaceOutcome struct {
	// Moves are the partitions whose owner changes, from the current
	// assignment to the predicted one, sorted by topic and partition.
	Moves []Move
	// ByProcess counts the outcome by process (see Reassign).
	ByProcess Reassignment
	// Assignment maps every member after the change (joiners included)
	// to its partitions; a member with none has an empty slice.
	Assignment map[string][]kafka.TopicPartitions
	// Rounds is how many join rounds the group needs before it settles.
	Rounds int
}

// placements lists the places n joiners can take among ids (the remaining
// members' ids): for each place, one stand-in member id per joiner that
// sorts into its gap (gap 0 before every id, gap k right after the k-th
// id in order), joiners in gap order. total is how many places there are,
// exactly. all is false when there are more than MaxPlaces: then MaxPlaces
// of them are listed, evenly spaced in the order that starts with every
// joiner in the first gap and ends with every joiner in the last.
func placements(ids []string, n int) (places [][]string, total *big.Int, all bool) {
	if n == 0 {
		return [][]string{nil}, big.NewInt(1), true
	}
	sorted := uniqueSorted(ids)
	gaps := len(sorted) + 1
	total = waysToPlace(n, gaps)
	stand := func(gapsOf []int) []string {
		out := make([]string, n)
		for j, g := range gapsOf {
			prefix := ""
			if g > 0 {
				prefix = sorted[g-1]
			}
			// NUL sorts before every byte a broker puts in a member id, so
			// the stand-in sorts right after the gap's lower id and before
			// the next one; the index keeps the joiners of one gap apart.
			out[j] = fmt.Sprintf("%s\x00%06d", prefix, j)
		}
		return out
	}
	if total.Cmp(big.NewInt(MaxPlaces)) <= 0 {
		cur := make([]int, n)
		var walk func(j, from int)
		walk = func(j, from int) {
			if j == n {
				places = append(places, stand(cur))
				return
			}
			for g := from; g < gaps; g++ {
				cur[j] = g
				walk(j+1, g)
			}
		}
		walk(0, 0)
		return places, total, true
	}
	// The k-th place, k = i*(total-1)/(MaxPlaces-1): MaxPlaces distinct
	// places, the first and the last included.
	last := new(big.Int).Sub(total, big.NewInt(1))
	for i := range int64(MaxPlaces) {
		k := new(big.Int).Mul(last, big.NewInt(i))
		k.Quo(k, big.NewInt(MaxPlaces-1))
		places = append(places, stand(nthPlace(k, n, gaps)))
	}
	return places, total, false
}

// waysToPlace is the number of ways to put n joiners into gaps gaps,
// C(n+gaps-1, n).
func waysToPlace(n, gaps int) *big.Int {
	if gaps <= 0 {
		if n == 0 {
			return big.NewInt(1)
		}
		return big.NewInt(0)
	}
	return new(big.Int).Binomial(int64(n+gaps-1), int64(min(n, gaps-1)))
}

// nthPlace is the k-th (from 0) way to put n joiners into gaps gaps, in
// the order that puts as many as possible in the earliest gap first (all
// in gap 0 is the first, all in the last gap the last), as each joiner's
// gap, in gap order.
func nthPlace(k *big.Int, n, gaps int) []int {
	k = new(big.Int).Set(k)
	out := make([]int, 0, n)
	r := n
	for x := 0; x < gaps && r > 0; x++ {
		after := gaps - x - 1
		c := r
		if after > 0 {
			// With c joiners in gap x, the rest (s = r-c) go into the
			// gaps after it: ways(s) = C(s+after-1, s), from ways(0) = 1
			// by ways(s+1) = ways(s)*(s+after)/(s+1).
			w := big.NewInt(1)
			for s := 0; ; s++ {
				if k.Cmp(w) < 0 || s == r {
					c = r - s
					break
				}
				k.Sub(k, w)
				w.Mul(w, big.NewInt(int64(s+after)))
				w.Quo(w, big.NewInt(int64(s+1)))
			}
		}
		for range c {
			out = append(out, x)
		}
		r -= c
	}
	return out
}

// placesCount words a count of places: exact while it has at most 15
// digits, else "about 1.2e+140".
func placesCount(n *big.Int) string {
	if n.Cmp(big.NewInt(1e15)) < 0 {
		return n.String()
	}
	f, _ := new(big.Float).SetInt(n).Float64()
	return fmt.Sprintf("about %.1e", f)
}

// renamed gives the stand-in member ids of a plan back their joiners' ids.
func renamed(plan map[string]map[string][]int32, stand, joiners []string) map[string]map[string][]int32 {
	out := make(map[string]map[string][]int32, len(plan))
	for id, a := range plan {
		if j := slices.Index(stand, id); j >= 0 {
			id = joiners[j]
		}
		out[id] = a
	}
	return out
}

// sameOutcome reports whether two places lead to the same result: every
// member that stays gets the same partitions, and the joiners between them
// get the same sets (which joiner gets which set is the place's doing).
func sameOutcome(a, b PlaceOutcome, joiners []string) bool {
	var ja, jb []string
	for _, id := range slices.Sorted(maps.Keys(a.Assignment)) {
		sa, sb := assignmentKey(a.Assignment[id]), assignmentKey(b.Assignment[id])
		if slices.Contains(joiners, id) {
			ja, jb = append(ja, sa), append(jb, sb)
			continue
		}
		if sa != sb {
			return false
		}
	}
	slices.Sort(ja)
	slices.Sort(jb)
	return len(a.Assignment) == len(b.Assignment) && slices.Equal(ja, jb) && a.Rounds == b.Rounds
}

func assignmentKey(tps []kafka.TopicPartitions) string {
	var b strings.Builder
	for _, tp := range tps {
		fmt.Fprintf(&b, "%s%v;", tp.Topic, tp.Partitions)
	}
	return b.String()
}

// joinPlace is one place of the joiners: a stand-in member id for each,
// and for static joiners a stand-in instance id.
type joinPlace struct {
	ids       []string
	instances []string
}

// joinPlaces lists the places of n joiners among members. Joiners are
// taken to be like the members: dynamic in a group of dynamic members,
// placed anywhere among the member ids; static in a group of static
// members, placed anywhere among the instance ids (static members sort by
// instance id); in a group of both, both, which is never every
// combination (all is false, how says so).
func joinPlaces(members []simMember, n int) (places []joinPlace, total *big.Int, all bool, how string) {
	var ids, instances []string
	for _, m := range members {
		ids = append(ids, m.id)
		if m.instance != "" {
			instances = append(instances, m.instance)
		}
	}
	dynamic := len(instances) < len(members) || len(members) == 0
	static := len(instances) > 0
	all, total = true, new(big.Int)
	if dynamic {
		stand, t, a := placements(ids, n)
		for _, s := range stand {
			places = append(places, joinPlace{ids: s})
		}
		total.Add(total, t)
		all = a
	}
	if static {
		stand, t, a := placements(instances, n)
		last := slices.Max(append(ids, ""))
		for _, s := range stand {
			pl := joinPlace{instances: s}
			for j := range n {
				pl.ids = append(pl.ids, fmt.Sprintf("%s\x00%06d", last, j))
			}
			places = append(places, pl)
		}
		total.Add(total, t)
		all = all && a
	}
	if n > 0 && dynamic && static {
		all, how = false, " (as static members and as dynamic ones)"
	}
	return places, total, all, how
}

// idPlaces lists the places of n joiners for an assignor that orders
// members by member id alone, static or not (sarama, kafka-go,
// kafka-python): anywhere among the member ids. A static joiner's member id
// starts with its instance id, which is not known before it joins either.
func idPlaces(members []simMember, n int) (places []joinPlace, total *big.Int, all bool, how string) {
	ids := make([]string, 0, len(members))
	for _, m := range members {
		ids = append(ids, m.id)
	}
	stand, total, all := placements(ids, n)
	for _, s := range stand {
		places = append(places, joinPlace{ids: s})
	}
	return places, total, all, ""
}

// stickyTrials is how many times the sticky balancers run each place of
// the joiners: franz-go's break ties at random, and a tie shows as runs
// that disagree.
func stickyTrials(places int) int {
	return max(2, 8/max(places, 1))
}

// eagerWithoutHistory reports whether the members of an eager sticky
// group sent sticky user data naming no partitions although they own
// some: franz-go's eager sticky, which revokes before it rejoins.
func eagerWithoutHistory(g *kafka.Group) bool {
	for i := range g.Members {
		m := &g.Members[i]
		if m.PartitionCount() == 0 {
			continue
		}
		l := layoutOf(m.JoinMetadata)
		s := kmsg.NewStickyMemberMetadata()
		if !l.OK || len(l.UserData) == 0 || s.ReadFrom(l.UserData) != nil || len(s.CurrentAssignment) > 0 {
			return false
		}
	}
	return true
}

func forgetOwned(members []simMember) []simMember {
	out := slices.Clone(members)
	for i := range out {
		out[i].owned = nil
	}
	return out
}
