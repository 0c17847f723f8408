package render

import (
	"math"
	"reflect"
	"testing"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/columns"
	"github.com/kgroups/kgroups/views/format"
)

// healthFixture is three groups as `kgroups health` judges them: a History's
// evaluation through lag.Judge.
func healthFixture() []lag.Verdict {
	var vs []lag.Verdict
	for _, gh := range []lag.GroupHealth{
		{Group: "fine", Status: lag.StatusOK, Complete: true, Observations: 10, MaxTimeLag: lag.TimeLag{Kind: lag.TimeLagCaughtUp}, Partitions: []lag.PartitionHealth{
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
		got = append(got, columns.Cells(HealthColumns(format.AtLeastUnicode), &gs[i]))
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
	if titles := columns.Titles(HealthColumns(format.AtLeastUnicode)); !reflect.DeepEqual(titles, []string{"GROUP", "STATUS", "TOTAL-LAG", "MAX-TIME-LAG", "PRODUCE/S", "CONSUME/S"}) {
		t.Errorf("titles %q", titles)
	}
}

func TestUnhealthyPartitionRows(t *testing.T) {
	gs := healthFixture()
	rows := UnhealthyPartitionRows(gs)
	var got [][]string
	for _, r := range rows {
		got = append(got, columns.Cells(HealthPartitionColumns(format.AtLeastUnicode), r))
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
	if titles := columns.Titles(HealthPartitionColumns(format.AtLeastUnicode)); !reflect.DeepEqual(titles, []string{"GROUP", "TOPIC", "PARTITION", "STATUS", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "TIME-LAG", "REWIND"}) {
		t.Errorf("titles %q", titles)
	}
	if rows := UnhealthyPartitionRows(gs[:1]); rows != nil {
		t.Errorf("a healthy group has rows %v", rows)
	}
}

// TestHealthCells: the health tables' time lags and rates are the UI's
// (format.TimeLag and format.Rate): two units at most, the locale's
// lower-bound mark, rates in at most five cells.
func TestHealthCells(t *testing.T) {
	v := lag.Judge(lag.GroupHealth{Group: "g", Status: lag.StatusWarn, Severity: lag.SeverityWarn, Complete: true, TotalLag: 5,
		MaxTimeLag: lag.TimeLag{Seconds: 7509, Kind: lag.TimeLagInterpolated}, ProduceRate: 1234.56, ConsumeRate: 86.0 / 45,
		Partitions: []lag.PartitionHealth{{Topic: "t", Status: lag.StatusWarn, Committed: 1, LogEnd: 6, Lag: 5, TimeLag: lag.TimeLag{Kind: lag.TimeLagAtLeast, Seconds: 3*86400 + 4*3600 + 10*60}}},
	}, 10)
	for _, tc := range []struct {
		atLeast string
		want    []string
		part    []string
	}{
		{format.AtLeastUnicode, []string{"g", "WARN", "5", "2h05m", "1.2k", "1.9"}, []string{"g", "t", "0", "WARN", "1", "6", "5", "≥3d04h", "-"}},
		{format.AtLeastASCII, []string{"g", "WARN", "5", "2h05m", "1.2k", "1.9"}, []string{"g", "t", "0", "WARN", "1", "6", "5", ">=3d04h", "-"}},
	} {
		if got := columns.Cells(HealthColumns(tc.atLeast), &v); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: cells %q, want %q", tc.atLeast, got, tc.want)
		}
		row := UnhealthyPartitionRows([]lag.Verdict{v})[0]
		if got := columns.Cells(HealthPartitionColumns(tc.atLeast), row); !reflect.DeepEqual(got, tc.part) {
			t.Errorf("%s: partition cells %q, want %q", tc.atLeast, got, tc.part)
		}
	}
	for in, want := range map[float64]string{lag.UnknownRate: "-", 0: "0.0", 2: "2.0", 20: "20", 1234.56: "1.2k", math.NaN(): "-"} {
		v.ProduceRate = in
		if got := columns.Cells(HealthColumns(format.AtLeastUnicode), &v)[4]; got != want {
			t.Errorf("rate %v: %q, want %q", in, got, want)
		}
	}
}
