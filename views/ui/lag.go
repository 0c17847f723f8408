package ui

import (
	"sort"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
)

// Health is a group's verdict at the latest poll, as the groups list and the
// status bar show it: lag.GroupHealth without its partitions (the group
// screen evaluates those for its one group).
type Health struct {
	lag.GroupHealth
	// Known reports that some partition has a known lag. Without one (no
	// commit anywhere, a dead group, a failed offset fetch) there is
	// nothing to judge and the verdict is shown as unknown, never OK.
	Known bool
	// Pending is the fewest commit observations of a lagging partition
	// while that is below the window: STALL and WARN cannot have been
	// detected yet. 0 when every lagging partition has a full window.
	Pending int
}

// UnknownHealth is the verdict of a group the history knows nothing about:
// unknown status, time lag and rates.
var UnknownHealth = Health{GroupHealth: lag.GroupHealth{ProduceRate: lag.UnknownRate, ConsumeRate: lag.UnknownRate}}

// Verdict is what a screen shows: ERR and WARN as soon as the rules find
// them, OK only once every lagging partition has a full window. ok is false
// while the verdict is unknown or still pending.
func (h *Health) Verdict() (s lag.Severity, ok bool) {
	switch {
	case !h.Known:
		return lag.SeverityOK, false
	case h.Severity > lag.SeverityOK:
		return h.Severity, true
	case !h.Complete:
		return lag.SeverityOK, false
	}
	return lag.SeverityOK, true
}

// Point is one poll of a group or a partition, for charts.
type Point struct {
	Time time.Time
	// Lag is kafka.NoOffset when unknown.
	Lag     int64
	TimeLag lag.TimeLag
}

// Lag is the lag history of this run of kgroups and the verdicts of its latest
// poll. The root feeds it every snapshot before delivering the snapshot's
// DataMsg, so every screen reads verdicts that match the snapshot it gets.
// Screens only read it, from Update and View, on the program's goroutine.
//
// Besides the lag.History it keeps, per group, the maximum time lag of
// every poll in the history's ring (for charts: the History keeps the
// interpolation table, not past estimates), bounded like the History:
// Samples values per group, dropped with the group.
type Lag struct {
	hist *lag.History
	cfg  lag.Config

	snap    *kafka.Snapshot // the latest accepted snapshot
	health  []Health        // aligned with snap.Groups
	counts  [3]int          // groups by severity, verdicts only
	scratch []lag.PartitionHealth

	seq    uint64  // accepted snapshots, as the History counts them
	times  []int64 // poll times, a ring indexed by seq
	series map[string]*timeLagRing
}

// timeLagRing is one group's maximum time lag per poll.
type timeLagRing struct {
	first, last uint64
	v           []lag.TimeLag
}

// NewLag returns an empty history with cfg (zero fields take their
// defaults).
func NewLag(cfg lag.Config) *Lag {
	h := lag.NewHistory(cfg)
	cfg = h.Config()
	return &Lag{hist: h, cfg: cfg, times: make([]int64, cfg.Samples), series: make(map[string]*timeLagRing)}
}

// Config is the history's configuration, after defaults.
func (l *Lag) Config() lag.Config { return l.cfg }

// Now is the time of the latest accepted poll: the "now" of every verdict
// and time lag, so that a screen showing a snapshot shows the time lags as
// of that snapshot.
func (l *Lag) Now() time.Time {
	if l.snap == nil {
		return time.Time{}
	}
	return l.snap.Time
}

// Add records a poll and judges every group in it. A snapshot the History
// ignores (not after the previous one) leaves the verdicts as they were.
// Its cost is that of lag.History.Add plus one evaluation of every
// partition.
func (l *Lag) Add(s *kafka.Snapshot) {
	before := l.hist.Polls()
	l.hist.Add(s)
	if l.hist.Polls() == before {
		return
	}
	l.snap = s
	l.seq++
	l.times[l.slot(l.seq)] = s.Time.UnixNano()
	l.health = resize(l.health, len(s.Groups))
	l.counts = [3]int{}
	for i := range s.Groups {
		name := s.Groups[i].Name
		h := &l.health[i]
		*h = UnknownHealth
		gh, ok := l.hist.EvaluateInto(name, s.Time, l.scratch)
		if ok {
			l.scratch = gh.Partitions[:0]
			*h = summarize(gh, l.cfg.Window)
		}
		if sev, ok := h.Verdict(); ok {
			l.counts[sev]++
		}
		l.record(name, h)
	}
	for name, r := range l.series {
		if l.seq-r.last >= uint64(l.cfg.EvictAfter) {
			delete(l.series, name)
		}
	}
}

