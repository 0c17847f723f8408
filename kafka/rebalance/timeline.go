package rebalance

import (
	"slices"
	"sort"
	"time"

	"github.com/kgroups/kgroups/kafka"
)

// EventKind says what an Event records.
type EventKind string

// The kinds of timeline events.
const (
	// EventState: the group's state changed (From -> To).
	EventState EventKind = "state"
	// EventJoined and EventLeft: a member id appeared or disappeared.
	EventJoined EventKind = "joined"
	EventLeft   EventKind = "left"
	// EventAssignment: which process owns which partition changed, or
	// members rejoined with new ids, between two settled (Stable or
	// Empty) observations (see Reassign).
	EventAssignment EventKind = "assignment"
	// EventEpoch: a KIP-848 group's group or assignment epoch changed.
	EventEpoch EventKind = "epoch"
	// EventRebalance: a rebalance finished; Duration says how long it took.
	EventRebalance EventKind = "rebalance"
)

// Event is one thing the timeline saw happen to a group. Only the fields of
// its Kind are set.
type Event struct {
	// Time is the time of the snapshot that showed the change.
	Time time.Time
	Kind EventKind

	// EventState.
	From, To string

	// EventJoined and EventLeft.
	MemberID, InstanceID, ClientID, Host string

	// EventAssignment: partitions that went from one process to
	// another, that nobody owned before, and that nobody owns now; Total
	// is the number of partitions assigned afterwards. Rejoined counts
	// members that came back as the same process under a new member id
	// (see Reassign): with Moved 0, they kept their partitions.
	Moved, Assigned, Unassigned, Total int
	Rejoined                           int

	// EventEpoch (KIP-848 groups).
	PrevGroupEpoch, GroupEpoch           int32
	PrevAssignmentEpoch, AssignmentEpoch int32

	// EventRebalance. Duration runs from the first snapshot that saw the
	// group rebalancing to the first that saw it Stable again, so it is
	// only as precise as the poll interval. Between means the whole
	// rebalance happened between two polls (Duration is 0: shorter than
	// one interval). AtLeast means the group was already rebalancing when
	// first seen, so Duration is a lower bound.
	Duration time.Duration
	Between  bool
	AtLeast  bool
}

// Status is a group's rebalance status for lists: whether it is
// rebalancing now and when it last finished one.
type Status struct {
	State string
	// Rebalancing is true while the group is in PreparingRebalance,
	// CompletingRebalance, Assigning or Reconciling; Since is when that
	// was first seen.
	Rebalancing bool
	Since       time.Time
	// LastRebalance is when the last rebalance was seen to finish (zero
	// if none was seen), and LastDuration how long it took.
	LastRebalance time.Time
	LastDuration  time.Duration
}

// TimelineConfig bounds a Timeline's memory.
type TimelineConfig struct {
	// Events is how many events each group keeps; older ones are
	// dropped. Default 100.
	Events int
	// EvictAfter is how many polls a group may be missing from the
	// snapshots before it is forgotten. Default 60.
	EvictAfter int
}

// Defaults for TimelineConfig.
const (
	DefaultTimelineEvents     = 100
	DefaultTimelineEvictAfter = 60
)

func (c TimelineConfig) normalize() TimelineConfig {
	if c.Events <= 0 {
		c.Events = DefaultTimelineEvents
	}
	if c.EvictAfter <= 0 {
		c.EvictAfter = DefaultTimelineEvictAfter
	}
	return c
}

// Timeline turns successive snapshots into per-group events: state changes,
// members joining and leaving, partitions changing owner, KIP-848 epoch
// changes and rebalance durations. Kafka keeps none of this history: the
// coordinator only knows the present, so the timeline is the only way to
// see what a rebalance did after it happened.
//
// Memory is bounded however long kgroups runs: per group, a ring of at most
// Events events plus the last observation (member ids and the owner of each
// assigned partition); groups missing for EvictAfter polls are forgotten.
//
// A Timeline is not safe for concurrent use: one goroutine (the UI's Update
// loop, or a command's polling loop) both adds snapshots and reads it.
type Timeline struct {
	cfg    TimelineConfig
	seq    uint64
	last   time.Time
	groups map[string]*track
}

// NewTimeline returns an empty timeline. Zero fields of cfg take defaults.
func NewTimeline(cfg TimelineConfig) *Timeline {
	return &Timeline{cfg: cfg.normalize(), groups: make(map[string]*track)}
}

