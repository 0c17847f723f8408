package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/fixture"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/watch"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/render"
)

// verdictPolls are the polls both sides of TestHealthJudgesAsTheUI see: the
// evolving fixture (a group for every verdict, and groups whose lag is
// unknown) and two groups on topic events whose second partition appears
// only at the last poll, 500 behind, with no time lag yet:
//
//	grown    events/0 caught up at every poll: a History's maximum time lag
//	         is that partition's 0s, which must not pass for the group's.
//	widened  events/0 50 behind at every poll, committing as fast as the
//	         producer writes (keeping up with a delay, never WARN): its
//	         known time lag is only a lower bound of the group's.
func verdictPolls(n int) []*kafka.Snapshot {
	var out []*kafka.Snapshot
	for i := range n {
		s := fixture.Evolving(i)
		end := 1000 + 25*int64(i)
		grown := kafka.Group{Name: "grown", Type: kafka.TypeClassic, ProtocolType: "consumer", State: kafka.StateEmpty,
			Partitions: []kafka.PartitionOffsets{fixture.Part("events", 0, end, 0, end, nil)}}
		widened := kafka.Group{Name: "widened", Type: kafka.TypeClassic, ProtocolType: "consumer", State: kafka.StateEmpty,
			Partitions: []kafka.PartitionOffsets{fixture.Part("events", 0, end-50, 0, end, nil)}}
		if i == n-1 {
			grown.Partitions = append(grown.Partitions, fixture.Part("events", 1, 0, 0, 500, nil))
			widened.Partitions = append(widened.Partitions, fixture.Part("events", 1, 0, 0, 500, nil))
		}
		s.Groups = append(s.Groups, grown, widened)
		sort.Slice(s.Groups, func(a, b int) bool { return s.Groups[a].Name < s.Groups[b].Name })
		out = append(out, s)
	}
	return out
}

