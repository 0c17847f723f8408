package verdictbench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"time"
)

// RhythmKind is how a consumer commits.
type RhythmKind uint8

// The commit rhythms consumers have in the wild.
const (
	// PerRecord commits after every record: a poll sees every commit.
	PerRecord RhythmKind = iota
	// Interval commits what was processed every Rhythm.Every: Java's and
	// franz-go's autocommit (5 s), Kafka Streams (30 s), checkpoints.
	Interval
	// AfterBatch commits after each fetched batch is processed: a batch
	// is what was waiting when the member fetched it, at most
	// Rhythm.Batch records (Java's max.poll.records), as a real poll
	// returns what the log holds without waiting for more. A slow loop
	// over full batches commits tens of seconds to minutes apart; one
	// that keeps up commits small batches often.
	AfterBatch
	// Never commits nothing: the position lives in the client.
	Never
)

// Rhythm is a consumer's commit rhythm.
type Rhythm struct {
	Kind  RhythmKind
	Every time.Duration
	Batch int
	// External commits without group members: a job that assigns its
	// partitions itself and commits on checkpoints (Flink's Kafka
	// source): the group is Empty while its offsets move.
	External bool
}

func (r Rhythm) String() string {
	ext := ""
	if r.External {
		ext = " (no members)"
	}
	switch r.Kind {
	case PerRecord:
		return "per record" + ext
	case Interval:
		return "every " + shortDur(r.Every) + ext
	case AfterBatch:
		return fmt.Sprintf("after each fetched batch of up to %d%s", r.Batch, ext)
	}
	return "never"
}

// Spread is how a group's members spread their work over their partitions.
type Spread uint8

// The ways members serve their partitions.
const (
	// Even serves every partition with a backlog alike.
	Even Spread = iota
	// InTurn drains one fetch of one partition (what it held when
	// fetched, up to 500 records), then the next: a slow member's
	// partitions advance one after another.
	InTurn
	// Hot is Even with one partition taking half of the production.
	Hot
)

var serveNames = [...]string{"even", "in turn", "one hot partition"}

func (s Spread) String() string { return serveNames[s] }

// ProductionKind is the shape of the producers' output over time.
type ProductionKind uint8

// The production shapes.
const (
	Steady ProductionKind = iota
	// Bursty writes four times the mean rate for a quarter of each
	// 40-second cycle, nothing in between (each partition at its own phase).
	Bursty
	// Ramp grows from half the mean to one and a half times it over the
	// scenario.
	Ramp
	// Pauses is steady with a five-minute pause in every fifteen minutes.
	Pauses
	// Trickle writes one record a minute per partition.
	Trickle
)

var productionNames = [...]string{"steady", "bursty", "ramp", "pauses", "trickle"}

func (p ProductionKind) String() string { return productionNames[p] }

// Event is what happens to the consumer at the start of a phase.
type Event uint8

// The events a phase can start with.
const (
	// Consume: the members consume at the phase's speed.
	Consume Event = iota
	// Stall: the members stay in the group but stop making progress (a
	// record they cannot get past, a blocked loop); autocommit goes on
	// committing the same offsets, which a poll cannot see.
	Stall
	// Stop: the members leave and nothing commits.
	Stop
	// Restart: the members leave for a minute, then come back and resume
	// from the committed offsets.
	Restart
	// Reset: the members leave, the offsets are reset to the log start
	// 20 s later, and the members come back 20 s after that.
	Reset
	// Join: one more member joins (a rebalance pauses consumption 3 s).
	Join
	// Leave: one member leaves, the others take its partitions.
	Leave
	// StuckOne: partition 0 stops making progress (a record its
	// consumer cannot get past) while the others go on.
	StuckOne
)

var eventNames = [...]string{"consume", "stall", "stop", "restart", "reset", "join", "leave", "one partition stuck"}

func (e Event) String() string { return eventNames[e] }

// Phase is a stretch of a scenario: from At on, the consumer's capacity is
// Speed times the production's mean rate (Speed 0 keeps the previous one),
// after the phase's Event.
type Phase struct {
	At    time.Duration
	Speed float64
	Event Event
}

