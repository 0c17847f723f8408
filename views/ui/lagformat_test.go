package ui

import (
	"testing"

	"github.com/kgroups/kgroups/kafka/lag"
)

func TestHealthTexts(t *testing.T) {
	g := func(st lag.Status, known, complete bool) *Health {
		return &Health{GroupHealth: lag.GroupHealth{Status: st, Severity: st.Severity(), Complete: complete}, Known: known}
	}
	tests := []struct {
		h    *Health
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
		if got := HealthText(tt.h); got != tt.want {
			t.Errorf("HealthText(%+v) = %q, want %q", tt.h, got, tt.want)
		}
		if st := s.Health(tt.h); (st == nil) != (tt.want == "-") {
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
		p    *lag.PartitionHealth
		want string
	}{
		{p(lag.StatusOK, -1, 0), "-"},
		{p(lag.StatusOK, 0, 1), "OK"},  // caught up: nothing to judge
		{p(lag.StatusOK, 5, 9), "-"},   // lagging, window not full
		{p(lag.StatusOK, 5, 10), "OK"}, // lagging, judged
		{p(lag.StatusWarn, 5, 10), "WARN"},
		{p(lag.StatusStop, 5, 1), "STOP"},
		{p(lag.StatusRewind, 5, 3), "REWIND"},
	}
	for _, tt := range ptests {
		if got := PartitionHealthText(tt.p, 10); got != tt.want {
			t.Errorf("PartitionHealthText(%+v) = %q, want %q", tt.p, got, tt.want)
		}
	}
}