// track is what the timeline remembers about one group.
type track struct {
	seen uint64 // seq of the last snapshot that had the group

	observed        bool // state and members below are set
	state           string
	members         map[string]kafka.Member // id -> member (assignment dropped)
	groupEpoch      int32
	assignmentEpoch int32

	// settled are the members, with their assignments, at the last
	// Stable or Empty observation: assignments are compared only between
	// settled observations, since mid-rebalance a classic group may
	// report empty or stale assignments.
	settled    []kafka.Member
	hasSettled bool

	rebalancing   bool
	since         time.Time
	atLeast       bool
	lastRebalance time.Time
	lastDuration  time.Duration

	ring []Event
	head int // index of the oldest event once the ring is full
}

func (tr *track) add(limit int, e Event) {
	if len(tr.ring) < limit {
		tr.ring = append(tr.ring, e)
		return
	}
	tr.ring[tr.head] = e
	tr.head = (tr.head + 1) % limit
}

// Rebalancing reports whether a group in state s is mid-rebalance:
// PreparingRebalance, CompletingRebalance, Assigning or Reconciling.
func Rebalancing(s string) bool { return rebalancingState(s) }

// rebalancingState reports whether a group in state s is mid-rebalance.
func rebalancingState(s string) bool {
	switch s {
	case kafka.StatePreparingRebalance, kafka.StateCompletingRebalance, kafka.StateAssigning, kafka.StateReconciling:
		return true
	}
	return false
}

// settledState reports whether assignments in state s are final.
func settledState(s string) bool {
	return s == kafka.StateStable || s == kafka.StateEmpty
}

// Add records one snapshot. Snapshots must arrive in time order: a nil
// snapshot, or one not later than the previous, is ignored.
//
// A group whose poll carries an error is counted as seen but not compared:
// a failed describe reports no members, and taking that at face value would
// invent a mass departure.
func (t *Timeline) Add(s *kafka.Snapshot) {
	if s == nil || (!t.last.IsZero() && !s.Time.After(t.last)) {
		return
	}
	t.seq++
	t.last = s.Time
	for i := range s.Groups {
		g := &s.Groups[i]
		tr := t.groups[g.Name]
		if tr == nil {
			tr = &track{}
			t.groups[g.Name] = tr
		}
		tr.seen = t.seq
		if g.Err != nil {
			continue
		}
		t.observe(tr, g, s.Time)
	}
	for name, tr := range t.groups {
		if t.seq-tr.seen >= uint64(t.cfg.EvictAfter) {
			delete(t.groups, name)
		}
	}
}

func (t *Timeline) observe(tr *track, g *kafka.Group, now time.Time) {
	members := make(map[string]kafka.Member, len(g.Members))
	for _, m := range g.Members {
		m.Assignment, m.Target, m.JoinMetadata = nil, nil, nil
		members[m.MemberID] = m
	}
	if !tr.observed {
		// First sight: a baseline, not a change.
		tr.observed = true
		tr.state, tr.members = g.State, members
		tr.groupEpoch, tr.assignmentEpoch = g.GroupEpoch, g.AssignmentEpoch
		if settledState(g.State) {
			tr.settled, tr.hasSettled = settledMembers(g.Members), true
		}
		if rebalancingState(g.State) {
			tr.rebalancing, tr.since, tr.atLeast = true, now, true
		}
		return
	}
	limit := t.cfg.Events
	prevState := tr.state

	if g.State != prevState {
		tr.add(limit, Event{Time: now, Kind: EventState, From: prevState, To: g.State})
	}

	var left, joined []string
	for id := range tr.members {
		if _, ok := members[id]; !ok {
			left = append(left, id)
		}
	}
	for id := range members {
		if _, ok := tr.members[id]; !ok {
			joined = append(joined, id)
		}
	}
	sort.Strings(left)
	sort.Strings(joined)
	for _, id := range left {
		tr.add(limit, memberEvent(now, EventLeft, tr.members[id]))
	}
	for _, id := range joined {
		tr.add(limit, memberEvent(now, EventJoined, members[id]))
	}

	epochChanged := g.GroupEpoch != tr.groupEpoch || g.AssignmentEpoch != tr.assignmentEpoch
	if epochChanged {
		tr.add(limit, Event{Time: now, Kind: EventEpoch,
			PrevGroupEpoch: tr.groupEpoch, GroupEpoch: g.GroupEpoch,
			PrevAssignmentEpoch: tr.assignmentEpoch, AssignmentEpoch: g.AssignmentEpoch})
	}

	var moved bool
	if settledState(g.State) {
		if tr.hasSettled {
			if r := Reassign(tr.settled, g.Members); len(r.Moves) > 0 || r.Rejoined > 0 {
				moved = true
				c := Count(r.Moves)
				tr.add(limit, Event{Time: now, Kind: EventAssignment,
					Moved: c.Moved, Assigned: c.Assigned, Unassigned: c.Unassigned, Total: len(ownersOf(g.Members)),
					Rejoined: r.Rejoined})
			}
		}
		tr.settled, tr.hasSettled = settledMembers(g.Members), true
	}

	switch {
	case rebalancingState(g.State) && !tr.rebalancing:
		tr.rebalancing, tr.since, tr.atLeast = true, now, false
	case tr.rebalancing && g.State == kafka.StateStable:
		d := now.Sub(tr.since)
		tr.add(limit, Event{Time: now, Kind: EventRebalance, Duration: d, AtLeast: tr.atLeast})
		tr.rebalancing, tr.lastRebalance, tr.lastDuration = false, now, d
	case tr.rebalancing && !rebalancingState(g.State):
		// Empty or Dead: every member left, so the rebalance was
		// abandoned rather than finished.
		tr.rebalancing = false
	case settledState(prevState) && g.State == kafka.StateStable &&
		(len(left) > 0 || len(joined) > 0 || epochChanged || moved):
		// The group rebalanced (or formed) and settled again between
		// two polls.
		tr.add(limit, Event{Time: now, Kind: EventRebalance, Between: true})
		tr.lastRebalance, tr.lastDuration = now, 0
	}

	tr.state, tr.members = g.State, members
	tr.groupEpoch, tr.assignmentEpoch = g.GroupEpoch, g.AssignmentEpoch
}

