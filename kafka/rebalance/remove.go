package rebalance

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/write"
)

// Selection says which members to remove: by member id, by
// group.instance.id, or all of them. Exactly one must be used.
type Selection struct {
	MemberIDs   []string
	InstanceIDs []string
	All         bool
}

// Method is how a member is removed.
type Method string

const (
	// ByInstanceID sends LeaveGroup with the member's group.instance.id,
	// the way Kafka's own admin client removes static members.
	ByInstanceID Method = "instance-id"
	// ByMemberID sends LeaveGroup v3+ with the member id: the only way to
	// remove a dynamic member, which has no instance id.
	ByMemberID Method = "member-id"
)

// Target is one member the plan removes.
type Target struct {
	Member kafka.Member
	Method Method
}

// Plan is a member removal, computed from a snapshot of the group and
// shown to the user before anything is sent.
type Plan struct {
	Group    string
	Type     kafka.GroupType
	State    string
	Assignor string
	// Before is the group as planned; Wait compares against it.
	Before  kafka.Group
	Targets []Target
	// Reason is sent to the broker (LeaveGroup v5+, shown in its log).
	Reason string
}

// DefaultReason is sent when the user gives none, so that the broker's log
// says who removed the member.
const DefaultReason = "removed by kgroups"

// PlanRemoval resolves a selection against the group. It only reads the
// group it is given: a bad selection is an error that lists what exists,
// and nothing is sent.
func PlanRemoval(g *kafka.Group, sel Selection, reason string) (*Plan, error) {
	n := 0
	for _, used := range []bool{len(sel.MemberIDs) > 0, len(sel.InstanceIDs) > 0, sel.All} {
		if used {
			n++
		}
	}
	if n != 1 {
		return nil, errors.New("choose the members to remove by member id, by instance id, or all of them: exactly one of the three")
	}
	if len(g.Members) == 0 {
		return nil, fmt.Errorf("group %q has no members (state %s): there is nothing to remove", g.Name, g.State)
	}
	if reason == "" {
		reason = DefaultReason
	}
	p := &Plan{Group: g.Name, Type: g.Type, State: g.State, Assignor: g.Assignor, Before: *g, Reason: reason}
	chosen := make(map[string]bool)
	switch {
	case sel.All:
		for _, m := range g.Members {
			chosen[m.MemberID] = true
		}
	case len(sel.MemberIDs) > 0:
		for _, id := range sel.MemberIDs {
			if id == "" {
				return nil, errors.New("a member id cannot be empty")
			}
			if _, ok := g.Member(id); !ok {
				return nil, fmt.Errorf("member %q is not in group %q; its members are: %s", id, g.Name, joinIDs(memberIDs(g)))
			}
			chosen[id] = true
		}
	default:
		byInstance := make(map[string]string)
		var instances []string
		for _, m := range g.Members {
			if m.InstanceID != "" {
				byInstance[m.InstanceID] = m.MemberID
				instances = append(instances, m.InstanceID)
			}
		}
		sort.Strings(instances)
		for _, inst := range sel.InstanceIDs {
			if inst == "" {
				return nil, errors.New("an instance id cannot be empty")
			}
			id, ok := byInstance[inst]
			if !ok {
				if len(instances) == 0 {
					return nil, fmt.Errorf("instance id %q is not in group %q: the group has no static members (remove dynamic members by member id)", inst, g.Name)
				}
				return nil, fmt.Errorf("instance id %q is not in group %q; its static members' instance ids are: %s", inst, g.Name, joinIDs(instances))
			}
			chosen[id] = true
		}
	}
	for _, m := range g.Members {
		if !chosen[m.MemberID] {
			continue
		}
		t := Target{Member: m, Method: ByMemberID}
		if m.InstanceID != "" {
			t.Method = ByInstanceID
		}
		t.Member.JoinMetadata = nil
		p.Targets = append(p.Targets, t)
	}
	return p, nil
}