// TestHealthJudgesAsTheUI feeds the same polls to `kgroups health` (its
// whole path from sampling to the printed table and JSON) and to the
// tracker the UI judges with, and requires the same verdict and the same
// maximum time lag for every group: in particular "-" and null, not 0s,
// for a group 500 behind whose lagging partition has no time lag yet.
func TestHealthJudgesAsTheUI(t *testing.T) {
	names := []string{"analytics-etl", "billing-reconciler", "fraud-scoring", "grown", "inventory-sync",
		"legacy-audit", "orders-app", "shipping-notifier", "widened"}
	p, err := parseHealth(names, healthFlags{window: time.Minute, interval: 5 * time.Second, format: formatTable})
	if err != nil {
		t.Fatal(err)
	}
	polls := verdictPolls(p.polls)

	// The UI: the tracker, fed every poll with the command's configuration.
	tr := lag.NewTracker(p.cfg)
	for _, s := range polls {
		tr.Add(s)
	}
	ui := make([]lag.Verdict, len(names))
	for i, name := range names {
		ui[i] = tr.Named(name)
	}

	health := func(format string) string {
		t.Helper()
		hp := p
		hp.format = format
		var stdout, stderr bytes.Buffer
		next := 0
		poll := func(context.Context) (*kafka.Snapshot, error) {
			s := polls[next]
			next++
			return s, nil
		}
		a := newApp(strings.NewReader(""), &stdout, &stderr, func(k string) string {
			if k == "LANG" {
				return "C.UTF-8"
			}
			return ""
		})
		err := sampleHealth(context.Background(), a, poll, hp)
		// shipping-notifier's offsets could not be fetched: exit 1, after
		// the verdicts.
		var ec exitCodeError
		if !errors.As(err, &ec) || ec.code != exitError || next != len(polls) {
			t.Fatalf("health: %v after %d of %d polls; stderr:\n%s", err, next, len(polls), stderr.String())
		}
		return stdout.String()
	}

	// The table's summary is the UI's verdicts, cell for cell.
	table := health(formatTable)
	summary, _, _ := strings.Cut(table, "\n\n")
	rows := make([]*lag.Verdict, len(ui))
	for i := range ui {
		rows[i] = &ui[i]
	}
	// The CAUSE column, last, is the groups screen's cause (diagnose.GlanceAt):
	// the verdicts are the columns before it.
	verdicts := withoutColumn(summary, "CAUSE")
	if want := strings.TrimSuffix(render.Table(render.HealthColumns(format.AtLeastUnicode), rows), "\n"); verdicts != want {
		t.Errorf("health table:\n%s\nthe UI's verdicts:\n%s", verdicts, want)
	}
	// And exactly this, with the UI's time lags (two units at most) and
	// rates (one decimal below 10, whole numbers above). grown is 500
	// behind with no time lag known for the partition that lags: its time
	// lag is unknown, not 0s, and its verdict is JUDGING until events/1
	// has a full window (1 of 10 observations). widened's known 10s is
	// only a lower bound; its events/0 never caught up but keeps pace (OK),
	// so it is JUDGING like grown. orders-app's
	// refunds/0 has had a live owner and no commit for the whole window:
	// WARN NO-COMMITS. The causes the polls know: billing-reconciler
	// consumes 12/s of 20/s with a lag past what is in flight;
	// fraud-scoring's first member stopped committing on both its
	// partitions. inventory-sync's REWIND has no cause as severe as itself.
	// A JUDGING verdict's cause is why it waits: grown and widened for
	// the observations of events/1. fraud-scoring committed at poll 1
	// after a caught-up poll 0, payments/1 at poll 2 too (two waits of
	// 5s: its rhythm), and stood since: its lag and its exact 55s time
	// lag are from those commits, and the moves count in its consume
	// rate over the 13 polls.
	// grown and widened are Empty with no members: their commits move,
	// but a move nobody consumed (a reset, another tool's write) is not
	// consumption, so they consume 0.0/s.
	expectText(t, "summary", summary+"\n", lines(
		"GROUP               STATUS           TOTAL-LAG  MAX-TIME-LAG  PRODUCE/S  CONSUME/S  CAUSE",
		"analytics-etl       OK                       0            0s         20         20  -",
		"billing-reconciler  WARN                  1249        ≥1m00s         20         12  slower than producers",
		"fraud-scoring       ERR STALL              800           55s         15        1.7  member not committing",
		"grown               JUDGING 1/10           500             -        5.0        0.0  watched 1 of the 10 observations a verdict needs",
		"inventory-sync      ERR REWIND             626           31s         20         13  -",
		"legacy-audit        ERR STOP            498150        ≥1m00s        5.0        0.0  no members while watched",
		"orders-app          WARN NO-COMMITS         82           16s         35         31  -",
		"shipping-notifier   -                        -             -         10          -  -",
		"widened             JUDGING 1/10           550          ≥10s        5.0        0.0  watched 1 of the 10 observations a verdict needs",
	))

	// The JSON says the same, with null for what is unknown.
	var doc healthJSON
	if err := json.Unmarshal([]byte(health(formatJSON)), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Groups) != len(names) {
		t.Fatalf("%d groups in JSON, want %d", len(doc.Groups), len(names))
	}
	for i, g := range doc.Groups {
		v := &ui[i]
		wantVerdict, wantSec := v.Text(), math.Round(v.MaxTimeLag.Seconds*1000)/1000
		gotVerdict := lag.NoVerdict
		if g.Verdict != nil {
			gotVerdict = *g.Verdict
		}
		if g.Group != names[i] || gotVerdict != wantVerdict || g.MaxTimeLagKind != v.MaxTimeLag.Kind.String() ||
			(g.MaxTimeLagSeconds == nil) != !v.MaxTimeLag.Known() || (g.MaxTimeLagSeconds != nil && *g.MaxTimeLagSeconds != wantSec) {
			t.Errorf("JSON %s: verdict %q, max time lag %v %s; the UI says %q, %+v", g.Group, gotVerdict, g.MaxTimeLagSeconds, g.MaxTimeLagKind, wantVerdict, v.MaxTimeLag)
		}
	}
	if g := doc.Groups[3]; g.Group != "grown" || g.Verdict == nil || *g.Verdict != "JUDGING 1/10" || g.Judging == nil || g.Judging.Observations != 1 || g.Judging.Window != 10 ||
		g.MaxTimeLagSeconds != nil || g.MaxTimeLagKind != "unknown" || g.TotalLag == nil || *g.TotalLag != 500 {
		t.Errorf("grown in JSON: %+v; want verdict JUDGING 1/10, judging 1 of 10, max time lag null (unknown), total lag 500", g)
	} else if want := "watched 1 of the 10 observations a verdict needs"; g.Judging.Reason != want {
		t.Errorf("grown's judging reason %q, want %q", g.Judging.Reason, want)
	}
	for _, g := range doc.Groups {
		if (g.Judging != nil) != (g.Group == "grown" || g.Group == "widened") {
			t.Errorf("%s in JSON: judging %+v; only grown and widened are judging", g.Group, g.Judging)
		}
	}
	if g := doc.Groups[6]; g.Group != "orders-app" || g.Verdict == nil || *g.Verdict != "WARN NO-COMMITS" || g.Status != "NO-COMMITS" || g.Severity != "WARN" ||
		len(g.Partitions) != 7 || g.Partitions[6].Topic != "refunds" || g.Partitions[6].Status != "NO-COMMITS" || g.Partitions[6].CommittedOffset != nil {
		t.Errorf("orders-app in JSON: %+v; want WARN NO-COMMITS, refunds/0 NO-COMMITS without a committed offset", g)
	}
}

