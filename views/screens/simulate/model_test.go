package simulate

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/viewtest"
)

// rangeGroup is a Stable classic group on the range assignor: members a, b
// and c (client ids client-a, client-b and client-c, each member id the
// client id and a uuid, as kgo makes them) own orders 0-1, 2-3 and 4-5, with
// the join metadata kgo sends.
func rangeGroup() *kafka.Group {
	g := &kafka.Group{Name: "orders-app", Type: kafka.TypeClassic, ProtocolType: "consumer", State: kafka.StateStable, Assignor: "range"}
	for i, id := range []string{"a", "b", "c"} {
		m := viewtest.Member(memberID(id), "", "client-"+id, "/10.0.0.1", "orders", int32(2*i), int32(2*i+1))
		m.JoinMetadata = kgo.RangeBalancer().JoinGroupMetadata([]string{"orders"}, nil, 3)
		g.Members = append(g.Members, m)
	}
	return g
}

// memberID is the member id of client-x in the fixtures.
func memberID(x string) string {
	return map[string]string{
		"a": "client-a-7d1c0a52-3f4e-4b8a-9c61-2b5f0e8d4a11",
		"b": "client-b-5e0c9a7b-2d41-4f6e-8b3a-7c9d1e2f4a60",
		"c": "client-c-0b9e8f7a-6c5d-4e3f-a2b1-c0d9e8f7a6b5",
	}[x]
}

func snapshotOf(gs ...*kafka.Group) *kafka.Snapshot {
	s := &kafka.Snapshot{Time: viewtest.Epoch}
	for _, g := range gs {
		s.Groups = append(s.Groups, *g)
	}
	return s
}

func press(t *testing.T, m *Model, k string) tea.Msg {
	t.Helper()
	cmd, handled := ui.Dispatch(m.Actions(), tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}, false)
	if !handled {
		t.Fatalf("key %q not handled", k)
	}
	if cmd == nil {
		return nil
	}
	msg := viewtest.Do(cmd)
	m.Update(msg)
	return msg
}

func TestSimulateTab(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	m := New(viewtest.Common(80, 18, true), "orders-app")
	m.Update(ui.DataMsg{Snapshot: snapshotOf(rangeGroup())})
	want := strings.Join([]string{
		"press l to predict the selected member leaving, n a member joining",
		"  MEMBER           INSTANCE-ID PARTS ASSIGNMENT",
		"▶ client-a (…4a11) -               2 orders(0,1)",
		"  client-b (…4a60) -               2 orders(2,3)",
		"  client-c (…a6b5) -               2 orders(4,5)",
	}, "\n")
	if got := viewtest.Strip(m.View()); got != want {
		t.Fatalf("before:\n%s\nwant\n%s", got, want)
	}

	m.Update(tea.KeyMsg{Type: tea.KeyDown})
	press(t, m, "l")
	want = strings.Join([]string{
		"if client-b (…4a60) leaves (poll of 09:26:53)",
		"  MEMBER           INSTANCE-ID PARTS ASSIGNMENT",
		"  client-a (…4a11) -               2 orders(0,1)",
		"▶ client-b (…4a60) -               2 orders(2,3)",
		"  client-c (…a6b5) -               2 orders(4,5)",
		"  ASSIGNOR           CONFIDENCE  MOVED ROUNDS MEMBERS NOTE",
		// kgo's metadata identifies the members as franz-go.
		"▶ range              exact           2      1       2 the group's assignor",
		"  roundrobin         exact           4      1       2 if the group used roundro…",
		"  sticky             approximate     2      1       2 if the group used sticky;…",
		"  cooperative-sticky approximate     2      1       2 if the group used coopera…",
		"range: 2 partitions change process · a: next assignor",
		"  TOPIC  PARTITION FROM             TO",
		"  orders         2 client-b (…4a60) client-a (…4a11)",
		"  orders         3 client-b (…4a60) client-c (…a6b5)",
	}, "\n")
	if got := viewtest.Strip(m.View()); got != want {
		t.Fatalf("after l:\n%s\nwant\n%s", got, want)
	}

	press(t, m, "a")
	got := viewtest.Strip(m.View())
	for _, line := range []string{
		"roundrobin: 4 partitions change process · a: next assignor",
		"  orders         1 client-a (…4a11) client-c (…a6b5)",
		"  orders         4 client-c (…a6b5) client-a (…4a11)",
	} {
		if !strings.Contains(got, line+"\n") && !strings.HasSuffix(got, line) {
			t.Errorf("after a, the view lacks %q:\n%s", line, got)
		}
	}

	// n, then n again: one, then two members join.
	press(t, m, "n")
	if ch := m.Result().Sim.Change; ch.Join != 1 {
		t.Fatalf("first n simulated %v", ch)
	}
	press(t, m, "n")
	if ch := m.Result().Sim.Change; ch.Join != 2 {
		t.Fatalf("second n simulated %v", ch)
	}
	if p := m.Result().Sim.Predictions[0]; p.Assignor != "range" || len(p.Assignment) != 5 {
		t.Errorf("range after two joins: %+v", p)
	}
}

