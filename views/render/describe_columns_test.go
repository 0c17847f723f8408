package render

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/columns"
)

func TestTitlesExact(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  []string
		want []string
	}{
		{"describe", columns.Titles(PartitionColumns(false)), []string{"GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "CONSUMER-ID", "HOST", "CLIENT-ID"}},
		{"describe wide", columns.Titles(PartitionColumns(true)), []string{"GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "CONSUMER-ID", "HOST", "CLIENT-ID", "LOG-START-OFFSET"}},
		{"members", columns.Titles(MemberColumns(false)), []string{"GROUP", "CONSUMER-ID", "GROUP-INSTANCE-ID", "HOST", "CLIENT-ID", "#PARTITIONS"}},
		{"members wide", columns.Titles(MemberColumns(true)), []string{"GROUP", "CONSUMER-ID", "GROUP-INSTANCE-ID", "HOST", "CLIENT-ID", "#PARTITIONS", "ASSIGNMENT"}},
		{"state", columns.Titles(StateColumns()), []string{"GROUP", "COORDINATOR (ID)", "ASSIGNMENT-STRATEGY", "STATE", "#MEMBERS", "LEADER"}},
		{"list", columns.Titles(GroupColumns()), []string{"GROUP", "TYPE", "STATE", "ASSIGNOR", "MEMBERS", "TOPICS", "PARTITIONS", "LAG", "COORDINATOR"}},
	} {
		if !reflect.DeepEqual(tc.got, tc.want) {
			t.Errorf("%s titles = %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

// rowKeys summarises partition rows as topic/partition@member.
func rowKeys(rows []PartitionRow) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = fmt.Sprintf("%s/%d@%s", r.Partition.Topic, r.Partition.Partition, text(r.Partition.MemberID))
	}
	return out
}

func TestPartitionRowsOrder(t *testing.T) {
	po := func(topic string, p int32, committed int64, member string) kafka.PartitionOffsets {
		return kafka.PartitionOffsets{Topic: topic, Partition: p, Committed: committed, LogStart: 0, LogEnd: 100, Lag: kafka.NoOffset, MemberID: member}
	}
	g := &kafka.Group{
		Name: "g",
		Members: []kafka.Member{
			// Assignment given out of order: rows come in topic, partition order.
			{MemberID: "m-small-b", Assignment: []kafka.TopicPartitions{{Topic: "t", Partitions: []int32{5}}}},
			{MemberID: "m-big", Assignment: []kafka.TopicPartitions{{Topic: "u", Partitions: []int32{1, 0}}, {Topic: "t", Partitions: []int32{3}}}},
			{MemberID: "m-none"},
			{MemberID: "m-small-a", Assignment: []kafka.TopicPartitions{{Topic: "t", Partitions: []int32{4}}}},
		},
		Partitions: []kafka.PartitionOffsets{
			po("a", 0, 10, ""),             // committed, unowned: listed after every member
			po("t", 0, kafka.NoOffset, ""), // neither committed nor owned: not a row
			po("t", 3, 1, "m-big"),
			po("t", 4, kafka.NoOffset, "m-small-a"),
			po("t", 5, 9, "m-small-b"),
			po("t", 9, 3, ""),
			po("u", 0, 7, "m-big"),
			// u/1 is assigned but the poll has no entry for it.
		},
	}
	got := rowKeys(PartitionRows(g))
	want := []string{
		"t/3@m-big", "u/0@m-big", "u/1@m-big",
		"t/4@m-small-a",
		"t/5@m-small-b",
		"a/0@-", "t/9@-",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rows = %q\nwant   %q", got, want)
	}
	// The synthesised row for u/1 knows nothing about offsets.
	rows := PartitionRows(g)
	u1 := rows[2].Partition
	if u1.Committed != kafka.NoOffset || u1.LogEnd != kafka.NoOffset || u1.Lag != kafka.NoOffset || u1.LogStart != kafka.NoOffset {
		t.Errorf("u/1 offsets = %+v, want all NoOffset", *u1)
	}
	// Rows that the poll already attributed point into the snapshot.
	if rows[0].Partition != &g.Partitions[2] {
		t.Error("t/3 row does not point at the snapshot's partition")
	}
	// The snapshot's assignment order is left alone.
	if a := g.Members[1].Assignment; a[0].Topic != "u" || a[0].Partitions[0] != 1 {
		t.Errorf("PartitionRows reordered the snapshot: %+v", a)
	}
}

func TestPartitionRowsMemberWins(t *testing.T) {
	// A partition the poll attributed to a stale owner shows the member whose
	// assignment lists it, and the snapshot is not modified.
	g := &kafka.Group{
		Members: []kafka.Member{{MemberID: "new", ClientID: "c-new", Host: "/h-new",
			Assignment: []kafka.TopicPartitions{{Topic: "t", Partitions: []int32{0}}}}},
		Partitions: []kafka.PartitionOffsets{{Topic: "t", Partition: 0, Committed: 4, LogEnd: 6, Lag: 2}},
	}
	g.Partitions[0].SetOwner("old", "c-old", "/h-old", nil)
	rows := PartitionRows(g)
	if len(rows) != 1 {
		t.Fatalf("got %d rows, want 1", len(rows))
	}
	got := columns.Cells(PartitionColumns(false), rows[0])
	want := []string{`""`, "t", "0", "4", "6", "2", "new", "/h-new", "c-new"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("cells = %q, want %q", got, want)
	}
	if g.Partitions[0].MemberID != "old" {
		t.Error("PartitionRows modified the snapshot")
	}
}

func TestPartitionRowsDuplicateAssignment(t *testing.T) {
	// Mid-rebalance two members can both claim a partition; it is one row,
	// under the member listed first.
	g := &kafka.Group{
		Members: []kafka.Member{
			{MemberID: "a", Assignment: []kafka.TopicPartitions{{Topic: "t", Partitions: []int32{0}}}},
			{MemberID: "b", Assignment: []kafka.TopicPartitions{{Topic: "t", Partitions: []int32{0, 1}}}},
		},
	}
	got := rowKeys(PartitionRows(g))
	want := []string{"t/0@b", "t/1@b"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows = %q, want %q", got, want)
	}
}

func TestOrderedMembersAndMemberRows(t *testing.T) {
	tp := func(n int) []kafka.TopicPartitions {
		ps := make([]int32, n)
		for i := range ps {
			ps[i] = int32(i)
		}
		return []kafka.TopicPartitions{{Topic: "t", Partitions: ps}}
	}
	g := &kafka.Group{Name: "g", Members: []kafka.Member{
		{MemberID: "a", Assignment: tp(1)},
		{MemberID: "b"},
		{MemberID: "c", Assignment: tp(3)},
		{MemberID: "d", Assignment: tp(1)},
	}}
	var got []string
	for _, r := range MemberRows(g) {
		got = append(got, columns.Cells(MemberColumns(false), r)[1]+"="+columns.Cells(MemberColumns(false), r)[5])
	}
	want := []string{"c=3", "a=1", "d=1", "b=0"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("member rows = %q, want %q", got, want)
	}
	if g.Members[0].MemberID != "a" {
		t.Error("OrderedMembers reordered the snapshot")
	}
}

// TestPartitionRowsWithoutMembers: a group without members shows its
// partitions with a commit or an owner once each, in the poll's order,
// whether the poll's partitions are sorted (the common case, taken without
// a lookup map) or not, and whether one repeats.
func TestPartitionRowsWithoutMembers(t *testing.T) {
	po := func(topic string, p int32, committed int64, owner string) kafka.PartitionOffsets {
		return kafka.PartitionOffsets{Topic: topic, Partition: p, Committed: committed, MemberID: owner, LogEnd: 9, Lag: kafka.NoOffset}
	}
	cases := []struct {
		name  string
		parts []kafka.PartitionOffsets
		want  []string
	}{
		{"sorted", []kafka.PartitionOffsets{po("a", 0, 1, ""), po("a", 1, kafka.NoOffset, ""), po("a", 2, kafka.NoOffset, "m"), po("b", 0, 3, "")},
			[]string{"a/0@-", "a/2@m", "b/0@-"}},
		{"unsorted", []kafka.PartitionOffsets{po("b", 0, 3, ""), po("a", 1, 1, ""), po("a", 0, 2, "")},
			[]string{"b/0@-", "a/1@-", "a/0@-"}},
		{"repeated", []kafka.PartitionOffsets{po("a", 0, 1, ""), po("a", 0, 2, ""), po("a", 1, 2, "")},
			[]string{"a/0@-", "a/1@-"}},
		{"none", []kafka.PartitionOffsets{po("a", 0, kafka.NoOffset, "")}, []string{}},
	}
	for _, tc := range cases {
		g := &kafka.Group{Name: "g", State: kafka.StateEmpty, Partitions: tc.parts}
		if got := rowKeys(PartitionRows(g)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: rows = %q, want %q", tc.name, got, tc.want)
		}
	}
}
