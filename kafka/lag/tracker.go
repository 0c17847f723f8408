package lag

import (
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/kgroups/kgroups/kafka"
)

// Tracker is the lag history of a running kgroups and the verdicts of its
// latest poll: a History that judges every group (Judge) as each snapshot
// arrives. The UI's root feeds it every snapshot before delivering the
// snapshot's DataMsg, so every screen reads verdicts that match the
// snapshot it gets. It is not safe for concurrent use while written: the
// UI keeps two, one its screens read and one a judging job writes off the
// UI loop, and swaps them when the job ends (tui/judge.go); the one
// written is first made a copy of the one read (CopyFrom), and the two
// share the partitions' history. Reading one from several goroutines
// while nothing writes it is safe, and so is reading it while a copy made
// of it takes one poll (see History.CopyFrom).
//
// Besides the History it keeps, per group, the maximum time lag of
// every poll in the history's ring (for charts: the History keeps the
// interpolation table, not past estimates), bounded like the History:
// Samples values per group (a ring of Samples+1, shared by copies like
// the History's slabs), dropped with the group.
type Tracker struct {
	hist *History
	cfg  Config

	snap   *kafka.Snapshot // the latest accepted snapshot
	health []Verdict       // aligned with snap.Groups
	// lent reports that Verdicts handed health out: the next write
	// (Add, AddExact, CopyFrom) judges into a new slice, so a reader
	// keeps the verdicts of the poll it was given.
	lent    bool
	counts  [3]int // groups by severity, verdicts only
	judging int    // groups whose verdict is still judging
	scratch []PartitionHealth
	// scratch2 is the second half's scratch when a poll is judged in
	// two (judgeGroups).
	scratch2 []PartitionHealth

	seq    uint64  // accepted snapshots, as the History counts them
	times  []int64 // poll times, a ring indexed by seq
	series map[string]*timeLagRing
}

// timeLagRing is one group's maximum time lag per poll: the latest poll's
// (last) in top, the older ones in v, a ring of Samples+1 indexed by seq
// (vslot). A copy of the tracker (CopyFrom) has a ring of its own that
// shares v: the next poll writes only the slot of the copied top (which
// the original reads from its own top) and the slots of polls the
// original does not read, and re-judging the latest poll (AddExact)
// changes top alone. While every older poll's time lag is one value, rest
// (a group at rest, or caught up), v is nil and holds no memory; the
// first poll with another value makes it, every slot rest, in the copy
// that writes it, and the original keeps reading rest.
type timeLagRing struct {
	first, last uint64
	top, rest   TimeLag
	v           []TimeLag
}

// set stores t as the time lag of the poll in slot i of v.
func (r *timeLagRing) set(i int, t TimeLag, n int) {
	if r.v == nil {
		if t == r.rest {
			return
		}
		r.v = make([]TimeLag, n)
		for k := range r.v {
			r.v[k] = r.rest
		}
	}
	r.v[i] = t
}

// NewTracker returns an empty tracker with cfg (zero fields take their
// defaults).
func NewTracker(cfg Config) *Tracker {
	h := NewHistory(cfg)
	cfg = h.Config()
	return &Tracker{hist: h, cfg: cfg, times: make([]int64, cfg.Samples), series: make(map[string]*timeLagRing)}
}

// NoteReset is History.NoteReset: the UI tells it of every reset it made,
// before the poll that shows it.
func (l *Tracker) NoteReset(group string, r Reset) { l.hist.NoteReset(group, r) }

// Config is the history's configuration, after defaults.
func (l *Tracker) Config() Config { return l.cfg }

// Now is the time of the latest accepted poll: the "now" of every verdict
// and time lag, so that a screen showing a snapshot shows the time lags as
// of that snapshot.
func (l *Tracker) Now() time.Time {
	if l.snap == nil {
		return time.Time{}
	}
	return l.snap.Time
}