func TestSimulateTabDropsStaleResults(t *testing.T) {
	m := New(viewtest.Common(80, 18, true), "orders-app")
	m.Update(ui.DataMsg{Snapshot: snapshotOf(rangeGroup())})
	cmd, _ := ui.Dispatch(m.Actions(), tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("l")}, false)
	first := viewtest.Do(cmd)
	// A second request supersedes the first before its result lands.
	press(t, m, "n")
	m.Update(first)
	if ch := m.Result().Sim.Change; ch.Join != 1 || len(ch.Leave) != 0 {
		t.Errorf("a superseded result replaced the current one: %v", ch)
	}
	other := first.(ResultMsg)
	other.Group, other.ID = "another-group", m.reqID
	m.Update(other)
	if ch := m.Result().Sim.Change; ch.Join != 1 {
		t.Errorf("another group's result was taken: %v", ch)
	}
}

func TestSimulateTabActionsSayWhyNot(t *testing.T) {
	m := New(viewtest.Common(80, 18, true), "orders-app")
	reasons := func() []string {
		var out []string
		for _, a := range m.Actions() {
			if a.Dangerous {
				t.Errorf("action %q is Dangerous; a simulation writes nothing", a.Name)
			}
			out = append(out, a.DisabledReason(true))
		}
		return out
	}
	if got := reasons(); got[0] != "the group has not been seen yet" || got[2] != "nothing has been simulated yet" {
		t.Errorf("before data: %q", got)
	}
	k := &kafka.Group{Name: "orders-app", Type: kafka.TypeConsumer, State: kafka.StateStable}
	m.Update(ui.DataMsg{Snapshot: snapshotOf(k)})
	// A KIP-848 group is simulated with the broker's assignors; one
	// without members has nothing to simulate.
	if got := reasons(); got[0] != "the group has no members" || got[1] != "the group has no members" {
		t.Errorf("KIP-848 group: %q", got)
	}
}

