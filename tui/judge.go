package tui

import (
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	krebalance "github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/ui"
)

// pollData is what the polls build up and the screens read: the lag
// tracker (history and verdicts) and the rebalance timeline. Judging a
// poll of 10,000 groups takes tens of milliseconds, too long for the UI
// loop, so the root keeps two copies: the front, which the screens read on
// the UI loop and nothing else writes, and the back, which a judging job
// brings up to date off the UI loop. When the job ends the two swap. Both
// are fed the same writes in the same order from one log (ops), so they
// give the same answers.
type pollData struct {
	lag      *lag.Tracker
	timeline *krebalance.Timeline
	snap     *kafka.Snapshot // the latest poll added; nil before the first
	// applied counts the ops of the log this copy has applied, from the
	// connection's first.
	applied int
}

func newPollData(cfg lag.Config) *pollData {
	return &pollData{lag: lag.NewTracker(cfg), timeline: krebalance.NewTimeline(krebalance.TimelineConfig{})}
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

// catchUp applies ops, which the tracker judged has applied already (it
// is the front: nothing writes it while a job runs), judging only what it
// must: the polls before the last are judged as usual, the last takes its
// verdicts from judged (lag.Tracker.Follow), and the records read after it
// only go into the history (FollowExact), since judged's verdicts have
// them. Without a poll among ops (or when the tracker ignored it), every
// op is applied as usual.
func (d *pollData) catchUp(ops []op, judged *lag.Tracker) {
	last := -1
	for i, o := range ops {
		if o.snap != nil {
			last = i
		}
	}
	followed := false
	for i, o := range ops {
		switch {
		case i < last:
			d.apply(o)
		case i == last:
			followed = d.lag.Follow(o.snap, judged)
			d.timeline.Add(o.snap)
			d.snap = o.snap
		case o.exact != nil && followed:
			d.lag.FollowExact(o.exact)
		default:
			// Records read after a poll not among ops (or one the
			// tracker ignored): the verdicts this copy has are from
			// before them, so it judges them in.
			d.apply(o)
		}
	}
}

// dataMsg is the poll the screens are shown from d.
func (d *pollData) dataMsg() ui.DataMsg {
	return ui.DataMsg{Snapshot: d.snap, History: d.lag, Lag: d.lag, Rebalances: d.timeline}
}

// judging is the root's side of the judging jobs: the back copy, the log
// of writes that one of the copies has not applied yet, and the one job
// in flight. A job's answer carries a generation: one from before a
// context switch is dropped.
type judging struct {
	back *pollData
	log  []op
	base int // ops dropped from the front of the log (both copies applied them)

	gen      uint64
	inFlight bool

	// wait, when set, runs at the start of every job, off the UI loop:
	// tests hold a job there to press keys while it judges.
	wait func()
}

// judgedMsg is a job's answer: the back copy, now up to date. fresh says
// it applied writes the front had not seen, so the copies swap; prepared
// holds what each screen's Prepare worked out from it.
type judgedMsg struct {
	gen      uint64
	data     *pollData
	fresh    bool
	prepared map[ui.Component]any
	want     []kafka.PartitionOffsets // the commits to read exactly next (fresh polls only)
}

// write appends o to the log; the next job applies it.
func (m *Model) write(o op) { m.judge.log = append(m.judge.log, o) }

// startJudge starts a job that applies to the back copy every write it
// has not applied, unless a job is in flight (its answer starts the next)
// or there is nothing to apply. When the writes are new to the front too,
// the screens on the stack that prepare their polls (ui.Preparer) are
// asked for their functions, which the job runs once it has judged.
func (m *Model) startJudge() tea.Cmd {
	j := &m.judge
	end := j.base + len(j.log)
	if j.inFlight || j.back.applied == end {
		return nil
	}
	back, ops := j.back, slices.Clone(j.log[j.back.applied-j.base:])
	// The first ops are the front's already (the back catches up); the
	// rest, if any, are new to both.
	front, known := m.front.lag, max(0, m.front.applied-j.back.applied)
	fresh := end > m.front.applied
	var preps map[ui.Component]func(ui.DataMsg) any
	if fresh {
		for _, c := range m.stack {
			if p, ok := c.(ui.Preparer); ok {
				if preps == nil {
					preps = make(map[ui.Component]func(ui.DataMsg) any)
				}
				preps[c] = p.Prepare()
			}
		}
	}
	j.gen++
	j.inFlight = true
	gen, wait, budget := j.gen, j.wait, m.opts.ExactBudget
	_, reads := m.poll.poller.(TimestampReader)
	return func() tea.Msg {
		if wait != nil {
			wait()
		}
		back.catchUp(ops[:known], front)
		newPoll := false
		for _, o := range ops[known:] {
			back.apply(o)
			newPoll = newPoll || o.snap != nil
		}
		back.applied = end
		msg := judgedMsg{gen: gen, data: back, fresh: fresh}
		if !fresh || back.snap == nil {
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
// then starts the next job at once: the old front, now the back, catches
// up while the UI waits for the next poll, so no poll stays alive in the
// log longer than two jobs.
func (m *Model) onJudged(msg judgedMsg) tea.Cmd {
	j := &m.judge
	if msg.gen != j.gen {
		return nil // a previous connection's
	}
	j.inFlight = false
	var cmds []tea.Cmd
	if msg.fresh {
		old := m.front
		m.setFront(msg.data)
		j.back = old
		if m.snap != nil {
			cmds = append(cmds, m.broadcastData(msg.prepared))
			if m.snap != old.snap {
				cmds = append(cmds, m.scanReceipts(m.snap), m.startExactRead(msg.want))
			}
		}
	}
	j.trim(m.front.applied)
	cmds = append(cmds, m.startJudge())
	return tea.Batch(cmds...)
}

// trim drops the writes both copies applied, so the log holds no poll
// longer than needed.
func (j *judging) trim(frontApplied int) {
	done := min(frontApplied, j.back.applied) - j.base
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
	m.setFront(newPollData(m.opts.Lag))
	m.judge = judging{back: newPollData(m.opts.Lag), gen: m.judge.gen + 1, wait: m.judge.wait}
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

func (t frontTimeline) Events(group string, dst []krebalance.Event) []krebalance.Event {
	return t.m.timeline.Events(group, dst)
}

func (t frontTimeline) Status(group string) (krebalance.Status, bool) {
	return t.m.timeline.Status(group)
}
