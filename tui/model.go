package tui

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/rebalance"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/screens/groupdetail"
	"github.com/kgroups/kgroups/views/screens/grouplist"
	"github.com/kgroups/kgroups/views/screens/keyhelp"
	"github.com/kgroups/kgroups/views/screens/removal"
	"github.com/kgroups/kgroups/views/screens/resetwizard"
	"github.com/kgroups/kgroups/views/ui"
)

var errNoSnapshot = errors.New("the poll returned no snapshot")

// Fallback size until the terminal reports one (or when it never does,
// because the output is not a terminal).
const (
	defaultWidth  = 80
	defaultHeight = 24
)

// Model is the root of the program: a small state machine that owns the
// refresh loop, the screen stack and the command line, and forwards the rest
// to the screen on top. Polls reach every screen on the stack; the answer to
// a screen's request reaches that screen alone.
type Model struct {
	opts Options
	ctx  context.Context

	base   ui.Common // what every screen is built with
	keys   globalKeys
	styles *ui.Styles

	width, height int
	stack         []ui.Component
	groups        *grouplist.Model
	// requests are the screens' requests in flight, by ID: who asked.
	requests map[uint64]ui.Component

	poll pollState
	// front is the poll data the screens read (judge.go); snap, lag and
	// timeline are its parts. The timeline records every group's
	// rebalances from every poll, so the groups screen and a group's
	// Timeline tab show what happened before it was opened.
	front    *pollData
	judge    judging
	snap     *kafka.Snapshot
	lag      *lag.Tracker
	timeline *rebalance.Timeline
	exact    exactReads
	clock    time.Time
	resets   *resetLog // resets made here, for the next poll's tracker
	receipts receiptScan

	hints     help.Model
	cmdline   ui.Input
	cmdActive bool
	compl     completion
	flash     ui.FlashMsg

	switchID  uint64 // the `:ctx` in flight
	switching string
	quitting  bool

	// after is tea.Tick; tests replace it to run timers by hand.
	after func(time.Duration, tea.Msg) tea.Cmd

	// replay is the time bar of a replay (Options.Replay); nil live.
	replay *replayState
	rkeys  replayKeys
}

// New builds the root model without touching a terminal, so tests (and
// teatest) drive it directly. Styles come from lipgloss's default renderer;
// Run builds them for the real terminal instead.
func New(opts Options) *Model {
	opts = opts.withDefaults()
	color := opts.Getenv("NO_COLOR") == ""
	return newModel(context.Background(), opts, lipgloss.DefaultRenderer(), color)
}

func newModel(ctx context.Context, opts Options, r *lipgloss.Renderer, color bool) *Model {
	var rs *replayState
	if opts.Replay != nil {
		// A replay's clock is the recording's, and it writes nothing.
		rs = newReplayState(opts.Replay)
		opts.Now, opts.ReadOnly, opts.Protected = rs.now, true, false
		if opts.Poller == nil {
			opts.Poller = noPoller{}
		}
	}
	utf8 := format.UTF8Locale(opts.Getenv)
	m := &Model{
		opts:     opts,
		ctx:      ctx,
		keys:     newGlobalKeys(),
		base:     ui.NewCommon(r, color, utf8, opts.Now),
		width:    defaultWidth,
		height:   defaultHeight,
		resets:   &resetLog{},
		receipts: newReceiptScan(),
		clock:    opts.Now(),
		after:    opts.After,
		requests: make(map[uint64]ui.Component),
		replay:   rs,
		rkeys:    newReplayKeys(),
	}
	m.resetPollData()
	m.styles = m.base.Styles
	m.base.ReadOnly, m.base.Protected = opts.ReadOnly, opts.Protected
	m.hints = newHints(m.styles, m.base.Glyphs)
	m.poll.poller = opts.Poller
	m.cmdline.Prompt = ":"
	m.resetStack()
	if opts.InitialGroup != "" {
		m.openGroup(opts.InitialGroup)
	}
	return m
}

