package diagnose_test

import (
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/kafka/fixture"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/rebalance"
)

// BenchmarkDiagnose2000Groups applies every rule to 2,000 groups of four
// partitions after ten polls, as `kgroups diagnose --all-groups` does once
// its window is sampled: evaluating and judging each group, then the
// rules. It reports the time of one such round.
func BenchmarkDiagnose2000Groups(b *testing.B) {
	const groups = 2000
	cfg := lag.DefaultConfig()
	h := lag.NewHistory(cfg)
	tl := rebalance.NewTimeline(rebalance.TimelineConfig{})
	var first, last *kafka.Snapshot
	for i := range 10 {
		s := fixture.ManyGroups(groups)
		s.Time = fixture.Epoch.Add(time.Duration(i) * 5 * time.Second)
		s.PartitionCounts = make(map[string]int32, groups)
		for g := range s.Groups {
			s.PartitionCounts["topic-"+s.Groups[g].Name] = 4
		}
		h.Add(s)
		tl.Add(s)
		if first == nil {
			first = s
		}
		last = s
	}
	firstGroups := make([]*kafka.Group, groups)
	for i := range first.Groups {
		firstGroups[i] = &first.Groups[i]
	}
	reads := &diagnose.Reads{}
	b.ReportAllocs()
	b.ResetTimer()
	findings := 0
	for range b.N {
		findings = 0
		lastGroups := make([]*kafka.Group, groups)
		for i := range last.Groups {
			lastGroups[i] = &last.Groups[i]
		}
		reads.Stable = diagnose.Trailing(firstGroups, lastGroups)
		var buf []lag.PartitionHealth
		var events []rebalance.Event
		for i := range last.Groups {
			g := &last.Groups[i]
			gh, _ := h.EvaluateInto(g.Name, last.Time, buf)
			buf = gh.Partitions[:0]
			events = tl.Events(g.Name, events)
			findings += len(diagnose.Diagnose(diagnose.Input{
				Group: g, PartitionCounts: last.PartitionCounts, Verdict: lag.Judge(gh, cfg.Window),
				Events: events, Since: first.Time, Now: last.Time, Reads: reads,
			}))
		}
	}
	b.ReportMetric(float64(findings), "findings")
}
