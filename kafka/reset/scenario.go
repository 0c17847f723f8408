package reset

import (
	"errors"
	"fmt"
	"strconv"
	"time"
)

// Kind names a reset scenario. The values are the flag names of
// kafka-consumer-groups.sh --reset-offsets (without dashes), so that receipts
// and messages read the way an operator typed them.
type Kind string

// The scenarios. Undo is kgroups' own: restore the offsets a receipt
// recorded as "before".
const (
	ToEarliest Kind = "to-earliest"
	ToLatest   Kind = "to-latest"
	ToCurrent  Kind = "to-current"
	ToOffset   Kind = "to-offset"
	ShiftBy    Kind = "shift-by"
	ToDatetime Kind = "to-datetime"
	ByDuration Kind = "by-duration"
	FromFile   Kind = "from-file"
	Undo       Kind = "undo"
	// DeleteOffsets removes the group's commits for the partitions in
	// scope rather than moving them.
	DeleteOffsets Kind = "delete-offsets"
)

// Kinds lists the reset scenarios a user can choose, in the order help shows
// them.
var Kinds = []Kind{ToEarliest, ToLatest, ToCurrent, ToOffset, ShiftBy, ToDatetime, ByDuration, FromFile}

// Scenario is what to reset to. Only the field of its Kind is used.
type Scenario struct {
	Kind Kind
	// Offset is the target of ToOffset.
	Offset int64
	// Shift is ShiftBy's signed distance from the committed offset.
	Shift int64
	// Time is ToDatetime's instant.
	Time time.Time
	// Duration is how far back from now ByDuration goes.
	Duration time.Duration
	// Source is the file FromFile read, or the receipt Undo restores; it
	// is recorded for the receipt and shown, never re-read.
	Source string
	// Rows are the offsets FromFile and Undo set. Undo rows may carry
	// NoOffset: the partition had no commit before, so undo removes it.
	Rows []FileRow
}

// NeedsScope reports whether the scenario needs --all-topics or --topic:
// from-file and undo name their partitions themselves.
func (s Scenario) NeedsScope() bool { return s.Kind != FromFile && s.Kind != Undo }

// ByTime reports whether the scenario looks offsets up by timestamp.
func (s Scenario) ByTime() bool { return s.Kind == ToDatetime || s.Kind == ByDuration }

// Validate checks that the scenario is complete and sensible on its own,
// before anything is read from the cluster.
func (s Scenario) Validate() error {
	switch s.Kind {
	case ToEarliest, ToLatest, ToCurrent, ShiftBy, DeleteOffsets:
	case ToOffset:
		if s.Offset < 0 {
			return fmt.Errorf("--to-offset %d: an offset cannot be negative", s.Offset)
		}
	case ToDatetime:
		if s.Time.IsZero() {
			return errors.New("--to-datetime needs a date and time")
		}
	case ByDuration:
		if s.Duration < 0 {
			return fmt.Errorf("--by-duration %s: a duration counts back from now, so it cannot be negative", s.Duration)
		}
	case FromFile, Undo:
		if len(s.Rows) == 0 {
			return fmt.Errorf("%s %s: no offsets to set", s.Kind, s.Source)
		}
	case "":
		return errors.New("no scenario given")
	default:
		return fmt.Errorf("unknown scenario %q", s.Kind)
	}
	return nil
}

// String renders the scenario as the flag that asks for it, for receipts,
// previews and messages.
func (s Scenario) String() string {
	switch s.Kind {
	case ToOffset:
		return "--to-offset " + strconv.FormatInt(s.Offset, 10)
	case ShiftBy:
		return "--shift-by " + strconv.FormatInt(s.Shift, 10)
	case ToDatetime:
		return "--to-datetime " + FormatTime(s.Time)
	case ByDuration:
		return "--by-duration " + s.Duration.String()
	case FromFile:
		return "--from-file " + s.Source
	case Undo:
		return "undo " + s.Source
	case "":
		return "(none)"
	}
	return "--" + string(s.Kind)
}

// FormatTime renders an instant the way kgroups prints and records times:
// Kafka's datetime format in UTC, which ParseDatetime reads back exactly.
func FormatTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z07:00")
}
