package lag

// Verdict is a group's verdict at the latest poll, as the groups list, the
// status bar and `kgroups health` show it: GroupHealth with its maximum
// time lag made honest by Judge, and what is needed to tell a verdict from
// a guess.
type Verdict struct {
	GroupHealth
	// Known reports that some partition has a known lag. Without one (no
	// commit anywhere, a dead group, a failed offset fetch) there is
	// nothing to judge and the verdict is shown as unknown, never OK.
	Known bool
	// Pending is the fewest commit observations of a lagging partition
	// while that is below the window: STALL and WARN cannot have been
	// detected yet. 0 when every lagging partition has a full window.
	Pending int
}

// UnknownVerdict is the verdict of a group the history knows nothing about:
// unknown status, time lag and rates.
var UnknownVerdict = Verdict{GroupHealth: GroupHealth{ProduceRate: UnknownRate, ConsumeRate: UnknownRate}}

// NoVerdict is the text of a verdict that is unknown or still pending.
const NoVerdict = "-"

// Judge sums up gh's partitions into the group's verdict; window is the
// history's Config.Window. It is the one rule the UI and `kgroups health`
// both apply. Its maximum time lag is made honest about lagging partitions
// whose time lag is not known yet: the group is then at least as far
// behind as the known maximum (marked as a lower bound), and when the known
// maximum is a caught-up partition's 0s the group's time lag is unknown,
// not 0.
func Judge(gh GroupHealth, window int) Verdict {
	v := Verdict{GroupHealth: gh}
	unknown := false
	for i := range gh.Partitions {
		p := &gh.Partitions[i]
		if p.Lag >= 0 {
			v.Known = true
		}
		if p.Lag > 0 && !p.TimeLag.Known() {
			unknown = true
		}
		if p.Lag > 0 && p.Observations < window && (v.Pending == 0 || p.Observations < v.Pending) {
			v.Pending = p.Observations
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

// Decided is what a screen shows: ERR and WARN as soon as the rules find
// them, OK only once every lagging partition has a full window. ok is false
// while the verdict is unknown or still pending.
func (v *Verdict) Decided() (s Severity, ok bool) {
	switch {
	case !v.Known:
		return SeverityOK, false
	case v.Severity > SeverityOK:
		return v.Severity, true
	case !v.Complete:
		return SeverityOK, false
	}
	return SeverityOK, true
}

// Text is the verdict in words, the same in the UI and in `kgroups
// health`: "OK", "WARN", "ERR " and the worst partition status ("ERR
// STALL"), or NoVerdict while unknown or pending.
func (v *Verdict) Text() string {
	sev, ok := v.Decided()
	switch {
	case !ok:
		return NoVerdict
	case sev == SeverityErr:
		return "ERR " + v.Status.String()
	}
	return sev.String()
}

// Text is a partition's status: OK, WARN, STALL, STOP or REWIND; NoVerdict
// for a partition without a known lag, or one that lags while its window
// (Config.Window) is not yet full and nothing is wrong so far.
func (p *PartitionHealth) Text(window int) string {
	switch {
	case p.Lag < 0:
		return NoVerdict
	case p.Status == StatusOK && p.Lag > 0 && p.Observations < window:
		return NoVerdict
	}
	return p.Status.String()
}
