package lag_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/fixture"
	"github.com/kgroups/kgroups/kafka/lag"
)

// lagAfter feeds polls 0 to n-1 of the evolving fixture into a tracker
// with the default configuration and returns it with the last snapshot.
func lagAfter(n int) (*lag.Tracker, *kafka.Snapshot) {
	l := lag.NewTracker(lag.DefaultConfig())
	var s *kafka.Snapshot
	for i := range n {
		s = fixture.Evolving(i)
		l.Add(s)
	}
	return l, s
}

func TestLagVerdictsAndCounts(t *testing.T) {
	l, s := lagAfter(12)
	if ok, warn, bad := l.Counts(); ok != 1 || warn != 2 || bad != 3 || l.Judging() != 0 {
		t.Fatalf("counts = %d OK %d WARN %d ERR %d judging, want 1 2 3 0", ok, warn, bad, l.Judging())
	}
	if !l.Now().Equal(fixture.Epoch.Add(55 * time.Second)) {
		t.Fatalf("now = %v", l.Now())
	}
	want := map[string]string{
		"analytics-etl": "OK", "billing-reconciler": "WARN", "fraud-scoring": "ERR STALL",
		"inventory-sync": "ERR REWIND", "legacy-audit": "ERR STOP",
		// refunds/0 has had a live owner and no commit for a full window.
		"orders-app": "WARN NO-COMMITS",
		// dead; offsets not fetched: nothing to judge.
		"search-indexer": "-", "shipping-notifier": "-",
	}
	for i := range s.Groups {
		name := s.Groups[i].Name
		h := l.Group(s, i)
		if got := h.Text(); got != want[name] {
			t.Errorf("%s: %q, want %q", name, got, want[name])
		}
		if n := l.Named(name); n.Status != h.Status || n.Known != h.Known || n.MaxTimeLag != h.MaxTimeLag {
			t.Errorf("%s: by name %+v, by index %+v", name, n, h)
		}
		if h.Partitions != nil {
			t.Errorf("%s: the summary keeps %d partitions", name, len(h.Partitions))
		}
	}
	if h := l.Named("nope"); h.Known || h.ProduceRate != lag.UnknownRate || h.MaxTimeLag.Known() {
		t.Fatalf("unknown group: %+v", h)
	}
}

// TestJudgingVerdicts: before a full window only the facts would show;
// none is found yet, so every group that can be judged is JUDGING, with
// the observations its verdict rests on. None is OK: not even one that
// is caught up.
func TestJudgingVerdicts(t *testing.T) {
	l, s := lagAfter(3)
	if ok, warn, bad := l.Counts(); ok != 0 || warn != 0 || bad != 0 || l.Judging() != 6 {
		t.Fatalf("counts = %d OK %d WARN %d ERR %d judging, want 0 0 0 6", ok, warn, bad, l.Judging())
	}
	for i, want := range []struct {
		text string
		obs  int
	}{
		{"JUDGING 3/10", 3}, // analytics-etl: caught up, three polls seen
		{"JUDGING 3/10", 3}, {"JUDGING 3/10", 3}, {"JUDGING 3/10", 3},
		{"JUDGING 1/10", 1}, // legacy-audit: nobody commits, one observation
		{"JUDGING 3/10", 3}, // orders-app: refunds/0 owned without a commit for 3 polls
		{"-", 3},            // search-indexer: dead, nothing to judge
		{"-", 3},            // shipping-notifier: its offsets could not be read
	} {
		h := l.Group(s, i)
		if got := h.Text(); got != want.text || h.Observations != want.obs || h.Window != 10 {
			t.Errorf("%s: %q observations %d/%d, want %q %d/10", s.Groups[i].Name, got, h.Observations, h.Window, want.text, want.obs)
		}
	}
}