// settledMembers keeps what Reassign reads of members: ids, client,
// host and assignment.
func settledMembers(ms []kafka.Member) []kafka.Member {
	out := make([]kafka.Member, len(ms))
	for i, m := range ms {
		out[i] = kafka.Member{MemberID: m.MemberID, InstanceID: m.InstanceID, ClientID: m.ClientID, Host: m.Host, Assignment: m.Assignment}
	}
	return out
}

func memberEvent(now time.Time, kind EventKind, m kafka.Member) Event {
	return Event{Time: now, Kind: kind, MemberID: m.MemberID, InstanceID: m.InstanceID, ClientID: m.ClientID, Host: m.Host}
}

// Events appends the group's remembered events to dst[:0], oldest first.
func (t *Timeline) Events(group string, dst []Event) []Event {
	dst = dst[:0]
	tr := t.groups[group]
	if tr == nil {
		return dst
	}
	dst = append(dst, tr.ring[tr.head:]...)
	return append(dst, tr.ring[:tr.head]...)
}

// Status returns the group's rebalance status, and false when the group has
// not been seen.
func (t *Timeline) Status(group string) (Status, bool) {
	tr := t.groups[group]
	if tr == nil || !tr.observed {
		return Status{}, false
	}
	st := Status{
		State:         tr.state,
		Rebalancing:   tr.rebalancing,
		LastRebalance: tr.lastRebalance,
		LastDuration:  tr.lastDuration,
	}
	if tr.rebalancing {
		st.Since = tr.since
	}
	return st, true
}

// Groups returns how many groups are remembered.
func (t *Timeline) Groups() int { return len(t.groups) }

// Config returns the configuration in effect, after defaults.
func (t *Timeline) Config() TimelineConfig { return t.cfg }

// CopyFrom makes t a copy of src: the same groups, statuses and events,
// in t's own tracks, so that t can take polls while src is read. The
// members a track remembers are shared: a poll replaces them, never
// changes them in place. src must not be written while t copies it.
func (t *Timeline) CopyFrom(src *Timeline) {
	t.cfg, t.seq, t.last = src.cfg, src.seq, src.last
	if len(t.groups) == 0 && len(src.groups) > 0 {
		// A new timeline (the UI's judging job makes one each poll):
		// the tracks in one block, one allocation rather than one a
		// group.
		trs := make([]track, len(src.groups))
		t.groups = make(map[string]*track, len(src.groups))
		i := 0
		for name, st := range src.groups {
			tr := &trs[i]
			i++
			*tr = *st
			tr.ring = nil
			if len(st.ring) > 0 {
				tr.ring = slices.Clone(st.ring)
			}
			t.groups[name] = tr
		}
		return
	}
	for name := range t.groups {
		if _, ok := src.groups[name]; !ok {
			delete(t.groups, name)
		}
	}
	for name, st := range src.groups {
		tr := t.groups[name]
		if tr == nil {
			tr = &track{}
			t.groups[name] = tr
		}
		ring := append(tr.ring[:0], st.ring...)
		*tr = *st
		tr.ring = ring
	}
}
