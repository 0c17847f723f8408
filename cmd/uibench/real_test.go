package main

import (
	"errors"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
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
