package resetwizard

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/kafka/receipt"
	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/viewtest"
)

var base = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// counting wraps the real service and counts the calls that write, so that
// a test can prove a cancelled wizard never tried to.
type counting struct {
	*reset.Service
	applies atomic.Int32
}

func (c *counting) Apply(ctx context.Context, p *reset.Plan) (*reset.Result, error) {
	c.applies.Add(1)
	return c.Service.Apply(ctx, p)
}

func (c *counting) ApplyDelete(ctx context.Context, d *reset.GroupDeletion) (*reset.DeleteResult, error) {
	c.applies.Add(1)
	return c.Service.ApplyDelete(ctx, d)
}

type fixture struct {
	c       *kafkatest.Cluster
	backend *counting
	dir     string
}

// newFixture: orders has 3 partitions, record i of each at base+i seconds
// (orders/0: 10 records, orders/1: 20, orders/2: 5); group g is Empty with
// orders/0 at 5 and orders/1 at 10.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	c := kafkatest.NewCluster(t)
	c.CreateTopic(t, "orders", 3)
	c.Produce(t, "orders", 0, 10, base)
	c.Produce(t, "orders", 1, 20, base)
	c.Produce(t, "orders", 2, 5, base)
	c.Commit(t, "g", map[string]map[int32]int64{"orders": {0: 5, 1: 10}})
	dir := filepath.Join(t.TempDir(), "receipts")
	svc := &reset.Service{Client: c.Client(t), ReceiptDir: dir, Context: "test"}
	return &fixture{c: c, backend: &counting{Service: svc}, dir: dir}
}

func (f *fixture) commits(group string) map[string]int64 {
	out := make(map[string]int64)
	if gi := f.c.GroupInfo(group); gi != nil {
		for topic, ps := range gi.Commits {
			for p, c := range ps {
				out[topic+"/"+strconv.Itoa(int(p))] = c.Offset
			}
		}
	}
	return out
}

func (f *fixture) unchanged(t *testing.T) {
	t.Helper()
	if got := f.commits("g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 5, "orders/1": 10}) {
		t.Fatalf("commits changed: %v", got)
	}
	if n := f.backend.applies.Load(); n != 0 {
		t.Fatalf("the wizard applied %d times", n)
	}
	if _, err := os.Stat(f.dir); !os.IsNotExist(err) {
		t.Fatalf("a receipt directory was created: %v", err)
	}
}

func testCommon(protected, readOnly bool) ui.Common {
	c := viewtest.Common(120, 30, true)
	c.Protected, c.ReadOnly = protected, readOnly
	return c
}

