package lag_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/kafkatest"
	"github.com/kgroups/kgroups/kafka/lag"
)

// These tests drive a History with real polls of a kfake cluster whose
// groups have real kgo members committing real offsets. Only the poll times
// are made up: every poll is stamped pollGap after the previous one, so
// rates, time lags and the STOP rule's clock are exact instead of depending
// on how fast the test machine runs. Offsets, ownership and group states
// are whatever the cluster answered.

// pollGap is the simulated time between polls: DefaultConfig's MinDistance,
// so that every poll of a partition a live member owns counts as a commit
// observation.
const pollGap = 5 * time.Second

var base = time.Date(2025, 1, 6, 9, 0, 0, 0, time.UTC)

// scenario is one group consuming one single-partition topic.
type scenario struct {
	c      *kafkatest.Cluster
	cl     *kafka.Client
	prod   *kgo.Client
	h      *lag.History
	group  string
	topic  string
	member *kafkatest.Member
	polls  int
	last   time.Time
}

func newScenario(t *testing.T, c *kafkatest.Cluster, group string, opts ...kgo.Opt) *scenario {
	t.Helper()
	s := &scenario{c: c, cl: c.Client(t), h: lag.NewHistory(lag.DefaultConfig()), group: group, topic: "t-" + group}
	c.CreateTopic(t, s.topic, 1)
	prod, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(prod.Close)
	s.prod = prod
	s.member = c.Join(t, group, []string{s.topic}, opts...)
	c.WaitStable(t, group, 1, 1)
	return s
}

func ctx(t *testing.T) context.Context {
	t.Helper()
	c, cancel := context.WithTimeout(context.Background(), kafkatest.WaitTimeout)
	t.Cleanup(cancel)
	return c
}

// produce appends n records and returns the log end.
// commitsThenStands produces 50 records, then polls s's group polls
// times, producing 5 records before each poll after the first; its
// member commits 10, 15, 20, ... before each of the first commits polls
// (a commit every poll, the first seen as it stands) and never again.
// check, when not nil, sees the health at each poll k. It returns the
// health at the last poll and the commit.
func (s *scenario) commitsThenStands(t *testing.T, commits, polls int, check func(k int, gh lag.GroupHealth)) (lag.GroupHealth, int64) {
	t.Helper()
	end := s.produce(t, 50)
	var gh lag.GroupHealth
	committed := int64(10)
	for k := range polls {
		if k > 0 {
			end = s.produce(t, 5)
		}
		if k < commits {
			committed = int64(10 + 5*k)
			s.commit(t, committed)
		}
		gh = s.poll(t, committed, end, true)
		if check != nil {
			check(k, gh)
		}
	}
	return gh, committed
}

func (s *scenario) produce(t *testing.T, n int) int64 {
	t.Helper()
	recs := make([]*kgo.Record, n)
	for i := range recs {
		recs[i] = &kgo.Record{Topic: s.topic, Partition: 0, Value: []byte("v")}
	}
	var end int64
	for _, r := range s.prod.ProduceSync(ctx(t), recs...) {
		if r.Err != nil {
			t.Fatalf("produce: %v", r.Err)
		}
		end = r.Record.Offset + 1
	}
	return end
}

// commit makes the live member commit offset, as its application would.
func (s *scenario) commit(t *testing.T, offset int64) {
	t.Helper()
	if err := kafkatest.CommitAs(ctx(t), s.member.Client, s.topic, 0, offset); err != nil {
		t.Fatalf("member commit %d: %v", offset, err)
	}
}

