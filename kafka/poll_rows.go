package kafka

import "sort"

// rowSet gathers one group's partition rows in one slice, with no map and
// no allocation per row: rows[:sorted] are sorted by topic and partition
// and found by binary search; rows added after the last sort are found by
// a scan, or through extra once there are many of them.
type rowSet struct {
	rows   []PartitionOffsets
	sorted int
	extra  map[topicPartition]int
}

type topicPartition struct {
	topic     string
	partition int32
}

// extraScan is how many unsorted rows a lookup scans before it indexes
// them in a map.
const extraScan = 32

func newRow(t string, p int32) PartitionOffsets {
	return PartitionOffsets{Topic: t, Partition: p, Committed: NoOffset, LeaderEpoch: -1, LogStart: NoOffset, LogEnd: NoOffset, Lag: NoOffset, owned: notOwned}
}

// add appends a row the set does not have yet: the caller knows, as for
// the commits of one offset fetch, each partition listed once.
func (s *rowSet) add(t string, p int32) *PartitionOffsets {
	s.rows = append(s.rows, newRow(t, p))
	if s.extra != nil {
		s.extra[topicPartition{t, p}] = len(s.rows) - 1
	}
	return &s.rows[len(s.rows)-1]
}

// row finds the row of (t, p), adding it when the set has none. The
// pointer is good until the next call.
func (s *rowSet) row(t string, p int32) *PartitionOffsets {
	sorted := s.rows[:s.sorted]
	i := sort.Search(len(sorted), func(i int) bool { return !sorted[i].before(t, p) })
	if i < len(sorted) && sorted[i].Partition == p && sorted[i].Topic == t {
		return &s.rows[i]
	}
	if s.extra != nil {
		if i, ok := s.extra[topicPartition{t, p}]; ok {
			return &s.rows[i]
		}
		return s.add(t, p)
	}
	for i := s.sorted; i < len(s.rows); i++ {
		if s.rows[i].Partition == p && s.rows[i].Topic == t {
			return &s.rows[i]
		}
	}
	if len(s.rows)-s.sorted >= extraScan {
		s.extra = make(map[topicPartition]int, 2*extraScan)
		for i := s.sorted; i < len(s.rows); i++ {
			s.extra[topicPartition{s.rows[i].Topic, s.rows[i].Partition}] = i
		}
	}
	return s.add(t, p)
}

// has reports whether the sorted rows hold (t, p).
func (s *rowSet) has(t string, p int32) bool {
	sorted := s.rows[:s.sorted]
	i := sort.Search(len(sorted), func(i int) bool { return !sorted[i].before(t, p) })
	return i < len(sorted) && sorted[i].Partition == p && sorted[i].Topic == t
}

// sort orders every row by topic then partition: nothing to do when no
// row came since the last sort.
func (s *rowSet) sort() {
	if s.sorted == len(s.rows) {
		return
	}
	sort.Sort(byTopicPartition(s.rows))
	s.sorted, s.extra = len(s.rows), nil
}

// before reports whether r sorts before (t, p).
func (p *PartitionOffsets) before(topic string, partition int32) bool {
	if p.Topic != topic {
		return p.Topic < topic
	}
	return p.Partition < partition
}

// byTopicPartition sorts rows in place, comparing them where they lie.
type byTopicPartition []PartitionOffsets

func (b byTopicPartition) Len() int           { return len(b) }
func (b byTopicPartition) Less(i, j int) bool { return b[i].before(b[j].Topic, b[j].Partition) }
func (b byTopicPartition) Swap(i, j int)      { b[i], b[j] = b[j], b[i] }

// assemble completes the group's rows from its describe: a share group's
// start offsets, and the partitions members are assigned with nothing
// committed. The rows stay sorted by topic and partition, in one slice
// with no spare room, kept in the group.
func (gb *groupBuilder) assemble() {
	if gb.same {
		if gb.sameOwners() {
			gb.g.Partitions, gb.rows = gb.rows.rows, rowSet{}
			return
		}
		gb.rows, gb.same = rowSet{rows: ownRows(gb.rows.rows, false), sorted: len(gb.rows.rows)}, false
	}
	rows := gb.rows
	gb.rows = rowSet{}
	extra := 0
	for _, ps := range gb.shareOffsets {
		extra += len(ps)
	}
	for i := range gb.g.Members {
		for _, a := range gb.g.Members[i].Assignment {
			for _, p := range a.Partitions {
				_, started := gb.shareOffsets.Lookup(a.Topic, p)
				if !rows.has(a.Topic, p) && !started {
					extra++
				}
			}
		}
	}
	if extra > 0 {
		grown := make([]PartitionOffsets, len(rows.rows), len(rows.rows)+extra)
		copy(grown, rows.rows)
		rows.rows = grown
	}
	if gb.g.Share != nil {
		gb.shareRows(rows.row)
	}
	if len(gb.g.Members) > 0 {
		// Each member's partitions share one owned part, and owners share
		// one array of member ids: a partition with one owner (every
		// partition outside share groups) gets a one-id window of it, and
		// a second owner copies it out on append. A share partition, with
		// its broker lag, takes an owned part of its own.
		ids := make([]string, len(gb.g.Members))
		owned := make([]rowOwner, len(gb.g.Members))
		for i := range gb.g.Members {
			m := &gb.g.Members[i]
			ids[i] = m.MemberID
			owned[i] = rowOwner{clientID: m.ClientID, host: m.Host, owners: ids[i : i+1 : i+1], brokerLag: NoOffset}
		}
		for i := range gb.g.Members {
			m := &gb.g.Members[i]
			for _, a := range m.Assignment {
				for _, p := range a.Partitions {
					r := rows.row(a.Topic, p)
					switch {
					case r.Owners() == nil && r.BrokerLag() == NoOffset:
						r.MemberID, r.owned = m.MemberID, &owned[i]
					case r.Owners() == nil:
						r.SetOwner(m.MemberID, m.ClientID, m.Host, ids[i:i+1:i+1])
					default:
						r.SetOwner(r.MemberID, r.ClientID(), r.Host(), append(r.Owners(), m.MemberID))
					}
				}
			}
		}
	}
	rows.sort()
	gb.g.Partitions = rows.rows
}
