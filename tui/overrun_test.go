package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/viewtest"
)

// deliver runs cmd and feeds its messages to m, and theirs, except the
// messages held returns true for, which it returns instead.
func deliver(m *Model, cmd tea.Cmd, held func(tea.Msg) bool) []tea.Msg {
	if cmd == nil {
		return nil
	}
	var out []tea.Msg
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			out = append(out, deliver(m, c, held)...)
		}
	default:
		if held(msg) {
			return []tea.Msg{msg}
		}
		_, next := m.Update(msg)
		out = append(out, deliver(m, next, held)...)
	}
	return out
}

// TestSlowPollSaidNotQueued: a poll whose judging takes past the refresh
// interval holds the next scheduled poll until it is on screen (no poll
// waits in memory behind another), and the status line says how long a
// poll takes instead of "every 5s"; a poll back within the interval
// clears it.
func TestSlowPollSaidNotQueued(t *testing.T) {
	c := newClock()
	p := &seqPoller{clock: c, steps: []func(time.Time) (*kafka.Snapshot, error){fixture}}
	m := newModel(context.Background(), Options{Poller: p, Now: c.Now, ContextInfo: ContextInfo{Refresh: 5 * time.Second}, Getenv: func(string) string { return "" }}.withDefaults(), nil, true)
	m.after = func(time.Duration, tea.Msg) tea.Cmd { return nil }
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	status := func() string { return viewtest.Strip(lines(m.View())[1]) }
	isJudged := func(msg tea.Msg) bool { _, ok := msg.(judgedMsg); return ok }

	// The first poll, judged at once.
	_, cmd := m.Update(m.startPoll()())
	settle(m, cmd)
	if s := status(); !strings.Contains(s, "every 5s") || strings.Contains(s, "a poll takes") {
		t.Fatalf("a quick poll: %q", s)
	}

	// The second takes 2s and its judging is held.
	poll := m.startPoll()
	c.Advance(2 * time.Second)
	_, cmd = m.Update(poll())
	judged := deliver(m, cmd, isJudged)
	if len(judged) != 1 {
		t.Fatalf("%d judging answers held, want 1", len(judged))
	}
	// Its schedule comes due while it is judged: no poll starts.
	c.Advance(5 * time.Second)
	_, cmd = m.Update(pollTickMsg{seq: m.poll.tickSeq})
	if cmd != nil || m.poll.inFlight || p.Calls() != 2 {
		t.Fatalf("a poll started while the last one waits to be judged (in flight %v, %d polls)", m.poll.inFlight, p.Calls())
	}
	// Judged 4s later: 11s after it started. The held poll starts now.
	c.Advance(4 * time.Second)
	m.Update(clockMsg{})
	_, cmd = m.Update(judged[0])
	if !m.poll.inFlight {
		t.Fatal("the held poll did not start once judging caught up")
	}
	if s := status(); !strings.Contains(s, "a poll takes 11.0s, over the 5s refresh") {
		t.Fatalf("after an 11s poll: %q", s)
	}
	// That poll answers and is judged at once: the note goes.
	deliver(m, cmd, func(tea.Msg) bool { return false })
	if p.Calls() != 3 {
		t.Fatalf("%d polls, want 3", p.Calls())
	}
	if s := status(); !strings.Contains(s, "every 5s") || strings.Contains(s, "a poll takes") {
		t.Fatalf("a quick poll again: %q", s)
	}
}
