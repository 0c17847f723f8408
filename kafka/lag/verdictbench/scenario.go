package verdictbench

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// Production is what the producers write to each partition.
type Production struct {
	Kind ProductionKind
	// Rate is the long-run mean in records a second per partition
	// (Trickle ignores it: one record a minute).
	Rate float64
}

// Scenario is one simulated group and how it is watched.
type Scenario struct {
	Name       string
	Partitions int
	Members    int
	Spread     Spread
	Rhythm     Rhythm
	Production Production
	// Poll is the time between polls (the UI's refresh, serve's and
	// health's --interval); Jitter moves each poll by up to that share of
	// it either way, and every MissEvery-th poll fails (0: none does).
	Poll      time.Duration
	Jitter    float64
	MissEvery int
	// Window is `kgroups health --window`.
	Window time.Duration
	Length time.Duration
	// Phases start at their At; Phases[0].At is 0.
	Phases []Phase
	Seed   uint64
	// Story names the phases' pattern.
	Story string
}

// commitPeriod is the longest a partition's commit stands between moves
// while the consumer runs at speed, which is the longest a record waits
// for its commit (the peak of a keeping-up consumer's sawtooth in time
// lag): the rhythm, stretched for a member that serves its partitions in
// turn or commits after slow batches. On a trickle it is the wait of a
// record, as records come a minute apart.
func (sc *Scenario) commitPeriod(speed float64) float64 {
	capacity := speed * sc.Production.Rate * float64(sc.Partitions) / float64(max(1, sc.Members))
	if sc.Production.Kind == Trickle {
		// A record a minute: a commit moves when one arrives, once the
		// member has read it and its timer fires. A member takes
		// 60/speed seconds over a minute's records of its partitions
		// (its capacity is speed times what arrives on them), so a
		// record waits up to that, then up to its rhythm: a commit every
		// 30 s at 1.3x leaves a record 76 s behind before its commit
		// (TestKeepingUpStaysWithinTheCommitPeriod), and at 0.5x, with
		// a backlog, a partition's commit on a timer moves every two
		// minutes (TestASlowTrickleCommitsOnceARound).
		if speed <= 0 {
			speed = 1
		}
		return max(60, sc.Rhythm.Every.Seconds()+60/speed)
	}
	per := max(1, sc.Partitions/max(1, sc.Members))
	var p float64
	switch sc.Rhythm.Kind {
	case PerRecord:
		p = 0
	case Interval:
		p = sc.Rhythm.Every.Seconds()
	case AfterBatch:
		if capacity > 0 {
			p = float64(sc.Rhythm.Batch) / capacity
		}
		if speed >= 1 {
			p = min(p, 5)
		}
	}
	if sc.Spread == InTurn && speed < 1 && capacity > 0 {
		p = max(p, float64(per)*500/capacity)
	}
	return p
}

// The stories: how a consumer's speed and circumstances change over a
// scenario, as shares of its length.
type story struct {
	name   string
	phases []struct {
		at    float64
		speed float64
		event Event
	}
}

func mkStory(name string, ps ...any) story {
	s := story{name: name}
	for i := 0; i < len(ps); i += 3 {
		s.phases = append(s.phases, struct {
			at    float64
			speed float64
			event Event
		}{num(ps[i]), num(ps[i+1]), ps[i+2].(Event)})
	}
	return s
}

func num(v any) float64 {
	if i, ok := v.(int); ok {
		return float64(i)
	}
	return v.(float64)
}

// stories are the phase patterns. Speeds stay out of the band between
// fallingShare and 1.1 times production, where a human could not call
// the trend either way within the scenario.
var stories = []story{
	mkStory("keeps up", 0.0, 1.5, Consume),
	mkStory("slow (0.5x)", 0.0, 0.5, Consume),
	mkStory("quarter speed", 0.0, 0.25, Consume),
	mkStory("slows then recovers", 0.0, 1.3, Consume, 1.0/3, 0.6, Consume, 2.0/3, 2.0, Consume),
	mkStory("nearly keeps up (0.8x)", 0.0, 1.25, Consume, 0.25, 0.8, Consume),
	mkStory("stalls, then resumes", 0.0, 1.3, Consume, 0.4, 0, Stall, 0.7, 0, Consume),
	mkStory("stalled from the start", 0.0, 1.3, Stall),
	mkStory("stops", 0.0, 1.3, Consume, 0.5, 0, Stop),
	mkStory("reset to the start", 0.0, 1.5, Consume, 0.3, 3.0, Reset),
	mkStory("restarts", 0.0, 1.3, Consume, 0.5, 0, Restart),
	mkStory("members join and leave", 0.0, 1.4, Consume, 0.3, 0, Join, 0.6, 0, Leave),
	mkStory("slow, then scaled out", 0.0, 0.6, Consume, 0.5, 1.6, Join),
	mkStory("one partition stuck", 0.0, 1.5, Consume, 0.4, 0, StuckOne, 0.7, 0, Consume),
}

