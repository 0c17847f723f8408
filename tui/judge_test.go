package tui

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/viewtest"
)

// slowJudge holds every judging job at its start until the test releases
// it, and says when one is held.
type slowJudge struct {
	held    chan struct{}
	release chan struct{}
}

func holdJudging(m *Model) *slowJudge {
	j := &slowJudge{held: make(chan struct{}, 1), release: make(chan struct{})}
	m.judge.wait = func() {
		j.held <- struct{}{}
		<-j.release
	}
	return j
}

// inBackground runs cmd and what it batches on other goroutines, as the
// program does, and sends the messages they return (never to the model).
func inBackground(cmd tea.Cmd) <-chan []tea.Msg {
	out := make(chan []tea.Msg, 1)
	go func() {
		var msgs []tea.Msg
		var walk func(tea.Cmd)
		walk = func(c tea.Cmd) {
			if c == nil {
				return
			}
			switch msg := c().(type) {
			case nil:
			case tea.BatchMsg:
				for _, c := range msg {
					walk(c)
				}
			default:
				msgs = append(msgs, msg)
			}
		}
		walk(cmd)
		out <- msgs
	}()
	return out
}

// deliverJudged gives the root the judging jobs' answers among msgs (the
// timers are left), running what they lead to.
func (h *harness) deliverJudged(msgs []tea.Msg) {
	h.t.Helper()
	n := 0
	for _, msg := range msgs {
		if j, ok := msg.(judgedMsg); ok {
			n++
			h.run(h.send(j))
		}
	}
	if n != 1 {
		h.t.Fatalf("%d judging jobs answered, want 1", n)
	}
}

// whileJudging releases the judge and, until the job answers, keeps
// pressing keys (down then up: the cursor ends where it was) and drawing
// the screen, with nothing of the test ordering them against the job's
// writes, so go test -race can report memory the two share. (Both use
// fmt, whose pooled buffers order some accesses, so a race can hide:
// each screen's tests also check that what its Prepare hands the job is
// not what it shows.)
func whileJudging(h *harness, judge *slowJudge, done <-chan []tea.Msg) []tea.Msg {
	close(judge.release)
	for {
		select {
		case msgs := <-done:
			return msgs
		default:
			h.press("down", "up")
			_ = h.m.View()
		}
	}
}

// bumped is s with one more poll's time and group-00005's first partition
// 1,000 messages further behind: its lag goes from 42 to 1042.
func bumped(s *kafka.Snapshot, now time.Time) *kafka.Snapshot {
	c := *s
	c.Time = now
	c.Groups = slices.Clone(s.Groups)
	g := &c.Groups[5]
	g.Partitions = slices.Clone(g.Partitions)
	g.Partitions[0].LogEnd += 1000
	g.Partitions[0].Lag += 1000
	return &c
}

