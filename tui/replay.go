package tui

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/recording"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/ui"
)

// Replay opens the UI on a recording (kgroups replay) instead of a
// cluster: the polls come from the file, judged as they come with the
// same tracker as live (the recording's configuration goes in
// Options.Lag), and nothing is written.
type Replay struct {
	Recording *recording.Recording
	// Start is the index of the poll shown first.
	Start int
}

// ReplayReadOnly is why a write is disabled in a replay.
const ReplayReadOnly = "a recording is read-only: it shows what kgroups saw, and writes nothing"

// replaySpeeds are the playing speeds, times the recording's own pace.
var replaySpeeds = []int{1, 2, 5, 10, 30, 60}

// replayState is the time bar: the poll shown, whether it plays, and
// where the verdicts change.
type replayState struct {
	rec *recording.Recording
	// pos is the poll shown (-1 before the first); target is where a
	// rebuild in flight goes.
	pos, target int
	building    bool
	buildGen    uint64
	playing     bool
	speed       int // index into replaySpeeds
	tickSeq     uint64
	// changes are the polls at which some group's verdict changed,
	// sorted; nil until worked out (indexing).
	changes  []int
	indexed  bool
	clockNow atomic.Int64 // the shown poll's time, for Options.Now
}

func newReplayState(r *Replay) *replayState {
	rs := &replayState{rec: r.Recording, pos: -1, target: -1}
	rs.setClock(r.Recording.Start())
	return rs
}

func (rs *replayState) setClock(t time.Time) { rs.clockNow.Store(t.UnixNano()) }

// now is the UI's clock in a replay: the shown poll's time, so ages and
// the status bar read as they did then. Screens may read it off the UI
// loop.
func (rs *replayState) now() time.Time { return time.Unix(0, rs.clockNow.Load()) }

// at is the poll a step starts from: the shown one, or the one a rebuild
// in flight goes to.
func (rs *replayState) at() int {
	if rs.building {
		return rs.target
	}
	return rs.pos
}

// noPoller stands for the cluster in a replay: nothing polls it.
type noPoller struct{}

var errReplayPoll = errors.New("a replay does not poll")

func (noPoller) Poll(context.Context) (*kafka.Snapshot, error) { return nil, errReplayPoll }

// replayKeys are the time bar's keys.
type replayKeys struct {
	Back, Forward, PrevChange, NextChange, Start, End, Play, Slower, Faster key.Binding
}

func newReplayKeys() replayKeys {
	return replayKeys{
		Back:       key.NewBinding(key.WithKeys(","), key.WithHelp(",", "poll back")),
		Forward:    key.NewBinding(key.WithKeys("."), key.WithHelp(".", "poll forward")),
		PrevChange: key.NewBinding(key.WithKeys("["), key.WithHelp("[", "previous verdict change")),
		NextChange: key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "next verdict change")),
		Start:      key.NewBinding(key.WithKeys("<"), key.WithHelp("<", "first poll")),
		End:        key.NewBinding(key.WithKeys(">"), key.WithHelp(">", "last poll")),
		Play:       key.NewBinding(key.WithKeys("p", " "), key.WithHelp("p", "play/pause")),
		Slower:     key.NewBinding(key.WithKeys("-"), key.WithHelp("-", "slower")),
		Faster:     key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "faster")),
	}
}

func (k replayKeys) all() []key.Binding {
	return []key.Binding{k.Play, k.Back, k.Forward, k.PrevChange, k.NextChange, k.Start, k.End, k.Slower, k.Faster}
}

// replayStart shows the first poll and works out the verdict changes.
func (m *Model) replayStart(start int) tea.Cmd {
	return tea.Batch(m.replayGo(start), m.replayIndex())
}

