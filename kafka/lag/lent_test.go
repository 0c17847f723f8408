package lag_test

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/fixture"
	"github.com/kgroups/kgroups/kafka/lag"
)

// TestLentVerdictsKept: the verdicts a tracker lends (Verdicts) are the
// tracker's own, aligned with the poll, and stay that poll's whatever the
// tracker takes next: another poll, records read at commits (which judge
// groups again), or a copy of another tracker. The groups screen keeps
// them with its poll instead of copying them; without the lending, the
// next poll judged into the same slice under its feet.
func TestLentVerdictsKept(t *testing.T) {
	cfg := lag.DefaultConfig()
	l := lag.NewTracker(cfg)
	type loan struct {
		poll int
		v    []lag.Verdict
		was  []lag.Verdict
	}
	var loans []loan
	check := func(when string) {
		t.Helper()
		for _, ln := range loans {
			if !reflect.DeepEqual(ln.v, ln.was) {
				t.Fatalf("%s: the verdicts lent at poll %d changed", when, ln.poll)
			}
		}
	}
	changed := 0
	for i := range 14 {
		s := fixture.Evolving(i)
		l.Add(s)
		check("after a poll")
		v := l.Verdicts(s)
		if len(v) != len(s.Groups) {
			t.Fatalf("poll %d: %d verdicts lent for %d groups", i, len(v), len(s.Groups))
		}
		for gi := range s.Groups {
			if !reflect.DeepEqual(v[gi], l.Group(s, gi)) {
				t.Fatalf("poll %d, %s: lent %+v, Group %+v", i, s.Groups[gi].Name, v[gi], l.Group(s, gi))
			}
		}
		if n := len(loans); n > 0 && !reflect.DeepEqual(loans[n-1].was, v) {
			changed++
		}
		loans = append(loans, loan{i, v, slices.Clone(v)})
		if i%3 == 1 {
			recs := make(map[kafka.CommitKey]kafka.RecordTime)
			for k, p := range l.WantExact(16, nil) {
				recs[kafka.CommitKey{Topic: p.Topic, Partition: p.Partition, Offset: p.Committed}] = kafka.RecordTime{Offset: p.Committed, Timestamp: s.Time.Add(-time.Duration(10+k) * time.Second)}
			}
			l.AddExact(recs)
			check("after records read at commits")
		}
	}
	if changed < 5 {
		t.Fatalf("the verdicts changed at %d polls only: the test shows nothing", changed)
	}
	if v := l.Verdicts(fixture.Evolving(3)); v != nil {
		t.Fatalf("verdicts lent for a poll other than the latest: %d", len(v))
	}

	// A copy into a tracker whose verdicts are lent leaves them alone.
	c := lag.NewTracker(cfg)
	c.CopyFrom(l)
	s := fixture.Evolving(13)
	v := c.Verdicts(s)
	was := slices.Clone(v)
	next := fixture.Evolving(14)
	l.Add(next)
	c.CopyFrom(l)
	if !reflect.DeepEqual(v, was) {
		t.Fatal("the verdicts lent by a copy changed when it copied again")
	}
	if got := c.Verdicts(next); !reflect.DeepEqual(got, l.Verdicts(next)) {
		t.Fatal("the copy's verdicts are not its source's")
	}
}