func keyMsg(k string) tea.KeyMsg {
	switch k {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEscape}
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "backspace":
		return tea.KeyMsg{Type: tea.KeyBackspace}
	case "ctrl+u":
		return tea.KeyMsg{Type: tea.KeyCtrlU}
	case "pgdown":
		return tea.KeyMsg{Type: tea.KeyPgDown}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// press sends keys one by one and runs every Cmd to completion, feeding
// results back, as Bubble Tea would. It returns the messages meant for the
// root (ClosedMsg).
func press(m *Model, keys ...string) []tea.Msg {
	var out []tea.Msg
	for _, k := range keys {
		out = append(out, settle(m, m.Update(keyMsg(k)))...)
	}
	return out
}

// typeText types s one rune at a time.
func typeText(m *Model, s string) {
	for _, r := range s {
		m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

func settle(m *Model, cmd tea.Cmd) []tea.Msg {
	var out []tea.Msg
	for cmd != nil {
		msg := viewtest.Do(cmd)
		switch msg.(type) {
		case planMsg, applyMsg:
			cmd = m.Update(msg)
		default:
			out = append(out, msg)
			cmd = nil
		}
	}
	return out
}

func view(m *Model) string { return viewtest.Strip(m.View()) }

func mustContain(t *testing.T, m *Model, want ...string) {
	t.Helper()
	v := view(m)
	for _, w := range want {
		if !strings.Contains(v, w) {
			t.Fatalf("view does not show %q:\n%s", w, v)
		}
	}
}

// mustContainText is mustContain for wrapped text: the view and each
// wanted string are compared with every run of whitespace read as one
// space.
func mustContainText(t *testing.T, m *Model, want ...string) {
	t.Helper()
	v := strings.Join(strings.Fields(view(m)), " ")
	for _, w := range want {
		if !strings.Contains(v, strings.Join(strings.Fields(w), " ")) {
			t.Fatalf("view does not show %q:\n%s", w, view(m))
		}
	}
}

func closed(t *testing.T, msgs []tea.Msg) ClosedMsg {
	t.Helper()
	if len(msgs) != 1 {
		t.Fatalf("messages = %#v, want one ClosedMsg", msgs)
	}
	c, ok := msgs[0].(ClosedMsg)
	if !ok {
		t.Fatalf("message = %#v, want a ClosedMsg", msgs[0])
	}
	return c
}

func TestWizardResetGroup(t *testing.T) {
	f := newFixture(t)
	m := NewGroup(context.Background(), testCommon(false, false), f.backend, "g")
	if m.Init() != nil {
		t.Fatal("the reset wizard must not read before a scenario is chosen")
	}
	mustContain(t, m, "Reset offsets · group g · step 1 of 5: scenario", "▶ 1  to-earliest", "4  to-offset", "enter choose")

	press(m, "down", "down", "down", "enter") // to-offset
	mustContain(t, m, "step 2 of 5: parameters", "Offset: █", "a whole number, e.g. 1500", "Topics:")
	typeText(m, "abc")
	mustContain(t, m, `✖ invalid offset: offset "abc" is not a non-negative whole number`)
	press(m, "enter")
	if m.step != stepParams {
		t.Fatal("enter moved on with an invalid offset")
	}
	press(m, "ctrl+u")
	typeText(m, "12")
	mustContain(t, m, "● offset 12, clamped to each partition's log")
	press(m, "tab")
	typeText(m, "orders:0,x")
	mustContain(t, m, `✖ invalid --topic "orders:0,x"`)
	press(m, "backspace", "backspace")
	mustContain(t, m, "Topics: orders:0█")
	press(m, "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace")
	mustContain(t, m, "empty: every partition the group has a commit for")

	press(m, "enter")
	if m.step != stepPreview {
		t.Fatalf("step = %d, want preview; problem %q", m.step, m.problem)
	}
	mustContain(t, m,
		"step 3 of 5: preview",
		"state Empty · scope --all-topics", "scenario --to-offset 12",
		"2 of 2 partitions change; 0 records will be consumed again, 7 skipped.",
		"TOPIC  PARTITION NEW-OFFSET CURRENT-OFFSET LOG-START LOG-END DELTA NOTE",
		"orders         0         10              5         0      10    +5 12 is past the log end: clamped to 10",
		"orders         1         12             10         0      20    +2 -",
	)
	f.unchanged(t)

	press(m, "enter")
	mustContain(t, m, "step 4 of 5: confirm", "This commits 2 offsets to group g (2 will change).", "Apply? y to apply")
	f.unchanged(t)
	msgs := press(m, "y")
	if len(msgs) != 0 || m.step != stepResult {
		t.Fatalf("after y: step %d, msgs %v", m.step, msgs)
	}
	mustContain(t, m, "step 5 of 5: result", "● All 2 partitions verified", "Receipt: "+f.dir,
		"orders         0         10               5            10 ok")
	if got := f.commits("g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 10, "orders/1": 12}) {
		t.Fatalf("commits = %v", got)
	}
	c := closed(t, press(m, "enter"))
	if !c.Changed || c.Group != "g" || filepath.Dir(c.Receipt) != f.dir {
		t.Fatalf("ClosedMsg = %+v", c)
	}
	if _, err := reset.LoadReceipt(c.Receipt); err != nil {
		t.Fatalf("receipt: %v", err)
	}
}

func TestWizardCancelAtEveryStep(t *testing.T) {
	f := newFixture(t)
	steps := []struct {
		name string
		to   func(m *Model)
		want step
	}{
		{"scenario", func(*Model) {}, stepScenario},
		{"parameters", func(m *Model) { press(m, "4"); typeText(m, "3") }, stepParams},
		{"planning", func(m *Model) {
			press(m, "1")
			// Enter starts the read; its Cmd is not run yet.
			if cmd := m.Update(keyMsg("enter")); cmd == nil {
				t.Fatal("no plan Cmd")
			}
		}, stepPlanning},
		{"preview", func(m *Model) { press(m, "2", "enter") }, stepPreview},
		{"confirm", func(m *Model) { press(m, "2", "enter", "enter") }, stepConfirm},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			m := NewGroup(context.Background(), testCommon(false, false), f.backend, "g")
			s.to(m)
			if m.step != s.want {
				t.Fatalf("step = %d, want %d; view:\n%s", m.step, s.want, view(m))
			}
			c := closed(t, press(m, "esc"))
			if c.Changed || c.Receipt != "" {
				t.Fatalf("cancel reported a change: %+v", c)
			}
			f.unchanged(t)
		})
	}

	// A plan that arrives after the cancel is dropped.
	m := NewGroup(context.Background(), testCommon(false, false), f.backend, "g")
	press(m, "1")
	planCmd := m.Update(keyMsg("enter"))
	closed(t, press(m, "esc"))
	m.Update(viewtest.Do(planCmd))
	if m.step == stepPreview || m.plan != nil {
		t.Fatal("a cancelled plan reached the preview")
	}

	// The delete wizard cancels the same way, at each of its steps.
	for _, keys := range [][]string{nil, {"enter"}} {
		d := NewDelete(context.Background(), testCommon(false, false), f.backend, "g")
		settle(d, d.Init())
		press(d, keys...)
		c := closed(t, press(d, "esc"))
		if c.Changed {
			t.Fatalf("cancelled delete reported a change: %+v", c)
		}
	}
	f.unchanged(t)
}

func TestWizardBackToParameters(t *testing.T) {
	f := newFixture(t)
	m := NewGroup(context.Background(), testCommon(false, false), f.backend, "g")
	press(m, "4")
	typeText(m, "3")
	press(m, "enter")
	mustContain(t, m, "scenario --to-offset 3")
	press(m, "b")
	if m.step != stepParams {
		t.Fatalf("b did not go back to the parameters: %d", m.step)
	}
	mustContain(t, m, "Offset: 3")
	press(m, "backspace")
	typeText(m, "4")
	press(m, "enter", "enter", "n")
	if m.step != stepPreview {
		t.Fatalf("n on confirm did not go back to the preview: %d", m.step)
	}
	mustContain(t, m, "scenario --to-offset 4")
	f.unchanged(t)
}

func TestWizardPlanErrorsShowOnParameters(t *testing.T) {
	f := newFixture(t)
	m := NewGroup(context.Background(), testCommon(false, false), f.backend, "g")
	press(m, "5") // shift-by
	typeText(m, "-1")
	press(m, "tab")
	typeText(m, "orders nosuch:9")
	press(m, "enter")
	if m.step != stepParams {
		t.Fatalf("step = %d", m.step)
	}
	mustContain(t, m, `topic "nosuch" does not exist`)
	press(m, "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace")
	press(m, "enter")
	mustContain(t, m, `--shift-by moves a committed offset, and group "g" has no commit for`, "orders/2")
	f.unchanged(t)
}

func TestWizardValidatesTimesAsTyped(t *testing.T) {
	f := newFixture(t)
	m := NewGroup(context.Background(), testCommon(false, false), f.backend, "g")
	press(m, "6")
	mustContain(t, m, "Date and time: █", "yyyy-MM-ddTHH:mm:ss.SSS")
	typeText(m, "2024-01-01")
	mustContain(t, m, `✖ invalid datetime "2024-01-01"`, "accepted: yyyy-MM-ddTHH:mm:ss.SSS (UTC unless a zone such as Z or +01:00 follows) or RFC 3339")
	typeText(m, "T00:00:03.000+01:00")
	mustContain(t, m, "● 2023-12-31T23:00:03.000Z")

	m = NewGroup(context.Background(), testCommon(false, false), f.backend, "g")
	press(m, "7")
	typeText(m, "1 day")
	mustContain(t, m, `✖ invalid duration "1 day"`, "accepted: ISO-8601 such as PT30M or P1DT2H, or Go such as 90m")
	press(m, "ctrl+u")
	typeText(m, "PT90M")
	mustContain(t, m, "● 1h30m0s ago: 2025-03-14T07:56:53.000Z")
	f.unchanged(t)
}

func TestWizardSeekByTime(t *testing.T) {
	f := newFixture(t)
	m := NewSeek(context.Background(), testCommon(false, false), f.backend, "g", reset.TP{Topic: "orders", Partition: 1})
	mustContain(t, m, "Seek partition · group g", "Move the offsets of orders:1 to:", "1  to-offset", "2  to-datetime")
	press(m, "2")
	mustContain(t, m, "Partitions: orders:1")
	typeText(m, "2024-01-01T00:00:07.000Z")
	press(m, "enter")
	mustContain(t, m, "orders         1          7             10         0      20    -3 -", "1 of 1 partition change; 3 records will be consumed again, 0 skipped.")
	press(m, "enter", "y")
	mustContain(t, m, "● All 1 partition verified")
	if got := f.commits("g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 5, "orders/1": 7}) {
		t.Fatalf("commits = %v", got)
	}
}

func TestWizardSelectedPartitions(t *testing.T) {
	f := newFixture(t)
	m := NewPartitions(context.Background(), testCommon(false, false), f.backend, "g",
		[]reset.TP{{Topic: "orders", Partition: 2}, {Topic: "orders", Partition: 0}})
	press(m, "1") // to-earliest: no parameters, straight to the preview
	if m.step != stepPreview {
		t.Fatalf("step = %d", m.step)
	}
	mustContain(t, m, "scope --topic orders:0,2",
		"orders         0          0              5         0      10    -5 -",
		"orders         2          0              -         0       5     - -")
	press(m, "enter", "y")
	if got := f.commits("g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 0, "orders/1": 10, "orders/2": 0}) {
		t.Fatalf("commits = %v", got)
	}
}

func TestWizardProtectedNeedsTheName(t *testing.T) {
	f := newFixture(t)
	m := NewGroup(context.Background(), testCommon(true, false), f.backend, "g")
	press(m, "2", "enter", "enter")
	mustContain(t, m, "The context is protected. Type the group's name to apply: █", "enter apply")
	press(m, "y") // typed, not a confirmation
	mustContain(t, m, "apply: y█")
	press(m, "enter")
	mustContain(t, m, "type the group's name exactly to apply: g")
	if m.step != stepConfirm {
		t.Fatalf("step = %d", m.step)
	}
	f.unchanged(t)
	press(m, "backspace", "g", "enter")
	if m.step != stepResult {
		t.Fatalf("step = %d", m.step)
	}
	if got := f.commits("g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 10, "orders/1": 20}) {
		t.Fatalf("commits = %v", got)
	}
}

func TestWizardReadOnlyPreviewsOnly(t *testing.T) {
	f := newFixture(t)
	m := NewGroup(context.Background(), testCommon(false, true), f.backend, "g")
	press(m, "1", "enter")
	mustContain(t, m, "The context is read-only: preview only.")
	press(m, "enter")
	mustContain(t, m, "the context is read-only: this is a preview only, and nothing can be applied")
	press(m, "y")
	if m.step != stepPreview {
		t.Fatalf("step = %d", m.step)
	}
	// Even forced to confirm, it does not apply.
	m.step = stepConfirm
	press(m, "y")
	f.unchanged(t)
}

func TestWizardRefusesLiveGroup(t *testing.T) {
	f := newFixture(t)
	f.c.Commit(t, "live", map[string]map[int32]int64{"orders": {0: 1}})
	mem := f.c.Join(t, "live", []string{"orders"}, kgo.ClientID("live-app"))
	f.c.WaitStable(t, "live", 1, 3)
	m := NewGroup(context.Background(), testCommon(false, false), f.backend, "live")
	press(m, "1", "enter")
	mustContain(t, m, "state Stable · scope --all-topics", `✖ Cannot apply now: cannot reset the offsets of group "live": it is Stable with 1 live member:`,
		"member "+mem.MemberID()+", client live-app", "kgroups rebalance live --all")
	press(m, "enter")
	mustContain(t, m, "cannot apply now: see the reason above")
	press(m, "y")
	if m.step != stepPreview || f.backend.applies.Load() != 0 {
		t.Fatalf("step %d, applies %d", m.step, f.backend.applies.Load())
	}
	if got := f.commits("live"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 1}) {
		t.Fatalf("commits = %v", got)
	}
	// With the words that name the cluster, the suggestion carries them.
	m = NewGroup(context.Background(), testCommon(false, false), f.backend, "live")
	m.Connection = []string{"-b", "127.0.0.1:9092"}
	press(m, "1", "enter")
	mustContain(t, m, "kgroups -b 127.0.0.1:9092 rebalance live --all")
}

