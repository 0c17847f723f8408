package tui

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	kfixture "github.com/kgroups/kgroups/kafka/fixture"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/recording"
	"github.com/kgroups/kgroups/views/ui"
)

// recordingPoller gives the evolving fixture cluster poll by poll, reads
// every wanted commit's record (an hour before the first poll), and keeps
// what it gave as a recording keeps it.
type recordingPoller struct {
	mu    sync.Mutex
	polls []recording.Poll
}

func (p *recordingPoller) Poll(context.Context) (*kafka.Snapshot, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := kfixture.Evolving(len(p.polls))
	p.polls = append(p.polls, recording.Poll{Time: s.Time, Snapshot: s})
	return s, nil
}

func (p *recordingPoller) CommittedTimestamps(_ context.Context, parts []kafka.PartitionOffsets) (map[kafka.CommitKey]kafka.RecordTime, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[kafka.CommitKey]kafka.RecordTime{}
	for _, q := range parts {
		out[kafka.CommitKey{Topic: q.Topic, Partition: q.Partition, Offset: q.Committed}] = kafka.RecordTime{Offset: q.Committed, Timestamp: kfixture.Epoch.Add(-time.Hour)}
	}
	last := &p.polls[len(p.polls)-1]
	if last.Exact == nil {
		last.Exact = map[kafka.CommitKey]kafka.RecordTime{}
	}
	for k, v := range out {
		last.Exact[k] = v
	}
	return out, nil
}

// body is a screen without the status lines and the footer, which say
// live or replay.
func body(view string) string {
	lines := strings.Split(view, "\n")
	return strings.Join(lines[2:len(lines)-2], "\n")
}

// TestReplayShowsWhatLiveShowed runs the UI live on the evolving fixture
// (every verdict shows within its polls), with exact reads after each
// poll, records what it polled and read, then opens the UI on the
// recording and steps through it: at every poll the groups screen, every
// verdict, and at the end the group screens, are the same as live.
func TestReplayShowsWhatLiveShowed(t *testing.T) {
	const polls = 16
	p := &recordingPoller{}
	live := newHarness(t, 140, 30, Options{Poller: p})
	type seen struct {
		screen   string
		verdicts []lag.Verdict
	}
	var want []seen
	for i := range polls {
		live.clock.mu.Lock()
		live.clock.t = kfixture.Epoch.Add(time.Duration(i) * kfixture.PollEvery)
		live.clock.mu.Unlock()
		live.poll()
		var vs []lag.Verdict
		for gi := range live.m.snap.Groups {
			vs = append(vs, live.m.lag.Group(live.m.snap, gi))
		}
		want = append(want, seen{body(live.view()), vs})
	}
	exact := 0
	for _, q := range p.polls {
		exact += len(q.Exact)
	}
	if exact == 0 {
		t.Fatal("the live run read no records at commits")
	}

	var buf bytes.Buffer
	w, err := recording.NewWriter(&buf, recording.Header{Refresh: kfixture.PollEvery})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range p.polls {
		if err := w.Write(q); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := recording.ReadAll(&buf)
	if err != nil || len(rec.Polls) != polls {
		t.Fatalf("read %d polls: %v", len(rec.Polls), err)
	}

	re := newHarness(t, 140, 30, Options{Replay: &Replay{Recording: rec}, Lag: rec.Header.Config()})
	re.run(re.m.Init())
	for i := range polls {
		if i > 0 {
			re.press(".")
		}
		if got := body(re.view()); got != want[i].screen {
			t.Fatalf("poll %d: the replay shows\n%s\nlive showed\n%s", i, got, want[i].screen)
		}
		for gi := range re.m.snap.Groups {
			if v := re.m.lag.Group(re.m.snap, gi); !equalVerdicts(v, want[i].verdicts[gi]) {
				t.Fatalf("poll %d, %s: replay %+v, live %+v", i, re.m.snap.Groups[gi].Name, v, want[i].verdicts[gi])
			}
		}
	}
	// Every group's screen, at the last poll.
	for _, g := range re.m.snap.Groups {
		live.m.openGroup(g.Name)
		re.m.openGroup(g.Name)
		live.run(live.send(tickRedraw{}))
		if got, want := body(re.view()), body(live.view()); got != want {
			t.Errorf("%s's screen: the replay shows\n%s\nlive showed\n%s", g.Name, got, want)
		}
	}

	// Back to the start and forth again rebuilds the same.
	re.press("esc")
	re.m.groups.Update(ui.SelectGroupMsg{Name: re.m.snap.Groups[0].Name})
	re.press("<")
	if got := body(re.view()); got != want[0].screen {
		t.Errorf("< shows\n%s\nwant the first poll's\n%s", got, want[0].screen)
	}
	re.press(">")
	for gi := range re.m.snap.Groups {
		if v := re.m.lag.Group(re.m.snap, gi); !equalVerdicts(v, want[polls-1].verdicts[gi]) {
			t.Errorf("> %s: %+v, live %+v", re.m.snap.Groups[gi].Name, v, want[polls-1].verdicts[gi])
		}
	}
}

// tickRedraw is a message no one handles: it makes the model redraw.
type tickRedraw struct{}

func equalVerdicts(a, b lag.Verdict) bool {
	a.Partitions, b.Partitions = nil, nil
	return a.Text() == b.Text() && a.TotalLag == b.TotalLag && a.MaxTimeLag == b.MaxTimeLag &&
		a.ProduceRate == b.ProduceRate && a.ConsumeRate == b.ConsumeRate && a.Observations == b.Observations && a.CatchUp == b.CatchUp
}
