package lag

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
)

// byteReader hands out fuzz input, then zeros.
type byteReader struct {
	b []byte
}

func (r *byteReader) next() byte {
	if len(r.b) == 0 {
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *byteReader) empty() bool { return len(r.b) == 0 }

// offset decodes an offset, favouring small values that collide, with
// NoOffset, odd negatives and huge values in the mix.
func (r *byteReader) offset() int64 {
	switch c := r.next(); {
	case c == 255:
		return math.MaxInt64
	case c == 254:
		return math.MaxInt64 - 1
	case c >= 240:
		return -int64(c - 238) // -2 .. -17
	case c >= 200:
		return kafka.NoOffset
	default:
		return int64(c) * 7
	}
}

type fuzzKey struct {
	group, topic string
	partition    int32
}

// FuzzHistory feeds decoded snapshot sequences to a small History and checks
// its invariants after every poll: no panic, the memory bound (only what the
// last EvictAfter polls saw is kept, each ring at its fixed size), and
// well-formed evaluations.
func FuzzHistory(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 1, 0, 2, 0, 0, 10, 20, 0, 1, 0, 1, 5, 20, 0, 1})
	f.Add([]byte{1, 2, 0, 3, 0, 0, 1, 50, 0, 1, 1, 0, 1, 60, 0, 0, 0, 1, 1, 200, 9, 0, 0,
		1, 1, 0, 1, 0, 0, 1, 70, 0, 1, 255, 1, 0, 1, 0, 0, 0, 80, 0, 1})
	f.Add([]byte{3, 1, 1, 4, 0, 0, 100, 150, 3, 1, 1, 0, 255, 254, 0, 0, 0, 1, 250, 240, 0, 1,
		1, 1, 1, 199, 201, 199, 0, 200, 1, 1, 0, 4, 0, 0, 90, 160, 3, 1, 1, 1, 0, 0, 0, 0})
	f.Add([]byte{1, 1, 2, 1, 1, 2, 10, 10, 0, 1, 128, 1, 2, 1, 1, 2, 10, 12, 0, 1, 2, 1, 2, 1, 1, 2,
		5, 14, 0, 0, 0, 1, 2, 1, 1, 2, 5, 16, 0, 0, 9, 0, 9, 0, 9, 0, 9, 1, 2, 1, 1, 2, 5, 99, 0, 1})
	groups := []string{"a", "b", "c"}
	topics := []string{"t", "u"}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg := Config{Window: 3, MinDistance: time.Second, Samples: 5, TimePoints: 4, RatePolls: 3, EvictAfter: 2}
		h := NewHistory(cfg)
		r := &byteReader{b: data}
		now := t0
		var (
			polls    int
			seen     = map[fuzzKey]int{} // key -> last poll that saw it
			accepted *kafka.Snapshot
		)
		for step := 0; !r.empty() && step < 64; step++ {
			// Time moves by -8..+7 seconds; not forward means ignored.
			now = now.Add(time.Duration(int8(r.next())>>4) * time.Second)
			s := &kafka.Snapshot{Time: now}
			for range int(r.next() % 4) {
				g := kafka.Group{Name: groups[r.next()%3]}
				for range int(r.next() % 5) {
					p := kafka.PartitionOffsets{
						Topic:     topics[r.next()%2],
						Partition: int32(r.next() % 3),
						Committed: r.offset(),
						LogEnd:    r.offset(),
						LogStart:  r.offset(),
					}
					p.Lag = lagOf(p.Committed, p.LogEnd)
					if r.next()%2 == 1 {
						p.MemberID = "m"
					}
					g.Partitions = append(g.Partitions, p)
				}
				s.Groups = append(s.Groups, g)
			}
			before := h.Polls()
			h.Add(s)
			if h.Polls() == before {
				continue
			}
			polls++
			accepted = s
			for _, g := range s.Groups {
				for _, p := range g.Partitions {
					seen[fuzzKey{g.Name, p.Topic, p.Partition}] = polls
				}
			}
			checkInvariants(t, h, cfg, accepted, seen, polls, now)
		}
	})
}