// TestSimulateTabPredictsKIP848: l on a KIP-848 group runs the models of
// the broker's assignors, with the poll's topic ids and partition counts:
// the group's own uniform first, exact, the leaver's partitions shared out
// and the other members keeping theirs; then range.
func TestSimulateTabPredictsKIP848(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	mk := func(id, client string, ps ...int32) kafka.Member {
		m := viewtest.Member(memberID(id), "", client, "/10.0.0.1", "orders", ps...)
		m.Subscribed, m.Target, m.MemberEpoch = []string{"orders"}, m.Assignment, 4
		return m
	}
	g := &kafka.Group{Name: "orders-app", Type: kafka.TypeConsumer, State: kafka.StateStable, Assignor: rebalance.AssignorUniform,
		Members: []kafka.Member{mk("a", "client-a", 0, 1), mk("b", "client-b", 2, 3), mk("c", "client-c", 4, 5)}}
	snap := snapshotOf(g)
	snap.TopicIDs = map[string]kafka.TopicID{"orders": {1}}
	// Partition 6 is in nobody's assignment: only the poll's count says
	// it exists, and the broker's assignors deal it too.
	snap.PartitionCounts = map[string]int32{"orders": 7}
	m := New(viewtest.Common(140, 20, false), "orders-app")
	m.Update(ui.DataMsg{Snapshot: snap})
	press(t, m, "l") // the first member, client-a, leaves
	res := m.Result()
	if res == nil || res.Err != nil || len(res.Sim.Predictions) != 2 {
		t.Fatalf("result %+v", res)
	}
	p := res.Sim.Predictions[0]
	if p.Assignor != rebalance.AssignorUniform || p.Confidence != rebalance.ConfidenceExact || len(p.Moves) != 3 {
		t.Fatalf("uniform: %s %s, %d moves; want exact, 3 moves (0 and 1 from client-a, 6 from nobody)", p.Assignor, p.Confidence, len(p.Moves))
	}
	var sizes []int
	for id, want := range map[string][]int32{memberID("b"): {2, 3}, memberID("c"): {4, 5}} {
		got := p.Assignment[id]
		if len(got) != 1 || !slices.Contains(got[0].Partitions, want[0]) || !slices.Contains(got[0].Partitions, want[1]) {
			t.Fatalf("uniform: %s gets %v, want %v kept", id, got, want)
		}
		sizes = append(sizes, len(got[0].Partitions))
	}
	if slices.Sort(sizes); !slices.Equal(sizes, []int{3, 4}) {
		t.Errorf("uniform: %v partitions each, want 3 and 4", sizes)
	}
	if r := res.Sim.Predictions[1]; r.Assignor != rebalance.AssignorRange || r.Confidence != rebalance.ConfidenceExact {
		t.Errorf("second row: %s %s, want range, exact", r.Assignor, r.Confidence)
	}
	v := viewtest.Strip(m.View())
	for _, want := range []string{"uniform", "the group's assignor; the broker's uniform", "if the group used range", "the broker's assignors, partition counts as the poll read them"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
}

func TestSimulateTabShowsKIP848Targets(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	a := viewtest.Member(memberID("a"), "", "client-a", "/10.0.0.1", "orders", 0, 1, 2, 3)
	b := viewtest.Member(memberID("b"), "", "client-b", "/10.0.0.2", "orders")
	a.MemberEpoch, b.MemberEpoch = 7, 7
	a.Target = []kafka.TopicPartitions{{Topic: "orders", Partitions: []int32{0, 1}}}
	b.Target = []kafka.TopicPartitions{{Topic: "orders", Partitions: []int32{2, 3}}}
	g := &kafka.Group{Name: "orders-app", Type: kafka.TypeConsumer, State: kafka.StateReconciling, Members: []kafka.Member{a, b}}
	m := New(viewtest.Common(90, 12, false), "orders-app")
	m.Update(ui.DataMsg{Snapshot: snapshotOf(g)})
	want := strings.Join([]string{
		"KIP-848: the broker assigns partitions; current and target per member",
		"  MEMBER           EPOCH CURRENT         TARGET",
		"> client-a (~4a11)     7 orders(0,1,2,3) orders(0,1)",
		"  client-b (~4a60)     7 -               orders(2,3)",
		"2 partitions still to move",
		"  TOPIC  PARTITION FROM             TO",
		"  orders         2 client-a (~4a11) client-b (~4a60)",
		"  orders         3 client-a (~4a11) client-b (~4a60)",
	}, "\n")
	if got := viewtest.Strip(m.View()); got != want {
		t.Fatalf("view:\n%s\nwant\n%s", got, want)
	}
}

// A result computed for a Simulate tab that has since been closed must not
// land on a new tab for the same group, even though both made their first
// request.
func TestSimulateTabDropsResultsOfAnEarlierScreen(t *testing.T) {
	old := New(viewtest.Common(80, 18, true), "orders-app")
	old.Update(ui.DataMsg{Snapshot: snapshotOf(rangeGroup())})
	oldCmd, _ := ui.Dispatch(old.Actions(), tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("n")}, false)

	m := New(viewtest.Common(80, 18, true), "orders-app")
	m.Update(ui.DataMsg{Snapshot: snapshotOf(rangeGroup())})
	if _, ok := ui.Dispatch(m.Actions(), tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("l")}, false); !ok {
		t.Fatal("l did nothing")
	}
	m.Update(viewtest.Do(oldCmd))
	if m.Result() != nil {
		t.Fatalf("the earlier screen's join result landed on the new screen: %v", m.Result().Sim.Change)
	}
}

