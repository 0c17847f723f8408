package groupdetail

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/viewtest"
)

func press(m *Model, k string) tea.Cmd {
	msg := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
	if k == "down" {
		msg = tea.KeyMsg{Type: tea.KeyDown}
	}
	if cmd, ok := ui.Dispatch(m.Actions(), msg, false); ok {
		return cmd
	}
	return m.Update(msg)
}

// request runs cmd and returns the request it makes.
func request(t *testing.T, cmd tea.Cmd) ui.TimestampsRequestMsg {
	t.Helper()
	if cmd == nil {
		t.Fatal("no request")
	}
	req, ok := cmd().(ui.TimestampsRequestMsg)
	if !ok {
		t.Fatalf("the command made %T, want a TimestampsRequestMsg", cmd())
	}
	return req
}

func keys(ps []kafka.PartitionOffsets) string {
	var out []string
	for _, p := range ps {
		out = append(out, fmt.Sprintf("%s/%d@%d", p.Topic, p.Partition, p.Committed))
	}
	return strings.Join(out, " ")
}

// rows returns the TOPIC..TIME-LAG cells of the table rows.
func rows(m *Model) []string {
	var out []string
	ls := strings.Split(viewtest.Strip(m.View()), "\n")
	for _, l := range ls[6:] {
		f := strings.Fields(strings.TrimLeft(l, "▶ "))
		if len(f) > 6 {
			out = append(out, strings.Join(f[:7], " "))
		}
	}
	return out
}

func TestExactTimeLag(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	l, s := viewtest.LagAfter(12)
	now := s.Time
	// Room for three of the four partitions.
	m := New(viewtest.Common(120, 9, true), "billing-reconciler", s, l)
	tabBar := func() string { return strings.Split(viewtest.Strip(m.View()), "\n")[4] }

	// x asks for the rows on screen only; the screen waits for nothing.
	req := request(t, press(m, "x"))
	if req.ID == 0 || req.Group != "billing-reconciler" || keys(req.Parts) != "invoices/0@15395 invoices/1@15267 invoices/2@15542" {
		t.Fatalf("request %d for %s: %s", req.ID, req.Group, keys(req.Parts))
	}
	if got := tabBar(); got != "[Partitions 4]  Members 2   Chart   exact time lag: reading…" {
		t.Fatalf("tab bar while reading: %q", got)
	}
	// Scrolling while a read is in flight asks for nothing yet.
	for range 3 {
		if cmd := press(m, "down"); cmd != nil {
			t.Fatal("a second request while one is in flight")
		}
	}

	// A reply to another request (a screen closed since, another
	// context) is dropped.
	if cmd := m.Update(ui.TimestampsMsg{ID: req.ID + 1000, Group: req.Group, Records: map[kafka.CommitKey]kafka.RecordTime{}}); cmd != nil || !strings.HasSuffix(tabBar(), "reading…") {
		t.Fatalf("a stale reply was taken: %q", tabBar())
	}

	recs := map[kafka.CommitKey]kafka.RecordTime{
		{Topic: "invoices", Partition: 0, Offset: 15395}: {Offset: 15395, Timestamp: now.Add(-90 * time.Second)},
		{Topic: "invoices", Partition: 1, Offset: 15267}: {Err: errors.New("TOPIC_AUTHORIZATION_FAILED")},
		{Topic: "invoices", Partition: 2, Offset: 15542}: {NoRecords: true},
	}
	// The scroll brought invoices/3 on screen: the reply leads to a read
	// of it alone.
	next := request(t, m.Update(ui.TimestampsMsg{ID: req.ID, Group: req.Group, Records: recs}))
	if next.ID == req.ID || keys(next.Parts) != "invoices/3@15455" {
		t.Fatalf("follow-up request %d: %s", next.ID, keys(next.Parts))
	}
	if cmd := m.Update(ui.TimestampsMsg{ID: next.ID, Group: req.Group, Records: map[kafka.CommitKey]kafka.RecordTime{
		{Topic: "invoices", Partition: 3, Offset: 15455}: {Offset: 15455, Timestamp: now.Add(-200 * time.Second)},
	}}); cmd != nil {
		t.Fatal("a request after everything on screen was read")
	}
	want := []string{
		"invoices 1 15267 1180 16146 879 ≥55s", // unreadable: the lower bound
		"invoices 2 15542 1210 15652 110 0s",   // only markers left
		"invoices 3 15455 1190 15565 110 =3m20s",
	}
	if got := rows(m); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Back at the top: invoices/0 was read already.
	if cmd := press(m, "g"); cmd != nil {
		t.Fatal("a request for rows already read")
	}
	if got := rows(m)[0]; got != "invoices 0 15395 1200 15505 110 =1m30s" {
		t.Fatalf("first row: %q", got)
	}
	press(m, "G")
	if got := tabBar(); got != "[Partitions 4]  Members 2   Chart   exact time lag: 1 partition unreadable" {
		t.Fatalf("tab bar: %q", got)
	}

	// The next poll moves the commits: the old records no longer apply,
	// and the rows on screen are read again.
	l.Add(viewtest.Evolving(12))
	req = request(t, m.Update(ui.DataMsg{Snapshot: viewtest.Evolving(12), Lag: l}))
	if keys(req.Parts) != "invoices/1@15282 invoices/2@15557 invoices/3@15470" {
		t.Fatalf("after a poll: %s", keys(req.Parts))
	}
	if len(m.exact.recs) != 0 {
		t.Fatalf("%d records kept for old commits", len(m.exact.recs))
	}

	// x again turns it off: the estimates are back, a late reply is
	// dropped.
	if cmd := press(m, "x"); cmd != nil {
		t.Fatal("turning exact mode off made a request")
	}
	m.Update(ui.TimestampsMsg{ID: req.ID, Group: req.Group, Records: recs})
	if got := tabBar(); got != "[Partitions 4]  Members 2   Chart" || m.Exact() || len(m.exact.recs) != 0 {
		t.Fatalf("after x x: tab bar %q, exact %v, %d records", got, m.Exact(), len(m.exact.recs))
	}
	if got := rows(m)[0]; got != "invoices 1 15282 1180 16171 889 ≥1m00s" {
		t.Fatalf("estimate row after x x: %q", got)
	}
}

// TestExactTimeLagFails: when nothing can be read, exact mode turns itself
// off and says why, instead of asking again and again.
func TestExactTimeLagFails(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	l, s := viewtest.LagAfter(12)
	m := New(viewtest.Common(120, 9, true), "billing-reconciler", s, l)
	req := request(t, press(m, "x"))
	m.Update(ui.TimestampsMsg{ID: req.ID, Group: req.Group, Err: errors.New("this connection cannot read records")})
	if got := strings.Split(viewtest.Strip(m.View()), "\n")[4]; got != "[Partitions 4]  Members 2   Chart   exact time lag failed: this connection cannot read records" || m.Exact() {
		t.Fatalf("tab bar %q, exact %v", got, m.Exact())
	}
	l.Add(viewtest.Evolving(12))
	if cmd := m.Update(ui.DataMsg{Snapshot: viewtest.Evolving(12), Lag: l}); cmd != nil {
		t.Fatal("a poll made a request after exact mode failed")
	}
	// Caught-up rows and rows without a commit are never read.
	m = New(viewtest.Common(120, 20, true), "orders-app", s, l)
	if req := request(t, press(m, "x")); keys(req.Parts) != "orders/2@121310" {
		t.Fatalf("orders-app asks for %s", keys(req.Parts))
	}
}
