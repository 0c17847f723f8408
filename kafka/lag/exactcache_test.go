package lag

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
)

func ck(topic string, partition int32, off int64) kafka.CommitKey {
	return kafka.CommitKey{Topic: topic, Partition: partition, Offset: off}
}

func wantKeys(ps []kafka.PartitionOffsets) []string {
	var out []string
	for _, p := range ps {
		out = append(out, fmt.Sprintf("%s/%d@%d", p.Topic, p.Partition, p.Committed))
	}
	return out
}

// TestWantExact: only commits older than the oldest point are asked for,
// the most lagging first, each commit once, one commit per partition per
// read, at most the budget; a read record is not asked for again while its
// commit stays put.
func TestWantExact(t *testing.T) {
	h := NewHistory(testConfig())
	add := func(sec float64) {
		h.Add(snap(at(sec),
			grp("a",
				po("t", 0, 10, 100+int64(sec)), // older than the points
				po("t", 1, 120, 130),           // within them from the 2nd poll
				po("u", 0, 5, 50),              // older, smaller lag
				po("v", 0, 70, 70),             // caught up
				po("v", 1, kafka.NoOffset, 9),  // no commit
			),
			grp("b",
				po("t", 0, 30, 100+int64(sec)), // same partition, other commit
				po("u", 0, 5, 50),              // same commit as a's
			),
		))
	}
	add(0)
	// The first poll: one point, every lagging commit is older than it.
	got := fmt.Sprint(wantKeys(h.WantExact(0, nil)))
	// Equal lower bounds (one point each): the largest offset lag first.
	if want := "[t/0@10 u/0@5 t/1@120]"; got != want {
		t.Errorf("first poll wants %s, want %s", got, want)
	}
	add(1)
	add(2)
	// t/1's log end stayed at 130, so its commit is still older than
	// every point; the budget leaves it for later.
	got = fmt.Sprint(wantKeys(h.WantExact(2, nil)))
	if want := "[t/0@10 u/0@5]"; got != want {
		t.Errorf("budget 2 wants %s, want %s", got, want)
	}
	h.AddExact(map[kafka.CommitKey]kafka.RecordTime{
		ck("t", 0, 10): {Offset: 10, Timestamp: at(-50)},
		ck("u", 0, 5):  {Offset: 5, Timestamp: at(-70)},
	})
	// t/0's other commit (b at 30) comes next, now that a's is read.
	got = fmt.Sprint(wantKeys(h.WantExact(0, nil)))
	if want := "[t/0@30 t/1@120]"; got != want {
		t.Errorf("after the read, wants %s, want %s", got, want)
	}
	g, _ := h.Evaluate("a", at(2))
	if tl := g.Partitions[0].TimeLag; tl != (TimeLag{Seconds: 52, Kind: TimeLagExact}) {
		t.Errorf("t/0 = %+v, want exactly 52s", tl)
	}
	if tl := g.Partitions[2].TimeLag; tl != (TimeLag{Seconds: 72, Kind: TimeLagExact}) {
		t.Errorf("u/0 = %+v, want exactly 72s", tl)
	}
	if g.MaxTimeLag != (TimeLag{Seconds: 72, Kind: TimeLagExact}) {
		t.Errorf("max = %+v, want exactly 72s", g.MaxTimeLag)
	}
	gb, _ := h.Evaluate("b", at(2))
	if tl := gb.Partitions[0].TimeLag; tl != (TimeLag{Seconds: 2, Kind: TimeLagAtLeast}) {
		t.Errorf("b's t/0 = %+v, want at least 2s (not read yet)", tl)
	}
	if tl := gb.Partitions[1].TimeLag; tl != (TimeLag{Seconds: 72, Kind: TimeLagExact}) {
		t.Errorf("b's u/0 = %+v, want exactly 72s (the same commit)", tl)
	}
}

