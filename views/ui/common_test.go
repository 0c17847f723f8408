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
	for _, s := range []string{ASCIIGlyphs.Ellipsis, ASCIIGlyphs.Cursor, ASCIIGlyphs.Up, ASCIIGlyphs.Down, ASCIIGlyphs.UpDown, ASCIIGlyphs.Arrow, ASCIIGlyphs.Sep, ASCIIGlyphs.OK, ASCIIGlyphs.Fail, string(ASCIIGlyphs.Spark),
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

func TestMoveKeys(t *testing.T) {
	for _, tt := range []struct {
		utf8     bool
		up, down string
	}{{true, "↑/k", "↓/j"}, {false, "k/up", "j/down"}} {
		k := NewMoveKeys(tt.utf8)
		if got := k.Up.Help().Key + " " + k.Down.Help().Key; got != tt.up+" "+tt.down {
			t.Errorf("utf8=%v: up and down read %q", tt.utf8, got)
		}
		sec := k.Section()
		if sec.Title != "Move" || len(sec.Bindings) != 6 {
			t.Errorf("utf8=%v: section %q with %d bindings", tt.utf8, sec.Title, len(sec.Bindings))
		}
		for _, press := range []tea.KeyMsg{{Type: tea.KeyUp}, {Type: tea.KeyRunes, Runes: []rune("k")}} {
			if !key.Matches(press, k.Up) {
				t.Errorf("utf8=%v: %v does not move up", tt.utf8, press)
			}
		}
	}
}

func TestLagLegendASCII(t *testing.T) {
	var legend []string
	for _, b := range LagLegend(ASCIIGlyphs).Bindings {
		legend = append(legend, b.Help().Key)
	}
	if got := legend[1]; got != ">=12s" {
		t.Fatalf("ASCII legend for a lower bound = %q", got)
	}
}

func TestBinds(t *testing.T) {
	esc := tea.KeyMsg{Type: tea.KeyEsc}
	clearFilter := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter"))
	legend := key.NewBinding(key.WithHelp("~12s", "extrapolated"))
	if Binds([]Section{{Bindings: []key.Binding{legend}}}, nil, esc) {
		t.Fatal("a legend entry binds Esc")
	}
	if !Binds([]Section{{Bindings: []key.Binding{legend, clearFilter}}}, nil, esc) {
		t.Fatal("a section with Esc does not bind it")
	}
	clearFilter.SetEnabled(false)
	if Binds([]Section{{Bindings: []key.Binding{clearFilter}}}, nil, esc) {
		t.Fatal("a disabled binding binds Esc")
	}
	if !Binds(nil, []Action{{Name: "cancel", Key: key.NewBinding(key.WithKeys("esc"))}}, esc) {
		t.Fatal("an action on Esc does not bind it")
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
