package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/fixture"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/render/metrics"
)

// TestServeDocsNameRealMetrics: every kgroups_ metric the serve page,
// the alerting rules and the dashboard name is one the exporter renders,
// and the dashboard is valid JSON. A renamed metric fails here, not in
// someone's Grafana.
func TestServeDocsNameRealMetrics(t *testing.T) {
	known := map[string]bool{"kgroups_last_poll_age_seconds": true}
	l := lag.NewTracker(lag.Config{MinDistance: time.Nanosecond})
	var s *kafka.Snapshot
	for i := range 12 {
		s = fixture.Evolving(i)
		l.Add(s)
	}
	fams, _ := metrics.Groups(s, l, metrics.Options{Granularity: metrics.ByPartition})
	e := metrics.Exporter{}
	for _, f := range append(fams.List(), e.Families()...) {
		known[f.Name] = true
	}
	dir := filepath.Join("..", "..", "docs")
	name := regexp.MustCompile(`kgroups_[a-z_]+[a-z]`)
	for _, file := range []string{"serve.md", "serve/alerts.yml", "serve/alerts.test.yml", "serve/dashboard.json"} {
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range name.FindAllString(string(b), -1) {
			if !known[n] {
				t.Errorf("%s names %s, which kgroups serve does not export", file, n)
			}
		}
		if filepath.Ext(file) == ".json" && !json.Valid(b) {
			t.Errorf("%s is not valid JSON", file)
		}
	}
}
