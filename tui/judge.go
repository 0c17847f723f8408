package tui

import (
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/ui"
)

// pollData is what the polls build up and the screens read: the lag
// tracker (history and verdicts) and the rebalance timeline. Judging a
// poll of 10,000 groups takes tens of milliseconds, too long for the UI
// loop, so the root keeps two copies while a poll is judged: the front,
// which the screens read on the UI loop and nothing writes, and the back,
// which a judging job makes a copy of the front and then writes, off the
// UI loop. When the job ends the two swap, and the old front lets go of
// what it holds (release): between polls the root keeps one copy.
//
// The back's tracker shares the front's history, the bulk of the memory
// (lag.Tracker.CopyFrom): the verdicts and the records of groups and
// partitions are each copy's own, the slabs of numbers behind them and
// the groups' time-lag series are one. A job writes at most one poll the
// front has not seen, and a poll writes only the parts of the slabs the
// front does not read (see lag.History.CopyFrom), so the screens read the
// front on the UI loop while the job writes, with no lock. The timeline
// is small and copied whole (rebalance.Timeline.CopyFrom).
type pollData struct {
	lag      *lag.Tracker
	timeline *rebalance.Timeline
	snap     *kafka.Snapshot // the latest poll added; nil before the first
	// applied counts the ops of the log this copy has applied, from the
	// connection's first.
	applied int
}

func newPollData(cfg lag.Config) *pollData {
	return &pollData{lag: lag.NewTracker(cfg), timeline: rebalance.NewTimeline(rebalance.TimelineConfig{})}
}

// op is one write to the poll data: a poll to add, records read at
// commits, or a reset kgroups made.
type op struct {
	snap  *kafka.Snapshot
	exact map[kafka.CommitKey]kafka.RecordTime
	group string
	reset *lag.Reset
}

func (d *pollData) apply(o op) {
	switch {
	case o.snap != nil:
		d.lag.Add(o.snap)
		d.timeline.Add(o.snap)
		d.snap = o.snap
	case o.exact != nil:
		d.lag.AddExact(o.exact)
	case o.reset != nil:
		d.lag.NoteReset(o.group, *o.reset)
	}
}

// copyOf makes d a copy of front, as of every op front applied: its
// tracker shares front's history (lag.Tracker.CopyFrom), its timeline is
// front's copied. It runs in a job, off the UI loop, so a released d
// makes its tracker and timeline there. front is not written while it
// runs.
func (d *pollData) copyOf(front *pollData) {
	if d.lag == nil {
		d.lag = lag.NewTracker(front.lag.Config())
	}
	if d.timeline == nil {
		d.timeline = rebalance.NewTimeline(front.timeline.Config())
	}
	d.lag.CopyFrom(front.lag)
	d.timeline.CopyFrom(front.timeline)
	d.snap, d.applied = front.snap, front.applied
}

// release lets go of what d holds once it has become the back: the next
// job makes it a copy of the front again (copyOf).
func (d *pollData) release() {
	d.lag, d.timeline, d.snap = nil, nil, nil
}

// dataMsg is the poll the screens are shown from d.
func (d *pollData) dataMsg() ui.DataMsg {
	return ui.DataMsg{Snapshot: d.snap, History: d.lag, Lag: d.lag, Rebalances: d.timeline}
}

// judging is the root's side of the judging jobs: the back copy, the log
// of writes the front has not applied yet, and the one job in flight. A
// job's answer carries a generation: one from before a context switch is
// dropped.
type judging struct {
	back *pollData
	log  []op
	base int // ops dropped from the front of the log (the front applied them)

	gen      uint64
	inFlight bool

	// wait, when set, runs at the start of every job, off the UI loop:
	// tests hold a job there to press keys while it judges. written, when
	// set, runs once a job has applied its writes to the back, before it
	// answers: tests hold a job there to read the front while the back,
	// which shares its history, holds the next poll.
	wait, written func()
}

// judgedMsg is a job's answer: the back copy, now up to date, to swap
// with the front; prepared holds what each screen's Prepare worked out
// from it.
type judgedMsg struct {
	gen      uint64
	data     *pollData
	prepared map[ui.Component]any
	want     []kafka.PartitionOffsets // the commits to read exactly next (new polls only)
}

// write appends o to the log; the next job applies it.
func (m *Model) write(o op) { m.judge.log = append(m.judge.log, o) }

