package ui

import (
	"math"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/kgroups/kgroups/kafka/lag"
)

func TestTimeLagText(t *testing.T) {
	tests := []struct {
		tl          lag.TimeLag
		utf8, ascii string
	}{
		{lag.TimeLag{}, "-", "-"},
		{lag.TimeLag{Kind: lag.TimeLagCaughtUp}, "0s", "0s"},
		{lag.TimeLag{Seconds: 12.9, Kind: lag.TimeLagInterpolated}, "12s", "12s"},
		{lag.TimeLag{Seconds: 184, Kind: lag.TimeLagExtrapolated}, "~3m04s", "~3m04s"},
		{lag.TimeLag{Seconds: 7500, Kind: lag.TimeLagAtLeast}, "≥2h05m", ">=2h05m"},
		{lag.TimeLag{Seconds: 0.4, Kind: lag.TimeLagExact}, "=0s", "=0s"},
		{lag.TimeLag{Seconds: 3*86400 + 4*3600 + 59, Kind: lag.TimeLagInterpolated}, "3d04h", "3d04h"},
		{lag.TimeLag{Seconds: math.Inf(1), Kind: lag.TimeLagInterpolated}, "106751d23h", "106751d23h"},
		{lag.TimeLag{Seconds: -3, Kind: lag.TimeLagExact}, "=0s", "=0s"},
	}
	for _, tt := range tests {
		if got := TimeLag(tt.tl, UnicodeGlyphs); got != tt.utf8 {
			t.Errorf("TimeLag(%+v) = %q, want %q", tt.tl, got, tt.utf8)
		}
		if got := TimeLag(tt.tl, ASCIIGlyphs); got != tt.ascii {
			t.Errorf("ASCII TimeLag(%+v) = %q, want %q", tt.tl, got, tt.ascii)
		}
	}
	if got := Span(25 * time.Hour); got != "1d01h" {
		t.Errorf("Span(25h) = %q", got)
	}
}

func TestRateText(t *testing.T) {
	tests := []struct {
		r    float64
		want string
	}{
		{lag.UnknownRate, "-"}, {math.NaN(), "-"}, {0, "0.0"}, {0.25, "0.2"}, {5, "5.0"}, {9.94, "9.9"},
		{9.96, "10"}, {312.4, "312"}, {999.4, "999"}, {999.6, "1.0k"}, {1234, "1.2k"}, {56_789, "57k"},
		{999_400, "999k"}, {2_500_000, "2.5M"}, {3e9, "3.0G"}, {4e12, "4T"},
	}
	for _, tt := range tests {
		if got := Rate(tt.r); got != tt.want {
			t.Errorf("Rate(%v) = %q, want %q", tt.r, got, tt.want)
		}
	}
}

func TestCatchUpText(t *testing.T) {
	tests := []struct {
		c    lag.CatchUp
		want string
	}{
		{lag.CatchUp{}, ""},
		{lag.CatchUp{State: lag.CaughtUp}, "caught up"},
		{lag.CatchUp{State: lag.CatchingUp, Seconds: 245}, "catching up in 4m05s"},
		{lag.CatchUp{State: lag.FallingBehind, Behind: 12}, "falling behind 12 msg/s"},
		{lag.CatchUp{State: lag.FallingBehind}, "not catching up"},
		{lag.CatchUp{State: lag.FallingBehind, Behind: 0.04}, "not catching up"},
		{lag.CatchUp{State: lag.FallingBehind, Behind: 0.05}, "falling behind 0.1 msg/s"},
	}
	for _, tt := range tests {
		if got := CatchUp(tt.c); got != tt.want {
			t.Errorf("CatchUp(%+v) = %q, want %q", tt.c, got, tt.want)
		}
	}
}

// TestHealthStyles: a verdict's colour goes with its text (lag.Verdict.Text
// and lag.PartitionHealth.Text): none while unknown or pending.
func TestHealthStyles(t *testing.T) {
	g := func(st lag.Status, known, complete bool) *lag.Verdict {
		return &lag.Verdict{GroupHealth: lag.GroupHealth{Status: st, Severity: st.Severity(), Complete: complete}, Known: known}
	}
	tests := []struct {
		v    *lag.Verdict
		want string
	}{
		{g(lag.StatusOK, false, true), "-"},
		{g(lag.StatusOK, true, false), "-"}, // pending
		{g(lag.StatusOK, true, true), "OK"},
		{g(lag.StatusWarn, true, true), "WARN"},
		{g(lag.StatusStall, true, true), "ERR STALL"},
		{g(lag.StatusStop, true, false), "ERR STOP"}, // a fact: no full window needed
		{g(lag.StatusRewind, true, false), "ERR REWIND"},
	}
	s := NewStyles(nil, DefaultTheme(), true)
	for _, tt := range tests {
		if got := tt.v.Text(); got != tt.want {
			t.Errorf("Text(%+v) = %q, want %q", tt.v, got, tt.want)
		}
		if st := s.Health(tt.v); (st == nil) != (tt.want == "-") {
			t.Errorf("%q: style %v", tt.want, st)
		}
	}
	if s.Health(g(lag.StatusOK, true, true)) != &s.OK || s.Health(g(lag.StatusWarn, true, true)) != &s.Warn || s.Health(g(lag.StatusStop, true, true)) != &s.Error {
		t.Error("verdict colours: want OK green, WARN amber, ERR red")
	}

	p := func(st lag.Status, l int64, obs int) *lag.PartitionHealth {
		return &lag.PartitionHealth{Status: st, Lag: l, Observations: obs}
	}
	ptests := []struct {
		p     *lag.PartitionHealth
		style *lipgloss.Style
	}{
		{p(lag.StatusOK, -1, 0), nil},
		{p(lag.StatusOK, 0, 1), &s.OK},  // caught up: nothing to judge
		{p(lag.StatusOK, 5, 9), nil},    // lagging, window not full
		{p(lag.StatusOK, 5, 10), &s.OK}, // lagging, judged
		{p(lag.StatusWarn, 5, 10), &s.Warn},
		{p(lag.StatusStop, 5, 1), &s.Error},
		{p(lag.StatusRewind, 5, 3), &s.Error},
	}
	for _, tt := range ptests {
		if got := s.PartitionHealth(tt.p, 10); got != tt.style {
			t.Errorf("PartitionHealth(%+v) = %p, want %p", tt.p, got, tt.style)
		}
	}
}

func TestLagKeysFollowScreen(t *testing.T) {
	k := DefaultKeyMap()
	press := func(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }
	if !key.Matches(press("H"), k.SortHealth) || !key.Matches(press("T"), k.SortTimeLag) || key.Matches(press("x"), k.Exact) || key.Matches(press("c"), k.ChartScope) {
		t.Fatal("groups screen: H and T sort, x and c do nothing")
	}
	k.SetScreen(ScreenGroup)
	if key.Matches(press("H"), k.SortHealth) || key.Matches(press("T"), k.SortTimeLag) || !key.Matches(press("x"), k.Exact) || !key.Matches(press("c"), k.ChartScope) {
		t.Fatal("group screen: x and c act, H and T do not")
	}
	var legend []string
	for _, b := range LagLegend(ASCIIGlyphs).Bindings {
		legend = append(legend, b.Help().Key)
	}
	if got := legend[2]; got != ">=12s" {
		t.Fatalf("ASCII legend for a lower bound = %q", got)
	}
}
