package tui

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/kgroups/kgroups/kafka/recording"
	"github.com/kgroups/kgroups/views/viewtest"
)

// replayFixture is a recording of viewtest.Evolving's warm polls, its
// sixth poll failed.
func replayFixture(t *testing.T) *recording.Recording {
	t.Helper()
	var buf bytes.Buffer
	w, err := recording.NewWriter(&buf, recording.Header{Refresh: viewtest.PollEvery, Cluster: []string{"kafka-1.internal:9092"}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range warmPolls {
		s := viewtest.Evolving(i)
		p := recording.Poll{Time: s.Time, Snapshot: s}
		if i == 5 {
			p = recording.Poll{Time: s.Time, Err: errors.New("dial tcp 10.0.0.1:9092: connect: connection refused")}
		}
		if err := w.Write(p); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := recording.ReadAll(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func newReplayHarness(t *testing.T, width, height int) *harness {
	t.Helper()
	rec := replayFixture(t)
	h := newHarness(t, width, height, Options{ContextInfo: ContextInfo{Name: "incident.kgrec", Brokers: rec.Header.Cluster},
		Replay: &Replay{Recording: rec}, Lag: rec.Header.Config()})
	h.run(h.m.Init())
	return h
}

func TestGoldenReplay(t *testing.T) {
	for _, sc := range []struct {
		name string
		keys []string
		size [2]int
	}{
		{"replay_first", nil, [2]int{120, 40}},
		{"replay_last", []string{">"}, [2]int{120, 40}},
		{"replay_failed_poll", []string{".", ".", ".", ".", "."}, [2]int{120, 40}},
		{"replay_group", []string{">", "j", "j", "j", "j", "j", "enter"}, [2]int{120, 40}},
		{"replay_write_refused", []string{">", "D"}, [2]int{80, 24}},
		{"replay_help", []string{"?"}, [2]int{80, 24}},
	} {
		t.Run(sc.name, func(t *testing.T) {
			h := newReplayHarness(t, sc.size[0], sc.size[1])
			h.press(sc.keys...)
			golden.RequireEqual(t, []byte(h.view()))
		})
	}
}

// TestReplayTimeBar: the keys step, jump and play; the clock is the
// recording's; writes and refresh say why they do nothing.
func TestReplayTimeBar(t *testing.T) {
	h := newReplayHarness(t, 120, 30)
	pos := func() int { return h.m.replay.pos }
	line := func() string { return strings.Split(h.view(), "\n")[1] }
	if pos() != 0 || !strings.HasPrefix(line(), "replay 2025-03-14 09:26:53Z · poll 1/12 · +0s of 55s · paused 1x") {
		t.Fatalf("at the start: poll %d, %q", pos(), line())
	}
	if got := h.m.opts.Now(); !got.Equal(viewtest.Epoch) {
		t.Errorf("the UI's clock is %v, want the first poll's %v", got, viewtest.Epoch)
	}
	h.press(",")
	if pos() != 0 {
		t.Errorf(", at the first poll moved to %d", pos())
	}
	h.press(".", ".")
	if pos() != 2 || !strings.Contains(line(), "poll 3/12 · +10s of 55s") {
		t.Errorf(". . : poll %d, %q", pos(), line())
	}
	h.press(">")
	if pos() != 11 {
		t.Errorf("> : poll %d", pos())
	}
	changes := h.m.replay.changes
	if len(changes) == 0 {
		t.Fatal("no verdict change found in the recording")
	}
	h.press("<", "]")
	if pos() != changes[0] {
		t.Errorf("] from the start: poll %d, want the first change %d (changes %v)", pos(), changes[0], changes)
	}
	h.press(">", "[")
	if want := changes[len(changes)-1]; want == 11 && len(changes) > 1 {
		want = changes[len(changes)-2]
		if pos() != want {
			t.Errorf("[ from the end: poll %d, want %d (changes %v)", pos(), want, changes)
		}
	}
	// Play at 10x from the start: each tick steps a poll.
	h.press("<", "+", "+", "+", "p")
	if !h.m.replay.playing || !strings.Contains(line(), "playing 10x") {
		t.Fatalf("p: %q", line())
	}
	for range 3 {
		if len(h.timers) == 0 {
			t.Fatal("no tick scheduled while playing")
		}
		tm := h.timers[len(h.timers)-1]
		h.timers = nil
		if tm.d != viewtest.PollEvery/10 {
			t.Errorf("a tick after %v, want %v", tm.d, viewtest.PollEvery/10)
		}
		h.run(h.send(tm.msg))
	}
	if pos() != 3 {
		t.Errorf("three ticks at 10x: poll %d, want 3", pos())
	}
	h.press("p")
	if h.m.replay.playing || !strings.Contains(line(), "paused 10x") {
		t.Errorf("p again: %q", line())
	}
	h.press("r")
	if !strings.Contains(h.view(), "a recording does not refresh") {
		t.Errorf("r says nothing:\n%s", h.view())
	}
	h.press("D")
	if !strings.Contains(h.view(), "delete the group: a recording is read-only") {
		t.Errorf("D says nothing:\n%s", h.view())
	}
}
