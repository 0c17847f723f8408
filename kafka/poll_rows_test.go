package kafka

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"unsafe"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestPartitionOffsetsSize pins the row's size: a poll of 24,000
// partitions holds 24,000 of them, so a field added in a careless place
// costs megabytes. 128 bytes since the owner's client id, host and owners
// moved behind one pointer (184 before): a group's twelve rows take the
// 1,536-byte size class instead of 2,304.
func TestPartitionOffsetsSize(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("sizes are pinned for 64-bit platforms")
	}
	if got := unsafe.Sizeof(PartitionOffsets{}); got != 128 {
		t.Errorf("PartitionOffsets is %d bytes, want 128", got)
	}
}

// build runs a poll's steps on one group: its offset fetch answer
// becomes rows, the describe's assignment completes them, and the log
// bounds are joined.
func build(gb *groupBuilder, commits []kmsg.OffsetFetchResponseGroupTopic, starts, ends kadm.ListedOffsets) {
	gb.commitRows(commits, nil, nil)
	gb.assemble()
	gb.join(newLogBounds(starts, nil, ends, nil, nil))
}

// TestBuildPartitionsJoinsEveryRow builds a group whose commits and
// assignment overlap in part, with more assigned-only partitions than a
// scan looks through (so the map takes over): every partition shows once,
// sorted, with its commit, owner and log bounds.
func TestBuildPartitionsJoinsEveryRow(t *testing.T) {
	const assigned = 3 * extraScan
	starts, ends := kadm.ListedOffsets{"b": {}}, kadm.ListedOffsets{"b": {}}
	var commits []kmsg.OffsetFetchResponseGroupTopicPartition
	for p := range int32(assigned + 10) {
		starts["b"][p] = kadm.ListedOffset{Topic: "b", Partition: p, Offset: 1}
		ends["b"][p] = kadm.ListedOffset{Topic: "b", Partition: p, Offset: 100 + int64(p)}
	}
	// Commits on b/0..9 and b/(assigned+0..9): the first ten assigned, the
	// last ten not.
	for _, p := range []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, assigned, assigned + 1, assigned + 2, assigned + 3, assigned + 4, assigned + 5, assigned + 6, assigned + 7, assigned + 8, assigned + 9} {
		commits = append(commits, kmsg.OffsetFetchResponseGroupTopicPartition{Partition: p, Offset: 50, LeaderEpoch: 2})
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
	}}}
	// The answer lists the partitions out of order.
	slices.Reverse(commits)
	build(gb, []kmsg.OffsetFetchResponseGroupTopic{{Topic: "b", Partitions: commits}}, starts, ends)

	ps := gb.g.Partitions
	if cap(ps) != len(ps) {
		t.Errorf("the rows keep room for %d, hold %d", cap(ps), len(ps))
	}
	if len(ps) != assigned+10 {
		t.Fatalf("%d rows, want %d", len(ps), assigned+10)
	}
	for i, r := range ps {
		p := int32(i)
		want := PartitionOffsets{Topic: "b", Partition: p, LeaderEpoch: -1, Committed: NoOffset, LogStart: 1, LogEnd: 100 + int64(p), Lag: NoOffset, owned: notOwned}
		if p < 10 || p >= assigned {
			want.Committed, want.LeaderEpoch, want.Lag = 50, 2, 50+int64(p)
		}
		if p < assigned {
			owner := fmt.Sprint("m", 1+p%2)
			want.SetOwner(owner, fmt.Sprint("c", 1+p%2), fmt.Sprint("h", 1+p%2), []string{owner})
		}
		if r.Topic != want.Topic || r.Partition != want.Partition || r.Committed != want.Committed || r.LeaderEpoch != want.LeaderEpoch ||
			r.LogStart != want.LogStart || r.LogEnd != want.LogEnd || r.Lag != want.Lag || r.MemberID != want.MemberID ||
			r.ClientID() != want.ClientID() || r.Host() != want.Host() || !slices.Equal(r.Owners(), want.Owners()) || r.Err != nil {
			t.Errorf("row %d:\n got %+v\nwant %+v", i, r, want)
		}
		if r.BrokerLag() != NoOffset {
			t.Errorf("row %d: broker lag %d, want %d", i, r.BrokerLag(), NoOffset)
		}
	}
	// A member's rows share one owned part, and the rows nobody owns the
	// poll's one: a row costs no allocation for its owner.
	for i := range ps {
		want := notOwned
		if i < assigned {
			want = ps[i%2].owned
		}
		if ps[i].owned != want {
			t.Errorf("row %d does not share its owned part", i)
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
	build(gb, nil, kadm.ListedOffsets{}, ends)
	got := make([][]string, 0, 3)
	for _, r := range gb.g.Partitions {
		got = append(got, r.Owners())
	}
	want := [][]string{{"a"}, {"a", "b"}, {"b"}}
	if !slices.EqualFunc(got, want, slices.Equal[[]string]) {
		t.Errorf("owners %q, want %q", got, want)
	}
	if gb.g.Partitions[1].MemberID != "a" {
		t.Errorf("partition 1's member %q, want the first by id, a", gb.g.Partitions[1].MemberID)
	}
}

// TestCommitRowsOrderAndAnswers turns an offset fetch answer that lists
// topics and partitions out of order, one partition twice, a failed
// partition and one with no commit into rows: sorted by topic then
// partition, the later of two answers kept, each answer's fields where
// kadm would have put them, topic names taken from the poll's copies.
func TestCommitRowsOrderAndAnswers(t *testing.T) {
	meta := "m"
	answer := []kmsg.OffsetFetchResponseGroupTopic{
		{Topic: "zeta", Partitions: []kmsg.OffsetFetchResponseGroupTopicPartition{
			{Partition: 2, Offset: 20, LeaderEpoch: 1},
			{Partition: 0, Offset: -1, LeaderEpoch: -1},
			{Partition: 1, ErrorCode: kerr.UnstableOffsetCommit.Code},
		}},
		{Topic: "alpha", Partitions: []kmsg.OffsetFetchResponseGroupTopicPartition{
			{Partition: 3, Offset: 7, LeaderEpoch: 4, Metadata: &meta},
			{Partition: 3, Offset: 9, LeaderEpoch: 5},
			{Partition: 1, Offset: 1, LeaderEpoch: 0},
		}},
	}
	alpha := string([]byte("alpha")) // the poll's copy, a different string header
	gb := &groupBuilder{g: &Group{Name: "g"}}
	keys := gb.commitRows(answer, map[string]string{"alpha": alpha}, nil)
	if cap(keys) < 6 {
		t.Errorf("scratch keys not returned for reuse: cap %d", cap(keys))
	}
	rows := gb.rows.rows
	type row struct {
		topic             string
		partition, epoch  int32
		committed         int64
		metadata, errText string
	}
	var got []row
	for _, r := range rows {
		e := ""
		if r.Err != nil {
			e = r.Err.Error()
		}
		got = append(got, row{r.Topic, r.Partition, r.LeaderEpoch, r.Committed, r.Metadata, e})
	}
	want := []row{
		{"alpha", 1, 0, 1, "", ""},
		{"alpha", 3, 5, 9, "", ""},
		{"zeta", 0, -1, NoOffset, "", ""},
		{"zeta", 1, -1, NoOffset, "", "fetch offset: " + kerr.UnstableOffsetCommit.Error()},
		{"zeta", 2, 1, 20, "", ""},
	}
	if !slices.Equal(got, want) {
		t.Errorf("rows\n got %+v\nwant %+v", got, want)
	}
	if gb.rows.sorted != len(rows) || cap(rows) != len(rows) {
		t.Errorf("sorted %d of %d rows, room for %d: want all sorted, no spare room", gb.rows.sorted, len(rows), cap(rows))
	}
	if unsafe.StringData(rows[0].Topic) != unsafe.StringData(alpha) {
		t.Error("alpha's rows hold the answer's string, not the poll's copy")
	}
	// The rows are written in place, field by field: every field the
	// answer does not set is as newRow makes it.
	for i := range rows {
		r := &rows[i]
		x := newRow(r.Topic, r.Partition)
		x.Committed, x.LeaderEpoch, x.Metadata, x.Err = r.Committed, r.LeaderEpoch, r.Metadata, r.Err
		if !reflect.DeepEqual(&x, r) {
			t.Errorf("row %d\n got %+v\nwant %+v", i, *r, x)
		}
	}
}

// TestJoinSaysWhyABoundIsMissing joins log bounds where a partition's
// listing failed, the whole log start listing failed, a partition is
// missing from the log end answer, and an open transaction holds the
// last stable offset below the log end.
func TestJoinSaysWhyABoundIsMissing(t *testing.T) {
	gb := &groupBuilder{g: &Group{Name: "g"}}
	gb.commitRows([]kmsg.OffsetFetchResponseGroupTopic{{Topic: "t", Partitions: []kmsg.OffsetFetchResponseGroupTopicPartition{
		{Partition: 0, Offset: 5}, {Partition: 1, Offset: 5}, {Partition: 2, Offset: 5},
	}}}, nil, nil)
	gb.assemble()
	ends := kadm.ListedOffsets{"t": {
		0: {Topic: "t", Partition: 0, Offset: 10},
		1: {Topic: "t", Partition: 1, Err: kerr.NotLeaderForPartition},
	}}
	stables := kadm.ListedOffsets{"t": {0: {Topic: "t", Partition: 0, Offset: 8}}}
	gb.join(newLogBounds(nil, errors.New("boom"), ends, nil, stables))
	ps := gb.g.Partitions
	want := []string{
		"list log start: boom",
		"list log start: boom\nlist log end: " + kerr.NotLeaderForPartition.Error(),
		`list log start: boom` + "\n" + `topic "t" partition 2 not found`,
	}
	for i, r := range ps {
		if r.Err == nil || r.Err.Error() != want[i] {
			t.Errorf("partition %d: error %v, want %q", i, r.Err, want[i])
		}
	}
	if ps[0].LogEnd != 10 || ps[0].Lag != 5 || !ps[0].StableTrails || ps[0].LastStable != 8 || ps[0].StableLag() != 3 {
		t.Errorf("partition 0: end %d lag %d stable %v/%d, want 10, 5, trailing at 8", ps[0].LogEnd, ps[0].Lag, ps[0].StableTrails, ps[0].LastStable)
	}
	if ps[1].LogEnd != NoOffset || ps[1].Lag != NoOffset || ps[1].StableTrails {
		t.Errorf("partition 1: end %d lag %d stable %v, want unknown", ps[1].LogEnd, ps[1].Lag, ps[1].StableTrails)
	}
}
