package diagnose

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/rebalance"
)

func TestEvidenceKeepsKeyOrder(t *testing.T) {
	e := Evidence{{"z", int64(1)}, {"a", nil}, {"m", "x\x1b"}, {"list", []Evidence{{{"k", int64(2)}}}}}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"z":1,"a":null,"m":"x\u001b","list":[{"k":2}]}`; string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
}

// TestSeverityOfFindings: findings rank on the scale of a group's verdict
// (lag.Severity), WARN below ERR, and Worst of no findings is none.
func TestSeverityOfFindings(t *testing.T) {
	fs := []Finding{{ID: IDLagSkew, Severity: lag.SeverityWarn}, {ID: IDRecordsLost, Severity: lag.SeverityErr}, {ID: IDNoCommits, Severity: lag.SeverityWarn}}
	if w, ok := Worst(fs); !ok || w != lag.SeverityErr || w.String() != "ERR" {
		t.Errorf("worst %v %v, want ERR", w, ok)
	}
	if w, ok := Worst(fs[:1]); !ok || w != lag.SeverityWarn || w.String() != "WARN" {
		t.Errorf("worst %v %v, want WARN", w, ok)
	}
	if w, ok := Worst(nil); ok || w != lag.SeverityOK {
		t.Errorf("worst of none %v %v", w, ok)
	}
}

// TestRebalanceStorm counts only the rebalances inside the window and
// names who joined and left; at the threshold there is no storm.
func TestRebalanceStorm(t *testing.T) {
	t0 := time.Unix(1000, 0)
	g := &kafka.Group{Name: "g", State: kafka.StateStable}
	ev := []rebalance.Event{
		{Time: t0.Add(-time.Second), Kind: rebalance.EventRebalance}, // before the window
		{Time: t0.Add(1 * time.Second), Kind: rebalance.EventJoined, MemberID: "m1", ClientID: "c1", Host: "/h1"},
		{Time: t0.Add(2 * time.Second), Kind: rebalance.EventRebalance},
		{Time: t0.Add(3 * time.Second), Kind: rebalance.EventLeft, MemberID: "m0", ClientID: "c0", Host: "/h0"},
		{Time: t0.Add(4 * time.Second), Kind: rebalance.EventRebalance},
		{Time: t0.Add(5 * time.Second), Kind: rebalance.EventRebalance},
	}
	in := Input{Group: g, Events: ev, Since: t0, Now: t0.Add(60 * time.Second)}
	if fs := Diagnose(in); len(fs) != 0 {
		t.Fatalf("3 rebalances at threshold 3: %v", fs)
	}
	in.Events = append(ev, rebalance.Event{Time: t0.Add(6 * time.Second), Kind: rebalance.EventRebalance})
	fs := Diagnose(in)
	if len(fs) != 1 || fs[0].ID != IDRebalanceStorm || fs[0].Severity != lag.SeverityWarn {
		t.Fatalf("findings %+v", fs)
	}
	b, _ := json.Marshal(fs[0].Evidence)
	want := `{"rebalances":4,"threshold":3,"windowSeconds":60,"joined":[{"memberId":"m1","clientId":"c1","host":"/h1"}],"left":[{"memberId":"m0","clientId":"c0","host":"/h0"}]}`
	if string(b) != want {
		t.Errorf("evidence %s\nwant     %s", b, want)
	}
	in.Config.StormRebalances = 4
	if fs := Diagnose(in); len(fs) != 0 {
		t.Errorf("4 rebalances at threshold 4: %v", fs)
	}
}

// TestOpenTransactionThatMoved: a stable offset that moved over the window
// is a transaction that ended, not one the group is stuck behind; one that
// the group has not reached yet is a warning.
func TestOpenTransactionThatMoved(t *testing.T) {
	g := &kafka.Group{Name: "g", Partitions: []kafka.PartitionOffsets{{Topic: "t", Committed: 2, LogStart: 0, LogEnd: 9, Lag: 7}}}
	in := Input{Group: g, Reads: &Reads{Stable: map[TP]StableOffsets{{"t", 0}: {First: 3, Last: 5}}}}
	if fs := Diagnose(in); len(fs) != 0 {
		t.Fatalf("moved: %+v", fs)
	}
	in.Reads.Stable[TP{"t", 0}] = StableOffsets{First: 5, Last: 5}
	fs := Diagnose(in)
	if len(fs) != 1 || fs[0].Severity != lag.SeverityWarn {
		t.Fatalf("not reached: %+v", fs)
	}
	if v, _ := fs[0].Evidence.Get("lagToStable"); v != int64(3) {
		t.Errorf("lagToStable %v, want 3", v)
	}
	if v, _ := fs[0].Evidence.Get("producerId"); v != nil {
		t.Errorf("producerId %v, want null when no producer was listed", v)
	}
}

// TestHealthyGroupHasNoWarnings: a caught-up Stable group whose every
// partition is owned and committed has no ERR or WARN finding.
func TestHealthyGroupHasNoWarnings(t *testing.T) {
	m := kafka.Member{MemberID: "m", Subscribed: []string{"t"}, Assignment: []kafka.TopicPartitions{{Topic: "t", Partitions: []int32{0, 1}}}}
	g := &kafka.Group{Name: "g", State: kafka.StateStable, Members: []kafka.Member{m}, Partitions: []kafka.PartitionOffsets{
		{Topic: "t", Partition: 0, Committed: 10, LogStart: 0, LogEnd: 10, MemberID: "m"},
		{Topic: "t", Partition: 1, Committed: 7, LogStart: 2, LogEnd: 8, Lag: 1, MemberID: "m"},
	}}
	v := lag.Verdict{GroupHealth: lag.GroupHealth{Partitions: []lag.PartitionHealth{
		{Topic: "t", Partition: 0, Committed: 10, LogEnd: 10, Owned: true, TimeLag: lag.TimeLag{Kind: lag.TimeLagCaughtUp}},
		{Topic: "t", Partition: 1, Committed: 7, LogEnd: 8, Lag: 1, Owned: true, TimeLag: lag.TimeLag{Seconds: 2, Kind: lag.TimeLagInterpolated}},
	}}}
	in := Input{Group: g, Verdict: v, PartitionCounts: map[string]int32{"t": 2},
		Reads: &Reads{Retention: map[string]int64{"t": 604800000}, Stable: map[TP]StableOffsets{}}}
	if fs := Diagnose(in); len(fs) != 0 {
		t.Errorf("healthy group: %+v", fs)
	}
}

// TestRecordPreviewBytes: a preview that is not UTF-8 keeps its exact
// bytes, in base64.
func TestRecordPreviewBytes(t *testing.T) {
	if v, e := bytesValue([]byte{0xff, 0x00}, false), encoding([]byte{0xff, 0x00}, false); v != "/wA=" || e != "base64" {
		t.Errorf("binary: %v %v", v, e)
	}
	if v, e := bytesValue([]byte("héllo"), false), encoding([]byte("héllo"), false); v != "héllo" || e != "text" {
		t.Errorf("text: %v %v", v, e)
	}
	if v, e := bytesValue(nil, true), encoding(nil, true); v != nil || e != nil {
		t.Errorf("null: %v %v", v, e)
	}
}

// TestLogReplaced: partitions whose history restarted because their log
// was replaced get one finding a topic, with the latest time, and are
// worded as a replacement, not a rewind.
func TestLogReplaced(t *testing.T) {
	at := time.Date(2026, 12, 1, 21, 40, 0, 0, time.UTC)
	g := &kafka.Group{Name: "g", State: kafka.StateEmpty, Partitions: []kafka.PartitionOffsets{
		{Topic: "t", Partition: 0, Committed: 3, LogStart: 0, LogEnd: 3},
		{Topic: "t", Partition: 1, Committed: 5, LogStart: 0, LogEnd: 5},
		{Topic: "u", Partition: 0, Committed: 9, LogStart: 0, LogEnd: 9},
	}}
	v := lag.Verdict{GroupHealth: lag.GroupHealth{Partitions: []lag.PartitionHealth{
		{Topic: "t", Partition: 0, Committed: 3, LogEnd: 3, Restarted: at.Add(-5 * time.Second)},
		{Topic: "t", Partition: 1, Committed: 5, LogEnd: 5, Restarted: at},
		{Topic: "u", Partition: 0, Committed: 9, LogEnd: 9},
	}}}
	fs := Diagnose(Input{Group: g, Verdict: v, PartitionCounts: map[string]int32{"t": 2, "u": 1},
		Reads: &Reads{Retention: map[string]int64{"t": 604800000, "u": 604800000}, Stable: map[TP]StableOffsets{}}})
	if len(fs) != 1 {
		t.Fatalf("findings %+v, want one log-replaced", fs)
	}
	f := fs[0]
	if f.ID != IDLogReplaced || f.Severity != lag.SeverityWarn || f.Topic != "t" || f.Partition != noPartition {
		t.Fatalf("finding %+v", f)
	}
	if v, _ := f.Evidence.Get("partitions"); v != int64(2) {
		t.Errorf("partitions %v, want 2", v)
	}
	if v, _ := f.Evidence.Get("replacedTimestamp"); v != at.UnixMilli() {
		t.Errorf("replacedTimestamp %v, want %d", v, at.UnixMilli())
	}
	if want := []any{Count{N: 2, One: "partition of t", Many: "partitions of t"}, Instant(at.UnixMilli())}; !reflect.DeepEqual(f.Message.Args, want) {
		t.Errorf("message args %#v, want %#v", f.Message.Args, want)
	}
	if Cause(IDLogReplaced) != "topic recreated" {
		t.Errorf("cause %q", Cause(IDLogReplaced))
	}
}
