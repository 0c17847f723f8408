package groupdetail

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/ui"
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
		"  MEMBER-ID              INSTANCE-ID      CLIENT-ID      HOST       PARTS LAG EPOCH AT-TARGET ASSIGNOR",
		"▶ q0Wm4XcB9TfK2uYl7sRe3A inventory-sync-a inventory-sync /10.0.6.41     2   3     8 yes       range (server)",
		"  Hn6pV8rJ1dQz5gLc0aEw2B inventory-sync-b inventory-sync /10.0.6.42     1   0     7 no        range (server)",
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
	m.Update(ui.DataMsg{Snapshot: s})
	if got := notice(m); got != "[Partitions 7]  Members 2   Chart" {
		t.Fatalf("with data, line 4 = %q", got)
	}
	failed := viewtest.Snapshot(viewtest.Epoch.Add(5*time.Second), 0)
	failed.Groups[5].Err = errors.New("describe groups: COORDINATOR_NOT_AVAILABLE")
	m.Update(ui.DataMsg{Snapshot: failed})
	if got := notice(m); got != "! describe groups: COORDINATOR_NOT_AVAILABLE" {
		t.Fatalf("failed group: %q", got)
	}
	gone := viewtest.Snapshot(viewtest.Epoch.Add(10*time.Second), 0)
	gone.Groups = gone.Groups[:5]
	m.Update(ui.DataMsg{Snapshot: gone})
	if got := notice(m); got != "! group no longer exists; showing it as last seen 09:26:58" {
		t.Fatalf("gone group: %q", got)
	}
	m.Update(ui.DataMsg{Snapshot: viewtest.Snapshot(viewtest.Epoch.Add(15*time.Second), 0)})
	if got := notice(m); got != "[Partitions 7]  Members 2   Chart" {
		t.Fatalf("returned group, line 4 = %q", got)
	}
}

