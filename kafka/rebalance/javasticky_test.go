package rebalance

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka"
)

// TestJavaStickyRoundRobin: partitions nobody keeps are dealt round after
// round to the members under min in member id order, each leaving once it
// reaches min; the last one goes to the first member waiting at min.
func TestJavaStickyRoundRobin(t *testing.T) {
	members := []simMember{{id: "c", topics: []string{"t"}}, {id: "a", topics: []string{"t"}}, {id: "b", topics: []string{"t"}}}
	got := javaStickyPlan(members, nil, map[string]int32{"t": 7}, false)
	want := map[string]map[string][]int32{"a": {"t": {0, 3, 6}}, "b": {"t": {1, 4}}, "c": {"t": {2, 5}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// TestJavaStickyKeepsOwned: each member keeps its owned partitions up to
// its quota, first by partition number then topic; one member may keep
// max (7 over 2: 4 and 3); the cooperative assignor holds back a
// partition that changes owner for one round.
func TestJavaStickyKeepsOwned(t *testing.T) {
	members := []simMember{{id: "a", topics: []string{"t5", "t7"}}, {id: "b", topics: []string{"t5", "t7"}}, {id: "new", topics: []string{"t5", "t7"}}}
	owned := map[string]map[string][]int32{
		"a": {"t5": {0, 1, 2}, "t7": {0, 1, 2}},
		"b": {"t5": {3, 4}, "t7": {3, 4, 5, 6}},
	}
	counts := map[string]int32{"t5": 5, "t7": 7}
	// 12 over 3: 4 each. a keeps t5-0 t7-0 t5-1 t7-1, b t5-3 t7-3 t5-4
	// t7-4; the joiner takes the rest.
	want := map[string]map[string][]int32{
		"a":   {"t5": {0, 1}, "t7": {0, 1}},
		"b":   {"t5": {3, 4}, "t7": {3, 4}},
		"new": {"t5": {2}, "t7": {2, 5, 6}},
	}
	if got := javaStickyPlan(members, owned, counts, false); !reflect.DeepEqual(got, want) {
		t.Errorf("eager: got %v, want %v", got, want)
	}
	// Cooperative: the first round gives the joiner nothing (all four
	// change owner), the second gives them.
	first := javaStickyPlan(members, owned, counts, true)
	if len(first["new"]) != 0 || !reflect.DeepEqual(first["a"], want["a"]) || !reflect.DeepEqual(first["b"], want["b"]) {
		t.Errorf("cooperative first round: %v", first)
	}
	md := model{impl: ImplJava, protocol: AssignorCooperativeSticky, cooperative: true,
		plan: func(ms []simMember, owned map[string]map[string][]int32, counts map[string]int32) (map[string]map[string][]int32, error) {
			return javaStickyPlan(ms, owned, counts, true), nil
		}}
	for i := range members {
		members[i].owned = owned[members[i].id]
	}
	got, rounds, err := runModel(md, members, counts)
	if err != nil || rounds != 2 || !reflect.DeepEqual(got, want) {
		t.Errorf("cooperative: %v in %d rounds (%v), want %v in 2", got, rounds, err, want)
	}
}

// TestJavaStickyBalanced: for random groups of one subscription, every
// member ends with min or max partitions (T mod N of them max), every
// partition is assigned once, and every member keeps as many of its owned
// partitions as its quota allows.
func TestJavaStickyBalanced(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ran := 0
	for trial := range 500 {
		counts := map[string]int32{"a": int32(1 + rng.IntN(9)), "b": int32(rng.IntN(13))}
		topics := []string{"a", "b"}
		n := 1 + rng.IntN(6)
		var members []simMember
		owned := map[string]map[string][]int32{}
		for i := range n {
			members = append(members, simMember{id: fmt.Sprintf("m-%d-%d", rng.IntN(100), i), topics: topics})
		}
		// Each partition owned by a random member, or nobody.
		for _, tp := range topics {
			for p := range counts[tp] {
				if j := rng.IntN(n + 1); j < n {
					id := members[j].id
					if owned[id] == nil {
						owned[id] = map[string][]int32{}
					}
					owned[id][tp] = append(owned[id][tp], p)
				}
			}
		}
		for i := range members {
			members[i].owned = owned[members[i].id]
		}
		if !javaStickyApplies(&kafka.Group{}, members, 0, counts) {
			continue
		}
		ran++
		plan := javaStickyPlan(members, owned, counts, false)
		total := int(counts["a"] + counts["b"])
		lo, hi, over := total/n, (total+n-1)/n, total%n
		seen := map[string]bool{}
		atHi := 0
		for _, m := range members {
			c := 0
			for tp, ps := range plan[m.id] {
				for _, p := range ps {
					k := fmt.Sprint(tp, p)
					if seen[k] {
						t.Fatalf("trial %d: %s assigned twice: %v", trial, k, plan)
					}
					seen[k] = true
					c++
				}
			}
			if c != lo && c != hi {
				t.Fatalf("trial %d: %s has %d partitions, want %d or %d: %v", trial, m.id, c, lo, hi, plan)
			}
			if c == hi && hi != lo {
				atHi++
			}
			kept := 0
			for tp, ps := range owned[m.id] {
				for _, p := range ps {
					if slices.Contains(plan[m.id][tp], p) {
						kept++
					}
				}
			}
			if want := min(ownedIn(owned[m.id], counts), lo); kept < want {
				t.Fatalf("trial %d: %s kept %d of its owned partitions, want at least %d", trial, m.id, kept, want)
			}
		}
		if len(seen) != total || atHi != over && hi != lo {
			t.Fatalf("trial %d: %d of %d partitions assigned, %d members at max, want %d: %v", trial, len(seen), total, atHi, over, plan)
		}
	}
	if ran < 300 {
		t.Fatalf("only %d of 500 random groups were ones the model takes", ran)
	}
}

// TestJavaStickyRecordedRowsExact: the Java client's sticky and
// cooperative-sticky groups recorded on Kafka 4.2.1 (testdata/java), joins
// and leaves of 12 partitions over two and three members and of 23 over
// three and four (the shapes files, where quotas differ), get an exact own
// row that is what the group did.
func TestJavaStickyRecordedRowsExact(t *testing.T) {
	n := 0
	for _, c := range loadScoreCases(t) {
		dir, file := filepath.Split(c.name)
		if filepath.Clean(dir) != "java" || !(strings.HasPrefix(file, "sticky-") || strings.HasPrefix(file, "coop-")) {
			continue
		}
		n++
		g := recordedGroup(t, c.name, c.group, c.protocol, c.before)
		settled := recordedGroup(t, c.name, c.group, c.protocol, c.after)
		var change Change
		for _, m := range g.Members {
			if _, ok := settled.Member(m.MemberID); !ok {
				change.Leave = append(change.Leave, m.MemberID)
			}
		}
		if len(change.Leave) == 0 {
			change.Join = 1
		}
		sim, err := Simulate(g, c.partitions, change)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := sim.Prediction(c.protocol)
		if p.Confidence != ConfidenceExact || len(p.Results) != 1 || !matches(p.Results[0], settled, sim.Joiners) {
			t.Errorf("%s: %s row %s, %d results, note %q", c.name, c.protocol, p.Confidence, len(p.Results), p.Note)
		}
	}
	if n != 16 {
		t.Fatalf("%d recorded Java sticky and cooperative-sticky changes, want 16", n)
	}
}
