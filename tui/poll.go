package tui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka"
)

// pollResultMsg is the outcome of one poll, tagged with the generation that
// asked for it: a result from before a context switch (or any result that
// is not the latest request's) is dropped.
type pollResultMsg struct {
	gen  uint64
	snap *kafka.Snapshot
	err  error
	took time.Duration
}

// pollTickMsg says a scheduled poll is due. seq tells the latest schedule
// from ones that a manual refresh, a pause or a switch replaced.
type pollTickMsg struct{ seq uint64 }

// clockMsg wakes the UI once a second so ages and retry countdowns move.
type clockMsg struct{}

// pollState is the refresh loop: at most one poll in flight, a schedule,
// and the failures that set the backoff.
type pollState struct {
	poller   Poller
	gen      uint64
	inFlight bool
	started  time.Time
	cancel   context.CancelFunc
	// again is set when a refresh was asked for while a poll was in
	// flight; it runs as soon as that poll ends.
	again   bool
	tickSeq uint64
	paused  bool

	failures int
	err      error
	next     time.Time     // when the next scheduled poll is due
	lastOK   time.Time     // when the last good snapshot arrived
	took     time.Duration // how long that poll took

	// unjudged are the starts of the polls whose results wait in the
	// judging log, oldest first. cycle is how long the latest poll took
	// from its start until the screens showed it, judged; when it is
	// past the refresh interval the status line says so (overrun).
	unjudged []time.Time
	cycle    time.Duration
	// held is set when a scheduled poll came due while a poll was still
	// waiting to be judged: it starts once judging has caught up, so
	// that polls never pile up behind a slow judge.
	held bool
}

// overrun reports whether the latest poll took longer, from its start
// until it was judged and on screen, than the refresh interval: the UI
// cannot refresh as often as asked, and polls run back to back.
func (m *Model) overrun() bool { return m.poll.cycle > m.opts.Refresh }

// judgingBehind reports whether a poll waits in the judging log for a
// job, or is being judged.
func (m *Model) judgingBehind() bool { return len(m.poll.unjudged) > 0 }

// pollShown is called when the screens show a new poll: it measures
// that poll's cycle and starts a poll held for judging to catch up.
func (m *Model) pollShown() tea.Cmd {
	p := &m.poll
	if len(p.unjudged) == 0 {
		return nil
	}
	p.cycle = m.opts.Now().Sub(p.unjudged[0])
	p.unjudged = p.unjudged[1:]
	if p.held && !m.judgingBehind() {
		p.held = false
		if !p.paused && !p.inFlight {
			return m.startPoll()
		}
	}
	return nil
}

// backoff is the wait before retry number n (1-based) after failures: the
// refresh interval, doubling each time, capped at MaxBackoff (or at the
// interval itself when that is longer).
func backoff(refresh time.Duration, n int) time.Duration {
	limit := max(MaxBackoff, refresh)
	d := refresh
	for i := 1; i < n && d < limit; i++ {
		d *= 2
	}
	return min(d, limit)
}

// startPoll asks for a snapshot unless one is already being taken, in which
// case the request waits for it.
func (m *Model) startPoll() tea.Cmd {
	p := &m.poll
	if p.inFlight {
		p.again = true
		return nil
	}
	p.gen++
	p.inFlight = true
	p.started = m.opts.Now()
	p.tickSeq++ // a manual poll replaces the scheduled one
	ctx, cancel := context.WithTimeout(m.ctx, m.opts.Timeout)
	p.cancel = cancel
	gen, poller, now := p.gen, p.poller, m.opts.Now
	return func() tea.Msg {
		start := now()
		snap, err := poller.Poll(ctx)
		return pollResultMsg{gen: gen, snap: snap, err: err, took: now().Sub(start)}
	}
}

// schedule arranges the next poll after d, replacing any earlier schedule.
func (m *Model) schedule(d time.Duration) tea.Cmd {
	m.poll.tickSeq++
	seq := m.poll.tickSeq
	m.poll.next = m.clock.Add(d)
	return m.after(d, pollTickMsg{seq: seq})
}

// cancelPoll abandons the poll in flight: its result will be dropped.
func (m *Model) cancelPoll() {
	p := &m.poll
	if p.cancel != nil {
		p.cancel()
		p.cancel = nil
	}
	p.gen++
	p.inFlight = false
	p.again = false
	p.tickSeq++
}

func (m *Model) onPollTick(msg pollTickMsg) tea.Cmd {
	if msg.seq != m.poll.tickSeq || m.poll.paused {
		return nil
	}
	if m.judgingBehind() {
		// The last poll is not judged yet: a new one would only wait
		// behind it in memory. It starts when judging catches up.
		m.poll.held = true
		return nil
	}
	return m.startPoll()
}

// onPollResult takes a poll's outcome. A failure keeps the last snapshot on
// screen, marked stale, and retries with backoff; a success feeds every
// screen on the stack.
func (m *Model) onPollResult(msg pollResultMsg) tea.Cmd {
	p := &m.poll
	if msg.gen != p.gen {
		return nil // stale: a newer poll or another context owns the screen
	}
	p.inFlight = false
	if p.cancel != nil {
		p.cancel()
		p.cancel = nil
	}
	var cmds []tea.Cmd
	wait := m.opts.Refresh
	if msg.err != nil || msg.snap == nil {
		p.failures++
		p.err = msg.err
		if p.err == nil {
			p.err = errNoSnapshot
		}
		wait = backoff(m.opts.Refresh, p.failures)
		m.logPollFailed(p.err, p.failures, wait)
	} else {
		p.failures, p.err = 0, nil
		p.lastOK = m.clock
		p.took = msg.snap.Duration
		if p.took <= 0 {
			p.took = msg.took
		}
		// The resets made here go into the log before the poll that
		// shows them; the judging job applies both, off the UI loop,
		// and its answer shows the screens the poll (judge.go).
		m.resets.drain(m, m.receipts.noted)
		m.write(op{snap: msg.snap})
		p.unjudged = append(p.unjudged, p.started)
		cmds = append(cmds, m.startJudge())
	}
	switch {
	case p.again:
		p.again = false
		cmds = append(cmds, m.startPoll())
	case !p.paused:
		cmds = append(cmds, m.schedule(wait))
	default:
		p.next = time.Time{}
	}
	return tea.Batch(cmds...)
}

// refreshNow polls at once (even when paused: the user asked).
func (m *Model) refreshNow() tea.Cmd { return m.startPoll() }

// togglePause stops or restarts the schedule. Resuming polls at once.
func (m *Model) togglePause() tea.Cmd {
	p := &m.poll
	p.paused = !p.paused
	if p.paused {
		p.tickSeq++
		p.next = time.Time{}
		return nil
	}
	if p.inFlight {
		return nil // its result schedules the next poll
	}
	return m.startPoll()
}

func (m *Model) clockTick() tea.Cmd { return m.after(time.Second, clockMsg{}) }

// after delivers msg once d has passed.
func after(d time.Duration, msg tea.Msg) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return msg })
}