// stamp says that offsets below end were written by time t (seconds).
type stamp struct {
	end int64
	t   float64
}

type part struct {
	end       int64
	acc       float64
	pos       int64 // the next offset the consumer processes
	committed int64 // -1: none
	// high is the committed offset a reset moved back from: until the
	// consumer commits there again, records are consumed twice.
	high   int64
	stamps []stamp
	// lastMove is when the committed offset last moved forward, lastZero
	// when it last stood at the log end (nothing to wait for), maxGap the
	// longest wait that ended with a move so far (-1: none).
	lastMove, lastZero, maxGap float64
	moves                      int
	// gaps are the latest four waits that ended with a move, gapAt the
	// next to replace: the consumer's rhythm now. long is the longest
	// wait that ended within two of its own lengths, longAt when it
	// ended: a partition served in turn commits many times in its turn
	// and then waits a whole round, and the round is its rhythm however
	// many commits its turn took.
	gaps         [4]float64
	gapAt        int
	long, longAt float64
	// phase staggers a bursty partition's cycle.
	phase float64
}

type member struct {
	id    string
	parts []int
	// cur, chunk and taken: the partition an InTurn member drains, the
	// records its fetch held there and how many of them it took.
	cur, taken int
	chunk      int64
	// done counts records processed since the member's last commit, and
	// batch the size of the batch it fetched after it (0: none yet)
	// (AfterBatch); next is its next commit time (Interval).
	done, batch int64
	next        float64
	// carry is the fraction of a record processed but not finished;
	// turn is where its next round of shares starts (water-filling).
	carry float64
	turn  int
}

// world is one scenario's state, advanced in steps of dt seconds.
type world struct {
	sc    *Scenario
	rng   *rand.Rand
	t     float64
	parts []part
	// all is every partition's index: what a job without members serves.
	all     []int
	members []member
	seq     int // member ids
	speed   float64
	phase   int
	stalled bool
	// stuck: partition 0 makes no progress (StuckOne).
	stuck bool
	// haltEnd is when the latest stall, stuck partition or stop ended:
	// a wait that began before it spans the halt and is not a rhythm.
	haltEnd float64
	// anyMove is when a commit last moved forward on any partition,
	// allZero when every partition last stood at its log end (nothing to
	// wait for), and anyGap the longest wait that ended with a move on
	// any partition so far, not across a halt (-1: none): the consumer's
	// own rhythm, however it shares it among its partitions (a member
	// serving them in turn commits every second while each partition
	// waits its round).
	anyMove, allZero, anyGap float64
	// away is true while the members are gone (Stop, or the gap of a
	// Restart or Reset); back is when they return (+Inf: not this phase).
	away      bool
	back      float64
	resetDue  float64 // when a Reset moves the offsets (+Inf: none due)
	resetAt   float64 // the latest reset (-Inf: none)
	pauseTill float64 // a rebalance's pause
	carry     float64 // an external job's fraction of a record
	turn      int     // where an external job's next round starts
}

const dt = 0.5

func newWorld(sc *Scenario) *world {
	w := &world{
		sc:       sc,
		rng:      rand.New(rand.NewPCG(sc.Seed, 0x5eed)),
		parts:    make([]part, sc.Partitions),
		resetDue: math.Inf(1),
		resetAt:  math.Inf(-1),
		back:     math.Inf(1),
		phase:    -1,
		anyMove:  math.Inf(-1),
		allZero:  math.Inf(-1),
		anyGap:   -1,
	}
	w.all = make([]int, len(w.parts))
	for i := range w.parts {
		w.all[i] = i
		p := &w.parts[i]
		p.committed = -1
		p.lastMove, p.lastZero, p.maxGap = math.Inf(-1), math.Inf(-1), -1
		p.phase = w.rng.Float64() * 40
		// A backlog of production before the scenario starts, so that
		// commits start inside the log and records have timestamps.
		rate := sc.Production.Rate
		if sc.Spread == Hot && i == 0 && sc.Partitions > 1 {
			rate *= float64(sc.Partitions) / 2
		}
		if sc.Production.Kind == Trickle {
			rate = 1.0 / 60
		}
		// A minute of production before the scenario starts, written
		// second by second, so that every record has its own time.
		for s := -59; s <= 0; s++ {
			p.end = int64(math.Round(rate * float64(s+60)))
			if len(p.stamps) == 0 || p.stamps[len(p.stamps)-1].end < p.end {
				p.stamps = append(p.stamps, stamp{end: p.end, t: float64(s)})
			}
		}
		warm := p.end
		if sc.Rhythm.Kind != Never {
			p.pos, p.committed = warm, warm
		}
	}
	if !sc.Rhythm.External {
		for range max(1, sc.Members) {
			w.addMember()
		}
	}
	w.startPhase(0)
	return w
}

