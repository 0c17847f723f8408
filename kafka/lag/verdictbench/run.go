package verdictbench

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/watch"
)

// Col is a column of the confusion matrix: the verdict shown.
type Col uint8

// The verdicts, as kgroups words them.
const (
	ColOK Col = iota
	ColWarn
	ColNoCommits
	ColStall
	ColRewind
	ColStop
	ColJudging
	ColUnknown
	numCols
)

var colNames = [...]string{"OK", "WARN", "NO-COMMITS", "STALL", "REWIND", "STOP", "JUDGING", "-"}

func (c Col) String() string { return colNames[c] }

// decided reports a verdict that claims something (not JUDGING or -).
func (c Col) decided() bool { return c < ColJudging }

func colOf(v *lag.Verdict) Col {
	sev, ok := v.Decided()
	switch {
	case ok && sev == lag.SeverityOK:
		return ColOK
	case ok:
		switch v.Status {
		case lag.StatusWarn:
			return ColWarn
		case lag.StatusNoCommits:
			return ColNoCommits
		case lag.StatusStall:
			return ColStall
		case lag.StatusRewind:
			return ColRewind
		case lag.StatusStop:
			return ColStop
		}
	case v.Judging():
		return ColJudging
	}
	return ColUnknown
}

// Observer is who watches the group: the UI, serve or `kgroups health`.
type Observer uint8

// The observers, each with the configuration kgroups gives it.
const (
	// UI is the terminal UI: a Tracker with lag.DefaultConfig polled at
	// the scenario's interval for its whole length.
	UI Observer = iota
	// Serve is `kgroups serve --refresh POLL`: a Tracker with the
	// configuration serve judges with, the UI's (its figures are the
	// UI's; with --window serve would judge as Health does).
	Serve
	// Health is `kgroups health --window W --interval POLL` run back to
	// back: a fresh History over each window, judged at its end.
	Health
	numObservers
)

var observerNames = [...]string{"ui", "serve", "health"}

func (o Observer) String() string { return observerNames[o] }

// Score is what one observer's verdicts scored over scenarios.
type Score struct {
	// Settled counts judged polls by truth and verdict, once the truth
	// has held for the grace a careful human needs (see grace); All
	// counts every judged poll.
	Settled, All [numTruths][numCols]int
	// TTR are the seconds from each change of truth to the first poll
	// from which the verdict is right and stays right until the next
	// change; Missed counts changes never followed by that.
	TTR    []float64
	Missed int
	// Changes counts verdict changes after the first decided verdict, and
	// TruthChanges changes of the right verdict; Hours is the time judged.
	Changes, DecidedChanges, TruthChanges int
	Hours                                 float64
	// Excess sums, over scenarios, the verdict changes beyond one per
	// change of truth.
	Excess int
	// OKWhileGrowing counts polls judged OK while the true time lag grew
	// over the evidence span (the window, or two commit periods or two of
	// the rhythm the consumer shows when longer) by more than half that
	// span.
	OKWhileGrowing int
	// StallInRhythm counts polls whose verdict calls a partition STALL
	// whose last commit is within its own rhythm (the longest gap between
	// its commits so far).
	StallInRhythm int
	// Wrong counts, per wrong settled cell, its polls by scenario (the
	// scenario's Describe), for reading.
	Wrong map[[2]uint8]map[string]int
}

// The keys of Wrong that list the targets' polls rather than a cell.
var (
	growingKey = [2]uint8{255, 0}
	stallKey   = [2]uint8{255, 1}
	excessKey  = [2]uint8{255, 2}
)

// list counts items under scenario desc in cell k of Wrong, naming them.
func (s *Score) list(k [2]uint8, desc, label string, items []string) {
	if len(items) > 0 {
		s.Wrong[k] = map[string]int{listed(desc, label, items): len(items)}
	}
}

