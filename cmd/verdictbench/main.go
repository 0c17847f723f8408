// Command verdictbench scores kgroups' lag verdicts against ground truth
// (kafka/lag/verdictbench) and prints the report docs/lag-health.md
// publishes:
//
//	go run ./cmd/verdictbench [-seed 1] [-n 240] [-length 1h] [-v]
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
	verbose := flag.Bool("v", false, "list examples of wrong settled verdicts")
	flag.Parse()
	if *n <= 0 || *length < time.Minute {
		fmt.Fprintln(os.Stderr, "verdictbench: -n must be above 0 and -length at least 1m")
		os.Exit(2)
	}
	start := time.Now()
	r := verdictbench.RunAll(*seed, verdictbench.Scenarios(*seed, *n, *length))
	r.Markdown(os.Stdout)
	if *verbose {
		for o, s := range r.Scores {
			keys := make([][2]uint8, 0, len(s.Examples))
			for k := range s.Examples {
				keys = append(keys, k)
			}
			sort.Slice(keys, func(i, j int) bool {
				return keys[i][0] < keys[j][0] || keys[i][0] == keys[j][0] && keys[i][1] < keys[j][1]
			})
			for _, k := range keys {
				for _, e := range s.Examples[k] {
					fmt.Printf("%s %s as %s: %s\n", verdictbench.Observer(o), verdictbench.Truth(k[0]), verdictbench.Col(k[1]), e)
				}
			}
		}
	}
	fmt.Fprintf(os.Stderr, "verdictbench: %d scenarios in %s\n", *n, time.Since(start).Round(time.Millisecond))
}