// poll polls the group on the cluster, stamps the snapshot pollGap after the
// previous one, adds it to the history and returns the group's health. It
// checks that the cluster reports the commit and log end the test expects,
// so a verdict can never come from a poll that missed the latest commit.
func (s *scenario) poll(t *testing.T, wantCommitted, wantEnd int64, wantOwned bool) lag.GroupHealth {
	t.Helper()
	snap, err := s.cl.PollGroups(ctx(t), s.group)
	if err != nil {
		t.Fatalf("poll: %v", err)
	}
	g, ok := snap.Group(s.group)
	if !ok || g.Err != nil || len(g.Partitions) != 1 {
		t.Fatalf("poll %d: group %+v", s.polls, g)
	}
	p := g.Partitions[0]
	if p.Committed != wantCommitted || p.LogEnd != wantEnd || (p.MemberID != "") != wantOwned {
		t.Fatalf("poll %d: committed %d, log end %d, owner %q; want %d, %d, owned %v", s.polls, p.Committed, p.LogEnd, p.MemberID, wantCommitted, wantEnd, wantOwned)
	}
	stamped := *snap
	stamped.Time = base.Add(time.Duration(s.polls) * pollGap)
	s.polls++
	s.last = stamped.Time
	s.h.Add(&stamped)
	gh, ok := s.h.Evaluate(s.group, s.last)
	if !ok {
		t.Fatalf("poll %d: group not evaluated", s.polls)
	}
	if len(gh.Partitions) != 1 {
		t.Fatalf("poll %d: %d partitions", s.polls, len(gh.Partitions))
	}
	return gh
}

func expectStatus(t *testing.T, what string, gh lag.GroupHealth, want lag.Status, complete bool) {
	t.Helper()
	p := gh.Partitions[0]
	if gh.Status != want || p.Status != want || gh.Severity != want.Severity() || gh.Complete != complete {
		t.Fatalf("%s: group %s (%s, complete %v), partition %s after %d observations; want %s, complete %v",
			what, gh.Status, gh.Severity, gh.Complete, p.Status, p.Observations, want, complete)
	}
}

