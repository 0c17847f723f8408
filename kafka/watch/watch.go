// Package watch is the judged poll that runs unattended: one poll of the
// cluster added to a lag.Tracker, the records at the commits the tracker
// cannot place read and added (the exact time-lag cycle), and each
// group's findings at a glance. `kgroups serve` runs it on a schedule;
// `kgroups health` reads exact records through the same ReadExact; the
// UI's root runs the same cycle asynchronously (tui/judge.go,
// tui/exact.go) and its groups screen asks Findings for its marks, so all
// three judge a poll alike.
package watch

import (
	"context"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/diagnose"
	"github.com/kgroups/kgroups/kafka/lag"
)

// Reader reads the records at the committed offsets of parts
// (kafka.Client.CommittedTimestamps).
type Reader func(ctx context.Context, parts []kafka.PartitionOffsets) (map[kafka.CommitKey]kafka.RecordTime, error)

// Exacter is what the exact cycle reads and writes: a lag.History or a
// lag.Tracker.
type Exacter interface {
	WantExact(budget int, dst []kafka.PartitionOffsets) []kafka.PartitionOffsets
	AddExact(recs map[kafka.CommitKey]kafka.RecordTime)
}

// ForHistory is h as an Exacter (History.AddExact also says how many
// records it kept, which the cycle does not need).
func ForHistory(h *lag.History) Exacter { return historyExacter{h} }

type historyExacter struct{ *lag.History }

func (h historyExacter) AddExact(recs map[kafka.CommitKey]kafka.RecordTime) { h.History.AddExact(recs) }

// ReadExact reads the records at the commits h cannot place within its
// points (WantExact, at most budget of them, the most lagging first) and
// stores them (AddExact), so that every reader shows the same time lag
// for the same polls. A read that fails leaves lower bounds and is
// returned: the verdicts never depend on it. It reads nothing when read
// is nil or nothing is wanted.
func ReadExact(ctx context.Context, h Exacter, read Reader, budget int) error {
	if read == nil {
		return nil
	}
	want := h.WantExact(budget, nil)
	if len(want) == 0 {
		return nil
	}
	recs, err := read(ctx, want)
	if err != nil {
		return err
	}
	h.AddExact(recs)
	return nil
}

// Config derives the history's configuration from the time between
// polls, as `kgroups health` does for a window of lag's default
// Window polls: every poll of a partition a live member owns counts as an
// observation (MinDistance is half the interval), the verdicts look at
// the last Window observations, and rates cover the window.
func Config(window, interval time.Duration) (lag.Config, int) {
	polls := int(min(window/interval, 1<<31-1)) + 1
	cfg := lag.DefaultConfig()
	cfg.Window = min(cfg.Window, polls)
	cfg.Hold = min(cfg.Hold, cfg.Window)
	cfg.MinDistance = max(interval/2, time.Nanosecond)
	cfg.Samples = min(max(polls, 2), MaxSamples)
	cfg.RatePolls = cfg.Samples
	cfg.TimePoints = max(cfg.TimePoints, cfg.Samples)
	// An event (REWIND) found in the window is reported for the whole
	// window: health judges the window at its end.
	cfg.EventHold = window
	return cfg, polls
}

// MaxSamples caps the polls each partition's history keeps, so that a long
// window at a short interval over many partitions cannot exhaust memory:
// rates then cover the last MaxSamples polls. The verdicts need far fewer
// (the last Window observations).
const MaxSamples = 600

// Loop polls into a Tracker: Step is one judged poll.
type Loop struct {
	// Poll takes one snapshot (kafka.Client.Poll).
	Poll func(context.Context) (*kafka.Snapshot, error)
	// Read reads records at commits for exact time lags; nil reads none.
	Read Reader
	// Budget is how many records a poll reads at most
	// (lag.DefaultExactBudget when 0).
	Budget int
	// Tracker holds the history and the verdicts of the latest poll.
	Tracker *lag.Tracker
}

// Step polls once and, when the poll succeeds, adds it to the tracker
// (which judges every group) and reads the exact records the tracker
// then wants (which judges their groups again). It returns the snapshot
// the tracker now holds; exactErr is a failed exact read, which leaves
// lower bounds.
func (l *Loop) Step(ctx context.Context) (snap *kafka.Snapshot, exactErr, err error) {
	snap, err = l.Poll(ctx)
	if err != nil {
		return nil, nil, err
	}
	l.Tracker.Add(snap)
	budget := l.Budget
	if budget <= 0 {
		budget = lag.DefaultExactBudget
	}
	return snap, ReadExact(ctx, l.Tracker, l.Read, budget), nil
}

// Findings applies the diagnosis rules to group i of snap, the tracker's
// latest poll, from the poll alone (no extra reads), as the groups screen
// marks its rows: a group whose verdict is WARN or ERR gets its
// partitions too (Tracker.Evaluate, so the few unhealthy groups cost a
// judging each, the healthy thousands none), which lets the rules tell a
// member that stopped committing or a consumer slower than its
// producers. buf is scratch for the partitions, returned for reuse.
func Findings(snap *kafka.Snapshot, l *lag.Tracker, i int, buf []lag.PartitionHealth) ([]diagnose.Finding, []lag.PartitionHealth) {
	in, buf := Input(snap, l, i, buf)
	return diagnose.Diagnose(in), buf
}

// Input is the diagnosis input Findings gives the rules for group i of
// snap (the groups screen gives diagnose.GlanceAt the same).
func Input(snap *kafka.Snapshot, l *lag.Tracker, i int, buf []lag.PartitionHealth) (diagnose.Input, []lag.PartitionHealth) {
	g := &snap.Groups[i]
	v := l.Group(snap, i)
	in := diagnose.Input{Group: g, PartitionCounts: snap.PartitionCounts, Verdict: v, Since: snap.Time, Now: snap.Time}
	if sev, ok := v.Decided(); ok && sev >= lag.SeverityWarn && l != nil {
		if gh, ok := l.Evaluate(g.Name, buf); ok {
			buf = gh.Partitions[:0]
			in.Verdict = lag.Judge(gh, l.Config().Window)
			name := g.Name
			in.Unmoved = func(topic string, partition int32) (time.Time, bool) {
				return l.CommitUnmovedSince(name, topic, partition)
			}
			in.Series = func(topic string, partition int32, dst []lag.Sample) []lag.Sample {
				return l.Samples(name, topic, partition, dst)
			}
		}
		if in.Verdict.Status == lag.StatusStop {
			if since, whole, ok := l.NoMembersSince(g.Name); ok {
				in.NoMembersSince, in.NoMembersWhole = since, whole
			}
		}
	}
	return in, buf
}
