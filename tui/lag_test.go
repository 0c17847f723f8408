package tui

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/ui"
)

// TestStatusBarCountsHealth: the status bar counts the groups by verdict,
// each count in its colour, zero counts dim; NO-COMMITS counts as WARN;
// groups still judging are counted apart, dim, never as OK.
func TestStatusBarCountsHealth(t *testing.T) {
	h := newHarness(t, 120, 40, Options{}, trendSteps()...)
	h.warm()
	if got := lines(h.view())[0]; got != "kgroups · ctx prod · 1 OK 2 WARN 3 ERR · brokers kafka-1.internal:9092,kafka-2.internal:9092" {
		t.Fatalf("status line %q", got)
	}
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	s := ui.NewStyles(r, ui.DefaultTheme(), true)
	h.m.styles = s
	raw := lines(h.m.View())[0]
	for _, want := range []string{s.OK.Render("1 OK"), s.Warn.Render("2 WARN"), s.Error.Render("3 ERR")} {
		if !strings.Contains(raw, want) {
			t.Errorf("status line %q lacks %q", raw, want)
		}
	}
	if strings.Contains(raw, "judging") {
		t.Errorf("status line %q counts groups judging after a full window", raw)
	}
	// Before any verdict: all zero, all dim, and the six groups that can
	// be judged are judging.
	h = newHarness(t, 120, 40, Options{})
	h.poll()
	if got := lines(h.view())[0]; got != "kgroups · ctx prod · 0 OK 0 WARN 0 ERR 6 judging · brokers kafka-1.internal:9092,kafka-2.internal:9092" {
		t.Fatalf("status line after one poll %q", got)
	}
	h.m.styles = s
	raw = lines(h.m.View())[0]
	if !strings.Contains(raw, s.Dim.Render("0 OK")+" "+s.Dim.Render("0 WARN")+" "+s.Dim.Render("0 ERR")+s.Dim.Render(" 6 judging")) {
		t.Errorf("status line before verdicts %q", raw)
	}
}

// TestLagOptions: the health window comes from Options.Lag. After three
// polls 5s apart, with a window of three observations, orders-app is WARN
// NO-COMMITS (refunds/0 owned without a commit for three observations),
// three groups are OK and two are still judging (legacy-audit: one
// observation, not yet stopped); with the default window of ten nothing
// is decided yet.
func TestLagOptions(t *testing.T) {
	for _, tt := range []struct {
		cfg    lag.Config
		counts string
	}{
		{lag.Config{Window: 3}, "3 OK 1 WARN 0 ERR 2 judging"},
		{lag.Config{}, "0 OK 0 WARN 0 ERR 6 judging"},
	} {
		h := newHarness(t, 120, 40, Options{Lag: tt.cfg})
		for range 3 {
			h.poll()
			h.clock.Advance(5 * time.Second)
		}
		if got := lines(h.view())[0]; got != "kgroups · ctx prod · "+tt.counts+" · brokers kafka-1.internal:9092,kafka-2.internal:9092" {
			t.Fatalf("window %d: status line %q", tt.cfg.Window, got)
		}
	}
}
