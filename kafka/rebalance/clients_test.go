package rebalance

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// notExact names, by implementation and protocol, the models that cannot
// reproduce their library's assignment partition for partition, and why.
// Their replays require what the model does know: every member's
// partition count and the partitions each member kept.
var notExact = map[Impl]map[string]string{
	ImplSarama: {AssignorSticky: "sarama's sticky strategy walks Go maps: which of equally good partitions moves is random"},
}

// replayClientFixtures replays every fixture in testdata/dir through
// impl's model for the fixture's protocol: from the members before, less
// the one that left, plus the one that joined (with its real member id),
// the model's settled assignment must be exactly the recorded one, or,
// for the models in notExact, agree in counts and kept partitions. The
// joiner's real member id is given: where a joiner lands among members
// whose ids share a prefix is decided by its random suffix, which a
// prediction cannot know (Simulate's concern, not the model's).
func replayClientFixtures(t *testing.T, impl Impl, dir string, want []string) map[string]*clientFixture {
	t.Helper()
	fixtures := loadClientFixtures(t, dir)
	if got := slices.Sorted(maps.Keys(fixtures)); !slices.Equal(got, want) {
		t.Errorf("fixtures %v, want %v", got, want)
	}
	for name, f := range fixtures {
		t.Run(name, func(t *testing.T) {
			md, ok := lookupModel(impl, f.Protocol)
			if !ok {
				t.Fatalf("no %s model for %s", impl, f.Protocol)
			}
			members := f.changed(t)
			want := f.recorded(t)
			got, rounds, err := runModel(md, members, f.Partitions)
			if err != nil {
				t.Fatal(err)
			}
			if rounds != 1 && !md.cooperative {
				t.Errorf("%d rounds for an eager protocol", rounds)
			}
			if reason, ok := notExact[impl][f.Protocol]; ok {
				checkCountsAndKept(t, members, got, want)
				t.Logf("not exact (%s); partitions match: %v", reason, equalPlans(got, want))
				return
			}
			if !equalPlans(got, want) {
				t.Errorf("model assigned\n%s\n%s assigned\n%s", planString(got), f.Library, planString(want))
			}
		})
	}
	return fixtures
}

// checkCountsAndKept requires got and want to give every member the same
// number of partitions and every member that owned partitions to keep the
// same number of them.
func checkCountsAndKept(t *testing.T, members []simMember, got, want map[string]map[string][]int32) {
	t.Helper()
	count := func(a map[string][]int32) int {
		n := 0
		for _, ps := range a {
			n += len(ps)
		}
		return n
	}
	kept := func(owned, a map[string][]int32) int {
		n := 0
		for topic, ps := range owned {
			for _, p := range ps {
				if slices.Contains(a[topic], p) {
					n++
				}
			}
		}
		return n
	}
	for _, m := range members {
		if g, w := count(got[m.id]), count(want[m.id]); g != w {
			t.Errorf("member %s: model assigned %d partitions, the library %d", m.id, g, w)
		}
		if g, w := kept(m.owned, got[m.id]), kept(m.owned, want[m.id]); g != w {
			t.Errorf("member %s: model kept %d of its partitions, the library %d", m.id, g, w)
		}
	}
}

// planString is an assignment one member a line, sorted.
func planString(a map[string]map[string][]int32) string {
	var b strings.Builder
	n := normalize(a)
	for _, id := range slices.Sorted(maps.Keys(n)) {
		fmt.Fprintf(&b, "  %s:", id)
		for _, topic := range slices.Sorted(maps.Keys(n[id])) {
			fmt.Fprintf(&b, " %s%v", topic, n[id][topic])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// fixtureNames are a capture's file names: each assignor and client id
// variant, joined and left.
func fixtureNames(assignors, variants []string) []string {
	var out []string
	for _, a := range assignors {
		for _, v := range variants {
			out = append(out, a+"-"+v+"-join.json", a+"-"+v+"-leave.json")
		}
	}
	slices.Sort(out)
	return out
}