func TestWizardDelete(t *testing.T) {
	f := newFixture(t)
	m := NewDelete(context.Background(), testCommon(false, false), f.backend, "g")
	mustContain(t, m, "Delete group · group g")
	settle(m, m.Init())
	mustContain(t, m, "step 1 of 3: preview", "state Empty · 0 members · 2 committed offsets",
		"TOPIC  PARTITION CURRENT-OFFSET", "orders         0              5", "orders         1             10",
		"enter continue · esc cancel") // nothing was typed: no b edit
	press(m, "enter")
	mustContain(t, m, "This deletes group g and its 2 committed offsets.")
	press(m, "y")
	mustContain(t, m, "● Group g deleted; it is gone from the cluster.", "Receipt: "+f.dir)
	if gi := f.c.GroupInfo("g"); gi != nil {
		t.Fatalf("g still exists: %+v", gi)
	}
	c := closed(t, press(m, "esc"))
	if !c.Changed || c.Receipt == "" {
		t.Fatalf("ClosedMsg = %+v", c)
	}

	// A group that does not exist: the wizard says so and closes.
	m = NewDelete(context.Background(), testCommon(false, false), f.backend, "g")
	settle(m, m.Init())
	mustContain(t, m, "state does not exist", `Cannot apply now: group "g" not found`)
}