// TestVerdictsLeaveJudgingOnce: poll by poll, every group's verdict goes
// from JUDGING (or unknown) to one decided verdict and stays there: none
// shows OK first and then something else, none goes back to JUDGING.
func TestVerdictsLeaveJudgingOnce(t *testing.T) {
	l := lag.NewTracker(lag.DefaultConfig())
	first := map[string]string{} // the first decided text
	var seen []string
	for i := range 14 {
		s := fixture.Evolving(i)
		l.Add(s)
		for k := range s.Groups {
			name := s.Groups[k].Name
			h := l.Group(s, k)
			text := h.Text()
			if _, ok := h.Decided(); !ok {
				if f, was := first[name]; was {
					t.Errorf("poll %d: %s went back to %q after %q", i, name, text, f)
				}
				continue
			}
			if f, was := first[name]; was && f != text {
				t.Errorf("poll %d: %s flapped from %q to %q", i, name, f, text)
			} else if !was {
				first[name] = text
				seen = append(seen, fmt.Sprintf("%s@%d=%s", name, i, text))
			}
		}
	}
	// REWIND is a fact and shows as soon as it happens; the rest needs
	// ten observations, 45s at one poll every 5s; WARN, and OK on a time
	// lag past what is in flight, a trend of commits spanning the window
	// as well (billing-reconciler's do at poll 10); STOP and STALL a
	// silence longer than the window spans (fraud-scoring's last commit
	// was at poll 1).
	want := "inventory-sync@8=ERR REWIND analytics-etl@9=OK orders-app@9=WARN NO-COMMITS billing-reconciler@10=WARN legacy-audit@10=ERR STOP fraud-scoring@11=ERR STALL"
	if got := strings.Join(seen, " "); got != want {
		t.Errorf("decided:\n got %s\nwant %s", got, want)
	}
}

// TestIgnoredSnapshotKeepsVerdicts: a snapshot not after the last one is
// ignored by the history; the verdicts stay those of the last accepted
// poll and are found by name.
func TestIgnoredSnapshotKeepsVerdicts(t *testing.T) {
	l, _ := lagAfter(12)
	again := fixture.Evolving(11)
	again.Groups = again.Groups[4:] // same time, fewer groups
	l.Add(again)
	if ok, warn, bad := l.Counts(); ok != 1 || warn != 2 || bad != 3 {
		t.Fatalf("counts = %d %d %d", ok, warn, bad)
	}
	h := l.Group(again, 0) // legacy-audit, index 4 in the accepted poll
	if got := h.Text(); got != "ERR STOP" {
		t.Fatalf("legacy-audit after an ignored poll: %q", got)
	}
}

func TestTrackerGroupSeries(t *testing.T) {
	l, _ := lagAfter(12)
	ps := l.GroupSeries("orders-app", nil)
	lags := l.GroupLagSeries("orders-app", nil)
	if len(ps) != 12 || len(lags) != 12 {
		t.Fatalf("%d points, %d lags, want 12", len(ps), len(lags))
	}
	for i, p := range ps {
		if !p.Time.Equal(fixture.Epoch.Add(time.Duration(i) * fixture.PollEvery)) {
			t.Errorf("point %d at %v", i, p.Time)
		}
		if p.Lag != lags[i] {
			t.Errorf("point %d lag %d, series %d", i, p.Lag, lags[i])
		}
	}
	// One poll has one point per partition: no time lag can be known.
	if ps[0].TimeLag.Known() {
		t.Errorf("first poll time lag %+v", ps[0].TimeLag)
	}
	if got, want := ps[11].TimeLag, l.Named("orders-app").MaxTimeLag; got != want {
		t.Errorf("last point %+v, verdict %+v", got, want)
	}
	if ps[11].Lag != 85 || ps[11].TimeLag != (lag.TimeLag{Seconds: 17, Kind: lag.TimeLagInterpolated}) {
		t.Errorf("last point: lag %d, time lag %+v; want 85 and 17s interpolated", ps[11].Lag, ps[11].TimeLag)
	}
}

// TestSeriesGapsAndEviction: a group missing from a poll has an unknown
// point there; one missing for EvictAfter polls is forgotten.
func TestSeriesGapsAndEviction(t *testing.T) {
	l := lag.NewTracker(lag.Config{EvictAfter: 3})
	without := func(i int) *kafka.Snapshot {
		s := fixture.Evolving(i)
		s.Groups = s.Groups[1:] // no analytics-etl
		return s
	}
	for i := range 4 {
		l.Add(fixture.Evolving(i))
	}
	l.Add(without(4))
	l.Add(fixture.Evolving(5))
	ps := l.GroupSeries("analytics-etl", nil)
	if len(ps) != 6 || ps[4].Lag != kafka.NoOffset || ps[4].TimeLag.Known() || !ps[5].TimeLag.Known() {
		t.Fatalf("series with a gap: %+v", ps)
	}
	for i := 6; i < 9; i++ {
		l.Add(without(i))
	}
	if ps := l.GroupSeries("analytics-etl", nil); len(ps) != 0 {
		t.Fatalf("evicted group still has %d points", len(ps))
	}
}

