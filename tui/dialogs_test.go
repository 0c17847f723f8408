package tui

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/kafka/write"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/screens/groupdetail"
	"github.com/kgroups/kgroups/views/screens/grouplist"
	"github.com/kgroups/kgroups/views/screens/removal"
	"github.com/kgroups/kgroups/views/screens/resetwizard"
	"github.com/kgroups/kgroups/views/ui"
)

// fakeReset is a reset backend that must not be reached in these tests:
// every call is counted and refused.
type fakeReset struct {
	mu    sync.Mutex
	calls int
}

var errNotHere = errors.New("the test never gets this far")

func (f *fakeReset) count() {
	f.mu.Lock()
	f.calls++
	f.mu.Unlock()
}

func (f *fakeReset) Calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

func (f *fakeReset) Plan(context.Context, reset.Request) (*reset.Plan, error) {
	f.count()
	return nil, errNotHere
}

func (f *fakeReset) Apply(context.Context, *reset.Plan) (*reset.Result, error) {
	f.count()
	return nil, errNotHere
}

func (f *fakeReset) PlanDelete(context.Context, string) (*reset.GroupDeletion, error) {
	f.count()
	return nil, errNotHere
}

func (f *fakeReset) ApplyDelete(context.Context, *reset.GroupDeletion) (*reset.DeleteResult, error) {
	f.count()
	return nil, errNotHere
}

// fakeRemover answers Remove with refuse (per member, verbatim) and Wait
// with out. It records what it was asked.
type fakeRemover struct {
	mu      sync.Mutex
	refuse  error
	out     *rebalance.Outcome
	removes [][]string
	waits   [][]string
}

func (f *fakeRemover) Remove(_ context.Context, p *rebalance.Plan) (*rebalance.Removal, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var ids []string
	var rs []rebalance.Result
	for _, t := range p.Targets {
		ids = append(ids, t.Member.MemberID)
		rs = append(rs, rebalance.Result{Target: t, Err: write.Refusal(f.refuse), Gone: f.refuse == nil})
	}
	f.removes = append(f.removes, ids)
	return &rebalance.Removal{Receipt: "/state/receipts/removal.json", Results: rs}, nil
}

func (f *fakeRemover) Wait(_ context.Context, _ *rebalance.Plan, removed []string, _ rebalance.WaitOptions) (*rebalance.Outcome, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.waits = append(f.waits, removed)
	return f.out, nil
}

func (f *fakeRemover) calls() (removes, waits int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.removes), len(f.waits)
}

const (
	member1 = "orders-app-1-7d1c0a52-3f4e-4b8a-9c61-2b5f0e8d4a11"
	member2 = "orders-app-2-1f8e3b6d-0c2a-4e9f-b5d7-4a6c8e0b2d93"
)

// settled is what the fake group looks like after member1 was removed and
// came back as member3, taking refunds/0 over from member1.
func settled() *rebalance.Outcome {
	m3 := kafka.Member{MemberID: "orders-app-3-new", ClientID: "orders-app"}
	return &rebalance.Outcome{
		After:   &kafka.Group{Name: "orders-app", State: kafka.StateStable, Members: []kafka.Member{{MemberID: member2}, m3}},
		Settled: true,
		Left:    []kafka.Member{{MemberID: member1, ClientID: "orders-app"}},
		Joined:  []kafka.Member{m3},
		Moves:   []rebalance.Move{{Topic: "refunds", Partition: 0, From: member1, To: "orders-app-3-new"}},
	}
}

func writable(t *testing.T, opts Options) (*harness, *fakeReset, *fakeRemover) {
	t.Helper()
	r, rm := &fakeReset{}, &fakeRemover{out: settled()}
	opts.Writers = Writers{Reset: r, Members: rm}
	h := newHarness(t, 120, 40, opts)
	h.poll()
	return h, r, rm
}

func footer(h *harness) string {
	ls := lines(h.view())
	return ls[len(ls)-1]
}