func (w *world) addMember() {
	w.seq++
	w.members = append(w.members, member{id: fmt.Sprintf("consumer-%d-%s", w.seq, w.sc.Name), next: w.t + w.firstCommit()})
	w.assign()
}

// firstCommit staggers a member's Interval commits.
func (w *world) firstCommit() float64 {
	if w.sc.Rhythm.Kind != Interval {
		return 0
	}
	return w.rng.Float64() * w.sc.Rhythm.Every.Seconds()
}

// assign spreads the partitions over the members round robin, as range
// and round-robin assignors do for one topic, and pauses consumption for
// the rebalance.
func (w *world) assign() {
	for i := range w.members {
		w.members[i].parts = w.members[i].parts[:0]
		w.members[i].cur, w.members[i].taken = 0, 0
	}
	if len(w.members) == 0 {
		return
	}
	for p := range w.parts {
		m := &w.members[p%len(w.members)]
		m.parts = append(m.parts, p)
	}
	// What a member processed but had not committed is processed again
	// by the partition's next owner.
	for i := range w.parts {
		if w.parts[i].committed >= 0 {
			w.parts[i].pos = w.parts[i].committed
		}
	}
	w.pauseTill = w.t + 3
}

func (w *world) startPhase(i int) {
	w.phase = i
	ph := w.sc.Phases[i]
	if ph.Speed > 0 {
		w.speed = ph.Speed
	}
	if w.stalled || w.stuck || w.away {
		// A wait across a halt is not how the consumer commits.
		w.haltEnd = w.t
	}
	w.stalled = ph.Event == Stall
	w.stuck = ph.Event == StuckOne
	w.back, w.resetDue = math.Inf(1), math.Inf(1)
	switch ph.Event {
	case Consume, Stall, StuckOne:
		if w.away {
			w.comeBack()
		}
	case Stop:
		w.leaveAll()
	case Restart:
		w.leaveAll()
		w.back = w.t + 60
	case Reset:
		w.leaveAll()
		w.resetDue = w.t + 20
		w.back = w.t + 40
	case Join:
		if w.away {
			w.comeBack()
		}
		if !w.sc.Rhythm.External {
			w.addMember()
		}
	case Leave:
		if w.away {
			w.comeBack()
		}
		if len(w.members) > 1 {
			w.members = w.members[:len(w.members)-1]
			w.assign()
		}
	}
}

func (w *world) leaveAll() {
	w.away = true
	w.members = nil
}

func (w *world) comeBack() {
	w.away = false
	// The time away (a restart's, a reset's) was a stop: a wait across it
	// is not how the consumer commits.
	w.haltEnd = w.t
	if w.sc.Rhythm.External {
		for i := range w.parts {
			w.parts[i].pos = max(w.parts[i].committed, 0)
		}
		w.pauseTill = w.t + 3
		return
	}
	for range max(1, w.sc.Members) {
		w.addMember()
	}
}

// consuming reports whether anything processes records now.
func (w *world) consuming() bool {
	return !w.away && !w.stalled && w.t >= w.pauseTill
}

// owned reports whether a group member owns the partitions now.
func (w *world) live() bool { return len(w.members) > 0 }