// TestKeysAnsweredWhileJudging: with 10,000 groups, the judging of a poll
// runs off the UI loop. While a (slow) judge holds it, keys are answered
// and the screen redrawn at once from the previous poll: the cursor moves
// and the sort changes. Once the judge finishes, the poll lands and the
// screen shows it, sorted as the user asked in the meantime. go test
// -race checks that the screens never read what the job writes.
func TestKeysAnsweredWhileJudging(t *testing.T) {
	s := viewtest.ManyGroups(10_000)
	polls := 0
	h := newHarness(t, 120, 12, Options{}, func(now time.Time) (*kafka.Snapshot, error) {
		polls++
		if polls == 1 {
			c := *s
			c.Time = now
			return &c, nil
		}
		return bumped(s, now), nil
	})
	h.poll()
	if got := lines(h.view())[4]; !strings.HasPrefix(got, "▶ group-00000 ") || !strings.Contains(got, "JUDGING 1/10") {
		t.Fatalf("first poll, first row %q", got)
	}
	h.clock.Advance(5 * time.Second)

	judge := holdJudging(h.m)
	done := inBackground(h.send(h.m.startPoll()()))
	<-judge.held // the second poll is being judged

	h.press("down")
	v := h.view()
	if got := lines(v)[5]; !strings.HasPrefix(got, "▶ group-00001 ") {
		t.Fatalf("down while judging: second row %q\n%s", got, v)
	}
	h.press("L")
	v = h.view()
	if !strings.Contains(lines(v)[3], " LAG↓ ") {
		t.Fatalf("L while judging: header %q", lines(v)[3])
	}
	if strings.Contains(v, " 1042 ") || strings.Contains(v, "JUDGING 2/10") {
		t.Fatalf("the poll being judged is on screen already:\n%s", v)
	}

	h.deliverJudged(whileJudging(h, judge, done))
	v = h.view()
	rows := lines(v)[4:6]
	if !strings.HasPrefix(rows[0], "  group-00005 ") || !strings.Contains(rows[0], " 1042 ") || !strings.Contains(rows[0], "JUDGING 2/10") {
		t.Errorf("after the judge: first row %q, want group-00005 with lag 1042 judged twice\n%s", rows[0], v)
	}
	if !strings.Contains(v, "▶ group-00001 ") {
		t.Errorf("after the judge the cursor left group-00001:\n%s", v)
	}
}

// TestGroupScreenWhileJudging: the same for one group of 50,000
// partitions with its screen open: its partitions are judged off the UI
// loop (groupdetail.Model.Prepare), a key moves the cursor while the judge is
// held, and the poll lands with the group's partitions judged.
func TestGroupScreenWhileJudging(t *testing.T) {
	s := viewtest.BigGroup(50_000)
	h := newHarness(t, 160, 14, Options{}, func(now time.Time) (*kafka.Snapshot, error) {
		c := *s
		c.Time = now
		return &c, nil
	})
	h.poll()
	h.m.openGroup("big")
	before := h.view()
	if !strings.Contains(before, "health JUDGING 1/10") {
		t.Fatalf("the group's header after one poll:\n%s", before)
	}
	h.clock.Advance(5 * time.Second)

	judge := holdJudging(h.m)
	done := inBackground(h.send(h.m.startPoll()()))
	<-judge.held
	h.press("down")
	v := h.view()
	if v == before {
		t.Fatal("down while judging changed nothing on screen")
	}
	if !strings.Contains(v, "health JUDGING 1/10") {
		t.Fatalf("the header changed before the judge finished:\n%s", v)
	}
	h.deliverJudged(whileJudging(h, judge, done))
	if v := h.view(); !strings.Contains(v, "health JUDGING 2/10") {
		t.Errorf("after the judge the header does not show the second poll:\n%s", v)
	}
}

// TestJudgingDroppedAfterSwitch: a judging job still running when the
// context switches answers into nothing: the new context's screens never
// show the old cluster's poll.
func TestJudgingDroppedAfterSwitch(t *testing.T) {
	staging := &seqPoller{steps: []func(time.Time) (*kafka.Snapshot, error){func(now time.Time) (*kafka.Snapshot, error) {
		return &kafka.Snapshot{Time: now, Brokers: viewtest.Snapshot(now, 0).Brokers}, nil
	}}}
	h := newHarness(t, 120, 40, Options{
		Contexts: []string{"prod", "staging"},
		Switch: func(context.Context, string) (Poller, ContextInfo, error) {
			return staging, ContextInfo{Name: "staging"}, nil
		},
	})
	staging.clock = h.clock
	judge := holdJudging(h.m)
	done := inBackground(h.send(h.m.startPoll()())) // prod's first poll
	<-judge.held
	h.m.judge.wait = nil
	h.press(":")
	h.typeText("ctx staging")
	connect := h.send(keyMsg("enter"))
	h.run(h.send(connect()))
	if got := lines(h.view())[2]; !strings.HasPrefix(got, "0 groups") {
		t.Fatalf("staging's groups screen: %q", got)
	}
	close(judge.release)
	for _, msg := range <-done {
		if j, ok := msg.(judgedMsg); ok {
			if cmd := h.send(j); cmd != nil {
				t.Error("the old context's judging made a command")
			}
		}
	}
	if v := h.view(); strings.Contains(v, "orders-app") || !strings.HasPrefix(lines(v)[2], "0 groups") {
		t.Errorf("prod's poll reached staging's screen:\n%s", v)
	}
}