// TestResetWizardCarriesTheConnection: the wizard gets the words that
// name the cluster, so that the command a refusal suggests (kgroups
// rebalance GROUP --all) runs pasted, in the demo too.
func TestResetWizardCarriesTheConnection(t *testing.T) {
	h, _, _ := writable(t, Options{ContextInfo: ContextInfo{Connection: []string{"-b", "127.0.0.1:9092"}}})
	h.press("j", "R")
	w, ok := h.m.top().(*resetwizard.Model)
	if !ok || !equal(w.Connection, []string{"-b", "127.0.0.1:9092"}) {
		t.Fatalf("R opened %T with connection %v", h.m.top(), w.Connection)
	}
}

func TestResetWizardOpensAndEscReturns(t *testing.T) {
	h, r, _ := writable(t, Options{})
	h.press("j") // billing-reconciler
	before := h.view()
	h.press("R")
	w, ok := h.m.top().(*resetwizard.Model)
	if !ok || w.Group() != "billing-reconciler" {
		t.Fatalf("R opened %T", h.m.top())
	}
	v := h.view()
	if got := lines(v)[2]; !strings.HasPrefix(got, "Reset offsets · group billing-reconciler · ") {
		t.Fatalf("wizard title = %q", got)
	}
	// The wizard reads every key: the footer offers none of the screens'.
	if got := footer(h); got != "ctrl+c quit" {
		t.Fatalf("footer under the wizard = %q", got)
	}
	h.press("esc")
	if _, ok := h.m.top().(*grouplist.Model); !ok {
		t.Fatalf("esc left %T on top", h.m.top())
	}
	// The screen is as it was; the footer says nothing changed.
	after := h.view()
	if got := footer(h); got != "cancelled, nothing changed" {
		t.Fatalf("footer after esc = %q", got)
	}
	if a, b := lines(after), lines(before); strings.Join(a[:len(a)-1], "\n") != strings.Join(b[:len(b)-1], "\n") {
		t.Fatalf("the groups screen changed:\n%s\nwant\n%s", after, before)
	}
	if r.Calls() != 0 {
		t.Fatalf("the backend was called %d times", r.Calls())
	}
}

func TestDeleteOpensTheWizardReadingTheGroup(t *testing.T) {
	h, r, _ := writable(t, Options{})
	h.press("j", "D")
	w, ok := h.m.top().(*resetwizard.Model)
	if !ok || w.Group() != "billing-reconciler" {
		t.Fatalf("D opened %T", h.m.top())
	}
	// The wizard reads the group at once (and this backend refuses).
	if r.Calls() != 1 {
		t.Fatalf("backend calls = %d, want the one read", r.Calls())
	}
	h.press("esc")
	if _, ok := h.m.top().(*grouplist.Model); !ok {
		t.Fatalf("esc left %T on top", h.m.top())
	}
}

func TestReadOnlyDisablesEveryWrite(t *testing.T) {
	h, r, rm := writable(t, Options{ContextInfo: ContextInfo{ReadOnly: true}})
	for _, k := range []struct{ key, flash string }{
		{"R", "reset the group's offsets: the context is read-only"},
		{"D", "delete the group: the context is read-only"},
	} {
		h.press(k.key)
		if _, ok := h.m.top().(*grouplist.Model); !ok || footer(h) != k.flash {
			t.Fatalf("%s on groups: top %T, footer %q", k.key, h.m.top(), footer(h))
		}
	}
	h.press("?")
	v := h.view()
	for _, want := range []string{
		"R      reset the group's offsets (disabled: the context is read-only)",
		"D      delete the group (disabled: the context is read-only)",
	} {
		if !strings.Contains(v, want) {
			t.Fatalf("help lacks %q:\n%s", want, v)
		}
	}
	h.press("?", "j", "j", "j", "j", "j", "enter") // orders-app
	for _, k := range []struct {
		keys  []string
		flash string
	}{
		{[]string{"R"}, "reset the selected partitions (or this one): the context is read-only"},
		{[]string{"e"}, "seek the partition to an offset or a time: the context is read-only"},
		{[]string{"tab", "X"}, "remove the member (rebalance): the context is read-only"},
		{[]string{"A"}, "remove all members (rebalance): the context is read-only"},
	} {
		h.press(k.keys...)
		if _, ok := h.m.top().(*groupdetail.Model); !ok || footer(h) != k.flash {
			t.Fatalf("%v on the group screen: top %T, footer %q", k.keys, h.m.top(), footer(h))
		}
	}
	h.press("?")
	if v := h.view(); !strings.Contains(v, "X  remove the member (rebalance) (disabled: the context is read-only)") {
		t.Fatalf("help on Members lacks the disabled removal:\n%s", v)
	}
	if n, _ := rm.calls(); n != 0 || r.Calls() != 0 {
		t.Fatalf("writes reached the backends: removes %d, resets %d", n, r.Calls())
	}
}

