package lag

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
)

// The compact History must answer exactly as a wide one (newWideHistory),
// which runs the same rules on every number stored in 8 bytes and so never
// changes a width, rebases or narrows: the same samples, group lag series,
// rates, time lags of every kind, verdicts, rewinds, exact-read wishes and
// evaluations, bit for bit, and the same numbers in every ring. Its
// encoding is lossless, so no tolerance is allowed. What the rules answer
// is recorded in testdata/answers (answers_test.go).

// twin feeds the same polls to a History and to a wide one.
type twin struct {
	h    *History
	wide *History
	// tally, when set, counts what the comparisons covered.
	tally *equivTally
	// spare, when set, takes every write in h's place, as the UI's back
	// copy does (see write); every other write it is a new History, as
	// the UI's back is (History.copyGroupsFresh), and a reused one in
	// between (History.copyGroups). writes counts them.
	spare  *History
	writes int
}

// equivTally counts the partition statuses, time-lag kinds and widths
// (per class of numbers) the comparisons met, so that the seeded run can
// require every one of them: a generator that stopped reaching STALL or
// 8-byte offsets would otherwise pass while proving less.
type equivTally struct {
	status [StatusStop + 1]int
	kind   [TimeLagExact + 1]int
	width  [numCls][9]int
	group  [9]int // widths of the groups' lag rings
}

// newWideHistory is a History that stores every number in 8 bytes.
func newWideHistory(cfg Config) *History {
	h := NewHistory(cfg)
	h.wide = true
	return h
}

func newTwin(cfg Config) *twin {
	return &twin{h: NewHistory(cfg), wide: newWideHistory(cfg)}
}

func newCopyTwin(cfg Config) *twin {
	tw := newTwin(cfg)
	tw.spare = NewHistory(cfg)
	return tw
}

// write applies f to the History. A twin made by newCopyTwin applies it
// as the UI does (tui/judge.go): to a copy of the History that shares its
// slabs (CopyFrom), while another goroutine reads the History. Those reads
// must answer exactly as before the write, and so must the History after
// it, before the copy takes its place; under -race, a write to anything
// the reads touch is reported whatever the timing, since nothing orders
// the two goroutines.
func (tw *twin) write(t testing.TB, f func(h *History)) {
	t.Helper()
	if tw.spare == nil {
		f(tw.h)
		return
	}
	src := tw.h
	before := answersOf(src)
	if tw.writes++; tw.writes%2 == 0 {
		tw.spare = NewHistory(src.cfg)
	}
	tw.spare.CopyFrom(src)
	during := make(chan historyAnswers)
	go func() { during <- answersOf(src) }()
	f(tw.spare)
	if got := <-during; !reflect.DeepEqual(got, before) {
		t.Fatalf("poll %d: read while the copy was written:\n%+v\nbefore\n%+v", src.seq, got, before)
	}
	if got := answersOf(src); !reflect.DeepEqual(got, before) {
		t.Fatalf("poll %d: read after the copy was written:\n%+v\nbefore\n%+v", src.seq, got, before)
	}
	tw.h, tw.spare = tw.spare, src
}

// historyAnswers is every answer a History gives about its latest poll.
type historyAnswers struct {
	evals   []GroupHealth
	lags    [][]int64
	samples [][]Sample
	want    []kafka.PartitionOffsets
}

