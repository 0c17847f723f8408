package rebalance

import (
	"strconv"
	"strings"

	"github.com/kgroups/kgroups/kafka"
)

// RoundKind says what one rebalance round did to the partitions, counted
// by process (see Reassign).
type RoundKind string

const (
	// RoundRevoke took partitions from their owners and gave them to
	// nobody yet: the first round of a cooperative (incremental)
	// rebalance.
	RoundRevoke RoundKind = "revoke"
	// RoundAssign gave partitions that nobody owned, and took none away.
	RoundAssign RoundKind = "assign"
	// RoundMove moved partitions from one process to another (an eager
	// round, or rounds no read saw).
	RoundMove RoundKind = "reassign"
	// RoundRejoin changed no partition's process: members only rejoined.
	RoundRejoin RoundKind = "rejoin"
)

// Round is one generation (classic groups) or group epoch (KIP-848
// groups) first seen Stable while Wait polled.
type Round struct {
	Generation int32     `json:"generation"`
	Kind       RoundKind `json:"kind"`
}

// Rounds are the rebalance rounds counted from the generations Wait saw.
// A classic group's generation is read from its members' subscription
// metadata (ConsumerMemberMetadata v2+ carries the generation each member
// last had; the group's is one more than the highest), a KIP-848 group's
// from its group epoch. Only Stable reads count: a rebalancing group's
// describe carries no assignment.
type Rounds struct {
	// Known is false when no generation could be read before and after
	// (old clients send no generation; members that all rejoined from
	// scratch send -1).
	Known bool `json:"known"`
	// From and To are the first and last generations seen.
	From int32 `json:"fromGeneration"`
	To   int32 `json:"toGeneration"`
	// Seen are the rounds seen, one per new generation, in order.
	Seen []Round `json:"rounds"`
	// MayBeMissed is set when the generation rose by more than one
	// between two reads: rounds happened that no read saw.
	MayBeMissed bool `json:"roundsMayBeMissed"`
}

// Count is the number of rounds seen.
func (r Rounds) Count() int { return len(r.Seen) }

// String says the rounds in words: "2 rounds (incremental revoke, then
// assign)", "1 round (assign)"; "" when not known.
func (r Rounds) String() string {
	if !r.Known {
		return ""
	}
	n := len(r.Seen)
	s := strconv.Itoa(n) + " round"
	if n != 1 {
		s += "s"
	}
	if n == 0 {
		return s
	}
	kinds := make([]string, n)
	for i, rd := range r.Seen {
		kinds[i] = string(rd.Kind)
		if rd.Kind == RoundRevoke {
			kinds[i] = "incremental revoke"
		}
	}
	return s + " (" + strings.Join(kinds, ", then ") + ")"
}

// Sentence says the rounds as the removal result and dialog show them:
// "the group rebalanced in 2 rounds (incremental revoke, then assign),
// generation 7 to 9", with "; rounds may have been missed between reads:
// the generation rose by more than 1 between two of them" when a read
// skipped a generation. "" when no generation could be read.
func (r Rounds) Sentence() string {
	if !r.Known {
		return ""
	}
	var s string
	if len(r.Seen) == 0 {
		s = "the group did not rebalance while kgroups watched (generation " + strconv.Itoa(int(r.From)) + ")"
	} else {
		s = "the group rebalanced in " + r.String() + ", generation " + strconv.Itoa(int(r.From)) + " to " + strconv.Itoa(int(r.To))
	}
	if r.MayBeMissed {
		s += "; rounds may have been missed between reads: the generation rose by more than 1 between two of them"
	}
	return s
}

// roundCounter turns a sequence of group reads into Rounds.
type roundCounter struct {
	r    Rounds
	last []kafka.Member
	gen  int32
	seen bool
}

// observe reads one describe of the group. Reads that are not Stable, or
// whose generation cannot be read, or is not newer than the last, are
// skipped.
func (c *roundCounter) observe(g *kafka.Group) {
	if g == nil || g.State != kafka.StateStable {
		return
	}
	gen, ok := Generation(g)
	if !ok {
		return
	}
	if !c.seen {
		c.seen, c.gen, c.last = true, gen, g.Members
		c.r.From, c.r.To = gen, gen
		return
	}
	// A second read with a generation: the rounds are known, none or
	// some. One read alone says nothing of what came after it (a lone
	// member that rejoined from scratch carries no generation).
	c.r.Known = true
	if gen <= c.gen {
		return
	}
	if gen-c.gen > 1 {
		c.r.MayBeMissed = true
	}
	c.r.Seen = append(c.r.Seen, Round{Generation: gen, Kind: roundKind(c.last, g.Members)})
	c.gen, c.last, c.r.To = gen, g.Members, gen
}

// result is the rounds counted; Known only when a generation was seen
// after the first.
func (c *roundCounter) result() Rounds {
	r := c.r
	r.Seen = append([]Round(nil), r.Seen...)
	return r
}

// roundKind classifies what changed between two Stable reads, by process.
func roundKind(before, after []kafka.Member) RoundKind {
	cnt := Count(Reassign(before, after).Moves)
	switch {
	case cnt.Moved == 0 && cnt.Assigned == 0 && cnt.Unassigned == 0:
		return RoundRejoin
	case cnt.Moved == 0 && cnt.Assigned == 0:
		return RoundRevoke
	case cnt.Moved == 0 && cnt.Unassigned == 0:
		return RoundAssign
	}
	return RoundMove
}

// Generation is the group's current generation as its describe shows it:
// the group epoch of a KIP-848 group; for a classic group, one more than
// the highest generation its members' subscription metadata carries. It
// is false when no member carries one (metadata before v2, or every
// member joined from scratch).
func Generation(g *kafka.Group) (int32, bool) {
	if g.Type == kafka.TypeConsumer {
		return g.GroupEpoch, g.GroupEpoch > 0
	}
	best, ok := int32(-1), false
	for i := range g.Members {
		l := layoutOf(g.Members[i].JoinMetadata)
		if l.OK && l.Version >= 2 && l.Generation >= 0 && l.Generation >= best {
			best, ok = l.Generation, true
		}
	}
	return best + 1, ok
}
