//go:build realkafka

package main

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/realkafka"
)

// stallPoll is one poll of TestRealStallThenResume: when it was taken,
// what it saw of the group's partition and what the rules judged.
type stallPoll struct {
	at                     time.Time
	committed, logEnd, lag int64
	verdict, reason        string
	timeLag                lag.TimeLag
}

// windowSpan is the window's span in time for polls every apart:
// cfg.Window observations cfg.MinDistance apart (or every, when polls are
// further apart).
func windowSpan(cfg lag.Config, every time.Duration) time.Duration {
	return time.Duration(cfg.Window-1) * max(cfg.MinDistance, every)
}

// onePartitionTenASecond starts a one-broker cluster with a topic of one
// partition, named after name, that a producer writes ten records a
// second to for the rest of the test, and the JVM for its consumers: the
// cluster, the clients, the topic and a group name for them.
func onePartitionTenASecond(t *testing.T, name string) (*realkafka.Cluster, *realkafka.Clients, string, string) {
	t.Helper()
	c := realkafka.Start(t, "", 1)
	topic, group := c.Name(name), c.Name(name+"-g")
	c.CreateTopic(t, topic, 1)
	c.ProduceSteadily(t, 100*time.Millisecond, func(int) { c.ProduceAsync(topic, 0) })
	return c, c.StartClients(t), topic, group
}