// TestSimulateTabNamesMembersInTheWidth: at 80 columns a long, hostile
// client id is cut before the member-id suffix, the same way in the members
// table, FROM and TO, and the line saying what was simulated is never cut.
func TestSimulateTabNamesMembersInTheWidth(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	g := rangeGroup()
	long := "billing-\x1b[31mconsumer-with-a-very-long-client-id-that-goes-on-and-on"
	g.Members[1].ClientID = long
	m := New(viewtest.Common(80, 18, true), "orders-app")
	m.Update(ui.DataMsg{Snapshot: snapshotOf(g)})
	m.Update(tea.KeyMsg{Type: tea.KeyDown})
	press(t, m, "l")
	v := viewtest.Strip(m.View())
	ls := strings.Split(v, "\n")
	const name = `billing-\x1b[31mcon… (…4a60)`
	if got, want := ls[0], "if "+name+" leaves (poll of 09:26:53)"; got != want {
		t.Fatalf("status line = %q\nwant %q", got, want)
	}
	if got := ls[3]; !strings.HasPrefix(got, "▶ "+name+" -") {
		t.Fatalf("member row = %q", got)
	}
	if got, want := ls[12], "  orders         2 "+name+" client-a (…4a11)"; got != want {
		t.Fatalf("first move = %q\nwant %q", got, want)
	}
	if !strings.Contains(v, `\x1b[31m`) || strings.ContainsRune(m.View(), 0x1b) {
		t.Fatalf("the escape was not made visible text:\n%q", m.View())
	}
	// When c leaves, a (now the long client id) takes partition 2 from
	// b: as TO it is named the same way.
	g.Members[1].ClientID, g.Members[0].ClientID = "client-b", long
	m.Update(ui.DataMsg{Snapshot: snapshotOf(g)})
	m.Update(tea.KeyMsg{Type: tea.KeyDown})
	press(t, m, "l")
	ls = strings.Split(viewtest.Strip(m.View()), "\n")
	const nameA = `billing-\x1b[31mcon… (…4a11)`
	if got, want := ls[12], "  orders         2 client-b (…4a60) "+nameA; got != want {
		t.Fatalf("a move to the long name = %q\nwant %q", got, want)
	}
}

// TestSimulateTabStaticRejoin: when the member that leaves is static, the
// prediction's line also says what happens if it rejoins under its
// instance id in time: counted by process, nothing moves.
func TestSimulateTabStaticRejoin(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	m := New(viewtest.Common(160, 18, true), "orders-app")
	g := rangeGroup()
	g.Members[1].InstanceID = "orders-b"
	m.Update(ui.DataMsg{Snapshot: snapshotOf(g)})
	m.Update(tea.KeyMsg{Type: tea.KeyDown})
	press(t, m, "l")
	want := "range: 2 partitions change process · a: next assignor · if it rejoins in time: 0 partitions change process, 1 member rejoins with a new id"
	if got := viewtest.Strip(m.View()); !strings.Contains(got, want+"\n") {
		t.Fatalf("the view lacks %q:\n%s", want, got)
	}
}

// rdkafkaGroup is rangeGroup with librdkafka's default client id on every
// member, the metadata librdkafka sends for cooperative-sticky (version 1,
// its sticky user data, the partitions it owns) and the given protocol
// chosen.
func rdkafkaGroup(protocol string) *kafka.Group {
	g := rangeGroup()
	g.Assignor = protocol
	for i := range g.Members {
		m := &g.Members[i]
		m.ClientID = "rdkafka"
		sticky := kmsg.NewStickyMemberMetadata()
		sticky.Generation = 3
		meta := kmsg.NewConsumerMemberMetadata()
		meta.Version, meta.Topics = 1, []string{"orders"}
		for _, tp := range m.Assignment {
			sticky.CurrentAssignment = append(sticky.CurrentAssignment, kmsg.StickyMemberMetadataCurrentAssignment{Topic: tp.Topic, Partitions: tp.Partitions})
			meta.OwnedPartitions = append(meta.OwnedPartitions, kmsg.ConsumerMemberMetadataOwnedPartition{Topic: tp.Topic, Partitions: tp.Partitions})
		}
		meta.UserData = sticky.AppendTo(nil)
		m.JoinMetadata = meta.AppendTo(nil)
	}
	return g
}

