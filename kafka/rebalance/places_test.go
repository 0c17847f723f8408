package rebalance

import (
	"slices"
	"testing"
)

// TestPlacements: two joiners among two members have C(4,2) = 6 places,
// each stand-in sorting into its gap; past MaxPlaces only a spread is run,
// always including every joiner first and every joiner last.
func TestPlacements(t *testing.T) {
	ids := []string{"b", "a"}
	places, total, all := placements(ids, 2)
	if total != 6 || !all || len(places) != 6 {
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
	if total != 101 || all || len(places) > MaxPlaces {
		t.Fatalf("%d places of %d (all %v), want at most %d of 101", len(places), total, all, MaxPlaces)
	}
	first, last := places[0][0], places[len(places)-1][0]
	if first >= slices.Min(many) || last <= slices.Max(many) {
		t.Errorf("spread runs from %q to %q, want before every id and after every id", first, last)
	}
	if _, total, _ := placements(many, 1000); total != 1<<30 {
		t.Errorf("1000 joiners among 100: total %d, want the saturated count", total)
	}
}