// listed is scenario desc with items named after label: the first
// twelve, and how many more.
func listed(desc, label string, items []string) string {
	const most = 12
	if len(items) > most {
		return fmt.Sprintf("%s; %s: %s and %d more", desc, label, strings.Join(items[:most], ", "), len(items)-most)
	}
	return desc + "; " + label + ": " + strings.Join(items, ", ")
}

func newScore() *Score { return &Score{Wrong: make(map[[2]uint8]map[string]int)} }

// Add merges o into s.
func (s *Score) Add(o *Score) {
	for t := range s.Settled {
		for c := range s.Settled[t] {
			s.Settled[t][c] += o.Settled[t][c]
			s.All[t][c] += o.All[t][c]
		}
	}
	s.TTR = append(s.TTR, o.TTR...)
	s.Missed += o.Missed
	s.Changes += o.Changes
	s.DecidedChanges += o.DecidedChanges
	s.TruthChanges += o.TruthChanges
	s.Hours += o.Hours
	s.Excess += o.Excess
	s.OKWhileGrowing += o.OKWhileGrowing
	s.StallInRhythm += o.StallInRhythm
	for k, v := range o.Wrong {
		if s.Wrong[k] == nil {
			s.Wrong[k] = make(map[string]int)
		}
		for d, n := range v {
			s.Wrong[k][d] += n
		}
	}
}

var base = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

// judged is one judged poll.
type judged struct {
	t     float64
	truth Truth
	col   Col
	tl    float64
	// rhythm is the consumer's commit rhythm then (world.rhythm).
	rhythm float64
	// reset is when a reset last moved the group's offsets (-Inf: none).
	reset float64
	stall bool // the verdict calls a partition STALL within its rhythm
	// shown is the oldest latest commit among the partitions with a
	// backlog (+Inf when none has one): a change in how the consumer
	// progresses shows from the time every such partition has committed
	// since it.
	shown float64
	// line is the verdict in words, for Trace ("" when not tracing).
	line string
}

// observer is one watcher's state during a run.
type observer struct {
	kind    Observer
	tracker *lag.Tracker
	cfg     lag.Config
	hist    *lag.History // Health: the current window's
	polls   int          // Health: polls in a window
	taken   int
	span    float64 // the evidence window, seconds
	// cycle is the production's own cycle (Scenario.productionCycle):
	// a time lag that climbs within it, and falls back, is no trend.
	cycle float64
	out   []judged
	// tls is the true time lag at every poll, judged or not (Health
	// judges only a window's last): what a verdict is held to have
	// seen grow (okWhileGrowing).
	tls   []tlPoint
	trace bool // record each verdict's words (Trace)
}

// Run simulates sc and scores each observer's verdicts.
func Run(sc *Scenario) [numObservers]*Score {
	var out [numObservers]*Score
	for i, o := range observe(sc, false) {
		out[i] = o.score(sc)
	}
	return out
}

// Trace simulates sc and writes what observer o judged at each poll: the
// time, the truth and the true time lag, the verdict with its reason, and
// each partition's status in one letter (. OK, j OK waiting for evidence,
// W WARN, N NO-COMMITS, S STALL, R REWIND, X STOP). It is how a rule's
// wrong cell is looked into (go run ./cmd/verdictbench -trace s028).
func Trace(w io.Writer, sc *Scenario, o Observer) error {
	if _, err := fmt.Fprintf(w, "%s (%s)\n", sc.Describe(), o); err != nil {
		return err
	}
	ob := observe(sc, true)[o]
	for i, j := range ob.out {
		mark := ""
		switch {
		case j.stall:
			mark = "  <- STALL within its rhythm"
		case ob.okWhileGrowing(i, sc.periodAt(j.t)):
			mark = "  <- OK while growing"
		}
		if _, err := fmt.Fprintf(w, "%7.0fs %-14s tl %7.1fs  %s%s\n", j.t, j.truth, j.tl, j.line, mark); err != nil {
			return err
		}
	}
	return nil
}

