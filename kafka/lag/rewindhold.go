package lag

import (
	"slices"
	"time"
)

// A REWIND is reported for Config.EventHold after the poll that saw it
// (at least the floor), but the rules find it among the partition's commit
// observations, a ring of Window of them: a consumer that commits at
// every poll pushes the observation from before the drop out of the ring
// within Window polls, ten 5 s polls for the defaults, long before
// `kgroups health` (which holds an event for its whole sampling window)
// ends its window. So the group keeps each REWIND the rules found, until
// it is older than the hold or the consumer commits at or past the
// offset it had reached: what the ring forgot, the event still says.
// Most groups keep none.

// heldRewind is a REWIND of one of the group's partitions, as the rules
// found it at the poll that saw it.
type heldRewind struct {
	topic     uint32
	partition int32
	high, low int64
	// at is the time of the first observation below high.
	at int64
}

// eventHold is how long an event is reported after the poll that saw it:
// Config.EventHold, or by default the window's span in time, Window
// observations at MinDistance or at the polls' interval where they are
// further apart (ten 30 s polls span four and a half minutes, not the
// floor's minute), and at least the floor.
func (h *History) eventHold() int64 {
	if h.cfg.EventHold > 0 {
		return max(h.floor(), int64(h.cfg.EventHold))
	}
	return h.windowSpan()
}

// windowSpan is the window's span in time: Window observations at
// MinDistance, or at the polls' interval where they are further apart
// (ten 30 s polls span four and a half minutes), and at least the floor.
func (h *History) windowSpan() int64 {
	return max(h.floor(), int64(h.cfg.Window-1)*max(int64(h.cfg.MinDistance), h.pollGap()))
}

// noteRewind keeps rw, the rules' REWIND of ph at the latest poll, in
// place of any older one of the same partition.
func (gh *groupHist) noteRewind(ph *partHist, rw Rewind) {
	e := heldRewind{topic: ph.topic, partition: ph.partition, high: rw.High, low: rw.Low, at: rw.At.UnixNano()}
	for i := range gh.rewinds {
		if r := &gh.rewinds[i]; r.topic == e.topic && r.partition == e.partition {
			*r = e
			return
		}
	}
	gh.rewinds = append(gh.rewinds, e)
}

// forgetRewind forgets ph's REWIND, if one is kept.
func (gh *groupHist) forgetRewind(ph *partHist) {
	gh.rewinds = slices.DeleteFunc(gh.rewinds, func(r heldRewind) bool {
		return r.topic == ph.topic && r.partition == ph.partition
	})
	if len(gh.rewinds) == 0 {
		gh.rewinds = nil
	}
}

// sweepRewinds forgets the REWINDs older than the hold at time now, and
// ph's when its committed offset c is back at or past the offset it had
// reached (ph nil: none).
func (gh *groupHist) sweepRewinds(ph *partHist, c, now, hold int64) {
	if len(gh.rewinds) == 0 {
		return
	}
	kept := gh.rewinds[:0]
	for _, r := range gh.rewinds {
		back := ph != nil && r.topic == ph.topic && r.partition == ph.partition && c >= r.high
		if now-r.at <= hold && !back {
			kept = append(kept, r)
		}
	}
	clear(gh.rewinds[len(kept):])
	gh.rewinds = kept
	if len(kept) == 0 {
		gh.rewinds = nil
	}
}

// heldRewindOf returns the kept REWIND of ph, if it still holds at time
// now for its committed offset c: within the hold, and c below the offset
// the consumer had reached.
func (gh *groupHist) heldRewindOf(ph *partHist, c, now, hold int64) (Rewind, bool) {
	for _, r := range gh.rewinds {
		if r.topic == ph.topic && r.partition == ph.partition {
			if now-r.at > hold || c >= r.high {
				return Rewind{}, false
			}
			return Rewind{High: r.high, Low: r.low, At: time.Unix(0, r.at).UTC()}, true
		}
	}
	return Rewind{}, false
}