// Explain says, in plain words, what executing the plan will do: what the
// coordinator does, how the removed members come back, and what the broker
// may refuse.
func (p *Plan) Explain() []string {
	var static, dynamic int
	for _, t := range p.Targets {
		if t.Method == ByInstanceID {
			static++
		} else {
			dynamic++
		}
	}
	var out []string
	if p.Type == kafka.TypeConsumer {
		out = append(out, "The coordinator removes each member and bumps the group epoch; the broker's assignor gives the removed members' partitions to the others.")
		if dynamic > 0 {
			out = append(out, "Not every broker lets an admin remove a consumer-protocol (KIP-848) member by member id; if it refuses, kgroups shows the broker's answer and nothing else changes.")
		}
	} else {
		out = append(out, "The coordinator removes each member at once and rebalances the group: every remaining member rejoins.")
		switch p.Assignor {
		case AssignorCooperativeSticky:
			out = append(out, "With cooperative-sticky, members keep consuming the partitions they keep during the rebalance.")
		case "":
		default:
			out = append(out, "With the eager "+p.Assignor+" assignor, every member stops consuming until the rebalance completes.")
		}
	}
	switch {
	case dynamic > 0 && p.Type == kafka.TypeConsumer:
		out = append(out, "A removed member is fenced at its next heartbeat and rejoins from epoch 0 (consumer-protocol clients keep their member id); if its process is gone, its partitions go to the other members.")
	case dynamic > 0:
		out = append(out, "A removed dynamic member learns it was removed at its next heartbeat and rejoins with a new member id; if its process is gone, its partitions go to the other members.")
	}
	if static > 0 {
		out = append(out, "A removed static member (group.instance.id) rejoins under the same instance id with a new member id; it keeps its partitions only if it rejoins within the session timeout, otherwise they go to the other members.")
	}
	return out
}

// Result is what happened to one target: the broker's answer, and the
// re-read of the group that decides the Outcome (see kafka/write).
type Result struct {
	Target Target
	// Err is the broker's error for this member, verbatim (for example
	// UNKNOWN_MEMBER_ID), or why no answer came; nil when the broker said
	// it was removed.
	Err error
	// Gone is set when the re-read of the group found the member removed:
	// its member id is gone, or its instance id now has another member id
	// (it rejoined), or, in a consumer-protocol group, it is back at a
	// lower member epoch.
	Gone bool
	// ReadErr is why the group could not be re-read after the removal.
	ReadErr error
}

// Outcome is the verdict: verified when the re-read shows the member
// removed (whatever the answer), refused when the broker said no and the
// member is still there, unknown otherwise.
func (r Result) Outcome() write.Outcome { return write.Decide(r.Gone, r.Err, r.ReadErr) }

// Status says the outcome in words: "removed", "verified removed (the
// broker's answer was lost: ...)", "refused: ..." or "outcome unknown: ...".
func (r Result) Status() string {
	return write.Describe(r.Outcome(), r.Err, r.ReadErr, write.Words{
		Done:     "removed",
		Verified: "verified removed",
		Standing: "the member is still in the group",
		Accepted: "the broker removed it, but the re-read still shows the member",
	})
}

// WorstOutcome is the worst outcome of the results.
func WorstOutcome(results []Result) write.Outcome {
	var t write.Tally
	for _, r := range results {
		t.Add(r.Outcome())
	}
	return t.Worst()
}

// Removed returns the member ids verified removed.
func Removed(results []Result) []string {
	var ids []string
	for _, r := range results {
		if r.Outcome() == write.Verified {
			ids = append(ids, r.Target.Member.MemberID)
		}
	}
	return ids
}

// Verify re-reads the group and marks each result Gone or not, or sets
// ReadErr when the group cannot be read: a member is verified removed
// only by a re-read that succeeded (a group that is not listed is gone
// only when every broker answered the listing).
func Verify(ctx context.Context, cl *kafka.Client, p *Plan, results []Result) {
	snap, err := cl.PollGroups(ctx, p.Group)
	g := &kafka.Group{}
	if err == nil {
		if sg, ok := snap.Group(p.Group); ok {
			g = sg
			if g.Err != nil {
				err = g.Err
			}
		} else if snap.ListErr != nil {
			// Not listed by a listing that some brokers did not
			// answer: no proof that the group, or its members, are
			// gone.
			err = fmt.Errorf("it is not listed, but the listing is incomplete: %w", snap.ListErr)
		}
	}
	for i := range results {
		if err != nil {
			results[i].ReadErr = fmt.Errorf("re-read group %q: %w", p.Group, err)
			continue
		}
		results[i].Gone = gone(g, results[i].Target)
	}
}