func TestHealthOnRealGroups(t *testing.T) {
	c := kafkatest.NewCluster(t)

	t.Run("keeps up: OK", func(t *testing.T) {
		s := newScenario(t, c, "keeps-up")
		// Ten records a poll. The consumer is caught up at every
		// other poll and four behind in between: lag above zero now,
		// but zero within the window, so it is OK however long it runs.
		var gh lag.GroupHealth
		for k := range 12 {
			end := s.produce(t, 10)
			committed := end
			if k%2 == 1 {
				committed = end - 4
			}
			s.commit(t, committed)
			gh = s.poll(t, committed, end, true)
			// Complete: caught up, or lagging with a full window.
			expectStatus(t, fmt.Sprintf("poll %d", k), gh, lag.StatusOK, k%2 == 0 || k >= 9)
		}
		p := gh.Partitions[0]
		if gh.TotalLag != 4 || p.Lag != 4 || p.Observations != 10 {
			t.Errorf("lag %d/%d after %d observations, want 4 after 10", gh.TotalLag, p.Lag, p.Observations)
		}
		// Over the last ten polls (10s-55s) the log end went from 30 to
		// 120 and the commit from 30 to 116.
		if gh.ProduceRate != 90.0/45 || gh.ConsumeRate != 86.0/45 {
			t.Errorf("rates produce %v consume %v, want 90/45 and 86/45", gh.ProduceRate, gh.ConsumeRate)
		}
		// The commit (116) sits between the log ends of the last two
		// polls (110 at 50s, 120 at 55s): it was written at 53s.
		if want := (lag.TimeLag{Seconds: 2, Kind: lag.TimeLagInterpolated}); p.TimeLag != want {
			t.Errorf("time lag %+v, want %+v", p.TimeLag, want)
		}
	})

	t.Run("slower than the producer: WARN", func(t *testing.T) {
		s := newScenario(t, c, "slow")
		// Ten records in, five committed, per poll: the lag grows by
		// five every poll and never decreases.
		var gh lag.GroupHealth
		for k := range 12 {
			end := s.produce(t, 10)
			committed := int64(5 * (k + 1))
			s.commit(t, committed)
			gh = s.poll(t, committed, end, true)
			switch {
			case k < 9:
				// Not a full window yet: a trend is not judged.
				expectStatus(t, fmt.Sprintf("poll %d", k), gh, lag.StatusOK, false)
				if n := gh.Partitions[0].Observations; n != k+1 {
					t.Fatalf("poll %d: %d observations, want %d", k, n, k+1)
				}
			case k == 9:
				// A full window, but the commits kept for the trend
				// (22.5s apart at least) span 40s of the 45s it needs,
				// with a time lag of 25s: it waits (JUDGING).
				expectStatus(t, fmt.Sprintf("poll %d", k), gh, lag.StatusOK, true)
				if w := gh.Partitions[0].Wait; w.Kind != lag.WaitTrend {
					t.Fatalf("poll %d: wait %+v, want a wait for the trend", k, w)
				}
			default:
				// The time lag at the commits climbed from 2.5s to 25s in
				// 45s: falling behind.
				expectStatus(t, fmt.Sprintf("poll %d", k), gh, lag.StatusWarn, true)
			}
		}
		p := gh.Partitions[0]
		if gh.TotalLag != 60 || p.Committed != 60 || p.LogEnd != 120 {
			t.Errorf("lag %d (committed %d, log end %d), want 60 (60, 120)", gh.TotalLag, p.Committed, p.LogEnd)
		}
		if gh.ProduceRate != 2 || gh.ConsumeRate != 1 {
			t.Errorf("rates produce %v consume %v, want 2 and 1", gh.ProduceRate, gh.ConsumeRate)
		}
		if want := (lag.CatchUp{State: lag.FallingBehind, Behind: 1}); gh.CatchUp != want {
			t.Errorf("catch up %+v, want %+v", gh.CatchUp, want)
		}
		// Offset 60 was the log end at the sixth poll (25s); the last
		// poll is at 55s.
		if want := (lag.TimeLag{Seconds: 30, Kind: lag.TimeLagInterpolated}); p.TimeLag != want || gh.MaxTimeLag != want {
			t.Errorf("time lag %+v (group max %+v), want %+v", p.TimeLag, gh.MaxTimeLag, want)
		}
	})

	t.Run("commits an older offset: REWIND", func(t *testing.T) {
		s := newScenario(t, c, "rewinds")
		end := s.produce(t, 100)
		s.commit(t, 20)
		expectStatus(t, "first commit", s.poll(t, 20, end, true), lag.StatusOK, false)
		s.commit(t, 30)
		expectStatus(t, "second commit", s.poll(t, 30, end, true), lag.StatusOK, false)
		// An older commit lands after a newer one, as an out-of-order
		// async commit retry does: offsets 25-29 will be consumed again.
		s.commit(t, 25)
		rewoundAt := base.Add(2 * pollGap)
		gh := s.poll(t, 25, end, true)
		expectStatus(t, "older commit", gh, lag.StatusRewind, false)
		want := lag.Rewind{High: 30, Low: 25, At: rewoundAt}
		if p := gh.Partitions[0]; p.Rewind != want || p.Committed != 25 || p.Lag != 75 {
			t.Fatalf("rewind %+v, committed %d, lag %d; want %+v, 25, 75", p.Rewind, p.Committed, p.Lag, want)
		}
		// Moving on but still short of 30: the same rewind stands.
		s.commit(t, 28)
		gh = s.poll(t, 28, end, true)
		expectStatus(t, "still below the high", gh, lag.StatusRewind, false)
		if p := gh.Partitions[0]; p.Rewind != want {
			t.Fatalf("rewind %+v, want %+v", p.Rewind, want)
		}
		// Back past the high: recovered.
		s.commit(t, 35)
		gh = s.poll(t, 35, end, true)
		expectStatus(t, "recovered", gh, lag.StatusOK, false)
		if p := gh.Partitions[0]; p.Rewind != (lag.Rewind{}) {
			t.Fatalf("rewind %+v after recovering", p.Rewind)
		}
	})

	t.Run("a rebalance far behind: a step in records, not WARN", func(t *testing.T) {
		// A member commits every 60 polls (5 minutes), 20 records
		// behind the head, ten records arriving a poll. It leaves, and
		// a new member commits the partition one record past the last
		// commit, 619 records behind: its record is older than the
		// 20 time-lag points (100 s) the history keeps here, so the
		// time lag is a lower bound and the lag in records stands in
		// for the trend. The members changed since the commit before:
		// one step is no trend, and the verdict waits for the next
		// commit; that commit holds the step, and it is OK. Never WARN.
		s := newScenario(t, c, "handed-far")
		cfg := lag.DefaultConfig()
		cfg.TimePoints = 20
		s.h = lag.NewHistory(cfg)
		s.produce(t, 100)
		var committed, end int64
		for k := range 241 {
			end = s.produce(t, 10)
			switch {
			case k == 180:
				s.member.Close()
				s.member = c.Join(t, s.group, []string{s.topic})
				c.WaitStable(t, s.group, 1, 1)
				committed++
				s.commit(t, committed)
			case k%60 == 0 && k < 180:
				committed = end - 20
				s.commit(t, committed)
			case k == 240:
				committed = end - 619
				s.commit(t, committed)
			}
			gh := s.poll(t, committed, end, true)
			if gh.Status == lag.StatusWarn {
				t.Fatalf("poll %d: WARN (partition %+v)", k, gh.Partitions[0])
			}
			p := gh.Partitions[0]
			switch k {
			case 180:
				want := "its latest commit is 599 records further behind than the ones before: its next commit, ~5m after it, tells a step from a climb"
				if p.Status != lag.StatusOK || p.Wait.Kind != lag.WaitStep || p.Wait.Reason() != want || p.Lag != 619 || p.TimeLag.Kind != lag.TimeLagAtLeast {
					t.Fatalf("poll 180: %v, wait %v %q, lag %d, time lag %v; want OK waiting %q, lag 619, a lower bound", p.Status, p.Wait.Kind, p.Wait.Reason(), p.Lag, p.TimeLag, want)
				}
			case 240:
				if p.Status != lag.StatusOK || p.Wait.Kind == lag.WaitStep || p.Lag != 619 {
					t.Fatalf("poll 240, the step held: %v, wait %v %q, lag %d; want OK no longer waiting on the step, lag 619", p.Status, p.Wait.Kind, p.Wait.Reason(), p.Lag)
				}
			}
		}
	})

	t.Run("stands after one wait: JUDGING, not STALL", func(t *testing.T) {
		// The member commits at the first three polls (two moves: one
		// 5s wait seen), then lives on and never commits again while
		// records keep arriving. One wait may be a commit out of the
		// consumer's rhythm (a member joining or leaving commits what
		// it holds): past twice it the partition waits as one with no
		// rhythm seen, where a rhythm seen twice is STALL (below).
		s := newScenario(t, c, "stuck-once")
		gh, _ := s.commitsThenStands(t, 3, 13, nil)
		// 50s on one commit, past the window and twice the wait.
		expectStatus(t, "a commit standing past a rhythm seen once", gh, lag.StatusOK, true)
		p := gh.Partitions[0]
		want := "no commit in 50s and one wait (~5s) seen, no rhythm yet: STALL after 15m unless it commits"
		if p.Wait.Kind != lag.WaitRhythm || p.Wait.Reason() != want || p.Lag != 90 || !p.Owned {
			t.Fatalf("wait %v %q, lag %d, owned %v; want %v %q, 90, owned", p.Wait.Kind, p.Wait.Reason(), p.Lag, p.Owned, lag.WaitRhythm, want)
		}
	})

	for _, proto := range []struct {
		name string
		opts []kgo.Opt
	}{
		{"classic", nil},
		{"consumer protocol", []kgo.Opt{kgo.ServerSideBalancer()}},
	} {
		t.Run("stops committing: STALL then STOP ("+proto.name+")", func(t *testing.T) {
			group := "stuck"
			if proto.opts != nil {
				group = "stuck-848"
			}
			s := newScenario(t, c, group, proto.opts...)
			// The member commits at every poll (a 5s rhythm: two waits
			// seen) for four polls, then lives on (heartbeats, owns the
			// partition) but never commits again while records keep
			// arriving.
			gh, committed := s.commitsThenStands(t, 4, 14, func(k int, gh lag.GroupHealth) {
				switch {
				case k < 9:
					expectStatus(t, fmt.Sprintf("poll %d", k), gh, lag.StatusOK, false)
				case k < 13:
					// A full window; the commit (last moved at 15s) has
					// not stood longer than the window (45s) yet.
					expectStatus(t, fmt.Sprintf("poll %d", k), gh, lag.StatusOK, true)
				}
			})
			// 50s on one commit: past the window and twice its rhythm.
			expectStatus(t, "a commit standing past its rhythm", gh, lag.StatusStall, true)
			if p := gh.Partitions[0]; !p.Owned || p.Lag != 90 {
				t.Fatalf("owned %v, lag %d; want owned, 90", p.Owned, p.Lag)
			}

			// The member leaves. The commit has stood past its rhythm
			// already: without an owner that is STOP at once.
			s.member.Close()
			kafkatest.Eventually(t, "the group to be empty", func() bool {
				snap, err := s.cl.PollGroups(ctx(t), group)
				if err != nil {
					return false
				}
				g, ok := snap.Group(group)
				return ok && g.State == kafka.StateEmpty && len(g.Members) == 0 && len(g.Partitions) == 1 && g.Partitions[0].MemberID == ""
			})
			for k := 14; k < 21; k++ {
				end := s.produce(t, 5)
				gh = s.poll(t, committed, end, false)
				expectStatus(t, fmt.Sprintf("poll %d, %s after the last commit", k, time.Duration(k-3)*pollGap), gh, lag.StatusStop, true)
			}
			if p := gh.Partitions[0]; p.Owned || p.Lag != 125 || p.ConsumeRate != 0 || p.ProduceRate != 1 {
				t.Fatalf("owned %v, lag %d, consume %v, produce %v; want unowned, 125, 0, 1", p.Owned, p.Lag, p.ConsumeRate, p.ProduceRate)
			}
		})
	}
}

