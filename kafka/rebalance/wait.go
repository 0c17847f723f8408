package rebalance

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kgroups/kgroups/kafka"
)

// WaitOptions bound Wait.
type WaitOptions struct {
	// Timeout bounds the whole wait. Default 60s.
	Timeout time.Duration
	// Interval is the time between polls. Default 200ms: fast enough to
	// see most rounds of a cooperative rebalance (see Rounds).
	Interval time.Duration
	// Settle is how long a settled group that is still short of the
	// members it had is watched before Wait concludes that the removed
	// members are not coming back (their processes are gone). Default 10s.
	Settle time.Duration
	// OnSnapshot, when set, sees every snapshot Wait takes (to feed a
	// Timeline, or to show progress).
	OnSnapshot func(*kafka.Snapshot)
}

// Defaults for WaitOptions.
const (
	DefaultWaitTimeout  = 60 * time.Second
	DefaultWaitInterval = 200 * time.Millisecond
	DefaultWaitSettle   = 10 * time.Second
)

func (o WaitOptions) normalize() WaitOptions {
	if o.Timeout <= 0 {
		o.Timeout = DefaultWaitTimeout
	}
	if o.Interval <= 0 {
		o.Interval = DefaultWaitInterval
	}
	if o.Settle <= 0 {
		o.Settle = DefaultWaitSettle
	}
	return o
}

// ErrNotSettled is wrapped by Wait's error when the group did not settle
// within the timeout.
var ErrNotSettled = errors.New("the group did not settle")

// ErrInterrupted is wrapped by Wait's error when the caller's context
// ended (Ctrl+C, SIGTERM) before the group settled: the timeout did not
// pass, the wait was stopped.
var ErrInterrupted = errors.New("interrupted")

// Outcome is what the group looks like after a removal: the re-read that
// verifies it.
type Outcome struct {
	// After is the group as last seen (nil if it was never seen).
	After *kafka.Group
	// Settled is true when the group was Stable again (or Empty, when
	// every member was removed and none came back).
	Settled bool
	// Short is set when the group settled with fewer members than before:
	// some removed members did not rejoin within Settle.
	Short bool
	// StillPresent lists removed member ids the group still reports;
	// always empty when Settled.
	StillPresent []string
	// Joined and Left compare the members before the removal with After.
	Joined, Left []kafka.Member
	// Moves are the partitions whose owning process changed, and
	// Rejoined the members that came back as the same process under a
	// new member id (see Reassign).
	Moves    []Move
	Rejoined int
	// Rounds are the rebalance rounds counted from the generations
	// Wait saw, starting from the plan's view of the group.
	Rounds Rounds
	// Polls is how many snapshots Wait took; Took is how long it waited.
	Polls int
	Took  time.Duration
}

// Wait polls the group until it has settled after the removal of removed
// (member ids): none of them is a member any more, and the group is Stable
// with as many members as before (the removed members rejoined under new
// ids), or it has stayed Stable, short of members, for Settle. It then
// reports who joined and left, which partitions moved to another process
// and how many members rejoined with new ids, and counts the rebalance
// rounds from the generations it saw (see Rounds). A group that has all its
// members back but fewer partitions assigned than before is still in a
// cooperative rebalance (partitions revoked, not yet given), and is waited
// for like a group short of members. On timeout it
// returns the outcome so far together with an error wrapping ErrNotSettled.
func Wait(ctx context.Context, cl *kafka.Client, p *Plan, removed []string, opts WaitOptions) (*Outcome, error) {
	opts = opts.normalize()
	start := time.Now()
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()

	out := &Outcome{}
	var rc roundCounter
	rc.observe(&p.Before)
	defer func() { out.Rounds = rc.result() }()
	var shortSince time.Time
	var shortSig string
	var lastErr error
	tick := time.NewTicker(opts.Interval)
	defer tick.Stop()
	for {
		s, err := cl.PollGroups(ctx, p.Group)
		out.Polls++
		switch {
		case err != nil:
			lastErr = err
		default:
			if opts.OnSnapshot != nil {
				opts.OnSnapshot(s)
			}
			g, ok := s.Group(p.Group)
			if !ok {
				lastErr = fmt.Errorf("group %q is not listed", p.Group)
				break
			}
			if g.Err != nil {
				lastErr = g.Err
				break
			}
			lastErr = nil
			out.After = g
			rc.observe(g)
			out.StillPresent = present(g, removed)
			if rejoinedUnderOwnID(&p.Before, g) {
				out.StillPresent = nil
			}
			everyone := len(removed) == len(p.Before.Members)
			settled := len(out.StillPresent) == 0 &&
				(g.State == kafka.StateStable || (everyone && g.State == kafka.StateEmpty))
			if !settled {
				shortSince = time.Time{}
				break
			}
			full := len(g.Members) >= len(p.Before.Members)
			if full && assignedCount(g) >= assignedCount(&p.Before) {
				return out.finish(p, start), nil
			}
			sig := g.State + "|" + strings.Join(memberIDs(g), ",") + "|" + strconv.Itoa(assignedCount(g))
			if sig != shortSig || shortSince.IsZero() {
				shortSig, shortSince = sig, time.Now()
			} else if time.Since(shortSince) >= opts.Settle {
				out.Short = !full
				return out.finish(p, start), nil
			}
		}
		if nextTick(ctx, tick.C) {
			continue
		}
		out.finish(p, start)
		out.Settled = false
		if parent.Err() != nil {
			return out, interrupted(p.Group, out, lastErr)
		}
		return out, notSettled(p.Group, opts.Timeout, out, lastErr)
	}
}

