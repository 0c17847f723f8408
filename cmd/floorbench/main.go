// Command floorbench compares kgroups with its floor: a bare program that
// makes the same Kafka reads through kadm and discards the answers. It
// starts a three-broker in-process cluster (kfake) of Empty groups with
// committed offsets, builds kgroups, and runs the floor and kgroups'
// commands against it as processes, in turn, several times each. It prints
// each command's median wall time and peak RSS, its ratio to the floor's and
// whether it meets its target.
//
//	go run ./cmd/floorbench [-groups 2000] [-topics 20] [-partitions 12] [-runs 5] [-baseline OLD-KGROUPS]
//
// It is a measuring tool, not part of the kgroups binary.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// scaleGroups is the scale mode's number of groups (-scale), as
// cmd/benchseed's ScaleGroups: 600,000 committed partitions over the
// default 20 topics of 12 partitions.
const scaleGroups = 50000

func main() {
	var s shape
	var runs int
	var floor bool
	var brokers string
	var keep string
	var serveFlag bool
	var extraEnv string
	var baseline string
	flag.IntVar(&s.groups, "groups", 2000, "Empty groups, each committing on every partition of one topic")
	flag.IntVar(&s.topics, "topics", 20, "topics")
	var partitions int
	flag.IntVar(&partitions, "partitions", 12, "partitions per topic")
	flag.IntVar(&s.records, "records", 10, "records written to every partition")
	flag.IntVar(&runs, "runs", 5, "measured runs of every command (the median is reported)")
	flag.BoolVar(&floor, "floor", false, "be the floor: make the bare kadm reads against -brokers and exit")
	flag.StringVar(&brokers, "brokers", "", "with -floor: the brokers, comma-separated")
	flag.BoolVar(&serveFlag, "serve", false, "be the cluster: seed it, check it, print its brokers and keep it up until standard input closes")
	flag.StringVar(&extraEnv, "env", "", "extra environment for kgroups, comma-separated NAME=VALUE pairs (GOGC=200, for example)")
	flag.StringVar(&baseline, "baseline", "", "another kgroups binary (an older build, say) to measure in the same rounds")
	flag.StringVar(&keep, "kgroups", "", "a kgroups binary to measure instead of building ./cmd/kgroups")
	flag.StringVar(&s.cluster, "cluster", "", "seed and measure this real Kafka cluster (brokers, comma-separated; a fresh one, such as .ci/kafka up --nodes 3 starts) instead of an in-process kfake cluster")
	scale := flag.Bool("scale", false, "scale mode: 50,000 groups, 600,000 committed partitions (-groups 50000)")
	flag.Parse()
	if *scale {
		s.groups = scaleGroups
	}
	s.partitions = int32(partitions)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	var err error
	switch {
	case floor:
		err = runFloor(ctx, strings.Split(brokers, ","))
	case serveFlag:
		err = serve(ctx, s, keep)
	default:
		err = compare(ctx, s, runs, keep, baseline, extraEnv)
	}
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "floorbench:", err)
		os.Exit(1)
	}
}

// check validates the flags of a comparison.
func (s shape) check(runs int) error {
	switch {
	case s.groups < 1:
		return fmt.Errorf("-groups %d: give at least 1", s.groups)
	case s.topics < 1:
		return fmt.Errorf("-topics %d: give at least 1", s.topics)
	case s.partitions < 1:
		return fmt.Errorf("-partitions %d: give at least 1", s.partitions)
	case s.records < 0:
		return fmt.Errorf("-records %d: give 0 or more", s.records)
	case runs < 1:
		return fmt.Errorf("-runs %d: give at least 1", runs)
	}
	return nil
}

// requestCounter counts the requests a client writes.
type requestCounter struct{ n atomic.Int64 }

func (c *requestCounter) OnBrokerWrite(_ kgo.BrokerMetadata, _ int16, _ int, _, _ time.Duration, err error) {
	if err == nil {
		c.n.Add(1)
	}
}

var _ kgo.HookBrokerWrite = (*requestCounter)(nil)
