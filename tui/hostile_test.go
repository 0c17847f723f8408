package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/kafka/reset"
	"github.com/kgroups/kgroups/views/screens/groupdetail"
	"github.com/kgroups/kgroups/views/viewtest"
)

// hostileReset plans, applies and deletes like a broker whose answers are
// all hostile: topics, states, warnings, errors and receipt paths.
type hostileReset struct{}

func hostileRows() []reset.Row {
	var rows []reset.Row
	for i, h := range viewtest.Hostile {
		rows = append(rows, reset.Row{Topic: "t-" + h, Partition: int32(i), Current: 5, New: 0, LogStart: 0, LogEnd: 10, Note: h})
	}
	return rows
}

func (hostileReset) Plan(_ context.Context, req reset.Request) (*reset.Plan, error) {
	return &reset.Plan{Group: req.Group, Exists: true, State: kafka.StateEmpty, Scenario: req.Scenario, Scope: req.Scope,
		Rows: hostileRows(), Warnings: viewtest.Hostile}, nil
}

func (hostileReset) Apply(_ context.Context, p *reset.Plan) (*reset.Result, error) {
	res := &reset.Result{Group: p.Group, ReceiptPath: "/tmp/" + viewtest.Hostile[0]}
	for _, r := range p.Rows {
		res.Partitions = append(res.Partitions, reset.PartitionResult{Topic: r.Topic, Partition: r.Partition, Before: 5, Want: 0, Got: 3, Err: viewtest.ErrHostile})
	}
	return res, nil
}

func (hostileReset) PlanDelete(_ context.Context, group string) (*reset.GroupDeletion, error) {
	return &reset.GroupDeletion{Group: group, Exists: true, State: kafka.StateEmpty, Offsets: hostileRows()}, nil
}

func (hostileReset) ApplyDelete(_ context.Context, d *reset.GroupDeletion) (*reset.DeleteResult, error) {
	return &reset.DeleteResult{Group: d.Group, ReceiptPath: "/tmp/" + viewtest.Hostile[1], Err: viewtest.ErrHostile}, nil
}

// hostileOutcome is a settled removal whose members and moves are hostile.
func hostileOutcome() *rebalance.Outcome {
	var ms []kafka.Member
	var moves []rebalance.Move
	for _, h := range viewtest.Hostile {
		ms = append(ms, kafka.Member{MemberID: h, ClientID: h})
		moves = append(moves, rebalance.Move{Topic: "t-" + h, Partition: 1, From: h, To: h + "-new"})
	}
	return &rebalance.Outcome{
		After:   &kafka.Group{Name: viewtest.Hostile[0], State: viewtest.Hostile[1], Members: ms},
		Settled: true, Left: ms, Joined: ms, Moves: moves, Took: 3 * time.Second,
	}
}

