package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/fixture"
	"github.com/kgroups/kgroups/tui"
	"github.com/kgroups/kgroups/views/viewtest"
)

// recordTime is the timestamp of the record at offset off of every
// partition in TestTimeLagCLIAndUIAgree: written 10 to 20 minutes before
// the first poll, in offset order.
func recordTime(off int64) time.Time {
	return fixture.Epoch.Add(-20 * time.Minute).Add(time.Duration(off%600) * time.Second)
}

// readFixture answers CommittedTimestamps from recordTime.
func readFixture(_ context.Context, parts []kafka.PartitionOffsets) (map[kafka.CommitKey]kafka.RecordTime, error) {
	out := make(map[kafka.CommitKey]kafka.RecordTime, len(parts))
	for _, p := range parts {
		k := kafka.CommitKey{Topic: p.Topic, Partition: p.Partition, Offset: p.Committed}
		out[k] = kafka.RecordTime{Offset: p.Committed, Timestamp: recordTime(p.Committed)}
	}
	return out, nil
}

// fixturePoller hands out the given snapshots in turn and reads records
// with readFixture.
type fixturePoller struct {
	polls []*kafka.Snapshot
	next  int
}

func (p *fixturePoller) Poll(context.Context) (*kafka.Snapshot, error) {
	if p.next == len(p.polls) {
		return nil, errors.New("no more polls")
	}
	s := p.polls[p.next]
	p.next++
	return s, nil
}

func (p *fixturePoller) CommittedTimestamps(ctx context.Context, parts []kafka.PartitionOffsets) (map[kafka.CommitKey]kafka.RecordTime, error) {
	return readFixture(ctx, parts)
}

// noTimers is the UI's After for a model driven by hand: the next
// scheduled poll and the clock never fire (the tests press r to poll), so
// every Cmd drive is given is work that ends.
func noTimers(time.Duration, tea.Msg) tea.Cmd { return nil }

// drive runs cmd and feeds what it returns to m, as the program would,
// until nothing is left to run. The model is made with noTimers, so drive
// waits for each Cmd, however slow the machine: a poll, a judging job, an
// exact read. A minute only stops a Cmd that hangs.
func drive(t *testing.T, m tea.Model, cmd tea.Cmd) {
	t.Helper()
	if cmd == nil {
		return
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-ch:
	case <-time.After(time.Minute):
		t.Fatal("a Cmd of the UI did not return within a minute")
	}
	switch msg := msg.(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			drive(t, m, c)
		}
	default:
		_, next := m.Update(msg)
		drive(t, m, next)
	}
}

// TestTimeLagCLIAndUIAgree: `kgroups health` and the UI's root model, fed
// the same polls and reading the same records, show the same time lag for
// every group. The commits older than the first poll are read exactly on
// both sides ("="), never extrapolated.
func TestTimeLagCLIAndUIAgree(t *testing.T) {
	names := []string{"analytics-etl", "billing-reconciler", "fraud-scoring", "inventory-sync", "legacy-audit", "orders-app"}
	p, err := parseHealth(names, healthFlags{window: time.Minute, interval: fixture.PollEvery, format: formatTable})
	if err != nil {
		t.Fatal(err)
	}
	var polls []*kafka.Snapshot
	for i := range p.polls {
		polls = append(polls, fixture.Evolving(i))
	}

	// The CLI.
	var stdout, stderr bytes.Buffer
	a := newApp(strings.NewReader(""), &stdout, &stderr, func(k string) string {
		if k == "LANG" {
			return "C.UTF-8"
		}
		return ""
	})
	p.read = readFixture
	next := 0
	poll := func(context.Context) (*kafka.Snapshot, error) {
		s := polls[next]
		next++
		return s, nil
	}
	if err := sampleHealth(context.Background(), a, poll, p); err != nil && next != len(polls) {
		t.Fatalf("health: %v; stderr:\n%s", err, stderr.String())
	}
	cli := map[string]string{}
	// The CAUSE column (words with spaces) ends the summary: cut it.
	summary, _, _ := strings.Cut(stdout.String(), "\n\n")
	for _, l := range strings.Split(withoutColumn(summary, "CAUSE"), "\n")[1:] {
		f := strings.Fields(l)
		if len(f) == 0 {
			break
		}
		// GROUP STATUS... TOTAL-LAG MAX-TIME-LAG PRODUCE/S CONSUME/S
		cli[f[0]] = f[len(f)-3]
	}

	// The UI: the real root model, polled as many times.
	fp := &fixturePoller{polls: polls}
	last := polls[len(polls)-1].Time
	m := tui.New(tui.Options{
		ContextInfo: tui.ContextInfo{Refresh: time.Hour},
		Poller:      fp,
		Lag:         p.cfg,
		Now:         func() time.Time { return last },
		After:       noTimers,
		Getenv:      func(k string) string { return map[string]string{"LANG": "C.UTF-8", "NO_COLOR": "1"}[k] },
	})
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 40})
	drive(t, m, m.Init())
	for fp.next < len(polls) {
		_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("r")})
		drive(t, m, cmd)
	}
	screen := viewtest.Strip(m.View())
	// TIME-LAG is right-aligned: a row's cell ends where the title
	// does (in runes: every rune on this screen is one cell wide).
	ui := map[string]string{}
	end := -1
	for _, l := range strings.Split(screen, "\n") {
		r := []rune(l)
		// A group with an ERR finding starts with the finding mark "! ".
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "▶")), "! "))
		switch {
		case len(f) > 2 && f[0] == "NAME↑":
			i := strings.Index(l, " TIME-LAG ")
			if i < 0 {
				t.Fatalf("groups header %q has no TIME-LAG", l)
			}
			end = len([]rune(l[:i])) + len(" TIME-LAG")
		case end > 0 && len(f) > 2 && len(r) >= end:
			cells := strings.Fields(string(r[:end]))
			ui[f[0]] = cells[len(cells)-1]
		}
	}

	exact := 0
	for _, name := range names {
		c, u := cli[name], ui[name]
		if c == "" || c != u {
			t.Errorf("%s: health says %q, the UI %q", name, c, u)
		}
		if strings.HasPrefix(c, "=") {
			exact++
		}
	}
	// billing-reconciler and legacy-audit are behind since before the
	// first poll. fraud-scoring is not: caught up at poll 0, it commits
	// at poll 1 (the rhythm it shows before it stalls), so its commit is
	// within the polls' time points and its time lag interpolated.
	if exact != 2 {
		t.Errorf("%d groups with an exact time lag, want 2:\nhealth:\n%s\nUI:\n%s", exact, stdout.String(), screen)
	}
}
