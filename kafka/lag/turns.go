package lag

import (
	"math"
	"slices"
	"time"
)

// turns is what a partition's latest three turns showed: a member serving
// its partitions in turn commits each several times in its turn, then
// leaves it for the others' (rhythm.moved says which commit began one).
// Its group keeps it beside its partitions' records (groupHist.turns),
// for the few partitions served in turn: 32 bytes each, none for the
// rest.
type turns struct {
	// at is when the newest began (Unix seconds), round the seconds
	// between the two newest beginnings (saturating).
	at    uint32
	round uint16
	// n is how many of tl and lag hold a turn (up to 3).
	n uint8
	// tl and lag are the partition's time lag (seconds; negative until
	// known) and lag (saturating) at the commits that began them,
	// oldest first; end is the time lag at the commit before the newest
	// began (the previous turn's last; negative when unknown).
	tl  [3]float32
	end float32
	lag [3]uint16
}

// heldTurns is a partition's turns in its group's record.
type heldTurns struct {
	topic     uint32
	partition int32
	turns
}

// turnsOf returns ph's turns (nil: none seen).
func (gh *groupHist) turnsOf(ph *partHist) *turns {
	for i := range gh.turns {
		if t := &gh.turns[i]; t.topic == ph.topic && t.partition == ph.partition {
			return &t.turns
		}
	}
	return nil
}

// noteTurn notes that ph's commit at t began a turn, with its time lag
// tl (negative when unknown) and lag then, and before the time lag at the
// commit before it.
func (gh *groupHist) noteTurn(ph *partHist, t int64, tl float64, lag int64, before float32) {
	tu := gh.turnsOf(ph)
	if tu == nil {
		gh.turns = append(gh.turns, heldTurns{topic: ph.topic, partition: ph.partition})
		tu = &gh.turns[len(gh.turns)-1].turns
	}
	sec := uint32(min(max(t/int64(time.Second), 0), math.MaxUint32))
	tu.round = 0
	if tu.n > 0 {
		tu.round = uint16(min(sec-tu.at, math.MaxUint16))
	}
	tu.at, tu.end = sec, before
	copy(tu.tl[:], tu.tl[1:])
	copy(tu.lag[:], tu.lag[1:])
	tu.tl[2], tu.lag[2] = float32(tl), uint16(min(max(lag, 0), math.MaxUint16))
	tu.n = min(tu.n+1, 3)
}

// fill gives the newest turn the time lag tl of the commit at now, when
// that commit began it and its time lag waited for the record read after
// its poll (History.fillTrend).
func (tu *turns) fill(now int64, tl float32) {
	if tu != nil && tu.n > 0 && int64(tu.at) == now/int64(time.Second) && tu.tl[2] < 0 {
		tu.tl[2] = tl
	}
}

// forgetTurns drops ph's turns, with its history (pruneAbsent, and
// replaced.go where its log was replaced).
func (gh *groupHist) forgetTurns(ph *partHist) {
	gh.turns = slices.DeleteFunc(gh.turns, func(t heldTurns) bool {
		return t.topic == ph.topic && t.partition == ph.partition
	})
	if len(gh.turns) == 0 {
		gh.turns = nil
	}
}

// climb reports whether the partition's latest three turns (nil: none)
// each began further behind than the one before: in time lag by more
// than half of noise from each to the next and by more than noise over
// the three, and in records by more than lagNeed over the three. The
// newest began within RhythmFactor rounds (the time between the last
// two) of the partition's newest commit (newest, with time lag tl): the
// turns are its pace now. And that commit read records older, by more
// than half of noise, than the previous turn's last commit did: a member
// that catches up drains its partitions further each turn. Within a turn
// the time lag falls, commit after commit, as the member works the
// backlog off; a member slower than its producers starts each turn
// further behind, one that keeps up about a round behind, give or take a
// record's spacing (noise). Two turns are one step: a member working off
// another partition's backlog in big fetches makes its others wait
// longer once.
func (tu *turns) climb(newest int64, tl, noise, lagNeed float64) bool {
	if tu == nil || tu.n < 3 {
		return false
	}
	a, b, c := float64(tu.tl[0]), float64(tu.tl[1]), float64(tu.tl[2])
	if a < 0 || b < 0 || c < 0 || tu.end < 0 || tl-float64(tu.end) <= noise/2 {
		return false
	}
	if newest-int64(tu.at)*int64(time.Second) > RhythmFactor*int64(tu.round)*int64(time.Second) {
		return false
	}
	return b-a > noise/2 && c-b > noise/2 && c-a > noise && float64(tu.lag[2])-float64(tu.lag[0]) > lagNeed
}

// step reports whether the partition's two latest turns (nil: none)
// show a step that climb cannot tell from a climb yet: the newer began
// further behind than the one before, by more than noise in time lag
// and by more than lagNeed in records, within RhythmFactor rounds of the
// newest commit (newest, with time lag tl), which did not read records
// newer than the previous turn's last did by more than half of noise (a
// member that catches up drains each turn further). Its next turn
// tells: it waits (WaitTurnStep), never OK meanwhile. A turn drained as
// far as the one before tells nothing: a member that drains each
// partition about caught up in its turn does so whether it keeps pace
// or falls behind, and only where the next turn begins says which.
func (tu *turns) step(newest int64, tl, noise, lagNeed float64) bool {
	if tu == nil || tu.n < 2 {
		return false
	}
	b, c := float64(tu.tl[1]), float64(tu.tl[2])
	if b < 0 || c < 0 || tu.end < 0 || tl-float64(tu.end) < -noise/2 {
		return false
	}
	if newest-int64(tu.at)*int64(time.Second) > RhythmFactor*int64(tu.round)*int64(time.Second) {
		return false
	}
	return c-b > noise && float64(tu.lag[2])-float64(tu.lag[1]) > lagNeed
}