// The dimensions scenarios are drawn from.
var (
	rhythms = []Rhythm{
		{Kind: PerRecord},
		{Kind: Interval, Every: time.Second},
		{Kind: Interval, Every: 5 * time.Second},
		{Kind: AfterBatch, Batch: 500},
		{Kind: Interval, Every: 30 * time.Second},
		{Kind: Interval, Every: 2 * time.Minute},
		{Kind: Interval, Every: 10 * time.Minute},
		{Kind: Interval, Every: 5 * time.Minute, External: true},
		{Kind: Never},
	}
	productions     = []ProductionKind{Steady, Steady, Bursty, Ramp, Pauses, Trickle}
	partitionCounts = []int{1, 3, 6, 12, 48, 200}
	serves          = []Spread{Even, Even, InTurn, Hot}
	polls           = []time.Duration{time.Second, 5 * time.Second, 5 * time.Second, 10 * time.Second, 30 * time.Second}
	windows         = []time.Duration{15 * time.Second, time.Minute, 5 * time.Minute, 30 * time.Minute}
)

// Scenarios draws n scenarios from seed over every dimension: commit
// rhythm, production shape and rate, partitions and members, how members
// serve their partitions, the story of the run (speed changes, stalls,
// stops, resets, restarts, members joining and leaving), the poll
// interval with jitter and missed polls, and health's window. The same
// seed gives the same scenarios.
func Scenarios(seed uint64, n int, length time.Duration) []Scenario {
	rng := rand.New(rand.NewPCG(seed, 0xbe4c4))
	out := make([]Scenario, 0, n)
	for i := range n {
		st := stories[i%len(stories)]
		r := rhythms[rng.IntN(len(rhythms))]
		parts := partitionCounts[rng.IntN(len(partitionCounts))]
		if parts == 200 && rng.IntN(3) > 0 {
			parts = 12 // 200 partitions are slow to simulate: a few suffice
		}
		sc := Scenario{
			Partitions: parts,
			Members:    1 + rng.IntN(min(parts, 4)),
			Spread:     serves[rng.IntN(len(serves))],
			Rhythm:     r,
			Production: Production{Kind: productions[rng.IntN(len(productions))], Rate: 0.5 + 49.5*rng.Float64()*rng.Float64()},
			Poll:       polls[rng.IntN(len(polls))],
			Length:     length,
			Seed:       seed*1_000_003 + uint64(i),
			Story:      st.name,
		}
		if rng.IntN(3) == 0 {
			sc.Jitter = 0.2
		}
		if rng.IntN(4) == 0 {
			sc.MissEvery = 13 + rng.IntN(10)
		}
		sc.Window = windows[rng.IntN(len(windows))]
		if sc.Window < 2*sc.Poll {
			sc.Window = 2 * sc.Poll
		}
		if sc.Spread == InTurn && sc.Members >= parts {
			sc.Spread = Even
		}
		for _, p := range st.phases {
			sc.Phases = append(sc.Phases, Phase{At: time.Duration(p.at * float64(length)).Round(time.Second), Speed: p.speed, Event: p.event})
		}
		sc.Name = fmt.Sprintf("s%03d", i)
		out = append(out, sc)
	}
	return out
}

// Describe is the scenario in one line.
func (sc *Scenario) Describe() string {
	return fmt.Sprintf("%s: %s; commits %s; %s production %.1f/s on %d partitions; %d members serving %s; poll %s (jitter %.0f%%, miss every %d); health window %s",
		sc.Name, sc.Story, sc.Rhythm, sc.Production.Kind, sc.Production.Rate, sc.Partitions, sc.Members, sc.Spread,
		shortDur(sc.Poll), sc.Jitter*100, sc.MissEvery, shortDur(sc.Window))
}
