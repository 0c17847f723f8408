package recording

import (
	"bytes"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/fixture"
)

// bigCluster is 10,000 groups of 12 partitions (120,000 rows), each group
// one member on its own topic, as a poll of a large cluster gives it.
func bigCluster() *kafka.Snapshot {
	s := fixture.ManyGroups(10000)
	for i := range s.Groups {
		g := &s.Groups[i]
		m := g.Members[0]
		m.Assignment = []kafka.TopicPartitions{{Topic: m.Assignment[0].Topic, Partitions: []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}}}
		g.Members = []kafka.Member{m}
		g.Partitions = nil
		for p := int32(0); p < 12; p++ {
			g.Partitions = append(g.Partitions, fixture.Part(m.Assignment[0].Topic, p, int64(1000*i), 0, int64(1000*i+int(p)*7), &m))
		}
	}
	return s
}

// advance is the poll after s: in every moving-th group, every partition
// took 40 records and its consumer committed 35 of them.
func advance(s *kafka.Snapshot, interval time.Duration, moving int) *kafka.Snapshot {
	c := *s
	c.Time = s.Time.Add(interval)
	c.Groups = make([]kafka.Group, len(s.Groups))
	copy(c.Groups, s.Groups)
	for i := range c.Groups {
		if moving == 0 || i%moving != 0 {
			continue
		}
		g := &c.Groups[i]
		ps := make([]kafka.PartitionOffsets, len(g.Partitions))
		copy(ps, g.Partitions)
		for j := range ps {
			ps[j].LogEnd += 40
			ps[j].Committed += 35
			ps[j].Lag = ps[j].LogEnd - ps[j].Committed
		}
		g.Partitions = ps
	}
	return &c
}

// TestSizeOfAnHourOfABigCluster measures 31 polls at 5s of 10,000
// groups and 120,000 partitions, at rest, with one group in ten moving,
// and with every group moving, and works out an hour (721 polls: every
// poll after the first costs the same). docs/performance.md#recordings
// quotes these figures; the test holds the rule that a partition at rest
// costs under a byte a poll.
func TestSizeOfAnHourOfABigCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 31 polls of 120,000 partitions three times")
	}
	const polls = 31
	for _, moving := range []int{0, 10, 1} {
		s := bigCluster()
		var buf bytes.Buffer
		w, err := NewWriter(&buf, Header{Refresh: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		var first int64
		for i := range polls {
			if i > 0 {
				s = advance(s, 5*time.Second, moving)
			}
			if err := w.Write(Poll{Time: s.Time, Snapshot: s}); err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				first = w.Size()
			}
		}
		per := float64(w.Size()-first) / (polls - 1)
		what := "at rest"
		if moving > 0 {
			what = fmt.Sprintf("1 group in %d moving", moving)
		}
		t.Logf("%s: first poll %d bytes, then %.0f bytes a poll (%.3f a partition), an hour %.1f MiB", what, first, per, per/120000, (float64(first)+720*per)/(1<<20))
		if moving == 0 && per >= 120000 {
			t.Errorf("at rest a poll costs %.0f bytes: a byte or more a partition", per)
		}
		// Reading it back gives every poll.
		r, err := NewReader(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for {
			if _, err := r.Next(); err != nil {
				break
			}
			n++
		}
		if n != polls || r.Torn() != nil {
			t.Fatalf("read %d polls back (torn %v)", n, r.Torn())
		}
	}
}

// BenchmarkWriteBigPoll is the cost of writing one poll of 10,000 groups
// and 120,000 partitions after the first, with one group in ten moving:
// what `kgroups record --all-groups` and `serve --record` add to a poll.
func BenchmarkWriteBigPoll(b *testing.B) {
	s := bigCluster()
	w, err := NewWriter(io.Discard, Header{})
	if err != nil {
		b.Fatal(err)
	}
	if err := w.Write(Poll{Time: s.Time, Snapshot: s}); err != nil {
		b.Fatal(err)
	}
	next := make([]*kafka.Snapshot, 8)
	for i := range next {
		s = advance(s, 5*time.Second, 10)
		next[i] = s
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		// The same eight polls again and again: each is a change from
		// the one before but for the first of a round.
		if err := w.Write(Poll{Time: next[i%8].Time, Snapshot: next[i%8]}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadBigPoll is the cost of reading one such poll back.
func BenchmarkReadBigPoll(b *testing.B) {
	s := bigCluster()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{})
	if err != nil {
		b.Fatal(err)
	}
	polls := 1 + 8
	for i := range polls {
		if i > 0 {
			s = advance(s, 5*time.Second, 10)
		}
		if err := w.Write(Poll{Time: s.Time, Snapshot: s}); err != nil {
			b.Fatal(err)
		}
	}
	data := buf.Bytes()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		r, err := NewReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, err := r.Next(); err != nil {
				break
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*polls), "ns/poll")
}