// answersOf reads every answer of h: each group's evaluation (as of its
// latest poll and 90s later), lag series and partition samples, and the
// exact reads it wants (in an order that does not depend on map order).
func answersOf(h *History) historyAnswers {
	var a historyAnswers
	names := make([]string, 0, len(h.groups))
	for name := range h.groups {
		names = append(names, name)
	}
	slices.Sort(names)
	var now time.Time
	if h.seq > 0 {
		now = time.Unix(0, h.times[h.slot(h.seq)])
	}
	for _, name := range names {
		for _, at := range []time.Time{now, now.Add(90 * time.Second)} {
			gh, ok := h.Evaluate(name, at)
			if ok {
				a.evals = append(a.evals, gh)
			}
		}
		a.lags = append(a.lags, h.GroupLagSeries(name, nil))
		for _, p := range h.groups[name].parts {
			a.samples = append(a.samples, h.PartitionSeries(name, h.topicOf(&p), p.partition, nil))
		}
	}
	// Which of two groups' equally old commits on one partition is
	// wanted depends on map order (see compareWantExact): the
	// partitions are compared.
	for _, p := range h.WantExact(math.MaxInt32, nil) {
		a.want = append(a.want, kafka.PartitionOffsets{Topic: p.Topic, Partition: p.Partition})
	}
	slices.SortFunc(a.want, func(x, y kafka.PartitionOffsets) int {
		return compareKey(x.Topic, x.Partition, y.Topic, y.Partition)
	})
	return a
}

// add adds s to both and reports whether they accepted it.
func (tw *twin) add(t testing.TB, s *kafka.Snapshot) bool {
	t.Helper()
	before := tw.wide.Polls()
	tw.write(t, func(h *History) { h.Add(s) })
	tw.wide.Add(s)
	if tw.h.Polls() != tw.wide.Polls() {
		t.Fatalf("polls %d, wide %d", tw.h.Polls(), tw.wide.Polls())
	}
	return tw.wide.Polls() != before
}

// compare checks every answer of the History against the wide one's, with
// evaluations as of each time in nows.
func (tw *twin) compare(t testing.TB, nows ...time.Time) {
	t.Helper()
	h, wide := tw.h, tw.wide
	if h.Groups() != wide.Groups() || h.Partitions() != wide.Partitions() {
		t.Fatalf("poll %d: %d groups %d partitions, wide %d and %d", wide.seq, h.Groups(), h.Partitions(), wide.Groups(), wide.Partitions())
	}
	var (
		samples, wideSamples []Sample
		lags, wideLags       []int64
	)
	for name, wg := range wide.groups {
		g, ok := h.groups[name]
		if !ok {
			t.Fatalf("poll %d: group %q missing", wide.seq, name)
		}
		if wg.lag.w != 8 {
			t.Fatalf("poll %d: group %q: the wide History holds its lags in %d bytes", wide.seq, name, wg.lag.w)
		}
		lags = h.GroupLagSeries(name, lags[:0])
		wideLags = wide.GroupLagSeries(name, wideLags[:0])
		if !slices.Equal(lags, wideLags) {
			t.Fatalf("poll %d: group %q lag series %v, wide %v", wide.seq, name, lags, wideLags)
		}
		if tw.tally != nil {
			tw.tally.group[g.lag.w]++
		}
		if len(g.parts) != len(wg.parts) {
			t.Fatalf("poll %d: group %q keeps %d partitions, wide %d", wide.seq, name, len(g.parts), len(wg.parts))
		}
		for i := range wg.parts {
			wp, p := &wg.parts[i], &g.parts[i]
			topic, wtopic := h.topicOf(p), wide.topicOf(wp)
			where := fmt.Sprintf("poll %d: %s %s/%d", wide.seq, name, wtopic, wp.partition)
			if topic != wtopic || p.partition != wp.partition || p.lastSeq != wp.lastSeq ||
				h.firstSeq(p.first(), p.lastSeq) != wide.firstSeq(wp.first(), wp.lastSeq) {
				t.Fatalf("%s: record %s/%d last %d, wide last %d", where, topic, p.partition, p.lastSeq, wp.lastSeq)
			}
			comparePartition(t, where, h, p, wide, wp)
			if tw.tally != nil {
				for c := range uint8(numCls) {
					tw.tally.width[c][keyWidth(p.wkey, c)]++
				}
			}
			samples = h.PartitionSeries(name, wtopic, wp.partition, samples[:0])
			wideSamples = wide.PartitionSeries(name, wtopic, wp.partition, wideSamples[:0])
			if !slices.Equal(samples, wideSamples) {
				t.Fatalf("%s: samples %v, wide %v", where, samples, wideSamples)
			}
		}
		for _, now := range nows {
			gh, ok := h.Evaluate(name, now)
			wgh, wok := wide.Evaluate(name, now)
			if ok != wok || !reflect.DeepEqual(gh, wgh) {
				t.Fatalf("poll %d: group %q at %v:\n%+v\nwide\n%+v", wide.seq, name, now, gh, wgh)
			}
			if tw.tally != nil {
				for _, p := range gh.Partitions {
					tw.tally.status[p.Status]++
					tw.tally.kind[p.TimeLag.Kind]++
				}
			}
		}
	}
	compareWantExact(t, h, wide)
}

