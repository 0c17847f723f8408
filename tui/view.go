package tui

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/format"
	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/widgets/table"
)

// newHints builds the footer's key hints once, with kgroups' styles.
func newHints(s *ui.Styles, g ui.Glyphs) help.Model {
	return help.Model{
		ShortSeparator: g.Sep,
		Ellipsis:       g.Ellipsis,
		Styles: help.Styles{
			ShortKey:       s.HelpKey,
			ShortDesc:      s.Dim,
			ShortSeparator: s.Dim,
			Ellipsis:       s.Dim,
		},
	}
}

// View draws the status bar, the screen on top and the footer: exactly the
// terminal's height, no line wider than it. Only the status line with the
// refresh age changes when a poll brings nothing new.
func (m *Model) View() string {
	var b strings.Builder
	b.Grow(m.width * m.height)
	m.statusLine1(&b)
	b.WriteByte('\n')
	m.statusLine2(&b)
	b.WriteByte('\n')

	rest := m.top().View()
	h := m.bodyHeight()
	for i := 0; i < h; i++ {
		var line string
		if rest != "" {
			line, rest, _ = strings.Cut(rest, "\n")
		}
		b.WriteString(table.FitLine(line, m.width, m.base.Glyphs.Ellipsis))
		b.WriteByte('\n')
	}
	m.footer(&b)
	return b.String()
}

// statusLine1 says where kgroups is looking: context, brokers, mode.
func (m *Model) statusLine1(b *strings.Builder) {
	s, g := m.styles, m.base.Glyphs
	var l strings.Builder
	l.WriteString(s.Title.Render("kgroups"))
	l.WriteString(g.Sep)
	l.WriteString(s.Label.Render("ctx "))
	l.WriteString(format.Sanitize(orDash(m.opts.Name)))
	switch {
	case m.replay != nil:
		l.WriteString(" ")
		l.WriteString(s.Warn.Render("[replay, read-only]"))
	case m.opts.ReadOnly:
		l.WriteString(" ")
		l.WriteString(s.Warn.Render("[read-only]"))
	case m.opts.Protected:
		l.WriteString(" ")
		l.WriteString(s.Warn.Render("[protected]"))
	}
	if m.snap != nil {
		l.WriteString(g.Sep)
		m.healthCounts(&l)
	}
	l.WriteString(g.Sep)
	l.WriteString(s.Label.Render("brokers "))
	l.WriteString(format.Sanitize(orDash(strings.Join(m.opts.Brokers, ","))))
	b.WriteString(table.FitLine(l.String(), m.width, g.Ellipsis))
}

// healthCounts writes how many groups are OK, WARN and ERR, each in its
// colour, then, while some are still judging, how many ("4 judging",
// dim): a group is never counted OK before its window is full. Unknown
// verdicts are not counted. OK, WARN and ERR always show, so the line
// keeps its shape as verdicts change.
func (m *Model) healthCounts(l *strings.Builder) {
	ok, warn, bad := m.lag.Counts()
	for i, c := range []struct {
		n   int
		sev lag.Severity
	}{{ok, lag.SeverityOK}, {warn, lag.SeverityWarn}, {bad, lag.SeverityErr}} {
		if i > 0 {
			l.WriteByte(' ')
		}
		text := strconv.Itoa(c.n) + " " + c.sev.String()
		if c.n == 0 {
			l.WriteString(m.styles.Dim.Render(text))
		} else {
			l.WriteString(m.styles.Severity(c.sev).Render(text))
		}
	}
	if n := m.lag.Judging(); n > 0 {
		l.WriteString(m.styles.Dim.Render(" " + strconv.Itoa(n) + " judging"))
	}
}

