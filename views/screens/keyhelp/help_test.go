package keyhelp

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/viewtest"
)

// keys are sections as a screen and the root give them: the movement keys
// and three titled sections.
func keys(c ui.Common) []ui.Section {
	b := func(k, desc string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, desc)) }
	return []ui.Section{
		c.Move.Section(),
		{Title: "Groups", Bindings: []key.Binding{b("enter", "open"), b("/", "filter"), b("esc", "clear filter"), b("N", "sort by name"),
			b("L", "sort by lag"), b("T", "sort by time lag"), b("H", "sort by health"), b("S", "sort by state"), b("M", "sort by members")}},
		{Title: "Group", Bindings: []key.Binding{b("tab", "next tab"), b("shift+tab", "previous tab"), b("esc", "back"), b("x", "exact time lag"), b("c", "chart group/partition")}},
		{Title: "General", Bindings: []key.Binding{b("r", "refresh"), b("p", "pause"), b(":", "command"), b("?", "help"), b("q", "quit")}},
	}
}

func actions() []ui.Action {
	return []ui.Action{
		{Name: "open group", Key: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open"))},
		{Name: "delete group", Key: key.NewBinding(key.WithKeys("D"), key.WithHelp("D", "delete")), Dangerous: true},
	}
}

func TestLayoutWrapsToTheWidth(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	c := viewtest.Common(60, 40, true)
	c.ReadOnly = true
	m := New(c, keys(c), actions())
	got := viewtest.Strip(m.View())
	want := strings.Join([]string{
		"Move               Groups",
		"↑/k   up           enter  open",
		"↓/j   down         /      filter",
		"pgup  page up      esc    clear filter",
		"pgdn  page down    N      sort by name",
		"g     first row    L      sort by lag",
		"G     last row     T      sort by time lag",
		"                   H      sort by health",
		"                   S      sort by state",
		"                   M      sort by members",
		"",
		"Group                               General",
		"tab        next tab                 r  refresh",
		"shift+tab  previous tab             p  pause",
		"esc        back                     :  command",
		"x          exact time lag           ?  help",
		"c          chart group/partition    q  quit",
		"",
		"Actions",
		"enter  open group",
		"D      delete group (disabled: the context is read-only)",
	}, "\n")
	if got != want {
		t.Fatalf("help at 60 columns:\n%s\nwant\n%s", got, want)
	}
	for _, l := range strings.Split(m.View(), "\n") {
		if w := lipgloss.Width(l); w > 60 {
			t.Fatalf("line %q is %d wide", l, w)
		}
	}
}

func TestScroll(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	c := viewtest.Common(60, 5, true)
	m := New(c, keys(c), actions())
	first := func() string { return strings.Split(viewtest.Strip(m.View()), "\n")[0] }
	if n := len(strings.Split(m.View(), "\n")); n != 5 {
		t.Fatalf("%d lines on a 5-line screen", n)
	}
	down := tea.KeyMsg{Type: tea.KeyDown}
	m.Update(down)
	m.Update(down)
	if got := first(); got != "↓/j   down         /      filter" {
		t.Fatalf("after two downs the first line is %q", got)
	}
	// Four lines of text, then the mark: there is more below.
	last := func() string { return strings.Split(viewtest.Strip(m.View()), "\n")[4] }
	if got := last(); got != "↓ more (6 of 21 lines; j/k, pgup/pgdn, g/G scroll)" {
		t.Fatalf("the last line is %q", got)
	}
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("G")})
	bottom := strings.Join([]string{
		"",
		"Actions",
		"enter  open group",
		"D      delete group",
		"",
	}, "\n")
	if got := viewtest.Strip(m.View()); got != bottom {
		t.Fatalf("at the bottom:\n%s\nwant\n%s", got, bottom)
	}
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("g")})
	if got := first(); got != "Move               Groups" {
		t.Fatalf("at the top the first line is %q", got)
	}
	m.Update(tea.KeyMsg{Type: tea.KeyUp})
	if got := first(); got != "Move               Groups" {
		t.Fatalf("scrolled above the top: %q", got)
	}
}

// TestExtraSectionsFollowActions: the commands and the legend come after
// the keys and the screen's actions.
func TestExtraSectionsFollowActions(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	c := viewtest.Common(120, 60, true)
	legend := ui.Section{Title: "Legend", Bindings: []key.Binding{key.NewBinding(key.WithHelp("~12s", "extrapolated"))}}
	m := New(c, keys(c), actions(), legend)
	got := viewtest.Strip(m.View())
	want := strings.Join([]string{
		"Move               Groups                     Group                               General       Actions",
		"↑/k   up           enter  open                tab        next tab                 r  refresh    enter  open group",
		"↓/j   down         /      filter              shift+tab  previous tab             p  pause      D      delete group",
		"pgup  page up      esc    clear filter        esc        back                     :  command",
		"pgdn  page down    N      sort by name        x          exact time lag           ?  help",
		"g     first row    L      sort by lag         c          chart group/partition    q  quit",
		"G     last row     T      sort by time lag",
		"                   H      sort by health",
		"                   S      sort by state",
		"                   M      sort by members",
		"",
		"Legend",
		"~12s  extrapolated",
	}, "\n")
	if got != want {
		t.Fatalf("help:\n%s\nwant\n%s", got, want)
	}
}

// TestDisabledKeysAreLeftOut: a disabled binding is not listed, and a
// section left empty is not drawn.
func TestDisabledKeysAreLeftOut(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	c := viewtest.Common(60, 10, true)
	off := key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "off"), key.WithDisabled())
	on := key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "on"))
	m := New(c, []ui.Section{{Title: "Empty", Bindings: []key.Binding{off}}, {Title: "Some", Bindings: []key.Binding{off, on}}}, nil)
	if got, want := viewtest.Strip(m.View()), "Some\ny  on"; got != want {
		t.Fatalf("help:\n%s\nwant\n%s", got, want)
	}
}