func TestTrackerPartitionSeries(t *testing.T) {
	l, _ := lagAfter(12)
	gh, _ := l.Evaluate("billing-reconciler", nil)
	p1 := gh.Partitions[1] // invoices/1: behind since before the first poll
	ps := l.PartitionSeries("billing-reconciler", "invoices", 1, p1.TimeLag, nil)
	if len(ps) != 12 {
		t.Fatalf("%d points", len(ps))
	}
	// Behind since before the oldest poll: at least as old as that poll
	// at every poll, never extrapolated, 10 more messages per poll.
	for i, p := range ps {
		want := p.Time.Sub(ps[0].Time).Seconds()
		if p.TimeLag != (lag.TimeLag{Seconds: want, Kind: lag.TimeLagAtLeast}) || p.Lag != 769+10*int64(i) {
			t.Errorf("poll %d: lag %d time lag %+v, want %d and at least %.1fs", i, p.Lag, p.TimeLag, 769+10*i, want)
		}
	}
	if ps[11].TimeLag != p1.TimeLag {
		t.Errorf("latest %+v, verdict %+v", ps[11].TimeLag, p1.TimeLag)
	}
	if ps := l.PartitionSeries("billing-reconciler", "invoices", 9, lag.TimeLag{}, nil); len(ps) != 0 {
		t.Errorf("unknown partition: %+v", ps)
	}
}

func TestSampleTimeLags(t *testing.T) {
	at := func(s int) time.Time { return fixture.Epoch.Add(time.Duration(s) * time.Second) }
	sample := func(s int, c, end int64) lag.Sample {
		l := kafka.NoOffset
		if c >= 0 && end >= 0 {
			l = max(0, end-c)
		}
		return lag.Sample{Time: at(s), Committed: c, LogEnd: end, Lag: l}
	}
	show := func(ps []lag.Point) string {
		var out []string
		for _, p := range ps {
			out = append(out, fmt.Sprintf("%s:%.1f", p.TimeLag.Kind, p.TimeLag.Seconds))
		}
		return strings.Join(out, " ")
	}
	tests := []struct {
		name string
		ss   []lag.Sample
		want string
	}{
		{"interpolated between the polls around the commit",
			// The log end grew 4 offsets a second from 120 at 10s to
			// 160 at 20s: it passed 100 before 10s (the poll at 0s
			// saw 100), 150 at 17.5s and 155 at 18.75s.
			[]lag.Sample{sample(0, 100, 100), sample(10, 100, 120), sample(20, 150, 160), sample(30, 155, 200)},
			"caught-up:0.0 interpolated:10.0 interpolated:2.5 interpolated:11.2"},
		{"no commit and unknown log end",
			[]lag.Sample{sample(0, kafka.NoOffset, 10), sample(5, 3, kafka.NoOffset)},
			"unknown:0.0 unknown:0.0"},
		{"behind since before the ring: at least the ring's age, never extrapolated",
			[]lag.Sample{sample(0, 80, 100), sample(10, 80, 100), sample(20, 80, 120)},
			"at-least:0.0 at-least:10.0 at-least:20.0"},
		{"a log that never grew: at least the ring's age",
			[]lag.Sample{sample(0, 80, 100), sample(10, 80, 100), sample(25, 80, 100)},
			"at-least:0.0 at-least:10.0 at-least:25.0"},
		{"a dip in the log end does not move time back",
			[]lag.Sample{sample(0, 100, 100), sample(10, 100, 200), sample(20, 150, 180), sample(30, 150, 300)},
			"caught-up:0.0 interpolated:10.0 interpolated:15.0 interpolated:25.0"},
		{"one known log end: no rate, so unknown, as the History says",
			[]lag.Sample{sample(0, 5, kafka.NoOffset), sample(10, 5, 10)},
			"unknown:0.0 unknown:0.0"},
		{"leading polls without a log end",
			// The first known log end is 10 at 10s: 5 was written
			// before it.
			[]lag.Sample{sample(0, 5, kafka.NoOffset), sample(10, 5, 10), sample(20, 5, 20)},
			"unknown:0.0 at-least:0.0 at-least:10.0"},
	}
	for _, tt := range tests {
		if got := show(lag.SampleTimeLags(tt.ss, nil)); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
}

// TestSampleTimeLagsAgreeWithTheHistory: a chart's latest point and the
// History's estimate for the same polls are one computation, so they are
// equal to the last bit wherever the two tables hold the same points.
func TestSampleTimeLagsAgreeWithTheHistory(t *testing.T) {
	for _, tt := range []struct {
		name      string
		ends      []int64 // log end per poll, one second apart (from 0.25s)
		committed int64   // at every poll
	}{
		{"interpolated", []int64{100, 130, 170, 240, 300}, 150},
		{"on a point", []int64{100, 130, 170, 240, 300}, 170},
		{"flat run, then growth", []int64{100, 100, 100, 100, 180}, 120},
		{"older than the points", []int64{100, 100, 130, 170, 240}, 40},
		{"never grew", []int64{100, 100, 100}, 40},
		{"caught up", []int64{100, 130}, 130},
		{"one poll", []int64{100}, 40},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := lag.NewHistory(lag.DefaultConfig())
			var now time.Time
			for i, end := range tt.ends {
				now = fixture.Epoch.Add(250*time.Millisecond + time.Duration(i)*time.Second + time.Duration(i*i)*time.Millisecond)
				h.Add(&kafka.Snapshot{Time: now, Groups: []kafka.Group{{Name: "g", Partitions: []kafka.PartitionOffsets{
					fixture.Part("t", 0, tt.committed, 0, end, nil),
				}}}})
			}
			gh, _ := h.Evaluate("g", now)
			ps := lag.SampleTimeLags(h.PartitionSeries("g", "t", 0, nil), nil)
			if got, want := ps[len(ps)-1].TimeLag, gh.Partitions[0].TimeLag; got != want {
				t.Errorf("chart %+v, History %+v", got, want)
			}
		})
	}
}

