package diagnosis

import (
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/render"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/viewtest"
)

// poll is one poll of group "g": t/0 committed below the log start, t/1
// behind an open transaction (stable offset 4 of log end 9), owned by m.
func poll(sec int) *kafka.Snapshot {
	m := viewtest.Member("m-1", "", "worker", "/10.0.0.1", "t", 1)
	m.Subscribed = []string{"t"}
	p0 := viewtest.Part("t", 0, 3, 7, 10, nil)
	p1 := viewtest.Part("t", 1, 4, 0, 9, &m)
	p1.StableTrails, p1.LastStable = true, 4
	g := kafka.Group{Name: "g", Type: kafka.TypeClassic, State: kafka.StateStable, Members: []kafka.Member{m},
		Partitions: []kafka.PartitionOffsets{p0, p1}}
	return &kafka.Snapshot{Time: viewtest.Epoch.Add(time.Duration(sec) * time.Second), Groups: []kafka.Group{g},
		PartitionCounts: map[string]int32{"t": 2}}
}

func TestDiagnosisTab(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	tr := lag.NewTracker(lag.DefaultConfig())
	tl := rebalance.NewTimeline(rebalance.TimelineConfig{})
	m := New(viewtest.Common(140, 12, true), "g", tl)
	feed := func(sec int) {
		s := poll(sec)
		tr.Add(s)
		tl.Add(s)
		m.Update(ui.DataMsg{Snapshot: s, History: tr, Lag: tr})
	}
	feed(0)
	ids := func() []string {
		var out []string
		for _, f := range m.Findings() {
			out = append(out, f.ID+" "+f.Topic)
		}
		return out
	}
	// The transaction has not held the stable offset for a window yet.
	if got := ids(); len(got) != 2 || got[0] != "records-lost-to-retention t" || got[1] != "unassigned-partitions t" {
		t.Fatalf("first poll: %q", got)
	}
	feed(30)
	feed(61)
	got := ids()
	if len(got) != 3 || got[0] != "records-lost-to-retention t" || got[1] != "stuck-behind-open-transaction t" || got[2] != "unassigned-partitions t" {
		t.Fatalf("after a minute: %q", got)
	}
	if v, _ := m.Findings()[1].Evidence.Get("lastStableOffset"); v != int64(4) {
		t.Errorf("lastStableOffset %v", v)
	}
	view := viewtest.Strip(m.View())
	for _, want := range []string{"2 ERR · 1 WARN", "▶ ERR      records-lost-to-retention     t:0   committed offset 3", "  ERR      stuck-behind-open-transaction t:1   the last stable", "  WARN     unassigned-partitions         t     the group is Stable"} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q:\n%s", want, view)
		}
	}

	// Enter on the lost records goes to the partition; on the open
	// transaction, to the record at the stable offset.
	enter := tea.KeyMsg{Type: tea.KeyEnter}
	cmd, ok := ui.Dispatch(m.Actions(), enter, true)
	if !ok {
		t.Fatal("enter not bound")
	}
	if msg := viewtest.Do(cmd); msg != (ui.ShowPartitionMsg{Group: "g", Topic: "t", Partition: 0}) {
		t.Errorf("enter on records-lost: %#v", msg)
	}
	m.Update(tea.KeyMsg{Type: tea.KeyDown})
	cmd, _ = ui.Dispatch(m.Actions(), enter, true)
	if msg := viewtest.Do(cmd); msg != (ui.OpenRecordMsg{Group: "g", Topic: "t", Partition: 1, Offset: 4}) {
		t.Errorf("enter on the open transaction: %#v", msg)
	}
	// A finding on a whole topic names nowhere to go: Enter says so
	// rather than doing nothing.
	m.Update(tea.KeyMsg{Type: tea.KeyDown})
	cmd, _ = ui.Dispatch(m.Actions(), enter, true)
	if msg := viewtest.Do(cmd); msg != (ui.FlashMsg{Text: "go to the finding's partition, member or record: this finding names none", Error: true}) {
		t.Errorf("enter on unassigned-partitions: %#v", msg)
	}
	// The same input gives kgroups diagnose's findings: one rule.
	gh, _ := tr.Evaluate("g", nil)
	s := poll(61)
	g, _ := s.Group("g")
	want := diagnose.Diagnose(diagnose.Input{Group: g, PartitionCounts: s.PartitionCounts, Verdict: lag.Judge(gh, tr.Config().Window),
		Since: s.Time.Add(-Window), Now: s.Time, Reads: &diagnose.Reads{Stable: map[diagnose.TP]diagnose.StableOffsets{{Topic: "t", Partition: 1}: {First: 4, Last: 4}}}})
	if len(want) != len(m.Findings()) {
		t.Fatalf("diagnose %d findings, tab %d", len(want), len(m.Findings()))
	}
	for i := range want {
		if want[i].ID != m.Findings()[i].ID || render.DiagnoseMessage(&want[i]) != render.DiagnoseMessage(&m.Findings()[i]) {
			t.Errorf("finding %d: diagnose %+v, tab %+v", i, want[i], m.Findings()[i])
		}
	}
}