// TestRealStallThenResume judges a real Java consumer that gets stuck and
// comes back, as the UI and serve judge it: one partition, one producer at
// ten records a second, and a Java consumer on the default autocommit
// (every 5 s) that keeps up for 2 minutes (its window fills within one,
// with room for a slow join), then stops calling poll() for 100 s
// (stall.ms: processing stuck; its heartbeat thread keeps it in the
// group, max.poll.interval.ms being longer), then polls at full speed
// again and catches up within seconds. The group is polled every 2 s with
// kafka.Client.PollGroups and judged with lag.DefaultConfig (judgePoll),
// the UI's and serve's: a window of ten observations 5 s apart, 45 s, the
// window a user watching a group with the UI or serve's metrics has.
//
// What an on-call engineer would say, poll by poll: OK once the window is
// full and until the stall; ERR STALL once its commit has stood longer
// than the window (its own rhythm, 5 s, is far shorter): exactly at the
// first poll whose silence, counted from the poll that saw its last
// commit, is past 45 s, which is within a minute of the stall; STALL at
// every poll until the consumer commits again, and at none from the poll
// that sees that commit; never WARN (it is no slower than its
// producers); OK again within the window's span of its catching up (by
// then the window no longer shows the stall's climb). The rules may wait
// (JUDGING, with a reason) between the first OK and STALL, and between
// STALL and the last OK, but the verdict changes once per change of the
// truth: keeps up, stalled, catches up. The time lag they report is never
// above the age of the record at the commit (read back after the run) by
// more than a second, or an interpolated one by a poll interval.
func TestRealStallThenResume(t *testing.T) {
	const (
		stallAfter = 2 * time.Minute
		stall      = 100 * time.Second
		every      = 2 * time.Second
		// watchAfter is how long the polls go on once it caught up.
		watchAfter = 2 * time.Minute
	)
	cfg := lag.DefaultConfig()
	span := windowSpan(cfg, every)
	c, j, topic, group := onePartitionTenASecond(t, "stall")
	start := time.Now()
	j.Consumer(t, "stall", []string{topic}, "group.id="+group, "auto.offset.reset=earliest",
		"session.timeout.ms=10000", "heartbeat.interval.ms=500",
		"max.poll.interval.ms="+strconv.FormatInt((stall+time.Minute).Milliseconds(), 10),
		"stall.after.ms="+strconv.FormatInt(stallAfter.Milliseconds(), 10),
		"stall.ms="+strconv.FormatInt(stall.Milliseconds(), 10))
	c.Settled(t, map[string]realkafka.Want{group: {Members: 1}})

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cl := pollingClient(t, c)
	h := lag.NewHistory(cfg)
	since := func(at time.Time) string { return fmt.Sprintf("%.1fs", at.Sub(start).Seconds()) }

	var polls []stallPoll
	var stalledAt, resumedAt, caughtUpAt time.Time
	tick := time.NewTicker(every)
	defer tick.Stop()
	for ; ; <-tick.C {
		if stalledAt.IsZero() {
			if stalledAt = javaEvent(t, j, "stalled stall "); !stalledAt.IsZero() {
				t.Logf("%7s  the consumer stalls", since(stalledAt))
			}
		}
		if resumedAt.IsZero() {
			if resumedAt = javaEvent(t, j, "resumed stall "); !resumedAt.IsZero() {
				t.Logf("%7s  the consumer resumes", since(resumedAt))
			}
		}
		s, err := cl.PollGroups(ctx, group)
		if err != nil {
			t.Fatalf("%s: poll: %v", since(time.Now()), err)
		}
		g, ok := s.Group(group)
		if !ok || g.Err != nil || len(g.Partitions) != 1 || g.Partitions[0].MemberID == "" {
			t.Fatalf("%s: group %+v; want one partition, owned", since(s.Time), g)
		}
		v := judgePoll(ctx, t, cl, h, group, s)
		p := g.Partitions[0]
		sp := stallPoll{at: s.Time, committed: p.Committed, logEnd: p.LogEnd, lag: p.LogEnd - p.Committed,
			verdict: v.Text(), reason: v.Reason()}
		if len(v.Partitions) == 1 {
			sp.timeLag = v.Partitions[0].TimeLag
		}
		polls = append(polls, sp)
		t.Logf("%7s  %-12s committed %5d lag %4d time lag %5.1fs %-12s %s", since(sp.at), sp.verdict,
			sp.committed, sp.lag, sp.timeLag.Seconds, sp.timeLag.Kind, sp.reason)
		// Caught up: the first poll after the stall within what keeping
		// up leaves between two autocommits (5 s, 50 records), and 5 s
		// to spare.
		if !resumedAt.IsZero() && caughtUpAt.IsZero() && s.Time.After(resumedAt) && sp.lag <= 100 {
			caughtUpAt = s.Time
		}
		if !caughtUpAt.IsZero() && s.Time.Sub(caughtUpAt) > watchAfter {
			break
		}
		if s.Time.Sub(start) > stallAfter+stall+watchAfter+3*time.Minute {
			t.Fatalf("%s: the consumer never caught up after its stall (stalled %v, resumed %v)",
				since(s.Time), !stalledAt.IsZero(), !resumedAt.IsZero())
		}
	}
	cancel()

	// The truth: the last commit before the stall (one in flight as it
	// began shows at the next poll) and the first after it.
	var standing int64 = -1
	var lastMove, firstNew time.Time
	for i, p := range polls {
		switch {
		case p.at.Before(resumedAt):
			if i == 0 || p.committed != polls[i-1].committed {
				lastMove, standing = p.at, p.committed
			}
		case firstNew.IsZero() && p.committed != standing:
			firstNew = p.at
		}
	}
	// STALL is due at the first poll whose silence is past the window.
	var stallDue time.Time
	for _, p := range polls {
		if p.at.Sub(lastMove) > span {
			stallDue = p.at
			break
		}
	}
	t.Logf("stalled at %s, commit %d stood from the poll at %s (STALL due at %s), resumed at %s, first new commit seen at %s, caught up at %s",
		since(stalledAt), standing, since(lastMove), since(stallDue), since(resumedAt), since(firstNew), since(caughtUpAt))
	if lastMove.After(stalledAt.Add(2 * every)) {
		t.Fatalf("the commit moved at %s, during the stall", since(lastMove))
	}
	t.Logf("verdicts:\n%s", strings.Join(condense(polls, since), "\n"))

	var firstOK, firstStall time.Time
	var seq []string
	for _, p := range polls {
		word := p.verdict
		if strings.HasPrefix(word, lag.JudgingText) {
			word = lag.JudgingText
		}
		if len(seq) == 0 || seq[len(seq)-1] != word {
			seq = append(seq, word)
		}
		switch {
		case word == "OK" && firstOK.IsZero():
			firstOK = p.at
		case word == "ERR STALL" && firstStall.IsZero():
			firstStall = p.at
		}
		switch {
		case strings.HasPrefix(word, "WARN"):
			t.Errorf("%s: %s %s: it never falls behind its producers", since(p.at), p.verdict, p.reason)
		case word != "OK" && !firstOK.IsZero() && p.at.Before(stalledAt):
			t.Errorf("%s: %s %s while it keeps up, after OK", since(p.at), p.verdict, p.reason)
		case word == "ERR STALL" && p.at.Before(stallDue):
			t.Errorf("%s: STALL before its commit stood the window (%s)", since(p.at), span)
		case !p.at.Before(stallDue) && p.at.Before(firstNew) && word != "ERR STALL":
			t.Errorf("%s: %s %s, its commit standing %s, past the window (%s)", since(p.at), p.verdict, p.reason,
				p.at.Sub(lastMove).Round(time.Second), span)
		case word == "ERR STALL" && !p.at.Before(firstNew):
			t.Errorf("%s: STALL %s after its first commit since the stall", since(p.at), p.at.Sub(firstNew).Round(time.Second))
		case word != "OK" && p.at.After(caughtUpAt.Add(span)):
			t.Errorf("%s: %s %s, more than %s after it caught up", since(p.at), p.verdict, p.reason, span)
		}
	}
	if firstOK.IsZero() || !firstOK.Before(stalledAt.Add(-30*time.Second)) {
		t.Errorf("first OK at %s, want one at least 30 s before the stall at %s", since(firstOK), since(stalledAt))
	}
	if firstStall.IsZero() || firstStall.Sub(stalledAt) > time.Minute {
		t.Errorf("first STALL at %s, want one within a minute of the stall (at %s)", since(firstStall), since(stalledAt))
	}
	// One change per change of the truth (keeps up, stalled, caught up
	// again), and JUDGING only as the rules' waits: for the first window,
	// while a silence waits for STALL, while a catch-up waits for OK.
	if want := regexp.MustCompile(`^JUDGING -> OK -> (JUDGING -> )?ERR STALL -> (JUDGING -> )?OK$`); !want.MatchString(strings.Join(seq, " -> ")) {
		t.Errorf("verdicts %q, want them to match %s", seq, want)
	}

	// The time lag is never above the truth, the age at the poll of the
	// record at the commit, by more than a second; an interpolated one
	// by less than one poll interval (docs/lag-health.md#time-lag): it
	// places the commit on the line between the log ends of two polls,
	// each stamped as it starts, before it reads the log end (more than
	// a second before, on a loaded machine).
	stamps := map[int64]time.Time{}
	for _, p := range polls {
		if p.lag <= 0 || !p.timeLag.Known() {
			continue
		}
		ts, ok := stamps[p.committed]
		if !ok {
			ts = c.RecordTime(t, topic, 0, p.committed)
			stamps[p.committed] = ts
		}
		over := time.Second
		if p.timeLag.Kind == lag.TimeLagInterpolated {
			over = every
		}
		if truth := p.at.Sub(ts).Seconds(); p.timeLag.Seconds > truth+over.Seconds() {
			t.Errorf("%s: time lag %.1fs (%s) is above the truth, %.1fs (the record at %d), by more than %s",
				since(p.at), p.timeLag.Seconds, p.timeLag.Kind, truth, p.committed, over)
		} else if p.timeLag.Seconds > truth+0.5 {
			t.Logf("%s: time lag %.1fs (%s), the truth %.1fs (the record at %d)",
				since(p.at), p.timeLag.Seconds, p.timeLag.Kind, truth, p.committed)
		}
	}
}

