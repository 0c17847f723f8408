package render_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/render"
)

// fixedTimeLags stands in for describe --time-lag's exact reads: orders/0
// is 3m04s behind, payments/0 12.4s, orders/1 caught up, anything else
// unknown. Read exactly, they are marked "=" as format.TimeLag marks them.
func fixedTimeLags(_ *kafka.Group, p *kafka.PartitionOffsets) lag.TimeLag {
	switch {
	case p.Topic == "orders" && p.Partition == 0:
		return lag.TimeLag{Seconds: 184, Kind: lag.TimeLagExact}
	case p.Topic == "payments" && p.Partition == 0:
		return lag.TimeLag{Seconds: 12.4004, Kind: lag.TimeLagExact}
	case p.Topic == "orders" && p.Partition == 1:
		return lag.TimeLag{Kind: lag.TimeLagCaughtUp}
	}
	return lag.TimeLag{}
}

func TestDescribeTimeLag(t *testing.T) {
	stdout, _ := describe(t, []*kafka.Group{idleGroup(), newGroup()}, render.DescribeOptions{TimeLag: fixedTimeLags, AtLeast: format.AtLeastUnicode})
	assertText(t, "stdout", stdout, `GROUP  TOPIC   PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST  CLIENT-ID  TIME-LAG
idle   orders          0               5             150  145  -            -     -            =3m04s

GROUP  TOPIC     PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST       CLIENT-ID  TIME-LAG
k848   payments          0               3               7    4  Zx9          /10.0.0.9  svc            =12s
k848   payments          1               -            1234    -  Zx9          /10.0.0.9  svc               -
`)
	// With --wide the extras keep their order: LOG-START-OFFSET, then
	// TIME-LAG, both after the Kafka tool's columns.
	stdout, _ = describe(t, []*kafka.Group{idleGroup()}, render.DescribeOptions{Wide: true, TimeLag: fixedTimeLags})
	assertText(t, "wide", stdout, `GROUP  TOPIC   PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST  CLIENT-ID  LOG-START-OFFSET  TIME-LAG
idle   orders          0               5             150  145  -            -     -                         0    =3m04s
`)
	// Other views do not grow the column.
	stdout, _ = describe(t, []*kafka.Group{idleGroup()}, render.DescribeOptions{View: render.State, TimeLag: fixedTimeLags})
	assertText(t, "state", stdout, `GROUP  COORDINATOR (ID)     ASSIGNMENT-STRATEGY  STATE  #MEMBERS  LEADER
idle   127.0.0.1:40000 (0)  -                    Empty         0  -
`)
}

// partitionsJSON decodes the partitions of every group in a describe
// document.
func partitionsJSON(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	var doc struct {
		Groups []struct {
			Partitions []map[string]any `json:"partitions"`
		} `json:"groups"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("decode: %v\n%s", err, b)
	}
	var out []map[string]any
	for _, g := range doc.Groups {
		out = append(out, g.Partitions...)
	}
	return out
}

func TestJSONTimeLag(t *testing.T) {
	groups := []*kafka.Group{ordersGroup()}
	var plain, withLag bytes.Buffer
	if err := render.JSON(&plain, groups); err != nil {
		t.Fatal(err)
	}
	if err := render.JSONWith(&withLag, groups, render.JSONOptions{TimeLag: fixedTimeLags}); err != nil {
		t.Fatal(err)
	}
	for _, p := range partitionsJSON(t, plain.Bytes()) {
		if _, ok := p["timeLagSeconds"]; ok {
			t.Errorf("timeLagSeconds without --time-lag: %v", p)
		}
	}
	// Seconds with millisecond precision, 0 when caught up, null when
	// unknown; every partition has the field.
	want := map[string]any{"orders/0": 184.0, "orders/1": 0.0, "orders/2": nil, "orders/3": nil, "payments/0": 12.4, "payments/1": nil}
	ps := partitionsJSON(t, withLag.Bytes())
	if len(ps) != len(want) {
		t.Fatalf("%d partitions, want %d", len(ps), len(want))
	}
	for _, p := range ps {
		k := p["topic"].(string) + "/" + jsonNumber(p["partition"])
		v, ok := p["timeLagSeconds"]
		if !ok || v != want[k] {
			t.Errorf("%s: timeLagSeconds %v (present %v), want %v", k, v, ok, want[k])
		}
	}
	// The rest of the document is unchanged.
	var a, b map[string]any
	_ = json.Unmarshal(plain.Bytes(), &a)
	_ = json.Unmarshal(withLag.Bytes(), &b)
	for _, p := range b["groups"].([]any)[0].(map[string]any)["partitions"].([]any) {
		delete(p.(map[string]any), "timeLagSeconds")
	}
	if ja, jb := dumpJSON(a), dumpJSON(b); ja != jb {
		t.Errorf("document differs beyond timeLagSeconds:\n%s\n%s", ja, jb)
	}
}

func jsonNumber(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func dumpJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestTimeLagColumn: the TIME-LAG cell is format.TimeLag's, with the
// lower-bound mark of the locale, and the function sees the row's group and
// partition.
func TestTimeLagColumn(t *testing.T) {
	g := &kafka.Group{Name: "g"}
	p := &kafka.PartitionOffsets{Topic: "t", Partition: 3}
	for _, tc := range []struct {
		tl      lag.TimeLag
		atLeast string
		want    string
	}{
		{lag.TimeLag{}, format.AtLeastUnicode, "-"},
		{lag.TimeLag{Seconds: 42, Kind: lag.TimeLagUnknown}, format.AtLeastUnicode, "-"},
		{lag.TimeLag{Kind: lag.TimeLagCaughtUp}, format.AtLeastUnicode, "0s"},
		{lag.TimeLag{Seconds: 97, Kind: lag.TimeLagExact}, format.AtLeastUnicode, "=1m37s"},
		{lag.TimeLag{Seconds: 12.5, Kind: lag.TimeLagInterpolated}, format.AtLeastUnicode, "12s"},
		{lag.TimeLag{Seconds: 7509, Kind: lag.TimeLagInterpolated}, format.AtLeastUnicode, "2h05m"},
		{lag.TimeLag{Seconds: 3*86400 + 4*3600 + 10*60 + 59, Kind: lag.TimeLagInterpolated}, format.AtLeastUnicode, "3d04h"},
		{lag.TimeLag{Seconds: 2, Kind: lag.TimeLagAtLeast}, format.AtLeastUnicode, "≥2s"},
		{lag.TimeLag{Seconds: 2, Kind: lag.TimeLagAtLeast}, format.AtLeastASCII, ">=2s"},
	} {
		var gotG *kafka.Group
		var gotP *kafka.PartitionOffsets
		col := render.TimeLagColumn(func(g *kafka.Group, p *kafka.PartitionOffsets) lag.TimeLag {
			gotG, gotP = g, p
			return tc.tl
		}, tc.atLeast)
		if col.Title != "TIME-LAG" {
			t.Errorf("title %q", col.Title)
		}
		if got := col.Value(render.PartitionRow{Group: g, Partition: p}); got != tc.want {
			t.Errorf("%+v (%s): cell %q, want %q", tc.tl, tc.atLeast, got, tc.want)
		}
		if gotG != g || gotP != p {
			t.Error("the time lag function was not given the row's group and partition")
		}
	}
}