// quiet is one poll of group "h": one partition owned by m, lagging 5
// with its commit moving a record a second, so no rule finds anything
// once judged.
func quiet(sec int) *kafka.Snapshot {
	m := viewtest.Member("m-1", "", "worker", "/10.0.0.1", "t", 0)
	m.Subscribed = []string{"t"}
	p := viewtest.Part("t", 0, int64(sec), 0, int64(sec)+5, &m)
	g := kafka.Group{Name: "h", Type: kafka.TypeClassic, State: kafka.StateStable, Members: []kafka.Member{m},
		Partitions: []kafka.PartitionOffsets{p}}
	return &kafka.Snapshot{Time: viewtest.Epoch.Add(time.Duration(sec) * time.Second), Groups: []kafka.Group{g},
		PartitionCounts: map[string]int32{"t": 1}}
}

// TestNoFindingsOnlyOnceJudged: while the window is short the tab says
// it is judging, never "no findings"; once judged, "no findings".
func TestNoFindingsOnlyOnceJudged(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	tr := lag.NewTracker(lag.DefaultConfig())
	m := New(viewtest.Common(140, 12, true), "h", nil)
	feed := func(sec int) string {
		s := quiet(sec)
		tr.Add(s)
		m.Update(ui.DataMsg{Snapshot: s, History: tr, Lag: tr})
		return viewtest.Strip(m.View())
	}
	v := feed(0)
	if !strings.Contains(v, "0 ERR · 0 WARN · judging 1/10") || !strings.Contains(v, "no findings yet: judging 1/10") || strings.Contains(v, "no findings:") {
		t.Fatalf("first poll:\n%s", v)
	}
	for i := 1; i < 10; i++ {
		v = feed(i * 5)
	}
	if strings.Contains(v, "judging") || !strings.Contains(v, "no findings: nothing explains a lag") {
		t.Fatalf("after a full window:\n%s", v)
	}
}

// TestNoFindingsWhileReading: with the tab on show and reads asked for,
// it says what it is reading, not "no findings".
func TestNoFindingsWhileReading(t *testing.T) {
	m := New(viewtest.Common(140, 12, true), "h", nil)
	m.known, m.shown = true, true
	m.want = diagnose.Wants{Transactions: []diagnose.TP{{Topic: "t"}}, Records: []kafka.CommitKey{{Topic: "t"}}}
	if got, want := m.noFindings(), "no findings yet: reading transactions and records"+m.Glyphs.Ellipsis; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	m.want = diagnose.Wants{}
	if got := m.noFindings(); got != "no findings: nothing explains a lag from what the polls show" {
		t.Errorf("nothing to read: %q", got)
	}
}

