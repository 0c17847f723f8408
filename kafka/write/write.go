// Package write holds the one rule for reporting a write to Kafka: every
// result is verified (a re-read equals the target), refused by the broker
// (with its error), or of unknown outcome (the request was sent and no
// answer came, or the re-read failed). A verified value that a further
// re-read finds changed again was changed by another writer after ours.
//
// The re-read decides: a write whose re-read equals the target is verified
// even when the request's answer was an error (the answer was lost).
package write

import (
	"errors"

	"github.com/twmb/franz-go/pkg/kerr"
)

// Outcome is the verdict on one write (a partition's offset, a group's
// deletion, a member's removal).
type Outcome int

// The outcomes, in rising order of the attention they need. The zero value
// is Unknown, so that a result nobody verified is never taken for verified.
const (
	Unknown Outcome = iota
	Verified
	Refused
	// ChangedAfter: verified, then a second re-read found another value:
	// another writer changed it after ours. Like Unknown, a human must look.
	ChangedAfter
)

// String is the outcome's name in reports.
func (o Outcome) String() string {
	switch o {
	case Verified:
		return "verified"
	case Refused:
		return "refused"
	case ChangedAfter:
		return "changed by another writer after ours"
	}
	return "outcome unknown"
}

// rank orders outcomes by how much they need a human: unknown and changed
// after ours above refused above verified.
func (o Outcome) rank() int {
	switch o {
	case Verified:
		return 0
	case Refused:
		return 1
	}
	return 2
}

// Worst returns the outcome that needs the most attention, Verified for
// none. When refusals and unknown outcomes are mixed, it is the unknown
// one: a refusal changed nothing, an unknown outcome needs a human.
func Worst(os ...Outcome) Outcome {
	w := Verified
	for _, o := range os {
		if o.rank() > w.rank() || (o.rank() == w.rank() && o == Unknown) {
			w = o
		}
	}
	return w
}

// Tally counts outcomes.
type Tally struct {
	Verified, Refused, Unknown, ChangedAfter int
}

// Add counts one outcome.
func (t *Tally) Add(o Outcome) {
	switch o {
	case Verified:
		t.Verified++
	case Refused:
		t.Refused++
	case ChangedAfter:
		t.ChangedAfter++
	default:
		t.Unknown++
	}
}

// Total is the number of outcomes counted.
func (t Tally) Total() int { return t.Verified + t.Refused + t.Unknown + t.ChangedAfter }

// Worst is the worst outcome counted.
func (t Tally) Worst() Outcome {
	switch {
	case t.Unknown > 0:
		return Unknown
	case t.ChangedAfter > 0:
		return ChangedAfter
	case t.Refused > 0:
		return Refused
	}
	return Verified
}

// IsRefusal reports whether err is the broker's answer refusing the
// request: one marked with Refusal, or a Kafka error code other than one
// that says the broker itself does not know whether the write happened
// (REQUEST_TIMED_OUT).
func IsRefusal(err error) bool {
	if err == nil {
		return false
	}
	var r refusal
	if errors.As(err, &r) {
		return true
	}
	var ke *kerr.Error
	if !errors.As(err, &ke) {
		return false
	}
	return !errors.Is(err, kerr.RequestTimedOut)
}

// Refusal marks err as the broker's refusal, for answers that are not a
// Kafka error code (a version the broker does not speak, a fake broker in
// a test). Its text is err's.
func Refusal(err error) error {
	if err == nil {
		return nil
	}
	return refusal{err}
}

type refusal struct{ err error }

func (r refusal) Error() string { return r.err.Error() }
func (r refusal) Unwrap() error { return r.err }

// AnswerLost reports whether err means the request may have been applied
// though its answer never came: a timeout, a broken connection, or an
// answer that does not say.
func AnswerLost(err error) bool {
	return err != nil && !IsRefusal(err)
}

// Decide is the rule. reached says whether the re-read shows the target;
// answer is the broker's answer for this write (nil for success), readErr
// why the re-read failed (then reached is ignored).
//
//   - a re-read that shows the target: Verified, whatever the answer;
//   - the broker refused: Refused (it changed nothing);
//   - otherwise (no answer, an answer of success the re-read contradicts,
//     or no re-read): Unknown.
func Decide(reached bool, answer, readErr error) Outcome {
	switch {
	case readErr == nil && reached:
		return Verified
	case IsRefusal(answer):
		return Refused
	}
	return Unknown
}
