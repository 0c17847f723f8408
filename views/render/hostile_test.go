package render_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/render"
	"github.com/kgroups/kgroups/views/render/rendertest"
)

// hostile are strings a broker may hand kgroups as any id, host, topic,
// state or error text, newlines and invalid UTF-8 included. Topics and
// hosts cannot be chosen this freely on a real cluster (Kafka allows
// [a-zA-Z0-9._-] in topic names), so they are tested here, through every
// renderer.
var hostile = append(slices.Clone(rendertest.Hostile), "line\nbreak\rreturn\ttab", "bad utf-8 \xff\xfe")

// jsonString is s as a JSON string carries it: the exact bytes, except
// that each byte of invalid UTF-8 becomes U+FFFD (encoding/json's rule).
func jsonString(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func short(s string) string { return rendertest.Short(s) }

// checkSafe asserts that out is terminal-safe and that its tables are
// aligned in terminal cells, and returns the number of table rows.
func checkSafe(t *testing.T, what, out string) int {
	t.Helper()
	if why, bad := rendertest.Unsafe(out); bad {
		t.Errorf("%s: %s in %s", what, why, short(out))
	}
	rows, problems := rendertest.Tables(out)
	for _, p := range problems {
		t.Errorf("%s: %s", what, p)
	}
	return rows
}

// hostileGroup uses h for everything a broker names: group, member,
// instance and client ids, host, rack, topic, assignor, state and error.
func hostileGroup(h string) *kafka.Group {
	return &kafka.Group{
		Name: h, Type: kafka.TypeClassic, ProtocolType: "consumer", State: kafka.StateStable, Assignor: h,
		Coordinator: kafka.Broker{ID: 1, Host: h, Port: 9092}, OffsetsPartition: 3,
		Members: []kafka.Member{
			{MemberID: h + "-1", InstanceID: h, ClientID: h, Host: "/" + h, Rack: h, Subscribed: []string{h},
				Assignment: []kafka.TopicPartitions{{Topic: h, Partitions: []int32{0, 1}}}},
			{MemberID: "m-2", ClientID: "c", Host: "/10.0.0.1", Subscribed: []string{h},
				Assignment: []kafka.TopicPartitions{{Topic: h, Partitions: []int32{2}}}},
		},
		Partitions: []kafka.PartitionOffsets{
			kafka.PartitionOffsets{Topic: h, Partition: 0, Committed: 5, LeaderEpoch: -1, LogStart: 0, LogEnd: 10, Lag: 5, MemberID: h + "-1", Metadata: h}.WithOwner(h, "/"+h, nil),
			kafka.PartitionOffsets{Topic: h, Partition: 1, Committed: kafka.NoOffset, LeaderEpoch: -1, LogStart: 0, LogEnd: 10, Lag: kafka.NoOffset, MemberID: h + "-1"}.WithOwner(h, "/"+h, nil),
			kafka.PartitionOffsets{Topic: h, Partition: 2, Committed: 7, LeaderEpoch: -1, LogStart: 0, LogEnd: 9, Lag: 2, MemberID: "m-2", Err: errors.New(h)}.WithOwner("c", "/10.0.0.1", nil),
			{Topic: "plain", Partition: 0, Committed: 1, LeaderEpoch: -1, LogStart: 0, LogEnd: 2, Lag: 1},
		},
		Err: fmt.Errorf("describe group %q: %s", h, h),
	}
}

func TestHostileDescribe(t *testing.T) {
	for _, h := range hostile {
		groups := []*kafka.Group{hostileGroup(h), ordersGroup()}
		for _, opts := range []render.DescribeOptions{
			{}, {Wide: true}, {View: render.Members}, {View: render.Members, Wide: true}, {View: render.State},
			{TimeLag: fixedTimeLags, AtLeast: format.AtLeastUnicode},
		} {
			var out, errOut bytes.Buffer
			if err := render.Describe(&out, &errOut, groups, opts); err != nil {
				t.Fatal(err)
			}
			what := fmt.Sprintf("describe %s %+v", short(h), opts.View)
			rows := checkSafe(t, what, out.String())
			want := map[render.View]int{render.Offsets: 4 + 6, render.Members: 2 + 4, render.State: 2}[opts.View]
			if rows != want {
				t.Errorf("%s: %d rows, want %d:\n%s", what, rows, want, short(out.String()))
			}
			checkSafe(t, what+" stderr", errOut.String())
		}
		// The Kafka tool's notes name the group, safely.
		for _, state := range []string{kafka.StateEmpty, kafka.StatePreparingRebalance} {
			g := hostileGroup(h)
			g.State, g.Members = state, nil
			var out, errOut bytes.Buffer
			if err := render.Describe(&out, &errOut, []*kafka.Group{g}, render.DescribeOptions{View: render.Members}); err != nil {
				t.Fatal(err)
			}
			checkSafe(t, "note", errOut.String())
			notes := strings.Split(strings.TrimSuffix(errOut.String(), "\n"), "\n")
			for _, n := range notes {
				if !strings.Contains(n, "Consumer group '"+format.Sanitize(h)+"'") {
					t.Errorf("note for %s: %s", short(h), short(n))
				}
			}
			if len(notes) != map[string]int{kafka.StateEmpty: 1, kafka.StatePreparingRebalance: 2}[state] {
				t.Errorf("notes for %s: %s", short(h), short(errOut.String()))
			}
		}
	}
}

func TestHostileList(t *testing.T) {
	var groups []*kafka.Group
	for _, h := range hostile {
		groups = append(groups, hostileGroup(h))
	}
	var b bytes.Buffer
	if err := render.List(&b, groups, render.Layout{}); err != nil {
		t.Fatal(err)
	}
	if rows := checkSafe(t, "list", b.String()); rows != len(hostile) {
		t.Errorf("%d rows, want %d", rows, len(hostile))
	}
}

// TestHostileJSON: the describe document decodes to exactly the bytes the
// broker sent (invalid UTF-8 aside, which JSON cannot carry), and nothing
// in it acts on a terminal.
func TestHostileJSON(t *testing.T) {
	for _, h := range hostile {
		var b bytes.Buffer
		if err := render.JSONWith(&b, []*kafka.Group{hostileGroup(h)}, render.JSONOptions{TimeLag: fixedTimeLags}); err != nil {
			t.Fatal(err)
		}
		checkSafe(t, "json "+short(h), b.String())
		var doc struct {
			Groups []struct {
				Group       string `json:"group"`
				Assignor    string `json:"assignor"`
				Coordinator struct {
					Host string `json:"host"`
				} `json:"coordinator"`
				Members []struct {
					MemberID   string  `json:"memberId"`
					InstanceID *string `json:"instanceId"`
					ClientID   string  `json:"clientId"`
					Host       string  `json:"host"`
					Rack       *string `json:"rack"`
				} `json:"members"`
				Partitions []struct {
					Topic    string  `json:"topic"`
					ClientID *string `json:"clientId"`
					Host     *string `json:"host"`
					Metadata string  `json:"metadata"`
					Error    *string `json:"error"`
				} `json:"partitions"`
				Error *string `json:"error"`
			} `json:"groups"`
		}
		if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
			t.Fatalf("%s: %v", short(h), err)
		}
		want := jsonString(h)
		g, m, p := doc.Groups[0], doc.Groups[0].Members[0], doc.Groups[0].Partitions[0]
		got := []string{g.Group, g.Assignor, g.Coordinator.Host, m.MemberID, *m.InstanceID, m.ClientID, m.Host, *m.Rack, p.Topic, *p.ClientID, *p.Host, p.Metadata, *doc.Groups[0].Partitions[2].Error}
		exp := []string{want, want, want, want + "-1", want, want, "/" + want, want, want, want, "/" + want, want, want}
		for i := range exp {
			if got[i] != exp[i] {
				t.Errorf("%s: field %d decodes to %s, want %s", short(h), i, short(got[i]), short(exp[i]))
			}
		}
	}
}