// comparePartition checks the encoded state against the wide History's:
// the samples of the ring, the time-lag points and the commit
// observations, and that the wide one holds every class in 8 bytes.
func comparePartition(t testing.TB, where string, h *History, p *partHist, wide *History, wp *partHist) {
	t.Helper()
	if wp.wkey != wideKey {
		t.Fatalf("%s: the wide History holds widths %#x", where, wp.wkey)
	}
	if p.logStart != wp.logStart || p.owned != wp.owned || p.unLen != wp.unLen || p.unLen > 0 && p.unLast != wp.unLast {
		t.Fatalf("%s: log start %d owned %v uncommitted %d, wide %d %v %d", where, p.logStart, p.owned, p.unLen, wp.logStart, wp.owned, wp.unLen)
	}
	if p.ptLen != wp.ptLen {
		t.Fatalf("%s: %d points, wide %d", where, p.ptLen, wp.ptLen)
	}
	for i := range int(p.ptLen) {
		off, seq := h.point(p, i)
		woff, wseq := wide.point(wp, i)
		if off != woff || h.timeAt(seq) != wide.timeAt(wseq) {
			t.Fatalf("%s: point %d (%d, %d), wide (%d, %d)", where, i, off, h.timeAt(seq), woff, wide.timeAt(wseq))
		}
	}
	if p.winLen != wp.winLen {
		t.Fatalf("%s: %d observations, wide %d", where, p.winLen, wp.winLen)
	}
	for i := range int(p.winLen) {
		o, wo := h.observation(p, i), wide.observation(wp, i)
		if o.committed != wo.committed || o.lag != wo.lag || h.timeAt(o.seq) != wide.timeAt(wo.seq) {
			t.Fatalf("%s: observation %d %+v, wide %+v", where, i, o, wo)
		}
	}
	for s := wide.firstSeq(wp.first(), wp.lastSeq); s <= wp.lastSeq; s++ {
		c, end := h.sample(p, s)
		wc, wend := wide.sample(wp, s)
		if c != wc || end != wend {
			t.Fatalf("%s: poll %d sample (%d, %d), wide (%d, %d)", where, s, c, end, wc, wend)
		}
	}
}

// compareWantExact compares the commits whose records each would read. When
// two groups of the latest poll share a partition with equally old lower
// bounds and equal lags, which commit is asked for first depends on map
// order in both, so only the partitions asked for are compared then.
func compareWantExact(t testing.TB, h, wide *History) {
	t.Helper()
	want := h.WantExact(math.MaxInt32, nil)
	wideWant := wide.WantExact(math.MaxInt32, nil)
	key := func(p kafka.PartitionOffsets) string { return fmt.Sprintf("%s/%d", p.Topic, p.Partition) }
	if len(want) != len(wideWant) {
		t.Fatalf("poll %d: wants %d exact reads, wide %d", wide.seq, len(want), len(wideWant))
	}
	for i := range want {
		if !reflect.DeepEqual(want[i], wideWant[i]) {
			if key(want[i]) != key(wideWant[i]) || !sharedPartition(wide, want[i]) {
				t.Fatalf("poll %d: exact read %d %+v, wide %+v", wide.seq, i, want[i], wideWant[i])
			}
		}
	}
}