func checkInvariants(t *testing.T, h *History, cfg Config, s *kafka.Snapshot, seen map[fuzzKey]int, polls int, now time.Time) {
	t.Helper()
	recent := 0
	for _, last := range seen {
		if polls-last < cfg.EvictAfter {
			recent++
		}
	}
	if h.Partitions() > recent {
		t.Fatalf("poll %d keeps %d partitions, but only %d were seen in the last %d polls", polls, h.Partitions(), recent, cfg.EvictAfter)
	}
	for name, gh := range h.groups {
		if polls-int(gh.lastSeq) >= cfg.EvictAfter {
			t.Fatalf("group %q last seen at poll %d kept at poll %d", name, gh.lastSeq, polls)
		}
		if len(gh.lag.b) != (cfg.Samples+1)*int(gh.lag.w) {
			t.Fatalf("group %q lag ring has %d bytes, want %d slots of %d", name, len(gh.lag.b), cfg.Samples+1, gh.lag.w)
		}
		series := h.GroupLagSeries(name, nil)
		if n := len(series); n < 1 || n > cfg.Samples {
			t.Fatalf("group %q series has %d polls, want 1..%d", name, n, cfg.Samples)
		}
		for _, v := range series {
			if v < 0 && v != kafka.NoOffset {
				t.Fatalf("group %q series holds %d", name, v)
			}
		}
		for i := range gh.parts {
			ph := &gh.parts[i]
			if i > 0 && compareKey(h.topicOf(&gh.parts[i-1]), gh.parts[i-1].partition, h.topicOf(ph), ph.partition) >= 0 {
				t.Fatalf("group %q partitions out of order at %d", name, i)
			}
			if want := int(h.starts[ph.wkey][numSec]); (ph.data == nil) != (want == 0) {
				t.Fatalf("partition slab allocated: %v, its widths key %d want %d bytes", ph.data != nil, ph.wkey, want)
			}
			if int(ph.ptLen) > cfg.TimePoints || int(ph.winLen) > cfg.Window {
				t.Fatalf("partition holds %d points and %d observations", ph.ptLen, ph.winLen)
			}
			for k := 1; k < int(ph.ptLen); k++ {
				a, as := h.point(ph, k-1)
				b, bs := h.point(ph, k)
				at, bt := h.timeAt(as), h.timeAt(bs)
				if b < a || bt <= at {
					t.Fatalf("points go backwards: (%d,%d) then (%d,%d)", a, at, b, bt)
				}
			}
		}
	}

	for _, g := range s.Groups {
		gh, ok := h.Evaluate(g.Name, now)
		if !ok {
			t.Fatalf("group %q of the latest poll not evaluated", g.Name)
		}
		// A name repeated within one poll: the first occurrence counts.
		first := firstGroup(s, g.Name)
		var want []fuzzKey
		for _, p := range first.Partitions {
			k := fuzzKey{g.Name, p.Topic, p.Partition}
			if !slices.Contains(want, k) {
				want = append(want, k)
			}
		}
		if len(gh.Partitions) != len(want) {
			t.Fatalf("group %q evaluates %d partitions, the poll had %d", g.Name, len(gh.Partitions), len(want))
		}
		var total int64
		worst := StatusOK
		for _, p := range gh.Partitions {
			if p.Status > StatusStop {
				t.Fatalf("invalid status %d", p.Status)
			}
			worst = max(worst, p.Status)
			if p.Lag > 0 {
				total = addLag(total, p.Lag)
			}
			checkFloat(t, "time lag", p.TimeLag.Seconds, p.TimeLag.Known())
			if p.TimeLag.Seconds < 0 {
				t.Fatalf("negative time lag %v", p.TimeLag.Seconds)
			}
			if p.Committed < 0 && p.TimeLag.Known() {
				t.Fatalf("time lag %+v without a commit", p.TimeLag)
			}
			checkRate(t, p.ProduceRate)
			checkRate(t, p.ConsumeRate)
			checkFloat(t, "catch-up", p.CatchUp.Seconds, true)
			checkFloat(t, "behind", p.CatchUp.Behind, true)
			if p.Status == StatusRewind && p.Rewind.Low >= p.Rewind.High {
				t.Fatalf("rewind %+v does not go backwards", p.Rewind)
			}
		}
		if gh.TotalLag < 0 {
			t.Fatalf("group %q total lag %d", g.Name, gh.TotalLag)
		}
		if gh.TotalLag != total || gh.Status != worst || gh.Severity != worst.Severity() {
			t.Fatalf("group %q = lag %d %v/%v, partitions say %d %v", g.Name, gh.TotalLag, gh.Status, gh.Severity, total, worst)
		}
	}
}

func firstGroup(s *kafka.Snapshot, name string) *kafka.Group {
	for i := range s.Groups {
		if s.Groups[i].Name == name {
			return &s.Groups[i]
		}
	}
	return nil
}

func checkFloat(t *testing.T, what string, v float64, must bool) {
	t.Helper()
	if must && (math.IsNaN(v) || math.IsInf(v, 0) || v < 0) {
		t.Fatalf("%s = %v", what, v)
	}
}

func checkRate(t *testing.T, v float64) {
	t.Helper()
	if v != UnknownRate && (math.IsNaN(v) || math.IsInf(v, 0) || v < 0) {
		t.Fatalf("rate = %v", v)
	}
}
