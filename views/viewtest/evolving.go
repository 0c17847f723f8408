package viewtest

import (
	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/fixture"
	"github.com/kgroups/kgroups/kafka/lag"
)

// PollEvery is the interval between the polls of Evolving.
const PollEvery = fixture.PollEvery

// Evolving is fixture.Evolving: the fixture cluster at poll number poll,
// each group's consumer behaving so that every verdict shows.
func Evolving(poll int) *kafka.Snapshot { return fixture.Evolving(poll) }

// LagAfter feeds polls 0 to n-1 of Evolving into a lag history with the
// default configuration and returns it with the last snapshot.
func LagAfter(n int) (*lag.Tracker, *kafka.Snapshot) {
	l := lag.NewTracker(lag.DefaultConfig())
	var s *kafka.Snapshot
	for i := range n {
		s = Evolving(i)
		l.Add(s)
	}
	return l, s
}
