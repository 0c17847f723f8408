package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestSeedAndFloor seeds a small cluster of the same shape as the default
// one and checks what the floor reads: every group listed and described,
// every (group, partition) commit fetched, the log bounds of every
// partition, and the offsets the shape says.
func TestSeedAndFloor(t *testing.T) {
	s := shape{groups: 30, topics: 3, partitions: 4, records: 5}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := seed(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()

	n, err := floorOn(ctx, c.addrs)
	if err != nil {
		t.Fatal(err)
	}
	if n.groups != 30 || n.described != 30 || n.committed != 120 || n.partitions != 12 {
		t.Fatalf("floor read %+v, want 30 groups listed and described, 120 commits, 12 partitions", n)
	}
	// Six kinds of read, each batched per broker or coordinator, and the
	// client's own ApiVersions and metadata: 25 to 28 requests in the
	// runs seen, as for 2,000 groups.
	if n.requests > 40 {
		t.Errorf("floor sent %d requests", n.requests)
	}

	cl, err := kgo.NewClient(kgo.SeedBrokers(c.addrs...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	// Group 7 commits on topic 7 mod 3 = 1: (7+p) mod 6 on partition p.
	got, err := adm.FetchOffsets(ctx, "group-00007")
	if err != nil {
		t.Fatal(err)
	}
	want := map[int32]int64{0: 1, 1: 2, 2: 3, 3: 4}
	for p, o := range want {
		r, ok := got.Lookup("topic-01", p)
		if !ok || r.At != o {
			t.Errorf("group-00007 topic-01/%d: committed %d (found %v), want %d", p, r.At, ok, o)
		}
	}
	if len(got) != 1 {
		t.Errorf("group-00007 committed on %d topics, want 1", len(got))
	}
	ends, err := adm.ListEndOffsets(ctx, "topic-00", "topic-02")
	if err != nil {
		t.Fatal(err)
	}
	ends.Each(func(lo kadm.ListedOffset) {
		if lo.Offset != 5 {
			t.Errorf("%s/%d ends at %d, want 5", lo.Topic, lo.Partition, lo.Offset)
		}
	})
	described, err := adm.DescribeGroups(ctx, "group-00000", "group-00029")
	if err != nil {
		t.Fatal(err)
	}
	for name, g := range described {
		if g.State != "Empty" {
			t.Errorf("%s is %s, want Empty", name, g.State)
		}
	}
}

func TestShapeCheck(t *testing.T) {
	good := shape{groups: 1, topics: 1, partitions: 1}
	if err := good.check(1); err != nil {
		t.Fatalf("good shape: %v", err)
	}
	for _, tc := range []struct {
		s    shape
		runs int
		want string
	}{
		{shape{groups: 0, topics: 1, partitions: 1}, 1, "-groups 0: give at least 1"},
		{shape{groups: 1, topics: 0, partitions: 1}, 1, "-topics 0: give at least 1"},
		{shape{groups: 1, topics: 1, partitions: 0}, 1, "-partitions 0: give at least 1"},
		{shape{groups: 1, topics: 1, partitions: 1, records: -1}, 1, "-records -1: give 0 or more"},
		{good, 0, "-runs 0: give at least 1"},
	} {
		if err := tc.s.check(tc.runs); err == nil || err.Error() != tc.want {
			t.Errorf("%+v runs %d: %v, want %q", tc.s, tc.runs, err, tc.want)
		}
	}
	if got := (shape{groups: 2000, topics: 20, partitions: 12}).committedPartitions(); got != 24000 {
		t.Errorf("committed partitions %d, want 24000", got)
	}
}

func TestCountDocumentAndMedian(t *testing.T) {
	doc := `{"groups":[{"partitions":[{"committedOffset":3},{"committedOffset":null}]},{"partitions":[{"committedOffset":0}]}]}`
	g, c, err := countDocument([]byte(doc))
	if err != nil || g != 2 || c != 2 {
		t.Errorf("countDocument: %d groups, %d committed, %v; want 2, 2", g, c, err)
	}
	if _, _, err := countDocument([]byte("{")); err == nil || !strings.Contains(err.Error(), "kgroups' document") {
		t.Errorf("bad document: %v", err)
	}
	m := median([]sample{{wall: 3, cpu: 9, rss: 5}, {wall: 1, cpu: 7, rss: 6}, {wall: 2, cpu: 8, rss: 4}})
	if m != (sample{wall: 2, cpu: 8, rss: 5}) {
		t.Errorf("median %+v, want wall 2, cpu 8, rss 5", m)
	}
}