// Release lets go of the latest snapshot, for an owner that reads nothing
// of the tracker until its next Add: `kgroups serve` as it starts a
// poll, so that the last poll's rows (22 MB at 10,000 groups) are not
// kept alive while the next poll is taken. The history and its judging are
// untouched: the next Add judges as it would have
// (TestReleaseJudgesAlike). Until then the tracker answers as one that
// has seen no poll.
func (l *Tracker) Release() { l.snap = nil }

// Add records a poll and judges every group in it. A snapshot the History
// ignores (not after the previous one) leaves the verdicts as they were.
// Its cost is that of History.Add plus one evaluation of every
// partition.
func (l *Tracker) Add(s *kafka.Snapshot) {
	before := l.hist.Polls()
	l.hist.Add(s)
	if l.hist.Polls() == before {
		return
	}
	l.snap = s
	l.seq++
	l.times[l.slot(l.seq)] = s.Time.UnixNano()
	if l.lent {
		l.health, l.lent = nil, false // a reader keeps the lent verdicts
	}
	l.health = resize(l.health, len(s.Groups))
	l.counts, l.judging = [3]int{}, 0
	l.judgeGroups(s)
	for i := range s.Groups {
		h := &l.health[i]
		if sev, ok := h.Decided(); ok {
			l.counts[sev]++
		} else if h.Judging() {
			l.judging++
		}
		l.record(s.Groups[i].Name, h)
	}
	for name, r := range l.series {
		if l.seq-r.last >= uint64(l.cfg.EvictAfter) {
			delete(l.series, name)
		}
	}
}

// parallelPartitions is how many partitions a poll must have before its
// groups are judged on two goroutines.
const parallelPartitions = 20000

// judgeGroups sets l.health[i] to the verdict of s.Groups[i]. Judging only
// reads the history, so a poll of many partitions is judged in two halves
// at once, split where half the partitions lie: the first poll of 10,000
// groups reaches the screen sooner. Each half has its own scratch.
func (l *Tracker) judgeGroups(s *kafka.Snapshot) {
	total := 0
	for i := range s.Groups {
		total += len(s.Groups[i].Partitions)
	}
	n := len(s.Groups)
	if total < parallelPartitions || n < 2 {
		l.scratch = l.judgeRange(s, 0, n, l.scratch)
		return
	}
	mid, seen := 0, 0
	for mid < n-1 && 2*seen < total {
		seen += len(s.Groups[mid].Partitions)
		mid++
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		l.scratch2 = l.judgeRange(s, mid, n, l.scratch2)
	}()
	l.scratch = l.judgeRange(s, 0, mid, l.scratch)
	wg.Wait()
}

// judgeRange judges s.Groups[lo:hi] into l.health[lo:hi] with scratch,
// which it returns for the next poll.
func (l *Tracker) judgeRange(s *kafka.Snapshot, lo, hi int, scratch []PartitionHealth) []PartitionHealth {
	for i := lo; i < hi; i++ {
		h := &l.health[i]
		*h = UnknownVerdict
		gh, ok := l.hist.EvaluateInto(s.Groups[i].Name, s.Time, scratch)
		if ok {
			scratch = gh.Partitions[:0]
			*h = summarize(gh, l.cfg.Window)
		}
	}
	return scratch
}

// summarize drops the partitions of gh after working out what the verdict
// needs from them.
func summarize(gh GroupHealth, window int) Verdict {
	v := Judge(gh, window)
	v.Partitions = nil
	return v
}

func (l *Tracker) slot(seq uint64) int { return int(seq % uint64(l.cfg.Samples)) }

// vslot is the slot of poll seq in a timeLagRing's v.
func (l *Tracker) vslot(seq uint64) int { return int(seq % uint64(l.cfg.Samples+1)) }

