package tui

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/viewtest"
)

func init() {
	lipgloss.SetColorProfile(termenv.Ascii)
}

// clock is a settable clock, safe for the poll goroutines that read it.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: viewtest.Epoch} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// seqPoller returns its snapshots (or errors) in order, then repeats the
// last one with the clock's time.
type seqPoller struct {
	mu    sync.Mutex
	clock *clock
	steps []func(now time.Time) (*kafka.Snapshot, error)
	calls int
}

func (p *seqPoller) Poll(context.Context) (*kafka.Snapshot, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	i := min(p.calls, len(p.steps)-1)
	p.calls++
	return p.steps[i](p.clock.Now())
}

func (p *seqPoller) Calls() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls
}

// fixture polls the fixture cluster at the clock's time.
func fixture(now time.Time) (*kafka.Snapshot, error) { return viewtest.Snapshot(now, 0), nil }

func failing(err error) func(time.Time) (*kafka.Snapshot, error) {
	return func(time.Time) (*kafka.Snapshot, error) { return nil, err }
}

// blockPoller blocks every poll until released or cancelled.
type blockPoller struct {
	started chan struct{}
	release chan struct{}
	snap    *kafka.Snapshot
}

func newBlockPoller(snap *kafka.Snapshot) *blockPoller {
	return &blockPoller{started: make(chan struct{}, 16), release: make(chan struct{}), snap: snap}
}

func (p *blockPoller) Poll(ctx context.Context) (*kafka.Snapshot, error) {
	p.started <- struct{}{}
	select {
	case <-p.release:
		return p.snap, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

var errRefused = errors.New("dial tcp 10.0.0.1:9092: connect: connection refused")

// harness drives a root model without a terminal.
type harness struct {
	t     testing.TB
	m     *Model
	clock *clock
	p     *seqPoller

	timers []timerMsg
	quit   bool
}

func newHarness(t testing.TB, width, height int, opts Options, steps ...func(time.Time) (*kafka.Snapshot, error)) *harness {
	t.Helper()
	c := newClock()
	if len(steps) == 0 {
		steps = append(steps, fixture)
	}
	p := &seqPoller{clock: c, steps: steps}
	if opts.Poller == nil {
		opts.Poller = p
	}
	if opts.Name == "" {
		opts.Name = "prod"
	}
	if opts.Brokers == nil {
		opts.Brokers = []string{"kafka-1.internal:9092", "kafka-2.internal:9092"}
	}
	opts.Now = c.Now
	if opts.Getenv == nil {
		opts.Getenv = func(k string) string {
			if k == "LANG" {
				return "en_US.UTF-8"
			}
			return ""
		}
	}
	m := New(opts)
	m.after = func(d time.Duration, msg tea.Msg) tea.Cmd {
		return func() tea.Msg { return timerMsg{d: d, msg: msg} }
	}
	m.Update(tea.WindowSizeMsg{Width: width, Height: height})
	return &harness{t: t, m: m, clock: c, p: p}
}

// timerMsg stands for a timer: the harness records it instead of waiting.
type timerMsg struct {
	d   time.Duration
	msg tea.Msg
}

// poll runs one poll to completion, as the program would, including what
// the result leads to (except timers).
func (h *harness) poll() {
	h.t.Helper()
	cmd := h.m.startPoll()
	if cmd == nil {
		h.t.Fatal("startPoll returned no command (a poll is in flight)")
	}
	h.run(cmd)
}

// send delivers one message and returns the Cmd without running it.
func (h *harness) send(msg tea.Msg) tea.Cmd {
	_, cmd := h.m.Update(msg)
	return cmd
}

// run runs cmd and everything it leads to, synchronously, as the program
// would; timers are recorded, not waited for.
func (h *harness) run(cmd tea.Cmd) {
	h.t.Helper()
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			h.run(c)
		}
	case timerMsg:
		h.timers = append(h.timers, msg)
	case tea.QuitMsg:
		h.quit = true
	default:
		h.run(h.send(msg))
	}
}

// request hands a screen's request (what cmd returns) to the root, and
// returns the root's Cmd that does the work, without running it: a test
// decides when the answer arrives.
func (h *harness) request(cmd tea.Cmd) tea.Cmd {
	h.t.Helper()
	if cmd == nil {
		h.t.Fatal("no Cmd")
	}
	req, ok := cmd().(ui.Request)
	if !ok {
		h.t.Fatal("the Cmd makes no request")
	}
	return h.send(req)
}

// keyMsg turns a key name into the message Bubble Tea sends for it.
func keyMsg(k string) tea.KeyMsg {
	types := map[string]tea.KeyType{
		"enter": tea.KeyEnter, "esc": tea.KeyEsc, "tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab,
		"up": tea.KeyUp, "down": tea.KeyDown, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
		"home": tea.KeyHome, "end": tea.KeyEnd, "backspace": tea.KeyBackspace, "ctrl+c": tea.KeyCtrlC,
		"ctrl+u": tea.KeyCtrlU, "space": tea.KeySpace,
	}
	if t, ok := types[k]; ok {
		return tea.KeyMsg{Type: t}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// press sends keys, running what each leads to.
func (h *harness) press(keys ...string) {
	h.t.Helper()
	for _, k := range keys {
		h.run(h.send(keyMsg(k)))
	}
}

// typeText types s one rune at a time.
func (h *harness) typeText(s string) {
	for _, r := range s {
		h.press(string(r))
	}
}

func (h *harness) view() string { return viewtest.Strip(h.m.View()) }

// settle runs cmd and everything it leads to on a model built without a
// harness, as the program would (its timers must make no Cmd).
func settle(m *Model, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			settle(m, c)
		}
	default:
		_, next := m.Update(msg)
		settle(m, next)
	}
}