// TestHostileStringsStayText drives every screen over a cluster whose
// names and errors are hostile (viewtest.Hostile), in colour, at 80x24 and
// 120x40: whatever a broker says, the terminal only ever gets text and the
// UI's own styling, in exactly its size.
func TestHostileStringsStayText(t *testing.T) {
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		w, ht := size[0], size[1]
		polls := []func(time.Time) (*kafka.Snapshot, error){
			func(now time.Time) (*kafka.Snapshot, error) { return viewtest.HostileSnapshot(now, 0), nil },
			func(now time.Time) (*kafka.Snapshot, error) { return viewtest.HostileSnapshot(now, 1), nil },
		}
		rm := &fakeRemover{refuse: viewtest.ErrHostile, out: hostileOutcome()}
		h := newHarness(t, w, ht, Options{
			ContextInfo: ContextInfo{Name: viewtest.Hostile[0], Brokers: viewtest.Hostile, Writers: Writers{Reset: hostileReset{}, Members: rm}},
			Switch: func(context.Context, string) (Poller, ContextInfo, error) {
				return nil, ContextInfo{}, viewtest.ErrHostile
			},
		}, polls...)
		styled := false
		check := func(where string) {
			t.Helper()
			v := h.m.View()
			styled = styled || strings.Contains(v, "\x1b[")
			viewtest.RequireSafe(t, itoa(w)+"x"+itoa(ht)+" "+where, v, w, ht)
		}
		// see checks that a step was reached: a check of a screen that
		// is not the one meant proves little.
		see := func(where string, want ...string) {
			t.Helper()
			v := h.view()
			for _, w := range want {
				if !strings.Contains(v, w) {
					t.Fatalf("%s: the screen lacks %q:\n%s", where, w, v)
				}
			}
		}
		check("before the first poll")
		h.poll()
		h.clock.Advance(5 * time.Second)
		h.poll()
		h.clock.Advance(5 * time.Second)
		h.poll()
		check("groups")
		for _, k := range []string{"L", "S", "H", "T", "M"} {
			h.press(k)
			check("groups sorted by " + k)
		}
		h.press("N", "?")
		check("help over the groups")
		h.press("?")
		// Tab completes a hostile group name: the command line shows it
		// as text, and Enter opens the group of the exact name.
		h.press(":")
		h.typeText("group evi") // "e" alone would also complete ev\u034fil
		h.press("tab")
		check("a completed group name")
		see("a completed group name", `:group evil\x1b]0;PWNED\x07\x1b[2J█`)
		h.press("enter")
		if g, ok := h.m.top().(*groupdetail.Model); !ok || g.Name() != viewtest.Hostile[0] {
			t.Fatalf("the completed name opened %T", h.m.top())
		}
		h.press("esc")
		// A dead key typed as a direction mark says so as text.
		h.press("\u202e")
		check("a dead key")
		see("a dead key", `\u202e does nothing here`)

		for i := range viewtest.Hostile {
			where := "group " + itoa(i)
			h.press("g")
			for range i {
				h.press("j")
			}
			h.press("enter")
			check(where + " partitions")
			see(where, " Members 2 ")
			h.press("x") // exact time lag: this poller cannot read records
			check(where + " exact time lag")
			h.press("x", "c")
			check(where + " partition chart")
			h.press("c")
			check(where + " chart")
			h.press("tab")
			check(where + " timeline")
			h.press("tab")
			check(where + " simulate")
			h.press("l")
			check(where + " simulated leaving")
			// The simulation answered: with its moves, or with why it
			// cannot run (a protocol type that is not consumer); the
			// consumer-protocol group shows its targets instead.
			if v := h.view(); !strings.Contains(v, " leaves (poll of ") && !strings.Contains(v, "the simulation failed") && !strings.Contains(v, "KIP-848") {
				t.Fatalf("%s: no simulation answer:\n%s", where, v)
			}
			h.press("a", "n")
			check(where + " simulated joining")
			h.press("?")
			check(where + " help")
			h.press("?", "tab")
			check(where + " diagnosis")
			h.press("tab", "R") // Partitions: reset this partition
			check(where + " reset wizard")
			h.press("1")
			check(where + " reset preview")
			see(where+" reset preview", "step 3 of 5: preview", "Warning: ")
			h.press("enter")
			check(where + " reset confirm")
			h.press("pgdown", "pgdown", "pgdown", "pgdown")
			check(where + " reset confirm scrolled")
			see(where+" reset confirm scrolled", "Apply? y to apply")
			h.press("y")
			check(where + " reset result")
			see(where+" reset result", "step 5 of 5: result", "Receipt: ")
			h.press("enter")
			check(where + " flash after the reset")
			see(where+" flash after the reset", " changed; receipt /tmp/")

			// Remove a member: refused with the broker's words for one
			// group in two, removed with a hostile outcome for the others.
			rm.mu.Lock()
			rm.refuse = nil
			if i%2 == 0 {
				rm.refuse = viewtest.ErrHostile
			}
			rm.mu.Unlock()
			h.press("tab", "X")
			check(where + " removal dialog")
			see(where+" removal dialog", "Remove a member from ")
			for range 3 {
				h.press("pgdown")
				check(where + " removal dialog scrolled")
			}
			see(where+" removal dialog scrolled", "Remove 1 member?")
			h.press("y")
			check(where + " removal result")
			if i%2 == 0 {
				see(where+" removal result", "not removed:", "Nothing changed.")
			} else {
				see(where+" removal result", "removed: ")
			}
			for range 3 {
				h.press("pgdown")
				check(where + " removal result scrolled")
			}
			h.press("enter")
			check(where + " flash after the removal")
			if i%2 == 1 {
				// The receipt's path stays whole; the words before it
				// are cut where the line is short.
				see(where+" flash after the removal", "removed 1 member from ", "; receipt /state/receipts/removal.json")
				if w >= 120 {
					see(where+" flash after the removal", fmt.Sprintf("; %d partitions changed process", len(viewtest.Hostile)))
				}
			}
			h.press("A")
			check(where + " removal of every member")
			see(where+" removal of every member", "Remove members from ")
			h.press("esc", "esc")
		}

		h.press("g", "D")
		check("delete wizard")
		h.press("enter")
		check("delete confirm")
		h.press("y")
		check("delete result")
		see("delete result", "may not be deleted")
		h.press("esc", "R")
		check("reset wizard over the groups")
		h.press("2")
		check("reset parameters")
		h.press("enter")
		check("reset preview over the groups")
		see("reset preview over the groups", "step 3 of 5: preview")
		h.press("esc")

		h.press(":")
		h.typeText("ctx other")
		h.press("enter")
		check("flash of a failed switch")
		see("flash of a failed switch", "switch to other: broker says: ")

		h.p.steps = append(h.p.steps, failing(viewtest.ErrHostile))
		h.clock.Advance(5 * time.Second)
		h.poll()
		check("status line with a poll error")
		see("status line with a poll error", "stale")
		h.press("j", "enter")
		check("stale group screen")
		if !styled {
			t.Fatal("no styling seen: the check of what SGR leaves proves nothing")
		}
	}
}