// replayKey handles the time bar's keys, and refuses the writes and the
// refresh a recording cannot do; handled is false for other keys.
func (m *Model) replayKey(msg tea.KeyMsg, top ui.Component) (tea.Cmd, bool) {
	rs, k := m.replay, &m.rkeys
	switch {
	case key.Matches(msg, k.Play):
		return m.replayTogglePlay(), true
	case key.Matches(msg, k.Back):
		rs.playing = false
		return m.replayGo(rs.at() - 1), true
	case key.Matches(msg, k.Forward):
		rs.playing = false
		return m.replayGo(rs.at() + 1), true
	case key.Matches(msg, k.Start):
		rs.playing = false
		return m.replayGo(0), true
	case key.Matches(msg, k.End):
		rs.playing = false
		return m.replayGo(len(rs.rec.Polls) - 1), true
	case key.Matches(msg, k.PrevChange), key.Matches(msg, k.NextChange):
		rs.playing = false
		return m.replayChange(key.Matches(msg, k.NextChange)), true
	case key.Matches(msg, k.Slower):
		rs.speed = max(rs.speed-1, 0)
		return nil, true
	case key.Matches(msg, k.Faster):
		rs.speed = min(rs.speed+1, len(replaySpeeds)-1)
		return nil, true
	case key.Matches(msg, m.keys.Refresh):
		return flash("a recording does not refresh: . steps to its next poll, p plays it"), true
	}
	for _, a := range top.Actions() {
		if a.Dangerous && key.Matches(msg, a.Key) {
			return flash(a.Name + ": " + ReplayReadOnly), true
		}
	}
	return nil, false
}

func flash(text string) tea.Cmd {
	return func() tea.Msg { return ui.FlashMsg{Text: text, Error: true} }
}

// replayTogglePlay plays from the shown poll, or pauses. Playing at the
// last poll starts again from the first.
func (m *Model) replayTogglePlay() tea.Cmd {
	rs := m.replay
	rs.playing = !rs.playing
	rs.tickSeq++
	if !rs.playing {
		return nil
	}
	if rs.at() >= len(rs.rec.Polls)-1 {
		return tea.Batch(m.replayGo(0), m.replayTick())
	}
	return m.replayTick()
}

// replayTickMsg says the playing replay's next poll is due.
type replayTickMsg struct{ seq uint64 }

// replayTick schedules the next poll at the recording's own pace between
// the shown poll and the next, divided by the speed.
func (m *Model) replayTick() tea.Cmd {
	rs := m.replay
	i := rs.at()
	d := rs.rec.Header.Refresh
	if i >= 0 && i+1 < len(rs.rec.Polls) {
		d = rs.rec.Polls[i+1].Time.Sub(rs.rec.Polls[i].Time)
	}
	d = max(d/time.Duration(replaySpeeds[rs.speed]), 50*time.Millisecond)
	return m.after(d, replayTickMsg{seq: rs.tickSeq})
}

func (m *Model) onReplayTick(msg replayTickMsg) tea.Cmd {
	rs := m.replay
	if rs == nil || msg.seq != rs.tickSeq || !rs.playing {
		return nil
	}
	if rs.at() >= len(rs.rec.Polls)-1 {
		rs.playing = false
		return nil
	}
	return tea.Batch(m.replayGo(rs.at()+1), m.replayTick())
}

// replayGo shows poll i: the next poll is judged as live (added to the
// log, judged by a job); any other is rebuilt from the first poll, off
// the UI loop, since a tracker only goes forward.
func (m *Model) replayGo(i int) tea.Cmd {
	rs := m.replay
	i = max(0, min(i, len(rs.rec.Polls)-1))
	if i == rs.at() {
		return nil
	}
	if i != rs.pos+1 || rs.building {
		return m.replayRebuild(i)
	}
	rs.pos = i
	p := rs.rec.Polls[i]
	rs.setClock(p.Time)
	m.clock = p.Time
	m.replayStatus(p)
	if p.Snapshot == nil {
		return nil
	}
	m.write(op{snap: p.Snapshot})
	if p.Exact != nil {
		m.write(op{exact: p.Exact})
	}
	return m.startJudge()
}

// replayStatus sets the status line from a recorded poll: a failed one
// shows its error, as live.
func (m *Model) replayStatus(p *recording.Poll) {
	ps := &m.poll
	if p.Snapshot == nil {
		ps.failures++
		ps.err = p.Err
		if ps.err == nil {
			ps.err = errNoSnapshot
		}
		return
	}
	ps.failures, ps.err = 0, nil
	ps.lastOK, ps.took = p.Time, p.Snapshot.Duration
}

// replayBuiltMsg is the poll data rebuilt up to poll pos.
type replayBuiltMsg struct {
	gen  uint64
	pos  int
	data *pollData
}

