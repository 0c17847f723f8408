package lag_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/kafka/lag"
)

// produceAt writes one record per timestamp to topic/0 and returns the log
// end.
func produceAt(t *testing.T, c *kafkatest.Cluster, topic string, stamps []time.Time) int64 {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	recs := make([]*kgo.Record, len(stamps))
	for i, ts := range stamps {
		recs[i] = &kgo.Record{Topic: topic, Partition: 0, Value: []byte("v"), Timestamp: ts}
	}
	var end int64
	for _, r := range cl.ProduceSync(ctx(t), recs...) {
		if r.Err != nil {
			t.Fatalf("produce: %v", r.Err)
		}
		end = r.Record.Offset + 1
	}
	return end
}

// stamps returns n timestamps from start, step apart.
func stamps(start time.Time, n int, step time.Duration) []time.Time {
	out := make([]time.Time, n)
	for i := range out {
		out[i] = start.Add(time.Duration(i) * step)
	}
	return out
}

// TestExactTimeLagOnKfake: a group whose commit is older than every poll
// the History saw, on logs of records with known timestamps produced
// steadily, in bursts, or no more. Before the record at the commit is
// read the time lag is unknown or a lower bound of the truth; after it is
// read it is the truth exactly, on every later poll, without another read.
func TestExactTimeLagOnKfake(t *testing.T) {
	c := kafkatest.NewCluster(t)
	cl := c.Client(t)
	type shape struct {
		name string
		// history is the log before the first poll; during is
		// produced before each later poll (stamped then).
		history []time.Time
		during  int
		commit  int64
	}
	var bursty []time.Time
	for _, at := range []time.Duration{-900 * time.Second, -600 * time.Second, -20 * time.Second} {
		bursty = append(bursty, stamps(base.Add(at), 100, 0)...)
	}
	for _, sh := range []shape{
		{name: "steady", history: stamps(base.Add(-600*time.Second), 600, time.Second), during: 5, commit: 100},
		{name: "bursty", history: bursty, during: 100, commit: 150},
		{name: "stopped", history: stamps(base.Add(-3600*time.Second), 300, time.Second), commit: 50},
	} {
		t.Run(sh.name, func(t *testing.T) {
			topic, group := "tl-"+sh.name, "g-"+sh.name
			c.CreateTopic(t, topic, 1)
			produceAt(t, c, topic, sh.history)
			c.Commit(t, group, map[string]map[int32]int64{topic: {0: sh.commit}})
			truthAt := sh.history[sh.commit]
			h := lag.NewHistory(lag.DefaultConfig())
			var reads int
			poll := func(i int) (lag.PartitionHealth, time.Time) {
				t.Helper()
				now := base.Add(time.Duration(i) * pollGap)
				if i > 0 && sh.during > 0 {
					produceAt(t, c, topic, stamps(now.Add(-pollGap/2), sh.during, 0))
				}
				s, err := cl.PollGroups(ctx(t), group)
				if err != nil {
					t.Fatal(err)
				}
				s.Time = now
				h.Add(s)
				g, ok := h.Evaluate(group, now)
				if !ok || len(g.Partitions) != 1 || g.Partitions[0].Committed != sh.commit {
					t.Fatalf("poll %d: %+v", i, g)
				}
				return g.Partitions[0], now
			}
			read := func() {
				t.Helper()
				want := h.WantExact(0, nil)
				if len(want) == 0 {
					return
				}
				reads++
				recs, err := cl.CommittedTimestamps(ctx(t), want)
				if err != nil {
					t.Fatal(err)
				}
				h.AddExact(recs)
			}
			p, _ := poll(0)
			if p.TimeLag.Known() {
				t.Errorf("first poll, nothing read: %+v, want unknown", p.TimeLag)
			}
			p, now := poll(1)
			truth := now.Sub(truthAt).Seconds()
			if p.TimeLag != (lag.TimeLag{Seconds: pollGap.Seconds(), Kind: lag.TimeLagAtLeast}) || p.TimeLag.Seconds > truth {
				t.Errorf("before the read: %+v, want at least %.0fs (truth %.0fs)", p.TimeLag, pollGap.Seconds(), truth)
			}
			read()
			g, _ := h.Evaluate(group, now)
			if got := g.Partitions[0].TimeLag; got != (lag.TimeLag{Seconds: truth, Kind: lag.TimeLagExact}) {
				t.Errorf("after the read: %+v, want exactly %.0fs", got, truth)
			}
			for i := 2; i < 5; i++ {
				read()
				p, now = poll(i)
				if want := (lag.TimeLag{Seconds: now.Sub(truthAt).Seconds(), Kind: lag.TimeLagExact}); p.TimeLag != want {
					t.Errorf("poll %d: %+v, want %+v", i, p.TimeLag, want)
				}
			}
			read()
			if reads != 1 {
				t.Errorf("%d reads, want 1: a commit that stays put is read once", reads)
			}
		})
	}
}