// rate is partition i's production rate at time t.
func (w *world) rate(i int, t float64) float64 {
	pr := w.sc.Production
	r := pr.Rate
	if w.sc.Spread == Hot && w.sc.Partitions > 1 {
		if i == 0 {
			r *= float64(w.sc.Partitions) / 2
		} else {
			r *= float64(w.sc.Partitions) / 2 / float64(w.sc.Partitions-1)
		}
	}
	switch pr.Kind {
	case Bursty:
		if math.Mod(t+w.parts[i].phase, burstCycle) < burstCycle/4 {
			return 4 * r
		}
		return 0
	case Ramp:
		return r * (0.5 + t/w.sc.Length.Seconds())
	case Pauses:
		if math.Mod(t, 900) >= 600 {
			return 0
		}
		return r * 1.5
	case Trickle:
		return 1.0 / 60
	}
	return r
}

// burstCycle is a Bursty partition's cycle, seconds: four times the mean
// rate for its first quarter, nothing for the rest. Its truth takes the
// cycle's mean rate (meanRate).
const burstCycle = 40.0

// productionCycle is the production's own cycle, seconds: the span its
// truth averages the rate over (0: none).
func (sc *Scenario) productionCycle() float64 {
	if sc.Production.Kind == Bursty {
		return burstCycle
	}
	return 0
}

// meanRate is partition i's production rate as a human reading a lag
// chart takes it at time t: a burst is not a change of pace (the mean of
// the cycle), a pause or a ramp is.
func (w *world) meanRate(i int, t float64) float64 {
	if w.sc.Production.Kind == Bursty {
		return w.rate(i, t-math.Mod(t+w.parts[i].phase, burstCycle)) / 4
	}
	return w.rate(i, t)
}

// capacity is one member's (or the external job's) processing rate in
// records a second: the phase's speed times the long-run mean production
// of the whole group, shared by the members that hold partitions. A
// member that joins a group with no partition left for it takes none of
// the work, and none of the others' pace: the group's speed is the
// phase's, whatever its members.
func (w *world) capacity() float64 {
	total := w.sc.Production.Rate * float64(len(w.parts))
	if w.sc.Production.Kind == Trickle {
		total = float64(len(w.parts)) / 60
	}
	n := 0
	for i := range w.members {
		if len(w.members[i].parts) > 0 {
			n++
		}
	}
	return w.speed * total / float64(max(1, n))
}

// step advances the world by dt.
func (w *world) step() {
	if next := w.phase + 1; next < len(w.sc.Phases) && w.t >= w.sc.Phases[next].At.Seconds() {
		w.startPhase(next)
	}
	if w.t >= w.resetDue {
		w.resetDue = math.Inf(1)
		w.resetAt = w.t
		for i := range w.parts {
			if w.parts[i].committed > 0 {
				w.parts[i].high = w.parts[i].committed
				w.parts[i].committed = 0
			}
		}
	}
	if w.t >= w.back {
		w.back = math.Inf(1)
		w.comeBack()
	}
	t1 := w.t + dt
	for i := range w.parts {
		p := &w.parts[i]
		p.acc += w.rate(i, w.t) * dt
		if n := int64(p.acc); n > 0 {
			p.acc -= float64(n)
			p.end += n
			p.stamps = append(p.stamps, stamp{end: p.end, t: t1})
		}
	}
	if w.consuming() {
		if w.sc.Rhythm.External {
			w.process(nil, w.capacity()*dt)
		} else {
			for m := range w.members {
				w.process(&w.members[m], w.capacity()*dt)
			}
		}
	}
	w.t = t1
	w.commit()
	all := true
	for i := range w.parts {
		if p := &w.parts[i]; p.committed >= p.end {
			p.lastZero = w.t
		} else {
			all = false
		}
	}
	if all {
		w.allZero = w.t
	}
}

