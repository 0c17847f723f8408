package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka"
)

// TestDescribeStableOffset: the stable offset columns and JSON fields
// appear only when an open transaction holds some partition's last stable
// offset below its log end.
func TestDescribeStableOffset(t *testing.T) {
	g := &kafka.Group{Name: "g", State: kafka.StateEmpty, Partitions: []kafka.PartitionOffsets{
		{Topic: "t", Partition: 0, Committed: 3, LogStart: 0, LogEnd: 8, Lag: 5, StableTrails: true, LastStable: 6, LeaderEpoch: -1},
		{Topic: "t", Partition: 1, Committed: 2, LogStart: 0, LogEnd: 2, Lag: 0, LeaderEpoch: -1},
	}}
	table, _ := groupTable(g, DescribeOptions{}, &describeColumns{})
	want := strings.Join([]string{
		"GROUP  TOPIC  PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST  CLIENT-ID  LAST-STABLE-OFFSET  LSO-LAG",
		"g      t              0               3               8    5  -            -     -                           6        3",
		"g      t              1               2               2    0  -            -     -                           -        -",
	}, "\n") + "\n"
	if table != want {
		t.Errorf("table\n%s\nwant\n%s", table, want)
	}
	var b bytes.Buffer
	if err := JSON(&b, []*kafka.Group{g}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), `"lastStableOffset": 6`); n != 1 || !strings.Contains(b.String(), `"lagToStable": 3`) {
		t.Errorf("JSON has lastStableOffset %d times, want once with lagToStable 3:\n%s", n, b.String())
	}
	g.Partitions[0].StableTrails = false
	if table, _ := groupTable(g, DescribeOptions{}, &describeColumns{}); strings.Contains(table, "LSO") {
		t.Errorf("no open transaction, yet:\n%s", table)
	}
}
