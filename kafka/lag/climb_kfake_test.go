package lag_test

import (
	"slices"
	"strconv"
	"testing"
)

// TestACommitFurtherBehindEachTimeOnKfake is TestACommitFurtherBehindEachTime
// with a real member of the group on kfake (judgedOnKfake): records
// stamped ten a second; the member commits every two minutes, at the log
// end until 600 s and at 90% of the producers' rate after. From its
// first commit past the noise above every one before it (the poll after
// 720 s) it reads JUDGING, a step or a climb that its next commit tells;
// from its fourth commit further behind than the one before (960 s)
// JUDGING, the climb said; then WARN once the trend calls it; OK before.
func TestACommitFurtherBehindEachTimeOnKfake(t *testing.T) {
	got := judgedOnKfake(t, "climb-at-each", func(o int64) float64 { return float64(o) / 10 }, func(sec int) int64 { return int64(10 * sec) }, climbingCommits, 1500)
	if seq, want := changesFrom(got, 600, 1500), climbingVerdicts(); !slices.Equal(seq, want) {
		t.Errorf("from 600 s:\n got %q\nwant %q", seq, want)
	}
}

// climbingCommits is the offset committed by second sec of a consumer
// that commits every two minutes, at the log end (ten records a second)
// until 600 s and at 90% of that rate after.
func climbingCommits(sec int) int64 {
	k := sec / 120 * 120
	if k <= 600 {
		return int64(10 * k)
	}
	return 6000 + int64(9*(k-600))
}

// climbingVerdicts are the verdicts, with the second each begins, that
// climbingCommits read from 600 s to 1,500 s, polled every 5 s.
func climbingVerdicts() []string {
	const rose = "JUDGING its time lag rose at each of its last "
	return []string{"600 OK ",
		"725 JUDGING its latest commit is 12s further behind than the ones before: its next commit, ~2m after it, tells a step from a climb",
		"960 " + rose + "4 commits, 36s in 6m: not OK while it climbs",
		"1080 " + rose + "5 commits, 48s in 8m: not OK while it climbs",
		"1200 " + rose + "6 commits, 1m in 10m: not OK while it climbs",
		"1320 " + rose + "7 commits, 1m12s in 12m: not OK while it climbs", "1360 WARN "}
}

// changesFrom is each change of got's verdicts, every 5 s from from to
// to, with the second it begins.
func changesFrom(got map[int]string, from, to int) []string {
	var seq []string
	last := ""
	for sec := from; sec <= to; sec += 5 {
		if v := got[sec]; v != last {
			seq = append(seq, strconv.Itoa(sec)+" "+v)
			last = v
		}
	}
	return seq
}