// fetchCounter counts Fetch requests.
type fetchCounter struct {
	mu sync.Mutex
	n  map[int16]int
}

func (r *fetchCounter) OnBrokerWrite(_ kgo.BrokerMetadata, key int16, _ int, _, _ time.Duration, _ error) {
	r.mu.Lock()
	r.n[key]++
	r.mu.Unlock()
}

func (r *fetchCounter) take(key int16) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.n[key]
	r.n = map[int16]int{}
	return n
}

// readRequests polls groups (each committed below the log end on every
// partition of 12-partition topics spread over the 3 brokers), reads what
// the History wants, and returns the Fetch requests of that read and of
// the read after a second poll of the same, stalled, commits.
func readRequests(t *testing.T, groups int) (first, second, idle, read int) {
	t.Helper()
	c := kafkatest.NewCluster(t)
	const parts = 12
	for _, topic := range []string{"a", "b"} {
		c.CreateTopic(t, topic, parts)
		for p := range int32(parts) {
			c.Produce(t, topic, p, 20, base)
		}
	}
	for i := range groups {
		off := map[int32]int64{}
		for p := range int32(parts) {
			off[p] = int64(i % 5)
		}
		c.Commit(t, fmt.Sprintf("group-%03d", i), map[string]map[int32]int64{"a": off, "b": off})
	}
	rc := &fetchCounter{n: map[int16]int{}}
	cl := c.Client(t, kgo.WithHooks(rc))
	h := lag.NewHistory(lag.DefaultConfig())
	fetch := int16(kmsg.Fetch)
	step := func(i int) int {
		s, err := cl.Poll(ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		s.Time = base.Add(time.Duration(i) * pollGap)
		h.Add(s)
		rc.take(fetch)
		want := h.WantExact(0, nil)
		if len(want) > 0 {
			recs, err := cl.CommittedTimestamps(ctx(t), want)
			if err != nil {
				t.Fatal(err)
			}
			for k, r := range recs {
				if r.Err != nil || r.Offset != k.Offset {
					t.Fatalf("%v: %+v", k, r)
				}
			}
			read += h.AddExact(recs)
		}
		return rc.take(fetch)
	}
	first = step(0)
	for i := 1; i < 5; i++ {
		second += step(i)
	}
	for i := 5; i < 8; i++ {
		idle += step(i)
	}
	return first, second, idle, read
}

// TestExactReadsPerBroker: the exact reads for 24 partitions on 3 brokers
// cost a few Fetch requests per broker, not one per partition or per
// group, whether 5 groups or 100 want them; commits that stay put are
// never read again. Groups on one partition at different commits are read
// on successive polls (one commit per partition per read).
func TestExactReadsPerBroker(t *testing.T) {
	f5, s5, i5, r5 := readRequests(t, 5)
	f100, s100, i100, r100 := readRequests(t, 100)
	t.Logf("5 groups: %d fetches, then %d, then %d; 100 groups: %d, then %d, then %d", f5, s5, i5, f100, s100, i100)
	if i5 != 0 || i100 != 0 {
		t.Errorf("stalled commits already read cost %d and %d Fetch requests, want 0", i5, i100)
	}
	// 24 partitions x 5 distinct commits (0..4) each, whatever the
	// number of groups: 5 reads of 24 commits, one per poll.
	if r5 != 24*5 || r100 != 24*5 {
		t.Errorf("records read: %d and %d, want %d", r5, r100, 24*5)
	}
	// One Fetch per broker answers every partition it leads; the
	// consumer may send one more per broker before the partitions are
	// paused, and one retry; on a loaded machine (the whole suite under
	// -race) a fetch may also come back before the consumer knows every
	// partition's leader, which costs one more (10 for the first read
	// was seen there). At most 4 per broker and read: what matters is
	// that the count follows the brokers, not the 24 partitions or the
	// 100 groups.
	for _, n := range []int{f5, f100} {
		if n < 3 || n > 3*4 {
			t.Errorf("first read sent %d Fetch requests, want 3..12 (at most 4 per broker)", n)
		}
	}
	for _, n := range []int{s5, s100} {
		if n < 4*3 || n > 4*3*4 {
			t.Errorf("four later reads sent %d Fetch requests, want 12..48", n)
		}
	}
}

// BenchmarkExactReads measures the exact reads of one poll of 2,000
// groups on 24 partitions over 3 brokers, each group committed below the
// log end on two of them (50 distinct commits per partition): Fetch
// requests and records read per poll. "first" is a fresh History's first
// poll (every lagging commit is older than the points); "stalled" is a
// History that has read every commit already and polls them unchanged.
func BenchmarkExactReads(b *testing.B) {
	const groups, parts = 2000, 12
	c := kafkatest.NewCluster(b)
	for _, topic := range []string{"a", "b"} {
		c.CreateTopic(b, topic, parts)
		for p := range int32(parts) {
			c.Produce(b, topic, p, 100, base)
		}
	}
	for i := range groups {
		p, off := int32(i%parts), int64(i%50)
		c.Commit(b, fmt.Sprintf("group-%04d", i), map[string]map[int32]int64{"a": {p: off}, "b": {p: off}})
	}
	rc := &fetchCounter{n: map[int16]int{}}
	cl := c.Client(b, kgo.WithHooks(rc))
	fetch := int16(kmsg.Fetch)
	polls := 0
	step := func(h *lag.History) (fetches, read int) {
		s, err := cl.Poll(context.Background())
		if err != nil || len(s.Groups) != groups {
			b.Fatalf("poll: %v", err)
		}
		polls++
		s.Time = base.Add(time.Duration(polls) * pollGap)
		h.Add(s)
		rc.take(fetch)
		if want := h.WantExact(0, nil); len(want) > 0 {
			recs, err := cl.CommittedTimestamps(context.Background(), want)
			if err != nil {
				b.Fatal(err)
			}
			read = h.AddExact(recs)
		}
		return rc.take(fetch), read
	}
	run := func(b *testing.B, fresh bool) {
		b.Helper()
		h := lag.NewHistory(lag.DefaultConfig())
		if !fresh {
			for {
				if _, read := step(h); read == 0 {
					break
				}
			}
		}
		var fetches, reads int
		for b.Loop() {
			if fresh {
				h = lag.NewHistory(lag.DefaultConfig())
			}
			f, r := step(h)
			fetches += f
			reads += r
		}
		b.ReportMetric(float64(fetches)/float64(b.N), "fetches/op")
		b.ReportMetric(float64(reads)/float64(b.N), "reads/op")
	}
	b.Run("first", func(b *testing.B) { run(b, true) })
	b.Run("stalled", func(b *testing.B) { run(b, false) })
}