// summarize drops the partitions of gh after working out what the summary
// needs from them.
func summarize(gh lag.GroupHealth, window int) Health {
	h := Judge(gh, window)
	h.Partitions = nil
	return h
}

// Judge sums up gh's partitions for display. Its maximum time lag is made
// honest about lagging partitions whose time lag is not known yet: the
// group is then at least as far behind as the known maximum (marked as a
// lower bound), and when the known maximum is a caught-up partition's 0s
// the group's time lag is unknown, not 0.
func Judge(gh lag.GroupHealth, window int) Health {
	h := Health{GroupHealth: gh}
	unknown := false
	for i := range gh.Partitions {
		p := &gh.Partitions[i]
		if p.Lag >= 0 {
			h.Known = true
		}
		if p.Lag > 0 && !p.TimeLag.Known() {
			unknown = true
		}
		if p.Lag > 0 && p.Observations < window && (h.Pending == 0 || p.Observations < h.Pending) {
			h.Pending = p.Observations
		}
	}
	if unknown {
		switch t := &h.MaxTimeLag; t.Kind {
		case lag.TimeLagUnknown, lag.TimeLagCaughtUp:
			*t = lag.TimeLag{}
		default:
			t.Kind = lag.TimeLagAtLeast
		}
	}
	return h
}

func (l *Lag) slot(seq uint64) int { return int(seq % uint64(l.cfg.Samples)) }