// statusLetters are Trace's letters for the partition statuses.
var statusLetters = map[lag.Status]byte{
	lag.StatusOK: '.', lag.StatusWarn: 'W', lag.StatusNoCommits: 'N',
	lag.StatusStall: 'S', lag.StatusRewind: 'R', lag.StatusStop: 'X',
}

// observe simulates sc and returns each observer with its judged polls;
// with trace, each in words too.
func observe(sc *Scenario, trace bool) [numObservers]*observer {
	w := newWorld(sc)
	poll := sc.Poll.Seconds()
	var obs [numObservers]*observer
	{
		cfg := lag.DefaultConfig()
		tr := lag.NewTracker(cfg)
		obs[UI] = &observer{kind: UI, tracker: tr, cfg: tr.Config(),
			span: float64(cfg.Window-1) * max(cfg.MinDistance.Seconds(), poll)}
	}
	{
		// serve's configuration (cmd/kgroups newExporter): the UI's.
		tr := lag.NewTracker(lag.DefaultConfig())
		cfg := tr.Config()
		obs[Serve] = &observer{kind: Serve, tracker: tr, cfg: cfg, span: float64(cfg.Window-1) * max(cfg.MinDistance.Seconds(), poll)}
	}
	{
		cfg, polls := watch.Config(sc.Window, sc.Poll)
		obs[Health] = &observer{kind: Health, cfg: cfg, polls: polls, span: sc.Window.Seconds()}
	}

	for _, o := range obs {
		o.trace = trace
		o.cycle = sc.productionCycle()
	}
	rng := newJitter(sc.Seed)
	next, n := 0.0, 0
	for w.t < sc.Length.Seconds() {
		w.step()
		if w.t+1e-9 < next {
			continue
		}
		n++
		next += poll
		if j := sc.Jitter * poll; j > 0 {
			next += (rng.Float64()*2 - 1) * j
			next = max(next, w.t+dt)
		}
		if sc.MissEvery > 0 && n%sc.MissEvery == 0 {
			continue
		}
		snap := w.snapshot()
		for _, o := range obs {
			o.poll(w, snap)
		}
	}
	return obs
}

func (o *observer) poll(w *world, snap *kafka.Snapshot) {
	if o.kind != Health {
		o.tracker.Add(snap)
		if want := o.tracker.WantExact(lag.DefaultExactBudget, nil); len(want) > 0 {
			o.tracker.AddExact(w.records(want))
		}
		v := o.tracker.Group(snap, 0)
		o.record(w, &v, func() (lag.GroupHealth, bool) { return o.tracker.Evaluate(snap.Groups[0].Name, nil) })
		return
	}
	if o.hist == nil {
		o.hist = lag.NewHistory(o.cfg)
		o.taken = 0
	}
	o.hist.Add(snap)
	if want := o.hist.WantExact(lag.DefaultExactBudget, nil); len(want) > 0 {
		o.hist.AddExact(w.records(want))
	}
	o.taken++
	if o.taken < o.polls {
		_, tl := w.groupTruth(o.span)
		o.tls = append(o.tls, tlPoint{w.t, tl})
		return
	}
	h := o.hist
	o.hist = nil
	gh, ok := h.Evaluate(snap.Groups[0].Name, snap.Time)
	if !ok {
		return
	}
	v := lag.Judge(gh, h.Config().Window)
	o.record(w, &v, func() (lag.GroupHealth, bool) { return gh, true })
}

