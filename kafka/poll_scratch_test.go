package kafka

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"unsafe"

	"github.com/twmb/franz-go/pkg/kadm"
)

// listedGroups is a listing of n groups of every known type, by name.
func listedGroups(n int) []kadm.ListedGroup {
	types := []string{"classic", "consumer", "share", "streams", ""}
	listed := make([]kadm.ListedGroup, n)
	for i := range n {
		name := fmt.Sprintf("group-%05d", i)
		listed[i] = kadm.ListedGroup{Group: name, Coordinator: int32(i % 3), GroupType: types[i%len(types)], ProtocolType: "consumer", State: "Empty"}
	}
	return listed
}

// TestSortListed: the listing is sorted by name, and a group two
// brokers list is listed once, as its highest coordinator gave it.
func TestSortListed(t *testing.T) {
	got := sortListed([]kadm.ListedGroup{
		{Group: "b", Coordinator: 1}, {Group: "a", Coordinator: 1}, {Group: "c", Coordinator: 2},
		{Group: "b", Coordinator: 2}, {Group: "a", Coordinator: 3},
	})
	want := []kadm.ListedGroup{{Group: "a", Coordinator: 3}, {Group: "b", Coordinator: 2}, {Group: "c", Coordinator: 2}}
	if !slices.Equal(got, want) {
		t.Errorf("sortListed = %+v, want %+v", got, want)
	}
}

// TestPollGroupsOnlyNamed: with only, the poll's groups are the listed
// groups it names, once each, by name.
func TestPollGroupsOnlyNamed(t *testing.T) {
	var snap Snapshot
	newPollGroups(&snap, listedGroups(10), []string{"group-00007", "nope", "group-00002", "group-00007"}, nil, nil, &pollScratch{})
	var names []string
	for _, g := range snap.Groups {
		names = append(names, g.Name)
	}
	if want := []string{"group-00002", "group-00007"}; !slices.Equal(names, want) {
		t.Errorf("groups %q, want %q", names, want)
	}
}

// TestPollGroupsReuseScratch holds what a warm poll allocates to set up
// its groups: the snapshot's Groups slice and nothing else. The builders,
// their index by name and the name lists are the client's, kept from the
// poll before; making them again cost about twenty allocations and
// doubled the bytes (1.8 MB more a poll at 10,000 groups). The bounds
// leave room for the runtime's own allocations.
func TestPollGroupsReuseScratch(t *testing.T) {
	const groups = 2000
	listed := listedGroups(groups)
	brokers := map[int32]Broker{0: {ID: 0}, 1: {ID: 1}, 2: {ID: 2}}
	var slot scratchSlot
	var snap Snapshot
	setUp := func() {
		sc := slot.take()
		gs := newPollGroups(&snap, listed, nil, brokers, nil, sc)
		if len(gs.gbs) != groups || len(gs.fetch) != groups-groups/5 {
			t.Fatalf("%d builders, %d fetched, want %d and %d", len(gs.gbs), len(gs.fetch), groups, groups-groups/5)
		}
		slot.put(sc)
	}
	setUp() // the first poll makes the scratch
	if got := testing.AllocsPerRun(20, setUp); got > 3 {
		t.Errorf("a warm poll's groups cost %v allocations, want at most 3 (1: the snapshot's Groups)", got)
	}
	const runs = 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		setUp()
	}
	runtime.ReadMemStats(&after)
	perPoll := float64(after.TotalAlloc-before.TotalAlloc) / runs
	if want := 1.25 * float64(groups*unsafe.Sizeof(Group{})); perPoll > want {
		t.Errorf("a warm poll's groups allocate %.0f bytes, want at most %.0f (the snapshot's Groups and a quarter)", perPoll, want)
	}
}

// TestPollScratchHoldsNoPoll checks that a poll's scratch, once put back,
// reaches none of the poll's groups, rows or strings: a snapshot the UI
// dropped must not be kept alive by the client.
func TestPollScratchHoldsNoPoll(t *testing.T) {
	listed := listedGroups(50)
	var slot scratchSlot
	var snap Snapshot
	sc := slot.take()
	gs := newPollGroups(&snap, listed, nil, nil, nil, sc)
	for i := range gs.gbs {
		gs.gbs[i].rows.add("t", 0)
		gs.gbs[i].fetched, gs.gbs[i].described = true, true
	}
	sc.listed = append(sc.listed, listed...)
	slot.put(sc)
	for _, lg := range sc.listed[:cap(sc.listed)] {
		if lg.Group != "" {
			t.Fatalf("the listing kept %q", lg.Group)
		}
	}
	for i := range sc.gbs[:cap(sc.gbs)] {
		if gb := sc.gbs[i]; gb.g != nil || gb.rows.rows != nil || gb.fetched || gb.described {
			t.Fatalf("builder %d kept %+v", i, gb)
		}
	}
	if len(sc.builders) != 0 {
		t.Errorf("the index kept %d groups", len(sc.builders))
	}
	for _, l := range [][]string{sc.names, sc.classic, sc.consumer, sc.share, sc.streams, sc.fetch} {
		for _, s := range l[:cap(l)] {
			if s != "" {
				t.Fatalf("a name list kept %q", s)
			}
		}
	}
	if slot.take() != sc {
		t.Error("the next poll does not get the scratch back")
	}
}
