package kafka

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// A walk answers every lookup as the map of builders does, whatever
// order the names come in: in name order (a coordinator's answer), with
// gaps of any length, backwards, shuffled, repeated, and names the poll
// does not have, before, between and after its own. Names in order are
// found without the map.
func TestGroupWalkFindsAsTheMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(36, 1))
	for _, n := range []int{0, 1, 2, 3, 7, 100, 1000} {
		groups := make([]Group, n)
		gbs := make([]groupBuilder, n)
		ix := groupIndex{gbs: gbs, byName: make(map[string]*groupBuilder, n)}
		for i := range n {
			groups[i].Name = fmt.Sprintf("g-%05d", 2*i+1) // even numbers are not the poll's
			gbs[i].g = &groups[i]
			ix.byName[groups[i].Name] = &gbs[i]
		}
		names := func() []string {
			var ns []string
			for i := range 2*n + 3 {
				if rng.IntN(3) > 0 {
					ns = append(ns, fmt.Sprintf("g-%05d", i))
				}
			}
			return ns
		}
		orders := map[string][]string{"in order": names()}
		every := make([]string, n)
		for i := range n {
			every[i] = groups[i].Name
		}
		orders["every group"] = every
		backwards := names()
		slices.Reverse(backwards)
		orders["backwards"] = backwards
		shuffled := names()
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		orders["shuffled"] = shuffled
		orders["repeated"] = append(names(), names()...)
		orders["outside"] = []string{"", "a", "g-", "g-99999", "z"}
		for what, ns := range orders {
			w := ix.walk()
			for _, name := range ns {
				hashed := w.hashed
				gb, ok := w.find(name)
				want, wok := ix.byName[name]
				if ok != wok || gb != want {
					t.Fatalf("%d groups, %s: %q found %v (%p), the map %v (%p)", n, what, name, ok, gb, wok, want)
				}
				if ok && w.hashed > hashed && (what == "in order" || what == "every group") {
					t.Fatalf("%d groups, %s: %q looked up in the map", n, what, name)
				}
			}
		}
	}
}