// record scores one judged poll.
func (o *observer) record(w *world, v *lag.Verdict, parts func() (lag.GroupHealth, bool)) {
	truth, tl := w.groupTruth(o.span)
	j := judged{t: w.t, truth: truth, col: colOf(v), tl: tl, rhythm: w.rhythm(), reset: w.resetAt, shown: w.shown()}
	if o.trace {
		var b strings.Builder
		b.WriteString(v.Text())
		if r := v.Reason(); r != "" {
			b.WriteString(" (" + r + ")")
		}
		if gh, ok := parts(); ok {
			b.WriteString("  ")
			for _, p := range gh.Partitions {
				c := statusLetters[p.Status]
				if p.Status == lag.StatusOK && p.Wait.Kind != lag.WaitNone {
					c = 'j'
				}
				b.WriteByte(c)
			}
		}
		j.line = b.String()
	}
	if j.col == ColStall {
		if gh, ok := parts(); ok {
			for _, p := range gh.Partitions {
				if p.Status != lag.StatusStall {
					continue
				}
				if w.withinRhythm(int(p.Partition)) {
					j.stall = true
				}
			}
		}
	}
	o.out = append(o.out, j)
	o.tls = append(o.tls, tlPoint{j.t, j.tl})
}

// records answers an exact read with the simulation's record timestamps.
func (w *world) records(want []kafka.PartitionOffsets) map[kafka.CommitKey]kafka.RecordTime {
	recs := make(map[kafka.CommitKey]kafka.RecordTime, len(want))
	for _, p := range want {
		i := int(p.Partition)
		if i < 0 || i >= len(w.parts) || p.Committed < 0 || p.Committed >= w.parts[i].end {
			continue
		}
		ts := base.Add(time.Duration(w.writtenAt(i, p.Committed) * float64(time.Second)))
		recs[kafka.CommitKey{Topic: p.Topic, Partition: p.Partition, Offset: p.Committed}] = kafka.RecordTime{Offset: p.Committed, Timestamp: ts}
	}
	return recs
}

// snapshot is what a poll of the cluster sees.
func (w *world) snapshot() *kafka.Snapshot {
	g := kafka.Group{
		Name:             w.sc.Name,
		Type:             kafka.TypeClassic,
		ProtocolType:     "consumer",
		State:            kafka.StateEmpty,
		OffsetsPartition: -1,
	}
	if w.sc.Rhythm.External {
		// No member ever joins: Kafka keeps no protocol type for a group
		// that only ever had offsets committed (a simple group).
		g.ProtocolType = ""
	}
	if len(w.members) > 0 {
		g.State = kafka.StateStable
		g.Assignor = "range"
		for k := range w.members {
			m := &w.members[k]
			mem := kafka.Member{MemberID: m.id, ClientID: "consumer", Host: "/10.0.0.1"}
			ps := make([]int32, 0, len(m.parts))
			for _, p := range m.parts {
				ps = append(ps, int32(p))
			}
			slices.Sort(ps)
			mem.Assignment = []kafka.TopicPartitions{{Topic: "t", Partitions: ps}}
			g.Members = append(g.Members, mem)
		}
		slices.SortFunc(g.Members, func(a, b kafka.Member) int {
			switch {
			case a.MemberID < b.MemberID:
				return -1
			case a.MemberID > b.MemberID:
				return 1
			}
			return 0
		})
	}
	owner := make([]string, len(w.parts))
	for k := range w.members {
		for _, p := range w.members[k].parts {
			owner[p] = w.members[k].id
		}
	}
	for i := range w.parts {
		p := &w.parts[i]
		c := p.committed
		if c < 0 {
			c = kafka.NoOffset
		}
		po := kafka.PartitionOffsets{Topic: "t", Partition: int32(i), Committed: c, LogStart: 0, LogEnd: p.end, Lag: kafka.NoOffset, MemberID: owner[i]}
		if c >= 0 {
			po.Lag = max(0, p.end-c)
		}
		if po.MemberID != "" {
			po.SetOwner(po.MemberID, "consumer", "/10.0.0.1", nil)
		}
		if c < 0 && po.MemberID == "" {
			continue // neither committed nor assigned: not the group's
		}
		g.Partitions = append(g.Partitions, po)
	}
	return &kafka.Snapshot{
		Time:      base.Add(time.Duration(w.t * float64(time.Second))),
		ClusterID: "verdictbench",
		Groups:    []kafka.Group{g},
	}
}