// TestWrapKeepsLongWords: the wizard's text (a receipt's path) is wrapped
// with format.Wrap, which cuts a word too long for a line across lines.
func TestWrapKeepsLongWords(t *testing.T) {
	got := format.Wrap("Receipt: /a/very/long/path/that/does/not/fit.json and more", 20)
	want := []string{"Receipt:", "/a/very/long/path/th", "at/does/not/fit.json", "and more"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("wrap = %q", got)
	}
	if got := format.Wrap("  indented text here", 12); !reflect.DeepEqual(got, []string{"  indented", "  text here"}) {
		t.Fatalf("wrap indent = %q", got)
	}
}

func TestWizardFitsTheScreen(t *testing.T) {
	f := newFixture(t)
	f.c.CreateTopic(t, "wide", 30)
	var tps []reset.TP
	for p := int32(0); p < 30; p++ {
		tps = append(tps, reset.TP{Topic: "wide", Partition: p})
	}
	c := viewtest.Common(60, 16, false)
	m := NewPartitions(context.Background(), c, f.backend, "g", tps)
	press(m, "2") // to-latest
	if m.step != stepPreview {
		t.Fatalf("step = %d: %s", m.step, m.problem)
	}
	check := func() string {
		t.Helper()
		v := view(m)
		lines := strings.Split(v, "\n")
		if len(lines) > 16 {
			t.Fatalf("%d lines on a 16-line screen:\n%s", len(lines), v)
		}
		for _, l := range lines {
			if w := len([]rune(l)); w > 60 {
				t.Fatalf("line of %d cells on a 60-cell screen: %q", w, l)
			}
		}
		return v
	}
	v := check()
	// Narrow: the log bounds go first, the current offset stays.
	if !strings.Contains(v, "TOPIC PARTITION NEW-OFFSET CURRENT-OFFSET DELTA NOTE") {
		t.Fatalf("header on a narrow screen:\n%s", v)
	}
	if !strings.Contains(v, "wide          0          0              -     - -") || !strings.Contains(v, "rows 1-") || !strings.Contains(v, "of 30") {
		t.Fatalf("first page:\n%s", v)
	}
	press(m, "pgdown", "pgdown", "pgdown", "pgdown", "pgdown")
	v = check()
	if !strings.Contains(v, "scope --topic wide:0-29") || !strings.Contains(v, "wide         29") || !strings.Contains(v, "-30 of 30") {
		t.Fatalf("last page:\n%s", v)
	}
	press(m, "enter", "y")
	v = check()
	if !strings.Contains(v, "* All 30 partitions verified") {
		t.Fatalf("result:\n%s", v)
	}
}

