package kafka

import (
	"slices"
	"sync"
	"unsafe"
	"weak"
)

// rowMemo remembers, weakly, each group's partition rows at the latest
// full poll, so that a poll that finds a group's rows unchanged gives the
// group the rows of the poll before instead of its own: a process that
// keeps the previous snapshot while the next is judged (the UI) then holds
// the rows of groups that did not change once, not twice. The memo keeps
// nothing alive: a process that lets go of its snapshot before the next
// poll (`kgroups serve`) keeps only the new rows, as before.
type rowMemo struct {
	mu   sync.Mutex
	last map[string]memoRows
}

// memoRows is a group's rows, weakly: the first row and how many.
type memoRows struct {
	first weak.Pointer[PartitionOffsets]
	n     int
}

// share gives every group of gbs whose rows equal its rows at the
// previous full poll those rows, and, when full, remembers this poll's
// rows for the next.
func (m *rowMemo) share(gbs []groupBuilder, full bool) {
	m.mu.Lock()
	prev := m.last
	m.mu.Unlock()
	var next map[string]memoRows
	if full {
		next = make(map[string]memoRows, len(gbs))
	}
	for i := range gbs {
		g := gbs[i].g
		if len(g.Partitions) == 0 {
			continue
		}
		if e, ok := prev[g.Name]; ok && e.n == len(g.Partitions) {
			if p := e.first.Value(); p != nil {
				if rows := unsafe.Slice(p, e.n); sameRows(rows, g.Partitions) {
					g.Partitions = rows
				}
			}
		}
		if full {
			next[g.Name] = memoRows{first: weak.Make(&g.Partitions[0]), n: len(g.Partitions)}
		}
	}
	if full {
		m.mu.Lock()
		m.last = next
		m.mu.Unlock()
	}
}

// sameRows reports whether a and b hold the same rows, field by field,
// with no error in either: a row with an error is never shared.
func sameRows(a, b []PartitionOffsets) bool {
	for i := range a {
		if !sameRow(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

// sameRow reports whether a and b are equal in every field and carry no
// error (TestSameRowComparesEveryField holds it to every field).
func sameRow(a, b *PartitionOffsets) bool {
	return a.Err == nil && b.Err == nil &&
		a.Topic == b.Topic && a.Partition == b.Partition && a.LeaderEpoch == b.LeaderEpoch &&
		a.Committed == b.Committed && a.Metadata == b.Metadata &&
		a.LogStart == b.LogStart && a.LogEnd == b.LogEnd && a.Lag == b.Lag &&
		a.LastStable == b.LastStable && a.StableTrails == b.StableTrails &&
		a.MemberID == b.MemberID && a.ClientID == b.ClientID && a.Host == b.Host &&
		slices.Equal(a.Owners, b.Owners) && a.brokerLag == b.brokerLag
}
