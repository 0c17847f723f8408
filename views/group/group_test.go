package group

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/tui/common"
	"github.com/kgroups/kgroups/views/viewtest"
)

func TestMembersOfAConsumerProtocolGroup(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	m := New(viewtest.Common(120, 12, true), "inventory-sync", viewtest.Snapshot(viewtest.Epoch, 0), nil)
	m.tab = Members
	want := strings.Join([]string{
		"inventory-sync · Reconciling · consumer · assignor range",
		"2 members · 4 partitions · group epoch 8 · assignment epoch 8",
		// Without a lag history nothing is judged or measured.
		"health - · lag 6 · time lag - · produce - · consume -",
		"coordinator kafka-1.internal:9092 (1) · offsets partition 3",
		" Partitions 4  [Members 2]  Chart",
		"  MEMBER-ID              INSTANCE-ID      CLIENT-ID      HOST       PARTS LAG EPOCH AT-TARGET",
		"▶ q0Wm4XcB9TfK2uYl7sRe3A inventory-sync-a inventory-sync /10.0.6.41     2   3     8 yes",
		"  Hn6pV8rJ1dQz5gLc0aEw2B inventory-sync-b inventory-sync /10.0.6.42     1   0     7 no",
	}, "\n")
	if got := viewtest.Strip(m.View()); got != want {
		t.Fatalf("view:\n%s\nwant\n%s", got, want)
	}
}

func TestUnknownLagIsADash(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	m := New(viewtest.Common(120, 12, true), "legacy-audit", viewtest.Snapshot(viewtest.Epoch, 0), nil)
	m.tab = Members
	if got := strings.Split(viewtest.Strip(m.View()), "\n")[6]; got != "  no members" {
		t.Fatalf("empty group members: %q", got)
	}
	// A member that owns only uncommitted partitions has an unknown lag.
	m = New(viewtest.Common(120, 12, true), "shipping-notifier", viewtest.Snapshot(viewtest.Epoch, 0), nil)
	if m.members[0].lag != kafka.NoOffset || m.totalLag != kafka.NoOffset {
		t.Fatalf("member lag %d, total %d, want unknown", m.members[0].lag, m.totalLag)
	}
}

func TestSameAssignment(t *testing.T) {
	tp := func(topic string, ps ...int32) kafka.TopicPartitions {
		return kafka.TopicPartitions{Topic: topic, Partitions: ps}
	}
	tests := []struct {
		a, b []kafka.TopicPartitions
		want bool
	}{
		{nil, nil, true},
		{[]kafka.TopicPartitions{tp("a", 0, 1)}, []kafka.TopicPartitions{tp("a", 0, 1)}, true},
		{[]kafka.TopicPartitions{tp("a", 0, 1)}, []kafka.TopicPartitions{tp("a", 0)}, false},
		{[]kafka.TopicPartitions{tp("a", 0, 1)}, []kafka.TopicPartitions{tp("a", 0, 2)}, false},
		{[]kafka.TopicPartitions{tp("a", 0)}, []kafka.TopicPartitions{tp("b", 0)}, false},
		{[]kafka.TopicPartitions{tp("a", 0), tp("b")}, []kafka.TopicPartitions{tp("a", 0)}, true},
		{nil, []kafka.TopicPartitions{tp("a", 0)}, false},
	}
	for _, tt := range tests {
		if got := sameAssignment(tt.a, tt.b); got != tt.want {
			t.Errorf("sameAssignment(%v, %v) = %v", tt.a, tt.b, got)
		}
	}
}

func TestGroupLifecycle(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	notice := func(m *Model) string { return strings.Split(viewtest.Strip(m.View()), "\n")[4] }
	m := New(viewtest.Common(100, 12, true), "orders-app", nil, nil)
	if got := notice(m); got != "! waiting for the first poll…" {
		t.Fatalf("before data: %q", got)
	}
	s := viewtest.Snapshot(viewtest.Epoch, 0)
	m.Update(common.DataMsg{Snapshot: s})
	if got := notice(m); got != "[Partitions 7]  Members 2   Chart" {
		t.Fatalf("with data, line 4 = %q", got)
	}
	failed := viewtest.Snapshot(viewtest.Epoch.Add(5*time.Second), 0)
	failed.Groups[5].Err = errors.New("describe groups: COORDINATOR_NOT_AVAILABLE")
	m.Update(common.DataMsg{Snapshot: failed})
	if got := notice(m); got != "! describe groups: COORDINATOR_NOT_AVAILABLE" {
		t.Fatalf("failed group: %q", got)
	}
	gone := viewtest.Snapshot(viewtest.Epoch.Add(10*time.Second), 0)
	gone.Groups = gone.Groups[:5]
	m.Update(common.DataMsg{Snapshot: gone})
	if got := notice(m); got != "! group no longer exists; showing it as last seen 09:26:58" {
		t.Fatalf("gone group: %q", got)
	}
	m.Update(common.DataMsg{Snapshot: viewtest.Snapshot(viewtest.Epoch.Add(15*time.Second), 0)})
	if got := notice(m); got != "[Partitions 7]  Members 2   Chart" {
		t.Fatalf("returned group, line 4 = %q", got)
	}
}

// BenchmarkView draws the partitions tab at 120x40 with the cursor in the
// middle: the cost must not depend on the number of partitions.
func BenchmarkView(b *testing.B) {
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	for _, n := range []int{500, 50_000} {
		b.Run(fmt.Sprintf("partitions=%d", n), func(b *testing.B) {
			m := New(viewtest.Common(120, 37, true), "big", viewtest.BigGroup(n), nil)
			m.wins[Partitions].Cursor = n / 2
			m.SetSize(120, 37)
			if !strings.Contains(m.View(), fmt.Sprintf(" %d ", (n/2)*10)) {
				b.Fatal("the middle partition is not on screen")
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				_ = m.View()
			}
		})
	}
}
