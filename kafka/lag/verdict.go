package lag

import "strconv"

// Verdict is a group's verdict at the latest poll, as every screen, the
// status bar and `kgroups health` show it: GroupHealth with its maximum
// time lag made honest by Judge, and the evidence it rests on.
//
// A verdict is unknown, judging, or decided. Unknown: nothing can be
// judged (no known lag and no partition a member owns without a commit:
// a dead group, a failed offset fetch). Judging: the window does not hold
// enough observations yet (Observations < Window) and the rules found
// nothing wrong so far; it never reads OK. Decided: ERR and WARN as soon
// as the rules find them, whatever the window holds (STOP and REWIND are
// facts; STALL, WARN and NO-COMMITS already needed a full window of their
// partition), and OK only with a full window. So a group leaves JUDGING
// once, on evidence, and afterwards its verdict moves only when the
// rules' evidence moves, or goes back to JUDGING for a partition new to
// the history until that partition has its own window.
type Verdict struct {
	GroupHealth
	// Known reports that something can be judged: some partition has a
	// known lag, or a member owns a partition without a commit.
	Known bool
	// LagKnown reports that some partition has a known lag, so that
	// TotalLag is a measure: false for a group nothing was committed for,
	// whose TotalLag of 0 means unknown.
	LagKnown bool
	// Observations is the evidence the verdict rests on, at most Window:
	// the fewest of the group's own observations and those of every
	// partition that waits for a full window (a lagging one, or one owned
	// without a commit).
	Observations int
	// Window is the history's Config.Window, the observations a verdict
	// needs before it can be OK.
	Window int
}

// UnknownVerdict is the verdict of a group the history knows nothing about:
// unknown status, time lag and rates.
var UnknownVerdict = Verdict{GroupHealth: GroupHealth{ProduceRate: UnknownRate, ConsumeRate: UnknownRate}}

// NoVerdict is the text of a verdict that is unknown.
const NoVerdict = "-"

// JudgingText is the first word of a verdict that is still judging:
// "JUDGING 3/10".
const JudgingText = "JUDGING"

// Judge sums up gh's partitions into the group's verdict; window is the
// history's Config.Window. It is the one rule the UI and `kgroups health`
// both apply. Its maximum time lag is made honest about lagging partitions
// whose time lag is not known yet: the group is then at least as far
// behind as the known maximum (marked as a lower bound), and when the known
// maximum is a caught-up partition's 0s the group's time lag is unknown,
// not 0.
func Judge(gh GroupHealth, window int) Verdict {
	v := Verdict{GroupHealth: gh, Window: window, Observations: min(gh.Observations, window)}
	unknown := false
	for i := range gh.Partitions {
		p := &gh.Partitions[i]
		if p.Lag >= 0 {
			v.LagKnown = true
		}
		if p.Lag >= 0 || p.Uncommitted {
			v.Known = true
		}
		if p.Lag > 0 && !p.TimeLag.Known() {
			unknown = true
		}
		if p.waits(window) && p.Observations < v.Observations {
			v.Observations = p.Observations
		}
	}
	if unknown {
		switch t := &v.MaxTimeLag; t.Kind {
		case TimeLagUnknown, TimeLagCaughtUp:
			*t = TimeLag{}
		default:
			t.Kind = TimeLagAtLeast
		}
	}
	return v
}

// Judging reports a verdict that waits for more observations: known, no
// ERR or WARN found, and fewer than Window observations.
func (v *Verdict) Judging() bool {
	return v.Known && v.Severity == SeverityOK && (v.Observations < v.Window || v.Wait.Kind != WaitNone)
}

// Reason says why a judging verdict waits, in words for a CAUSE column:
// the partitions' Wait.Reason when they give one (a commit standing
// without members gains no observations, so its wait says more than the
// count), or how many observations of the window it has; "" for a verdict
// that does not wait.
func (v *Verdict) Reason() string {
	switch {
	case !v.Judging():
		return ""
	case v.Observations < v.Window && v.Wait.Kind == WaitNone:
		return "watched " + strconv.Itoa(v.Observations) + " of the " + strconv.Itoa(v.Window) + " observations a verdict needs"
	}
	return v.Wait.Reason()
}

// Decided is what a screen shows: ERR and WARN as soon as the rules find
// them, OK only once the window is full. ok is false while the verdict is
// unknown or judging.
func (v *Verdict) Decided() (s Severity, ok bool) {
	switch {
	case !v.Known:
		return SeverityOK, false
	case v.Severity > SeverityOK:
		return v.Severity, true
	case v.Judging():
		return SeverityOK, false
	}
	return SeverityOK, true
}

// Text is the verdict in words, the same on the groups screen, the group
// screen and in `kgroups health`: "OK"; "WARN", or "WARN NO-COMMITS" when
// the worst partition has no commit; "ERR " and the worst partition status
// ("ERR STALL"); "JUDGING n/m" while judging (n observations of the
// window m); NoVerdict while unknown.
func (v *Verdict) Text() string {
	sev, ok := v.Decided()
	switch {
	case ok && sev == SeverityErr:
		return "ERR " + v.Status.String()
	case ok && sev == SeverityWarn && v.Status != StatusWarn:
		return "WARN " + v.Status.String()
	case ok:
		return sev.String()
	case v.Judging() && v.Observations < v.Window && v.Wait.Kind == WaitNone:
		return JudgingText + " " + strconv.Itoa(v.Observations) + "/" + strconv.Itoa(v.Window)
	case v.Judging():
		return JudgingText
	}
	return NoVerdict
}

// TextWidth is the length of the longest Text a verdict can have when the
// window is window observations: every decided verdict and "JUDGING w/w".
// A column of verdicts reserves it so that no verdict moves the columns
// after it.
func TextWidth(window int) int {
	w := len(JudgingText + " " + strconv.Itoa(window) + "/" + strconv.Itoa(window))
	for s := StatusOK; s <= StatusStop; s++ {
		v := Verdict{GroupHealth: GroupHealth{Status: s, Severity: s.Severity(), Complete: true}, Known: true}
		w = max(w, len(v.Text()))
	}
	return w
}

// Text is a partition's status: OK, WARN, NO-COMMITS, STALL, STOP or
// REWIND; NoVerdict for a partition without a known lag that is not
// NO-COMMITS, or one that waits for its window (Config.Window) while
// nothing is wrong so far.
func (p *PartitionHealth) Text(window int) string {
	switch {
	case p.Status != StatusOK:
		return p.Status.String()
	case p.Lag < 0, p.waits(window):
		return NoVerdict
	}
	return p.Status.String()
}