// TestCopiesAgree: between jobs the back holds nothing (release); made a
// copy of the front as the next job makes it (its tracker sharing the
// front's history), it answers exactly as the front, through polls, the
// root's exact reads after each poll and a screen's own (x): every
// group's verdict, its series and its partitions, its rebalance events,
// the counts.
func TestCopiesAgree(t *testing.T) {
	h := newHarness(t, 120, 40, Options{}, trendSteps()...)
	h.m.poll.poller = &readingPoller{seqPoller: h.p, age: 100 * time.Second}
	agree := func(when string) {
		t.Helper()
		j := &h.m.judge
		a, b := h.m.front, j.back
		if j.inFlight || b.snap != nil || b.lag != nil || b.timeline != nil || len(j.log) > 0 {
			t.Fatalf("%s: the back or the log holds something between jobs (%d ops)", when, len(j.log))
		}
		b.copyOf(a)
		if a.snap != b.snap || a.applied != b.applied {
			t.Fatalf("%s: the back is not caught up", when)
		}
		if ea, eb := a.timeline.Events("billing-reconciler", nil), b.timeline.Events("billing-reconciler", nil); !reflect.DeepEqual(ea, eb) {
			t.Fatalf("%s: timeline %+v, back %+v", when, ea, eb)
		}
		ao, aw, ae := a.lag.Counts()
		bo, bw, be := b.lag.Counts()
		if ao != bo || aw != bw || ae != be || a.lag.Judging() != b.lag.Judging() {
			t.Fatalf("%s: counts %d %d %d, back %d %d %d", when, ao, aw, ae, bo, bw, be)
		}
		for i := range a.snap.Groups {
			name := a.snap.Groups[i].Name
			if va, vb := a.lag.Named(name), b.lag.Named(name); !reflect.DeepEqual(va, vb) {
				t.Fatalf("%s, %s: verdict %+v, back %+v", when, name, va, vb)
			}
			if sa, sb := a.lag.GroupSeries(name, nil), b.lag.GroupSeries(name, nil); !reflect.DeepEqual(sa, sb) {
				t.Fatalf("%s, %s: series %+v, back %+v", when, name, sa, sb)
			}
			ga, _ := a.lag.Evaluate(name, nil)
			gb, _ := b.lag.Evaluate(name, nil)
			if !reflect.DeepEqual(ga, gb) {
				t.Fatalf("%s, %s: partitions differ", when, name)
			}
		}
	}
	for i := range warmPolls {
		h.poll()
		agree(fmt.Sprintf("poll %d", i))
		h.clock.Advance(viewtest.PollEvery)
	}
	h.press("j", "enter", "x") // billing-reconciler's rows, read exactly
	agree("after x")
	if v := h.m.lag.Named("billing-reconciler").MaxTimeLag; v.Kind != lag.TimeLagExact {
		t.Fatalf("x read nothing exact: %+v", v)
	}

	// A poll and records read after it, judged by one job, first with
	// a poll the tracker ignores (the fixture's last poll again, at its
	// own time), then with a new one.
	rp := h.m.poll.poller.(*readingPoller)
	for _, snap := range []*kafka.Snapshot{viewtest.Evolving(warmPolls - 1), viewtest.Evolving(warmPolls)} {
		h.clock.Advance(viewtest.PollEvery)
		g, _ := snap.Group("billing-reconciler")
		recs, _ := rp.CommittedTimestamps(context.Background(), g.Partitions)
		h.m.write(op{snap: snap})
		h.m.write(op{exact: recs})
		h.run(h.m.startJudge())
		agree("a poll at " + snap.Time.Format(time.TimeOnly) + " and its records in one job")
	}
	if !h.m.lag.Now().Equal(viewtest.Evolving(warmPolls).Time) {
		t.Fatalf("the new poll did not land: now %v", h.m.lag.Now())
	}
}

