package tui

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/views/ui"
)

// switchMsg is the outcome of connecting to another context, tagged with
// its request's ID so that only the latest `:ctx` takes effect.
type switchMsg struct {
	id     uint64
	name   string
	poller Poller
	info   ContextInfo
	err    error
}

// onCommandKey edits the command line; Tab completes a group name, Enter
// runs the line, Esc (or Backspace on an empty line) leaves it.
func (m *Model) onCommandKey(msg tea.KeyMsg) tea.Cmd {
	switch msg.Type {
	case tea.KeyEsc:
		m.cmdActive = false
		return nil
	case tea.KeyEnter:
		m.cmdActive = false
		return m.runCommand(m.cmdline.Value())
	case tea.KeyTab:
		m.complete()
		return nil
	case tea.KeyBackspace:
		if m.cmdline.Value() == "" {
			m.cmdActive = false
			return nil
		}
	}
	m.cmdline.Update(msg)
	return nil
}

// completion is the state of Tab on the command line: the names the
// typed prefix matched, which one is shown, and the line as Tab left it
// (any other edit starts over).
type completion struct {
	line  string
	names []string
	i     int
}

// complete completes the group name of `:group PREFIX` from the latest
// snapshot. The first Tab extends the prefix to the longest one all
// matching names share (the whole name when one matches); when that adds
// nothing, each further Tab shows the next matching name, in name order,
// round and round.
func (m *Model) complete() {
	line := m.cmdline.Value()
	c := &m.compl
	if len(c.names) > 1 && line == c.line {
		c.i = (c.i + 1) % len(c.names)
		c.line = "group " + c.names[c.i]
		m.cmdline.SetValue(c.line)
		return
	}
	*c = completion{}
	cmd, prefix, ok := strings.Cut(line, " ")
	if !ok || (cmd != "group" && cmd != "g") || m.snap == nil {
		return
	}
	prefix = strings.TrimLeft(prefix, " ")
	var names []string
	for i := range m.snap.Groups {
		if n := m.snap.Groups[i].Name; strings.HasPrefix(n, prefix) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return
	}
	slices.Sort(names)
	common := names[0]
	for _, n := range names[1:] {
		common = commonPrefix(common, n)
	}
	c.names = names
	if len(common) > len(prefix) || len(names) == 1 {
		c.line, c.i = "group "+common, -1 // the next Tab shows the first name
	} else {
		c.line, c.i = "group "+names[0], 0
	}
	m.cmdline.SetValue(c.line)
}

// commonPrefix is the longest prefix a and b share, cut at a rune
// boundary.
func commonPrefix(a, b string) string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	for n > 0 && n < len(a) && !utf8.RuneStart(a[n]) {
		n--
	}
	return a[:n]
}

func (m *Model) flashError(format string, args ...any) tea.Cmd {
	m.flash = ui.FlashMsg{Text: fmt.Sprintf(format, args...), Error: true}
	m.logError(m.flash.Text)
	return nil
}

func (m *Model) flashInfo(format string, args ...any) {
	m.flash = ui.FlashMsg{Text: fmt.Sprintf(format, args...)}
}

// command is one `:` command. The table drives both parsing and the help.
type command struct {
	names []string
	usage string
	help  string
	run   func(m *Model, args []string) tea.Cmd
}

var commands = []command{
	{names: []string{"ctx", "context"}, usage: "ctx NAME", help: "switch context (bare :ctx lists them)", run: func(m *Model, args []string) tea.Cmd {
		switch len(args) {
		case 0:
			return m.listContexts()
		case 1:
			return m.switchTo(args[0])
		}
		return m.flashError("usage: :ctx NAME")
	}},
	{names: []string{"group", "g"}, usage: "group NAME", help: "open a group (Tab completes the name)", run: func(m *Model, args []string) tea.Cmd {
		if len(args) != 1 {
			return m.flashError("usage: :group NAME")
		}
		return m.jumpToGroup(args[0])
	}},
	{names: []string{"q", "quit"}, usage: "q", help: "quit", run: func(m *Model, _ []string) tea.Cmd {
		return m.quit()
	}},
}

