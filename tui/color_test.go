package tui

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/kgroups/kgroups/kafka"
)

// TestNoColor renders through a 256-colour terminal: with NO_COLOR the
// screen carries no colour at all but keeps the reverse-video selection.
func TestNoColor(t *testing.T) {
	for _, color := range []bool{true, false} {
		r := lipgloss.NewRenderer(io.Discard)
		r.SetColorProfile(termenv.ANSI256)
		c := newClock()
		p := &seqPoller{clock: c, steps: []func(time.Time) (*kafka.Snapshot, error){fixture}}
		m := newModel(context.Background(), Options{Poller: p, Now: c.Now, Getenv: func(string) string { return "" }}.withDefaults(), r, color)
		m.after = func(time.Duration, tea.Msg) tea.Cmd { return nil }
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
		_, cmd := m.Update(m.startPoll()())
		settle(m, cmd) // the judging job
		v := m.View()
		hasColor := strings.Contains(v, "38;5;") || strings.Contains(v, "48;5;")
		if hasColor != color {
			t.Fatalf("color=%v: screen has colour codes: %v", color, hasColor)
		}
		if !strings.Contains(v, "\x1b[7m"+m.base.Glyphs.Cursor+" analytics-etl") {
			t.Fatalf("color=%v: the selection is not in reverse video", color)
		}
	}
}

func TestNoColorFromEnvironment(t *testing.T) {
	m := New(Options{Poller: &seqPoller{}, Getenv: func(k string) string {
		if k == "NO_COLOR" {
			return "1"
		}
		return ""
	}})
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	if got := m.styles.StateStable.Renderer(r).Render("Stable"); strings.Contains(got, "38;5;") {
		t.Fatalf("NO_COLOR: Stable renders as %q", got)
	}
}