// TestOldBrokersSayWhatIsMissing: brokers older than Kafka 2.8 cannot
// name the producer behind a trailing stable offset. The tab still finds
// the open transaction, says on its first line what is missing and why,
// and keeps saying it on later answers.
func TestOldBrokersSayWhatIsMissing(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	tr := lag.NewTracker(lag.DefaultConfig())
	m := New(viewtest.Common(200, 12, true), "g", nil)
	var cmd tea.Cmd
	for _, sec := range []int{0, 30, 61} {
		s := poll(sec)
		tr.Add(s)
		cmd = m.Update(ui.DataMsg{Snapshot: s, History: tr, Lag: tr})
	}
	if c := m.Update(ui.TabShownMsg{}); c != nil {
		cmd = c
	}
	req, ok := viewtest.Do(cmd).(ui.DiagnosisRequestMsg)
	if !ok || len(req.Wants.Transactions) != 1 {
		t.Fatalf("the tab asked %#v, want the producers of t/1", req)
	}
	missing := kafka.Missing{Feature: kafka.FeatureProducers, Reason: kafka.Unsupported}
	m.Update(ui.DiagnosisMsg{ID: req.ID, Group: "g", Wants: req.Wants, Reads: &diagnose.Reads{Missing: []kafka.Missing{missing}}})
	view := viewtest.Strip(m.View())
	top := strings.SplitN(view, "\n", 3)
	if want := "2 ERR · 1 WARN · judging 1/10 · from the polls and reads"; top[0] != want {
		t.Errorf("first line %q, want %q", top[0], want)
	}
	if want := "  note: producers behind a trailing stable offset not named: the brokers are older than Kafka 2.8 (DescribeProducers)"; top[1] != want {
		t.Errorf("second line %q, want %q", top[1], want)
	}
	if n := strings.Count(view, "\n") + 1; n > 12 {
		t.Errorf("the view is %d lines high, in a tab 12 high:\n%s", n, view)
	}
	var txn *diagnose.Finding
	for i, f := range m.Findings() {
		if f.ID == diagnose.IDOpenTransaction {
			txn = &m.Findings()[i]
		}
	}
	if txn == nil || !strings.HasSuffix(render.DiagnoseMessage(txn), "read_committed consumers cannot pass it; its producer was not read") {
		t.Errorf("open transaction finding %+v", txn)
	}
	if want := [][]string{{"kgroups", "peek", "g", "--topic", "t:1", "--offset", "4"}}; txn != nil && !reflect.DeepEqual(txn.Next, want) {
		t.Errorf("next %q, want %q: kafka-transactions.sh cannot list producers on these brokers either", txn.Next, want)
	}
	if strings.Contains(view, "read failed") || strings.Contains(view, "too old") {
		t.Errorf("a raw protocol error on the tab:\n%s", view)
	}
}

// TestDetailKeepsTheNextStep: in a window too short for the whole
// detail, evidence gives way, a line says how much, and the next step
// stays.
func TestDetailKeepsTheNextStep(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	tr := lag.NewTracker(lag.DefaultConfig())
	m := New(viewtest.Common(80, 24, true), "g", nil)
	s := poll(0)
	tr.Add(s)
	m.Update(ui.DataMsg{Snapshot: s, History: tr, Lag: tr})
	f := m.Findings()[0]
	full := m.detail(&f, 100)
	last := full[len(full)-1]
	if len(f.Evidence) < 3 || !strings.HasPrefix(last, "next: ") {
		t.Fatalf("the finding has %d pieces of evidence and ends %q; the test needs 3 and a next step", len(f.Evidence), last)
	}
	short := m.detail(&f, len(full)-1)
	if len(short) != len(full)-1 || short[len(short)-1] != last || short[len(short)-2] != "  … 2 more pieces of evidence: a taller window shows them" {
		t.Errorf("detail in %d lines:\n%s\nwant the last but one piece of evidence replaced by a count, and %q last", len(full)-1, strings.Join(short, "\n"), last)
	}
	if got := m.detail(&f, len(full)); !reflect.DeepEqual(got, full) {
		t.Errorf("detail with room for it all:\n%s", strings.Join(got, "\n"))
	}
}
