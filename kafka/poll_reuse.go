package kafka

import (
	"sort"
	"sync"
	"unsafe"
	"weak"

	"github.com/twmb/franz-go/pkg/kmsg"
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

// recall gives each group of gbs whose rows at the previous full poll
// are still alive those rows (groupBuilder.prev), for the phases of this
// poll to compare with what they read: a group that did not change then
// takes them without this poll making rows of its own (sameCommits,
// sameOwners, sameBounds). Held by the builders, which the poll clears
// once done, they live no longer than the poll.
func (m *rowMemo) recall(gbs []groupBuilder) {
	m.mu.Lock()
	prev := m.last // never written once made: share makes a new map
	m.mu.Unlock()
	if len(prev) == 0 {
		return
	}
	for i := range gbs {
		if e, ok := prev[gbs[i].g.Name]; ok {
			if p := e.first.Value(); p != nil {
				gbs[i].prev = unsafe.Slice(p, e.n)
			}
		}
	}
}

// sameCommits reports whether the group's offset fetch answer, whose
// partitions keys orders (n of them once a partition answered twice
// counts once, as commitRows keeps the later), makes the rows prev holds
// as commitRows makes them: the same topics and partitions in the same
// order, each with the same commit, leader epoch and metadata, and no
// error in the answer or in prev.
func (gb *groupBuilder) sameCommits(ts []kmsg.OffsetFetchResponseGroupTopic, keys []commitKey, n int) bool {
	prev := gb.prev
	if len(prev) != n || n == 0 {
		return false
	}
	j := 0
	for i, k := range keys {
		if i+1 < len(keys) && keys[i+1].topic == k.topic && keys[i+1].partition == k.partition {
			continue // a later answer for the same partition wins
		}
		t := &ts[k.topicAt]
		p, r := &t.Partitions[k.partAt], &prev[j]
		j++
		if p.ErrorCode != 0 || r.Err != nil || r.Partition != p.Partition || r.Topic != t.Topic {
			return false
		}
		c, epoch, meta := NoOffset, int32(-1), ""
		if p.Offset >= 0 {
			c, epoch = p.Offset, p.LeaderEpoch
			if p.Metadata != nil {
				meta = *p.Metadata
			}
		}
		if r.Committed != c || r.LeaderEpoch != epoch || r.Metadata != meta {
			return false
		}
	}
	return true
}

// sameOwners reports whether assemble would give the group's rows, the
// previous poll's (gb.same), the owners they have: no share group, no
// partition a member is assigned that has no row, and each row's owners,
// in member order, the ones it holds.
func (gb *groupBuilder) sameOwners() bool {
	if gb.g.Share != nil || len(gb.shareOffsets) > 0 {
		return false
	}
	rows := gb.rows.rows
	var buf [64]int32
	seen := buf[:0]
	if len(rows) > len(buf) {
		seen = make([]int32, 0, len(rows))
	}
	seen = seen[:len(rows)]
	clear(seen)
	for i := range gb.g.Members {
		m := &gb.g.Members[i]
		for _, a := range m.Assignment {
			for _, p := range a.Partitions {
				j := sort.Search(len(rows), func(j int) bool { return !rows[j].before(a.Topic, p) })
				if j == len(rows) || rows[j].Partition != p || rows[j].Topic != a.Topic {
					return false // a row assemble would add
				}
				r, k := &rows[j], seen[j]
				if k == 0 && (r.MemberID != m.MemberID || r.ClientID() != m.ClientID || r.Host() != m.Host) {
					return false
				}
				if owners := r.Owners(); int(k) >= len(owners) || owners[k] != m.MemberID {
					return false
				}
				seen[j]++
			}
		}
	}
	for j := range rows {
		r := &rows[j]
		if int(seen[j]) != len(r.Owners()) || seen[j] == 0 && (r.MemberID != "" || r.ClientID() != "" || r.Host() != "") {
			return false
		}
	}
	return true
}

// sameBounds reports whether join would leave the group's rows, the
// previous poll's (gb.same), as they are: each row completed from lb as
// join completes it is the same row, with no error.
func (gb *groupBuilder) sameBounds(lb *logBounds) bool {
	rows := gb.g.Partitions
	var tb *topicBounds
	topic := ""
	for i := range rows {
		r := &rows[i]
		if i == 0 || r.Topic != topic {
			topic, tb = r.Topic, lb.topics[r.Topic]
		}
		x := *r
		x.LogStart, x.LogEnd, x.Lag, x.LastStable, x.StableTrails, x.Err = NoOffset, NoOffset, NoOffset, 0, false, nil
		gb.joinRow(&x, tb.of(r.Partition), lb)
		if !sameRow(&x, r) {
			return false
		}
	}
	return true
}

// ownRows is a copy of prev, the previous poll's rows, as the phases of
// this poll that found them the same made them: the commits, and the
// owners when owners is set, with every later field as newRow leaves it.
func ownRows(prev []PartitionOffsets, owners bool) []PartitionOffsets {
	rows := make([]PartitionOffsets, len(prev))
	for i := range prev {
		p, r := &prev[i], &rows[i]
		*r = newRow(p.Topic, p.Partition)
		r.Committed, r.LeaderEpoch, r.Metadata = p.Committed, p.LeaderEpoch, p.Metadata
		if owners {
			r.MemberID, r.owned = p.MemberID, p.owned
		}
	}
	return rows
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
		a.MemberID == b.MemberID && sameOwned(a.owned, b.owned)
}
