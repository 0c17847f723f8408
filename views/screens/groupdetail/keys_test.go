package groupdetail

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/kgroups/kgroups/views/ui"
	"github.com/kgroups/kgroups/views/viewtest"
)

// tab stands for an extra tab the root adds; a screen never imports
// another, its tests neither.
type tab struct{ ui.Common }

func (t *tab) Update(tea.Msg) tea.Cmd   { return nil }
func (t *tab) View() string             { return "" }
func (t *tab) Capturing() bool          { return false }
func (t *tab) Actions() []ui.Action     { return nil }
func (t *tab) Bindings() []ui.Section   { return []ui.Section{t.Move.Section()} }
func (t *tab) ShortHelp() []key.Binding { return nil }
func (t *tab) SetSize(w, h int)         { t.Common.SetSize(w, h) }

// TestScreenOwnsItsKeys: the group screen lists its tabs, chart and filter
// keys, does not bind Esc (so the root takes it as back) while no filter is
// kept, nor the groups screen's sorts, and on an extra tab lists that tab's
// keys.
func TestScreenOwnsItsKeys(t *testing.T) {
	c := viewtest.Common(120, 20, true)
	m := New(c, "orders-app", viewtest.Snapshot(viewtest.Epoch, 0), nil, Extra{Title: "Timeline", Tab: &tab{Common: c}})
	titles := func() string {
		var out []string
		for _, s := range m.Bindings() {
			var keys []string
			for _, b := range s.Bindings {
				keys = append(keys, b.Help().Key)
			}
			out = append(out, s.Title+": "+strings.Join(keys, " "))
		}
		return strings.Join(out, "; ")
	}
	if got, want := titles(), "Move: ↑/k ↓/j pgup pgdn g G; Group: tab shift+tab c; Filter: / n/N"; got != want {
		t.Fatalf("bindings = %q\nwant %q", got, want)
	}
	footer := func() string {
		var out []string
		for _, b := range m.ShortHelp() {
			out = append(out, b.Help().Key+" "+b.Help().Desc)
		}
		return strings.Join(out, ", ")
	}
	if got, want := footer(), "tab tabs, R reset, space select, e seek, v view, x exact, / filter, c chart"; got != want {
		t.Fatalf("footer hints = %q\nwant %q", got, want)
	}
	key := func(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }
	for _, k := range []tea.KeyMsg{{Type: tea.KeyEsc}, key("L"), key("n"), key("N")} {
		if ui.Binds(m.Bindings(), m.Actions(), k) {
			t.Fatalf("the group screen binds %v", k)
		}
	}
	for _, k := range []string{"x", "c", "/", "v"} {
		if !ui.Binds(m.Bindings(), m.Actions(), key(k)) {
			t.Fatalf("%s is not the group screen's", k)
		}
	}
	// A kept filter binds Esc (it clears the filter first), n and N.
	for _, k := range []tea.KeyMsg{key("/"), key("7"), {Type: tea.KeyEnter}} {
		m.Update(k)
	}
	if m.Filter(Partitions) != "7" || m.Capturing() {
		t.Fatalf("filter %q, capturing %v", m.Filter(Partitions), m.Capturing())
	}
	for _, k := range []tea.KeyMsg{{Type: tea.KeyEsc}, key("n"), key("N")} {
		if !ui.Binds(m.Bindings(), m.Actions(), k) {
			t.Fatalf("with a filter kept the group screen does not bind %v", k)
		}
	}
	if got, want := titles(), "Move: ↑/k ↓/j pgup pgdn g G; Group: tab shift+tab c; Filter: / esc n N"; got != want {
		t.Fatalf("bindings with a filter = %q\nwant %q", got, want)
	}
	if got, want := footer(), "esc clear, n/N match, tab tabs, R reset, space select, e seek, v view, x exact, / filter, c chart"; got != want {
		t.Fatalf("footer hints with a filter = %q\nwant %q", got, want)
	}
	m.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if m.Filter(Partitions) != "" || ui.Binds(m.Bindings(), m.Actions(), tea.KeyMsg{Type: tea.KeyEsc}) {
		t.Fatalf("esc left the filter %q", m.Filter(Partitions))
	}
	m.Update(tea.KeyMsg{Type: tea.KeyTab})
	m.Update(tea.KeyMsg{Type: tea.KeyTab})
	m.Update(tea.KeyMsg{Type: tea.KeyTab})
	if m.Tab() != fixedTabs {
		t.Fatalf("three tabs landed on tab %d", m.Tab())
	}
	if got, want := titles(), "Group: tab shift+tab; Move: ↑/k ↓/j pgup pgdn g G"; got != want {
		t.Fatalf("bindings on the Timeline tab = %q\nwant %q", got, want)
	}
}