// record stores the group's maximum time lag for this poll.
func (l *Tracker) record(name string, h *Verdict) {
	r, ok := l.series[name]
	switch {
	case !ok:
		r = &timeLagRing{first: l.seq, last: l.seq, rest: h.MaxTimeLag}
		l.series[name] = r
	case r.last == l.seq:
		return // the same name twice in one snapshot: the first counts
	default:
		n := l.cfg.Samples + 1
		r.set(l.vslot(r.last), r.top, n)
		for s := max(r.last+1, l.seq-min(l.seq, uint64(l.cfg.Samples))+1); s < l.seq; s++ {
			r.set(l.vslot(s), TimeLag{}, n) // polls that missed the group
		}
	}
	r.last = l.seq
	r.top = h.MaxTimeLag
}

// at is the group's maximum time lag at poll seq, which must be at most
// r.last and in the ring.
func (l *Tracker) at(r *timeLagRing, seq uint64) TimeLag {
	if seq == r.last {
		return r.top
	}
	if r.v == nil {
		return r.rest
	}
	return r.v[l.vslot(seq)]
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// Group is the verdict for group i of snap. For a snapshot other than the
// latest accepted one (a poll the History ignored) it is looked up by name.
func (l *Tracker) Group(snap *kafka.Snapshot, i int) Verdict {
	if l == nil || l.snap == nil {
		return UnknownVerdict
	}
	if snap == l.snap && i < len(l.health) {
		return l.health[i]
	}
	if i >= len(snap.Groups) {
		return UnknownVerdict
	}
	return l.Named(snap.Groups[i].Name)
}

// Verdicts returns the verdicts of snap's groups, aligned with
// snap.Groups, when snap is the latest poll the tracker judged, and nil
// otherwise. The slice is lent, not copied: the tracker never writes it
// again (Add, AddExact and CopyFrom judge into a new one once it is lent),
// so a screen may keep it with its poll rather than copy 216 bytes a
// group, which at 50,000 groups it did twice while a poll was judged (the
// screen's and the next poll's prepared copy). The caller must not write
// it. Verdicts marks the tracker, so it is a write: call it where the
// tracker may be written, or on the UI loop for the front copy, which no
// job writes (tui/judge.go).
func (l *Tracker) Verdicts(snap *kafka.Snapshot) []Verdict {
	if l == nil || l.snap == nil || snap != l.snap || len(l.health) != len(snap.Groups) {
		return nil
	}
	l.lent = true
	return l.health
}

// Named is the verdict for a group by name (unknown when the latest poll
// did not list it).
func (l *Tracker) Named(name string) Verdict {
	if l == nil || l.snap == nil {
		return UnknownVerdict
	}
	gs := l.snap.Groups
	i := sort.Search(len(gs), func(i int) bool { return gs[i].Name >= name })
	if i < len(gs) && gs[i].Name == name && i < len(l.health) {
		return l.health[i]
	}
	return UnknownVerdict
}

// Counts are the groups of the latest poll by verdict: OK, WARN (NO-COMMITS
// included) and ERR. Unknown and judging verdicts are not counted.
func (l *Tracker) Counts() (ok, warn, err int) {
	if l == nil {
		return 0, 0, 0
	}
	return l.counts[SeverityOK], l.counts[SeverityWarn], l.counts[SeverityErr]
}

// Judging is how many groups of the latest poll are still judging (see
// Verdict): not counted as OK, nor as anything else.
func (l *Tracker) Judging() int {
	if l == nil {
		return 0
	}
	return l.judging
}

// Evaluate judges one group with its partitions, appended to buf[:0], as of
// the latest poll. ok is false when the latest poll did not list it.
func (l *Tracker) Evaluate(group string, buf []PartitionHealth) (GroupHealth, bool) {
	if l == nil || l.snap == nil {
		return GroupHealth{Partitions: buf[:0]}, false
	}
	return l.hist.EvaluateInto(group, l.snap.Time, buf)
}

// GroupLagSeries is History.GroupLagSeries (the UI reads it for
// sparklines).
func (l *Tracker) GroupLagSeries(group string, dst []int64) []int64 {
	if l == nil {
		return dst
	}
	return l.hist.GroupLagSeries(group, dst)
}

// GroupSeries appends the group's total lag and maximum time lag per poll,
// oldest first, over the history's ring: the polls of the last Samples
// (a group missing from the latest polls has fewer points, as
// History.PartitionSeries has).
func (l *Tracker) GroupSeries(group string, dst []Point) []Point {
	if l == nil {
		return dst
	}
	var lags [64]int64
	ls := l.hist.GroupLagSeries(group, lags[:0])
	r := l.series[group]
	if r == nil || len(ls) == 0 {
		return dst
	}
	// The History and the rings count the same accepted polls, so the
	// series end at the same poll.
	last := r.last
	for k, v := range ls {
		s := last - uint64(len(ls)-1-k)
		if s+uint64(l.cfg.Samples) <= l.seq {
			continue // older than the ring of poll times
		}
		p := Point{Time: time.Unix(0, l.times[l.slot(s)]).UTC(), Lag: v}
		if s >= r.first {
			p.TimeLag = l.at(r, s)
		}
		dst = append(dst, p)
	}
	return dst
}

// PartitionSeries appends one partition's lag and time lag per poll, oldest
// first, over the history's ring. The time lag of each poll is
// interpolated over the log ends the ring itself holds (see
// SampleTimeLags); the latest poll's is the History's own estimate, which
// the partition table shows.
func (l *Tracker) PartitionSeries(group, topic string, partition int32, latest TimeLag, dst []Point) []Point {
	if l == nil {
		return dst
	}
	var buf [64]Sample
	ss := l.hist.PartitionSeries(group, topic, partition, buf[:0])
	if len(ss) == 0 {
		return dst
	}
	dst = SampleTimeLags(ss, dst)
	if l.snap != nil && ss[len(ss)-1].Time.Equal(l.snap.Time) {
		dst[len(dst)-1].TimeLag = latest
	}
	return dst
}

// WantExact is History.WantExact over the latest poll: the commits whose
// record the UI should read next, at most budget of them.
func (l *Tracker) WantExact(budget int, dst []kafka.PartitionOffsets) []kafka.PartitionOffsets {
	if l == nil || l.snap == nil {
		return dst
	}
	return l.hist.WantExact(budget, dst)
}

// AddExact stores records read at committed offsets (History.AddExact)
// and judges again the groups of the latest poll that have one of those
// commits, so that their rows, their header and the latest point of their
// chart show the exact time lag at once, not from the next poll on.
func (l *Tracker) AddExact(recs map[kafka.CommitKey]kafka.RecordTime) {
	if l == nil || len(recs) == 0 {
		return
	}
	l.hist.AddExact(recs)
	if l.snap == nil {
		return
	}
	for i := range l.snap.Groups {
		g := &l.snap.Groups[i]
		hit := false
		for j := range g.Partitions {
			p := &g.Partitions[j]
			if _, ok := recs[kafka.CommitKey{Topic: p.Topic, Partition: p.Partition, Offset: p.Committed}]; ok {
				hit = true
				break
			}
			if _, ok := recs[kafka.CommitKey{Topic: p.Topic, Partition: p.Partition, Offset: p.LogStart}]; ok {
				hit = true
				break
			}
		}
		if hit && i < len(l.health) {
			l.judgeAgain(i)
		}
	}
}

// judgeAgain judges group i of the latest poll again and replaces its
// verdict, its count and the latest point of its time-lag series.
func (l *Tracker) judgeAgain(i int) {
	if l.lent {
		l.health, l.lent = slices.Clone(l.health), false
	}
	h := &l.health[i]
	if sev, ok := h.Decided(); ok {
		l.counts[sev]--
	}
	name := l.snap.Groups[i].Name
	*h = UnknownVerdict
	if gh, ok := l.hist.EvaluateInto(name, l.snap.Time, l.scratch); ok {
		l.scratch = gh.Partitions[:0]
		*h = summarize(gh, l.cfg.Window)
	}
	if sev, ok := h.Decided(); ok {
		l.counts[sev]++
	}
	if r := l.series[name]; r != nil && r.last == l.seq {
		r.top = h.MaxTimeLag
	}
}
