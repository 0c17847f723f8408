package lag

import "testing"

func TestVerdictText(t *testing.T) {
	g := func(st Status, known, complete bool) *Verdict {
		return &Verdict{GroupHealth: GroupHealth{Status: st, Severity: st.Severity(), Complete: complete}, Known: known}
	}
	tests := []struct {
		v    *Verdict
		want string
		sev  Severity
		ok   bool
	}{
		{g(StatusOK, false, true), "-", SeverityOK, false},
		{g(StatusOK, true, false), "-", SeverityOK, false}, // pending
		{g(StatusOK, true, true), "OK", SeverityOK, true},
		{g(StatusWarn, true, true), "WARN", SeverityWarn, true},
		{g(StatusStall, true, true), "ERR STALL", SeverityErr, true},
		{g(StatusStop, true, false), "ERR STOP", SeverityErr, true}, // a fact: no full window needed
		{g(StatusRewind, true, false), "ERR REWIND", SeverityErr, true},
		{&UnknownVerdict, "-", SeverityOK, false},
	}
	for _, tt := range tests {
		if got := tt.v.Text(); got != tt.want {
			t.Errorf("Text(%+v) = %q, want %q", tt.v, got, tt.want)
		}
		if sev, ok := tt.v.Decided(); sev != tt.sev || ok != tt.ok {
			t.Errorf("Decided(%+v) = %v %v, want %v %v", tt.v, sev, ok, tt.sev, tt.ok)
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
		name    string
		max     TimeLag
		parts   []PartitionHealth
		want    TimeLag
		known   bool
		pending int
	}{
		{"every lagging time lag known: the maximum stands", interp(30),
			[]PartitionHealth{part(500, interp(30), 10), part(0, caught, 10)}, interp(30), true, 0},
		{"a lagging partition without a time lag, the rest caught up: unknown, not 0s", caught,
			[]PartitionHealth{part(0, caught, 10), part(500, TimeLag{}, 1)}, TimeLag{}, true, 1},
		{"a lagging partition without a time lag: the known maximum is a lower bound", interp(30),
			[]PartitionHealth{part(40, interp(30), 10), part(500, TimeLag{}, 3), part(7, interp(12), 4)},
			TimeLag{Seconds: 30, Kind: TimeLagAtLeast}, true, 3},
		{"nothing known", TimeLag{},
			[]PartitionHealth{part(-1, TimeLag{}, 0)}, TimeLag{}, false, 0},
		{"no lag anywhere: caught up", caught,
			[]PartitionHealth{part(0, caught, 2)}, caught, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Judge(GroupHealth{Group: "g", MaxTimeLag: tt.max, Partitions: tt.parts}, 10)
			if v.MaxTimeLag != tt.want || v.Known != tt.known || v.Pending != tt.pending {
				t.Errorf("max time lag %+v known %v pending %d, want %+v %v %d", v.MaxTimeLag, v.Known, v.Pending, tt.want, tt.known, tt.pending)
			}
			if len(v.Partitions) != len(tt.parts) || v.Group != "g" {
				t.Errorf("the verdict lost its group: %+v", v)
			}
		})
	}
}