// process spends budget records of processing on m's partitions (all of
// them when m is nil: an external job).
func (w *world) process(m *member, budget float64) {
	var ps []int
	if m != nil {
		ps = m.parts
	} else {
		ps = make([]int, len(w.parts))
		for i := range ps {
			ps[i] = i
		}
	}
	if w.stuck {
		kept := make([]int, 0, len(ps))
		for _, i := range ps {
			if i != 0 {
				kept = append(kept, i)
			}
		}
		ps = kept
	}
	if len(ps) == 0 {
		return
	}
	// Fractions of a record carry over to the next step: a slow
	// consumer takes the same time over each record.
	var carry *float64
	turn := &w.turn
	if m != nil {
		carry, turn = &m.carry, &m.turn
	} else {
		carry = &w.carry
	}
	*carry += budget
	whole := int64(*carry)
	*carry -= float64(whole)
	if w.sc.Spread == InTurn && m != nil {
		const fetch = 500
		for whole > 0 {
			k := -1
			for j := range ps {
				c := (m.cur + j) % len(ps)
				if w.parts[ps[c]].end > w.parts[ps[c]].pos {
					k = c
					break
				}
			}
			if k < 0 {
				return
			}
			p := &w.parts[ps[k]]
			if k != m.cur || m.taken == 0 {
				// A fetch holds what the partition had when it was
				// fetched, up to 500 records: what arrives meanwhile
				// waits for the next round, as the member's other
				// partitions' records do.
				m.cur, m.taken, m.chunk = k, 0, min(fetch, p.end-p.pos)
			}
			n := min(whole, p.end-p.pos, m.chunk-int64(m.taken))
			p.pos += n
			whole -= n
			m.done += n
			m.taken += int(n)
			if int64(m.taken) >= m.chunk || p.pos == p.end {
				m.cur, m.taken = (m.cur+1)%len(ps), 0
			}
		}
		return
	}
	// Water-filling: an equal share to each partition with a backlog,
	// what one cannot use goes to the others.
	for whole > 0 {
		open := 0
		for _, i := range ps {
			if w.parts[i].end > w.parts[i].pos {
				open++
			}
		}
		if open == 0 {
			return
		}
		share := max(1, whole/int64(open))
		// Each round starts where the last one stopped, as a fetcher
		// rotates its partitions: a budget smaller than one record a
		// partition goes to each in turn, never to some more often by
		// chance, which would make their time lags wander apart.
		for k := range ps {
			c := (*turn + k) % len(ps)
			p := &w.parts[ps[c]]
			n := min(share, p.end-p.pos, whole)
			p.pos += n
			whole -= n
			if m != nil {
				m.done += n
			}
			if whole == 0 {
				*turn = (c + 1) % len(ps)
				break
			}
		}
	}
}

// commit applies the rhythm: the committed offsets move to the positions.
func (w *world) commit() {
	r := w.sc.Rhythm
	if r.Kind == Never || w.away {
		return
	}
	if r.External {
		if r.Kind == Interval && w.t < w.extNext() {
			return
		}
		w.commitParts(nil)
		return
	}
	for k := range w.members {
		m := &w.members[k]
		if len(m.parts) == 0 {
			// A member the assignor left without partitions (more
			// members than partitions) has nothing to commit.
			continue
		}
		switch r.Kind {
		case Interval:
			if w.t < m.next {
				continue
			}
			m.next += r.Every.Seconds()
		case AfterBatch:
			var backlog int64
			for _, i := range m.parts {
				if w.stuck && i == 0 {
					// Nothing is read from it (process): its records
					// are in no batch, and no batch waits for them.
					continue
				}
				backlog += max(0, w.parts[i].end-w.parts[i].pos)
			}
			if m.batch == 0 {
				// The fetch after the last commit: what had arrived
				// since, at most a full batch.
				m.batch = min(int64(r.Batch), m.done+backlog)
			}
			if m.batch == 0 || m.done < m.batch && backlog > 0 {
				continue
			}
			m.done, m.batch = 0, 0
		}
		w.commitParts(m.parts)
	}
}

// extNext is the external job's next checkpoint: every Every from 0.
func (w *world) extNext() float64 {
	e := w.sc.Rhythm.Every.Seconds()
	k := math.Floor(w.t / e)
	if w.t-k*e < dt {
		return k * e
	}
	return (k + 1) * e
}