// statusLine2 says how fresh the data is: connection, age, poll time, and
// on failure the error and when the next try is.
func (m *Model) statusLine2(b *strings.Builder) {
	s, g, p := m.styles, m.base.Glyphs, &m.poll
	var l strings.Builder
	if m.replay != nil {
		m.replayLine(&l)
		b.WriteString(table.FitLine(l.String(), m.width, g.Ellipsis))
		return
	}
	switch {
	case m.switching != "":
		l.WriteString(s.Warn.Render("switching to " + format.Sanitize(m.switching) + g.Ellipsis))
	case p.err != nil:
		// The error comes last: it is the longest part, and on a narrow
		// terminal the age and the next retry must not be cut off.
		l.WriteString(s.Error.Render(g.Fail + " " + staleLabel(m.snap != nil)))
		if !p.lastOK.IsZero() {
			l.WriteString(g.Sep + "last refresh " + format.Span(m.clock.Sub(p.lastOK)) + " ago")
		}
		switch {
		case p.inFlight:
			l.WriteString(g.Sep + "retrying" + g.Ellipsis)
		case !p.next.IsZero():
			l.WriteString(g.Sep + "retry " + p.next.Format("15:04:05") + " (in " + format.Span(p.next.Sub(m.clock)) + ")")
		}
		l.WriteString(g.Sep)
		l.WriteString(s.Error.Render(oneLine(kafka.Headline(p.err))))
	case m.snap == nil:
		l.WriteString(s.Dim.Render("connecting" + g.Ellipsis))
	default:
		connected := s.OK
		if m.overdue() {
			connected = s.Warn
		}
		l.WriteString(connected.Render(g.OK + " connected"))
		l.WriteString(g.Sep + format.Count(len(m.snap.Brokers), "broker", "brokers"))
		l.WriteString(g.Sep + "refreshed " + format.Span(m.clock.Sub(p.lastOK)) + " ago in " + format.Took(p.took))
	}
	switch {
	case p.paused:
		l.WriteString(g.Sep)
		l.WriteString(s.Warn.Render("paused"))
	case p.inFlight && p.err == nil && m.clock.Sub(p.started) >= time.Second:
		l.WriteString(g.Sep + "polling " + format.Span(m.clock.Sub(p.started)) + g.Ellipsis)
	case p.err == nil && m.snap != nil && m.switching == "" && m.overrun():
		// Polls run back to back and still fall short of the refresh
		// asked for: say so rather than let them queue.
		l.WriteString(g.Sep)
		l.WriteString(s.Warn.Render("a poll takes " + format.Lasted(p.cycle) + ", over the " + format.Span(m.opts.Refresh) + " refresh"))
	case p.err == nil && m.snap != nil && m.switching == "":
		l.WriteString(g.Sep + "every " + format.Span(m.opts.Refresh))
	}
	b.WriteString(table.FitLine(l.String(), m.width, g.Ellipsis))
}

// overdue reports whether the scheduled poll's time has passed with no
// result yet (the poll hangs, or its timer never fired): the data on screen
// is older than the refresh interval promises. A poll is overdue once it
// is overdueGrace late: the clock's tick often lands in the few
// milliseconds between a poll's start and its result, and the status line
// should not flash amber at every refresh.
func (m *Model) overdue() bool {
	p := &m.poll
	return p.err == nil && !p.paused && !p.next.IsZero() && m.clock.After(p.next.Add(overdueGrace))
}

// overdueGrace is how late a scheduled poll may be before it is overdue.
const overdueGrace = 500 * time.Millisecond

func staleLabel(haveData bool) string {
	if haveData {
		return "stale"
	}
	return "unreachable"
}

// footer is the command line while typing a command, else a message from
// the last action, else key hints generated from the bindings of the screen
// on top and the global keys.
func (m *Model) footer(b *strings.Builder) {
	g := m.base.Glyphs
	var line string
	switch {
	case m.cmdActive:
		// A completed group name is the broker's text.
		line = format.Sanitize(m.cmdline.View(false, "")) + g.Caret
	case m.flash.Text != "":
		text := keepReceipt(oneLine(m.flash.Text), m.width, g.Ellipsis, m.opts.Getenv("HOME"))
		if m.flash.Error {
			line = m.styles.Error.Render(text)
		} else {
			line = m.styles.Warn.Render(text)
		}
	default:
		m.hints.Width = m.width
		line = m.hints.ShortHelpView(m.footerKeys(m.top(), m.width))
	}
	b.WriteString(table.FitLine(line, m.width, g.Ellipsis))
}

// keepReceipt fits a message that ends with "; receipt PATH" into width
// by cutting what comes before, never the path: the receipt is what a
// user must copy after a write (kgroups undo PATH). When even the path
// does not fit with a word before it, the line is "receipt PATH" alone,
// then, with the home folder home written ~ (a shell expands it),
// "receipt ~/PATH" and "~/PATH".
func keepReceipt(text string, width int, ellipsis, home string) string {
	const sep = "; receipt "
	i := strings.LastIndex(text, sep)
	if i < 0 || format.Width(text) <= width {
		return text
	}
	tail := text[i:]
	if head := width - format.Width(tail); head >= 8 {
		return format.Truncate(text[:i], head, ellipsis) + tail
	}
	path := tail[len(sep):]
	fits := []string{"receipt " + path}
	if home = strings.TrimSuffix(home, "/"); home != "" && strings.HasPrefix(path, home+"/") {
		short := "~" + path[len(home):]
		fits = append(fits, "receipt "+short, short)
	}
	for _, s := range fits {
		if format.Width(s) <= width {
			return s
		}
	}
	return fits[0]
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// oneLine makes a message (an error, often with a broker's or a group's
// words in it) one safe line: line breaks become spaces, and whatever else a
// terminal would act on becomes visible text.
func oneLine(s string) string {
	return format.Sanitize(strings.Join(strings.Fields(s), " "))
}