// TestNoCommitsOnARealGroup: a real kgo member that consumes with
// auto-commit off and never commits. The tracker judges it poll by poll:
// JUDGING while the window fills (never OK), then WARN NO-COMMITS once a
// live member has owned its partitions without a commit for a full window
// of observations; its lag is unknown at every poll, never 0.
func TestNoCommitsOnARealGroup(t *testing.T) {
	c := kafkatest.NewCluster(t)
	const group, topic = "never-commits", "t-never"
	c.CreateTopic(t, topic, 2)
	c.Produce(t, topic, 0, 7, base)
	c.Produce(t, topic, 1, 3, base)
	member := c.Join(t, group, []string{topic})
	c.WaitStable(t, group, 1, 2)
	cl := c.Client(t)

	tr := lag.NewTracker(lag.DefaultConfig())
	window := tr.Config().Window
	for k := range window + 2 {
		snap, err := cl.PollGroups(ctx(t), group)
		if err != nil {
			t.Fatalf("poll %d: %v", k, err)
		}
		g, ok := snap.Group(group)
		if !ok || g.Err != nil || len(g.Partitions) != 2 {
			t.Fatalf("poll %d: group %+v", k, g)
		}
		for _, p := range g.Partitions {
			if p.Committed != kafka.NoOffset || p.MemberID != member.MemberID() {
				t.Fatalf("poll %d: %s/%d committed %d owned by %q; want no commit, owned by %q", k, p.Topic, p.Partition, p.Committed, p.MemberID, member.MemberID())
			}
		}
		stamped := *snap
		stamped.Time = base.Add(time.Duration(k) * pollGap)
		tr.Add(&stamped)

		v := tr.Named(group)
		want := fmt.Sprintf("JUDGING %d/%d", k+1, window)
		if k+1 >= window {
			want = "WARN NO-COMMITS"
		}
		if got := v.Text(); got != want {
			t.Fatalf("poll %d: %q, want %q", k, got, want)
		}
		ok0, warn, bad := tr.Counts()
		if judged := k+1 >= window; ok0 != 0 || bad != 0 || warn != b2i(judged) || tr.Judging() != b2i(!judged) {
			t.Fatalf("poll %d: counts %d OK %d WARN %d ERR %d judging", k, ok0, warn, bad, tr.Judging())
		}
	}
	v := tr.Named(group)
	if v.Status != lag.StatusNoCommits || v.Severity != lag.SeverityWarn || !v.Known || v.LagKnown || v.MaxTimeLag.Known() {
		t.Errorf("verdict %+v; want NO-COMMITS, WARN, known, lag and time lag unknown", v)
	}
	gh, _ := tr.Evaluate(group, nil)
	for _, p := range gh.Partitions {
		if p.Status != lag.StatusNoCommits || !p.Uncommitted || p.Observations != window || p.LogEnd != map[int32]int64{0: 7, 1: 3}[p.Partition] {
			t.Errorf("%s/%d: %s uncommitted %v after %d observations, log end %d", p.Topic, p.Partition, p.Status, p.Uncommitted, p.Observations, p.LogEnd)
		}
	}
	// The chart's series: the group's lag was never known, so no poll
	// holds a 0.
	for i, p := range tr.GroupSeries(group, nil) {
		if p.Lag != kafka.NoOffset {
			t.Errorf("point %d: lag %d, want unknown", i, p.Lag)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestVerdictsOnRealGroupsAsAHumanWould: the cases Burrow's rules get
// wrong, on real members committing real offsets, judged over many
// windows: each verdict must be the one an on-call engineer agrees with
// at every poll once the window is full, and must not move.
func TestVerdictsOnRealGroupsAsAHumanWould(t *testing.T) {
	c := kafkatest.NewCluster(t)
	window := lag.DefaultConfig().Window

	t.Run("half the production, commits in batches: WARN", func(t *testing.T) {
		s := newScenario(t, c, "sawtooth")
		// Twenty records in per poll; the member processes ten a poll
		// and commits every third poll, so the lag rises 20, 20, then
		// dips by 10: it decreases in every window, which Burrow's
		// WARN rule takes for a healthy consumer. The time lag at its
		// commits climbs 2.5s every 5s.
		var committed int64
		s.commit(t, 0)
		for k := range 3 * window {
			end := s.produce(t, 20)
			if k%3 == 2 {
				committed = int64(10 * (k + 1))
				s.commit(t, committed)
			}
			gh := s.poll(t, committed, end, true)
			switch {
			case k > window:
				// The commits kept for the trend span the window from
				// poll 11: their time lag climbs, WARN at every poll.
				expectStatus(t, fmt.Sprintf("poll %d", k), gh, lag.StatusWarn, true)
			case k >= window-1:
				// A full window of observations, too few commits (one a
				// 15s) for the trend yet: JUDGING, never OK.
				expectStatus(t, fmt.Sprintf("poll %d", k), gh, lag.StatusOK, true)
				if gh.Wait.Kind != lag.WaitTrend {
					t.Fatalf("poll %d: wait %+v, want a wait for the trend", k, gh.Wait)
				}
			}
		}
	})

	t.Run("forty records behind at the producer's pace: OK", func(t *testing.T) {
		s := newScenario(t, c, "steady-delay")
		// The member handles every record four polls (20s) after it
		// was written and commits each poll: the lag is 40 at every
		// poll and never zero, which Burrow's rules call WARN.
		for k := range 3 * window {
			end := s.produce(t, 10)
			committed := max(0, end-40)
			s.commit(t, committed)
			gh := s.poll(t, committed, end, true)
			if k >= window+4 {
				expectStatus(t, fmt.Sprintf("poll %d", k), gh, lag.StatusOK, true)
				if p := gh.Partitions[0]; p.Lag != 40 || p.TimeLag != (lag.TimeLag{Seconds: 20, Kind: lag.TimeLagInterpolated}) {
					t.Fatalf("poll %d: lag %d, time lag %+v; want 40 and 20s interpolated", k, p.Lag, p.TimeLag)
				}
			}
		}
	})

	t.Run("one record behind on a quiet partition: OK", func(t *testing.T) {
		s := newScenario(t, c, "lag-one")
		// A record every third poll, consumed and committed all but
		// the newest: the lag is 1 at every poll.
		var end int64
		for k := range 3 * window {
			if k%3 == 0 {
				end = s.produce(t, 1)
				if end > 1 {
					s.commit(t, end-1)
				}
			}
			committed := int64(0)
			if end > 1 {
				committed = end - 1
			}
			if committed == 0 {
				continue // nothing committed yet
			}
			gh := s.poll(t, committed, end, true)
			if s.polls >= window {
				expectStatus(t, fmt.Sprintf("poll %d", k), gh, lag.StatusOK, true)
			}
		}
	})
}

// TestStallThenCatchUpOnARealGroup: a real member keeps up, committing
// every other poll, stops committing for two minutes while its producer
// goes on (STALL), then works off the backlog at one and a half times
// the production. It is judged on its commits since the stall: it waits
// for a trend of them (JUDGING), then reads OK while it catches up, and
// is never called falling behind.
func TestStallThenCatchUpOnARealGroup(t *testing.T) {
	c := kafkatest.NewCluster(t)
	s := newScenario(t, c, "stall-resume")
	var committed, end int64
	s.commit(t, 0)
	k := 0
	for ; k < 30; k++ { // keeps up: ten records a poll, commits every other poll
		end = s.produce(t, 10)
		if k%2 == 1 {
			committed = end - 3
			s.commit(t, committed)
		}
		if gh := s.poll(t, committed, end, true); k >= 20 {
			expectStatus(t, fmt.Sprintf("keeping up, poll %d", k), gh, lag.StatusOK, true)
		}
	}
	for ; k < 54; k++ { // two minutes without a commit
		end = s.produce(t, 10)
		gh := s.poll(t, committed, end, true)
		if k == 53 {
			expectStatus(t, "after two minutes without a commit", gh, lag.StatusStall, true)
		}
	}
	waited := 0
	for ; committed < end-15; k++ { // thirty records every other poll: 1.5x
		end = s.produce(t, 10)
		if k%2 == 1 {
			committed = min(end-3, committed+30)
			s.commit(t, committed)
		}
		gh := s.poll(t, committed, end, true)
		if gh.Status != lag.StatusOK && !(gh.Status == lag.StatusStall && waited == 0) {
			t.Fatalf("catching up, poll %d (lag %d): %s, want OK or JUDGING", k, gh.TotalLag, gh.Status)
		}
		if gh.Status == lag.StatusOK && gh.Wait.Kind == lag.WaitTrend {
			waited++
		}
	}
	if waited == 0 {
		t.Errorf("no poll waited for the trend after the stall")
	}
	gh := s.poll(t, committed, end, true)
	expectStatus(t, "caught up to the sawtooth", gh, lag.StatusOK, true)
	if gh.Wait.Kind != lag.WaitNone {
		t.Errorf("after catching up: still waits (%+v)", gh.Wait)
	}
}

// TestRecreatedTopicRestartsItsHistory: a topic deleted and created again
// under its name while a group's history runs. The new log's offsets start
// below the old commit; they are not a REWIND, and the time lag is read
// off the new log only: the history of the partition starts again, and
// says when.
//
// On a broker before Kafka 2.8 (no topic ids in metadata) the new log is
// told from the old by its offsets alone: its log end below the old
// commit.
func TestRecreatedTopicRestartsItsHistory(t *testing.T) {
	t.Run("newest", func(t *testing.T) { recreatedTopic(t) })
	t.Run("kafka 2.1", func(t *testing.T) { recreatedTopic(t, kfake.MaxVersions(kversion.V2_1_0())) })
}

func recreatedTopic(t *testing.T, opts ...kfake.Opt) {
	t.Helper()
	c := kafkatest.NewCluster(t, opts...)
	s := newScenario(t, c, "recreated")
	var end int64
	for range lag.DefaultConfig().Window {
		end = s.produce(t, 50)
		s.commit(t, end-10)
		gh := s.poll(t, end-10, end, true)
		expectStatus(t, "before", gh, lag.StatusOK, gh.Partitions[0].Observations >= lag.DefaultConfig().Window)
	}
	// The member leaves (its client holds the old topic's id); the new
	// log's offsets are committed by an admin, as a reset would.
	s.member.Close()
	kafkatest.Eventually(t, "the group empty", func() bool {
		gs, err := c.Admin().DescribeGroups(ctx(t), s.group)
		return err == nil && gs[s.group].State == "Empty"
	})
	if _, err := c.Admin().DeleteTopics(ctx(t), s.topic); err != nil {
		t.Fatal(err)
	}
	kafkatest.Eventually(t, "the topic gone", func() bool {
		md, err := c.Admin().Metadata(ctx(t), s.topic)
		return err == nil && md.Topics[s.topic].Err != nil
	})
	c.CreateTopic(t, s.topic, 1)
	// A producer of the new topic (the old one keeps the old topic's id).
	prod, err := kgo.NewClient(kgo.SeedBrokers(c.Addrs...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(prod.Close)
	s.prod = prod
	adm := kadm.NewClient(prod) // a fresh admin too: no old topic id cached
	restartedAt := base.Add(time.Duration(s.polls) * pollGap)
	for k := range 3 {
		end = s.produce(t, 20)
		os := make(kadm.Offsets)
		os.AddOffset(s.topic, 0, end-5, -1)
		if resp, err := adm.CommitOffsets(ctx(t), s.group, os); err != nil || resp.Error() != nil {
			t.Fatalf("commit the new log: %v, %v", err, resp.Error())
		}
		gh := s.poll(t, end-5, end, false)
		p := gh.Partitions[0]
		if p.Status != lag.StatusOK || !p.Restarted.Equal(restartedAt) || p.Observations != k+1 {
			t.Fatalf("poll %d of the new log: %s, restarted %v, %d observations; want OK, restarted %v, %d observations",
				k, p.Status, p.Restarted, p.Observations, restartedAt, k+1)
		}
		// The five records behind were written since the new log began:
		// its time lag is never more than the polls since.
		if p.TimeLag.Known() && p.TimeLag.Seconds > float64(k)*pollGap.Seconds() {
			t.Fatalf("poll %d of the new log: time lag %+v, above the %v the new log has existed", k, p.TimeLag, time.Duration(k)*pollGap)
		}
	}
}

// TestBatchCommitterAfterAPauseWaits: a real member that commits at the
// head at every poll while it keeps up, then production pauses (the
// partition rests, caught up), then resumes, and the member holds its
// commits (a consumer that commits after each batch of records, which
// fills slowly). Every consumer's time lag climbs from zero when
// production resumes; this one's climbs past twice the wait it showed
// while keeping up and the noise of sampling, and from then on nothing
// says it keeps up: JUDGING, waiting for its next commit, not OK. Its
// commit of the whole batch ends the wait.
func TestBatchCommitterAfterAPauseWaits(t *testing.T) {
	c := kafkatest.NewCluster(t)
	s := newScenario(t, c, "batch-after-pause")
	var end int64
	k := 0
	for ; k < 20; k++ { // keeps up, at the head
		end = s.produce(t, 10)
		s.commit(t, end)
		s.poll(t, end, end, true)
	}
	for ; k < 28; k++ { // production pauses: at rest
		gh := s.poll(t, end, end, true)
		expectStatus(t, fmt.Sprintf("at rest, poll %d", k), gh, lag.StatusOK, true)
	}
	committed := end
	var got []string
	for ; k < 40; k++ { // production resumes; the batch fills
		end = s.produce(t, 10)
		gh := s.poll(t, committed, end, true)
		got = append(got, fmt.Sprintf("%s/%d", gh.Status, gh.Wait.Kind))
	}
	// Its time lag passes 20 s (10 s and twice the 5 s rhythm it showed
	// keeping up: more than keeping up explains) at poll 32, with no
	// commit since to make a trend; 30 s (and two polls of noise) at
	// poll 34, past twice the wait it showed keeping up: its next commit
	// tells; its commit has stood past the window (45 s) at poll 37:
	// STALL.
	trend, calm, stall := fmt.Sprintf("OK/%d", lag.WaitTrend), fmt.Sprintf("OK/%d", lag.WaitCalm), "STALL/0"
	want := []string{"OK/0", "OK/0", "OK/0", "OK/0", trend, trend, calm, calm, calm, stall, stall, stall}
	if !slices.Equal(got, want) {
		t.Errorf("polls 28 to 39 after production resumed: %q, want %q", got, want)
	}
	s.commit(t, end)
	gh := s.poll(t, end, end, true)
	expectStatus(t, "the batch committed", gh, lag.StatusOK, true)
	if gh.Wait.Kind != lag.WaitNone {
		t.Errorf("after the batch's commit: still waits (%+v)", gh.Wait)
	}
}
