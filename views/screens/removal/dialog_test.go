package removal

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/kafka/write"
	"github.com/kgroups/kgroups/views/viewtest"
)

// fakeBackend answers Remove with the receipt it wrote and a Result per
// target (refused by the error in refuse, if any), and Wait with out and
// waitErr. It records what it was asked, so a test can tell that nothing
// reached the cluster.
type fakeBackend struct {
	mu        sync.Mutex
	refuse    map[string]error            // by member id
	answers   map[string]rebalance.Result // by member id: a result other than removed or refused
	removeErr error                       // the request failed as a whole: no results
	noReceipt error                       // the receipt could not be written: nothing sent
	out       *rebalance.Outcome
	waitErr   error
	removes   [][]string
	waits     [][]string
}

// receiptPath is where the fake writes its receipts.
const receiptPath = "/state/kgroups/receipts/20250314T092653.000Z-remove-members-orders-app.json"

func (f *fakeBackend) Remove(_ context.Context, p *rebalance.Plan) (*rebalance.Removal, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var ids []string
	var rs []rebalance.Result
	for _, t := range p.Targets {
		ids = append(ids, t.Member.MemberID)
		r := rebalance.Result{Target: t, Err: write.Refusal(f.refuse[t.Member.MemberID]), Gone: f.refuse[t.Member.MemberID] == nil}
		if a, ok := f.answers[t.Member.MemberID]; ok {
			r = a
			r.Target = t
		}
		rs = append(rs, r)
	}
	if f.noReceipt != nil {
		return nil, f.noReceipt
	}
	f.removes = append(f.removes, ids)
	if f.removeErr != nil {
		return &rebalance.Removal{Receipt: receiptPath}, f.removeErr
	}
	return &rebalance.Removal{Receipt: receiptPath, Results: rs}, nil
}

func (f *fakeBackend) Wait(_ context.Context, _ *rebalance.Plan, removed []string, _ rebalance.WaitOptions) (*rebalance.Outcome, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.waits = append(f.waits, removed)
	return f.out, f.waitErr
}

// calls returns the ids each Remove and each Wait was given, in order.
func (f *fakeBackend) calls() (removes, waits [][]string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.removes, f.waits
}

const (
	member1 = "orders-app-1-7d1c0a52-3f4e-4b8a-9c61-2b5f0e8d4a11"
	member2 = "orders-app-2-1f8e3b6d-0c2a-4e9f-b5d7-4a6c8e0b2d93"
	member3 = "orders-app-3-new"
)

// group is the fixture cluster's group called name.
func group(t *testing.T, name string) *kafka.Group {
	t.Helper()
	g, ok := viewtest.Snapshot(viewtest.Epoch, 0).Group(name)
	if !ok {
		t.Fatalf("no group %q in the fixture", name)
	}
	return g
}

// open is the dialog removing sel from the fixture's group name, 100x30,
// Unicode glyphs.
func open(t *testing.T, b Backend, name string, sel rebalance.Selection, protected bool) *Model {
	t.Helper()
	c := viewtest.Common(100, 30, true)
	c.Protected = protected
	return New(context.Background(), c, b, group(t, name), sel)
}

