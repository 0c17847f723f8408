// Command exporterbench measures a Prometheus exporter of consumer-group
// metrics against an in-process cluster: how long a scrape takes, how many
// series it returns, and the exporter's RSS and CPU while it is scraped
// as Prometheus would. It is a measuring tool kept with the code, not part
// of the kgroups binary, and it measures any exporter from outside, given
// its command line and the URL of its metrics, so that kgroups and other
// exporters are measured the same way on the same cluster:
//
//	go run ./cmd/exporterbench -exporter /path/to/kminion \
//	    -env KAFKA_BROKERS={brokers} -env EXPORTER_HOST=127.0.0.1 -env EXPORTER_PORT=9308 \
//	    -url http://127.0.0.1:9308/metrics -group-metric kminion_kafka_consumer_group_info
//
// The cluster is three kfake brokers in this process, seeded as
// cmd/uibench and cmd/floorbench seed theirs, or with -cluster a real
// Kafka cluster seeded the same way. {brokers} in the command
// line and in -env is replaced by the brokers' addresses, separated by
// commas. Linux only: it
// reads /proc. It imports no kgroups package.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"regexp"
	"strings"
	"time"

	"github.com/kgroups/kgroups/cmd/benchseed"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "exporterbench:", err)
		os.Exit(1)
	}
}

type options struct {
	benchseed.Layout
	scale        bool // -scale: benchseed.ScaleGroups groups
	exporter     []string
	env          []string
	url          string
	groupMetric  *regexp.Regexp
	metricName   string // -group-metric as given
	readySeries  int
	readyTimeout time.Duration
	interval     time.Duration
	duration     time.Duration
	logFile      string
	brokers      []string // -cluster: a real cluster's brokers
}

func parseFlags(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("exporterbench", flag.ContinueOnError)
	fs.IntVar(&o.Groups, "groups", 10000, "Empty groups in the cluster")
	fs.IntVar(&o.Topics, "topics", 20, "topics; group i commits every partition of topic i mod topics")
	fs.IntVar(&o.Partitions, "partitions", 12, "partitions a topic")
	fs.IntVar(&o.LagEvery, "lag-every", 0, "every nth group lags 3 records a partition (0: none lags)")
	fs.BoolVar(&o.scale, "scale", false, "scale mode: 50,000 groups, 600,000 committed partitions (-groups 50000)")
	var exporter, groupMetric string
	fs.StringVar(&exporter, "exporter", "", "the exporter's command line, split at spaces; {brokers} is replaced by the cluster's addresses")
	fs.Func("env", "NAME=VALUE in the exporter's environment besides PATH and HOME (repeat the flag for more); {brokers} is replaced", func(kv string) error {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return fmt.Errorf("want NAME=VALUE, got %q", kv)
		}
		o.env = append(o.env, kv)
		return nil
	})
	fs.StringVar(&o.url, "url", "", "the exporter's metrics URL, e.g. http://127.0.0.1:9308/metrics")
	fs.StringVar(&groupMetric, "group-metric", "", "regexp of the metric with one series a group (e.g. kminion_kafka_consumer_group_info): the exporter is ready once it has one for every group")
	fs.IntVar(&o.readySeries, "ready-series", 0, "series of -group-metric that make the exporter ready (default -groups)")
	fs.DurationVar(&o.readyTimeout, "ready-timeout", 5*time.Minute, "how long the exporter may take to be ready")
	fs.DurationVar(&o.interval, "interval", 15*time.Second, "scrape interval once ready (Prometheus' default is 15s)")
	fs.DurationVar(&o.duration, "duration", 5*time.Minute, "how long the exporter is measured once ready")
	cluster := fs.String("cluster", "", "seed and measure against this real Kafka cluster (brokers, comma-separated; .ci/kafka up --nodes 3 starts one) instead of an in-process kfake cluster; topics that exist are kept, so a second run measures the same groups")
	fs.StringVar(&o.logFile, "log", "", "write the exporter's output to this file (default: a temporary file, named on failure)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.scale {
		o.Groups = benchseed.ScaleGroups
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q: every setting is a flag (-h lists them)", fs.Args())
	}
	o.exporter = strings.Fields(exporter)
	if *cluster != "" {
		o.brokers = strings.Split(*cluster, ",")
	}
	var err error
	switch {
	case len(o.exporter) == 0:
		return o, errors.New("-exporter is required: the exporter's command line, e.g. -exporter '/tmp/kminion/kminion'")
	case !strings.HasPrefix(o.url, "http://") && !strings.HasPrefix(o.url, "https://"):
		return o, fmt.Errorf("-url %q: want the exporter's metrics URL, http://HOST:PORT/PATH", o.url)
	case groupMetric == "":
		return o, errors.New("-group-metric is required: the regexp of a metric with one series a group, e.g. kminion_kafka_consumer_group_info")
	case o.Layout.Check() != nil:
		return o, o.Layout.Check()
	case o.interval <= 0 || o.duration < o.interval || o.readyTimeout <= 0:
		return o, fmt.Errorf("-interval and -ready-timeout must be positive and -duration at least -interval (got %s, %s, %s)", o.interval, o.readyTimeout, o.duration)
	case o.readySeries < 0:
		return o, fmt.Errorf("-ready-series must be 0 (as many as -groups) or more (got %d)", o.readySeries)
	}
	o.metricName = groupMetric
	if o.groupMetric, err = regexp.Compile("^(?:" + groupMetric + ")$"); err != nil {
		return o, fmt.Errorf("-group-metric %q: %w", groupMetric, err)
	}
	if o.readySeries == 0 {
		o.readySeries = o.Groups
	}
	return o, nil
}

// substitute replaces {brokers} in each of ss with the brokers' addresses,
// separated by commas.
func substitute(ss []string, brokers []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ReplaceAll(s, "{brokers}", strings.Join(brokers, ","))
	}
	return out
}

func run() error {
	o, err := parseFlags(os.Args[1:])
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	t0 := time.Now()
	addrs, brokersName := o.brokers, fmt.Sprintf("real Kafka, %d brokers (%s)", len(o.brokers), strings.Join(o.brokers, ","))
	if len(addrs) > 0 {
		if err := benchseed.FillReal(ctx, addrs, o.Layout); err != nil {
			return err
		}
	} else {
		kc, err := benchseed.StartKfake(ctx, o.Layout)
		if err != nil {
			return err
		}
		defer kc.Close()
		addrs, brokersName = kc.ListenAddrs(), "3 kfake brokers"
	}
	fmt.Printf("cluster: %s, %s (filled in %s)\n", brokersName, o.Layout.Describe(), time.Since(t0).Round(time.Millisecond))

	r, err := measure(ctx, o, substitute(o.exporter, addrs), substitute(o.env, addrs))
	if err != nil {
		return err
	}
	r.print(o)
	return nil
}
