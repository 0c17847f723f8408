//go:build realkafka

package main

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/realkafka"
)

// restartPoll is one poll of TestRealRestartSlowerThanProducers: a
// stallPoll and the group's members at it.
type restartPoll struct {
	stallPoll
	members int
	owned   bool // a member owns the partition
}

// TestRealRestartSlowerThanProducers judges a real Java consumer that is
// slower than its producers, is stopped (its group left without members)
// and is started again, as the UI and serve judge it: one partition, one
// producer at ten records a second, and a Java consumer on the default
// autocommit (every 5 s) that takes 130 ms a record (Clients.java's
// sleep.ms), about 7.7 records a second, fetching ten records a poll
// (max.poll.records) so that it commits on its 5 s rhythm however far
// behind it is. It runs for 3 minutes, is closed (it commits and leaves
// the group: no members) for 70 s, and is started again with the same
// group.id and the same pace: it resumes at its commit, more than a
// minute behind, and still falls behind. The group is polled every 2 s
// with kafka.Client.PollGroups and judged with lag.DefaultConfig
// (judgePoll), the UI's and serve's: a window of ten observations 5 s
// apart, 45 s.
//
// What an on-call engineer would say, poll by poll: falling behind,
// stopped, falling behind. Before the close: OK or JUDGING while the
// window fills, WARN once the trend shows the climb, never STALL or STOP
// while the member is there. Without members: still WARN while the
// rules weigh the change (the hold rule: Config.Hold polls spanning a
// third of the window; nothing consumes meanwhile, so it does fall
// behind), then JUDGING, with a reason, then ERR STOP from the first
// poll whose silence, counted from the poll that saw the close's commit,
// is past the window, at every poll until the members return; never
// WARN again once it left it. After the restart the wait through it is no rhythm of the
// consumer's, so its backlog is not what keeping up explains: never OK
// again; it waits (JUDGING, with a reason) until its trend shows the
// climb, then reads WARN, and from its first WARN only WARN or JUDGING.
// The decided verdicts, JUDGING left out, are (OK,) WARN, ERR STOP,
// WARN. Every poll's verdict, reason, lag and time lag are logged.
func TestRealRestartSlowerThanProducers(t *testing.T) {
	const (
		closeAfter = 3 * time.Minute
		gap        = 70 * time.Second
		every      = 2 * time.Second
		// watchAfter is how long the polls go on after the restart.
		watchAfter = 4 * time.Minute
	)
	cfg := lag.DefaultConfig()
	span := windowSpan(cfg, every)
	c, j, topic, group := onePartitionTenASecond(t, "restart")
	// Clients.java forgets a closed client's name: the consumer started
	// again is "slow" too, a new KafkaConsumer with the same properties.
	consume := func() {
		j.Consumer(t, "slow", []string{topic}, "group.id="+group, "auto.offset.reset=earliest",
			"session.timeout.ms=10000", "heartbeat.interval.ms=500",
			"max.poll.records=10", "sleep.ms=130")
	}
	start := time.Now()
	consume()
	c.Settled(t, map[string]realkafka.Want{group: {Members: 1}})

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cl := pollingClient(t, c)
	h := lag.NewHistory(cfg)
	since := func(at time.Time) string { return fmt.Sprintf("%.1fs", at.Sub(start).Seconds()) }

	var polls []restartPoll
	var closing, closed, restarted time.Time
	tick := time.NewTicker(every)
	defer tick.Stop()
	for ; ; <-tick.C {
		s, err := cl.PollGroups(ctx, group)
		if err != nil {
			t.Fatalf("%s: poll: %v", since(time.Now()), err)
		}
		g, ok := s.Group(group)
		if !ok || g.Err != nil || len(g.Partitions) != 1 {
			t.Fatalf("%s: group %+v; want one partition", since(s.Time), g)
		}
		v := judgePoll(ctx, t, cl, h, group, s)
		p := g.Partitions[0]
		rp := restartPoll{stallPoll: stallPoll{at: s.Time, committed: p.Committed, logEnd: p.LogEnd,
			lag: p.LogEnd - p.Committed, verdict: v.Text(), reason: v.Reason()},
			members: len(g.Members), owned: p.MemberID != ""}
		if len(v.Partitions) == 1 {
			rp.timeLag = v.Partitions[0].TimeLag
		}
		polls = append(polls, rp)
		t.Logf("%7s  %d member(s) %-12s committed %5d lag %4d time lag %5.1fs %-12s %s", since(rp.at), rp.members,
			rp.verdict, rp.committed, rp.lag, rp.timeLag.Seconds, rp.timeLag.Kind, rp.reason)

		if !restarted.IsZero() && s.Time.Sub(restarted) > watchAfter {
			break
		}
		switch {
		case closing.IsZero() && s.Time.Sub(start) >= closeAfter:
			closing = time.Now()
			j.Close(t, "slow")
			closed = time.Now()
			t.Logf("%7s  the consumer is closed (asked at %s)", since(closed), since(closing))
		case !closed.IsZero() && restarted.IsZero() && time.Since(closed) >= gap:
			restarted = time.Now()
			consume()
			t.Logf("%7s  the consumer starts again", since(restarted))
		}
	}
	cancel()

	// The truth, from the polls: the first without members once it was
	// closed, the first with a member again (the restart), and the
	// close's commit, the last to move before it.
	var gone, back, lastMove time.Time
	for i, p := range polls {
		switch {
		case gone.IsZero() && !p.at.Before(closing) && p.members == 0:
			gone = p.at
		case !gone.IsZero() && back.IsZero() && p.members > 0:
			back = p.at
		}
		if back.IsZero() && i > 0 && p.committed != polls[i-1].committed {
			lastMove = p.at
		}
	}
	if gone.IsZero() || back.IsZero() {
		t.Fatalf("no poll without members after the close at %s (%s), or none with members after it (%s)",
			since(closing), since(gone), since(back))
	}
	// STOP is due at the first poll without members whose commit has
	// stood longer than the window.
	var stopDue time.Time
	for _, p := range polls {
		if !p.at.Before(gone) && p.at.Before(back) && p.at.Sub(lastMove) > span {
			stopDue = p.at
			break
		}
	}
	t.Logf("closed at %s-%s; no members from %s, the close's commit seen at %s (STOP due at %s); members back at %s",
		since(closing), since(closed), since(gone), since(lastMove), since(stopDue), since(back))
	if stopDue.IsZero() || back.Sub(stopDue) < 10*time.Second {
		t.Fatalf("the members came back at %s, less than 10 s after STOP was due (%s): the gap is too short",
			since(back), since(stopDue))
	}
	all := make([]stallPoll, len(polls))
	for i, p := range polls {
		all[i] = p.stallPoll
	}
	t.Logf("verdicts:\n%s", strings.Join(condense(all, since), "\n"))

	judging := func(p restartPoll) bool { return strings.HasPrefix(p.verdict, lag.JudgingText) }
	var warnBefore, warnEnds, stopAt, warnBack time.Time
	var seq []string
	for _, p := range polls {
		if !judging(p) && (len(seq) == 0 || seq[len(seq)-1] != p.verdict) {
			seq = append(seq, p.verdict)
		}
		switch {
		case p.at.Before(gone):
			// The member is there: it keeps up for the first window,
			// then falls behind.
			if p.verdict == "WARN" && warnBefore.IsZero() {
				warnBefore = p.at
			}
			if !judging(p) && p.verdict != "OK" && p.verdict != "WARN" {
				t.Errorf("%s: %s %s with its member there, before the close", since(p.at), p.verdict, p.reason)
			}
		case p.at.Before(back):
			// No members. The WARN from before holds while the rules
			// weigh the change (the hold rule: Config.Hold polls
			// spanning a third of the window), nothing consuming
			// meanwhile; then JUDGING, with a reason, until the
			// silence passes the window; STOP from there until the
			// members return.
			if p.verdict != "WARN" && warnEnds.IsZero() {
				warnEnds = p.at
			}
			if p.verdict == "ERR STOP" && stopAt.IsZero() {
				stopAt = p.at
			}
			switch {
			case p.at.Before(stopDue) && p.verdict == "WARN" && warnEnds.IsZero():
			case p.at.Before(stopDue) && (!judging(p) || p.reason == ""):
				t.Errorf("%s: %s %q without members, its commit standing %s, within the window (%s)", since(p.at),
					p.verdict, p.reason, p.at.Sub(lastMove).Round(time.Second), span)
			case !p.at.Before(stopDue) && p.verdict != "ERR STOP":
				t.Errorf("%s: %s %s without members, its commit standing %s, past the window (%s)", since(p.at),
					p.verdict, p.reason, p.at.Sub(lastMove).Round(time.Second), span)
			}
		default:
			// Back, behind and slower than its producers: never OK;
			// JUDGING, with a reason, until WARN; then WARN or
			// JUDGING.
			if p.verdict == "WARN" && warnBack.IsZero() {
				warnBack = p.at
			}
			switch {
			case p.verdict == "OK":
				t.Errorf("%s: OK %s after the restart at %s: it came back behind and slower than its producers",
					since(p.at), p.reason, since(back))
			case warnBack.IsZero() && judging(p) && p.reason == "":
				t.Errorf("%s: %s with no reason after the restart", since(p.at), p.verdict)
			case warnBack.IsZero() && !judging(p) && !(p.verdict == "ERR STOP" && !p.owned):
				t.Errorf("%s: %s %s after the restart at %s, before its first WARN", since(p.at), p.verdict, p.reason, since(back))
			case !warnBack.IsZero() && !judging(p) && p.verdict != "WARN":
				t.Errorf("%s: %s %s after its first WARN since the restart (%s)", since(p.at), p.verdict, p.reason, since(warnBack))
			}
		}
	}
	t.Logf("first WARN at %s; without members, JUDGING from %s, ERR STOP from %s; back at %s; first WARN since at %s",
		since(warnBefore), since(warnEnds), since(stopAt), since(back), since(warnBack))
	if warnBefore.IsZero() {
		t.Errorf("no WARN before the close at %s: it fell behind for %s", since(closing), closeAfter)
	}
	if stopAt.IsZero() {
		t.Errorf("no ERR STOP between %s and %s without members", since(gone), since(back))
	}
	if warnBack.IsZero() {
		t.Errorf("no WARN in the %s after the restart at %s: it falls behind", watchAfter, since(back))
	}
	// Falling behind, stopped, falling behind: an OK only while the
	// first window shows no climb yet.
	if want := regexp.MustCompile(`^(OK -> )?WARN -> ERR STOP -> WARN$`); !want.MatchString(strings.Join(seq, " -> ")) {
		t.Errorf("decided verdicts %q, want them to match %s", seq, want)
	}
}
