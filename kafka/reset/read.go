package reset

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/kgroups/kgroups/kafka"
)

// Request asks for a reset plan.
type Request struct {
	Group    string
	Scenario Scenario
	Scope    Scope
	// Type is the group's type when the cluster does not know the group
	// (undo of a deleted share group); a group that exists is read with
	// its own type.
	Type kafka.GroupType
	// NewGroup allows planning for a group that does not exist, which
	// applying creates. Without it an unknown group is an error, so that a
	// typo in the group's name cannot create a stray group.
	NewGroup bool
	// Now is the clock for by-duration and the plan's time; zero means
	// time.Now().
	Now time.Time
}

// Prepare reads the group and the logs of the partitions in scope and builds
// the plan. It only reads: describe, offset fetch, metadata and list
// offsets. It never joins the group or talks to its members, so a dry run
// disturbs nothing.
func Prepare(ctx context.Context, cl *kafka.Client, req Request) (*Plan, error) {
	p, err := prepare(ctx, cl, req)
	logPlan(ctx, cl, "reset", p, err)
	return p, err
}

func prepare(ctx context.Context, cl *kafka.Client, req Request) (*Plan, error) {
	if req.Group == "" {
		return nil, errors.New("a group name cannot be empty")
	}
	if err := req.Scenario.Validate(); err != nil {
		return nil, err
	}
	if req.Scenario.NeedsScope() && req.Scope.IsZero() {
		return nil, errors.New("no scope: give --all-topics or one or more --topic TOPIC[:P,...]")
	}
	now := req.Now
	if now.IsZero() {
		now = time.Now()
	}
	in, err := readGroup(ctx, cl, req.Group)
	if err != nil {
		return nil, err
	}
	if !in.Exists && !req.NewGroup && req.Scenario.Kind != Undo {
		return nil, &GroupNotFoundError{Group: req.Group}
	}
	if err := checkGroupType(&in, req); err != nil {
		return nil, err
	}
	in.Now = now
	if !in.Exists && req.Type == kafka.TypeShare {
		in.Type = kafka.TypeShare
	}
	if in.Type == kafka.TypeShare && !ShareAccepts(req.Scenario.Kind) {
		return nil, &ShareScenarioError{Group: req.Group, Kind: req.Scenario.Kind}
	}

	topicSet := make(map[string]bool)
	switch {
	case req.Scenario.Kind == FromFile || req.Scenario.Kind == Undo:
		for _, r := range req.Scenario.Rows {
			topicSet[r.Topic] = true
		}
	case req.Scope.AllTopics:
		for tp := range in.Committed {
			topicSet[tp.Topic] = true
		}
		for tp := range in.Uninitialized {
			topicSet[tp.Topic] = true
		}
	default:
		for _, ts := range req.Scope.Topics {
			topicSet[ts.Topic] = true
		}
	}
	topics := make([]string, 0, len(topicSet))
	for t := range topicSet {
		topics = append(topics, t)
	}
	sort.Strings(topics)

	switch req.Scenario.Kind {
	case ToDatetime:
		in.Time = req.Scenario.Time
	case ByDuration:
		in.Time = now.Add(-req.Scenario.Duration)
	}
	if err := readLogs(ctx, cl, topics, req.Scenario.ByTime(), &in); err != nil {
		return nil, err
	}
	p, err := Build(in, req.Scenario, req.Scope)
	if err != nil {
		return nil, err
	}
	if p.Type == kafka.TypeShare {
		if err := checkSharePlan(in, p); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// readGroup polls one group: whether it exists, its state and members, and
// its commits. A group the cluster could only partly describe is an error:
// a plan must not rest on a guess.
func readGroup(ctx context.Context, cl *kafka.Client, group string) (Inputs, error) {
	in := Inputs{Group: group, Committed: make(map[TP]int64)}
	snap, err := cl.PollGroups(ctx, group)
	if err != nil {
		return in, fmt.Errorf("read group %q: %w", group, err)
	}
	g, ok := snap.Group(group)
	if !ok && snap.ListErr != nil {
		return in, fmt.Errorf("read group %q: it is not listed, but the listing is incomplete: %w", group, snap.ListErr)
	}
	if !ok || g.Type == kafka.TypeShare {
		// The poll describes consumer groups; a share group is read
		// on its own path.
		if typ, found, err := GroupTypeOf(ctx, cl, group); err != nil {
			return in, fmt.Errorf("read group %q: %w", group, err)
		} else if found && typ == kafka.TypeShare {
			return readShareGroup(ctx, cl, group)
		}
	}
	in.Exists = groupExists(g, ok)
	if !in.Exists {
		return in, nil
	}
	if g.Err != nil {
		return in, fmt.Errorf("read group %q: %w", group, g.Err)
	}
	in.State = g.State
	in.Type = g.Type
	in.Members = g.Members
	in.Type = g.Type
	in.Streams = g.Streams
	for _, p := range g.Partitions {
		if p.HasCommit() {
			in.Committed[TP{p.Topic, p.Partition}] = p.Committed
		}
	}
	return in, nil
}

// readLogs lists the topics' partitions and log bounds (and for by-time
// scenarios, the offsets at in.Time) into in. Topics that do not exist are
// left out, for Build to report.
func readLogs(ctx context.Context, cl *kafka.Client, topics []string, byTime bool, in *Inputs) error {
	in.Partitions = make(map[string]int32)
	in.LogStart = make(map[TP]int64)
	in.LogEnd = make(map[TP]int64)
	in.AtTime = make(map[TP]int64)
	if len(topics) == 0 {
		return nil
	}
	adm := cl.Admin()
	tctx, cancel := context.WithTimeout(ctx, cl.Timeout())
	defer cancel()
	details, err := adm.ListTopics(tctx, topics...)
	if err != nil {
		return fmt.Errorf("describe topics: %w", err)
	}
	var existing []string
	for _, t := range topics {
		td, ok := details[t]
		if !ok || errors.Is(td.Err, kerr.UnknownTopicOrPartition) {
			continue
		}
		if td.Err != nil {
			return fmt.Errorf("describe topic %q: %w", t, td.Err)
		}
		in.Partitions[t] = int32(len(td.Partitions))
		existing = append(existing, t)
	}
	if len(existing) == 0 {
		return nil
	}
	fill := func(what string, dst map[TP]int64, listed kadm.ListedOffsets, err error) error {
		if err != nil {
			return fmt.Errorf("list %s offsets: %w", what, err)
		}
		var errs errList
		listed.Each(func(lo kadm.ListedOffset) {
			if lo.Partition < 0 {
				return
			}
			if lo.Err != nil {
				errs.add(fmt.Errorf("list %s offset of %s: %w", what, TP{lo.Topic, lo.Partition}, lo.Err))
				return
			}
			dst[TP{lo.Topic, lo.Partition}] = lo.Offset
		})
		return errs.err()
	}
	starts, err := adm.ListStartOffsets(tctx, existing...)
	if err := fill("log start", in.LogStart, starts, err); err != nil {
		return err
	}
	ends, err := adm.ListEndOffsets(tctx, existing...)
	if err := fill("log end", in.LogEnd, ends, err); err != nil {
		return err
	}
	if byTime {
		// Negative timestamps are ListOffsets' special queries (-1 is
		// latest, -2 earliest): a time before 1970 means "from the
		// first record", which 0 asks for.
		at, err := adm.ListOffsetsAfterMilli(tctx, max(in.Time.UnixMilli(), 0), existing...)
		if err := fill("by-time", in.AtTime, at, err); err != nil {
			return err
		}
	}
	return nil
}