// periodAt is the commit period in effect at time t: the phase's speed.
func (sc *Scenario) periodAt(t float64) float64 {
	speed := 1.0
	for _, p := range sc.Phases {
		if p.At.Seconds() <= t && p.Speed > 0 {
			speed = p.Speed
		}
	}
	return sc.commitPeriod(speed)
}

// grace is how long a truth must have held before a careful human, with
// the observer's evidence span, could give it: the span itself plus the
// longer of the span and three commit periods (a trend needs a few
// commits to show).
func grace(span, period float64) float64 { return span + max(span, 3*period) }

func (o *observer) score(sc *Scenario) *Score {
	s := newScore()
	if len(o.out) == 0 {
		return s
	}
	period := sc.periodAt
	changeAt := o.out[0].t
	want := o.out[0].truth.Want()
	var changes []float64 // times the right verdict changed
	changes = append(changes, changeAt)
	first := -1
	// shownAt is when the change at changeAt shows in the offsets: a
	// consumer that resumes after a halt (a stall, a stop, a reset)
	// shows it from its first commits after it (one that commits after
	// each batch, and resumes with a full one, shows nothing before that
	// commit); every other change shows from the change itself.
	shownAt := changeAt
	var grewAt, stallAt []string // the targets' polls
	for i, j := range o.out {
		if j.truth.scored() && j.truth.Want() != want {
			halted := want != ColOK && want != ColWarn
			want = j.truth.Want()
			changeAt = j.t
			changes = append(changes, j.t)
			shownAt = changeAt
			if halted && j.truth.progress() {
				shownAt = math.Inf(1)
			}
		}
		if math.IsInf(shownAt, 1) && j.shown >= changeAt {
			shownAt = j.t
		}
		s.All[j.truth][j.col]++
		g := grace(o.span, period(j.t))
		if j.truth == Rewound {
			// A fact the next polls show: two polls to see it.
			g = 2 * sc.Poll.Seconds()
		}
		if j.t-shownAt >= g && j.truth.scored() {
			s.Settled[j.truth][j.col]++
			if j.col.decided() && j.col != j.truth.Want() {
				k := [2]uint8{uint8(j.truth), uint8(j.col)}
				if s.Wrong[k] == nil {
					s.Wrong[k] = make(map[string]int)
				}
				s.Wrong[k][sc.Describe()]++
			}
		}
		if first < 0 && j.col.decided() {
			first = i
		}
		if first >= 0 && i > first && j.col != o.out[i-1].col {
			s.Changes++
		}
		if j.stall {
			s.StallInRhythm++
			stallAt = append(stallAt, fmt.Sprintf("%.0fs", j.t))
		}
		if j.truth.scored() && o.okWhileGrowing(i, period(j.t)) {
			s.OKWhileGrowing++
			grewAt = append(grewAt, fmt.Sprintf("%.0fs", j.t))
		}
	}
	// The targets' polls, by scenario with their times, and the decided
	// changes beyond the truth's (below): what cmd/verdictbench -v lists.
	s.list(stallKey, sc.Describe(), "at", stallAt)
	s.list(growingKey, sc.Describe(), "at", grewAt)
	// Decided changes: between decided verdicts, skipping JUDGING and -,
	// and those to or from a borderline poll (either verdict stands
	// there). A verdict taken at a borderline poll stands, and the
	// change away from it once the truth is scored again is the
	// consumer's change out of the borderline, which no change of the
	// right verdict counts: not counted either, unless the right verdict
	// changed between (then that change counts it).
	last, lastScored := ColUnknown, true
	fromBorder, runWant := false, ColUnknown // the run of last began at a borderline poll; the right verdict at its first scored poll
	var seq []string                         // the decided changes, read where they exceed the truth's
	for _, j := range o.out {
		if j.truth.scored() && runWant != ColUnknown && j.truth.Want() != runWant {
			fromBorder = false
		}
		if j.col.decided() && last != ColUnknown && j.col != last {
			if lastScored && j.truth.scored() && !fromBorder {
				s.DecidedChanges++
				seq = append(seq, fmt.Sprintf("%.0fs %v>%v (%v)", j.t, last, j.col, j.truth))
			}
			fromBorder, runWant = !j.truth.scored(), ColUnknown
		}
		if j.truth.scored() && runWant == ColUnknown {
			runWant = j.truth.Want()
		}
		if j.col.decided() {
			last, lastScored = j.col, j.truth.scored()
		}
	}
	s.TruthChanges = len(changes) - 1
	s.Excess = max(0, s.DecidedChanges-s.TruthChanges)
	if s.Excess > 0 {
		// The decided changes with the truth at each: the shape a
		// class of them shares.
		s.Wrong[excessKey] = map[string]int{listed(sc.Describe(), "decided", seq): s.Excess}
	}
	s.Hours = (o.out[len(o.out)-1].t - o.out[0].t) / 3600
	// Time to the right verdict after each change.
	for k, at := range changes {
		end := math.Inf(1)
		if k+1 < len(changes) {
			end = changes[k+1]
		}
		var from = -1.0
		for _, j := range o.out {
			if j.t < at || j.t >= end || !j.truth.scored() {
				continue
			}
			switch {
			case j.col == j.truth.Want():
				if from < 0 {
					from = j.t
				}
			default:
				from = -1
			}
		}
		if from < 0 {
			s.Missed++
			continue
		}
		s.TTR = append(s.TTR, from-at)
	}
	return s
}

