package kafka

import (
	"fmt"
	"slices"
	"testing"
	"unsafe"

	"github.com/twmb/franz-go/pkg/kadm"
)

// TestPartitionOffsetsSize pins the row's size: a poll of 24,000
// partitions holds 24,000 of them, so a field added in a careless place
// costs megabytes.
func TestPartitionOffsetsSize(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("sizes are pinned for 64-bit platforms")
	}
	if got := unsafe.Sizeof(PartitionOffsets{}); got != 184 {
		t.Errorf("PartitionOffsets is %d bytes, want 184", got)
	}
}

// TestBuildPartitionsJoinsEveryRow builds a group whose commits and
// assignment overlap in part, with more assigned-only partitions than a
// scan looks through (so the map takes over): every partition shows once,
// sorted, with its commit, owner and log bounds.
func TestBuildPartitionsJoinsEveryRow(t *testing.T) {
	const assigned = 3 * extraScan
	starts, ends := kadm.ListedOffsets{"b": {}}, kadm.ListedOffsets{"b": {}}
	commits := kadm.OffsetResponses{}
	for p := range int32(assigned + 10) {
		starts["b"][p] = kadm.ListedOffset{Topic: "b", Partition: p, Offset: 1}
		ends["b"][p] = kadm.ListedOffset{Topic: "b", Partition: p, Offset: 100 + int64(p)}
	}
	// Commits on b/0..9 and b/(assigned+0..9): the first ten assigned, the
	// last ten not.
	for _, p := range []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, assigned, assigned + 1, assigned + 2, assigned + 3, assigned + 4, assigned + 5, assigned + 6, assigned + 7, assigned + 8, assigned + 9} {
		commits.Add(kadm.OffsetResponse{Offset: kadm.Offset{Topic: "b", Partition: p, At: 50, LeaderEpoch: 2}})
	}
	var m1, m2 []int32
	for p := range int32(assigned) {
		if p%2 == 0 {
			m1 = append(m1, p)
		} else {
			m2 = append(m2, p)
		}
	}
	gb := &groupBuilder{g: &Group{Name: "g", Members: []Member{
		{MemberID: "m1", ClientID: "c1", Host: "h1", Assignment: []TopicPartitions{{Topic: "b", Partitions: m1}}},
		{MemberID: "m2", ClientID: "c2", Host: "h2", Assignment: []TopicPartitions{{Topic: "b", Partitions: m2}}},
	}}, commits: commits}
	gb.buildPartitions(starts, nil, ends, nil)

	ps := gb.g.Partitions
	if cap(ps) != len(ps) {
		t.Errorf("the rows keep room for %d, hold %d", cap(ps), len(ps))
	}
	if len(ps) != assigned+10 {
		t.Fatalf("%d rows, want %d", len(ps), assigned+10)
	}
	for i, r := range ps {
		p := int32(i)
		want := PartitionOffsets{Topic: "b", Partition: p, LeaderEpoch: -1, Committed: NoOffset, LogStart: 1, LogEnd: 100 + int64(p), Lag: NoOffset, brokerLag: NoOffset}
		if p < 10 || p >= assigned {
			want.Committed, want.LeaderEpoch, want.Lag = 50, 2, 50+int64(p)
		}
		if p < assigned {
			owner := fmt.Sprint("m", 1+p%2)
			want.MemberID, want.ClientID, want.Host = owner, fmt.Sprint("c", 1+p%2), fmt.Sprint("h", 1+p%2)
			want.Owners = []string{owner}
		}
		if r.Topic != want.Topic || r.Partition != want.Partition || r.Committed != want.Committed || r.LeaderEpoch != want.LeaderEpoch ||
			r.LogStart != want.LogStart || r.LogEnd != want.LogEnd || r.Lag != want.Lag || r.MemberID != want.MemberID ||
			r.ClientID != want.ClientID || r.Host != want.Host || !slices.Equal(r.Owners, want.Owners) || r.Err != nil {
			t.Errorf("row %d:\n got %+v\nwant %+v", i, r, want)
		}
	}
}

// TestOwnersCopyOnSecondOwner gives one partition to two members (as a
// share group may): the rows that share the first member's id keep it,
// and the shared partition lists both.
func TestOwnersCopyOnSecondOwner(t *testing.T) {
	ends := kadm.ListedOffsets{"t": {}}
	for p := range int32(3) {
		ends["t"][p] = kadm.ListedOffset{Topic: "t", Partition: p, Offset: 10}
	}
	gb := &groupBuilder{g: &Group{Name: "g", Members: []Member{
		{MemberID: "a", Assignment: []TopicPartitions{{Topic: "t", Partitions: []int32{0, 1}}}},
		{MemberID: "b", Assignment: []TopicPartitions{{Topic: "t", Partitions: []int32{1, 2}}}},
	}}}
	gb.buildPartitions(kadm.ListedOffsets{}, nil, ends, nil)
	got := make([][]string, 0, 3)
	for _, r := range gb.g.Partitions {
		got = append(got, r.Owners)
	}
	want := [][]string{{"a"}, {"a", "b"}, {"b"}}
	if !slices.EqualFunc(got, want, slices.Equal[[]string]) {
		t.Errorf("owners %q, want %q", got, want)
	}
	if gb.g.Partitions[1].MemberID != "a" {
		t.Errorf("partition 1's member %q, want the first by id, a", gb.g.Partitions[1].MemberID)
	}
}
