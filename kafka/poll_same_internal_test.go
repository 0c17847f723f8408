package kafka

import (
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// sameInput is what one poll reads for a group: its offset fetch
// answer, its members and the log bounds.
type sameInput struct {
	ts      []kmsg.OffsetFetchResponseGroupTopic
	members []Member
	starts  kadm.ListedOffsets
	ends    kadm.ListedOffsets
	stables kadm.ListedOffsets
	endErr  error
}

// baseInput is a group committed on 12 partitions of t (and 2 of u), at
// rest, with a member owning t's first three.
func baseInput() sameInput {
	in := sameInput{starts: kadm.ListedOffsets{}, ends: kadm.ListedOffsets{}, stables: kadm.ListedOffsets{}}
	meta := "m"
	for _, topic := range []string{"t", "u"} {
		rt := kmsg.NewOffsetFetchResponseGroupTopic()
		rt.Topic = topic
		n := int32(12)
		if topic == "u" {
			n = 2
		}
		in.starts[topic], in.ends[topic], in.stables[topic] = map[int32]kadm.ListedOffset{}, map[int32]kadm.ListedOffset{}, map[int32]kadm.ListedOffset{}
		for p := range n {
			rp := kmsg.NewOffsetFetchResponseGroupTopicPartition()
			rp.Partition, rp.Offset, rp.LeaderEpoch, rp.Metadata = p, 100+int64(p), 3, &meta
			rt.Partitions = append(rt.Partitions, rp)
			in.starts[topic][p] = kadm.ListedOffset{Topic: topic, Partition: p, Offset: 10}
			in.ends[topic][p] = kadm.ListedOffset{Topic: topic, Partition: p, Offset: 120}
			in.stables[topic][p] = kadm.ListedOffset{Topic: topic, Partition: p, Offset: 120}
		}
		in.ts = append(in.ts, rt)
	}
	in.members = []Member{{MemberID: "m-1", ClientID: "c-1", Host: "h-1", Assignment: []TopicPartitions{{Topic: "t", Partitions: []int32{0, 1, 2}}}}}
	return in
}

// clone is a deep copy of in, for a case to change.
func (in sameInput) clone() sameInput {
	out := in
	out.ts = slices.Clone(in.ts)
	for i := range out.ts {
		out.ts[i].Partitions = slices.Clone(out.ts[i].Partitions)
	}
	out.members = slices.Clone(in.members)
	for i := range out.members {
		out.members[i].Assignment = slices.Clone(out.members[i].Assignment)
		for j := range out.members[i].Assignment {
			out.members[i].Assignment[j].Partitions = slices.Clone(out.members[i].Assignment[j].Partitions)
		}
	}
	cp := func(l kadm.ListedOffsets) kadm.ListedOffsets {
		o := kadm.ListedOffsets{}
		for t, ps := range l {
			o[t] = map[int32]kadm.ListedOffset{}
			for p, lo := range ps {
				o[t][p] = lo
			}
		}
		return o
	}
	out.starts, out.ends, out.stables = cp(in.starts), cp(in.ends), cp(in.stables)
	return out
}

// buildRows runs a group's phases of a poll on in, with prev the rows of
// the poll before (nil: none), and returns its rows and builder.
func buildRows(in sameInput, prev []PartitionOffsets) ([]PartitionOffsets, *groupBuilder) {
	gb := &groupBuilder{g: &Group{Name: "g", Members: in.members}, prev: prev}
	gb.phases(in.ts, newLogBounds(in.starts, nil, in.ends, in.endErr, in.stables), nil)
	return gb.g.Partitions, gb
}

// phases runs the phases that make the group's rows, keys the offset
// fetch's scratch.
func (gb *groupBuilder) phases(ts []kmsg.OffsetFetchResponseGroupTopic, lb *logBounds, keys []commitKey) []commitKey {
	keys = gb.commitRows(ts, nil, keys)
	gb.assemble()
	gb.join(lb)
	return keys
}

// deepRows is a copy of rows that shares nothing with them.
func deepRows(rows []PartitionOffsets) []PartitionOffsets {
	out := slices.Clone(rows)
	for i := range out {
		if o := out[i].owned; o != nil && o != notOwned {
			c := *o
			c.owners = slices.Clone(c.owners)
			out[i].owned = &c
		}
	}
	return out
}

// TestPollComparesRowsWhileBuilding holds the phases of a poll that
// compare what they read with the previous poll's rows (sameCommits,
// sameOwners, sameBounds) to the rows the phases make without them: for
// a group that did not change, the very rows of the poll before, made
// without one allocation; for one that changed in any field a phase
// sets, rows of its own equal to the ones a poll without the previous
// rows makes; and the previous rows, which the screens still read, are
// never written.
func TestPollComparesRowsWhileBuilding(t *testing.T) {
	prev, _ := buildRows(baseInput(), nil)
	if len(prev) != 14 || prev[1].MemberID != "m-1" || prev[5].Lag != 15 || prev[5].LogEnd != 120 || prev[0].Err != nil {
		t.Fatalf("the base rows are not what this test expects: %+v", prev[:6])
	}
	kept := deepRows(prev)

	same := baseInput()
	rows, gb := buildRows(same, prev)
	if &rows[0] != &prev[0] || !gb.same {
		t.Error("a group that did not change has rows of its own")
	}
	lb := newLogBounds(same.starts, nil, same.ends, nil, same.stables)
	keys := make([]commitKey, 0, 64)
	allocs := func(prev []PartitionOffsets) float64 {
		gb := &groupBuilder{g: &Group{Name: "g", Members: same.members}}
		return testing.AllocsPerRun(20, func() {
			*gb = groupBuilder{g: gb.g, prev: prev}
			keys = gb.phases(same.ts, lb, keys)
		})
	}
	// Without the rows before: the rows, and the member ids the owners
	// share.
	if a := allocs(prev); a != 0 {
		t.Errorf("a group that did not change: %.0f allocations, want none", a)
	}
	if a := allocs(nil); a < 2 {
		t.Errorf("without the previous rows: %.0f allocations; the test no longer tells the rows apart", a)
	}

	cases := []struct {
		name   string
		change func(*sameInput)
	}{
		{"a commit moved", func(in *sameInput) { in.ts[0].Partitions[5].Offset++ }},
		{"a commit went", func(in *sameInput) { in.ts[0].Partitions[5].Offset = -1 }},
		{"a leader epoch", func(in *sameInput) { in.ts[0].Partitions[5].LeaderEpoch++ }},
		{"metadata", func(in *sameInput) { m := "other"; in.ts[1].Partitions[1].Metadata = &m }},
		{"a fetch error", func(in *sameInput) { in.ts[0].Partitions[5].ErrorCode = 3 }},
		{"a partition fewer", func(in *sameInput) { in.ts[0].Partitions = in.ts[0].Partitions[:11] }},
		{"a partition more", func(in *sameInput) {
			rp := kmsg.NewOffsetFetchResponseGroupTopicPartition()
			rp.Partition, rp.Offset = 12, 4
			in.ts[0].Partitions = append(in.ts[0].Partitions, rp)
		}},
		{"a partition twice", func(in *sameInput) {
			rp := in.ts[0].Partitions[5]
			rp.Offset++
			in.ts[0].Partitions = append(in.ts[0].Partitions, rp)
		}},
		{"another owner", func(in *sameInput) { in.members[0].Assignment[0].Partitions = []int32{0, 1, 3} }},
		{"another client id", func(in *sameInput) { in.members[0].ClientID = "c-2" }},
		{"a second owner", func(in *sameInput) {
			in.members = append(in.members, Member{MemberID: "m-2", ClientID: "c-2", Host: "h-2", Assignment: []TopicPartitions{{Topic: "t", Partitions: []int32{2}}}})
		}},
		{"no member", func(in *sameInput) { in.members = nil }},
		{"an assigned partition with no commit", func(in *sameInput) {
			in.members[0].Assignment = append(in.members[0].Assignment, TopicPartitions{Topic: "v", Partitions: []int32{0}})
		}},
		{"the log grew", func(in *sameInput) { in.ends["t"][7] = kadm.ListedOffset{Topic: "t", Partition: 7, Offset: 121} }},
		{"the log start moved", func(in *sameInput) { in.starts["u"][1] = kadm.ListedOffset{Topic: "u", Partition: 1, Offset: 11} }},
		{"a log end error", func(in *sameInput) {
			in.ends["t"][7] = kadm.ListedOffset{Topic: "t", Partition: 7, Err: errors.New("not leader")}
		}},
		{"no log end at all", func(in *sameInput) { in.ends, in.endErr = nil, errors.New("timed out") }},
		{"a transaction open", func(in *sameInput) {
			in.stables["t"][7] = kadm.ListedOffset{Topic: "t", Partition: 7, Offset: 110}
		}},
	}
	for _, tc := range cases {
		in := baseInput().clone()
		tc.change(&in)
		want, _ := buildRows(in, nil)
		got, gb := buildRows(in, prev)
		if gb.same || len(got) > 0 && len(prev) > 0 && &got[0] == &prev[0] {
			t.Errorf("%s: the rows of the poll before were kept", tc.name)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: rows\n%+v\nwant\n%+v", tc.name, got, want)
		}
		if !reflect.DeepEqual(prev, kept) {
			t.Fatalf("%s: the rows of the poll before were written", tc.name)
		}
	}
}
