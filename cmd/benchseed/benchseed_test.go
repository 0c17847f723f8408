package benchseed

import (
	"errors"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

func TestSameCommits(t *testing.T) {
	want := make(kadm.Offsets)
	want.AddOffset("t", 0, 100, -1)
	want.AddOffset("t", 1, 100, -1)
	fetched := func(offs ...int64) kadm.FetchOffsetsResponse {
		r := kadm.FetchOffsetsResponse{Group: "g", Fetched: kadm.OffsetResponses{"t": {}}}
		for p, o := range offs {
			r.Fetched["t"][int32(p)] = kadm.OffsetResponse{Offset: kadm.Offset{Topic: "t", Partition: int32(p), At: o}}
		}
		return r
	}
	if !same(fetched(100, 100), want) {
		t.Error("the same commits: want same")
	}
	for name, have := range map[string]kadm.FetchOffsetsResponse{
		"one differs":     fetched(100, 97),
		"one missing":     fetched(100),
		"one more":        fetched(100, 100, 100),
		"none":            {Group: "g"},
		"the fetch fails": {Group: "g", Err: errors.New("no coordinator")},
	} {
		if same(have, want) {
			t.Errorf("%s: same, want a commit", name)
		}
	}
}

// TestStartKfake seeds a small cluster and reads it back: every group
// commits every partition of its one topic at the log end, the lagging
// ones 3 records short, and a group found with those commits counts as
// the same.
func TestStartKfake(t *testing.T) {
	ctx := t.Context()
	l := Layout{Groups: 6, Topics: 2, Partitions: 3, LagEvery: 4}
	kc, err := StartKfake(ctx, l)
	if err != nil {
		t.Fatal(err)
	}
	defer kc.Close()
	cl, err := kgo.NewClient(kgo.SeedBrokers(kc.ListenAddrs()...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	names := make([]string, l.Groups)
	for i := range names {
		names[i] = l.Group(i)
	}
	got := adm.FetchManyOffsets(ctx, names...)
	for i, name := range names {
		want := make(kadm.Offsets)
		at := int64(Records)
		if i == 0 || i == 4 {
			at = Records - 3
		}
		for p := range l.Partitions {
			want.AddOffset(l.Topic(i%l.Topics), int32(p), at, -1)
		}
		if !same(got[name], want) {
			t.Errorf("%s: commits %v, want every partition of %s at %d", name, got[name].Fetched, l.Topic(i%l.Topics), at)
		}
	}
	if s := l.Describe(); s != "6 Empty groups, 2 topics x 3 partitions, 18 committed partitions, every 4th group 3 records behind" {
		t.Errorf("Describe: %q", s)
	}
}