// Once the groups and partitions are known, a poll allocates nothing:
// adding the snapshot, judging every group and recording the series.
func TestTrackerSteadyStateAllocations(t *testing.T) {
	l := lag.NewTracker(lag.DefaultConfig())
	s := fixture.ManyGroups(50)
	base := s.Time
	poll := 0
	add := func() {
		s.Time = base.Add(time.Duration(poll) * fixture.PollEvery)
		for g := range s.Groups {
			for i := range s.Groups[g].Partitions {
				p := &s.Groups[g].Partitions[i]
				p.LogEnd += 3
				p.Committed += 2
				p.Lag = p.LogEnd - p.Committed
			}
		}
		l.Add(s)
		poll++
	}
	for range 70 { // past the rings
		add()
	}
	if allocs := testing.AllocsPerRun(50, add); allocs != 0 {
		t.Errorf("a steady-state poll allocates %v times, want 0", allocs)
	}
	if v := l.Named("group-00001"); !v.Known || !v.MaxTimeLag.Known() {
		t.Errorf("the tracker judged nothing: %+v", v)
	}
}

// BenchmarkLagAdd is the root's work per poll: add the snapshot to the
// history and judge every group, for 10,000 groups of 4 partitions and
// for one group of 50,000 partitions, once the history is warm.
func BenchmarkLagAdd(b *testing.B) {
	for _, bc := range []struct {
		name string
		s    *kafka.Snapshot
	}{
		{"groups=10000", fixture.ManyGroups(10_000)},
		{"partitions=50000", fixture.BigGroup(50_000)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			l := lag.NewTracker(lag.Config{})
			at := func(i int) *kafka.Snapshot {
				p := *bc.s
				p.Time = bc.s.Time.Add(time.Duration(i) * 5 * time.Second)
				return &p
			}
			for i := range 70 { // past the ring, so nothing grows
				l.Add(at(i))
			}
			i := 70
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				l.Add(at(i))
				i++
			}
		})
	}
}

// TestReleaseJudgesAlike: a tracker that lets go of its snapshot between
// polls (Release, as kgroups serve does) gives every group the verdict,
// time lag, rates and series a tracker that keeps it gives, poll after
// poll, and answers as one with no poll while released.
func TestReleaseJudgesAlike(t *testing.T) {
	kept := lag.NewTracker(lag.Config{MinDistance: time.Nanosecond})
	released := lag.NewTracker(lag.Config{MinDistance: time.Nanosecond})
	for i := range 40 {
		s := fixture.Evolving(i)
		released.Release()
		if v := released.Named(s.Groups[0].Name); v.Known {
			t.Fatalf("poll %d: a released tracker still answers %+v", i, v)
		}
		kept.Add(s)
		released.Add(s)
		for g := range s.Groups {
			a, b := kept.Group(s, g), released.Group(s, g)
			if fmt.Sprintf("%+v", a) != fmt.Sprintf("%+v", b) {
				t.Fatalf("poll %d, %s: verdict %+v, released %+v", i, s.Groups[g].Name, b, a)
			}
			ga, gb := kept.GroupSeries(s.Groups[g].Name, nil), released.GroupSeries(s.Groups[g].Name, nil)
			if fmt.Sprint(ga) != fmt.Sprint(gb) {
				t.Fatalf("poll %d, %s: series %v, released %v", i, s.Groups[g].Name, ga, gb)
			}
		}
	}
}