// TestExactCacheBounded: a record is kept while its commit is current and
// dropped when the commit moves or the group goes, so the cache never
// holds more than the latest poll's commits and log starts.
func TestExactCacheBounded(t *testing.T) {
	h := NewHistory(testConfig())
	h.Add(snap(at(0), grp("g", po("t", 0, 10, 100))))
	h.AddExact(map[kafka.CommitKey]kafka.RecordTime{ck("t", 0, 10): {Offset: 10, Timestamp: at(-5)}})
	for i := 1; i <= 3; i++ {
		h.Add(snap(at(float64(i)), grp("g", po("t", 0, 10, 100))))
		g, _ := h.Evaluate("g", at(float64(i)))
		if tl := g.Partitions[0].TimeLag; tl != (TimeLag{Seconds: float64(5 + i), Kind: TimeLagExact}) {
			t.Errorf("poll %d: %+v, want exactly %ds from the cache", i, tl, 5+i)
		}
		if n := len(h.WantExact(0, nil)); n != 0 {
			t.Errorf("poll %d: a stalled commit asked for again (%d)", i, n)
		}
	}
	if h.ExactCached() != 1 {
		t.Errorf("cached %d, want 1", h.ExactCached())
	}
	h.Add(snap(at(4), grp("g", po("t", 0, 11, 100))))
	if h.ExactCached() != 0 {
		t.Errorf("cached %d after the commit moved, want 0", h.ExactCached())
	}
	g, _ := h.Evaluate("g", at(4))
	if tl := g.Partitions[0].TimeLag; tl != (TimeLag{Seconds: 4, Kind: TimeLagAtLeast}) {
		t.Errorf("moved commit = %+v, want at least 4s", tl)
	}
}

// TestExactFailedRetried: a failed read is not used, and is asked for
// again only after exactRetryPolls polls.
func TestExactFailedRetried(t *testing.T) {
	h := NewHistory(testConfig())
	h.Add(snap(at(0), grp("g", po("t", 0, 10, 100))))
	h.AddExact(map[kafka.CommitKey]kafka.RecordTime{ck("t", 0, 10): {Err: errors.New("denied")}})
	for i := 1; i < exactRetryPolls; i++ {
		h.Add(snap(at(float64(i)), grp("g", po("t", 0, 10, 100))))
		if n := len(h.WantExact(0, nil)); n != 0 {
			t.Fatalf("poll %d: failed read asked for again already", i)
		}
		g, _ := h.Evaluate("g", at(float64(i)))
		if tl := g.Partitions[0].TimeLag; tl != (TimeLag{Seconds: float64(i), Kind: TimeLagAtLeast}) {
			t.Fatalf("poll %d: %+v, want at least %ds", i, tl, i)
		}
	}
	h.Add(snap(at(exactRetryPolls), grp("g", po("t", 0, 10, 100))))
	if got := fmt.Sprint(wantKeys(h.WantExact(0, nil))); got != "[t/0@10]" {
		t.Errorf("after %d polls wants %s, want [t/0@10]", exactRetryPolls, got)
	}
}

