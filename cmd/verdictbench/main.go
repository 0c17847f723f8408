// Command verdictbench scores kgroups' lag verdicts against ground truth
// (kafka/lag/verdictbench) and prints the report docs/lag-health.md
// publishes:
//
//	go run ./cmd/verdictbench [-seed 1] [-n 240] [-length 1h] [-v]
//	go run ./cmd/verdictbench -trace s028 [-observer ui|serve|health]
//
// -trace prints one scenario's verdicts poll by poll, as the observer
// judged them (verdictbench.Trace): how a wrong cell that -v lists is
// looked into.
package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/kgroups/kgroups/kafka/lag/verdictbench"
)

func main() {
	seed := flag.Uint64("seed", verdictbench.DefaultSeed, "the scenarios' seed")
	n := flag.Int("n", verdictbench.DefaultScenarios, "how many scenarios")
	length := flag.Duration("length", verdictbench.DefaultLength, "each scenario's length")
	verbose := flag.Bool("v", false, "list the scenarios behind each wrong settled cell and target, with the times of a target's polls and each decided change of those that change beyond their truth")
	examples := flag.Int("examples", 3, "with -v, how many scenarios per cell")
	trace := flag.String("trace", "", "print this scenario's verdicts poll by poll (a name from -v: s028)")
	observer := flag.String("observer", "ui", "with -trace, whose verdicts: ui, serve or health")
	flag.Parse()
	if *n <= 0 || *length < time.Minute {
		fmt.Fprintln(os.Stderr, "verdictbench: -n must be above 0 and -length at least 1m")
		os.Exit(2)
	}
	if *trace != "" {
		os.Exit(traceOne(*seed, *n, *length, *trace, *observer))
	}
	start := time.Now()
	r := verdictbench.RunAll(*seed, verdictbench.Scenarios(*seed, *n, *length))
	if err := r.Markdown(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "verdictbench:", err)
		os.Exit(1)
	}
	if *verbose {
		for o, s := range r.Scores {
			keys := make([][2]uint8, 0, len(s.Wrong))
			for k := range s.Wrong {
				keys = append(keys, k)
			}
			sort.Slice(keys, func(i, j int) bool {
				return keys[i][0] < keys[j][0] || keys[i][0] == keys[j][0] && keys[i][1] < keys[j][1]
			})
			for _, k := range keys {
				type sn struct {
					d string
					n int
				}
				var top []sn
				for d, n := range s.Wrong[k] {
					top = append(top, sn{d, n})
				}
				sort.Slice(top, func(i, j int) bool { return top[i].n > top[j].n || top[i].n == top[j].n && top[i].d < top[j].d })
				what := fmt.Sprintf("%s as %s", verdictbench.Truth(k[0]), verdictbench.Col(k[1]))
				switch k {
				case [2]uint8{255, 0}:
					what = "OK while the time lag grew"
				case [2]uint8{255, 1}:
					what = "STALL within the rhythm"
				case [2]uint8{255, 2}:
					what = "verdict changes beyond one per change of truth"
				}
				for _, e := range top[:min(len(top), *examples)] {
					unit := "polls"
					if k == [2]uint8{255, 2} {
						unit = "changes"
					}
					fmt.Printf("%s %s: %d %s: %s\n", verdictbench.Observer(o), what, e.n, unit, e.d)
				}
			}
		}
	}
	fmt.Fprintf(os.Stderr, "verdictbench: %d scenarios in %s\n", *n, time.Since(start).Round(time.Millisecond))
}

// traceOne prints scenario name's verdicts as observer judged them, and
// returns the exit code.
func traceOne(seed uint64, n int, length time.Duration, name, observer string) int {
	var o verdictbench.Observer
	switch observer {
	case "ui":
		o = verdictbench.UI
	case "serve":
		o = verdictbench.Serve
	case "health":
		o = verdictbench.Health
	default:
		fmt.Fprintf(os.Stderr, "verdictbench: -observer %q: want ui, serve or health\n", observer)
		return 2
	}
	for _, sc := range verdictbench.Scenarios(seed, n, length) {
		if sc.Name == name {
			if err := verdictbench.Trace(os.Stdout, &sc, o); err != nil {
				fmt.Fprintln(os.Stderr, "verdictbench:", err)
				return 1
			}
			return 0
		}
	}
	fmt.Fprintf(os.Stderr, "verdictbench: no scenario %q among the %d of seed %d: names run s000 to s%03d\n", name, n, seed, n-1)
	return 2
}