// sharedPartition reports whether more than one group of h's latest poll
// has p's partition.
func sharedPartition(h *History, p kafka.PartitionOffsets) bool {
	n := 0
	for _, g := range h.groups {
		if g.lastSeq != h.seq {
			continue
		}
		for i := range g.parts {
			if h.topicOf(&g.parts[i]) == p.Topic && g.parts[i].partition == p.Partition && g.parts[i].lastSeq == h.seq {
				n++
			}
		}
	}
	return n > 1
}

// equivConfigs are the configurations the generated histories run with:
// tiny rings that wrap and evict often, the defaults, one that counts
// every poll as an observation, and long rings like `kgroups health
// --window 1h` sets.
var equivConfigs = []Config{
	{Window: 3, MinDistance: time.Second, Samples: 5, TimePoints: 4, RatePolls: 3, EvictAfter: 2},
	DefaultConfig(),
	{Window: 4, MinDistance: 1, Samples: 7, TimePoints: 12, RatePolls: 7, EvictAfter: 3},
	{Window: 10, MinDistance: 500 * time.Millisecond, Samples: 300, TimePoints: 300, RatePolls: 300, EvictAfter: 5},
}

// partState is one generated partition's offsets between polls.
type partState struct {
	c, end, start int64
	owned         bool
}

// grow adds d to v, saturating at math.MaxInt64 and leaving unknown
// offsets unknown.
func grow(v, d int64) int64 {
	if v < 0 {
		return d
	}
	if d > math.MaxInt64-v {
		return math.MaxInt64
	}
	return v + d
}

// runEquivalence decodes a history from data (generate) and checks the
// History against a wide one after every poll.
func runEquivalence(t testing.TB, data []byte, tally *equivTally) {
	t.Helper()
	runEquivalenceOn(t, data, tally, newTwin)
}

// runEquivalenceOn is runEquivalence on a twin made by newT.
func runEquivalenceOn(t testing.TB, data []byte, tally *equivTally, newT func(Config) *twin) {
	t.Helper()
	generate(t, data, func(cfg Config) historySink {
		tw := newT(cfg)
		tw.tally = tally
		return tw
	})
}

// historySink takes a generated history: its polls, the resets noted, the
// exact reads answered, and a check after each poll.
type historySink interface {
	// add adds a poll and reports whether it was accepted.
	add(t testing.TB, s *kafka.Snapshot) bool
	noteReset(t testing.TB, group string, r Reset)
	// readExact answers, from r, some of the exact reads wanted at now.
	readExact(t testing.TB, r *byteReader, now time.Time)
	check(t testing.TB, now time.Time)
}

func (tw *twin) noteReset(t testing.TB, group string, r Reset) {
	t.Helper()
	tw.write(t, func(h *History) { h.NoteReset(group, r) })
	tw.wide.NoteReset(group, r)
}

// readExact answers some of the exact reads both want, the same way.
func (tw *twin) readExact(t testing.TB, r *byteReader, now time.Time) {
	t.Helper()
	want := tw.wide.WantExact(int(r.next()%4)+1, nil)
	recs := exactAnswers(r, want, now)
	var n int
	tw.write(t, func(h *History) { n = h.AddExact(recs) })
	if wn := tw.wide.AddExact(recs); n != wn {
		t.Fatalf("AddExact stored %d, wide %d", n, wn)
	}
}

func (tw *twin) check(t testing.TB, now time.Time) {
	t.Helper()
	tw.compare(t, now, now.Add(90*time.Second), now.Add(-time.Second))
}

