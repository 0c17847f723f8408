package lag

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
)

// runTenMinuteCommitter polls every 10 s a member that commits every 10
// minutes on a topic written at 10 records a second, 2 s behind the head
// until 30m, and then at behind(k) seconds behind it at its k-th commit
// from 30m on (k = 0 at 30m): its third commit seen moving. It returns the partition's status at each
// poll, by second.
func runTenMinuteCommitter(t *testing.T, behind func(k int) int64) map[int]PartitionHealth {
	t.Helper()
	h := NewHistory(DefaultConfig())
	got := map[int]PartitionHealth{}
	var c int64
	for sec := 0; sec <= 4*3600/2; sec += 10 {
		end := 100000 + int64(10*sec)
		if sec%600 == 0 {
			lagSec := int64(2)
			if sec >= 1800 {
				lagSec = behind((sec - 1800) / 600)
			}
			c = end - 10*lagSec
		}
		p := po("t", 0, c, end)
		p.MemberID = "m"
		h.Add(snap(at(float64(sec)), grp("g", p)))
		g, _ := h.Evaluate("g", at(float64(sec)))
		got[sec] = g.Partitions[0]
	}
	return got
}

// firstWarn is the first poll from from to to (seconds, every 10 s)
// that read WARN, or -1.
func firstWarn(got map[int]PartitionHealth, from, to int) int {
	for sec := from; sec <= to; sec += 10 {
		if got[sec].Status == StatusWarn {
			return sec
		}
	}
	return -1
}

func statusLine(got map[int]PartitionHealth, from, to int) string {
	var b strings.Builder
	for sec := from; sec <= to; sec += 10 {
		p := got[sec]
		fmt.Fprintf(&b, "%d:%v", sec, p.Status)
		if p.Wait.Kind != WaitNone {
			fmt.Fprintf(&b, "/%d", p.Wait.Kind)
		}
		b.WriteByte(' ')
	}
	return b.String()
}

// TestOneStepIsNotATrend: a consumer that commits every 10 minutes at the
// head falls 200 s behind in one step (a rebalance hands its partition
// to a member that processes again what the last owner had not
// committed) and keeps pace from there. One step of the time lag at its
// commits is not a trend: after it, the verdict waits for the next
// commit, saying why, and is OK once that commit holds the step. It is
// never WARN. A consumer whose next commit climbs again is WARN after
// that commit.
func TestOneStepIsNotATrend(t *testing.T) {
	step := runTenMinuteCommitter(t, func(int) int64 { return 200 })
	for sec := 0; sec <= 3600; sec += 10 {
		if s := step[sec].Status; s != StatusOK {
			t.Fatalf("step: %v at %d s: %s", s, sec, statusLine(step, 1800, 3000))
		}
	}
	p := step[1810]
	want := "its latest commit is 3m18s further behind than the ones before: its next commit, ~10m after it, tells a step from a climb"
	if p.Status != StatusOK || p.Wait.Kind != WaitStep || p.Wait.Reason() != want {
		t.Errorf("step at 1810 s: %v, wait %d %q; want OK waiting %q", p.Status, p.Wait.Kind, p.Wait.Reason(), want)
	}
	if p.Wait.Need != 20*time.Minute {
		t.Errorf("step at 1810 s: needs %v of evidence, want two rhythms, 20m (health suggests that --window)", p.Wait.Need)
	}
	if p := step[2410]; p.Status != StatusOK || p.Wait.Kind == WaitStep {
		t.Errorf("after the commit that held the step: %v, wait %d %q; want OK no longer waiting on the step", p.Status, p.Wait.Kind, p.Wait.Reason())
	}

	climb := runTenMinuteCommitter(t, func(k int) int64 { return 200 * int64(k+1) })
	if first := firstWarn(climb, 1800, 3600); first < 2400 || first > 2460 {
		t.Errorf("climb: first WARN at %d s, want within a minute of the commit at 2400 s: %s", first, statusLine(climb, 1800, 3000))
	}
}

// TestAStepThenScatterIsNotATrend: TestOneStepIsNotATrend where the
// commits after the step scatter, as where a rebalance hands the
// partition to a member serving others first: the time lag at each
// commit is wherever the member's round found it (seed 3's s205: 7, 7,
// 397, 263, 444 s). One step and a scatter that does not climb past
// itself is not a trend: never WARN (it read WARN at 3000 s, where the
// commit after the fall stood above it). After the same step, commits
// climbing through a smaller scatter are WARN within a minute of the
// commit that shows it (the hold's polls).
func TestAStepThenScatterIsNotATrend(t *testing.T) {
	scatter := []int64{400, 260, 450, 300, 420, 280, 440}
	held := runTenMinuteCommitter(t, func(k int) int64 { return scatter[k%len(scatter)] })
	for sec := 0; sec <= 7200; sec += 10 {
		if s := held[sec].Status; s == StatusWarn {
			t.Fatalf("step, then scatter: WARN at %d s: %s", sec, statusLine(held, 1800, 4200))
		}
	}
	climb := []int64{400, 330, 560, 700, 850}
	climbing := runTenMinuteCommitter(t, func(k int) int64 { return climb[min(k, len(climb)-1)] })
	if first := firstWarn(climbing, 1800, 3600); first < 3000 || first > 3060 {
		t.Errorf("step, then a climb: first WARN at %d s, want within a minute of the commit at 3000 s: %s", first, statusLine(climbing, 1800, 3600))
	}
}