// record stores the group's maximum time lag for this poll.
func (l *Lag) record(name string, h *Health) {
	r, ok := l.series[name]
	if !ok {
		r = &timeLagRing{first: l.seq, v: make([]lag.TimeLag, l.cfg.Samples)}
		l.series[name] = r
	} else if r.last == l.seq {
		return // the same name twice in one snapshot: the first counts
	}
	for s := max(r.last+1, l.seq-min(l.seq, uint64(l.cfg.Samples))+1); s < l.seq; s++ {
		r.v[l.slot(s)] = lag.TimeLag{} // polls that missed the group
	}
	r.last = l.seq
	r.v[l.slot(l.seq)] = h.MaxTimeLag
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// Group is the verdict for group i of snap. For a snapshot other than the
// latest accepted one (a poll the History ignored) it is looked up by name.
func (l *Lag) Group(snap *kafka.Snapshot, i int) Health {
	if l == nil || l.snap == nil {
		return UnknownHealth
	}
	if snap == l.snap && i < len(l.health) {
		return l.health[i]
	}
	if i >= len(snap.Groups) {
		return UnknownHealth
	}
	return l.Named(snap.Groups[i].Name)
}

// Named is the verdict for a group by name (unknown when the latest poll
// did not list it).
func (l *Lag) Named(name string) Health {
	if l == nil || l.snap == nil {
		return UnknownHealth
	}
	gs := l.snap.Groups
	i := sort.Search(len(gs), func(i int) bool { return gs[i].Name >= name })
	if i < len(gs) && gs[i].Name == name && i < len(l.health) {
		return l.health[i]
	}
	return UnknownHealth
}

// Counts are the groups of the latest poll by verdict: OK, WARN and ERR.
// Unknown and pending verdicts are not counted.
func (l *Lag) Counts() (ok, warn, err int) {
	if l == nil {
		return 0, 0, 0
	}
	return l.counts[lag.SeverityOK], l.counts[lag.SeverityWarn], l.counts[lag.SeverityErr]
}

// Evaluate judges one group with its partitions, appended to buf[:0], as of
// the latest poll. ok is false when the latest poll did not list it.
func (l *Lag) Evaluate(group string, buf []lag.PartitionHealth) (lag.GroupHealth, bool) {
	if l == nil || l.snap == nil {
		return lag.GroupHealth{Partitions: buf[:0]}, false
	}
	return l.hist.EvaluateInto(group, l.snap.Time, buf)
}

// GroupLagSeries implements LagHistory.
func (l *Lag) GroupLagSeries(group string, dst []int64) []int64 {
	if l == nil {
		return dst
	}
	return l.hist.GroupLagSeries(group, dst)
}

// GroupSeries appends the group's total lag and maximum time lag per poll,
// oldest first, over the history's ring.
func (l *Lag) GroupSeries(group string, dst []Point) []Point {
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
		p := Point{Time: time.Unix(0, l.times[l.slot(s)]).UTC(), Lag: v}
		if s >= r.first {
			p.TimeLag = r.v[l.slot(s)]
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
func (l *Lag) PartitionSeries(group, topic string, partition int32, latest lag.TimeLag, dst []Point) []Point {
	if l == nil {
		return dst
	}
	var buf [64]lag.Sample
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

// SampleTimeLags appends, for each sample, its lag and its time lag
// interpolated over the samples' own (log end, time) points, as the
// History estimates the latest one: the time the log end passed the
// committed offset, between the two polls around it. A commit the log end
// had already passed at the oldest sample is extrapolated back at the rate
// of the oldest step in which the log grew, or, when it never grew, is at
// least as old as the oldest sample. It runs in O(n log n) for n samples,
// a bounded ring.
func SampleTimeLags(ss []lag.Sample, dst []Point) []Point {
	// hi[j] is the highest log end known up to sample j: the log end as
	// far as it had grown by then (a dip from a lagging replica does not
	// move it back).
	var hiBuf [64]int64
	hi := hiBuf[:0]
	top := int64(-1)
	for _, s := range ss {
		top = max(top, s.LogEnd)
		hi = append(hi, top)
	}
	// f is the first sample with a known log end, and grow the first
	// one past f's log end: the end of the oldest step in which the log
	// grew (0: it never grew).
	f := 0
	for f < len(hi) && hi[f] < 0 {
		f++
	}
	grow := 0
	for j := f + 1; j < len(hi) && grow == 0; j++ {
		if hi[j] > hi[f] {
			grow = j
		}
	}
	for k, s := range ss {
		p := Point{Time: s.Time, Lag: s.Lag}
		c, end := s.Committed, s.LogEnd
		var at float64 // when the log end passed c, Unix nanoseconds
		switch {
		case c < 0 || end < 0:
			dst = append(dst, p)
			continue
		case c >= end:
			p.TimeLag = lag.TimeLag{Kind: lag.TimeLagCaughtUp}
			dst = append(dst, p)
			continue
		}
		// The first sample whose log end is past c; c < end <= hi[k],
		// so f <= j <= k.
		j := f + sort.Search(k+1-f, func(i int) bool { return hi[f+i] > c })
		kind := lag.TimeLagInterpolated
		switch {
		case j > f:
			// hi[j-1] <= c < hi[j]: sample j-1 is the last time the
			// log end was at or below c, sample j the first past it.
			l, r := ss[j-1], ss[j]
			at = float64(r.Time.UnixNano()) - float64(hi[j]-c)*float64(r.Time.Sub(l.Time))/float64(hi[j]-hi[j-1])
		case grow > 0:
			l, r := ss[grow-1], ss[grow]
			perOffset := float64(r.Time.Sub(l.Time)) / float64(hi[grow]-hi[grow-1])
			at = float64(ss[f].Time.UnixNano()) - float64(hi[f]-c)*perOffset
			kind = lag.TimeLagExtrapolated
		default:
			at = float64(ss[f].Time.UnixNano())
			kind = lag.TimeLagAtLeast
		}
		sec := (float64(s.Time.UnixNano()) - at) / 1e9
		p.TimeLag = lag.TimeLag{Seconds: max(0, sec), Kind: kind}
		dst = append(dst, p)
	}
	return dst
}