// TestScreensReadTheirPollWhileTheNextIsWritten: the back copy shares the
// front's history (lag.Tracker.CopyFrom), and a job writes the next poll
// into it while the screens read the front on the UI loop. Poll after
// poll, past every ring (small windows), with a group screen open and the
// root's exact reads after each poll: while the job writes poll N+1, the
// test keeps reading everything the screens read from the front (every
// group's verdicts, partitions, series and partition series, the counts)
// and drawing the screen, with nothing ordering it against the job, so
// go test -race reports any memory the two share; once the job has
// written all of poll N+1 and is held before it answers, every read
// returns poll N's answers exactly and the screen is unchanged. The
// answer then shows poll N+1.
func TestScreensReadTheirPollWhileTheNextIsWritten(t *testing.T) {
	var steps []func(time.Time) (*kafka.Snapshot, error)
	for i := range 30 {
		steps = append(steps, func(time.Time) (*kafka.Snapshot, error) { return viewtest.Evolving(i), nil })
	}
	h := newHarness(t, 160, 40, Options{Lag: lag.Config{Samples: 8, TimePoints: 6, Window: 4}}, steps...)
	h.m.poll.poller = &readingPoller{seqPoller: h.p, age: 100 * time.Second}
	h.poll()
	h.press("j", "enter")
	for i := 1; i < len(steps); i++ {
		h.clock.Advance(viewtest.PollEvery)
		before, screen := frontReads(h.m), h.view()
		held, release := make(chan struct{}), make(chan struct{})
		h.m.judge.written = func() {
			close(held)
			<-release
		}
		done := inBackground(h.send(h.m.startPoll()()))
		h.m.judge.written = nil // the jobs that follow run on this goroutine
	writing:
		for {
			select {
			case <-held:
				break writing
			default:
				frontReads(h.m)
				_ = h.m.View()
			}
		}
		if got := frontReads(h.m); !reflect.DeepEqual(got, before) {
			t.Fatalf("poll %d written to the back: the front reads\n%+v\nbefore\n%+v", i, got, before)
		}
		if v := h.view(); v != screen {
			t.Fatalf("poll %d written to the back: the screen changed\n%s\nbefore\n%s", i, v, screen)
		}
		close(release)
		h.deliverJudged(<-done)
		if want := viewtest.Evolving(i).Time; !h.m.lag.Now().Equal(want) {
			t.Fatalf("poll %d did not land: now %v", i, h.m.lag.Now())
		}
	}
}

// screenReads is everything the screens read from the front's tracker
// about the groups of its snapshot.
type screenReads struct {
	counts   [4]int
	now      time.Time
	verdicts []lag.Verdict
	healths  []lag.GroupHealth
	series   [][]lag.Point
	lags     [][]int64
}

func frontReads(m *Model) screenReads {
	var r screenReads
	l, s := m.lag, m.snap
	r.counts[0], r.counts[1], r.counts[2] = l.Counts()
	r.counts[3] = l.Judging()
	r.now = l.Now()
	for i := range s.Groups {
		name := s.Groups[i].Name
		r.verdicts = append(r.verdicts, l.Group(s, i), l.Named(name))
		gh, _ := l.Evaluate(name, nil)
		r.healths = append(r.healths, gh)
		r.series = append(r.series, l.GroupSeries(name, nil))
		r.lags = append(r.lags, l.GroupLagSeries(name, nil))
		for _, p := range gh.Partitions {
			r.series = append(r.series, l.PartitionSeries(name, p.Topic, p.Partition, p.TimeLag, nil))
		}
	}
	return r
}