// okWhileGrowing reports whether the verdict at poll i is OK while the
// true time lag grew by more than half the time it was measured over:
// from the latest poll at least a span e before, e being the longest of
// two of the consumer's rhythms (a sawtooth climbs for one rhythm
// between commits), the evidence span, two commit periods (period) and
// the production's own cycle (a burst's records raise the time lag
// within it, and the truth takes the cycle's mean rate). Not before the
// latest reset: it moved the offsets back, a jump in time lag no pace of
// the consumer's made; from the first poll after it, the time lag must
// grow by half of e in less time.
func (o *observer) okWhileGrowing(i int, period float64) bool {
	j := o.out[i]
	if j.col != ColOK || j.tl < 0 {
		return false
	}
	e := max(o.span, 2*period, 2*j.rhythm, o.cycle)
	// The latest poll at or before j.t-e, unless that poll came before
	// the reset (though j.t-e is after it): then the first after it.
	old, at, ok := tlAt(o.tls, j.t-e)
	if j.t-e <= j.reset || ok && at <= j.reset {
		old, ok = tlAfter(o.tls, j.reset)
		return ok && old >= 0 && j.tl-old > e/2
	}
	// The growth over the span it was measured on: a poll missed or late
	// at j.t-e leaves an earlier one, and the time lag grew for longer.
	return ok && old >= 0 && j.tl-old > (j.t-at)/2
}

// tlPoint is the true time lag tl at time t.
type tlPoint struct{ t, tl float64 }

// tlAt is the true time lag at the latest poll at or before t, and that
// poll's time.
func tlAt(ps []tlPoint, t float64) (tl, at float64, ok bool) {
	for i := len(ps) - 1; i >= 0; i-- {
		if ps[i].t <= t {
			return ps[i].tl, ps[i].t, true
		}
	}
	return 0, 0, false
}

// tlAfter is the true time lag at the earliest poll after t.
func tlAfter(ps []tlPoint, t float64) (float64, bool) {
	k, _ := slices.BinarySearchFunc(ps, t, func(p tlPoint, t float64) int {
		if p.t <= t {
			return -1
		}
		return 1
	})
	if k == len(ps) {
		return 0, false
	}
	return ps[k].tl, true
}

func newJitter(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x717)) }