// resetStack starts over with the groups screen alone. Answers to the
// requests of the screens it drops will find no one.
func (m *Model) resetStack() {
	clear(m.requests)
	m.groups = grouplist.New(m.base)
	m.stack = []ui.Component{m.groups}
	m.layout()
}

func (m *Model) top() ui.Component { return m.stack[len(m.stack)-1] }

func (m *Model) push(c ui.Component) {
	m.stack = append(m.stack, c)
	m.logScreen("screen push", c)
	m.layout()
}

func (m *Model) pop() {
	if len(m.stack) > 1 {
		m.logScreen("screen pop", m.top())
		closeScreens(m.stack[len(m.stack)-1:])
		m.stack = m.stack[:len(m.stack)-1]
	}
	m.layout()
}

// closeScreens lets go of screens taken off the stack: a screen with a
// Close method (the record viewer) stops its work, and the stack's array
// no longer holds them, so their memory returns.
func closeScreens(cs []ui.Component) {
	for i, c := range cs {
		if cl, ok := c.(interface{ Close() }); ok {
			cl.Close()
		}
		cs[i] = nil
	}
}

// resized asks the screens that lay out off the loop (a Resized method)
// to do so for the new size.
func (m *Model) resized() tea.Cmd {
	var cmds []tea.Cmd
	for _, c := range m.stack {
		if r, ok := c.(interface{ Resized() tea.Cmd }); ok {
			cmds = append(cmds, r.Resized())
		}
	}
	return tea.Batch(cmds...)
}

// openGroup shows the group screen for name on top of the groups list,
// replacing any group or help screen already open.
func (m *Model) openGroup(name string) {
	closeScreens(m.stack[1:])
	m.stack = m.stack[:1]
	m.groups.Update(ui.SelectGroupMsg{Name: name})
	m.push(groupdetail.New(m.base, name, m.snap, m.lag, m.groupTabs(name)...))
}

// Chrome around the screens: two status lines and a footer.
const (
	statusLines = 2
	footerLines = 1
)

func (m *Model) bodyHeight() int { return max(1, m.height-statusLines-footerLines) }

// layout sizes every screen.
func (m *Model) layout() {
	for _, c := range m.stack {
		c.SetSize(m.width, m.bodyHeight())
	}
}

// helpOpen reports whether the help screen is on top.
func (m *Model) helpOpen() bool {
	_, ok := m.top().(*keyhelp.Model)
	return ok
}

// Init starts the first poll and the clock; a replay shows its first
// poll instead.
func (m *Model) Init() tea.Cmd {
	if m.replay != nil {
		return tea.Batch(m.replayStart(m.opts.Replay.Start), m.clockTick())
	}
	return tea.Batch(m.startPoll(), m.clockTick())
}

// Update routes a message. It never blocks: polls, context switches and
// the screens' requests run as Cmds and come back as tagged messages.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.clock = m.opts.Now()
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = max(1, msg.Width), max(1, msg.Height)
		m.layout()
		return m, m.resized()
	case tea.KeyMsg:
		return m, m.onKeys(msg)
	case pollResultMsg:
		return m, m.onPollResult(msg)
	case judgedMsg:
		return m, m.onJudged(msg)
	case pollTickMsg:
		return m, m.onPollTick(msg)
	case clockMsg:
		return m, m.clockTick()
	case replayTickMsg:
		return m, m.onReplayTick(msg)
	case replayBuiltMsg:
		return m, m.onReplayBuilt(msg)
	case replayIndexMsg:
		m.replay.changes, m.replay.indexed = msg.changes, true
		return m, nil
	case switchMsg:
		return m, m.onSwitch(msg)
	case receiptsMsg:
		m.onReceipts(msg)
		return m, nil
	case ui.OpenGroupMsg:
		m.openGroup(msg.Name)
		return m, nil
	case ui.OpenRecordMsg:
		return m, m.openRecord(msg)
	case ui.FlashMsg:
		m.flash = msg
		if msg.Error {
			m.logError(msg.Text)
		}
		return m, nil
	case ui.Request:
		return m, m.ask(msg)
	case ui.TimestampsRequestMsg:
		return m, m.readTimestamps(msg)
	case ui.TimestampsMsg:
		return m, m.onTimestamps(msg)
	case ui.DiagnosisRequestMsg:
		return m, m.readDiagnosis(msg)
	case exactReadMsg:
		return m, m.onExactRead(msg)
	case ui.ResetMsg:
		return m, m.openReset(msg)
	case resetwizard.ClosedMsg:
		return m, m.closeDialog(msg.Changed, m.resetClosed(msg))
	case ui.RemoveMembersMsg:
		return m, m.openRemove(msg)
	case removal.ClosedMsg:
		return m, m.closeDialog(msg.Changed, msg.Summary)
	case ui.Reply:
		return m, m.deliver(msg)
	}
	return m, m.top().Update(msg)
}

