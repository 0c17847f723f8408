package rebalance

import (
	"fmt"
	"math/big"
	"slices"
	"testing"
)

// TestPlacements: two joiners among two members have C(4,2) = 6 places,
// each stand-in sorting into its gap; past MaxPlaces exactly MaxPlaces
// different places are run, evenly spaced from every joiner first to every
// joiner last, and the total is the true count.
func TestPlacements(t *testing.T) {
	ids := []string{"b", "a"}
	places, total, all := placements(ids, 2)
	if total.Cmp(big.NewInt(6)) != 0 || !all || len(places) != 6 {
		t.Fatalf("%d places of %d (all %v), want 6 of 6", len(places), total, all)
	}
	gapOf := func(id string) int {
		n := 0
		for _, x := range []string{"a", "b"} {
			if x < id {
				n++
			}
		}
		return n
	}
	var got [][2]int
	for _, p := range places {
		got = append(got, [2]int{gapOf(p[0]), gapOf(p[1])})
		if !(p[0] < p[1]) {
			t.Errorf("stand-ins %q %q out of order", p[0], p[1])
		}
	}
	want := [][2]int{{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 2}}
	if !slices.Equal(got, want) {
		t.Fatalf("gaps %v, want %v", got, want)
	}

	many := make([]string, 100)
	for i := range many {
		many[i] = "m-" + string(rune('A'+i/26)) + string(rune('a'+i%26))
	}
	places, total, all = placements(many, 1)
	if total.Cmp(big.NewInt(101)) != 0 || all || len(places) != MaxPlaces {
		t.Fatalf("%d places of %d (all %v), want %d of 101", len(places), total, all, MaxPlaces)
	}
	first, last := places[0][0], places[len(places)-1][0]
	if first >= slices.Min(many) || last <= slices.Max(many) {
		t.Errorf("spread runs from %q to %q, want before every id and after every id", first, last)
	}
	distinct(t, places)
	for _, c := range []struct {
		ids   []string
		n     int
		total *big.Int
	}{
		// The counts the documentation gives: 10 joiners among 4
		// members have C(14, 10) = 1001 places, 1000 among 4 C(1004, 4).
		{[]string{"a", "b", "c", "d"}, 10, big.NewInt(1001)},
		{[]string{"a", "b", "c", "d"}, 1000, big.NewInt(42084793751)},
		{many, 1000, new(big.Int).Binomial(1100, 100)},
	} {
		places, total, all := placements(c.ids, c.n)
		if total.Cmp(c.total) != 0 || all || len(places) != MaxPlaces {
			t.Errorf("%d joiners among %d: %d places of %s (all %v), want %d of %s", c.n, len(c.ids), len(places), total, all, MaxPlaces, c.total)
		}
		distinct(t, places)
		if slices.ContainsFunc(places, func(p []string) bool { return len(p) != c.n || !slices.IsSorted(p) }) {
			t.Errorf("%d joiners among %d: a place without one sorted stand-in per joiner", c.n, len(c.ids))
		}
	}
	if got := placesCount(big.NewInt(42084793751)); got != "42084793751" {
		t.Errorf("placesCount = %q", got)
	}
	if got := placesCount(new(big.Int).Binomial(1100, 100)); got != "about 1.4e+144" {
		t.Errorf("placesCount = %q", got)
	}
}

// distinct fails when two places put the joiners in the same gaps.
func distinct(t *testing.T, places [][]string) {
	t.Helper()
	seen := map[string]bool{}
	for _, p := range places {
		k := fmt.Sprint(p)
		if seen[k] {
			t.Fatalf("place %q listed twice", p)
		}
		seen[k] = true
	}
}