func TestHostileResetTables(t *testing.T) {
	for _, h := range hostile {
		p := &reset.Plan{Group: h, Exists: true, State: h, Scenario: reset.Scenario{Kind: reset.ToEarliest},
			Rows: []reset.Row{
				{Topic: h, Partition: 0, Current: 5, New: 0, LogStart: 0, LogEnd: 10, Note: h},
				{Topic: "plain", Partition: 1, Current: kafka.NoOffset, New: 3, LogStart: 3, LogEnd: 10},
			},
			Warnings: []string{h},
		}
		var b bytes.Buffer
		if err := render.Plan(&b, p, render.Layout{}); err != nil {
			t.Fatal(err)
		}
		if rows := checkSafe(t, "plan "+short(h), b.String()); rows != 2 {
			t.Errorf("plan: %d rows", rows)
		}
		b.Reset()
		res := &reset.Result{Group: h, ReceiptPath: "/r/" + h, Partitions: []reset.PartitionResult{
			{Topic: h, Partition: 0, Before: 5, Want: 0, Got: 0},
			{Topic: "plain", Partition: 1, Before: kafka.NoOffset, Want: 3, Got: 2, Err: errors.New(h)},
		}}
		if err := render.Result(&b, res, render.Layout{}); err != nil {
			t.Fatal(err)
		}
		if rows := checkSafe(t, "result "+short(h), b.String()); rows != 2 {
			t.Errorf("result: %d rows", rows)
		}
		b.Reset()
		ds := []*reset.GroupDeletion{{Group: h, Exists: true, State: h}, {Group: "plain", Exists: true, State: kafka.StateEmpty}}
		if err := render.Deletions(&b, ds, render.Layout{}); err != nil {
			t.Fatal(err)
		}
		if rows := checkSafe(t, "deletions "+short(h), b.String()); rows != 2 {
			t.Errorf("deletions: %d rows", rows)
		}
		b.Reset()
		if err := render.PlanJSON(&b, p, true, errors.New(h), res); err != nil {
			t.Fatal(err)
		}
		checkSafe(t, "plan json "+short(h), b.String())
		var doc struct {
			Group      string `json:"group"`
			Partitions []struct {
				Topic string  `json:"topic"`
				Note  *string `json:"note"`
			} `json:"partitions"`
			Warnings []string `json:"warnings"`
			Blocked  *string  `json:"blocked"`
			Result   struct {
				Receipt string `json:"receipt"`
			} `json:"result"`
		}
		if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		want := jsonString(h)
		if doc.Group != want || doc.Partitions[0].Topic != want || *doc.Partitions[0].Note != want || doc.Warnings[0] != want || *doc.Blocked != want || doc.Result.Receipt != "/r/"+want {
			t.Errorf("plan json does not round-trip %s:\n%s", short(h), short(b.String()))
		}
	}
}