// withoutColumn cuts the column titled title, and what follows it, from
// every line of a table.
func withoutColumn(table, title string) string {
	ls := strings.Split(table, "\n")
	i := strings.Index(ls[0], "  "+title)
	if i < 0 {
		return table
	}
	cut := len([]rune(ls[0][:i]))
	for k, l := range ls {
		if r := []rune(l); len(r) > cut {
			ls[k] = strings.TrimRight(string(r[:cut]), " ")
		}
	}
	return strings.Join(ls, "\n")
}

// TestJudgingCauseWidensPastNeed: the --window a JUDGING cause names
// spans more than the silence the verdict waits for, since the rules
// call STALL only once the silence passes Need: a window of Need and a
// poll, in whole minutes, one more where that rounds to Need itself.
func TestJudgingCauseWidensPastNeed(t *testing.T) {
	for _, tc := range []struct {
		interval, need time.Duration
		want           string
	}{
		{5 * time.Second, 15 * time.Minute, "STALL after 15m unless it commits; widen --window to 16m00s"},
		{30 * time.Second, 15 * time.Minute, "STALL after 15m unless it commits; widen --window to 16m00s"},
		{5 * time.Second, 8*time.Minute + 10*time.Second, "STALL after 8m10s unless it commits; widen --window to 9m00s"},
		{45 * time.Second, 5 * time.Minute, "STALL after 5m unless it commits; widen --window to 6m00s"},
	} {
		cfg, _ := watch.Config(2*time.Minute, tc.interval)
		v := &lag.Verdict{Known: true, Observations: cfg.Window, Window: cfg.Window, GroupHealth: lag.GroupHealth{
			Status: lag.StatusOK,
			Wait:   lag.Wait{Kind: lag.WaitRhythm, Silence: 2 * time.Minute, Need: tc.need, Then: lag.StatusStall},
		}}
		want := "no commit in 2m and no rhythm seen yet: " + tc.want
		if got := judgingCause(v, cfg); got != want {
			t.Errorf("interval %v, need %v: %q, want %q", tc.interval, tc.need, got, want)
		}
	}
}