// TestSimulateTabLeaderModel: a librdkafka group's own assignor is the
// first of five rows, exact, with its note; the Java rows say what they
// are. An assignor kgroups does not model is a counts-only row whose
// sentence is the title when picked.
func TestSimulateTabLeaderModel(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	m := New(viewtest.Common(100, 22, true), "orders-app")
	m.Update(ui.DataMsg{Snapshot: snapshotOf(rdkafkaGroup("cooperative-sticky"))})
	m.Update(tea.KeyMsg{Type: tea.KeyDown})
	press(t, m, "l")
	got := viewtest.Strip(m.View())
	for _, line := range []string{
		"  ASSIGNOR           CONFIDENCE  MOVED ROUNDS MEMBERS NOTE",
		"▶ cooperative-sticky exact           2      1       2 the group's assignor",
		"  range              approximate     2      1       2 if the group used range",
		// The Java rows' sticky ones go on: the leader breaks ties its
		// own way.
		"  cooperative-sticky approximate     2      1       2 if the group used cooperative-sticky; the lea",
	} {
		if !strings.Contains(got, line) {
			t.Errorf("the view lacks %q:\n%s", line, got)
		}
	}
	if n := len(m.Result().Sim.Predictions); n != 5 {
		t.Fatalf("%d predictions, want 5", n)
	}

	m = New(viewtest.Common(100, 22, true), "orders-app")
	m.Update(ui.DataMsg{Snapshot: snapshotOf(rdkafkaGroup("my-assignor"))})
	press(t, m, "l")
	got = viewtest.Strip(m.View())
	for _, line := range []string{
		"▶ my-assignor        unknown         -      -       2 the group's assignor",
		"my-assignor: counts only: this group's leader runs my-assignor, which kgroups does not model · a: n…",
	} {
		if !strings.Contains(got, line+"\n") && !strings.HasSuffix(got, line) {
			t.Errorf("the view lacks %q:\n%s", line, got)
		}
	}
}

// TestSimulateTabHostileAssignor: the protocol name is the group's (any
// consumer chooses it); on the tab's row and in its counts-only sentence
// it never reaches the terminal raw.
func TestSimulateTabHostileAssignor(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	m := New(viewtest.Common(100, 22, true), "orders-app")
	m.Update(ui.DataMsg{Snapshot: snapshotOf(rdkafkaGroup("evil\x1b[2J\u202ename"))})
	press(t, m, "l")
	v := m.View()
	if strings.Contains(v, "\x1b[2J") || strings.Contains(v, "\u202e") {
		t.Fatalf("raw control or bidi bytes on screen: %q", v)
	}
	if n := strings.Count(viewtest.Strip(v), `evil\x1b[2J\u202ename`); n != 3 {
		t.Fatalf("the escaped assignor appears %d times, want 3 (row, title, sentence):\n%s", n, viewtest.Strip(v))
	}
}

// TestSimulateTabJoinerRange: a joiner whose member id decides the result
// shows the range in MOVED, the best result first, and w steps through
// every result and back to the first; the row's confidence and note are
// the CLI's.
func TestSimulateTabJoinerRange(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	m := New(viewtest.Common(100, 24, true), "orders-app")
	m.Update(ui.DataMsg{Snapshot: snapshotOf(rangeGroup())})
	press(t, m, "n")
	p := m.Result().Sim.Predictions[0]
	if p.Assignor != "range" || !p.Ranged() || p.Confidence != "approximate" || len(p.Results) != 4 {
		t.Fatalf("range row %s %s ranged %v, %d results", p.Assignor, p.Confidence, p.Ranged(), len(p.Results))
	}
	got := viewtest.Strip(m.View())
	for _, want := range []string{
		"▶ range              approximate   1–5      1       4 ",
		"range, result 1 of 4: 1 partition changes process · a: next assignor · w: next result",
		"  orders         4 client-c (…a6b5) new-1",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("best result: the view lacks %q:\n%s", want, got)
		}
	}
	if !slices.ContainsFunc(m.ShortHelp(), func(b key.Binding) bool { return b.Help().Key == "w" }) {
		t.Errorf("footer %v lacks w", m.ShortHelp())
	}
	for _, step := range []struct{ title, move string }{
		{"range, result 2 of 4: 1 partition changes process", "  orders         5 client-c (…a6b5) new-1"},
		{"range, result 3 of 4: 3 partitions change process", "  orders         4 client-c (…a6b5) client-b (…4a60)"},
		{"range, result 4 of 4: 5 partitions change process", "  orders         0 client-a (…4a11) new-1"},
		{"range, result 1 of 4: 1 partition changes process", "  orders         4 client-c (…a6b5) new-1"},
	} {
		press(t, m, "w")
		got = viewtest.Strip(m.View())
		for _, want := range []string{step.title + " · a: next assignor · w: next result", step.move} {
			if !strings.Contains(got, want) {
				t.Errorf("after w: the view lacks %q:\n%s", want, got)
			}
		}
	}
	// A leave has one outcome: w says why it does nothing.
	press(t, m, "l")
	for _, a := range m.Actions() {
		if a.Key.Help().Key == "w" && a.Unavailable() != "every run of the assignor gives the same result" {
			t.Errorf("w after a leave: %q", a.Unavailable())
		}
	}
}
