package reset

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
)

var planNow = time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)

// fixture: topic t has 3 partitions (t/2 empty, no commit), topic u has 1
// partition without a commit.
func fixture() Inputs {
	return Inputs{
		Group:      "g",
		Exists:     true,
		State:      kafka.StateEmpty,
		Committed:  map[TP]int64{{"t", 0}: 40, {"t", 1}: 50},
		Partitions: map[string]int32{"t": 3, "u": 1},
		LogStart:   map[TP]int64{{"t", 0}: 10, {"t", 1}: 0, {"t", 2}: 5, {"u", 0}: 0},
		LogEnd:     map[TP]int64{{"t", 0}: 100, {"t", 1}: 50, {"t", 2}: 5, {"u", 0}: 3},
		AtTime:     map[TP]int64{{"t", 0}: 70, {"t", 1}: 50, {"t", 2}: 5, {"u", 0}: 1},
		Time:       planNow.Add(-time.Hour),
		Now:        planNow,
	}
}

const no = kafka.NoOffset

func allT() Scope { return Scope{Topics: []TopicScope{{Topic: "t"}}} }

func TestBuildScenarios(t *testing.T) {
	timeNote := "no record at or after 2024-03-01T11:00:00.000Z: log end"
	tests := []struct {
		name  string
		sc    Scenario
		scope Scope
		want  []Row
	}{
		{"to-earliest", Scenario{Kind: ToEarliest}, allT(), []Row{
			{"t", 0, 40, 10, 10, 100, ""},
			{"t", 1, 50, 0, 0, 50, ""},
			{"t", 2, no, 5, 5, 5, ""},
		}},
		{"to-latest", Scenario{Kind: ToLatest}, allT(), []Row{
			{"t", 0, 40, 100, 10, 100, ""},
			{"t", 1, 50, 50, 0, 50, ""},
			{"t", 2, no, 5, 5, 5, ""},
		}},
		{"to-current", Scenario{Kind: ToCurrent}, allT(), []Row{
			{"t", 0, 40, 40, 10, 100, ""},
			{"t", 1, 50, 50, 0, 50, ""},
			{"t", 2, no, 5, 5, 5, "no commit: log end"},
		}},
		{"to-offset within", Scenario{Kind: ToOffset, Offset: 20}, Scope{Topics: []TopicScope{{Topic: "t", Partitions: []int32{0, 1}}}}, []Row{
			{"t", 0, 40, 20, 10, 100, ""},
			{"t", 1, 50, 20, 0, 50, ""},
		}},
		{"to-offset clamps at both ends", Scenario{Kind: ToOffset, Offset: 60}, allT(), []Row{
			{"t", 0, 40, 60, 10, 100, ""},
			{"t", 1, 50, 50, 0, 50, "60 is past the log end: clamped to 50"},
			{"t", 2, no, 5, 5, 5, "60 is past the log end: clamped to 5"},
		}},
		{"to-offset below start", Scenario{Kind: ToOffset, Offset: 3}, Scope{Topics: []TopicScope{{Topic: "t", Partitions: []int32{0}}}}, []Row{
			{"t", 0, 40, 10, 10, 100, "3 is before the log start: clamped to 10"},
		}},
		{"shift-by back", Scenario{Kind: ShiftBy, Shift: -35}, Scope{AllTopics: true}, []Row{
			{"t", 0, 40, 10, 10, 100, "5 is before the log start: clamped to 10"},
			{"t", 1, 50, 15, 0, 50, ""},
		}},
		{"shift-by forward", Scenario{Kind: ShiftBy, Shift: 55}, Scope{AllTopics: true}, []Row{
			{"t", 0, 40, 95, 10, 100, ""},
			{"t", 1, 50, 50, 0, 50, "105 is past the log end: clamped to 50"},
		}},
		{"shift-by saturates", Scenario{Kind: ShiftBy, Shift: 1<<63 - 1}, Scope{AllTopics: true}, []Row{
			{"t", 0, 40, 100, 10, 100, "9223372036854775807 is past the log end: clamped to 100"},
			{"t", 1, 50, 50, 0, 50, "9223372036854775807 is past the log end: clamped to 50"},
		}},
		{"to-datetime", Scenario{Kind: ToDatetime, Time: planNow.Add(-time.Hour)}, Scope{Topics: []TopicScope{{Topic: "t"}, {Topic: "u"}}}, []Row{
			{"t", 0, 40, 70, 10, 100, ""},
			{"t", 1, 50, 50, 0, 50, timeNote},
			{"t", 2, no, 5, 5, 5, timeNote},
			{"u", 0, no, 1, 0, 3, ""},
		}},
		{"by-duration", Scenario{Kind: ByDuration, Duration: time.Hour}, Scope{AllTopics: true}, []Row{
			{"t", 0, 40, 70, 10, 100, ""},
			{"t", 1, 50, 50, 0, 50, timeNote},
		}},
		{"from-file clamps", Scenario{Kind: FromFile, Source: "f.csv", Rows: []FileRow{
			{Topic: "t", Partition: 1, Offset: 7, Line: 1},
			{Topic: "t", Partition: 0, Offset: 0, Line: 2},
			{Topic: "u", Partition: 0, Offset: 9, Line: 3},
		}}, Scope{}, []Row{
			{"t", 0, 40, 10, 10, 100, "0 is before the log start: clamped to 10"},
			{"t", 1, 50, 7, 0, 50, ""},
			{"u", 0, no, 3, 0, 3, "9 is past the log end: clamped to 3"},
		}},
		{"from-file filtered by scope", Scenario{Kind: FromFile, Source: "f.csv", Rows: []FileRow{
			{Topic: "t", Partition: 1, Offset: 7, Line: 1},
			{Topic: "u", Partition: 0, Offset: 2, Line: 2},
		}}, Scope{Topics: []TopicScope{{Topic: "u"}}}, []Row{
			{"u", 0, no, 2, 0, 3, ""},
		}},
		{"from-file picks the group's rows", Scenario{Kind: FromFile, Source: "f.csv", Rows: []FileRow{
			{Group: "other", Topic: "t", Partition: 1, Offset: 7, Line: 1},
			{Group: "g", Topic: "t", Partition: 1, Offset: 8, Line: 2},
		}}, Scope{}, []Row{
			{"t", 1, 50, 8, 0, 50, ""},
		}},
		{"undo removes and restores", Scenario{Kind: Undo, Source: "r.json", Rows: []FileRow{
			{Topic: "t", Partition: 0, Offset: 30},
			{Topic: "t", Partition: 2, Offset: no},
		}}, Scope{}, []Row{
			{"t", 0, 40, 30, 10, 100, ""},
			{"t", 2, no, no, 5, 5, "no commit before: remove"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Build(fixture(), tt.sc, tt.scope)
			if err != nil {
				t.Fatalf("Build: %v", err)
			}
			if !reflect.DeepEqual(p.Rows, tt.want) {
				t.Fatalf("rows:\n got %+v\nwant %+v", p.Rows, tt.want)
			}
			if p.Group != "g" || p.State != kafka.StateEmpty || !p.Exists || !p.Made.Equal(planNow) {
				t.Errorf("plan header = %+v", p)
			}
			if err := p.Blocker(); err != nil {
				t.Errorf("Blocker on an Empty group: %v", err)
			}
		})
	}
}

func TestBuildErrors(t *testing.T) {
	tests := []struct {
		name  string
		sc    Scenario
		scope Scope
		in    func(*Inputs)
		want  []string
	}{
		{"no scope", Scenario{Kind: ToEarliest}, Scope{}, nil, []string{"no scope: give --all-topics or one or more --topic"}},
		{"no scenario", Scenario{}, allT(), nil, []string{"no scenario given"}},
		{"negative to-offset", Scenario{Kind: ToOffset, Offset: -1}, allT(), nil, []string{"an offset cannot be negative"}},
		{"unknown topic", Scenario{Kind: ToEarliest}, Scope{Topics: []TopicScope{{Topic: "nope"}, {Topic: "t", Partitions: []int32{1, 3, 9}}}}, nil, []string{
			`topic "nope" does not exist`,
			`topic "t" has 3 partitions (0-2); partitions 3, 9 do not exist`,
		}},
		{"one-partition topic", Scenario{Kind: ToEarliest}, Scope{Topics: []TopicScope{{Topic: "u", Partitions: []int32{1}}}}, nil, []string{
			`topic "u" has 1 partition (0); partition 1 does not exist`,
		}},
		{"shift-by without commit", Scenario{Kind: ShiftBy, Shift: -1}, Scope{Topics: []TopicScope{{Topic: "t"}, {Topic: "u"}}}, nil, []string{
			`--shift-by moves a committed offset, and group "g" has no commit for t/2, u/0`,
		}},
		{"all-topics without commits", Scenario{Kind: ToEarliest}, Scope{AllTopics: true}, func(in *Inputs) { in.Committed = nil }, []string{
			`group "g" has no committed offsets, so --all-topics covers nothing`,
		}},
		{"all-topics with a deleted topic", Scenario{Kind: ToEarliest}, Scope{AllTopics: true}, func(in *Inputs) { in.Committed[TP{"gone", 0}] = 1 }, []string{
			`group "g" has a commit for gone/0, but topic "gone" no longer exists`,
		}},
		{"unknown log bounds", Scenario{Kind: ToEarliest}, allT(), func(in *Inputs) { delete(in.LogEnd, TP{"t", 1}) }, []string{
			"partition t/1: its log start and end offsets could not be read",
		}},
		{"file rows out of range", Scenario{Kind: FromFile, Source: "f", Rows: []FileRow{{Topic: "t", Partition: 5, Line: 3}, {Topic: "x", Line: 4}}}, Scope{}, nil, []string{
			`line 3: topic "t" has 3 partitions (0-2); partition 5 does not exist`,
			`line 4: topic "x" does not exist`,
		}},
		{"file rows outside the scope", Scenario{Kind: FromFile, Source: "f", Rows: []FileRow{{Topic: "t", Partition: 0, Line: 1}}}, Scope{Topics: []TopicScope{{Topic: "u"}}}, nil, []string{
			"no row of f is within --topic u",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := fixture()
			if tt.in != nil {
				tt.in(&in)
			}
			p, err := Build(in, tt.sc, tt.scope)
			if err == nil {
				t.Fatalf("Build accepted it: %+v", p.Rows)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

func TestSummary(t *testing.T) {
	p := &Plan{Rows: []Row{
		{Current: 40, New: 10},
		{Current: 50, New: 50},
		{Current: 5, New: 25},
		{Current: no, New: 7},
		{Current: 3, New: no},
	}}
	got := p.Summary()
	want := Summary{Partitions: 5, Changed: 4, Rewind: 30, Skip: 20, NoCommit: 1}
	if got != want {
		t.Fatalf("Summary = %+v, want %+v", got, want)
	}
	if s := got.String(); s != "4 of 5 partitions change; 30 records will be consumed again, 20 skipped; 1 partition had no commit" {
		t.Fatalf("String = %q", s)
	}
	one := Summary{Partitions: 1, Changed: 1, Rewind: 1}
	if s := one.String(); s != "1 of 1 partition change; 1 record will be consumed again, 0 skipped" {
		t.Fatalf("String = %q", s)
	}
}

func TestBlocker(t *testing.T) {
	members := []kafka.Member{
		{MemberID: "m-1", ClientID: "app", Host: "/10.0.0.1", Subscribed: []string{"t"}},
		{MemberID: "m-2", InstanceID: "pod-2", ClientID: "app", Host: "/10.0.0.2", SubscribedRegex: "pay.*"},
	}
	p := &Plan{Group: "g", Exists: true, State: kafka.StateStable, Members: members, Scenario: Scenario{Kind: ToEarliest}, Rows: []Row{{Topic: "t"}}}
	err := p.Blocker()
	want := `cannot reset the offsets of group "g": it is Stable with 2 live members:
  member m-1, client app, host /10.0.0.1
  member m-2 (instance pod-2), client app, host /10.0.0.2
Nothing was changed. Offsets can only be changed while the group is Empty: stop its consumers, or remove them (then try again) with: kgroups rebalance g --all`
	if err == nil || err.Error() != want {
		t.Fatalf("Blocker =\n%v\nwant\n%s", err, want)
	}
	p.Members, p.State = nil, kafka.StatePreparingRebalance
	if err := p.Blocker(); err == nil || !strings.Contains(err.Error(), "it is PreparingRebalance, not Empty. Nothing was changed.") {
		t.Fatalf("Blocker without members = %v", err)
	}
	p.Exists = false
	if err := p.Blocker(); err != nil {
		t.Fatalf("a group that does not exist may be written: %v", err)
	}

	// Deleting offsets: only subscribed topics block a live group.
	d := &Plan{Group: "g", Exists: true, State: kafka.StateStable, Members: members, Scenario: Scenario{Kind: DeleteOffsets},
		Rows: []Row{{Topic: "old"}, {Topic: "payments"}, {Topic: "t"}}}
	err = d.Blocker()
	if err == nil || !strings.HasPrefix(err.Error(), `cannot delete the offsets of group "g" for topics payments, t, which its members subscribe to: it is Stable`) ||
		!strings.Contains(err.Error(), "Offsets of a subscribed topic can only be deleted while the group is Empty") {
		t.Fatalf("delete-offsets Blocker = %v", err)
	}
	d.Rows = []Row{{Topic: "old"}}
	if err := d.Blocker(); err != nil {
		t.Fatalf("deleting an unsubscribed topic's offsets: %v", err)
	}
}

func TestBuildDeleteOffsets(t *testing.T) {
	in := fixture()
	in.Committed[TP{"gone", 3}] = 9
	p, err := buildDeleteOffsets(in, Scope{Topics: []TopicScope{{Topic: "t"}, {Topic: "gone"}}}, planNow)
	if err != nil {
		t.Fatal(err)
	}
	want := []Row{
		{"gone", 3, 9, no, no, no, ""},
		{"t", 0, 40, no, no, no, ""},
		{"t", 1, 50, no, no, no, ""},
	}
	if !reflect.DeepEqual(p.Rows, want) || p.Scenario.Kind != DeleteOffsets {
		t.Fatalf("rows = %+v", p.Rows)
	}
	_, err = buildDeleteOffsets(in, Scope{Topics: []TopicScope{{Topic: "u"}, {Topic: "t", Partitions: []int32{1, 2}}}}, planNow)
	for _, w := range []string{
		`group "g" has no committed offsets for topic "u" (it has commits for: gone, t)`,
		`group "g" has no committed offset for topic "t" partition 2 (it has commits for partitions 0, 1)`,
	} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v does not say %q", err, w)
		}
	}
}

// TestBlockerQuotesTheSuggestedCommand: the suggested command ends the
// message and names the group shell-quoted, so pasting it never runs
// anything else.
func TestBlockerQuotesTheSuggestedCommand(t *testing.T) {
	for name, want := range map[string]string{
		"x;touch /tmp/p": "with: kgroups rebalance 'x;touch /tmp/p' --all",
		"it's":           `with: kgroups rebalance 'it'\''s' --all`,
		"a,b":            "with: kgroups rebalance a,b --all",
	} {
		p := &Plan{Group: name, Exists: true, State: kafka.StateStable, Members: []kafka.Member{{MemberID: "m-1"}}, Scenario: Scenario{Kind: ToEarliest}, Rows: []Row{{Topic: "t"}}}
		if err := p.Blocker(); err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("Blocker for %q = %v, want it to end with %q", name, err, want)
		}
	}
}

// A share group's --all-topics covers the partitions its offsets list
// without a start offset too, as kafka-share-groups.sh --reset-offsets
// --all-topics does (found on Kafka 4.2 by TestRealShareGroup): --to-latest
// then initializes t/2 at its log end instead of leaving it to start
// wherever share.auto.offset.reset says when it is first read.
func TestBuildShareAllTopicsCoversUninitialized(t *testing.T) {
	in := fixture()
	in.Type = kafka.TypeShare
	in.Uninitialized = map[TP]bool{{"t", 2}: true}
	p, err := Build(in, Scenario{Kind: ToLatest}, Scope{AllTopics: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []Row{
		{"t", 0, 40, 100, 10, 100, ""},
		{"t", 1, 50, 50, 0, 50, ""},
		{"t", 2, no, 5, 5, 5, ""},
	}
	if !reflect.DeepEqual(p.Rows, want) {
		t.Errorf("rows:\n got %+v\nwant %+v", p.Rows, want)
	}
}
