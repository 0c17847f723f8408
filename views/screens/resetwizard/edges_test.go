package resetwizard

import (
	"context"
	"strings"
	"testing"
)

// TestWizardTopicsCheckedAsTyped: with the partition counts of a poll of
// the cluster, the Topics field flags a partition that does not exist as
// soon as it is typed, saying what the topic has, and enter does not move
// on.
func TestWizardTopicsCheckedAsTyped(t *testing.T) {
	f := newFixture(t)
	snap, err := f.backend.Client.Poll(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	m := NewGroup(context.Background(), testCommon(false, false), f.backend, "g")
	m.SetPartitionCounts(snap.PartitionCounts)
	press(m, "1") // to-earliest: the Topics field has the focus
	mustContain(t, m, "step 2 of 5: parameters", "Topics: █")
	typeText(m, "orders:7")
	mustContain(t, m, `✖ topic "orders" has 3 partitions (0-2); partition 7 does not exist`)
	press(m, "enter")
	if m.step != stepParams {
		t.Fatalf("enter moved on to step %d with a partition that does not exist", m.step)
	}
	mustContain(t, m, `topic "orders" has 3 partitions (0-2); partition 7 does not exist`)
	press(m, "backspace")
	typeText(m, "2")
	v := view(m)
	for _, bad := range []string{"does not exist", "✖"} {
		if strings.Contains(v, bad) {
			t.Fatalf("orders:2 is flagged (%q):\n%s", bad, v)
		}
	}
	typeText(m, " nope")
	mustContain(t, m, `✖ topic "nope" does not exist`)
	f.unchanged(t)
}

// TestWizardNoopAsksNothing: a reset that changes no offset says there is
// nothing to change, offers no confirmation, and enter closes with that
// note; nothing is written, not even a receipt.
func TestWizardNoopAsksNothing(t *testing.T) {
	f := newFixture(t)
	m := NewGroup(context.Background(), testCommon(false, false), f.backend, "g")
	press(m, "3", "enter") // to-current, every partition with a commit
	mustContain(t, m, "step 3 of 5: preview", "0 of 2 partitions change",
		"● Nothing to change: every partition already holds its target offset. Enter closes; nothing is written.",
		"enter close · b edit · esc cancel")
	msg := closed(t, press(m, "enter"))
	if want := (ClosedMsg{Group: "g", Note: NoteNoop}); msg != want {
		t.Fatalf("enter said %#v, want %#v", msg, want)
	}
	f.unchanged(t)
}

// TestWizardEscSaysCancelled: Esc before applying closes with the note
// that nothing changed, at every step it can be pressed.
func TestWizardEscSaysCancelled(t *testing.T) {
	f := newFixture(t)
	for _, keys := range [][]string{nil, {"4"}, {"1", "enter"}} {
		m := NewGroup(context.Background(), testCommon(false, false), f.backend, "g")
		press(m, keys...)
		msg := closed(t, press(m, "esc"))
		if want := (ClosedMsg{Group: "g", Note: NoteCancelled}); msg != want {
			t.Fatalf("after %v, esc said %#v, want %#v", keys, msg, want)
		}
	}
	if NoteCancelled != "cancelled, nothing changed" {
		t.Fatalf("NoteCancelled = %q", NoteCancelled)
	}
	f.unchanged(t)
}