// gone reports whether the group no longer holds the target as it was.
func gone(g *kafka.Group, t Target) bool {
	for _, m := range g.Members {
		if m.MemberID == t.Member.MemberID {
			// A consumer-protocol member keeps its id and rejoins from
			// epoch 0.
			return g.Type == kafka.TypeConsumer && t.Member.MemberEpoch > 0 && m.MemberEpoch < t.Member.MemberEpoch
		}
	}
	return true
}

// Remove sends the plan's LeaveGroup requests to the group's coordinator:
// one kadm LeaveGroup for members with an instance id, one raw LeaveGroup
// v3+ for members removed by member id. Every target gets a Result with the
// broker's own answer; the error is for a request that failed as a whole.
func Remove(ctx context.Context, cl *kafka.Client, p *Plan) ([]Result, error) {
	var byInstance, byMember []Target
	for _, t := range p.Targets {
		if t.Method == ByInstanceID {
			byInstance = append(byInstance, t)
		} else {
			byMember = append(byMember, t)
		}
	}
	var results []Result
	var errs []error
	if len(byInstance) > 0 {
		rs, err := removeByInstance(ctx, cl, p, byInstance)
		results = append(results, rs...)
		errs = append(errs, err)
	}
	if len(byMember) > 0 {
		rs, err := removeByMember(ctx, cl, p, byMember)
		results = append(results, rs...)
		errs = append(errs, err)
	}
	return results, errors.Join(errs...)
}

func removeByInstance(ctx context.Context, cl *kafka.Client, p *Plan, targets []Target) ([]Result, error) {
	ids := make([]string, len(targets))
	for i, t := range targets {
		ids[i] = t.Member.InstanceID
	}
	ctx, cancel := context.WithTimeout(ctx, cl.Timeout())
	defer cancel()
	resps, err := cl.Admin().LeaveGroup(ctx, kadm.LeaveGroup(p.Group).InstanceIDs(ids...).Reason(p.Reason))
	results := make([]Result, len(targets))
	for i, t := range targets {
		results[i] = Result{Target: t}
		switch r, ok := resps[t.Member.InstanceID]; {
		case err != nil:
			results[i].Err = err
		case !ok:
			results[i].Err = errors.New("the broker's answer does not mention this instance id")
		default:
			results[i].Err = r.Err
		}
	}
	if err != nil {
		return results, fmt.Errorf("leave group %q by instance id: %w", p.Group, err)
	}
	return results, nil
}

func removeByMember(ctx context.Context, cl *kafka.Client, p *Plan, targets []Target) ([]Result, error) {
	req := kmsg.NewPtrLeaveGroupRequest()
	req.Group = p.Group
	reason := p.Reason
	for _, t := range targets {
		m := kmsg.NewLeaveGroupRequestMember()
		m.MemberID = t.Member.MemberID
		m.Reason = &reason
		req.Members = append(req.Members, m)
	}
	ctx, cancel := context.WithTimeout(ctx, cl.Timeout())
	defer cancel()
	resp, err := req.RequestWith(ctx, cl.Kgo())
	if err == nil && resp.GetVersion() < 3 {
		// Before v3 the request carries one member id and silently
		// drops the list: refuse rather than pretend.
		err = write.Refusal(fmt.Errorf("the coordinator speaks LeaveGroup v%d; removing members by member id needs v3 or later (Kafka 2.4+)", resp.GetVersion()))
	}
	if err == nil {
		err = kerr.ErrorForCode(resp.ErrorCode)
	}
	results := make([]Result, len(targets))
	for i, t := range targets {
		results[i] = Result{Target: t}
		if err != nil {
			results[i].Err = err
			continue
		}
		idx := slices.IndexFunc(resp.Members, func(m kmsg.LeaveGroupResponseMember) bool { return m.MemberID == t.Member.MemberID })
		if idx < 0 {
			results[i].Err = errors.New("the broker's answer does not mention this member id")
			continue
		}
		results[i].Err = kerr.ErrorForCode(resp.Members[idx].ErrorCode)
	}
	if err != nil {
		return results, fmt.Errorf("leave group %q by member id: %w", p.Group, err)
	}
	return results, nil
}