// BenchmarkView draws the partitions tab at 120x40 with the cursor in the
// middle: the cost must not depend on the number of partitions. The health
// variant has every partition judged and timed by a real history.
func BenchmarkView(b *testing.B) {
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	for _, n := range []int{500, 50_000} {
		for _, health := range []bool{false, true} {
			name := fmt.Sprintf("partitions=%d", n)
			if health {
				name += "/health"
			}
			b.Run(name, func(b *testing.B) {
				s := viewtest.BigGroup(n)
				var l *lag.Tracker
				if health {
					l = lag.NewTracker(lag.Config{})
					for i := range 3 {
						p := *s
						p.Time = s.Time.Add(time.Duration(i) * 5 * time.Second)
						l.Add(&p)
					}
				}
				m := New(viewtest.Common(120, 37, true), "big", s, l)
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
}

// TestPartitionColumnsNarrowing: a narrower terminal drops the member id,
// then the log start, host, client and the rates; the time lag and the
// status always stay.
func TestPartitionColumnsNarrowing(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	l, s := viewtest.LagAfter(12)
	for _, tt := range []struct {
		width  int
		header string
	}{
		{160, "TOPIC PART COMMITTED LOG-START LOG-END LAG TIME-LAG PROD/S CONS/S HEALTH MEMBER CLIENT HOST"},
		{110, "TOPIC PART COMMITTED LOG-START LOG-END LAG TIME-LAG PROD/S CONS/S HEALTH CLIENT HOST"},
		{90, "TOPIC PART COMMITTED LOG-END LAG TIME-LAG PROD/S CONS/S HEALTH CLIENT HOST"},
		{80, "TOPIC PART COMMITTED LOG-END LAG TIME-LAG PROD/S CONS/S HEALTH CLIENT"},
		{70, "TOPIC PART COMMITTED LOG-END LAG TIME-LAG PROD/S CONS/S HEALTH"},
		{60, "TOPIC PART COMMITTED LOG-END LAG TIME-LAG CONS/S HEALTH"},
	} {
		m := New(viewtest.Common(tt.width, 14, true), "inventory-sync", s, l)
		if got := strings.Join(strings.Fields(strings.Split(viewtest.Strip(m.View()), "\n")[6]), " "); got != tt.header {
			t.Errorf("at %d columns: %s\nwant %s", tt.width, got, tt.header)
		}
	}
}

// TestHealthHeader: the group's verdict, lags, catch-up and rates, and the
// offsets of a rewind, from a history of twelve polls.
func TestHealthHeader(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	l, s := viewtest.LagAfter(12)
	tests := []struct {
		group, health, notice string
	}{
		// refunds/0 has had a live owner and no commit for a full window.
		{"orders-app", "health WARN NO-COMMITS · lag 85 · time lag 17s · catching up in 2m21s · produce 35/s · consume 31/s", "[Partitions 7]  Members 2   Chart"},
		{"billing-reconciler", "health WARN · lag 1209 · time lag ≥55s · falling behind 8.0 msg/s · produce 20/s · consume 12/s", "[Partitions 4]  Members 2   Chart"},
		{"fraud-scoring", "health ERR STALL · lag 725 · time lag 50s · falling behind 15 msg/s · produce 15/s · consume 0.0/s", "[Partitions 3]  Members 3   Chart"},
		{"inventory-sync", "health ERR REWIND · lag 546 · time lag 27s · falling behind 7.6 msg/s · produce 20/s · consume 12/s", "! stock/0 committed 5525 after 5575: 50 messages are consumed twice"},
		{"legacy-audit", "health ERR STOP · lag 498125 · time lag ≥55s · falling behind 5.0 msg/s · produce 5.0/s · consume 0.0/s", "[Partitions 2]  Members 0   Chart"},
		{"search-indexer", "health - · lag - · time lag - · produce - · consume -", "[Partitions 0]  Members 0   Chart"},
	}
	for _, tt := range tests {
		m := New(viewtest.Common(160, 14, true), tt.group, s, l)
		ls := strings.Split(viewtest.Strip(m.View()), "\n")
		if ls[2] != tt.health || ls[4] != tt.notice {
			t.Errorf("%s:\n%s\n%s\nwant\n%s\n%s", tt.group, ls[2], ls[4], tt.health, tt.notice)
		}
	}
	// Three polls in, a lagging group is still being judged, and its
	// verdict says how far: 3 of 10 observations. orders/2 is 62 messages
	// behind the first log end seen: written before the first poll, 10s
	// ago, so at least 10s behind (never extrapolated). The group is
	// caught up when orders/2, 112 behind and closing 0.6 a second, is:
	// the others' lags are in flight.
	l, s = viewtest.LagAfter(3)
	m := New(viewtest.Common(160, 14, true), "orders-app", s, l)
	if got, want := strings.Split(viewtest.Strip(m.View()), "\n")[2], "health JUDGING 3/10 · lag 121 · time lag ≥10s · catching up in 3m06s · produce 35/s · consume 32/s"; got != want {
		t.Errorf("judging:\n%s\nwant\n%s", got, want)
	}
}

// BenchmarkFilteredPoll takes a poll of one group of 50,000 partitions
// with a filter kept on the Partitions tab (one topic of the group's, as
// "topic:partition"), and with none: the filter is matched once per poll,
// never in View.
func BenchmarkFilteredPoll(b *testing.B) {
	s := viewtest.BigGroup(50_000)
	for _, filter := range []string{"", ":4999"} {
		b.Run("filter="+filter, func(b *testing.B) {
			m := New(viewtest.Common(120, 37, true), "big", s, nil)
			m.filter.in[Partitions].SetValue(filter)
			m.Update(ui.DataMsg{Snapshot: s})
			if filter != "" && m.rowCount(Partitions) == len(s.Groups[0].Partitions) {
				b.Fatal("the filter matched every partition")
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				m.Update(ui.DataMsg{Snapshot: s})
			}
		})
	}
}

// TestStableLagColumn: LSO-LAG appears after LAG only while an open
// transaction holds some partition's last stable offset below its log end.
func TestStableLagColumn(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	s := viewtest.Snapshot(viewtest.Epoch, 0)
	g, _ := s.Group("orders-app")
	g.Partitions[0].StableTrails, g.Partitions[0].LastStable = true, g.Partitions[0].Committed+2
	m := New(viewtest.Common(160, 20, true), "orders-app", s, nil)
	v := viewtest.Strip(m.View())
	if !strings.Contains(v, " LAG LSO-LAG ") {
		t.Fatalf("no LSO-LAG after LAG:\n%s", v)
	}
	var row string
	for _, l := range strings.Split(v, "\n") {
		if strings.HasPrefix(l, "▶ ") {
			row = l
		}
	}
	if f := strings.Fields(row); len(f) < 8 || f[7] != "2" {
		t.Errorf("first partition row %q: want LSO-LAG 2", row)
	}
	g.Partitions[0].StableTrails = false
	m.Update(ui.DataMsg{Snapshot: s})
	if v := viewtest.Strip(m.View()); strings.Contains(v, "LSO-LAG") {
		t.Errorf("LSO-LAG without an open transaction:\n%s", v)
	}
}

// TestHeaderNamesTheLeader: when every member runs librdkafka under its
// default client id, the header says so after the assignor.
func TestHeaderNamesTheLeader(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	l, s := viewtest.LagAfter(3)
	g, ok := s.Group("orders-app")
	if !ok || g.Assignor != "cooperative-sticky" {
		t.Fatalf("fixture group: %v %q", ok, g.Assignor)
	}
	m := New(viewtest.Common(160, 14, true), "orders-app", s, l)
	if got := viewtest.Strip(m.View()); !strings.Contains(got, "· assignor cooperative-sticky\n") {
		t.Fatalf("unidentified clients: header\n%s", got)
	}
	for i := range g.Members {
		g.Members[i].ClientID = "rdkafka"
	}
	m = New(viewtest.Common(160, 14, true), "orders-app", s, l)
	if got := viewtest.Strip(m.View()); !strings.Contains(got, "· assignor cooperative-sticky (librdkafka leader, by client id only)\n") {
		t.Fatalf("librdkafka members: header\n%s", got)
	}
}