func TestHostileSimulation(t *testing.T) {
	for _, h := range hostile {
		g := hostileGroup(h)
		sim := &rebalance.Simulation{Group: h, Change: rebalance.Change{Leave: []string{h + "-1"}}, Members: []string{"m-2", "new-1"}, Joiners: []string{"new-1"},
			Predictions: []rebalance.Prediction{
				{Assignor: "range", Rounds: 1, Moves: []rebalance.Move{{Topic: h, Partition: 0, From: h + "-1", To: "m-2"}},
					Assignment: map[string][]kafka.TopicPartitions{"m-2": {{Topic: h, Partitions: []int32{0, 2}}}, "new-1": {{Topic: h, Partitions: []int32{1}}}}},
				{Assignor: "sticky", Err: errors.New(h)},
			}}
		var b bytes.Buffer
		if err := render.Simulation(&b, g, sim, render.Layout{}); err != nil {
			t.Fatal(err)
		}
		// Summary (2), moves (1) and assignment (2).
		if rows := checkSafe(t, "simulation "+short(h), b.String()); rows != 5 {
			t.Errorf("simulation: %d rows:\n%s", rows, short(b.String()))
		}
		b.Reset()
		g.Type = kafka.TypeConsumer
		g.Members[0].Target = []kafka.TopicPartitions{{Topic: h, Partitions: []int32{0}}}
		if err := render.Targets(&b, g, "join 1", render.Layout{}, nil, nil); err != nil {
			t.Fatal(err)
		}
		// Members (2) and the partitions still to move (2).
		if rows := checkSafe(t, "targets "+short(h), b.String()); rows != 4 {
			t.Errorf("targets: %d rows:\n%s", rows, short(b.String()))
		}
		b.Reset()
		if err := render.SimulationJSON(&b, g, sim); err != nil {
			t.Fatal(err)
		}
		checkSafe(t, "simulation json "+short(h), b.String())
		var doc struct {
			Group     string `json:"group"`
			Assignors []struct {
				Moves []struct {
					Topic string `json:"topic"`
					From  string `json:"from"`
				} `json:"moves"`
				Error *string `json:"error"`
			} `json:"assignors"`
		}
		if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		want := jsonString(h)
		if doc.Group != want || doc.Assignors[0].Moves[0].Topic != want || doc.Assignors[0].Moves[0].From != want+"-1" || *doc.Assignors[1].Error != want {
			t.Errorf("simulation json does not round-trip %s", short(h))
		}
	}
}

