package lag

import (
	"strings"
	"testing"
)

func TestVerdictText(t *testing.T) {
	// g is a verdict with obs observations of a window of 10.
	g := func(st Status, known bool, obs int) *Verdict {
		return &Verdict{GroupHealth: GroupHealth{Status: st, Severity: st.Severity()}, Known: known, Observations: obs, Window: 10}
	}
	tests := []struct {
		v    *Verdict
		want string
		sev  Severity
		ok   bool
	}{
		{g(StatusOK, false, 10), "-", SeverityOK, false},
		{g(StatusOK, true, 0), "JUDGING 0/10", SeverityOK, false},
		{g(StatusOK, true, 3), "JUDGING 3/10", SeverityOK, false},
		{g(StatusOK, true, 9), "JUDGING 9/10", SeverityOK, false},
		{g(StatusOK, true, 10), "OK", SeverityOK, true},
		{g(StatusWarn, true, 10), "WARN", SeverityWarn, true},
		{g(StatusNoCommits, true, 10), "WARN NO-COMMITS", SeverityWarn, true},
		{g(StatusStall, true, 10), "ERR STALL", SeverityErr, true},
		{g(StatusStop, true, 1), "ERR STOP", SeverityErr, true}, // a fact: no full window needed
		{g(StatusRewind, true, 2), "ERR REWIND", SeverityErr, true},
		{g(StatusWarn, true, 4), "WARN", SeverityWarn, true}, // found early: shown, not JUDGING
		{&UnknownVerdict, "-", SeverityOK, false},
	}
	for _, tt := range tests {
		if got := tt.v.Text(); got != tt.want {
			t.Errorf("Text(%+v) = %q, want %q", tt.v, got, tt.want)
		}
		if sev, ok := tt.v.Decided(); sev != tt.sev || ok != tt.ok {
			t.Errorf("Decided(%+v) = %v %v, want %v %v", tt.v, sev, ok, tt.sev, tt.ok)
		}
		if j := tt.v.Judging(); j != strings.HasPrefix(tt.want, "JUDGING") {
			t.Errorf("Judging(%+v) = %v for %q", tt.v, j, tt.want)
		}
	}
}

func TestPartitionText(t *testing.T) {
	p := func(st Status, l int64, obs int) *PartitionHealth {
		return &PartitionHealth{Status: st, Lag: l, Observations: obs}
	}
	tests := []struct {
		p    *PartitionHealth
		want string
	}{
		{p(StatusOK, -1, 0), "-"},
		{p(StatusOK, 0, 1), "OK"},  // caught up: nothing to judge
		{p(StatusOK, 5, 9), "-"},   // lagging, window not full
		{p(StatusOK, 5, 10), "OK"}, // lagging, judged
		{p(StatusWarn, 5, 10), "WARN"},
		{p(StatusStop, 5, 1), "STOP"},
		{p(StatusRewind, 5, 3), "REWIND"},
		{p(StatusNoCommits, -1, 10), "NO-COMMITS"},
		{&PartitionHealth{Lag: -1, Committed: -1, Owned: true, Uncommitted: true, Observations: 4}, "-"}, // owned, no commit yet: judging
	}
	for _, tt := range tests {
		if got := tt.p.Text(10); got != tt.want {
			t.Errorf("Text(%+v) = %q, want %q", tt.p, got, tt.want)
		}
	}
}

func TestJudge(t *testing.T) {
	caught := TimeLag{Kind: TimeLagCaughtUp}
	interp := func(s float64) TimeLag { return TimeLag{Seconds: s, Kind: TimeLagInterpolated} }
	part := func(l int64, tl TimeLag, obs int) PartitionHealth {
		return PartitionHealth{Topic: "t", Lag: l, TimeLag: tl, Observations: obs}
	}
	tests := []struct {
		name  string
		max   TimeLag
		parts []PartitionHealth
		want  TimeLag
		known bool
		obs   int // the verdict's observations, of a full group window
	}{
		{"every lagging time lag known: the maximum stands", interp(30),
			[]PartitionHealth{part(500, interp(30), 10), part(0, caught, 10)}, interp(30), true, 10},
		{"a lagging partition without a time lag, the rest caught up: unknown, not 0s", caught,
			[]PartitionHealth{part(0, caught, 10), part(500, TimeLag{}, 1)}, TimeLag{}, true, 1},
		{"a lagging partition without a time lag: the known maximum is a lower bound", interp(30),
			[]PartitionHealth{part(40, interp(30), 10), part(500, TimeLag{}, 3), part(7, interp(12), 4)},
			TimeLag{Seconds: 30, Kind: TimeLagAtLeast}, true, 3},
		{"nothing known", TimeLag{},
			[]PartitionHealth{part(-1, TimeLag{}, 0)}, TimeLag{}, false, 10},
		{"no lag anywhere: caught up", caught,
			[]PartitionHealth{part(0, caught, 2)}, caught, true, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Judge(GroupHealth{Group: "g", MaxTimeLag: tt.max, Observations: 10, Partitions: tt.parts}, 10)
			if v.MaxTimeLag != tt.want || v.Known != tt.known || v.Observations != tt.obs || v.Window != 10 {
				t.Errorf("max time lag %+v known %v observations %d/%d, want %+v %v %d/10", v.MaxTimeLag, v.Known, v.Observations, v.Window, tt.want, tt.known, tt.obs)
			}
			if len(v.Partitions) != len(tt.parts) || v.Group != "g" {
				t.Errorf("the verdict lost its group: %+v", v)
			}
		})
	}
}

// TestTextWidth: the widest verdict with the default window is "WARN
// NO-COMMITS"; a window of 100 makes "JUDGING 100/100" as wide.
func TestTextWidth(t *testing.T) {
	if got := TextWidth(10); got != len("WARN NO-COMMITS") {
		t.Errorf("TextWidth(10) = %d, want %d", got, len("WARN NO-COMMITS"))
	}
	if got := TextWidth(1000); got != len("JUDGING 1000/1000") {
		t.Errorf("TextWidth(1000) = %d, want %d", got, len("JUDGING 1000/1000"))
	}
}