// generate decodes a history from data and gives it to the sink newSink
// makes. The bytes pick the config, then per poll a time step (backwards
// or equal: a poll the History ignores; hours: a gap), the groups
// (repeated names, fetch errors), and per partition an operation on its
// offsets: steady growth, bursts of up to 2^62, stalls, rewinds, log
// truncation and recreation, unknown offsets, values at the int64 limit,
// odd negatives, owner changes, log-start moves. Partitions come unsorted
// and duplicated, go missing and get evicted. Some polls read exact
// records or note a reset.
func generate(t testing.TB, data []byte, newSink func(Config) historySink) {
	t.Helper()
	r := &byteReader{b: data}
	cfg := equivConfigs[int(r.next())%len(equivConfigs)]
	sink := newSink(cfg)
	groups := []string{"a", "b", "c"}
	topics := []string{"t", "u"}
	state := map[fuzzKey]*partState{}
	now := t0
	for step := 0; !r.empty() && step < 400; step++ {
		switch d := int8(r.next()); {
		case d == math.MaxInt8:
			now = now.Add(3 * time.Hour)
		case d <= 0 && d > -4:
			now = now.Add(time.Duration(d) * time.Second) // ignored
		default:
			now = now.Add(time.Duration(int(uint8(d))%9+1) * 700 * time.Millisecond)
		}
		s := &kafka.Snapshot{Time: now}
		for range int(r.next() % 4) {
			g := kafka.Group{Name: groups[r.next()%3]}
			if r.next()%16 == 0 {
				g.Err = errors.New("offsets not fetched")
			}
			for range int(r.next() % 5) {
				k := fuzzKey{g.Name, topics[r.next()%2], int32(r.next() % 3)}
				ps := state[k]
				if ps == nil {
					ps = &partState{c: 0, end: 0, owned: true}
					state[k] = ps
				}
				mutate(r, ps)
				p := kafka.PartitionOffsets{Topic: k.topic, Partition: k.partition, Committed: ps.c, LogEnd: ps.end, LogStart: ps.start}
				p.Lag = lagOf(p.Committed, p.LogEnd)
				if ps.owned {
					p.MemberID = "m"
				}
				g.Partitions = append(g.Partitions, p)
			}
			s.Groups = append(s.Groups, g)
		}
		if !sink.add(t, s) {
			continue
		}
		switch r.next() % 8 {
		case 0:
			sink.readExact(t, r, now)
		case 1:
			if len(s.Groups) > 0 && len(s.Groups[0].Partitions) > 0 {
				p := s.Groups[0].Partitions[0]
				rs := Reset{Time: now, Receipt: "r", Offsets: []ResetOffset{{Topic: p.Topic, Partition: p.Partition, Before: grow(p.Committed, 50), After: max(0, p.Committed-50)}}}
				sink.noteReset(t, s.Groups[0].Name, rs)
			}
		}
		sink.check(t, now)
	}
}

// mutate applies one decoded operation to a partition's offsets.
func mutate(r *byteReader, ps *partState) {
	op, b := r.next(), int64(r.next())
	switch op % 20 {
	case 0, 1, 2, 3:
		ps.end = grow(ps.end, b%16)
		ps.c = grow(ps.c, (b/16)%16)
	case 4: // a consumer slower than its producer
		ps.end = grow(ps.end, 24+b%16)
		ps.c = grow(ps.c, b%8)
	case 5:
		ps.end = grow(ps.end, int64(1)<<(b%63)) // a burst, up to 2^62
	case 6:
		ps.c = grow(ps.c, int64(1)<<(b%63))
	case 7: // stall
	case 8:
		ps.c = max(0, ps.c-b*b*b) // a rewind
	case 9:
		ps.end, ps.c, ps.start = b, b/2, 0 // the log recreated
	case 10:
		ps.c = kafka.NoOffset
	case 11:
		ps.end = kafka.NoOffset
	case 12:
		ps.end = math.MaxInt64 - b
		ps.c = math.MaxInt64 - b - int64(r.next())
	case 13:
		ps.c = r.offset() // the fuzz offsets: MaxInt64, odd negatives, small
	case 14:
		ps.end = r.offset()
	case 15:
		ps.owned = !ps.owned
	case 16:
		if ps.c > 0 {
			ps.start = ps.c + b - 128 // retention around the commit
		}
	case 17:
		ps.end = grow(ps.end, b*1000)
		ps.c = grow(ps.c, b*999)
	case 18:
		ps.c = ps.end
	case 19:
		ps.end = max(0, ps.end-b) // a dip from a lagging replica
	}
}