func (w *world) commitParts(ps []int) {
	do := func(i int) {
		p := &w.parts[i]
		if p.pos <= p.committed {
			if p.pos < p.committed && w.t-w.resetAt > 40 {
				// Never: a consumer commits where it is, at or past the
				// last commit, unless a reset just moved the commit.
				return
			}
			if p.pos == p.committed {
				return
			}
		}
		if p.pos > p.committed {
			if from := max(p.lastMove, p.lastZero); !math.IsInf(from, -1) && from >= w.haltEnd {
				p.maxGap = max(p.maxGap, w.t-from)
				g := w.t - from
				p.gaps[p.gapAt] = g
				p.gapAt = (p.gapAt + 1) % len(p.gaps)
				if g >= p.long || w.t-p.longAt > 2*p.long {
					p.long, p.longAt = g, w.t
				}
			}
			p.lastMove = w.t
			p.moves++
			if w.anyMove < w.t {
				if from := max(w.anyMove, w.allZero); !math.IsInf(from, -1) && from >= w.haltEnd {
					w.anyGap = max(w.anyGap, w.t-from)
				}
				w.anyMove = w.t
			}
		}
		p.committed = p.pos
	}
	if ps == nil {
		for i := range w.parts {
			do(i)
		}
		return
	}
	for _, i := range ps {
		do(i)
	}
}

// rhythm is the longest of the latest waits that ended with a commit on
// any partition, and of the longest waits that ended within two of their
// own lengths: how far apart the consumer's commits are now, whatever
// its speed and backlog (a consumer that commits after each batch commits
// full batches, far apart, while it works off a backlog; one serving its
// partitions in turn commits on each many times in its turn, then not
// for a round).
func (w *world) rhythm() float64 {
	r := 0.0
	for i := range w.parts {
		p := &w.parts[i]
		for _, g := range p.gaps {
			r = max(r, g)
		}
		if w.t-p.longAt <= 2*p.long {
			r = max(r, p.long)
		}
	}
	return r
}

// withinRhythm reports whether partition i's commit stands within its
// consumer's rhythm: its wait (since it last moved or stood at the log
// end) no longer than the longest it waited before, while the consumer
// commits within its own rhythm (anyGap). A partition its member serves
// in turn waits its round while the member commits elsewhere: STALL
// then is early. A consumer that stopped committing on every partition
// has stalled, whatever each partition's round.
func (w *world) withinRhythm(i int) bool {
	p := &w.parts[i]
	return p.maxGap > 0 && w.t-max(p.lastMove, p.lastZero) <= p.maxGap && w.t-max(w.anyMove, w.allZero) <= w.anyGap
}

// shown is the oldest latest commit among the partitions with a backlog
// (+Inf when none has one): the offsets show how the consumer progresses
// now only once each partition with records to consume has committed.
func (w *world) shown() float64 {
	s := math.Inf(1)
	for i := range w.parts {
		if p := &w.parts[i]; p.committed >= 0 && p.committed < p.end {
			s = min(s, p.lastMove)
		}
	}
	return s
}

// writtenAt is when the record at offset o of partition i was written.
func (w *world) writtenAt(i int, o int64) float64 {
	st := w.parts[i].stamps
	k := sort.Search(len(st), func(k int) bool { return st[k].end > o })
	if k == len(st) {
		return w.t
	}
	return st[k].t
}

// timeLag is partition i's true time lag: how old the oldest record the
// group has not consumed is (0 when caught up, -1 without a commit).
func (w *world) timeLag(i int) float64 {
	p := &w.parts[i]
	switch {
	case p.committed < 0:
		return -1
	case p.committed >= p.end:
		return 0
	}
	return w.t - w.writtenAt(i, p.committed)
}

func shortDur(d time.Duration) string {
	switch {
	case d%time.Minute == 0:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d%time.Second == 0:
		return fmt.Sprintf("%ds", int(d/time.Second))
	}
	return d.String()
}
