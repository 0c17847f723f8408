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
// Options.Lag), and nothing is written. The file is read a poll at a
// time, off the UI loop: the UI holds the tracker and the poll shown,
// not the recording.
type Replay struct {
	Catalog *recording.Catalog
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
	cat *recording.Catalog
	// pos is the poll shown (-1 before the first); target is where a
	// read or a rebuild in flight goes.
	pos, target int
	building    bool
	reading     bool
	buildGen    uint64
	// cursor reads the poll after pos; nil while a Cmd holds it.
	cursor  *recording.Cursor
	playing bool
	speed   int // index into replaySpeeds
	tickSeq uint64
	// changes are the polls at which some group's verdict changed,
	// sorted; nil until worked out (indexing).
	changes  []int
	indexed  bool
	clockNow atomic.Int64 // the shown poll's time, for Options.Now
}

func newReplayState(r *Replay) *replayState {
	rs := &replayState{cat: r.Catalog, pos: -1, target: -1}
	rs.setClock(r.Catalog.Start())
	return rs
}

// polls is how many polls the recording holds.
func (rs *replayState) polls() int { return rs.cat.Len() }

func (rs *replayState) setClock(t time.Time) { rs.clockNow.Store(t.UnixNano()) }

// now is the UI's clock in a replay: the shown poll's time, so ages and
// the status bar read as they did then. Screens may read it off the UI
// loop.
func (rs *replayState) now() time.Time { return time.Unix(0, rs.clockNow.Load()) }

// at is the poll a step starts from: the shown one, or the one a rebuild
// in flight goes to.
func (rs *replayState) at() int {
	if rs.building || rs.reading {
		return rs.target
	}
	return rs.pos
}

// busy reports whether a read or a rebuild is in flight.
func (rs *replayState) busy() bool { return rs.building || rs.reading }

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
		return m.replayGo(rs.polls() - 1), true
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
	if rs.at() >= rs.polls()-1 {
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
	d := rs.cat.Header.Refresh
	if i >= 0 && i+1 < rs.polls() {
		d = rs.cat.Times[i+1].Sub(rs.cat.Times[i])
	}
	d = max(d/time.Duration(replaySpeeds[rs.speed]), 50*time.Millisecond)
	return m.after(d, replayTickMsg{seq: rs.tickSeq})
}

func (m *Model) onReplayTick(msg replayTickMsg) tea.Cmd {
	rs := m.replay
	if rs == nil || msg.seq != rs.tickSeq || !rs.playing {
		return nil
	}
	if rs.at() >= rs.polls()-1 {
		rs.playing = false
		return nil
	}
	if rs.busy() {
		return m.replayTick() // the poll before is still being read or judged
	}
	return tea.Batch(m.replayGo(rs.at()+1), m.replayTick())
}

// replayGo shows poll i: the next poll is read off the UI loop and judged
// as live (added to the log, judged by a job); any other is rebuilt from
// the first poll, off the UI loop, since a tracker only goes forward.
func (m *Model) replayGo(i int) tea.Cmd {
	rs := m.replay
	i = max(0, min(i, rs.polls()-1))
	if i == rs.at() && rs.pos >= 0 {
		return nil
	}
	if i != rs.pos+1 || rs.busy() || rs.cursor == nil {
		return m.replayRebuild(i)
	}
	rs.buildGen++
	rs.reading, rs.target = true, i
	gen, cur := rs.buildGen, rs.cursor
	rs.cursor = nil
	return func() tea.Msg {
		p, err := cur.Next()
		return replayReadMsg{gen: gen, pos: i, poll: p, err: err, cursor: cur}
	}
}

// replayReadMsg is the next poll, read off the UI loop, and the cursor
// that read it, handed back.
type replayReadMsg struct {
	gen    uint64
	pos    int
	poll   *recording.Poll
	err    error
	cursor *recording.Cursor
}