// commandHelp lists the commands for the help screen.
func commandHelp() ui.Section {
	sec := ui.Section{Title: "Commands"}
	for _, c := range commands {
		sec.Bindings = append(sec.Bindings, key.NewBinding(key.WithKeys(c.names...), key.WithHelp(":"+c.usage, c.help)))
	}
	return sec
}

// runCommand runs one command line.
func (m *Model) runCommand(line string) tea.Cmd {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return nil
	}
	for _, c := range commands {
		if slices.Contains(c.names, fields[0]) {
			return c.run(m, fields[1:])
		}
	}
	return m.flashError("unknown command %q: try :ctx NAME, :group NAME or :q", fields[0])
}

func (m *Model) listContexts() tea.Cmd {
	if len(m.opts.Contexts) == 0 {
		m.flashInfo("context %s (no other contexts configured)", m.opts.Name)
		return nil
	}
	m.flashInfo("contexts: %s (current: %s)", strings.Join(m.opts.Contexts, ", "), m.opts.Name)
	return nil
}

func (m *Model) jumpToGroup(name string) tea.Cmd {
	if m.snap != nil {
		if _, ok := m.snap.Group(name); !ok {
			return m.flashError("group %q not found", name)
		}
	}
	m.openGroup(name)
	return nil
}

// switchTo connects to context name in a Cmd; the UI keeps running on the
// current context until the connection is made.
func (m *Model) switchTo(name string) tea.Cmd {
	if m.opts.Switch == nil {
		if m.opts.NoSwitch != "" {
			m.flashInfo("%s", m.opts.NoSwitch)
			return nil
		}
		return m.flashError("switching contexts is unavailable here")
	}
	if len(m.opts.Contexts) > 0 && !slices.Contains(m.opts.Contexts, name) {
		return m.flashError("unknown context %q: one of %s", name, strings.Join(m.opts.Contexts, ", "))
	}
	if name == m.opts.Name && m.switching == "" {
		m.flashInfo("already on context %s", name)
		return nil
	}
	m.switchID = ui.NewRequestID()
	m.switching = name
	id, sw, ctx := m.switchID, m.opts.Switch, m.ctx
	return func() tea.Msg {
		p, info, err := sw(ctx, name)
		return switchMsg{id: id, name: name, poller: p, info: info, err: err}
	}
}

// onSwitch takes the new context: the old poller is closed, the screens
// start over and the first poll of the new cluster begins.
func (m *Model) onSwitch(msg switchMsg) tea.Cmd {
	if msg.id != m.switchID {
		return closePoller(msg.poller) // superseded by a later :ctx
	}
	m.switching = ""
	if msg.err != nil {
		return m.flashError("switch to %s: %v", msg.name, msg.err)
	}
	old := m.poll.poller
	m.cancelPoll()
	m.poll = pollState{poller: msg.poller, gen: m.poll.gen, tickSeq: m.poll.tickSeq, paused: m.poll.paused}

	info := msg.info
	if info.Name == "" {
		info.Name = msg.name
	}
	if info.Refresh <= 0 {
		info.Refresh = m.opts.Refresh
	}
	if info.Timeout <= 0 {
		info.Timeout = m.opts.Timeout
	}
	m.opts.ContextInfo = info
	m.opts.Log.Debug("ui context switch", "context", info.Name, "brokers", info.Brokers)
	m.base.ReadOnly, m.base.Protected = info.ReadOnly, info.Protected
	m.resetPollData()
	m.exact = exactReads{gen: m.exact.gen + 1}
	m.resets = &resetLog{}
	m.receipts = newReceiptScan()
	m.resetStack()
	m.flashInfo("switched to context %s", info.Name)
	m.poll.paused = false
	return tea.Batch(closePoller(old), m.startPoll())
}

// closePoller releases a poller that has a Close method, off the UI loop.
func closePoller(p Poller) tea.Cmd {
	c, ok := p.(interface{ Close() })
	if !ok || c == nil {
		return nil
	}
	return func() tea.Msg {
		c.Close()
		return nil
	}
}