// TestWizardScenarioStaysInSight: on a short screen the arrows choose, and
// the chosen scenario is scrolled into sight; the other keys of the step
// still work.
func TestWizardScenarioStaysInSight(t *testing.T) {
	c := viewtest.Common(80, 8, true)
	m := NewGroup(context.Background(), c, nil, "g")
	lines := func() []string { return strings.Split(view(m), "\n") }
	if got := lines(); len(got) != 8 || got[0] != "Reset offsets · group g · step 1 of 5: scenario" || got[7] != "↑ up · ↓ down · enter choose · esc cancel" {
		t.Fatalf("top:\n%s", view(m))
	}
	press(m, "up") // wraps round to the last scenario
	got := lines()
	if !strings.HasPrefix(got[6], "▶ 8  from-file") || len(got) != 8 {
		t.Fatalf("the last scenario is not in sight:\n%s", view(m))
	}
	press(m, "down")
	if got := lines(); !strings.HasPrefix(got[0], "▶ 1  to-earliest") {
		t.Fatalf("the first scenario is not in sight:\n%s", view(m))
	}
	press(m, "4")
	mustContain(t, m, "step 2 of 5: parameters", "Offset: █")
}

// TestWizardProtectedAcceptsTheShownName: a group whose name has an escape
// character in it is shown with the escape written out ("\x1b"), which is
// all the user can read and type (the input takes no control characters).
// The prompt says that typing it as shown is accepted, and it is.
func TestWizardProtectedAcceptsTheShownName(t *testing.T) {
	const name = "evil\x1b[31m"
	f := newFixture(t)
	f.c.Commit(t, name, map[string]map[int32]int64{"orders": {0: 5, 1: 10}})
	m := NewGroup(context.Background(), testCommon(true, false), f.backend, name)
	press(m, "2", "enter", "enter")
	mustContain(t, m, `The context is protected. Type the group's name (as shown: evil\x1b[31m) to apply: █`)
	typeText(m, "evil[31m") // what typing the raw name leaves: the escape is dropped
	press(m, "enter")
	mustContain(t, m, `type the group's name exactly, or as shown, to apply: evil\x1b[31m`)
	if m.step != stepConfirm || f.backend.applies.Load() != 0 {
		t.Fatalf("step = %d, applies = %d", m.step, f.backend.applies.Load())
	}
	m.Update(tea.KeyMsg{Type: tea.KeyCtrlU})
	typeText(m, `evil\x1b[31m`)
	press(m, "enter")
	if m.step != stepResult {
		t.Fatalf("step = %d:\n%s", m.step, view(m))
	}
	if got := f.commits(name); !reflect.DeepEqual(got, map[string]int64{"orders/0": 10, "orders/1": 20}) {
		t.Fatalf("commits = %v", got)
	}
	if got := f.commits("g"); !reflect.DeepEqual(got, map[string]int64{"orders/0": 5, "orders/1": 10}) {
		t.Fatalf("group g changed: %v", got)
	}
}