func TestSelectedPartitionsAreReset(t *testing.T) {
	h, _, _ := writable(t, Options{})
	h.press("j", "j", "j", "j", "j", "enter") // orders-app: orders/0-5, refunds/0
	// orders/1, orders/3 and refunds/0; orders/4 selected and unselected.
	h.press("j", " ", "j", "j", " ", "G", " ", "k", "k", " ", " ")
	v := lines(h.view())
	if got := v[6]; got != "[Partitions 7]  Members 2   Chart   Timeline   Simulate   Diagnosis   3 selected" {
		t.Fatalf("tab bar = %q", got)
	}
	var marks strings.Builder
	for _, l := range v[8:15] {
		if strings.HasPrefix(l, " ✓") || strings.HasPrefix(l, "▶✓") {
			marks.WriteByte('x')
		} else {
			marks.WriteByte('.')
		}
	}
	if got := marks.String(); got != ".x.x..x" {
		t.Fatalf("marked rows %s, want orders/1, orders/3 and refunds/0:\n%s", got, strings.Join(v[7:15], "\n"))
	}
	cmd := h.send(keyMsg("R"))
	msg, ok := cmd().(ui.ResetMsg)
	want := ui.ResetMsg{Kind: ui.ResetPartitions, Group: "orders-app", Partitions: []reset.TP{{Topic: "orders", Partition: 1}, {Topic: "orders", Partition: 3}, {Topic: "refunds", Partition: 0}}}
	if !ok || !reflect.DeepEqual(msg, want) {
		t.Fatalf("R asks for %#v, want %#v", msg, want)
	}
	h.run(h.send(msg))
	if w, ok := h.m.top().(*resetwizard.Model); !ok || w.Group() != "orders-app" {
		t.Fatalf("R opened %T", h.m.top())
	}
	if got := lines(h.view())[2]; !strings.HasPrefix(got, "Reset partitions · group orders-app · ") {
		t.Fatalf("wizard title = %q", got)
	}
	h.press("esc")
	// The selection outlives the wizard; space on a selected row drops it.
	h.press("G", " ")
	g := h.m.top().(*groupdetail.Model)
	if got, want := g.Selected(), []reset.TP{{Topic: "orders", Partition: 1}, {Topic: "orders", Partition: 3}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("selection = %v, want %v", got, want)
	}
}

func TestCursorPartitionIsResetAndSought(t *testing.T) {
	h, _, _ := writable(t, Options{})
	h.press("j", "j", "j", "j", "j", "enter", "j", "j")
	for _, k := range []struct {
		key  string
		kind ui.ResetKind
	}{{"R", ui.ResetPartitions}, {"e", ui.SeekPartition}} {
		msg, _ := h.send(keyMsg(k.key))().(ui.ResetMsg)
		want := ui.ResetMsg{Kind: k.kind, Group: "orders-app", Partitions: []reset.TP{{Topic: "orders", Partition: 2}}}
		if !reflect.DeepEqual(msg, want) {
			t.Fatalf("%s asks for %#v, want %#v", k.key, msg, want)
		}
	}
	h.run(h.send(ui.ResetMsg{Kind: ui.SeekPartition, Group: "orders-app", Partitions: []reset.TP{{Topic: "orders", Partition: 2}}}))
	if got := lines(h.view())[2]; !strings.HasPrefix(got, "Seek partition · group orders-app · ") {
		t.Fatalf("wizard title = %q", got)
	}
}

