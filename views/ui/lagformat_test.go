package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"

	"github.com/kgroups/kgroups/kafka/lag"
)

func TestHealthStyles(t *testing.T) {
	// g is a verdict with a full window of 10 observations, or 3 of 10.
	g := func(st lag.Status, known, full bool) *lag.Verdict {
		obs := 10
		if !full {
			obs = 3
		}
		return &lag.Verdict{GroupHealth: lag.GroupHealth{Status: st, Severity: st.Severity()}, Known: known, Observations: obs, Window: 10}
	}
	tests := []struct {
		v    *lag.Verdict
		want string
	}{
		{g(lag.StatusOK, false, true), "-"},
		{g(lag.StatusOK, true, false), "JUDGING 3/10"}, // plain, like unknown
		{g(lag.StatusOK, true, true), "OK"},
		{g(lag.StatusWarn, true, true), "WARN"},
		{g(lag.StatusNoCommits, true, true), "WARN NO-COMMITS"},
		{g(lag.StatusStall, true, true), "ERR STALL"},
		{g(lag.StatusStop, true, false), "ERR STOP"}, // a fact: no full window needed
		{g(lag.StatusRewind, true, false), "ERR REWIND"},
	}
	s := NewStyles(nil, DefaultTheme(), true)
	for _, tt := range tests {
		if got := tt.v.Text(); got != tt.want {
			t.Errorf("Text(%+v) = %q, want %q", tt.v, got, tt.want)
		}
		if st := s.Health(tt.v); (st == nil) != (tt.want == "-" || strings.HasPrefix(tt.want, "JUDGING")) {
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
		{p(lag.StatusNoCommits, -1, 10), &s.Warn},
		{p(lag.StatusStop, 5, 1), &s.Error},
		{p(lag.StatusRewind, 5, 3), &s.Error},
	}
	for _, tt := range ptests {
		if got := s.PartitionHealth(tt.p, 10); got != tt.style {
			t.Errorf("PartitionHealth(%+v) = %p, want %p", tt.p, got, tt.style)
		}
	}
}