// replayRebuild judges the polls up to i afresh, off the UI loop.
func (m *Model) replayRebuild(i int) tea.Cmd {
	rs := m.replay
	rs.buildGen++
	rs.building, rs.target = true, i
	gen, polls, cfg := rs.buildGen, rs.rec.Polls[:i+1], m.opts.Lag
	return func() tea.Msg {
		d := newPollData(cfg)
		for _, p := range polls {
			if p.Snapshot == nil {
				continue
			}
			d.apply(op{snap: p.Snapshot})
			if p.Exact != nil {
				d.apply(op{exact: p.Exact})
			}
		}
		return replayBuiltMsg{gen: gen, pos: i, data: d}
	}
}

func (m *Model) onReplayBuilt(msg replayBuiltMsg) tea.Cmd {
	rs := m.replay
	if rs == nil || msg.gen != rs.buildGen {
		return nil
	}
	rs.building, rs.pos = false, msg.pos
	p := rs.rec.Polls[msg.pos]
	rs.setClock(p.Time)
	m.clock = p.Time
	m.replayStatus(p)
	// The rebuilt data replaces both copies; a job in flight answers
	// for the old ones and is dropped.
	m.setFront(msg.data)
	m.judge = judging{back: &pollData{}, gen: m.judge.gen + 1, wait: m.judge.wait, written: m.judge.written}
	if m.snap == nil {
		return nil
	}
	return m.broadcastData(nil)
}

// replayIndexMsg are the polls at which some verdict changed.
type replayIndexMsg struct{ changes []int }

// replayIndex works out, off the UI loop, the polls at which some group's
// verdict changed (JUDGING counting up is no change), for [ and ].
func (m *Model) replayIndex() tea.Cmd {
	polls, cfg := m.replay.rec.Polls, m.opts.Lag
	return func() tea.Msg {
		l := lag.NewTracker(cfg)
		last := map[string]string{}
		var changes []int
		for i, p := range polls {
			if p.Snapshot == nil {
				continue
			}
			recording.Feed(l, p)
			changed := false
			for gi := range p.Snapshot.Groups {
				v := l.Group(p.Snapshot, gi)
				text := v.Text()
				if v.Judging() {
					text = lag.JudgingText
				}
				name := p.Snapshot.Groups[gi].Name
				if old, ok := last[name]; !ok || old != text {
					changed = changed || ok
					last[name] = text
				}
			}
			if changed {
				changes = append(changes, i)
			}
		}
		return replayIndexMsg{changes: changes}
	}
}

// replayChange jumps to the previous or next poll where a verdict
// changed.
func (m *Model) replayChange(next bool) tea.Cmd {
	rs := m.replay
	if !rs.indexed {
		return flash("still finding where the verdicts change" + m.base.Glyphs.Ellipsis)
	}
	at := rs.at()
	if next {
		for _, i := range rs.changes {
			if i > at {
				return m.replayGo(i)
			}
		}
		return flash("no verdict changes after this poll")
	}
	for k := len(rs.changes) - 1; k >= 0; k-- {
		if i := rs.changes[k]; i < at {
			return m.replayGo(i)
		}
	}
	return flash("no verdict changes before this poll")
}

// replayLine is the second status line in a replay: the recording's
// clock, the poll, the time since the first, and play or pause.
func (m *Model) replayLine(l *strings.Builder) {
	s, g, rs := m.styles, m.base.Glyphs, m.replay
	n := len(rs.rec.Polls)
	pos := rs.at()
	l.WriteString(s.Warn.Render("replay"))
	l.WriteString(" ")
	l.WriteString(rs.now().UTC().Format("2006-01-02 15:04:05Z"))
	l.WriteString(g.Sep + "poll " + strconv.Itoa(pos+1) + "/" + strconv.Itoa(n))
	l.WriteString(g.Sep + "+" + format.Span(rs.now().Sub(rs.rec.Start())) + " of " + format.Span(rs.rec.End().Sub(rs.rec.Start())))
	l.WriteString(g.Sep)
	switch {
	case rs.building:
		l.WriteString("judging" + g.Ellipsis)
	case rs.playing:
		l.WriteString(s.OK.Render("playing " + strconv.Itoa(replaySpeeds[rs.speed]) + "x"))
	default:
		l.WriteString("paused " + strconv.Itoa(replaySpeeds[rs.speed]) + "x")
	}
	if p := &m.poll; p.err != nil {
		l.WriteString(g.Sep)
		l.WriteString(s.Error.Render(g.Fail + " poll failed: " + oneLine(kafka.Headline(p.err))))
	}
}
