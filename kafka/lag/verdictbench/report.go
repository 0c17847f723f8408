package verdictbench

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// Report is the benchmark's result: one Score per observer over every
// scenario.
type Report struct {
	Seed      uint64
	Scenarios int
	Length    time.Duration
	Scores    [numObservers]*Score
}

// RunAll runs the scenarios on every core and adds up their scores.
func RunAll(seed uint64, scs []Scenario) *Report {
	r := &Report{Seed: seed, Scenarios: len(scs)}
	for i := range r.Scores {
		r.Scores[i] = newScore()
	}
	if len(scs) > 0 {
		r.Length = scs[0].Length
	}
	results := make([][numObservers]*Score, len(scs))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = Run(&scs[i])
			}
		}()
	}
	for i := range scs {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, res := range results {
		for o := range res {
			r.Scores[o].Add(res[o])
		}
	}
	return r
}

// Correct is the share of settled polls with the right verdict, Judged
// the share of settled polls with a decided verdict, Wrong the settled
// polls with a decided wrong verdict.
func (s *Score) Correct() (correct, judged float64, wrong int) {
	var total, right, dec int
	for t := range s.Settled {
		for c, n := range s.Settled[t] {
			total += n
			if Col(c).decided() {
				dec += n
				if Col(c) == Truth(t).Want() {
					right += n
				} else {
					wrong += n
				}
			}
		}
	}
	if total == 0 {
		return 0, 0, 0
	}
	return float64(right) / float64(total), float64(dec) / float64(total), wrong
}

func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

// Markdown writes the report as docs/lag-health.md publishes it.
func (r *Report) Markdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d scenarios of %s each, seed %d.\n", r.Scenarios, shortDur(r.Length), r.Seed)
	for o, s := range r.Scores {
		correct, judged, wrong := s.Correct()
		fmt.Fprintf(&b, "\n#### %s\n\n", Observer(o))
		b.WriteString("Settled polls (truth held past its grace), truth × verdict:\n\n")
		matrix(&b, &s.Settled)
		fmt.Fprintf(&b, "\n- right verdict on %.1f%% of settled polls; %.1f%% decided (not JUDGING or -); %d settled polls with a wrong decided verdict\n", 100*correct, 100*judged, wrong)
		fmt.Fprintf(&b, "- time to the right verdict after a change of truth: median %s, p90 %s, max %s; %d of %d changes never got it before the next\n",
			secs(quantile(s.TTR, 0.5)), secs(quantile(s.TTR, 0.9)), secs(quantile(s.TTR, 1)), s.Missed, len(s.TTR)+s.Missed)
		perHour := 0.0
		if s.Hours > 0 {
			perHour = float64(s.DecidedChanges) / s.Hours
		}
		fmt.Fprintf(&b, "- verdict changes: %d between decided verdicts (%.2f per group-hour) for %d changes of truth; %d beyond one per change; %d counting JUDGING\n",
			s.DecidedChanges, perHour, s.TruthChanges, s.Excess, s.Changes)
		fmt.Fprintf(&b, "- OK while the time lag grew by more than half the evidence span: %d polls; STALL within the consumer's own rhythm: %d polls\n", s.OKWhileGrowing, s.StallInRhythm)
		var border int
		for _, n := range s.All[Borderline] {
			border += n
		}
		fmt.Fprintf(&b, "- borderline, not scored: %d polls (a member between %.0f%% and 100%% of its partitions' production, or with a backlog up to %.0f%%)\n", border, 100*fallingShare, 100*borderShare)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func matrix(b *strings.Builder, m *[numTruths][numCols]int) {
	b.WriteString("| truth \\ verdict |")
	for c := range numCols {
		fmt.Fprintf(b, " %s |", c)
	}
	b.WriteString("\n|---|")
	for range numCols {
		b.WriteString("---:|")
	}
	b.WriteString("\n")
	for t := range numTruths {
		if !t.scored() {
			continue // not in the settled matrix
		}
		fmt.Fprintf(b, "| %s |", t)
		for c := range numCols {
			n := m[t][c]
			switch {
			case n == 0:
				b.WriteString(" · |")
			case c == t.Want():
				fmt.Fprintf(b, " **%d** |", n)
			default:
				fmt.Fprintf(b, " %d |", n)
			}
		}
		b.WriteString("\n")
	}
}

func secs(s float64) string {
	return shortDur((time.Duration(s) * time.Second).Round(time.Second))
}

// The benchmark's defaults: the published report and the guard test run
// these.
const (
	DefaultSeed      = 1
	DefaultScenarios = 240
	DefaultLength    = time.Hour
)
