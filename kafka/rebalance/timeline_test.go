package rebalance

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kgroups/kgroups/kafka"
)

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func at(sec int) time.Time { return t0.Add(time.Duration(sec) * time.Second) }

// mem builds a member; each assignment is "topic:p,p,...".
func mem(id, client string, assignment ...string) kafka.Member {
	m := kafka.Member{MemberID: id, ClientID: client, Host: "/10.0.0.1"}
	for _, a := range assignment {
		topic, ps, _ := strings.Cut(a, ":")
		tp := kafka.TopicPartitions{Topic: topic}
		for _, p := range strings.Split(ps, ",") {
			if p == "" {
				continue
			}
			n, err := strconv.Atoi(p)
			if err != nil {
				panic(err)
			}
			tp.Partitions = append(tp.Partitions, int32(n))
		}
		m.Assignment = append(m.Assignment, tp)
	}
	return m
}

func classic(name, state string, members ...kafka.Member) kafka.Group {
	return kafka.Group{Name: name, Type: kafka.TypeClassic, State: state, Members: members}
}

func consumer(name, state string, groupEpoch, assignmentEpoch int32, members ...kafka.Member) kafka.Group {
	return kafka.Group{Name: name, Type: kafka.TypeConsumer, State: state, GroupEpoch: groupEpoch, AssignmentEpoch: assignmentEpoch, Members: members}
}

func snap(sec int, groups ...kafka.Group) *kafka.Snapshot {
	return &kafka.Snapshot{Time: at(sec), Groups: groups}
}

func stateEv(sec int, from, to string) Event {
	return Event{Time: at(sec), Kind: EventState, From: from, To: to}
}

func memberEv(sec int, kind EventKind, id, client string) Event {
	return Event{Time: at(sec), Kind: kind, MemberID: id, ClientID: client, Host: "/10.0.0.1"}
}

