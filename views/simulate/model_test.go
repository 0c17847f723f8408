package simulate

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/viewtest"
)

// rangeGroup is a Stable classic group on the range assignor: members a, b
// and c own orders 0-1, 2-3 and 4-5, with the join metadata kgo sends.
func rangeGroup() *kafka.Group {
	g := &kafka.Group{Name: "orders-app", Type: kafka.TypeClassic, ProtocolType: "consumer", State: kafka.StateStable, Assignor: "range"}
	for i, id := range []string{"a", "b", "c"} {
		m := viewtest.Member(id, "", "client-"+id, "/10.0.0.1", "orders", int32(2*i), int32(2*i+1))
		m.JoinMetadata = kgo.RangeBalancer().JoinGroupMetadata([]string{"orders"}, nil, 3)
		g.Members = append(g.Members, m)
	}
	return g
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
		"pick a member and press l to see what each assignor would move if it left; n: a…",
		"  MEMBER-ID INSTANCE-ID CLIENT-ID PARTS ASSIGNMENT",
		"▶ a         -           client-a      2 orders(0,1)",
		"  b         -           client-b      2 orders(2,3)",
		"  c         -           client-c      2 orders(4,5)",
	}, "\n")
	if got := viewtest.Strip(m.View()); got != want {
		t.Fatalf("before:\n%s\nwant\n%s", got, want)
	}

	m.Update(tea.KeyMsg{Type: tea.KeyDown})
	press(t, m, "l")
	want = strings.Join([]string{
		"if leave b (from the poll of 09:26:53; partition counts as the group's partitio…",
		"  MEMBER-ID INSTANCE-ID CLIENT-ID PARTS ASSIGNMENT",
		"  a         -           client-a      2 orders(0,1)",
		"▶ b         -           client-b      2 orders(2,3)",
		"  c         -           client-c      2 orders(4,5)",
		"  ASSIGNOR           MOVED ROUNDS MEMBERS",
		"▶ range                  2      1       2",
		"  roundrobin             4      1       2",
		"  sticky                 2      1       2",
		"  cooperative-sticky     2      1       2",
		"range: 2 partitions move · a: next assignor",
		"  TOPIC  PARTITION FROM TO",
		"  orders         2 b    a",
		"  orders         3 b    c",
	}, "\n")
	if got := viewtest.Strip(m.View()); got != want {
		t.Fatalf("after l:\n%s\nwant\n%s", got, want)
	}

	press(t, m, "a")
	got := viewtest.Strip(m.View())
	for _, line := range []string{
		"roundrobin: 4 partitions move · a: next assignor",
		"  orders         1 a    c",
		"  orders         4 c    a",
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
	if got := reasons(); !strings.Contains(got[0], "KIP-848") || !strings.Contains(got[1], "KIP-848") {
		t.Errorf("KIP-848 group: %q", got)
	}
}

func TestSimulateTabShowsKIP848Targets(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	a := viewtest.Member("a", "", "client-a", "/10.0.0.1", "orders", 0, 1, 2, 3)
	b := viewtest.Member("b", "", "client-b", "/10.0.0.2", "orders")
	a.MemberEpoch, b.MemberEpoch = 7, 7
	a.Target = []kafka.TopicPartitions{{Topic: "orders", Partitions: []int32{0, 1}}}
	b.Target = []kafka.TopicPartitions{{Topic: "orders", Partitions: []int32{2, 3}}}
	g := &kafka.Group{Name: "orders-app", Type: kafka.TypeConsumer, State: kafka.StateReconciling, Members: []kafka.Member{a, b}}
	m := New(viewtest.Common(90, 12, false), "orders-app")
	m.Update(ui.DataMsg{Snapshot: snapshotOf(g)})
	want := strings.Join([]string{
		"the broker assigns this group's partitions (KIP-848): current and target per member",
		"  MEMBER CLIENT-ID EPOCH CURRENT         TARGET",
		"> a      client-a      7 orders(0,1,2,3) orders(0,1)",
		"  b      client-b      7 -               orders(2,3)",
		"2 partitions still to move",
		"  TOPIC  PARTITION FROM TO",
		"  orders         2 a    b",
		"  orders         3 a    b",
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