// exactAnswers answers the exact reads want from r: a failed read, a
// partition with nothing left to read, or a record at or a little after
// the commit, written before now.
func exactAnswers(r *byteReader, want []kafka.PartitionOffsets, now time.Time) map[kafka.CommitKey]kafka.RecordTime {
	recs := make(map[kafka.CommitKey]kafka.RecordTime, len(want))
	for _, p := range want {
		k := kafka.CommitKey{Topic: p.Topic, Partition: p.Partition, Offset: p.Committed}
		switch b := r.next(); b % 4 {
		case 0:
			recs[k] = kafka.RecordTime{Err: errors.New("not readable")}
		case 1:
			recs[k] = kafka.RecordTime{Offset: p.Committed, NoRecords: true}
		default:
			recs[k] = kafka.RecordTime{Offset: p.Committed + int64(b%3), Timestamp: now.Add(-time.Duration(b) * time.Second)}
		}
	}
	return recs
}

// FuzzHistoryEquivalence checks the compact History against a wide one
// on fuzzed histories.
func FuzzHistoryEquivalence(f *testing.F) {
	rng := rand.New(rand.NewPCG(10, 1))
	for range 8 {
		f.Add(equivInput(rng, 300))
	}
	f.Fuzz(func(t *testing.T, data []byte) { runEquivalence(t, data, nil) })
}

// equivInput is a random history of about n bytes.
func equivInput(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// TestHistoryEquivalenceCopies runs generated histories through the
// UI's scheme: every write goes into a copy that shares the History's
// slabs (CopyFrom) while another goroutine reads the History, which must
// answer as before throughout; the copy then takes its place, and must
// answer as the wide History. Run it under -race too.
func TestHistoryEquivalenceCopies(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 12))
	runs := 120
	if testing.Short() {
		runs = 12
	}
	for i := range runs {
		data := equivInput(rng, 200+rng.IntN(3000))
		data[0] = byte(i % len(equivConfigs))
		t.Run(fmt.Sprint(i), func(t *testing.T) { runEquivalenceOn(t, data, nil, newCopyTwin) })
	}
}

// FuzzHistoryCopies is TestHistoryEquivalenceCopies on fuzzed histories.
func FuzzHistoryCopies(f *testing.F) {
	rng := rand.New(rand.NewPCG(12, 1))
	for range 8 {
		f.Add(equivInput(rng, 300))
	}
	f.Fuzz(func(t *testing.T, data []byte) { runEquivalenceOn(t, data, nil, newCopyTwin) })
}

// TestHistoryEquivalenceSeeded runs the fuzz target's check over a fixed
// set of generated histories in the normal test suite.
func TestHistoryEquivalenceSeeded(t *testing.T) {
	rng := rand.New(rand.NewPCG(2024, 5))
	runs := 300
	if testing.Short() {
		runs = 30
	}
	var tally equivTally
	for i := range runs {
		data := equivInput(rng, 200+rng.IntN(3000))
		data[0] = byte(i % len(equivConfigs))
		t.Run(fmt.Sprint(i), func(t *testing.T) { runEquivalence(t, data, &tally) })
	}
	if testing.Short() {
		return // too few histories to reach every status
	}
	for s, n := range tally.status {
		if n == 0 {
			t.Errorf("no partition was judged %v", Status(s))
		}
	}
	for k, n := range tally.kind {
		if n == 0 {
			t.Errorf("no time lag was %v", TimeLagKind(k))
		}
	}
	for c := range tally.width {
		for _, w := range []int{0, 1, 2, 4, 8} {
			// Polls 255 apart take TestHistoryEquivalenceLongFlat.
			if c == clsSeq && w > 1 {
				continue
			}
			if tally.width[c][w] == 0 {
				t.Errorf("no partition held class %d in %d bytes", c, w)
			}
		}
	}
	for _, w := range []int{1, 2, 4, 8} {
		if tally.group[w] == 0 {
			t.Errorf("no group's lag ring took %d bytes: %v", w, tally.group)
		}
	}
	t.Logf("statuses %v, time-lag kinds %v, widths by class %v, group rings %v", tally.status, tally.kind, tally.width, tally.group)
}