// startJudge starts a job that makes the back a copy of the front and
// applies to it the writes the front has not seen, up to the second poll
// among them, unless a job is in flight (its answer starts the next) or
// nothing is new to the front. The back shares the front's history, and
// only the next poll leaves what the front reads alone
// (lag.History.CopyFrom): a later one waits for the next job, after the
// swap. The screens on the stack that prepare their polls (ui.Preparer)
// are asked for their functions, which the job runs once it has judged.
func (m *Model) startJudge() tea.Cmd {
	j := &m.judge
	start, end := m.front.applied, j.base+len(j.log)
	polls := 0
	for i := start - j.base; i < len(j.log); i++ {
		if j.log[i].snap == nil {
			continue
		}
		if polls++; polls > 1 {
			end = j.base + i
			break
		}
	}
	if j.inFlight || end <= start {
		return nil
	}
	back, front, ops := j.back, m.front, slices.Clone(j.log[start-j.base:end-j.base])
	var preps map[ui.Component]func(ui.DataMsg) any
	for _, c := range m.stack {
		if p, ok := c.(ui.Preparer); ok {
			if preps == nil {
				preps = make(map[ui.Component]func(ui.DataMsg) any)
			}
			preps[c] = p.Prepare()
		}
	}
	j.gen++
	j.inFlight = true
	gen, wait, written, budget := j.gen, j.wait, j.written, m.opts.ExactBudget
	_, reads := m.poll.poller.(TimestampReader)
	return func() tea.Msg {
		if wait != nil {
			wait()
		}
		back.copyOf(front)
		newPoll := false
		for _, o := range ops {
			back.apply(o)
			newPoll = newPoll || o.snap != nil
		}
		back.applied = end
		if written != nil {
			written()
		}
		msg := judgedMsg{gen: gen, data: back}
		if back.snap == nil {
			return msg
		}
		if len(preps) > 0 {
			d := back.dataMsg()
			msg.prepared = make(map[ui.Component]any, len(preps))
			for c, f := range preps {
				msg.prepared[c] = f(d)
			}
		}
		if newPoll && reads {
			msg.want = back.lag.WantExact(budget, nil)
		}
		return msg
	}
}

// onJudged swaps in a job's up-to-date copy and shows it to every screen,
// then starts the next job if writes are waiting. From here on no screen
// reads the old front (each takes the tracker and timeline of the latest
// DataMsg): it becomes the back and lets go of what it holds until the
// next job makes it a copy of the new front, so that between polls the
// root keeps one copy.
func (m *Model) onJudged(msg judgedMsg) tea.Cmd {
	j := &m.judge
	if msg.gen != j.gen {
		return nil // a previous connection's
	}
	j.inFlight = false
	var cmds []tea.Cmd
	old := m.front
	m.setFront(msg.data)
	j.back = old
	if m.snap != nil {
		cmds = append(cmds, m.broadcastData(msg.prepared))
		if m.snap != old.snap {
			cmds = append(cmds, m.scanReceipts(m.snap), m.startExactRead(msg.want), m.pollShown())
		}
	}
	old.release()
	j.trim(m.front.applied)
	cmds = append(cmds, m.startJudge())
	return tea.Batch(cmds...)
}

// trim drops the writes the front applied, so the log holds no poll
// longer than needed.
func (j *judging) trim(frontApplied int) {
	done := frontApplied - j.base
	if done <= 0 {
		return
	}
	clear(j.log[:done])
	j.log = j.log[done:]
	if len(j.log) == 0 {
		j.log = nil
	}
	j.base += done
}

// setFront makes d the copy the screens read.
func (m *Model) setFront(d *pollData) {
	m.front = d
	m.snap, m.lag, m.timeline = d.snap, d.lag, d.timeline
}

// resetPollData starts a connection's poll data afresh: both copies empty,
// the log empty, and the answer of any job in flight dropped.
func (m *Model) resetPollData() {
	m.poll.unjudged, m.poll.cycle, m.poll.held = nil, 0, false
	m.setFront(newPollData(m.opts.Lag))
	m.judge = judging{back: newPollData(m.opts.Lag), gen: m.judge.gen + 1, wait: m.judge.wait, written: m.judge.written}
}

// broadcastData shows the front's poll to every screen on the stack, each
// with what its Prepare worked out.
func (m *Model) broadcastData(prepared map[ui.Component]any) tea.Cmd {
	msg := m.front.dataMsg()
	cmds := make([]tea.Cmd, 0, len(m.stack))
	for _, c := range m.stack {
		msg.Prepared = prepared[c]
		cmds = append(cmds, c.Update(msg))
	}
	return tea.Batch(cmds...)
}

// frontTimeline is the rebalance timeline the screens read: always the
// front copy's, whichever that is after a swap. It is read on the UI loop
// only.
type frontTimeline struct{ m *Model }

func (t frontTimeline) Events(group string, dst []rebalance.Event) []rebalance.Event {
	return t.m.timeline.Events(group, dst)
}

func (t frontTimeline) Status(group string) (rebalance.Status, bool) {
	return t.m.timeline.Status(group)
}
