package write

import "fmt"

// Words are what one kind of write calls the parts of its report, so that
// every kind says its outcome in the same shape.
type Words struct {
	// Done is a verified write whose answer was clean: "ok", "deleted".
	Done string
	// Verified leads a verified write whose answer was an error:
	// "verified", "verified deleted".
	Verified string
	// Changed is the whole text for ChangedAfter.
	Changed string
	// Standing is what the re-read still shows when no answer came: "the
	// group still exists".
	Standing string
	// Accepted is an unknown outcome without an error: the broker
	// accepted the write, yet the re-read does not show it.
	Accepted string
}

// Describe says o in words: Done; Verified with why the answer was an
// error; "refused: " and the broker's answer; Changed; or "outcome unknown:
// " and why (no answer, a failed re-read, or what the re-read shows).
func Describe(o Outcome, answer, readErr error, w Words) string {
	switch o {
	case Verified:
		switch {
		case answer == nil:
			return w.Done
		case AnswerLost(answer):
			return w.Verified + " (the broker's answer was lost: " + answer.Error() + ")"
		}
		return w.Verified + " (though the broker answered: " + answer.Error() + ")"
	case Refused:
		return "refused: " + answer.Error()
	case ChangedAfter:
		return w.Changed
	}
	switch {
	case readErr != nil && answer != nil:
		return fmt.Sprintf("outcome unknown: no answer (%v) and the re-read failed (%v)", answer, readErr)
	case readErr != nil:
		return fmt.Sprintf("outcome unknown: the re-read failed: %v", readErr)
	case answer != nil:
		return fmt.Sprintf("outcome unknown: no answer (%v); %s, and the request may still land", answer, w.Standing)
	}
	return "outcome unknown: " + w.Accepted
}