// onKeys splits typed-ahead letters into single key presses. Keys that
// arrive together (a fast typist, a slow SSH link, tmux send-keys) come as
// one message with several runes; "/ord" must filter by "ord", not be an
// unknown key. A bracketed paste stays whole: it is text.
func (m *Model) onKeys(msg tea.KeyMsg) tea.Cmd {
	if msg.Type != tea.KeyRunes || len(msg.Runes) < 2 || msg.Paste {
		return m.onKey(msg)
	}
	cmds := make([]tea.Cmd, 0, len(msg.Runes))
	for _, r := range msg.Runes {
		cmds = append(cmds, m.onKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt}))
		if m.quitting {
			break
		}
	}
	return tea.Batch(cmds...)
}

// onKey handles a key press: Ctrl+C and the command line first, then a
// screen that is reading every key, then the global keys, the screen's
// actions, and finally the screen itself. Esc and q that the screen does
// not bind go back from a pushed screen; q on the groups screen quits. A
// key bound nowhere here says where it does something.
func (m *Model) onKey(msg tea.KeyMsg) tea.Cmd {
	m.flash = ui.FlashMsg{}
	if msg.Type == tea.KeyCtrlC {
		return m.quit()
	}
	if m.cmdActive {
		return m.onCommandKey(msg)
	}
	top := m.top()
	if top.Capturing() {
		return top.Update(msg)
	}
	if m.replay != nil {
		if cmd, ok := m.replayKey(msg, top); ok {
			return cmd
		}
	}
	k := &m.keys
	switch {
	case key.Matches(msg, k.Quit) && !m.pushed():
		return m.quit()
	case key.Matches(msg, k.QBack) && m.qGoesBack(top):
		m.pop()
		return nil
	case key.Matches(msg, k.Help):
		if m.helpOpen() {
			m.pop()
		} else {
			m.openHelp(top)
		}
		return nil
	case key.Matches(msg, k.Command):
		m.cmdActive = true
		m.cmdline.SetValue("")
		m.compl = completion{}
		return nil
	case key.Matches(msg, k.Refresh):
		return m.refreshNow()
	case key.Matches(msg, k.Pause):
		return m.togglePause()
	}
	actions := top.Actions()
	if cmd, ok := ui.Dispatch(actions, msg, m.base.ReadOnly); ok {
		return cmd
	}
	if key.Matches(msg, k.Back) && m.goesBack(top) {
		m.pop()
		return nil
	}
	if !ui.Binds(top.Bindings(), actions, msg) {
		return m.deadKey(msg)
	}
	return top.Update(msg)
}

// openHelp pushes the help for top: its bindings and the global keys, its
// actions, the commands and the legend.
func (m *Model) openHelp(top ui.Component) {
	keys := append(slices.Clip(top.Bindings()), m.generalSection(top))
	extra := append([]ui.Section{commandHelp(), ui.LagLegend(m.base.Glyphs)}, ui.LegendOf(top)...)
	m.push(keyhelp.New(m.base, keys, top.Actions(), extra...))
}

func (m *Model) quit() tea.Cmd {
	m.quitting = true
	m.cancelPoll()
	return tea.Quit
}
