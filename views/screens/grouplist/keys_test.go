package grouplist

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/viewtest"
)

func hints(bs []key.Binding) string {
	var out []string
	for _, b := range bs {
		if b.Enabled() {
			out = append(out, b.Help().Key+" "+b.Help().Desc)
		}
	}
	return strings.Join(out, ", ")
}

func sectionTitles(secs []ui.Section) string {
	var out []string
	for _, s := range secs {
		out = append(out, s.Title)
	}
	return strings.Join(out, ", ")
}

// TestScreenOwnsItsKeys: the screen lists its own keys, answers to them,
// and binds Esc (it clears the filter) so the root never takes it as back.
func TestScreenOwnsItsKeys(t *testing.T) {
	m := New(viewtest.Common(100, 12, true))
	m.Update(ui.DataMsg{Snapshot: viewtest.Snapshot(viewtest.Epoch, 0)})
	if got, want := hints(m.ShortHelp()), "enter open, / filter, NLTHSM sort, R reset, D delete"; got != want {
		t.Fatalf("footer hints = %q, want %q", got, want)
	}
	if got := sectionTitles(m.Bindings()); got != "Move, Groups" {
		t.Fatalf("sections = %q", got)
	}
	esc := tea.KeyMsg{Type: tea.KeyEsc}
	if !ui.Binds(m.Bindings(), m.Actions(), esc) {
		t.Fatal("the groups screen does not bind Esc")
	}
	for _, k := range []string{"tab", "x", "c"} {
		if ui.Binds(m.Bindings(), m.Actions(), tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}) {
			t.Fatalf("the groups screen binds %q", k)
		}
	}
	var names []string
	for _, a := range m.Actions() {
		names = append(names, a.Key.Help().Key)
	}
	if got := strings.Join(names, " "); got != "enter R D" {
		t.Fatalf("action keys = %q", got)
	}

	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("L")})
	if m.sortBy != ByLag {
		t.Fatal("L did not sort by lag")
	}
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("H")})
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("T")})
	if m.sortBy != ByTimeLag {
		t.Fatal("H then T did not sort by time lag")
	}
	// While the filter is typed, no key but the filter's applies: the
	// footer offers none.
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/")})
	if !m.Capturing() || len(m.ShortHelp()) != 0 {
		t.Fatalf("filtering: capturing %v, hints %q", m.Capturing(), hints(m.ShortHelp()))
	}
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("o")})
	m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	m.Update(esc)
	if m.Filter() != "" {
		t.Fatalf("esc left the filter %q", m.Filter())
	}
}