func keyMsg(k string) tea.KeyMsg {
	switch k {
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEscape}
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "backspace":
		return tea.KeyMsg{Type: tea.KeyBackspace}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// press feeds the keys one by one and returns the last key's Cmd.
func press(m *Model, keys ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range keys {
		cmd = m.Update(keyMsg(k))
	}
	return cmd
}

// typeText types s a rune at a time, as a terminal sends it.
func typeText(m *Model, s string) {
	for _, r := range s {
		m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

// execute runs the Cmd as Bubble Tea would, failing on none.
func execute(t *testing.T, cmd tea.Cmd) tea.Msg {
	t.Helper()
	if cmd == nil {
		t.Fatal("no Cmd")
	}
	return viewtest.Do(cmd)
}

// screen is what a user reads.
func screen(m *Model) string { return viewtest.Strip(m.View()) }

func wantScreen(t *testing.T, m *Model, what string, want ...string) {
	t.Helper()
	if got, w := screen(m), strings.Join(want, "\n"); got != w {
		t.Fatalf("%s:\n%s\nwant\n%s", what, got, w)
	}
}

// orders-app's confirm screen for removing member1: its lines up to the
// Explain text, and that text, wrapped at 98 cells.
var (
	ordersHead = []string{
		"Remove a member from orders-app",
		"state Stable · assignor cooperative-sticky · classic",
		"",
		"  " + member1 + " · 4 partitions · by member-id",
		"",
	}
	ordersExplain = []string{
		"The coordinator removes each member at once and rebalances the group: every remaining member",
		"rejoins.",
		"With cooperative-sticky, members keep consuming the partitions they keep during the rebalance.",
		"A removed dynamic member learns it was removed at its next heartbeat and rejoins with a new member",
		"id; if its process is gone, its partitions go to the other members.",
	}
)

func lines(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func TestConfirmShowsTargetsAndExplain(t *testing.T) {
	f := &fakeBackend{}
	m := open(t, f, "orders-app", rebalance.Selection{MemberIDs: []string{member1}}, false)
	wantScreen(t, m, "confirm screen", lines(ordersHead, ordersExplain, []string{
		"",
		"Remove 1 member? The group will rebalance.",
		"y remove · esc cancel",
	})...)
	// The wrapped text is the plan's own explanation, word for word.
	if got, want := strings.Join(ordersExplain, " "), strings.Join(m.plan.Explain(), " "); got != want {
		t.Fatalf("the screen explains\n%s\nthe plan says\n%s", got, want)
	}

	// Static members of a KIP-848 group: both targets, by instance id.
	m = open(t, f, "inventory-sync", rebalance.Selection{All: true}, false)
	wantScreen(t, m, "inventory-sync, all members",
		"Remove members from inventory-sync",
		"state Reconciling · assignor range · consumer",
		"",
		"  q0Wm4XcB9TfK2uYl7sRe3A (instance inventory-sync-a) · 2 partitions · by instance-id",
		"  Hn6pV8rJ1dQz5gLc0aEw2B (instance inventory-sync-b) · 1 partition · by instance-id",
		"",
		"The coordinator removes each member and bumps the group epoch; the broker's assignor gives the",
		"removed members' partitions to the others.",
		"A removed static member (group.instance.id) rejoins under the same instance id with a new member",
		"id; it keeps its partitions only if it rejoins within the session timeout, otherwise they go to",
		"the other members.",
		"",
		"Remove 2 members? The group will rebalance.",
		"y remove · esc cancel",
	)
	if r, w := f.calls(); len(r)+len(w) != 0 {
		t.Fatalf("opening the dialog reached the backend: removes %v, waits %v", r, w)
	}
}

func TestNothingToRemoveOnlyCloses(t *testing.T) {
	f := &fakeBackend{}
	m := open(t, f, "legacy-audit", rebalance.Selection{All: true}, false)
	want := []string{
		"Remove members from legacy-audit",
		"",
		`group "legacy-audit" has no members (state Empty): there is nothing to remove`,
		"esc close",
	}
	wantScreen(t, m, "an empty group", want...)
	if cmd := press(m, "y"); cmd != nil {
		t.Fatal("y on an empty group returned a Cmd")
	}
	wantScreen(t, m, "after y", want...)
	msg := execute(t, press(m, "esc"))
	if want := (ClosedMsg{Group: "legacy-audit"}); msg != want {
		t.Fatalf("esc said %#v, want %#v", msg, want)
	}
	if r, _ := f.calls(); len(r) != 0 {
		t.Fatalf("removes %v", r)
	}
}

// twoMoves is orders-app after member1 was removed and came back as
// member3, taking refunds/0 over from member1; orders/2 had no owner before.
func twoMoves() *rebalance.Outcome {
	m3 := kafka.Member{MemberID: member3, ClientID: "orders-app"}
	return &rebalance.Outcome{
		After:   &kafka.Group{Name: "orders-app", State: kafka.StateStable, Members: []kafka.Member{{MemberID: member2}, m3}},
		Settled: true,
		Left:    []kafka.Member{{MemberID: member1, ClientID: "orders-app"}},
		Joined:  []kafka.Member{m3},
		Moves: []rebalance.Move{
			{Topic: "orders", Partition: 2, From: "", To: member2},
			{Topic: "refunds", Partition: 0, From: member1, To: member3},
		},
		Took: 7 * time.Second,
	}
}

func TestConfirmRemovesWaitsAndShowsTheOutcome(t *testing.T) {
	f := &fakeBackend{out: twoMoves()}
	m := open(t, f, "orders-app", rebalance.Selection{MemberIDs: []string{member1}}, false)

	remove := press(m, "y")
	if remove == nil {
		t.Fatal("y returned no Cmd")
	}
	// Update only starts the removal: the Cmd sends it.
	if r, _ := f.calls(); len(r) != 0 {
		t.Fatalf("Update reached the backend: removes %v", r)
	}
	wantScreen(t, m, "while the removal is sent", lines(ordersHead, []string{
		"sending the removal to the coordinator…",
		"",
	})...)

	wait := m.Update(execute(t, remove))
	if r, w := f.calls(); !reflect.DeepEqual(r, [][]string{{member1}}) || len(w) != 0 {
		t.Fatalf("removes %v, waits %v; want one removal of member1 and no wait yet", r, w)
	}
	if wait == nil {
		t.Fatal("the removal's answer started no wait")
	}
	wantScreen(t, m, "while waiting", lines(ordersHead, []string{
		"removed: " + member1,
		"waiting for the group to settle…",
		"esc stop waiting",
	})...)

	if cmd := m.Update(execute(t, wait)); cmd != nil {
		t.Fatal("the wait's answer returned a Cmd")
	}
	if _, w := f.calls(); !reflect.DeepEqual(w, [][]string{{member1}}) {
		t.Fatalf("waits %v, want one for member1", w)
	}
	wantScreen(t, m, "result", lines(ordersHead, []string{
		"removed: " + member1,
		"Receipt: " + receiptPath,
		"now Stable with 2 members · took 7s",
		"left: " + member1 + " (orders-app)",
		"joined: " + member3 + " (orders-app)",
		"2 partitions changed process",
		"  orders/2 - → " + member2,
		"  refunds/0 " + member1 + " → " + member3,
		"enter/esc close",
	})...)

	msg := execute(t, press(m, "enter"))
	want := ClosedMsg{Group: "orders-app", Changed: true, Summary: "removed 1 member from orders-app; 2 partitions changed process; receipt " + receiptPath}
	if msg != want {
		t.Fatalf("enter said %#v, want %#v", msg, want)
	}
	if r, w := f.calls(); len(r) != 1 || len(w) != 1 {
		t.Fatalf("closing called the backend again: removes %v, waits %v", r, w)
	}
}

// TestSendingNoticeEndsWithTheAnswer: Esc while the removal is sent says it
// cannot be interrupted; once the broker has answered, that is no longer
// true and the notice goes.
func TestSendingNoticeEndsWithTheAnswer(t *testing.T) {
	sending := lines(ordersHead, []string{
		"sending the removal to the coordinator…",
		"",
		"the removal is being sent and cannot be interrupted: wait for the broker's answer",
		"",
	})
	for _, tc := range []struct {
		name string
		f    *fakeBackend
		want []string
	}{
		{"removed", &fakeBackend{out: twoMoves()}, lines(ordersHead, []string{
			"removed: " + member1,
			"waiting for the group to settle…",
			"esc stop waiting",
		})},
		{"refused", &fakeBackend{refuse: map[string]error{member1: errors.New("UNKNOWN_MEMBER_ID")}}, lines(ordersHead, []string{
			"not removed: " + member1 + ": UNKNOWN_MEMBER_ID",
			"Nothing changed.",
			"Receipt: " + receiptPath,
			"enter/esc close",
		})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := open(t, tc.f, "orders-app", rebalance.Selection{MemberIDs: []string{member1}}, false)
			remove := press(m, "y")
			if cmd := press(m, "esc"); cmd != nil {
				t.Fatal("esc while sending returned a Cmd")
			}
			wantScreen(t, m, "esc while sending", sending...)
			m.Update(execute(t, remove))
			wantScreen(t, m, "after the answer", tc.want...)
		})
	}
}

func TestNotSettledShowsWhatIsKnown(t *testing.T) {
	out := twoMoves()
	out.Settled, out.Short, out.Joined, out.Moves = false, true, nil, nil
	out.After.State = kafka.StatePreparingRebalance
	out.After.Members = out.After.Members[:1]
	f := &fakeBackend{out: out, waitErr: fmt.Errorf("group %q: %w after 1m0s", "orders-app", rebalance.ErrNotSettled)}
	m := open(t, f, "orders-app", rebalance.Selection{MemberIDs: []string{member1}}, false)
	m.Update(execute(t, m.Update(execute(t, press(m, "y")))))
	wantScreen(t, m, "result", lines(ordersHead, []string{
		"removed: " + member1,
		"Receipt: " + receiptPath,
		`not settled: group "orders-app": the group did not settle after 1m0s`,
		"now PreparingRebalance with 1 member · took 7s",
		"some removed members did not rejoin: their processes may be gone",
		"left: " + member1 + " (orders-app)",
		"joined: -",
		"0 partitions changed process",
		"enter/esc close",
	})...)
	msg := execute(t, press(m, "esc"))
	if want := (ClosedMsg{Group: "orders-app", Changed: true, Summary: "removed 1 member from orders-app; receipt " + receiptPath}); msg != want {
		t.Fatalf("esc said %#v, want %#v", msg, want)
	}
}

func TestBrokerRefusalIsShownAndNothingIsAwaited(t *testing.T) {
	unknown := errors.New("UNKNOWN_MEMBER_ID: The coordinator is not aware of this member.")
	unsupported := errors.New("UNSUPPORTED_VERSION: The version of API is not supported.")
	head := []string{
		"Remove members from orders-app",
		"state Stable · assignor cooperative-sticky · classic",
		"",
		"  " + member1 + " · 4 partitions · by member-id",
		"  " + member2 + " · 3 partitions · by member-id",
		"",
	}

	t.Run("every member refused", func(t *testing.T) {
		f := &fakeBackend{refuse: map[string]error{member1: unknown, member2: unsupported}, out: twoMoves()}
		m := open(t, f, "orders-app", rebalance.Selection{All: true}, false)
		if cmd := m.Update(execute(t, press(m, "y"))); cmd != nil {
			t.Fatal("a refused removal started a wait")
		}
		wantScreen(t, m, "refused", lines(head, []string{
			"not removed: " + member1 + ": UNKNOWN_MEMBER_ID: The coordinator",
			"is not aware of this member.",
			"not removed: " + member2 + ": UNSUPPORTED_VERSION: The version",
			"of API is not supported.",
			"Nothing changed.",
			"Receipt: " + receiptPath,
			"enter/esc close",
		})...)
		if r, w := f.calls(); len(r) != 1 || len(w) != 0 {
			t.Fatalf("removes %v, waits %v; want one removal and no wait", r, w)
		}
		msg := execute(t, press(m, "esc"))
		if want := (ClosedMsg{Group: "orders-app", Summary: "no member removed from orders-app; receipt " + receiptPath}); msg != want {
			t.Fatalf("esc said %#v, want %#v", msg, want)
		}
	})

	t.Run("one of two refused", func(t *testing.T) {
		f := &fakeBackend{refuse: map[string]error{member1: unknown}, out: &rebalance.Outcome{Settled: true, Left: []kafka.Member{{MemberID: member2}}}}
		m := open(t, f, "orders-app", rebalance.Selection{All: true}, false)
		m.Update(execute(t, m.Update(execute(t, press(m, "y")))))
		if _, w := f.calls(); !reflect.DeepEqual(w, [][]string{{member2}}) {
			t.Fatalf("waits %v, want one for member2 alone", w)
		}
		wantScreen(t, m, "partly refused", lines(head, []string{
			"not removed: " + member1 + ": UNKNOWN_MEMBER_ID: The coordinator",
			"is not aware of this member.",
			"removed: " + member2,
			"Receipt: " + receiptPath,
			"left: " + member2,
			"joined: -",
			"0 partitions changed process",
			"enter/esc close",
		})...)
	})

	t.Run("the request refused", func(t *testing.T) {
		f := &fakeBackend{removeErr: errors.New(`leave group "orders-app" by member id: NOT_COORDINATOR: This is not the correct coordinator.`)}
		m := open(t, f, "orders-app", rebalance.Selection{MemberIDs: []string{member1}}, false)
		if cmd := m.Update(execute(t, press(m, "y"))); cmd != nil {
			t.Fatal("a refused request started a wait")
		}
		// Wrapped at 98 cells, word for word.
		wantScreen(t, m, "refused request", lines(ordersHead, []string{
			`the broker refused: leave group "orders-app" by member id: NOT_COORDINATOR: This is not the`,
			"correct coordinator.",
			"Nothing changed.",
			"Receipt: " + receiptPath,
			"enter/esc close",
		})...)
		if _, w := f.calls(); len(w) != 0 {
			t.Fatalf("waits %v", w)
		}
	})

	t.Run("no receipt, nothing sent", func(t *testing.T) {
		f := &fakeBackend{noReceipt: errors.New("nothing was sent: create receipts directory: mkdir /state: read-only file system")}
		m := open(t, f, "orders-app", rebalance.Selection{MemberIDs: []string{member1}}, false)
		if cmd := m.Update(execute(t, press(m, "y"))); cmd != nil {
			t.Fatal("a removal without a receipt started a wait")
		}
		wantScreen(t, m, "no receipt", lines(ordersHead, []string{
			"the broker refused: nothing was sent: create receipts directory: mkdir /state: read-only file",
			"system",
			"Nothing changed.",
			"enter/esc close",
		})...)
		if r, w := f.calls(); len(r) != 0 || len(w) != 0 {
			t.Fatalf("removes %v, waits %v", r, w)
		}
	})
}

func TestEscBeforeConfirmingSendsNothing(t *testing.T) {
	f := &fakeBackend{out: twoMoves()}
	m := open(t, f, "orders-app", rebalance.Selection{MemberIDs: []string{member1}}, false)
	press(m, "j", "k", "x", "n")
	msg := execute(t, press(m, "esc"))
	if want := (ClosedMsg{Group: "orders-app"}); msg != want {
		t.Fatalf("esc said %#v, want %#v", msg, want)
	}
	if r, w := f.calls(); len(r) != 0 || len(w) != 0 {
		t.Fatalf("cancel reached the backend: removes %v, waits %v", r, w)
	}
}

func TestProtectedNeedsTheGroupName(t *testing.T) {
	f := &fakeBackend{out: twoMoves()}
	m := open(t, f, "orders-app", rebalance.Selection{MemberIDs: []string{member1}}, true)
	prompt := "Protected context: type the group's name to confirm: "
	confirm := func(typed string, notice ...string) []string {
		return lines(ordersHead, ordersExplain, []string{"", prompt + typed + "█"}, notice, []string{"enter remove · esc cancel"})
	}
	wantScreen(t, m, "protected confirm", confirm("")...)

	// y is text here, not a confirmation.
	if cmd := press(m, "y"); cmd != nil {
		t.Fatal("y in a protected context returned a Cmd")
	}
	wantScreen(t, m, "after y", confirm("y")...)
	press(m, "backspace")

	for _, wrong := range []string{"orders", "orders-app ", "Orders-App"} {
		typeText(m, wrong)
		if cmd := press(m, "enter"); cmd != nil {
			t.Fatalf("enter after %q returned a Cmd", wrong)
		}
		wantScreen(t, m, "after "+wrong, confirm(wrong, "", "type the group's name exactly to confirm")...)
		m.Update(tea.KeyMsg{Type: tea.KeyCtrlU})
	}
	if r, _ := f.calls(); len(r) != 0 {
		t.Fatalf("a wrong name reached the backend: removes %v", r)
	}

	typeText(m, "orders-app")
	wantScreen(t, m, "the right name typed", confirm("orders-app")...)
	remove := press(m, "enter")
	m.Update(execute(t, m.Update(execute(t, remove))))
	if r, w := f.calls(); !reflect.DeepEqual(r, [][]string{{member1}}) || len(w) != 1 {
		t.Fatalf("removes %v, waits %v; want member1 removed and awaited", r, w)
	}
	if got := screen(m); !strings.Contains(got, "\n2 partitions changed process\n") {
		t.Fatalf("no result after the right name:\n%s", got)
	}
}

func TestStaleResultsAreIgnored(t *testing.T) {
	fa, fb := &fakeBackend{out: twoMoves()}, &fakeBackend{out: &rebalance.Outcome{Settled: true}}
	a := open(t, fa, "orders-app", rebalance.Selection{MemberIDs: []string{member1}}, false)
	b := open(t, fb, "billing-reconciler", rebalance.Selection{All: true}, false)

	removeA, removeB := press(a, "y"), press(b, "y")
	sending := screen(a)
	// b's answer, for another group, is not a's.
	fromB := execute(t, removeB)
	if cmd := a.Update(fromB); cmd != nil {
		t.Fatal("another dialog's removal started a wait")
	}
	if got := screen(a); got != sending {
		t.Fatalf("another dialog's removal changed the screen:\n%s\nwant\n%s", got, sending)
	}

	fromA := execute(t, removeA)
	waitA, waitB := a.Update(fromA), b.Update(fromB)
	waiting := screen(a)
	// The removal's answer again, now older than the wait.
	if cmd := a.Update(fromA); cmd != nil {
		t.Fatal("a repeated removal answer started another wait")
	}
	// A wait answer with the removal's (older) request ID.
	older := waitedMsg{id: fromA.(removedMsg).id, out: twoMoves()}
	a.Update(older)
	a.Update(execute(t, waitB))
	if got := screen(a); got != waiting {
		t.Fatalf("a stale answer changed the screen:\n%s\nwant\n%s", got, waiting)
	}

	a.Update(execute(t, waitA))
	if got := screen(a); !strings.Contains(got, "\n  refunds/0 "+member1+" → "+member3+"\n") {
		t.Fatalf("the current answer was not shown:\n%s", got)
	}
	if r, w := fa.calls(); len(r) != 1 || len(w) != 1 {
		t.Fatalf("orders-app: removes %v, waits %v", r, w)
	}
}

// short is orders-app's confirm screen for member1 in 100x8: seven of its
// twelve lines at a time, and the hint line.
func short(t *testing.T, protected bool) *Model {
	t.Helper()
	m := open(t, &fakeBackend{}, "orders-app", rebalance.Selection{MemberIDs: []string{member1}}, protected)
	m.SetSize(100, 8)
	return m
}

// TestScrollStopsAtTheEnd: Down past the last line keeps the last page, so
// that one Up moves at once; the page keys move a page. The hint line says
// that the text scrolls.
func TestScrollStopsAtTheEnd(t *testing.T) {
	m := short(t, false)
	all := lines(ordersHead, ordersExplain, []string{"", "Remove 1 member? The group will rebalance."})
	hint := "y remove · esc cancel · ↑↓ scroll"
	wantScreen(t, m, "top", append(all[:7:7], hint)...)
	for range 20 {
		press(m, "down")
	}
	wantScreen(t, m, "after 20 downs", append(all[5:12:12], hint)...)
	press(m, "k")
	wantScreen(t, m, "then one up", append(all[4:11:11], hint)...)
	m.Update(tea.KeyMsg{Type: tea.KeyPgUp})
	wantScreen(t, m, "then a page up", append(all[:7:7], hint)...)
	m.Update(tea.KeyMsg{Type: tea.KeyPgDown})
	wantScreen(t, m, "then a page down", append(all[5:12:12], hint)...)
}

// TestProtectedScrollsWithArrows: in a protected context letters are the
// group's name, but the arrows still scroll to the prompt.
func TestProtectedScrollsWithArrows(t *testing.T) {
	m := short(t, true)
	all := lines(ordersHead, ordersExplain, []string{"", "Protected context: type the group's name to confirm: █"})
	hint := "enter remove · esc cancel · ↑↓ scroll"
	wantScreen(t, m, "top", append(all[:7:7], hint)...)
	press(m, "down", "down", "down", "down", "down", "down")
	wantScreen(t, m, "after 6 downs", append(all[5:12:12], hint)...)
	press(m, "j", "up")
	wantScreen(t, m, "after j and up", append(all[4:11:11], hint)...)
	press(m, "down")
	all[11] = "Protected context: type the group's name to confirm: j█"
	wantScreen(t, m, "after down", append(all[5:12:12], hint)...)
}

// TestProtectedAcceptsTheShownName: a group name with control characters
// is shown escaped, and the input takes no control characters, so the
// exact name cannot be typed: the prompt shows the name as shown and says
// it is accepted, and typing it removes the member.
func TestProtectedAcceptsTheShownName(t *testing.T) {
	f := &fakeBackend{out: twoMoves()}
	g := group(t, "orders-app")
	g.Name = "orders\x1b]0;x\x07app"
	c := viewtest.Common(100, 30, true)
	c.Protected = true
	m := New(context.Background(), c, f, g, rebalance.Selection{MemberIDs: []string{member1}})
	shown := `orders\x1b]0;x\x07app`
	if got := screen(m); !strings.Contains(got, "Protected context: type the group's name (as shown: "+shown+") to confirm: █") {
		t.Fatalf("prompt:\n%s", got)
	}
	typeText(m, "orders]0;xapp") // the raw name, less what cannot be typed
	if cmd := press(m, "enter"); cmd != nil {
		t.Fatal("a wrong name returned a Cmd")
	}
	if got := screen(m); !strings.Contains(got, "type the group's name exactly, or as shown, to confirm") {
		t.Fatalf("no notice:\n%s", got)
	}
	m.Update(tea.KeyMsg{Type: tea.KeyCtrlU})
	typeText(m, shown)
	remove := press(m, "enter")
	if remove == nil {
		t.Fatalf("the shown name did not confirm:\n%s", screen(m))
	}
	m.Update(execute(t, m.Update(execute(t, remove))))
	if r, _ := f.calls(); !reflect.DeepEqual(r, [][]string{{member1}}) {
		t.Fatalf("removes %v, want member1", r)
	}
}