// TestExactLogStart: a record read before retention moved the log start
// past it no longer counts; the log-start record's age is exact for a
// commit below the log start and caps every estimate above it.
func TestExactLogStart(t *testing.T) {
	h := NewHistory(testConfig())
	part := func(c, start, end int64) kafka.PartitionOffsets {
		p := po("t", 0, c, end)
		p.LogStart = start
		return p
	}
	// Record 10 read at the first poll.
	h.Add(snap(at(0), grp("g", part(10, 0, 100)), grp("h", part(150, 0, 100))))
	h.AddExact(map[kafka.CommitKey]kafka.RecordTime{ck("t", 0, 10): {Offset: 10, Timestamp: at(-100)}})
	// Retention moves the log start to 40: the group's next record is 40.
	h.Add(snap(at(1), grp("g", part(10, 40, 200)), grp("h", part(150, 40, 200))))
	g, _ := h.Evaluate("g", at(1))
	if tl := g.Partitions[0].TimeLag; tl != (TimeLag{Seconds: 1, Kind: TimeLagAtLeast}) {
		t.Errorf("after retention = %+v, want at least 1s (the old record is gone)", tl)
	}
	if got := fmt.Sprint(wantKeys(h.WantExact(0, nil))); got != "[t/0@10]" {
		t.Errorf("wants %s, want [t/0@10]", got)
	}
	// The read now finds the log start, 40, written 30s before 0s.
	h.AddExact(map[kafka.CommitKey]kafka.RecordTime{ck("t", 0, 10): {Offset: 40, Timestamp: at(-30)}})
	g, _ = h.Evaluate("g", at(1))
	if tl := g.Partitions[0].TimeLag; tl != (TimeLag{Seconds: 31, Kind: TimeLagExact}) {
		t.Errorf("below the log start = %+v, want exactly 31s", tl)
	}
	// Group h at 150 interpolates between (100, 0s) and (200, 1s): 0.5s,
	// below the cap. Give it a cap below that: a log start stamped at
	// 0.8s (a producer clock ahead) caps it at 0.2s.
	gh, _ := h.Evaluate("h", at(1))
	if tl := gh.Partitions[0].TimeLag; tl != (TimeLag{Seconds: 0.5, Kind: TimeLagInterpolated}) {
		t.Errorf("h = %+v, want 0.5s interpolated", tl)
	}
	h.AddExact(map[kafka.CommitKey]kafka.RecordTime{ck("t", 0, 40): {Offset: 40, Timestamp: at(0.8)}})
	gh, _ = h.Evaluate("h", at(1))
	if tl := gh.Partitions[0].TimeLag; tl.Kind != TimeLagInterpolated || tl.Seconds < 0.2-1e-9 || tl.Seconds > 0.2+1e-9 {
		t.Errorf("h capped = %+v, want 0.2s interpolated", tl)
	}
	// The alias survives polls while 40 is the log start.
	h.Add(snap(at(2), grp("g", part(10, 40, 200)), grp("h", part(150, 40, 200))))
	if h.ExactCached() != 2 {
		t.Errorf("cached %d, want the commit and the log start", h.ExactCached())
	}
}

// TestTimeLagNeverOvershoots is the property the time lag promises: over
// random produce histories (bursty, steady, stopped, mixed) polled at a
// fixed interval, with commits anywhere in the log and a random share of
// them read exactly, the time lag shown is never above the truth (now
// minus the timestamp of the record at the commit) by more than one poll
// interval; a lower bound is never above the truth at all, and an exact
// value is the truth.
func TestTimeLagNeverOvershoots(t *testing.T) {
	for seed := range uint64(300) {
		checkNoOvershoot(t, seed)
	}
}

// FuzzTimeLagNeverOvershoots runs the property over fuzzed seeds.
func FuzzTimeLagNeverOvershoots(f *testing.F) {
	for seed := range uint64(8) {
		f.Add(seed)
	}
	f.Fuzz(checkNoOvershoot)
}