func (m *Model) onReplayRead(msg replayReadMsg) tea.Cmd {
	rs := m.replay
	if rs == nil || msg.gen != rs.buildGen {
		_ = msg.cursor.Close() // a rebuild took over, with a cursor of its own
		return nil
	}
	rs.reading, rs.cursor = false, msg.cursor
	if msg.err != nil {
		rs.playing = false
		return flash("reading the recording: " + msg.err.Error())
	}
	rs.pos = msg.pos
	p := msg.poll
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

// replayBuiltMsg is the poll data rebuilt up to poll pos, the poll
// itself, and a cursor at the poll after it.
type replayBuiltMsg struct {
	gen    uint64
	pos    int
	poll   *recording.Poll
	data   *pollData
	cursor *recording.Cursor
	err    error
}

// replayRebuild judges the polls up to i afresh, off the UI loop, reading
// them one at a time from the file.
func (m *Model) replayRebuild(i int) tea.Cmd {
	rs := m.replay
	rs.buildGen++
	rs.building, rs.reading, rs.target = true, false, i
	if rs.cursor != nil {
		_ = rs.cursor.Close()
		rs.cursor = nil
	}
	gen, cat, cfg := rs.buildGen, rs.cat, m.opts.Lag
	return func() tea.Msg {
		msg := replayBuiltMsg{gen: gen, pos: i, data: newPollData(cfg)}
		cur, err := cat.Cursor()
		if err != nil {
			msg.err = err
			return msg
		}
		for cur.Pos() <= i {
			p, err := cur.Next()
			if err != nil {
				_ = cur.Close()
				msg.err = err
				return msg
			}
			msg.poll = p
			if p.Snapshot == nil {
				continue
			}
			msg.data.apply(op{snap: p.Snapshot})
			if p.Exact != nil {
				msg.data.apply(op{exact: p.Exact})
			}
		}
		msg.cursor = cur
		return msg
	}
}

func (m *Model) onReplayBuilt(msg replayBuiltMsg) tea.Cmd {
	rs := m.replay
	if rs == nil || msg.gen != rs.buildGen {
		if msg.cursor != nil {
			_ = msg.cursor.Close()
		}
		return nil
	}
	rs.building = false
	if msg.err != nil {
		rs.playing = false
		return flash("reading the recording: " + msg.err.Error())
	}
	rs.pos, rs.cursor = msg.pos, msg.cursor
	p := msg.poll
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

// replayClose lets go of the file the replay reads.
func (m *Model) replayClose() {
	if rs := m.replay; rs != nil && rs.cursor != nil {
		_ = rs.cursor.Close()
		rs.cursor = nil
	}
}

// replayIndexMsg are the polls at which some verdict changed.
type replayIndexMsg struct{ changes []int }

// replayIndex works out, off the UI loop, the polls at which some group's
// verdict changed (JUDGING counting up is no change), for [ and ].
func (m *Model) replayIndex() tea.Cmd {
	cat, cfg := m.replay.cat, m.opts.Lag
	return func() tea.Msg {
		l := lag.NewTracker(cfg)
		last := map[string]string{}
		var changes []int
		err := cat.Walk(cat.Len()-1, func(i int, p *recording.Poll) {
			if p.Snapshot == nil {
				return
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
		})
		if err != nil {
			return ui.FlashMsg{Text: "finding the verdict changes: " + err.Error(), Error: true}
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
	n, pos := rs.polls(), rs.at()
	l.WriteString(s.Warn.Render("replay"))
	l.WriteString(" ")
	l.WriteString(rs.now().UTC().Format("2006-01-02 15:04:05Z"))
	l.WriteString(g.Sep + "poll " + strconv.Itoa(pos+1) + "/" + strconv.Itoa(n))
	l.WriteString(g.Sep + "+" + format.Span(rs.now().Sub(rs.cat.Start())) + " of " + format.Span(rs.cat.End().Sub(rs.cat.Start())))
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