// openRemoval opens orders-app's Members tab and presses X on its first
// member.
func openRemoval(t *testing.T, h *harness) {
	t.Helper()
	h.press("j", "j", "j", "j", "j", "enter", "tab", "X")
	if _, ok := h.m.top().(*removal.Model); !ok {
		t.Fatalf("X opened %T; footer %q", h.m.top(), footer(h))
	}
}

func TestRemoveMemberConfirmAndResult(t *testing.T) {
	h, _, rm := writable(t, Options{})
	openRemoval(t, h)
	v := h.view()
	for _, want := range []string{
		"Remove a member from orders-app",
		"  " + member1 + " · 4 partitions · by member-id",
		"rejoins with a new member id",
		"Remove 1 member? The group will rebalance.",
	} {
		if !strings.Contains(v, want) {
			t.Fatalf("dialog lacks %q:\n%s", want, v)
		}
	}
	if got := footer(h); got != "ctrl+c quit" {
		t.Fatalf("footer = %q", got)
	}
	polls := h.p.Calls()
	h.press("y")
	if !reflect.DeepEqual(rm.removes, [][]string{{member1}}) || !reflect.DeepEqual(rm.waits, [][]string{{member1}}) {
		t.Fatalf("removed %v, waited for %v", rm.removes, rm.waits)
	}
	v = h.view()
	for _, want := range []string{
		"removed: " + member1 + "\nReceipt: /state/receipts/removal.json\n",
		"now Stable with 2 members",
		"left: " + member1 + " (orders-app)",
		"joined: orders-app-3-new (orders-app)",
		"1 partition changed process",
		"  refunds/0 " + member1 + " → orders-app-3-new",
	} {
		if !strings.Contains(v, want) {
			t.Fatalf("result lacks %q:\n%s", want, v)
		}
	}
	h.press("enter")
	if g, ok := h.m.top().(*groupdetail.Model); !ok || g.Tab() != groupdetail.Members {
		t.Fatalf("closing left %T on top", h.m.top())
	}
	if got := footer(h); got != "removed 1 member from orders-app; 1 partition changed process; receipt /state/receipts/removal.json" {
		t.Fatalf("footer = %q", got)
	}
	if h.p.Calls() != polls+1 {
		t.Fatalf("polls %d -> %d, want one refresh after the change", polls, h.p.Calls())
	}
}

func TestRemoveMemberCancelChangesNothing(t *testing.T) {
	h, _, rm := writable(t, Options{})
	h.press("j", "j", "j", "j", "j", "enter", "tab")
	before := h.view()
	h.press("X")
	polls := h.p.Calls()
	h.press("esc")
	if after := h.view(); after != before {
		t.Fatalf("the group screen changed:\n%s\nwant\n%s", after, before)
	}
	if n, _ := rm.calls(); n != 0 || h.p.Calls() != polls {
		t.Fatalf("cancel sent %d removals, %d polls", n, h.p.Calls()-polls)
	}
}

// TestRemoveMemberStaleResultDropped: Esc while waiting for the group to
// settle stops watching; the wait's late answer changes nothing.
func TestRemoveMemberStaleResultDropped(t *testing.T) {
	h, _, _ := writable(t, Options{})
	openRemoval(t, h)
	remove := h.request(h.send(keyMsg("y")))
	wait := h.request(h.send(remove())) // the removal's answer starts the wait
	if wait == nil {
		t.Fatal("no wait after the removal")
	}
	if v := h.view(); !strings.Contains(v, "waiting for the group to settle") || footer(h) != "ctrl+c quit" {
		t.Fatalf("waiting screen:\n%s", v)
	}
	h.press("esc")
	stopped := h.view()
	if !strings.Contains(stopped, "stopped waiting for the group to settle") {
		t.Fatalf("after esc:\n%s", stopped)
	}
	h.run(h.send(wait()))
	if v := h.view(); v != stopped {
		t.Fatalf("a stale wait result changed the dialog:\n%s\nwant\n%s", v, stopped)
	}
	h.press("esc")
	if got := footer(h); got != "removed 1 member from orders-app; receipt /state/receipts/removal.json" {
		t.Fatalf("footer = %q", got)
	}
}

