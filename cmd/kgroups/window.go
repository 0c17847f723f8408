package main

import (
	"context"
	"fmt"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/views/format"
)

// pollFunc takes one snapshot: the cluster's groups, or the named ones.
type pollFunc func(context.Context) (*kafka.Snapshot, error)

// windowPoll polls what o names: every group of the cluster, or the named
// groups only.
func windowPoll(cl *kafka.Client, o healthOptions) pollFunc {
	return func(ctx context.Context) (*kafka.Snapshot, error) {
		if o.all {
			return cl.Poll(ctx)
		}
		return cl.PollGroups(ctx, o.names...)
	}
}

// sampledWindow is what `kgroups health` and `kgroups diagnose` know once
// their window is sampled: the polls' history and the groups judged as of
// the last poll.
type sampledWindow struct {
	first, last *kafka.Snapshot
	history     *lag.History
	// verdicts and judged are the judged groups, in one order: each
	// group's verdict and the group as last seen.
	verdicts []lag.Verdict
	judged   []*kafka.Group
	// gone are the named groups the last poll did not find.
	gone []string
	// failed polls were skipped; lastErr is the last one's error.
	failed  int
	lastErr error
}

// sampleWindow is the sampling both commands share: a first poll, which
// fails the command at once when a named group does not exist; o.polls
// polls o.interval apart into a History configured by o.cfg, with progress
// on stderr when it is a terminal; the resets kgroups made meanwhile,
// from the receipts folder; and the groups (the named ones, or every group
// of the last poll) judged as of the last poll by judgeHealth. added, when
// not nil, is given every snapshot the History takes, first one included.
// cmd prefixes the errors ("health", "diagnose").
func sampleWindow(ctx context.Context, a *app, cmd string, poll pollFunc, o healthOptions, added func(*kafka.Snapshot)) (*sampledWindow, error) {
	first, err := poll(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	// A group that does not exist fails now, not after the window.
	var missing []string
	for _, name := range o.names {
		if g, ok := first.Group(name); !ok || absent(g) {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return nil, missingGroupsError{missing} // explainMissing words it
	}
	if added != nil {
		added(first)
	}

	w := &sampledWindow{first: first, history: lag.NewHistory(o.cfg)}
	s := &healthSampler{poll: poll, polls: o.polls, interval: o.interval, what: "all groups", read: o.read, added: added}
	if !o.all {
		s.what = groupCount(len(o.names))
	}
	s.progress = windowProgress(a.stderr, isTerminal(a.stderr), o.quiet, s.what, o.window, o.interval, o.polls)
	w.last, w.failed, w.lastErr, err = s.sample(ctx, w.history, first)
	if err != nil {
		return nil, fmt.Errorf("%s: sampling stopped: %w", cmd, err)
	}

	// A REWIND that a kgroups reset or undo made while the polls ran
	// names its receipt instead of reading as a consumer's fault.
	noteResets(ctx, a, w.history, o.cluster, first.Time)

	// Judge as of the last poll, so that the verdict depends only on
	// what the polls saw and when.
	names := o.names
	if o.all {
		names = nil
		for _, g := range selected(w.last, nil) {
			if o.filter.Keep(g) {
				names = append(names, g.Name)
			}
		}
	}
	w.verdicts, w.judged, w.gone = judgeHealth(w.history, w.last, names)
	return w, nil
}

// noteFailures tells stderr of the named groups gone by the end of the
// window, of the polls that failed, and of the judged groups whose
// offsets could not be read; it reports whether there was any, for exit
// code 1.
func (w *sampledWindow) noteFailures(a *app, polls int) bool {
	failedRead := false
	for _, name := range w.gone {
		a.notef("kgroups: group %q not found at the end of the window", name)
		failedRead = true
	}
	if w.failed > 0 {
		a.notef("kgroups: %d of %s failed, the last with: %v", w.failed, format.Count(polls, "poll", "polls"), w.lastErr)
		failedRead = true
	}
	if reportGroupErrors(a.stderr, w.judged) != nil {
		failedRead = true
	}
	return failedRead
}
