package ui

import (
	"errors"

	"github.com/kgroups/kgroups/kafka/diagnose"
)

// ErrNoDiagnosisReads answers a DiagnosisRequestMsg on a connection that
// makes no diagnosis reads: the tab shows what the polls alone support.
var ErrNoDiagnosisReads = errors.New("this connection makes no diagnosis reads")

// ErrNotRecorded answers a DiagnosisRequestMsg in a replay: a recording
// keeps the polls, not the tab's extra reads.
var ErrNotRecorded = errors.New("a recording keeps the polls only")

// DiagnosisRequestMsg asks the root for the extra reads of the Diagnosis
// tab's rules (producers and transactions, retention.ms, records at
// commits), made with the same kafka/diagnose reading code as `kgroups
// diagnose`. The root reads in a Cmd and answers Owner, alone, with a
// DiagnosisMsg carrying the same ID.
type DiagnosisRequestMsg struct {
	ID    uint64
	Owner Component
	Group string
	Wants diagnose.Wants
}

// DiagnosisMsg answers a DiagnosisRequestMsg: Reads holds what could be
// read (never nil), Err what could not, or that this connection cannot
// make these reads.
type DiagnosisMsg struct {
	ID    uint64
	Group string
	Wants diagnose.Wants
	Reads *diagnose.Reads
	Err   error
}

// RequestID implements Reply.
func (m DiagnosisMsg) RequestID() uint64 { return m.ID }

// TabShownMsg tells a tab hosted by a screen (the group screen's extra
// tabs) that it has just been brought on show.
type TabShownMsg struct{}