func TestTimeline(t *testing.T) {
	const g = "orders-app"
	tests := []struct {
		name   string
		snaps  []*kafka.Snapshot
		want   []Event
		status Status
	}{
		{
			name: "a removed member rejoins with a new id and partitions move",
			snaps: []*kafka.Snapshot{
				snap(0, classic(g, kafka.StateStable, mem("a", "ca", "t:0,1,2"), mem("b", "cb", "t:3,4,5"))),
				snap(1, classic(g, kafka.StatePreparingRebalance, mem("b", "cb", "t:3,4,5"))),
				snap(3, classic(g, kafka.StateStable, mem("a2", "ca", "t:3,4,5"), mem("b", "cb", "t:0,1,2"))),
			},
			want: []Event{
				stateEv(1, kafka.StateStable, kafka.StatePreparingRebalance),
				memberEv(1, EventLeft, "a", "ca"),
				stateEv(3, kafka.StatePreparingRebalance, kafka.StateStable),
				memberEv(3, EventJoined, "a2", "ca"),
				// a2 is client ca again: one member rejoined with a
				// new id, and all six partitions changed process.
				{Time: at(3), Kind: EventAssignment, Moved: 6, Total: 6, Rejoined: 1},
				{Time: at(3), Kind: EventRebalance, Duration: 2 * time.Second},
			},
			status: Status{State: kafka.StateStable, LastRebalance: at(3), LastDuration: 2 * time.Second},
		},
		{
			name: "only the partitions whose owner changed count as moved",
			snaps: []*kafka.Snapshot{
				snap(0, classic(g, kafka.StateStable, mem("a", "ca", "t:0,1", "u:0"), mem("b", "cb", "t:2,3", "u:1"))),
				snap(1, classic(g, kafka.StateCompletingRebalance, mem("a", "ca"), mem("b", "cb"), mem("c", "cc"))),
				snap(2, classic(g, kafka.StateStable, mem("a", "ca", "t:0,1"), mem("b", "cb", "t:2", "u:1"), mem("c", "cc", "t:3", "u:0"))),
			},
			want: []Event{
				stateEv(1, kafka.StateStable, kafka.StateCompletingRebalance),
				memberEv(1, EventJoined, "c", "cc"),
				stateEv(2, kafka.StateCompletingRebalance, kafka.StateStable),
				{Time: at(2), Kind: EventAssignment, Moved: 2, Total: 6},
				{Time: at(2), Kind: EventRebalance, Duration: time.Second},
			},
			status: Status{State: kafka.StateStable, LastRebalance: at(2), LastDuration: time.Second},
		},
		{
			name: "empty assignments mid-rebalance are not moves",
			snaps: []*kafka.Snapshot{
				snap(0, classic(g, kafka.StateStable, mem("a", "ca", "t:0,1"), mem("b", "cb", "t:2,3"))),
				snap(1, classic(g, kafka.StatePreparingRebalance, mem("a", "ca"), mem("b", "cb"))),
				snap(2, classic(g, kafka.StateCompletingRebalance, mem("a", "ca"), mem("b", "cb"))),
				snap(5, classic(g, kafka.StateStable, mem("a", "ca", "t:0,1"), mem("b", "cb", "t:2,3"))),
			},
			want: []Event{
				stateEv(1, kafka.StateStable, kafka.StatePreparingRebalance),
				stateEv(2, kafka.StatePreparingRebalance, kafka.StateCompletingRebalance),
				stateEv(5, kafka.StateCompletingRebalance, kafka.StateStable),
				{Time: at(5), Kind: EventRebalance, Duration: 4 * time.Second},
			},
			status: Status{State: kafka.StateStable, LastRebalance: at(5), LastDuration: 4 * time.Second},
		},
		{
			name: "a rebalance between two polls",
			snaps: []*kafka.Snapshot{
				snap(0, classic(g, kafka.StateStable, mem("a", "ca", "t:0,1"), mem("b", "cb", "t:2,3"))),
				snap(1, classic(g, kafka.StateStable, mem("a", "ca", "t:0,1"), mem("c", "cc", "t:2,3"))),
			},
			want: []Event{
				memberEv(1, EventLeft, "b", "cb"),
				memberEv(1, EventJoined, "c", "cc"),
				{Time: at(1), Kind: EventAssignment, Moved: 2, Total: 4},
				{Time: at(1), Kind: EventRebalance, Between: true},
			},
			status: Status{State: kafka.StateStable, LastRebalance: at(1)},
		},
		{
			name: "KIP-848 epochs through Assigning and Reconciling",
			snaps: []*kafka.Snapshot{
				snap(0, consumer(g, kafka.StateStable, 3, 3, mem("a", "ca", "t:0,1,2,3"))),
				snap(1, consumer(g, kafka.StateAssigning, 4, 3, mem("a", "ca", "t:0,1,2,3"), mem("b", "cb"))),
				snap(2, consumer(g, kafka.StateReconciling, 4, 4, mem("a", "ca", "t:0,1"), mem("b", "cb"))),
				snap(4, consumer(g, kafka.StateStable, 4, 4, mem("a", "ca", "t:0,1"), mem("b", "cb", "t:2,3"))),
			},
			want: []Event{
				stateEv(1, kafka.StateStable, kafka.StateAssigning),
				memberEv(1, EventJoined, "b", "cb"),
				{Time: at(1), Kind: EventEpoch, PrevGroupEpoch: 3, GroupEpoch: 4, PrevAssignmentEpoch: 3, AssignmentEpoch: 3},
				stateEv(2, kafka.StateAssigning, kafka.StateReconciling),
				{Time: at(2), Kind: EventEpoch, PrevGroupEpoch: 4, GroupEpoch: 4, PrevAssignmentEpoch: 3, AssignmentEpoch: 4},
				stateEv(4, kafka.StateReconciling, kafka.StateStable),
				{Time: at(4), Kind: EventAssignment, Moved: 2, Total: 4},
				{Time: at(4), Kind: EventRebalance, Duration: 3 * time.Second},
			},
			status: Status{State: kafka.StateStable, LastRebalance: at(4), LastDuration: 3 * time.Second},
		},
		{
			name: "KIP-848 epoch bump between polls",
			snaps: []*kafka.Snapshot{
				snap(0, consumer(g, kafka.StateStable, 3, 3, mem("a", "ca", "t:0,1"))),
				snap(1, consumer(g, kafka.StateStable, 5, 5, mem("a", "ca", "t:0,1"))),
			},
			want: []Event{
				{Time: at(1), Kind: EventEpoch, PrevGroupEpoch: 3, GroupEpoch: 5, PrevAssignmentEpoch: 3, AssignmentEpoch: 5},
				{Time: at(1), Kind: EventRebalance, Between: true},
			},
			status: Status{State: kafka.StateStable, LastRebalance: at(1)},
		},
		{
			name: "already rebalancing when first seen: the duration is a lower bound",
			snaps: []*kafka.Snapshot{
				snap(0, classic(g, kafka.StatePreparingRebalance, mem("a", "ca"))),
				snap(2, classic(g, kafka.StateStable, mem("a", "ca", "t:0"))),
			},
			want: []Event{
				stateEv(2, kafka.StatePreparingRebalance, kafka.StateStable),
				{Time: at(2), Kind: EventRebalance, Duration: 2 * time.Second, AtLeast: true},
			},
			status: Status{State: kafka.StateStable, LastRebalance: at(2), LastDuration: 2 * time.Second},
		},
		{
			name: "still rebalancing",
			snaps: []*kafka.Snapshot{
				snap(0, classic(g, kafka.StateStable, mem("a", "ca", "t:0"))),
				snap(1, classic(g, kafka.StatePreparingRebalance, mem("a", "ca", "t:0"))),
				snap(2, classic(g, kafka.StateCompletingRebalance, mem("a", "ca"))),
			},
			want: []Event{
				stateEv(1, kafka.StateStable, kafka.StatePreparingRebalance),
				stateEv(2, kafka.StatePreparingRebalance, kafka.StateCompletingRebalance),
			},
			status: Status{State: kafka.StateCompletingRebalance, Rebalancing: true, Since: at(1)},
		},
		{
			name: "every member leaves: Empty, partitions unassigned, no rebalance",
			snaps: []*kafka.Snapshot{
				snap(0, classic(g, kafka.StateStable, mem("a", "ca", "t:0,1"))),
				snap(1, classic(g, kafka.StatePreparingRebalance)),
				snap(2, classic(g, kafka.StateEmpty)),
			},
			want: []Event{
				stateEv(1, kafka.StateStable, kafka.StatePreparingRebalance),
				memberEv(1, EventLeft, "a", "ca"),
				stateEv(2, kafka.StatePreparingRebalance, kafka.StateEmpty),
				{Time: at(2), Kind: EventAssignment, Unassigned: 2, Total: 0},
			},
			status: Status{State: kafka.StateEmpty},
		},
		{
			name: "a group forming between polls counts as a rebalance",
			snaps: []*kafka.Snapshot{
				snap(0, classic(g, kafka.StateEmpty)),
				snap(1, classic(g, kafka.StateStable, mem("a", "ca", "t:0,1"))),
			},
			want: []Event{
				stateEv(1, kafka.StateEmpty, kafka.StateStable),
				memberEv(1, EventJoined, "a", "ca"),
				{Time: at(1), Kind: EventAssignment, Assigned: 2, Total: 2},
				{Time: at(1), Kind: EventRebalance, Between: true},
			},
			status: Status{State: kafka.StateStable, LastRebalance: at(1)},
		},
		{
			name: "a failed describe is not a mass departure",
			snaps: []*kafka.Snapshot{
				snap(0, classic(g, kafka.StateStable, mem("a", "ca", "t:0"), mem("b", "cb", "t:1"))),
				snap(1, kafka.Group{Name: g, Type: kafka.TypeClassic, State: kafka.StateStable, Err: errors.New("describe group: NOT_COORDINATOR")}),
				snap(2, classic(g, kafka.StateStable, mem("a", "ca", "t:0"), mem("b", "cb", "t:1"))),
			},
			status: Status{State: kafka.StateStable},
		},
		{
			name: "stale and repeated snapshots are ignored",
			snaps: []*kafka.Snapshot{
				snap(5, classic(g, kafka.StateStable, mem("a", "ca", "t:0"))),
				snap(4, classic(g, kafka.StatePreparingRebalance)),
				snap(5, classic(g, kafka.StateEmpty)),
			},
			status: Status{State: kafka.StateStable},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tl := NewTimeline(TimelineConfig{})
			for _, s := range tc.snaps {
				tl.Add(s)
			}
			got := tl.Events(g, nil)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("events:\n got %s\nwant %s", dumpEvents(got), dumpEvents(tc.want))
			}
			st, ok := tl.Status(g)
			if !ok {
				t.Fatalf("Status(%q) not found", g)
			}
			if st != tc.status {
				t.Errorf("status = %+v, want %+v", st, tc.status)
			}
		})
	}
}