// TestACaughtUpCommitEndsTheClimbBefore: a consumer at 0.7 of its
// producers' rate commits every 2 minutes, its time lag at its commits
// climbing; production pauses, and it catches up and commits at the log
// end; production resumes and it falls behind again. The WARN's climb
// ended when it caught up, and the commits since are the trend: the
// consumer is not OK while it falls behind again, and reads WARN as it
// did the first time. Judged with the old climb, the caught-up commit is
// the floor of the trend's newest third, and the consumer read OK for
// six minutes while its time lag climbed.
func TestACaughtUpCommitEndsTheClimbBefore(t *testing.T) {
	h := NewHistory(DefaultConfig())
	var end, pos, c float64 = 1000, 1000, 1000
	got := map[int]PartitionHealth{}
	for sec := 1; sec <= 2400; sec++ {
		if sec < 720 || sec >= 1200 {
			end += 10
		}
		pos = min(end, pos+7)
		if sec%120 == 0 {
			c = pos
		}
		if sec%10 != 0 {
			continue
		}
		p := po("t", 0, int64(c), int64(end))
		p.MemberID = "m"
		h.Add(snap(at(float64(sec)), grp("g", p)))
		g, _ := h.Evaluate("g", at(float64(sec)))
		got[sec] = g.Partitions[0]
	}
	if p := got[1190]; p.Lag != 0 {
		t.Fatalf("at 1190 s: lag %d, want caught up", p.Lag)
	}
	for sec := 1330; sec <= 1560; sec += 10 {
		if p := got[sec]; p.Status == StatusOK && p.Wait.Kind == WaitNone {
			t.Errorf("%d s: OK with its time lag %v climbing since it caught up: %s", sec, p.TimeLag, statusLine(got, 1200, 1800))
			break
		}
	}
	if p := got[1600]; p.Status != StatusWarn {
		t.Errorf("1600 s: %v, want WARN: %s", p.Status, statusLine(got, 1200, 1800))
	}
}

// TestAStepsReasonNeverGoesBackwards: a step's wait is judged as a poll
// is added, and worded when the history is read, after the records at
// the commits were read; the newest commit's record can put it back in
// line with the ones before (bursty production: seed 5's s007 read "its
// latest commit is -5s further behind"). The reason then says the wait
// without a rise that is not one.
func TestAStepsReasonNeverGoesBackwards(t *testing.T) {
	for _, rise := range []time.Duration{-5 * time.Second, 0} {
		w := Wait{Kind: WaitStep, Rise: rise, Every: 30 * time.Second}
		want := "waits for its next commit, ~30s after its latest, to tell a step in its time lag from a climb"
		if got := w.Reason(); got != want {
			t.Errorf("rise %v: %q, want %q", rise, got, want)
		}
	}
	w := Wait{Kind: WaitStep, Rise: 11 * time.Second, Every: 30 * time.Second}
	if got, want := w.Reason(), "its latest commit is 11s further behind than the ones before: its next commit, ~30s after it, tells a step from a climb"; got != want {
		t.Errorf("rise 11s: %q, want %q", got, want)
	}
}

// TestARebalanceStepInRecordsIsNotATrend: TestOneStepIsNotATrend where
// the step is deeper than the time-lag points reach (20 of them, 200 s
// at 10 s polls: the newest commit's record is older, so its time lag
// is known only as a lower bound and the lag in records stands in for
// the trend) and the group's members changed since the commit before: a
// member handed the partition commits about where the last owner left
// it, 600 s behind the head, and keeps pace from there. It waits for
// the next commit, saying by how many records the step rose, and is
// never WARN. The same step without a change of members is the climb it
// looks like.
func TestARebalanceStepInRecordsIsNotATrend(t *testing.T) {
	run := func(member func(sec int) string) map[int]PartitionHealth {
		cfg := DefaultConfig()
		cfg.TimePoints = 20
		h := NewHistory(cfg)
		got := map[int]PartitionHealth{}
		var c int64
		for sec := 0; sec <= 3600; sec += 10 {
			end := 100000 + int64(10*sec)
			if sec%600 == 0 {
				if sec < 1800 {
					c = end - 20
				} else {
					c = end - 6019
				}
			}
			p := po("t", 0, c, end)
			p.MemberID = member(sec)
			gr := grp("g", p)
			gr.Members = []kafka.Member{{MemberID: p.MemberID}}
			h.Add(snap(at(float64(sec)), gr))
			g, _ := h.Evaluate("g", at(float64(sec)))
			got[sec] = g.Partitions[0]
		}
		return got
	}
	handed := run(func(sec int) string {
		if sec >= 1800 {
			return "n"
		}
		return "m"
	})
	for sec := 0; sec <= 3600; sec += 10 {
		if s := handed[sec].Status; s == StatusWarn {
			t.Fatalf("handed over: WARN at %d s (time lag %v): %s", sec, handed[sec].TimeLag, statusLine(handed, 1800, 1900))
		}
	}
	p := handed[1810]
	want := "its latest commit is 5999 records further behind than the ones before: its next commit, ~10m after it, tells a step from a climb"
	if p.Status != StatusOK || p.Wait.Kind != WaitStep || p.Wait.Reason() != want {
		t.Errorf("handed over at 1810 s: %v, wait %d %q; want OK waiting %q", p.Status, p.Wait.Kind, p.Wait.Reason(), want)
	}
	if p.TimeLag.Kind != TimeLagAtLeast {
		t.Errorf("handed over at 1810 s: time lag %v, want a lower bound (the record is older than the points)", p.TimeLag)
	}

	same := run(func(int) string { return "m" })
	if p := same[1810]; p.Status != StatusWarn {
		t.Errorf("same member at 1810 s: %v, wait %q; want WARN: %s", p.Status, p.Wait.Reason(), statusLine(same, 1800, 3000))
	}
}