// condense is polls as runs of one verdict and reason, told apart with
// the reason's figures left out ("its time lag grew #s in the last #s"):
// a line a run, with its first and last poll and the first one's reason.
func condense(polls []stallPoll, since func(time.Time) string) []string {
	figures := regexp.MustCompile(`[0-9]+`)
	var out []string
	for i := 0; i < len(polls); {
		k := i
		shape := figures.ReplaceAllString(polls[i].verdict+" "+polls[i].reason, "#")
		for k+1 < len(polls) && figures.ReplaceAllString(polls[k+1].verdict+" "+polls[k+1].reason, "#") == shape {
			k++
		}
		out = append(out, fmt.Sprintf("%7s-%7s  %2d polls  %s %s", since(polls[i].at), since(polls[k].at),
			k-i+1, polls[i].verdict, polls[i].reason))
		i = k + 1
	}
	return out
}

// javaEvent is the time of Clients.java's event line that starts with
// prefix and ends with the milliseconds since the Unix epoch ("stalled
// NAME MILLIS"), or the zero time when it has not printed one.
func javaEvent(t *testing.T, j *realkafka.Clients, prefix string) time.Time {
	t.Helper()
	for _, l := range j.Lines() {
		if ms, ok := strings.CutPrefix(l, prefix); ok {
			n, err := strconv.ParseInt(ms, 10, 64)
			if err != nil {
				t.Fatalf("Clients.java: %q: %v", l, err)
			}
			return time.UnixMilli(n)
		}
	}
	return time.Time{}
}