func dumpEvents(es []Event) string {
	if len(es) == 0 {
		return "(none)"
	}
	var b strings.Builder
	for _, e := range es {
		b.WriteString("\n  ")
		b.WriteString(fmtEvent(e))
	}
	return b.String()
}

func fmtEvent(e Event) string {
	return e.Time.Format("15:04:05") + " " + string(e.Kind) + " " + e.From + "->" + e.To + " " + e.MemberID +
		" moved=" + strconv.Itoa(e.Moved) + " assigned=" + strconv.Itoa(e.Assigned) + " unassigned=" + strconv.Itoa(e.Unassigned) +
		" total=" + strconv.Itoa(e.Total) + " rejoined=" + strconv.Itoa(e.Rejoined) + " epochs=" + strconv.Itoa(int(e.PrevGroupEpoch)) + "/" + strconv.Itoa(int(e.GroupEpoch)) +
		"," + strconv.Itoa(int(e.PrevAssignmentEpoch)) + "/" + strconv.Itoa(int(e.AssignmentEpoch)) +
		" dur=" + e.Duration.String() + " between=" + strconv.FormatBool(e.Between) + " atLeast=" + strconv.FormatBool(e.AtLeast)
}

func TestTimelineRingKeepsTheNewestEvents(t *testing.T) {
	tl := NewTimeline(TimelineConfig{Events: 3})
	states := []string{kafka.StateStable, kafka.StatePreparingRebalance}
	for i := range 10 {
		tl.Add(snap(i, classic("g", states[i%2])))
	}
	got := tl.Events("g", nil)
	// Nine state changes and four rebalances happened after the
	// baseline; the newest three events are these.
	want := []Event{
		stateEv(8, kafka.StatePreparingRebalance, kafka.StateStable),
		{Time: at(8), Kind: EventRebalance, Duration: time.Second},
		stateEv(9, kafka.StateStable, kafka.StatePreparingRebalance),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n got %s\nwant %s", dumpEvents(got), dumpEvents(want))
	}
	// Reusing dst must not leak old entries.
	dst := make([]Event, 5)
	if got := tl.Events("g", dst); len(got) != 3 {
		t.Errorf("Events with a dirty dst returned %d events, want 3", len(got))
	}
}

