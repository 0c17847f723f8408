package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestCountSeries(t *testing.T) {
	body := []byte(`# HELP kminion_kafka_consumer_group_info Consumer Group info metrics.
# TYPE kminion_kafka_consumer_group_info gauge
kminion_kafka_consumer_group_info{group_id="a",state="Empty"} 0
kminion_kafka_consumer_group_info{group_id="b",state="Empty"} 0
kminion_kafka_consumer_group_info_total 3

kminion_kafka_consumer_group_topic_lag{group_id="a",topic_name="t"} 7
up 1
# EOF
`)
	series, group := countSeries(body, regexp.MustCompile(`^(?:kminion_kafka_consumer_group_info)$`))
	if series != 5 || group != 2 {
		t.Errorf("counted %d series, %d of the group metric; want 5 and 2", series, group)
	}
}

func TestPercentile(t *testing.T) {
	var ds []time.Duration
	for i := 1; i <= 200; i++ {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	for _, c := range []struct {
		p    int
		want time.Duration
	}{{50, 100 * time.Millisecond}, {99, 198 * time.Millisecond}, {100, 200 * time.Millisecond}} {
		if got := percentile(ds, c.p); got != c.want {
			t.Errorf("p%d of 1..200ms = %s, want %s", c.p, got, c.want)
		}
	}
	if got := percentile(ds[:1], 99); got != time.Millisecond {
		t.Errorf("p99 of one scrape = %s, want it", got)
	}
}

func TestFlags(t *testing.T) {
	o, err := parseFlags([]string{"-exporter", "/bin/exp --kafka {brokers}", "-env", "B={brokers}", "-env", "X=1",
		"-url", "http://127.0.0.1:9308/metrics", "-group-metric", "g_info"})
	if err != nil {
		t.Fatal(err)
	}
	brokers := []string{"127.0.0.1:1", "127.0.0.1:2"}
	if got, want := substitute(o.exporter, brokers), []string{"/bin/exp", "--kafka", "127.0.0.1:1,127.0.0.1:2"}; !slices.Equal(got, want) {
		t.Errorf("command line %q, want %q", got, want)
	}
	if got, want := substitute(o.env, brokers), []string{"B=127.0.0.1:1,127.0.0.1:2", "X=1"}; !slices.Equal(got, want) {
		t.Errorf("environment %q, want %q", got, want)
	}
	if o.brokers != nil {
		t.Errorf("brokers %q without -cluster, want none (an in-process cluster)", o.brokers)
	}
	o2, err := parseFlags([]string{"-exporter", "e", "-url", "http://x/metrics", "-group-metric", "g", "-cluster", "127.0.0.1:1,127.0.0.1:2"})
	if err != nil || !slices.Equal(o2.brokers, brokers) {
		t.Errorf("-cluster: brokers %q, %v; want %q", o2.brokers, err, brokers)
	}
	if o.readySeries != o.Groups || !o.groupMetric.MatchString("g_info") || o.groupMetric.MatchString("g_info_x") {
		t.Errorf("ready at %d series of %v, want %d of exactly g_info", o.readySeries, o.groupMetric, o.Groups)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-url", "http://x/metrics", "-group-metric", "g"}, "-exporter is required"},
		{[]string{"-exporter", "e", "-url", "127.0.0.1:9308", "-group-metric", "g"}, "want the exporter's metrics URL"},
		{[]string{"-exporter", "e", "-url", "http://x/metrics"}, "-group-metric is required"},
		{[]string{"-exporter", "e", "-url", "http://x/metrics", "-group-metric", "g", "-env", "X"}, "want NAME=VALUE"},
		{[]string{"-exporter", "e", "-url", "http://x/metrics", "-group-metric", "g", "-duration", "1s"}, "-duration at least -interval"},
		{[]string{"-exporter", "e", "-url", "http://x/metrics", "-group-metric", "("}, "-group-metric \"(\""},
	} {
		if _, err := parseFlags(c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one saying %q", c.args, err, c.want)
		}
	}
}

func TestFamilies(t *testing.T) {
	got := families([]byte("# TYPE a gauge\na{x=\"1\"} 1\na{x=\"2\"} 2\nb 3\n"))
	if len(got) != 2 || got["a"] != 2 || got["b"] != 1 {
		t.Errorf("families %v, want a: 2, b: 1", got)
	}
}
