package grouplist

import (
	"slices"
	"strings"
	"testing"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
)

// verdictOf is a verdict with status st, obs observations of a window of
// 10, known or not.
func verdictOf(st lag.Status, known bool, obs int) *lag.Verdict {
	return &lag.Verdict{GroupHealth: lag.GroupHealth{Status: st, Severity: st.Severity()}, Known: known, Observations: obs, Window: 10}
}

// sorted orders keys the way the screen's descending sorts do (worst
// first, names breaking ties) and returns the names.
func sorted(k SortKey, keys []sortKey) string {
	keys = slices.Clone(keys)
	slices.SortStableFunc(keys, func(a, b sortKey) int {
		if c := compareGroups(k, a, b); c != 0 {
			return -c
		}
		return strings.Compare(a.g.Name, b.g.Name)
	})
	names := make([]string, len(keys))
	for i := range keys {
		names[i] = keys[i].g.Name
	}
	return strings.Join(names, " ")
}

func TestCompareGroupsPutsUnknownNextToTheWorst(t *testing.T) {
	key := func(name string, l int64, h *lag.Verdict) sortKey {
		return sortKey{g: &kafka.Group{Name: name}, lag: l, h: h}
	}
	unknown := lag.UnknownVerdict
	keys := []sortKey{
		key("ok", 0, verdictOf(lag.StatusOK, true, 10)),
		key("judging", 40, verdictOf(lag.StatusOK, true, 3)),
		key("warn", 700, verdictOf(lag.StatusWarn, true, 10)),
		key("dead", kafka.NoOffset, &unknown),
		key("nocommit", kafka.NoOffset, verdictOf(lag.StatusNoCommits, true, 10)),
		// some partitions committed: its lag is known, yet not all of it
		key("partly", 12, verdictOf(lag.StatusNoCommits, true, 10)),
		key("stall", 300, verdictOf(lag.StatusStall, true, 10)),
		key("rewind", 20, verdictOf(lag.StatusRewind, true, 2)),
		key("stop", 90000, verdictOf(lag.StatusStop, true, 1)),
	}
	slices.Reverse(keys) // the input order must not matter
	if got, want := sorted(ByHealth, keys), "stop rewind stall nocommit partly dead warn judging ok"; got != want {
		t.Errorf("by health:\n got %s\nwant %s", got, want)
	}
	if got, want := sorted(ByLag, keys), "dead nocommit partly stop warn stall judging rewind ok"; got != want {
		t.Errorf("by lag:\n got %s\nwant %s", got, want)
	}
}