func TestTimelineForgetsGroupsThatDisappear(t *testing.T) {
	tl := NewTimeline(TimelineConfig{EvictAfter: 2})
	tl.Add(snap(0, classic("gone", kafka.StateStable), classic("stays", kafka.StateStable)))
	tl.Add(snap(1, classic("stays", kafka.StateStable)))
	if n := tl.Groups(); n != 2 {
		t.Fatalf("after one missing poll %d groups remembered, want 2", n)
	}
	tl.Add(snap(2, classic("stays", kafka.StateStable)))
	if n := tl.Groups(); n != 1 {
		t.Fatalf("after two missing polls %d groups remembered, want 1", n)
	}
	if _, ok := tl.Status("gone"); ok {
		t.Error("the evicted group still has a status")
	}
	if got := tl.Events("gone", nil); len(got) != 0 {
		t.Errorf("the evicted group still has %d events", len(got))
	}
}

// TestTimelineCopies feeds one timeline every poll, and a pair the way
// the UI does: each poll goes into a fresh copy of the other
// (CopyFrom), which then takes its place. The original answers as before
// the copy took the poll, and the copies answer as the one timeline,
// through rebalances, member changes and a ring of events that wraps.
func TestTimelineCopies(t *testing.T) {
	states := []string{kafka.StateStable, kafka.StatePreparingRebalance, kafka.StateCompletingRebalance, kafka.StateStable, kafka.StateEmpty}
	members := [][]kafka.Member{
		{mem("a", "ca", "t:0,1"), mem("b", "cb", "t:2,3")},
		{mem("a", "ca")},
		{mem("a", "ca"), mem("c", "cc")},
		{mem("a", "ca", "t:0,1,2"), mem("c", "cc", "t:3")},
		nil,
	}
	cfg := TimelineConfig{Events: 4}
	one, front := NewTimeline(cfg), NewTimeline(cfg)
	type answers struct {
		events []Event
		status Status
		ok     bool
	}
	read := func(tl *Timeline) []answers {
		var as []answers
		for _, g := range []string{"g", "h"} {
			st, ok := tl.Status(g)
			as = append(as, answers{tl.Events(g, nil), st, ok})
		}
		return as
	}
	for i := range 40 {
		s := snap(i, classic("g", states[i%len(states)], members[i%len(members)]...))
		if i%7 < 5 {
			s.Groups = append(s.Groups, classic("h", states[(i+2)%len(states)], members[(i+1)%len(members)]...))
		}
		one.Add(s)
		before := read(front)
		back := NewTimeline(cfg)
		back.CopyFrom(front)
		back.Add(s)
		if got := read(front); !reflect.DeepEqual(got, before) {
			t.Fatalf("poll %d: the original changed when its copy took the poll:\n%+v\nbefore\n%+v", i, got, before)
		}
		front = back
		if got, want := read(front), read(one); !reflect.DeepEqual(got, want) {
			t.Fatalf("poll %d: the copy answers\n%+v\nthe one timeline\n%+v", i, got, want)
		}
	}
	if len(one.Events("g", nil)) < cfg.Events {
		t.Fatal("the ring of events never filled")
	}
}
