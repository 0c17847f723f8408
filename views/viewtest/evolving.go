package viewtest

import (
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/ui"
)

// PollEvery is the interval between the polls of Evolving.
const PollEvery = 5 * time.Second

// Evolving is the fixture cluster at poll number poll (from 0), taken
// PollEvery apart from Epoch, with producers writing 25 messages per poll
// to every partition (5 msg/s) and each group's consumer behaving so that
// after Window polls every health verdict shows:
//
//   - analytics-etl keeps up: every other poll it is caught up (OK);
//   - billing-reconciler consumes 15 of every 25 messages: its lag only
//     grows (WARN);
//   - fraud-scoring's members own their partitions but commit nothing new
//     (STALL);
//   - inventory-sync keeps up until poll 8, then commits 50 messages
//     below its last commit and creeps on from there (REWIND on the
//     partitions that never caught up, stock/1 and stock/2);
//   - legacy-audit has no members and never commits (STOP once its
//     silence outlasts the window); nothing is written to audit-log/1, so
//     its time lag is only a lower bound;
//   - orders-app consumes 28 of every 25 messages while it lags: it is
//     catching up (OK), and refunds/0 has no commit;
//   - search-indexer and shipping-notifier have no commits (unknown).
func Evolving(poll int) *kafka.Snapshot {
	t := Epoch.Add(time.Duration(poll) * PollEvery)
	n := int64(poll)
	s := Snapshot(t, 25*n)
	set := func(p *kafka.PartitionOffsets, committed int64) {
		p.Committed = min(committed, p.LogEnd)
		p.Lag = p.LogEnd - p.Committed
	}
	for gi := range s.Groups {
		g := &s.Groups[gi]
		for pi := range g.Partitions {
			p := &g.Partitions[pi]
			orig := p.Committed
			switch g.Name {
			case "analytics-etl":
				if poll%2 == 0 {
					set(p, p.LogEnd)
				} else {
					set(p, orig+25*n)
				}
			case "billing-reconciler":
				set(p, orig+15*n)
			case "inventory-sync":
				if poll < 8 {
					set(p, orig+25*n)
				} else {
					set(p, orig+125+5*(n-8))
				}
			case "legacy-audit":
				if p.Partition == 1 {
					p.LogEnd -= 25 * n
					set(p, orig)
				}
			case "orders-app":
				if p.HasCommit() {
					set(p, orig+28*n)
				}
			}
		}
	}
	return s
}

// LagAfter feeds polls 0 to n-1 of Evolving into a lag history with the
// default configuration and returns it with the last snapshot.
func LagAfter(n int) (*ui.Lag, *kafka.Snapshot) {
	l := ui.NewLag(lag.DefaultConfig())
	var s *kafka.Snapshot
	for i := range n {
		s = Evolving(i)
		l.Add(s)
	}
	return l, s
}