// nextTick waits for the next tick and reports whether to poll again:
// never once ctx has ended, even when a tick also came during the poll
// (a select with both ready picks either), so an interrupted or timed-out
// wait polls no more.
func nextTick(ctx context.Context, tick <-chan time.Time) bool {
	if ctx.Err() != nil {
		return false
	}
	select {
	case <-ctx.Done():
		return false
	case <-tick:
		return ctx.Err() == nil
	}
}

func (o *Outcome) finish(p *Plan, start time.Time) *Outcome {
	o.Took = time.Since(start)
	o.Settled = true
	if o.After == nil {
		return o
	}
	o.Joined = o.Joined[:0]
	o.Left = o.Left[:0]
	for _, m := range o.After.Members {
		if _, ok := p.Before.Member(m.MemberID); !ok {
			o.Joined = append(o.Joined, m)
		}
	}
	for _, m := range p.Before.Members {
		if _, ok := o.After.Member(m.MemberID); !ok {
			o.Left = append(o.Left, m)
		}
	}
	r := Reassign(p.Before.Members, o.After.Members)
	o.Moves, o.Rejoined = r.Moves, r.Rejoined
	return o
}

func notSettled(group string, timeout time.Duration, o *Outcome, lastErr error) error {
	return fmt.Errorf("group %q: %w within %s (%s)", group, ErrNotSettled, timeout, lastSeen(o, lastErr))
}

// interrupted is Wait's error when its caller stopped it.
func interrupted(group string, o *Outcome, lastErr error) error {
	if errors.Is(lastErr, context.Canceled) {
		// The poll that the interruption cut short says nothing.
		lastErr = nil
	}
	return fmt.Errorf("%w while waiting for group %q to settle (%s)", ErrInterrupted, group, lastSeen(o, lastErr))
}

// lastSeen says how the group was last seen by Wait.
func lastSeen(o *Outcome, lastErr error) string {
	var last string
	switch {
	case o.After == nil && lastErr != nil:
		last = "it could not be read: " + lastErr.Error()
	case o.After == nil:
		last = "it was never seen"
	default:
		last = fmt.Sprintf("last seen %s with %s", o.After.State, kafka.Count(len(o.After.Members), "member", "members"))
		if len(o.StillPresent) > 0 {
			last += ", still listing removed member(s) " + strings.Join(o.StillPresent, ", ")
		}
		if lastErr != nil {
			last += "; the last poll failed: " + lastErr.Error()
		}
	}
	return last
}

// rejoinedUnderOwnID reports whether a consumer-protocol (KIP-848) group
// has moved past the epoch it had before the removal: its members keep
// their member id when the coordinator fences them (the client makes the
// id, not the broker), so a removed member is back under the same id, and
// only the group epoch tells that the removal happened. Apache Kafka 4.x
// removes such a member by member id and the Java consumer rejoins so.
func rejoinedUnderOwnID(before, g *kafka.Group) bool {
	return g.Type == kafka.TypeConsumer && before.Type == kafka.TypeConsumer && g.GroupEpoch > before.GroupEpoch
}

func present(g *kafka.Group, ids []string) []string {
	var out []string
	for _, id := range ids {
		if _, ok := g.Member(id); ok {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// assignedCount is how many partitions the group's members hold.
func assignedCount(g *kafka.Group) int { return len(ownersOf(g.Members)) }