func TestHostileHealth(t *testing.T) {
	var gs []lag.Verdict
	for _, h := range hostile {
		gs = append(gs, lag.Judge(lag.GroupHealth{Group: h, Status: lag.StatusWarn, Severity: lag.SeverityWarn, TotalLag: 5,
			ProduceRate: 1, ConsumeRate: 2, Partitions: []lag.PartitionHealth{
				{Topic: h, Partition: 0, Status: lag.StatusWarn, Committed: 1, LogEnd: 6, Lag: 5, TimeLag: lag.TimeLag{Kind: lag.TimeLagAtLeast, Seconds: 4}},
			}}, 10))
	}
	var b bytes.Buffer
	if err := render.Health(&b, gs, format.AtLeastUnicode, render.Layout{}); err != nil {
		t.Fatal(err)
	}
	if rows := checkSafe(t, "health", b.String()); rows != 2*len(hostile) {
		t.Errorf("health: %d rows", rows)
	}
	b.Reset()
	if err := render.HealthJSON(&b, gs); err != nil {
		t.Fatal(err)
	}
	checkSafe(t, "health json", b.String())
}

// TestPrint: notes are written line by line, each line terminal-safe.
func TestPrint(t *testing.T) {
	var b bytes.Buffer
	if err := render.Printf(&b, "kgroups: group %s: %v", "evil\x1b[2J", errors.Join(errors.New("first \u202e"), errors.New("second\x07"))); err != nil {
		t.Fatal(err)
	}
	assertText(t, "print", b.String(), "kgroups: group evil\\x1b[2J: first \\u202e\nsecond\\x07\n")
}

// TestEncodeJSON: HTML stays as it is, and what a terminal would act on is
// escaped so that decoding gives the exact string back.
func TestEncodeJSON(t *testing.T) {
	in := map[string]string{"a": "<b>&\x1b\x7f\u0085\u009b\u200b\u202e\u2028\U000e0001消费者组👩‍💻"}
	var b bytes.Buffer
	if err := render.EncodeJSON(&b, in); err != nil {
		t.Fatal(err)
	}
	assertText(t, "json", b.String(), "{\n  \"a\": \"<b>&\\u001b\\u007f\\u0085\\u009b\\u200b\\u202e\\u2028\\udb40\\udc01消费者组👩‍💻\"\n}\n")
	var out map[string]string
	if err := json.Unmarshal(b.Bytes(), &out); err != nil || out["a"] != in["a"] {
		t.Errorf("round trip: %q, %v", out["a"], err)
	}
}
