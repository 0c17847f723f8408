package write

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
)

func TestDecide(t *testing.T) {
	lost := fmt.Errorf("commit: %w", context.DeadlineExceeded)
	timedOut := fmt.Errorf("commit: %w", kerr.RequestTimedOut)
	refused := fmt.Errorf("commit: %w", kerr.UnknownMemberID)
	readFailed := errors.New("connection reset")
	for _, tc := range []struct {
		name    string
		reached bool
		answer  error
		readErr error
		want    Outcome
	}{
		{"answer and re-read agree", true, nil, nil, Verified},
		{"answer lost, re-read holds the target", true, lost, nil, Verified},
		{"REQUEST_TIMED_OUT, re-read holds the target", true, timedOut, nil, Verified},
		{"refused, but the target already held", true, refused, nil, Verified},
		{"refused", false, refused, nil, Refused},
		{"refused, re-read failed", false, refused, readFailed, Refused},
		{"answer lost, re-read shows the old value", false, lost, nil, Unknown},
		{"REQUEST_TIMED_OUT, re-read shows the old value", false, timedOut, nil, Unknown},
		{"accepted, re-read contradicts", false, nil, nil, Unknown},
		{"accepted, re-read failed", true, nil, readFailed, Unknown},
		{"marked refusal", false, Refusal(errors.New("no v3")), nil, Refused},
	} {
		if got := Decide(tc.reached, tc.answer, tc.readErr); got != tc.want {
			t.Errorf("%s: Decide = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestWorstAndTally(t *testing.T) {
	if got := Worst(); got != Verified {
		t.Errorf("Worst() = %v", got)
	}
	if got := Worst(Verified, Refused); got != Refused {
		t.Errorf("Worst(verified, refused) = %v", got)
	}
	// Unknown wins over refused: it is the one that needs a human.
	if got := Worst(Refused, Unknown, Verified); got != Unknown {
		t.Errorf("Worst(refused, unknown) = %v", got)
	}
	if got := Worst(ChangedAfter, Refused); got != ChangedAfter {
		t.Errorf("Worst(changed after, refused) = %v", got)
	}
	var tl Tally
	for _, o := range []Outcome{Verified, Refused, ChangedAfter, Verified} {
		tl.Add(o)
	}
	if tl != (Tally{Verified: 2, Refused: 1, ChangedAfter: 1}) || tl.Total() != 4 || tl.Worst() != ChangedAfter {
		t.Errorf("tally = %+v, worst %v", tl, tl.Worst())
	}
	tl.Add(Unknown)
	if tl.Worst() != Unknown {
		t.Errorf("worst with an unknown = %v", tl.Worst())
	}
	// The zero value is never taken for verified.
	var zero Outcome
	if zero != Unknown || zero.String() != "outcome unknown" {
		t.Errorf("zero outcome = %v", zero)
	}
}

func TestRefusalKeepsText(t *testing.T) {
	err := Refusal(kerr.UnknownMemberID)
	if err.Error() != kerr.UnknownMemberID.Error() || !errors.Is(err, kerr.UnknownMemberID) || !IsRefusal(err) || AnswerLost(err) {
		t.Errorf("Refusal(%v) = %v", kerr.UnknownMemberID, err)
	}
	if Refusal(nil) != nil || IsRefusal(nil) || AnswerLost(nil) {
		t.Error("nil is neither a refusal nor a lost answer")
	}
	if !AnswerLost(kerr.RequestTimedOut) || !AnswerLost(context.DeadlineExceeded) {
		t.Error("REQUEST_TIMED_OUT and a deadline are lost answers")
	}
}

func TestDescribe(t *testing.T) {
	w := Words{Done: "deleted", Verified: "verified deleted", Changed: "changed by another writer after ours",
		Standing: "the group still exists", Accepted: "the broker accepted it, but the group still exists"}
	lost := fmt.Errorf("delete: %w", context.DeadlineExceeded)
	refused := fmt.Errorf("delete: %w", kerr.NonEmptyGroup)
	readFailed := errors.New("connection reset")
	for _, tc := range []struct {
		o            Outcome
		answer, read error
		want         string
	}{
		{Verified, nil, nil, "deleted"},
		{Verified, lost, nil, "verified deleted (the broker's answer was lost: delete: context deadline exceeded)"},
		{Verified, refused, nil, "verified deleted (though the broker answered: delete: NON_EMPTY_GROUP: The group is not empty.)"},
		{Refused, refused, nil, "refused: delete: NON_EMPTY_GROUP: The group is not empty."},
		{ChangedAfter, nil, nil, "changed by another writer after ours"},
		{Unknown, lost, readFailed, "outcome unknown: no answer (delete: context deadline exceeded) and the re-read failed (connection reset)"},
		{Unknown, nil, readFailed, "outcome unknown: the re-read failed: connection reset"},
		{Unknown, lost, nil, "outcome unknown: no answer (delete: context deadline exceeded); the group still exists, and the request may still land"},
		{Unknown, nil, nil, "outcome unknown: the broker accepted it, but the group still exists"},
	} {
		if got := Describe(tc.o, tc.answer, tc.read, w); got != tc.want {
			t.Errorf("Describe(%v, %v, %v) = %q, want %q", tc.o, tc.answer, tc.read, got, tc.want)
		}
	}
}
