package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

func TestGlyphsFor(t *testing.T) {
	if g := GlyphsFor(false); string(g.Spark) != "_.-=#" || g.Ellipsis != "~" || g.Cursor != ">" {
		t.Fatalf("ASCII glyphs = %+v", g)
	}
	for _, s := range []string{ASCIIGlyphs.Ellipsis, ASCIIGlyphs.Cursor, ASCIIGlyphs.Up, ASCIIGlyphs.Down, ASCIIGlyphs.Sep, ASCIIGlyphs.OK, ASCIIGlyphs.Fail, string(ASCIIGlyphs.Spark),
		ASCIIGlyphs.AtLeast, string(ASCIIGlyphs.Bars), ASCIIGlyphs.AxisV, ASCIIGlyphs.AxisTick, ASCIIGlyphs.AxisOrigin, ASCIIGlyphs.AxisH} {
		for _, r := range s {
			if r >= 0x80 {
				t.Errorf("ASCII glyph %q holds non-ASCII %q", s, r)
			}
		}
	}
	if g := GlyphsFor(true); string(g.Spark) != "▁▂▃▄▅▆▇█" {
		t.Fatalf("Unicode sparks = %q", string(g.Spark))
	}
}

func TestStylesWithoutColor(t *testing.T) {
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.ANSI256)
	colored := NewStyles(r, DefaultTheme(), true)
	plain := NewStyles(r, DefaultTheme(), false)

	if got := colored.State("Stable", false).Render("Stable"); !strings.Contains(got, "38;5;") {
		t.Fatalf("coloured Stable = %q, want a 256-colour foreground", got)
	}
	for name, s := range map[string]*lipgloss.Style{
		"stable": plain.State("Stable", false), "rebalancing": plain.State("PreparingRebalance", false),
		"dead": plain.State("Dead", false), "error": plain.State("Stable", true), "title": &plain.Title,
		"selected": &plain.Selected, "bar": &plain.Bar, "lag": &plain.Lag,
	} {
		got := s.Render("x")
		if strings.Contains(got, "38;5;") || strings.Contains(got, "48;5;") {
			t.Errorf("NO_COLOR style %s = %q, want no colour", name, got)
		}
	}
	// The selection must stay visible without colour.
	if got := plain.Selected.Render("x"); got != "\x1b[7mx\x1b[0m" {
		t.Errorf("NO_COLOR selection = %q, want reverse video", got)
	}
}

func TestStateStyles(t *testing.T) {
	s := NewStyles(lipgloss.NewRenderer(nil), DefaultTheme(), true)
	tests := []struct {
		state  string
		failed bool
		want   *lipgloss.Style
	}{
		{"Stable", false, &s.StateStable},
		{"PreparingRebalance", false, &s.StateRebalancing},
		{"CompletingRebalance", false, &s.StateRebalancing},
		{"Assigning", false, &s.StateRebalancing},
		{"Reconciling", false, &s.StateRebalancing},
		{"Empty", false, &s.StateIdle},
		{"Dead", false, &s.StateIdle},
		{"Unknown", false, &s.StateOther},
		{"Stable", true, &s.Error},
	}
	for _, tt := range tests {
		if got := s.State(tt.state, tt.failed); got != tt.want {
			t.Errorf("State(%q, %v) is not the expected style", tt.state, tt.failed)
		}
	}
}

func TestKeyMapScreens(t *testing.T) {
	k := DefaultKeyMap()
	press := func(s string) tea.KeyMsg {
		switch s {
		case "tab":
			return tea.KeyMsg{Type: tea.KeyTab}
		case "esc":
			return tea.KeyMsg{Type: tea.KeyEsc}
		}
		return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
	}
	if !key.Matches(press("L"), k.SortLag) || key.Matches(press("tab"), k.NextTab) || key.Matches(press("esc"), k.Back) {
		t.Fatal("groups screen: sort should match, tabs and back should not")
	}
	if !key.Matches(press("esc"), k.ClearFilter) {
		t.Fatal("groups screen: esc should clear the filter")
	}
	k.SetScreen(ScreenGroup)
	if key.Matches(press("L"), k.SortLag) || !key.Matches(press("tab"), k.NextTab) || !key.Matches(press("esc"), k.Back) {
		t.Fatal("group screen: tabs and back should match, sort should not")
	}
	if key.Matches(press("esc"), k.ClearFilter) {
		t.Fatal("group screen: esc must not clear a filter")
	}
}

func TestShortHelpFollowsScreen(t *testing.T) {
	k := DefaultKeyMap()
	descs := func() string {
		var out []string
		for _, b := range k.ShortHelp() {
			if b.Enabled() {
				out = append(out, b.Help().Key+" "+b.Help().Desc)
			}
		}
		return strings.Join(out, ", ")
	}
	if got, want := descs(), "enter open, / filter, NLTHSM sort, ? help, r refresh, p pause, : command, q quit"; got != want {
		t.Fatalf("groups hints = %q\nwant %q", got, want)
	}
	k.SetScreen(ScreenGroup)
	k.SetPaused(true)
	if got, want := descs(), "esc back, tab switch tab, ? help, r refresh, p resume, : command, q quit"; got != want {
		t.Fatalf("group hints = %q\nwant %q", got, want)
	}
	if got := len(k.FullHelp()); got != len(k.Sections()) {
		t.Fatalf("FullHelp has %d columns, Sections %d", got, len(k.Sections()))
	}
}

func TestDispatch(t *testing.T) {
	ran := ""
	actions := []Action{
		{Name: "open group", Key: key.NewBinding(key.WithKeys("enter")), Run: func() tea.Cmd { ran = "open"; return nil }},
		{Name: "reset offsets", Key: key.NewBinding(key.WithKeys("R")), Dangerous: true, Run: func() tea.Cmd { ran = "reset"; return nil }},
		{Name: "describe", Key: key.NewBinding(key.WithKeys("d")), Unavailable: func() string { return "no group selected" }, Run: func() tea.Cmd { ran = "describe"; return nil }},
	}
	enter := tea.KeyMsg{Type: tea.KeyEnter}
	reset := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("R")}
	desc := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("d")}
	other := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")}

	if _, ok := Dispatch(actions, other, false); ok {
		t.Fatal("x matched an action")
	}
	if _, ok := Dispatch(actions, enter, true); !ok || ran != "open" {
		t.Fatalf("enter in read-only: handled=%v ran=%q, want open (not dangerous)", ok, ran)
	}
	ran = ""
	cmd, ok := Dispatch(actions, reset, true)
	if !ok || ran != "" || cmd == nil {
		t.Fatalf("reset in read-only: handled=%v ran=%q", ok, ran)
	}
	if got := cmd(); got != (FlashMsg{Text: "reset offsets: the context is read-only", Error: true}) {
		t.Fatalf("reset in read-only says %#v", got)
	}
	if _, ok := Dispatch(actions, reset, false); !ok || ran != "reset" {
		t.Fatalf("reset in a writable context: handled=%v ran=%q", ok, ran)
	}
	ran = ""
	cmd, _ = Dispatch(actions, desc, false)
	if ran != "" || cmd().(FlashMsg).Text != "describe: no group selected" {
		t.Fatalf("unavailable action ran=%q", ran)
	}
}
