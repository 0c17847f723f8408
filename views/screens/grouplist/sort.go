package grouplist

import (
	"strings"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
)

// sortKey is what the sorts read of one group.
type sortKey struct {
	g   *kafka.Group
	lag int64 // total lag, kafka.NoOffset when unknown
	h   *lag.Verdict
}

func (m *Model) sortKey(i int) sortKey {
	return sortKey{g: &m.snap.Groups[i], lag: m.lags[i], h: &m.health[i]}
}

// compareGroups is the one order of the groups screen: negative when a
// comes before b in ascending order by k. Lag, time lag and health put
// the worst last in ascending order, so first in the descending order
// those sorts start with.
//
// Health, from worst: ERR STOP, ERR REWIND, ERR STALL, WARN NO-COMMITS,
// unknown ("-"), WARN, JUDGING, OK. A group nothing can be judged for
// (dead, or its offsets unreadable) and one whose consumers never commit
// sit next to the errors, not below the healthy groups.
//
// Lag: a lag that cannot be measured (unknown, or a NO-COMMITS verdict)
// ranks above every measured lag, for the same reason, and such groups
// tie with each other; measured lags follow by size. Ties are left to the
// caller (names).
func compareGroups(k SortKey, a, b sortKey) int {
	switch k {
	case ByLag:
		ca, cb := lagClass(a), lagClass(b)
		if ca != cb || ca == 1 {
			return compare(ca, cb) // unmeasured lags tie with each other
		}
		return compare(a.lag, b.lag)
	case ByState:
		return strings.Compare(a.g.State, b.g.State)
	case ByMembers:
		return compare(len(a.g.Members), len(b.g.Members))
	case ByTimeLag:
		return compareFloat(timeLagKey(a.h), timeLagKey(b.h))
	case ByHealth:
		return compare(healthRank(a.h), healthRank(b.h))
	}
	return 0
}

// lagClass is 1 for a group whose lag cannot be measured, 0 otherwise.
func lagClass(k sortKey) int {
	if sev, ok := k.h.Decided(); k.lag < 0 || ok && sev == lag.SeverityWarn && k.h.Status == lag.StatusNoCommits {
		return 1
	}
	return 0
}

// timeLagKey orders unknown time lags below every known one.
func timeLagKey(h *lag.Verdict) float64 {
	if !h.MaxTimeLag.Known() {
		return -1
	}
	return h.MaxTimeLag.Seconds
}

// healthRank is how bad a verdict is: OK 0, JUDGING 1, WARN 2, unknown 3,
// WARN NO-COMMITS 4, and ERR 5 to 7 by the partition status behind it
// (STALL, REWIND, STOP).
func healthRank(h *lag.Verdict) int {
	sev, ok := h.Decided()
	switch {
	case !h.Known:
		return 3
	case !ok:
		return 1
	case sev == lag.SeverityErr:
		return 5 + int(h.Status-lag.StatusStall)
	case h.Status == lag.StatusNoCommits:
		return 4
	}
	return 2 * int(sev) // OK 0, WARN 2
}

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func compare[T int | int64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