// TestWizardSaysItTookOverALock: a lock left by a kgroups that died is taken
// over, and the result step says so, as the CLI does on stderr.
func TestWizardSaysItTookOverALock(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs a pid that has exited")
	}
	f := newFixture(t)
	cl := f.backend.Service.Client
	id, err := cl.ClusterID(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	l, err := receipt.LockGroup(context.Background(), f.dir, receipt.Cluster{ID: id, Brokers: cl.Brokers()}, "g")
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	stale := fmt.Sprintf(`{"pid":%d,"host":%q,"since":"2026-01-01T00:00:00Z"}`, gone.Process.Pid, host)
	if err := os.WriteFile(l.Path, []byte(stale), 0o600); err != nil {
		t.Fatal(err)
	}

	m := NewGroup(context.Background(), testCommon(false, false), f.backend, "g")
	press(m, "enter") // to-earliest
	press(m, "enter") // parameters: every partition
	press(m, "enter") // preview
	press(m, "y")
	if m.step != stepResult {
		t.Fatalf("step = %d, want the result; problem %q", m.step, m.problem)
	}
	// The note is wrapped to the screen, and where it wraps depends on
	// the lengths of the temporary path, the pid and the host name: read
	// it as text, with any run of spaces and line breaks as one space.
	mustContainText(t, m, "● All 2 partitions verified", "Note: took over the lock", "left by pid "+strconv.Itoa(gone.Process.Pid)+" on "+host+", since 2026-01-01T00:00:00Z, which no longer runs")
}
