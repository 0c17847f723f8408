package lag

import (
	"encoding/json"
	"testing"
	"time"
)

func TestStatusText(t *testing.T) {
	for s, want := range map[Status]string{
		StatusOK: "OK", StatusWarn: "WARN", StatusStall: "STALL", StatusRewind: "REWIND", StatusStop: "STOP",
	} {
		b, err := s.MarshalText()
		if err != nil || string(b) != want || s.String() != want {
			t.Errorf("status %d = %q/%q/%v, want %q", s, s.String(), b, err, want)
		}
		var back Status
		if err := back.UnmarshalText([]byte(want)); err != nil || back != s {
			t.Errorf("unmarshal %q = %v/%v, want %v", want, back, err, s)
		}
	}
	if Status(9).String() != "Status(9)" {
		t.Errorf("invalid status = %q", Status(9).String())
	}
	if _, err := Status(9).MarshalText(); err == nil {
		t.Error("invalid status marshalled")
	}
	var s Status
	if err := s.UnmarshalText([]byte("stall")); err != nil || s != StatusStall {
		t.Errorf("lower-case stall = %v/%v", s, err)
	}
	if err := s.UnmarshalText([]byte("ERR")); err == nil {
		t.Error("ERR accepted as a partition status")
	}
}

func TestSeverity(t *testing.T) {
	for s, want := range map[Status]Severity{
		StatusOK: SeverityOK, StatusWarn: SeverityWarn,
		StatusStall: SeverityErr, StatusRewind: SeverityErr, StatusStop: SeverityErr,
	} {
		if s.Severity() != want {
			t.Errorf("%v severity = %v, want %v", s, s.Severity(), want)
		}
	}
	if !(SeverityOK < SeverityWarn && SeverityWarn < SeverityErr) {
		t.Error("severities not ordered OK < WARN < ERR")
	}
	if !(StatusOK < StatusWarn && StatusWarn < StatusStall && StatusStall < StatusRewind && StatusRewind < StatusStop) {
		t.Error("statuses not ordered by badness")
	}
	var v Severity
	if err := v.UnmarshalText([]byte("warn")); err != nil || v != SeverityWarn {
		t.Errorf("warn = %v/%v", v, err)
	}
	if err := v.UnmarshalText([]byte("STALL")); err == nil {
		t.Error("STALL accepted as a severity")
	}
	if Severity(7).String() != "Severity(7)" {
		t.Errorf("invalid severity = %q", Severity(7).String())
	}
	if _, err := Severity(7).MarshalText(); err == nil {
		t.Error("invalid severity marshalled")
	}
}

func TestGroupHealthJSON(t *testing.T) {
	g := GroupHealth{
		Group: "g", Status: StatusRewind, Severity: SeverityErr,
		MaxTimeLag: TimeLag{Seconds: 1.5, Kind: TimeLagInterpolated},
		CatchUp:    CatchUp{State: CatchingUp, Seconds: 3},
	}
	b, err := json.Marshal(struct {
		Status   Status
		Severity Severity
		Kind     TimeLagKind
		State    CatchUpState
	}{g.Status, g.Severity, g.MaxTimeLag.Kind, g.CatchUp.State})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"Status":"REWIND","Severity":"ERR","Kind":"interpolated","State":"catching-up"}`
	if string(b) != want {
		t.Errorf("json = %s, want %s", b, want)
	}
	for s, want := range map[CatchUpState]string{
		CatchUpUnknown: "unknown", CaughtUp: "caught-up", CatchingUp: "catching-up",
		FallingBehind: "falling-behind", CatchUpState(9): "unknown",
	} {
		if s.String() != want {
			t.Errorf("catch-up state %d = %q, want %q", s, s.String(), want)
		}
	}
}

// TestWaitReason words the waits as the screens and health show them.
func TestWaitReason(t *testing.T) {
	for _, c := range []struct {
		w    Wait
		want string
	}{
		{Wait{Kind: WaitRhythm, Silence: 55 * time.Second, Need: 5 * time.Minute, Then: StatusStall}, "no commit in 55s and no rhythm seen yet: STALL after 5m unless it commits"},
		{Wait{Kind: WaitRhythm, Silence: 70 * time.Second, Need: 5 * time.Minute, Then: StatusStop}, "no commit in 1m10s and no rhythm seen yet: STOP after 5m unless it commits"},
		{Wait{Kind: WaitRhythm, Silence: 95 * time.Second, Every: 20 * time.Second, Need: 5 * time.Minute, Then: StatusStall}, "no commit in 1m35s and one wait (~20s) seen, no rhythm yet: STALL after 5m unless it commits"},
		{Wait{Kind: WaitRhythm, Silence: 95 * time.Second, Every: 30 * time.Second, Need: time.Minute, Then: StatusStop}, "no commit in 1m35s, past its ~30s, and no member: STOP after 1m unless it commits"},
		{Wait{Kind: WaitTrend, Every: 45 * time.Second, Need: 90 * time.Second}, "commits every ~45s: a trend needs 1m30s of them"},
		{Wait{Kind: WaitTrend, Every: 10 * time.Minute, Need: 20 * time.Minute}, "commits every ~10m: a trend needs 20m of them"},
		{Wait{Kind: WaitTrend, Need: 45 * time.Second}, "too few commits for a trend: needs 45s"},
		{Wait{Kind: WaitTrend, Silence: 22 * time.Second, Every: 6 * time.Second, Need: 150 * time.Second}, "no commit in 22s, past twice its ~6s: waits for its next commit"},
		{Wait{Kind: WaitTrend, Silence: 12 * time.Second, Every: 6 * time.Second, Need: 150 * time.Second}, "commits every ~6s: a trend needs 2m30s of them"},
		{Wait{Kind: WaitTrend, Every: 2 * time.Hour, Need: 245 * time.Minute}, "commits every ~2h00m: a trend needs 4h05m of them"},
		{Wait{Kind: WaitGrew, Rise: 81 * time.Second, Over: 135 * time.Second}, "its time lag grew 1m21s in the last 2m15s: not OK while it grows"},
		{Wait{Kind: WaitGrew, RiseRecords: 1240, Over: 150 * time.Second}, "its lag grew 1240 records in the last 2m30s, its time lag older than the history: not OK while it grows"},
		{Wait{Kind: WaitGrew}, "its time lag grows by more than half a second a second: not OK while it does"},
		{Wait{}, ""},
	} {
		if got := c.w.Reason(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.w, got, c.want)
		}
	}
}
