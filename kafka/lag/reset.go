package lag

import "time"

// Reset is a change of a group's committed offsets that kgroups made
// itself (a reset or an undo), as its receipt records it. A REWIND it
// explains is not a client's fault: PartitionHealth.ResetBy names it.
type Reset struct {
	// Time is when the change was made (the receipt's time).
	Time time.Time
	// Receipt is the path of the receipt written before the change.
	Receipt string
	// Offsets are the partitions changed, with the committed offset
	// before and after (kafka.NoOffset: none).
	Offsets []ResetOffset
}

// ResetOffset is one partition of a Reset.
type ResetOffset struct {
	Topic         string
	Partition     int32
	Before, After int64
}

// MaxResets is how many resets a History remembers per group (the newest).
const MaxResets = 8

// NoteReset tells the history of a change kgroups made to group's
// committed offsets, so that the REWIND it causes is told apart from a
// consumer's out-of-order commit. The newest MaxResets per group are kept,
// and forgotten with the group.
func (h *History) NoteReset(group string, r Reset) {
	if h.resets == nil {
		h.resets = make(map[string][]Reset)
	}
	rs := append(h.resets[group], r)
	if len(rs) > MaxResets {
		rs = append(rs[:0:0], rs[len(rs)-MaxResets:]...)
	}
	h.resets[group] = rs
}

// resetBehind finds the newest reset of group that explains a REWIND of
// topic/partition: it moved the partition's commit back from at least the
// rewind's high to at most its low (a consumer may have committed a little
// past the reset's offset before the poll saw it).
func (h *History) resetBehind(group, topic string, partition int32, rw Rewind) *Reset {
	rs := h.resets[group]
	for i := len(rs) - 1; i >= 0; i-- {
		for _, o := range rs[i].Offsets {
			if o.Topic == topic && o.Partition == partition &&
				o.After >= 0 && o.After < o.Before && o.After <= rw.Low && rw.High <= o.Before {
				return &rs[i]
			}
		}
	}
	return nil
}
