package columns

import (
	"math"
	"reflect"
	"testing"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
)

func TestSeconds(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{
		{0, "0s"}, {0.999, "0s"}, {12, "12s"}, {12.9, "12s"}, {59.999, "59s"},
		{60, "1m00s"}, {184, "3m04s"}, {3599, "59m59s"}, {3600, "1h00m00s"},
		{7509, "2h05m09s"}, {86399, "23h59m59s"}, {86400, "1d00h00m"},
		{3*86400 + 4*3600 + 10*60 + 59, "3d04h10m"},
		{-5, "0s"}, {math.NaN(), "-"}, {math.Inf(1), "11574074074d01h46m"}, {1e300, "11574074074d01h46m"},
	} {
		if got := Seconds(tc.in); got != tc.want {
			t.Errorf("Seconds(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTimeLagCell(t *testing.T) {
	for _, tc := range []struct {
		in   lag.TimeLag
		want string
	}{
		{lag.TimeLag{}, "-"},
		{lag.TimeLag{Seconds: 42, Kind: lag.TimeLagUnknown}, "-"},
		{lag.TimeLag{Kind: lag.TimeLagCaughtUp}, "0s"},
		{lag.TimeLag{Seconds: 184, Kind: lag.TimeLagExact}, "3m04s"},
		{lag.TimeLag{Seconds: 12.5, Kind: lag.TimeLagInterpolated}, "12s"},
		{lag.TimeLag{Seconds: 90, Kind: lag.TimeLagExtrapolated}, "~1m30s"},
		{lag.TimeLag{Seconds: 2, Kind: lag.TimeLagAtLeast}, "≥2s"},
	} {
		if got := TimeLag(tc.in); got != tc.want {
			t.Errorf("TimeLag(%+v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRate(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{
		{lag.UnknownRate, "-"}, {0, "0.0"}, {2, "2.0"}, {86.0 / 45, "1.9"}, {1234.56, "1234.6"},
		{math.NaN(), "-"}, {math.Inf(1), "-"},
	} {
		if got := Rate(tc.in); got != tc.want {
			t.Errorf("Rate(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTimeLagColumn(t *testing.T) {
	g := &kafka.Group{Name: "g"}
	p := &kafka.PartitionOffsets{Topic: "t", Partition: 3}
	var gotG *kafka.Group
	var gotP *kafka.PartitionOffsets
	col := TimeLagColumn(func(g *kafka.Group, p *kafka.PartitionOffsets) lag.TimeLag {
		gotG, gotP = g, p
		return lag.TimeLag{Seconds: 97, Kind: lag.TimeLagExact}
	})
	if col.Title != "TIME-LAG" || col.Align != Right {
		t.Errorf("column %q aligned %v", col.Title, col.Align)
	}
	if got := col.Value(PartitionRow{Group: g, Partition: p}); got != "1m37s" {
		t.Errorf("cell = %q, want 1m37s", got)
	}
	if gotG != g || gotP != p {
		t.Error("the time lag function was not given the row's group and partition")
	}
}

// healthFixture is three groups as `kgroups health` judges them: a History's
// evaluation through lag.Judge.
func healthFixture() []lag.Verdict {
	var vs []lag.Verdict
	for _, gh := range []lag.GroupHealth{
		{Group: "fine", Status: lag.StatusOK, Complete: true, MaxTimeLag: lag.TimeLag{Kind: lag.TimeLagCaughtUp}, Partitions: []lag.PartitionHealth{
			{Topic: "t", Partition: 0, Status: lag.StatusOK, Committed: 5, LogEnd: 5, Lag: 0},
		}},
		{Group: "bad", Status: lag.StatusRewind, Severity: lag.SeverityErr, TotalLag: 80,
			MaxTimeLag: lag.TimeLag{Seconds: 61, Kind: lag.TimeLagInterpolated}, ProduceRate: 2, ConsumeRate: lag.UnknownRate,
			Partitions: []lag.PartitionHealth{
				{Topic: "a", Partition: 1, Status: lag.StatusRewind, Rewind: lag.Rewind{High: 30, Low: 25}, Committed: 25, LogEnd: 100, Lag: 75},
				{Topic: "a", Partition: 2, Status: lag.StatusOK, Committed: 10, LogEnd: 10, Lag: 0},
				{Topic: "b", Partition: 0, Status: lag.StatusWarn, Committed: 1, LogEnd: 6, Lag: 5, TimeLag: lag.TimeLag{Kind: lag.TimeLagAtLeast, Seconds: 4}},
			}},
		{Group: "never", ProduceRate: lag.UnknownRate, ConsumeRate: lag.UnknownRate, Partitions: []lag.PartitionHealth{{Topic: "t", Partition: 0, Committed: kafka.NoOffset, LogEnd: 9, Lag: kafka.NoOffset}}},
	} {
		vs = append(vs, lag.Judge(gh, 10))
	}
	return vs
}

func TestHealthColumns(t *testing.T) {
	gs := healthFixture()
	var got [][]string
	for i := range gs {
		got = append(got, Cells(HealthColumns(), &gs[i]))
	}
	// bad's a/1 lags with no time lag known: 1m01s is only a lower
	// bound. never has nothing to judge.
	want := [][]string{
		{"fine", "OK", "0", "0s", "0.0", "0.0"},
		{"bad", "ERR REWIND", "80", "≥1m01s", "2.0", "-"},
		{"never", "-", "-", "-", "-", "-"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("cells = %q\nwant    %q", got, want)
	}
	if titles := Titles(HealthColumns()); !reflect.DeepEqual(titles, []string{"GROUP", "STATUS", "TOTAL-LAG", "MAX-TIME-LAG", "PRODUCE/S", "CONSUME/S"}) {
		t.Errorf("titles %q", titles)
	}
}

func TestUnhealthyPartitionRows(t *testing.T) {
	gs := healthFixture()
	rows := UnhealthyPartitionRows(gs)
	var got [][]string
	for _, r := range rows {
		got = append(got, Cells(HealthPartitionColumns(), r))
	}
	want := [][]string{
		{"bad", "a", "1", "REWIND", "25", "100", "75", "-", "30->25"},
		{"bad", "b", "0", "WARN", "1", "6", "5", "≥4s", "-"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows = %q\nwant   %q", got, want)
	}
	if rows[0].Group != &gs[1] || rows[0].Partition != &gs[1].Partitions[0] {
		t.Error("rows do not point into the health they came from")
	}
	if titles := Titles(HealthPartitionColumns()); !reflect.DeepEqual(titles, []string{"GROUP", "TOPIC", "PARTITION", "STATUS", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "TIME-LAG", "REWIND"}) {
		t.Errorf("titles %q", titles)
	}
	if rows := UnhealthyPartitionRows(gs[:1]); rows != nil {
		t.Errorf("a healthy group has rows %v", rows)
	}
}