// TestHistoryEquivalenceLongFlat keeps time-lag points and commit
// observations for 70,000 polls: a partition whose log stopped growing
// keeps its old points, one nobody commits for keeps its old observations,
// so their polls need 2 and then 4 bytes, and their times come from the
// History's old poll times, swept again and again, while a busy partition
// beside them fills the ring. (8 bytes would take 2^32 polls.)
func TestHistoryEquivalenceLongFlat(t *testing.T) {
	tw := newTwin(DefaultConfig())
	tw.tally = &equivTally{}
	const polls = 70000
	now := t0
	for i := range polls {
		now = now.Add(2*time.Second + time.Duration(i%7)*time.Millisecond)
		end := int64(min(i, 80)) * 3 // grows for 80 polls, then flat
		s := snap(now, grp("g",
			po("busy", 0, int64(i)*40, int64(i)*41),
			unowned(po("flat", 0, 5, end)),
			po("flat", 1, min(int64(i), 70), end+1000),
		))
		if !tw.add(t, s) {
			t.Fatalf("poll %d ignored", i)
		}
		if i%997 == 0 || i > polls-3 || i < 200 {
			tw.compare(t, now, now.Add(time.Hour))
		}
	}
	if n := len(tw.h.old); n > 2*(DefaultConfig().TimePoints+DefaultConfig().Window)+DefaultConfig().Samples {
		t.Errorf("keeps %d old poll times", n)
	}
	for _, w := range []int{1, 2, 4} {
		if tw.tally.width[clsSeq][w] == 0 {
			t.Errorf("polls never held in %d bytes: %v", w, tw.tally.width[clsSeq])
		}
	}
}

// TestHistoryNarrowsAgain shows that a partition widened by one huge value
// (a commit reset from 10^13 to 0) narrows again once the value has left
// its window, and answers as the wide History throughout.
func TestHistoryNarrowsAgain(t *testing.T) {
	tw := newTwin(DefaultConfig())
	cfg := tw.h.Config()
	now := t0
	var ph *partHist
	for i := range 4 * cfg.Samples {
		now = now.Add(5 * time.Second)
		c := int64(i) * 9
		if i == 3 {
			c = 10_000_000_000_000
		}
		tw.add(t, snap(now, grp("g", po("t", 0, c, int64(i)*10+50))))
		tw.compare(t, now)
		ph = &tw.h.groups["g"].parts[0]
		if i == 4 && keyWidth(ph.wkey, clsCommitted) != 8 {
			t.Fatalf("after the huge commit the committed offsets take %d bytes, want 8", keyWidth(ph.wkey, clsCommitted))
		}
	}
	if w := keyWidth(ph.wkey, clsCommitted); w != 2 {
		t.Errorf("committed offsets take %d bytes %d polls after the huge one left the window, want 2", w, 3*cfg.Samples)
	}
	if want := int(tw.h.starts[ph.wkey][numSec]); (ph.data == nil) != (want == 0) || want > 471 {
		t.Errorf("slab of %d bytes (allocated: %v), want at most 471", want, ph.data != nil)
	}
}

