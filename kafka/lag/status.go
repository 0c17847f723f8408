package lag

import (
	"fmt"
	"strings"
)

// Status is a partition's health verdict, with Burrow's names and rules of
// its own where Burrow's fail (see verdict and fallingBehind). The values
// are ordered by how bad they are, so a group's status is its partitions'
// maximum: OK < WARN < NO-COMMITS < STALL < REWIND < STOP (the rules are
// checked in the reverse of that order, worst first).
type Status uint8

const (
	// StatusOK means no lag now, lag was zero at some point in the window, or
	// nothing below applies.
	StatusOK Status = iota
	// StatusWarn means the consumer is falling behind (fallingBehind): over
	// a full window and its polls that saw a new commit, it consumed less
	// than was produced beyond noise, its lag grew past what is in flight
	// (KeepUpMessages, KeepUpSeconds) and its time lag grew.
	StatusWarn
	// StatusNoCommits means a live member has owned the partition for a full
	// window and nothing was ever committed for it: its lag cannot be
	// measured, and a restart would start from auto.offset.reset, not
	// from where it got to.
	StatusNoCommits
	// StatusStall means the committed offset did not move across a full window
	// while a member owned the partition and lag was above zero, and its
	// silence outlasted the consumer's own rhythm (RhythmFactor
	// times the longest gap between its earlier commits).
	StatusStall
	// StatusRewind means the committed offset went backwards within the window
	// and has not come back: the consumer re-reads messages it already
	// processed (an out-of-order async commit retry looks exactly so).
	StatusRewind
	// StatusStop means nothing was committed for longer than the window spans
	// and the consumer never caught up in it: the consumer is gone.
	StatusStop
)

var statusNames = [...]string{"OK", "WARN", "NO-COMMITS", "STALL", "REWIND", "STOP"}

// String returns the name Burrow uses (OK, WARN, STALL, REWIND, STOP), or
// NO-COMMITS.
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// MarshalText writes the status by name, so JSON output reads "STALL"
// rather than 2.
func (s Status) MarshalText() ([]byte, error) {
	if int(s) >= len(statusNames) {
		return nil, fmt.Errorf("invalid lag status %d", uint8(s))
	}
	return []byte(statusNames[s]), nil
}

// UnmarshalText reads a status by name, in any case, for round-tripping
// JSON output and for flags.
func (s *Status) UnmarshalText(b []byte) error {
	for i, n := range statusNames {
		if strings.EqualFold(string(b), n) {
			*s = Status(i)
			return nil
		}
	}
	return fmt.Errorf("unknown lag status %q (want OK, WARN, NO-COMMITS, STALL, REWIND or STOP)", b)
}

// Severity folds statuses into the three levels alerting cares about:
// STALL, REWIND and STOP all mean a consumer needs a human (ERR); WARN and
// NO-COMMITS are WARN.
func (s Status) Severity() Severity {
	switch s {
	case StatusOK:
		return SeverityOK
	case StatusWarn, StatusNoCommits:
		return SeverityWarn
	default:
		return SeverityErr
	}
}

// Severity is an alert level, ordered OK < WARN < ERR so that
// `--fail-on WARN` can compare with >=: a group's verdict
// (Status.Severity) and a diagnosis finding (kafka/diagnose) both use it.
type Severity uint8

// The severities, from the mildest.
const (
	SeverityOK Severity = iota
	SeverityWarn
	SeverityErr
)

var severityNames = [...]string{"OK", "WARN", "ERR"}

// String returns OK, WARN or ERR.
func (s Severity) String() string {
	if int(s) < len(severityNames) {
		return severityNames[s]
	}
	return fmt.Sprintf("Severity(%d)", uint8(s))
}

// MarshalText writes the severity by name for JSON output.
func (s Severity) MarshalText() ([]byte, error) {
	if int(s) >= len(severityNames) {
		return nil, fmt.Errorf("invalid severity %d", uint8(s))
	}
	return []byte(severityNames[s]), nil
}

// UnmarshalText parses OK, WARN or ERR in any case, as `--fail-on` takes
// them.
func (s *Severity) UnmarshalText(b []byte) error {
	for i, n := range severityNames {
		if strings.EqualFold(string(b), n) {
			*s = Severity(i)
			return nil
		}
	}
	return fmt.Errorf("unknown severity %q (want OK, WARN or ERR)", b)
}