// checkNoOvershoot is TestTimeLagNeverOvershoots for one random history.
func checkNoOvershoot(t *testing.T, seed uint64) { //nolint:thelper // the body of a test and a fuzzer; a failure names its own line
	const gap = 5 * time.Second
	r := rand.New(rand.NewPCG(seed, 7))
	// Record timestamps, nondecreasing, starting up to an hour
	// before the first poll.
	var ts []time.Time
	tm := t0.Add(-time.Duration(r.IntN(3600)) * time.Second)
	end := t0.Add(time.Duration(40) * gap)
	shape := r.IntN(4)
	for tm.Before(end) && len(ts) < 5000 {
		switch shape {
		case 0: // steady
			tm = tm.Add(time.Duration(200+r.IntN(800)) * time.Millisecond)
		case 1: // bursty: runs of equal stamps, long pauses
			if r.IntN(20) == 0 {
				tm = tm.Add(time.Duration(r.IntN(600)) * time.Second)
			}
		case 2: // stopped after a while
			tm = tm.Add(time.Duration(r.IntN(3)) * time.Second)
			if len(ts) > 300 {
				tm = end
			}
		default: // mixed rates
			tm = tm.Add(time.Duration(r.ExpFloat64()*float64(10*time.Second)) + 1)
		}
		ts = append(ts, tm)
	}
	logEnd := func(at time.Time) int64 {
		return int64(sort.Search(len(ts), func(i int) bool { return ts[i].After(at) }))
	}
	h := NewHistory(Config{TimePoints: 2 + r.IntN(30)})
	var c int64
	for poll := range 40 {
		now := t0.Add(time.Duration(poll) * gap)
		e := logEnd(now)
		switch {
		case poll == 0 || r.IntN(8) == 0:
			c = r.Int64N(e + 1) // a reset anywhere
		case r.IntN(2) == 0:
			c = min(e, c+r.Int64N(50))
		}
		h.Add(snap(now, grp("g", po("t", 0, c, e))))
		if r.IntN(3) == 0 {
			recs := map[kafka.CommitKey]kafka.RecordTime{}
			for _, p := range h.WantExact(0, nil) {
				recs[ck(p.Topic, p.Partition, p.Committed)] = kafka.RecordTime{Offset: p.Committed, Timestamp: ts[p.Committed]}
			}
			h.AddExact(recs)
		}
		g, _ := h.Evaluate("g", now)
		tl := g.Partitions[0].TimeLag
		if c >= e {
			if tl.Kind != TimeLagCaughtUp {
				t.Fatalf("seed %d poll %d: caught up shows %+v", seed, poll, tl)
			}
			continue
		}
		truth := now.Sub(ts[c]).Seconds()
		switch tl.Kind {
		case TimeLagExact:
			if d := tl.Seconds - truth; d > 1e-9 || d < -1e-9 {
				t.Fatalf("seed %d poll %d: exact %+v, truth %.3fs", seed, poll, tl, truth)
			}
		case TimeLagAtLeast:
			if tl.Seconds > truth+1e-9 {
				t.Fatalf("seed %d poll %d (shape %d): lower bound %+v above the truth %.3fs", seed, poll, shape, tl, truth)
			}
		case TimeLagInterpolated:
			if tl.Seconds > truth+gap.Seconds()+1e-9 {
				t.Fatalf("seed %d poll %d (shape %d): estimate %+v above the truth %.3fs by more than a poll", seed, poll, shape, tl, truth)
			}
		case TimeLagUnknown:
			if poll > 0 {
				t.Fatalf("seed %d poll %d: unknown", seed, poll)
			}
		default:
			t.Fatalf("seed %d poll %d: kind %v", seed, poll, tl.Kind)
		}
	}
}

// TestExactOnlyMarkersLeft: a commit followed by nothing but transaction
// markers is caught up, until the log grows past the markers read: then
// the next record is a new one, read again.
func TestExactOnlyMarkersLeft(t *testing.T) {
	h := NewHistory(testConfig())
	h.Add(snap(at(0), grp("g", po("t", 0, 10, 12))))
	h.AddExact(map[kafka.CommitKey]kafka.RecordTime{ck("t", 0, 10): {Offset: 11, NoRecords: true}})
	h.Add(snap(at(1), grp("g", po("t", 0, 10, 12))))
	g, _ := h.Evaluate("g", at(1))
	if tl := g.Partitions[0].TimeLag; tl.Kind != TimeLagCaughtUp {
		t.Errorf("only markers left: %+v, want caught up", tl)
	}
	if n := len(h.WantExact(0, nil)); n != 0 {
		t.Errorf("asked for again (%d)", n)
	}
	h.Add(snap(at(2), grp("g", po("t", 0, 10, 20))))
	g, _ = h.Evaluate("g", at(2))
	if tl := g.Partitions[0].TimeLag; tl != (TimeLag{Seconds: 2, Kind: TimeLagAtLeast}) {
		t.Errorf("records after the markers: %+v, want at least 2s", tl)
	}
	if got := fmt.Sprint(wantKeys(h.WantExact(0, nil))); got != "[t/0@10]" {
		t.Errorf("wants %s, want [t/0@10]", got)
	}
}