// TestHistoryReadsConcurrently reads one History from several goroutines
// at once, as a UI that judges in one goroutine and draws in another may:
// its queries decode into buffers of their own and write nothing, so the
// race detector finds nothing and every reader gets the same answers.
func TestHistoryReadsConcurrently(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	data := equivInput(rng, 3000)
	data[0] = 1 // DefaultConfig
	tw := newTwin(DefaultConfig())
	r := &byteReader{b: data}
	r.next()
	now := t0
	state := map[fuzzKey]*partState{}
	for range 80 {
		now = now.Add(5 * time.Second)
		g := kafka.Group{Name: "g"}
		for p := range int32(6) {
			k := fuzzKey{"g", "t", p}
			if state[k] == nil {
				state[k] = &partState{owned: true}
			}
			mutate(r, state[k])
			ps := state[k]
			g.Partitions = append(g.Partitions, kafka.PartitionOffsets{Topic: "t", Partition: p, Committed: ps.c, LogEnd: ps.end, LogStart: ps.start, Lag: lagOf(ps.c, ps.end), MemberID: "m"})
		}
		tw.add(t, snap(now, g))
	}
	want, _ := tw.h.Evaluate("g", now)
	results := make(chan GroupHealth, 4)
	for range 4 {
		go func() {
			var gh GroupHealth
			for range 50 {
				gh, _ = tw.h.Evaluate("g", now)
				tw.h.PartitionSeries("g", "t", 3, nil)
				tw.h.WantExact(0, nil)
			}
			results <- gh
		}()
	}
	for range 4 {
		if got := <-results; !reflect.DeepEqual(got, want) {
			t.Fatalf("a concurrent reader got %+v, want %+v", got, want)
		}
	}
	if wgh, _ := tw.wide.Evaluate("g", now); !reflect.DeepEqual(want, wgh) {
		t.Fatalf("%+v, wide %+v", want, wgh)
	}
}

// TestHistoryAtRest holds the slab sizes of partitions at rest, and their
// answers to the wide History's: a partition whose commit and log end do
// not move keeps no bytes when no member owns it, lagging or not (every
// class holds one number: one commit, one log end, one lag, and the one
// poll of its observation and of its first time-lag point), only its
// polls' numbers when a member owns it (an observation every
// MinDistance); one whose commit moved once keeps bytes for the
// observations of the move, which stay until newer ones replace them.
func TestHistoryAtRest(t *testing.T) {
	tw := newTwin(DefaultConfig())
	cfg := tw.h.Config()
	seqBytes := cfg.TimePoints + 1 + cfg.Window + 1 // the polls' sections in 1 byte
	now := t0
	slab := func(g string) (int, *partHist) {
		ph := &tw.h.groups[g].parts[0]
		n := len(tw.h.slab(ph))
		if (ph.data == nil) != (n == 0) {
			t.Fatalf("%s: slab of %d bytes, allocated: %v", g, n, ph.data != nil)
		}
		return n, ph
	}
	for i := range 4 * cfg.Samples {
		now = now.Add(5 * time.Second)
		moved := int64(0)
		if i == 10 {
			moved = 1 // one commit moves, and moves back at the next poll
		}
		tw.add(t, snap(now,
			grp("empty", unowned(po("t", 0, 100, 100))),
			grp("owned", po("t", 0, 100, 100)),
			grp("lagging", unowned(po("t", 1, 97, 100))),
			grp("moved", unowned(po("t", 2, 100+moved, 110))),
		))
		tw.compare(t, now)
		for _, g := range []string{"empty", "lagging"} {
			if n, ph := slab(g); n != 0 {
				t.Fatalf("poll %d: %s keeps a slab of %d bytes (widths %v), want none", i, g, n, keyWidths[ph.wkey])
			}
		}
		// Its first observation is at one poll; from the second on the
		// polls take a byte.
		if n, ph := slab("owned"); n != min(i, 1)*seqBytes {
			t.Fatalf("poll %d: owned keeps a slab of %d bytes (widths %v), want %d", i, n, keyWidths[ph.wkey], min(i, 1)*seqBytes)
		}
		if n, ph := slab("moved"); i >= 10 && keyWidths[ph.wkey][clsCommitted] != 1 {
			t.Fatalf("poll %d: moved keeps a slab of %d bytes, its commits in %d bytes, want 1 after its move", i, n, keyWidths[ph.wkey][clsCommitted])
		}
	}
}