func TestRemoveMemberProtectedNeedsTheName(t *testing.T) {
	h, _, rm := writable(t, Options{ContextInfo: ContextInfo{Protected: true}})
	openRemoval(t, h)
	if v := h.view(); !strings.Contains(v, "Protected context: type the group's name to confirm: █") {
		t.Fatalf("dialog:\n%s", v)
	}
	h.typeText("orders")
	h.press("enter")
	if n, _ := rm.calls(); n != 0 || !strings.Contains(h.view(), "type the group's name exactly to confirm") {
		t.Fatalf("a wrong name sent %d removals:\n%s", n, h.view())
	}
	h.typeText("-app")
	h.press("enter")
	if n, _ := rm.calls(); n != 1 || !strings.Contains(h.view(), "1 partition changed process") {
		t.Fatalf("the right name sent %d removals:\n%s", n, h.view())
	}
}

func TestRemoveMemberRefusedShowsTheBroker(t *testing.T) {
	h, _, rm := writable(t, Options{})
	rm.refuse = errors.New("UNSUPPORTED_VERSION: The version of API is not supported.")
	openRemoval(t, h)
	polls := h.p.Calls()
	h.press("y")
	v := h.view()
	for _, want := range []string{
		// The broker's answer, verbatim, wrapped at the screen's width.
		"\nnot removed: " + member1 + ": UNSUPPORTED_VERSION: The version of API is not\nsupported.\nNothing changed.\n",
	} {
		if !strings.Contains(v, want) {
			t.Fatalf("result lacks %q:\n%s", want, v)
		}
	}
	if _, waits := rm.calls(); waits != 0 {
		t.Fatal("waited although nothing was removed")
	}
	h.press("esc")
	if _, ok := h.m.top().(*groupdetail.Model); !ok || h.p.Calls() != polls {
		t.Fatalf("after a refusal: top %T, %d polls", h.m.top(), h.p.Calls()-polls)
	}
}

func TestWritesUnavailableWithoutWriters(t *testing.T) {
	h := newHarness(t, 120, 40, Options{})
	h.poll()
	h.press("R")
	if _, ok := h.m.top().(*grouplist.Model); !ok || footer(h) != "reset offsets: not available on this connection" {
		t.Fatalf("top %T, footer %q", h.m.top(), footer(h))
	}
}

// TestRemoveRefusedThroughCheck: a removal asked for a group whose type
// cannot remove members (a streams or share group, or a type kgroups does
// not know) opens nothing and says what kafka.GroupType.Check says for
// the CLI's rebalance, sanitized for the terminal.
func TestRemoveRefusedThroughCheck(t *testing.T) {
	for _, g := range []kafka.Group{
		{Name: "order-enricher", Type: kafka.TypeStreams},
		{Name: "jobs\x1b[2J\u202e", Type: kafka.TypeShare},
		{Name: "future", Type: "quantum\x07"},
	} {
		h, _, rm := writable(t, Options{})
		h.run(h.send(ui.RemoveMembersMsg{Group: &g, All: true}))
		if _, ok := h.m.top().(*removal.Model); ok {
			t.Fatalf("%s group: a removal dialog opened", g.Type)
		}
		want := "remove members: " + format.Sanitize(g.Type.Check(g.Name, kafka.ActionRebalance).Error())
		if !h.m.flash.Error || h.m.flash.Text != want {
			t.Errorf("%s group: flash %+v, want the error %q", g.Type, h.m.flash, want)
		}
		if n, _ := rm.calls(); n != 0 {
			t.Errorf("%s group: %d removals sent", g.Type, n)
		}
	}
}
