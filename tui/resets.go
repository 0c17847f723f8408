package tui

import (
	"context"
	"sync"

	"github.com/kgroups/kgroups/kafka/lag"
	kreset "github.com/kgroups/kgroups/kafka/reset"
	resetview "github.com/kgroups/kgroups/views/reset"
)

// resetLog collects the resets the wizard made, from the Cmds that apply
// them, until the next poll result hands them to the lag tracker: a REWIND
// that a reset done here caused then names its receipt instead of looking
// like a consumer's fault. One log belongs to one connection.
type resetLog struct {
	mu      sync.Mutex
	pending []noted
}

type noted struct {
	group string
	reset lag.Reset
}

func (l *resetLog) add(group string, r lag.Reset) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pending = append(l.pending, noted{group, r})
}

// drain hands every pending reset to t.
func (l *resetLog) drain(t *lag.Tracker) {
	l.mu.Lock()
	pending := l.pending
	l.pending = nil
	l.mu.Unlock()
	for _, n := range pending {
		t.NoteReset(n.group, n.reset)
	}
}

// recordResets is the wizard's backend with every applied reset noted in
// log. Deletions remove the group and its offsets: nothing rewinds.
type recordResets struct {
	resetview.Backend
	log *resetLog
}

// Apply implements resetview.Backend.
func (b recordResets) Apply(ctx context.Context, p *kreset.Plan) (*kreset.Result, error) {
	res, err := b.Backend.Apply(ctx, p)
	if res != nil && res.ReceiptPath != "" {
		b.log.add(res.Group, lagReset(res))
	}
	return res, err
}

// lagReset is what the lag history needs of a reset's result: when, the
// receipt, and each partition's offset before and after as re-read.
func lagReset(res *kreset.Result) lag.Reset {
	r := lag.Reset{Time: res.Time, Receipt: res.ReceiptPath}
	for _, p := range res.Partitions {
		if p.ReadErr != nil {
			continue
		}
		r.Offsets = append(r.Offsets, lag.ResetOffset{Topic: p.Topic, Partition: p.Partition, Before: p.Before, After: p.Got})
	}
	return r
}
