package diagnose

import (
	"slices"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
)

// owner is what one live member's partitions show over the window.
type owner struct {
	id, client, host string
	owned            int
	// parts are every partition it owns; stalled are its STALL
	// partitions that no open transaction explains; advancing counts
	// its other partitions whose commit moved (a consume rate above 0),
	// lagging its other partitions with lag, and behind their lag and
	// produce rate summed.
	parts              []*kafka.PartitionOffsets
	stalled            []*kafka.PartitionOffsets
	advancing, lagging int
	behind             int64
	produce            float64
}

// activity is what the history shows of a member's commits, all its
// partitions taken together: when one of them last moved, and the
// member's rhythm, the longest gap between such moves (at least the
// time from the first poll to the first move, which a commit before the
// polls began makes longer still).
type activity struct {
	// known is false when the input has no history (Input.Series).
	known bool
	// moved is false when no partition of the member moved in the
	// history; last is the latest move and rhythm as above.
	moved  bool
	last   time.Time
	rhythm time.Duration
}

// activity reads the member's moves from the partitions' series.
func (d *diagnosis) activity(o *owner) activity {
	if d.in.Series == nil {
		return activity{}
	}
	var (
		moves []time.Time
		start time.Time
		buf   []lag.Sample
	)
	for _, p := range o.parts {
		buf = d.in.Series(p.Topic, p.Partition, buf[:0])
		for i, s := range buf {
			if i == 0 {
				if start.IsZero() || s.Time.Before(start) {
					start = s.Time
				}
				continue
			}
			if prev := buf[i-1].Committed; prev >= 0 && s.Committed > prev {
				moves = append(moves, s.Time)
			}
		}
	}
	a := activity{known: true}
	if len(moves) == 0 {
		return a
	}
	slices.SortFunc(moves, func(x, y time.Time) int { return x.Compare(y) })
	a.moved, a.last = true, moves[len(moves)-1]
	a.rhythm = moves[0].Sub(start)
	for i := 1; i < len(moves); i++ {
		a.rhythm = max(a.rhythm, moves[i].Sub(moves[i-1]))
	}
	return a
}

// committing reports whether the member still commits: with a history,
// one of its partitions moved within lag.RhythmFactor times its rhythm;
// without one, one of its partitions advanced over the rate window.
func (d *diagnosis) committing(o *owner, a activity) bool {
	if !a.known {
		return o.advancing > 0
	}
	if !a.moved {
		return false
	}
	return float64(d.in.Now.Sub(a.last)) <= lag.RhythmFactor*float64(a.rhythm)
}

// slowMember reports whether the member's partitions that are not
// stalled hold a backlog beyond what is in flight (more than
// lag.KeepUpMessages and lag.KeepUpSeconds of their production): a
// member behind everywhere, working through its partitions in turn,
// rather than one that keeps up but for a record it cannot pass.
func slowMember(o *owner) bool {
	return o.behind > lag.KeepUpMessages && float64(o.behind) > o.produce*lag.KeepUpSeconds
}

// stalls judges the STALL partitions member by member, since what the
// member's commits over the history, and its other partitions, tell the
// member from the record:
//
//   - a member none of whose partitions moved for longer than
//     lag.RhythmFactor times its own rhythm (its longest gap between
//     commits in the history; without a history, none of them advanced
//     over the rate window), with two or more stalled partitions: one
//     member-not-committing on the member (its loop or its commits
//     stopped; no record is to blame). Never while one of its partitions
//     commits within its rhythm;
//   - a member that still commits, whose other partitions hold a backlog
//     too: one slow member working through its partitions in turn. Its
//     stalled partitions wait their turn: no finding of their own, and
//     they count in slower-than-producers;
//   - a member that still commits and keeps its other partitions within
//     what is in flight: stalled-at-record on each stalled partition,
//     blaming the record at the commit, when one of those partitions
//     advanced; none when none did (its silence is within its rhythm);
//   - a single stalled partition of a member that does not commit:
//     stalled-at-record worded with both explanations (the record, or
//     the member), since the polls cannot tell them apart.
func (d *diagnosis) stalls() {
	by := make(map[string]*owner)
	var order []string
	for i := range d.in.Group.Partitions {
		p := &d.in.Group.Partitions[i]
		if p.MemberID == "" {
			continue
		}
		o := by[p.MemberID]
		if o == nil {
			o = &owner{id: p.MemberID, client: p.ClientID(), host: p.Host()}
			by[p.MemberID] = o
			order = append(order, p.MemberID)
		}
		o.owned++
		o.parts = append(o.parts, p)
		h := d.health[TP{p.Topic, p.Partition}]
		if h == nil {
			continue
		}
		if d.stalledAt(p, h) {
			o.stalled = append(o.stalled, p)
			continue
		}
		if p.Lag > 0 {
			o.lagging++
			o.behind += p.Lag
		}
		if h.ProduceRate > 0 {
			o.produce += h.ProduceRate
		}
		if h.ConsumeRate > 0 {
			o.advancing++
		}
	}
	for _, id := range order {
		o := by[id]
		n := len(o.stalled)
		if n == 0 {
			continue
		}
		a := d.activity(o)
		switch {
		case !d.committing(o, a) && n >= 2:
			d.memberNotCommitting(o, a)
		case !d.committing(o, a):
			d.stalledAtRecord(o.stalled[0], o, false)
		case slowMember(o):
			if d.waiting == nil {
				d.waiting = make(map[TP]bool, len(o.stalled))
			}
			for _, p := range o.stalled {
				d.waiting[TP{p.Topic, p.Partition}] = true
			}
		case o.advancing > 0:
			for _, p := range o.stalled {
				d.stalledAtRecord(p, o, true)
			}
		default:
			// Nothing else of the member's advances, and its silence
			// is within its own rhythm: it is not stuck, and no other
			// partition shows a record it cannot pass.
		}
	}
}

// stalledAt: a live member owns the partition, the commit did not move
// over a full window, and there is lag (lag's STALL), and no open
// transaction explains it.
func (d *diagnosis) stalledAt(p *kafka.PartitionOffsets, h *lag.PartitionHealth) bool {
	if h.Status != lag.StatusStall || !p.HasCommit() || p.Lag <= 0 {
		return false
	}
	if st, ok := d.in.Reads.StableOf(p.Topic, p.Partition); ok && p.Committed >= st.Last {
		return false // stuck-behind-open-transaction says why
	}
	return true
}

// commitAge is how long the partition's commit has stood, at least, and
// false when the input cannot tell (Input.Unmoved).
func (d *diagnosis) commitAge(p *kafka.PartitionOffsets) (time.Duration, bool) {
	if d.in.Unmoved == nil {
		return 0, false
	}
	since, ok := d.in.Unmoved(p.Topic, p.Partition)
	if !ok {
		return 0, false
	}
	return max(d.in.Now.Sub(since), 0), true
}

// memberNotCommitting: one finding on the member, with its stalled
// partitions and, when the history shows it, the rhythm it committed at
// before; NEXT points at the member, never at skipping records.
func (d *diagnosis) memberNotCommitting(o *owner, a activity) {
	var (
		parts []string
		total int64
		age   time.Duration
		known bool
	)
	for _, p := range o.stalled {
		parts = append(parts, tpArg(p.Topic, p.Partition))
		total += p.Lag
		if a, ok := d.commitAge(p); ok && (!known || a < age) {
			age, known = a, true // the youngest of the stalled commits
		}
	}
	ev := Evidence{
		{"memberId", o.id},
		{"clientId", o.client},
		{"host", o.host},
		{"partitions", int64(o.owned)},
		{"stalled", int64(len(o.stalled))},
		{"advancing", int64(o.advancing)},
		{"lag", total},
		{"stalledPartitions", parts},
	}
	format := "member %s on %s stopped committing on %d of its %s while %s"
	args := []any{o.client, o.host, len(o.stalled), count(o.owned, "partition", "partitions"), count(total, "record waits", "records wait")}
	if known {
		ev = append(ev, Field{"lastCommitAgeSeconds", int64(age / time.Second)})
		format += "; last commit at least %s ago"
		args = append(args, Span(age))
	} else {
		ev = append(ev, Field{"lastCommitAgeSeconds", nil})
	}
	if a.moved {
		ev = append(ev, Field{"commitRhythmSeconds", int64(a.rhythm / time.Second)})
		format += " (it committed at least every %s before)"
		args = append(args, Span(a.rhythm))
	} else {
		ev = append(ev, Field{"commitRhythmSeconds", nil})
	}
	format += ": the member is stuck or its commits are off, not a record; read its logs and commit settings"
	d.add(Finding{
		ID: IDMemberNotCommitting, Severity: lag.SeverityErr, Partition: noPartition, Member: o.id, Offset: noOffset,
		Message:  msg(format, args...),
		Evidence: ev,
		Next: [][]string{
			d.describe("--members"),
			{"kgroups", "rebalance", d.group(), "--member", o.id},
		},
	})
}

// stalledAtRecord: one stalled partition, with the record at its commit.
// blame says the member's other partitions advance, so the record is the
// likely cause; without it, both explanations are given.
func (d *diagnosis) stalledAtRecord(p *kafka.PartitionOffsets, o *owner, blame bool) {
	ev := Evidence{
		{"committedOffset", p.Committed},
		{"logEndOffset", p.LogEnd},
		{"lag", p.Lag},
		{"memberId", p.MemberID},
		{"clientId", p.ClientID()},
		{"host", p.Host()},
		{"memberPartitions", int64(o.owned)},
		{"memberAdvancing", int64(o.advancing)},
	}
	if a, ok := d.commitAge(p); ok {
		ev = append(ev, Field{"lastCommitAgeSeconds", int64(a / time.Second)})
	} else {
		ev = append(ev, Field{"lastCommitAgeSeconds", nil})
	}
	record, rargs := "the record at offset %d (not read)", []any{p.Committed}
	if d.in.Reads != nil {
		if r, ok := d.in.Reads.Records[kafka.CommitKey{Topic: p.Topic, Partition: p.Partition, Offset: p.Committed}]; ok && r.Err == nil {
			ev = append(ev,
				Field{"recordOffset", r.Offset},
				Field{"recordTimestamp", r.Timestamp},
				Field{"recordKey", bytesValue(r.Key, r.NullKey)},
				Field{"recordKeyEncoding", encoding(r.Key, r.NullKey)},
				Field{"recordKeySize", int64(r.KeySize)},
				Field{"recordValuePreview", bytesValue(r.Value, r.NullValue)},
				Field{"recordValueEncoding", encoding(r.Value, r.NullValue)},
				Field{"recordValueSize", int64(r.ValueSize)},
			)
			record, rargs = "the record at offset %d (%s, produced %s)", []any{r.Offset, Size(r.ValueSize), Instant(r.Timestamp)}
		}
	}
	var m Message
	next := [][]string{d.peek(p.Topic, p.Partition)}
	if blame {
		m = msg("member %s commits on its other partitions but this commit stayed at %d over the window while %s: "+record+" is the likely cause",
			append([]any{p.ClientID(), p.Committed, count(p.Lag, "record waits", "records wait")}, rargs...)...)
		next = append(next, d.resetDryRun(p.Topic, p.Partition, "--shift-by", "1"))
	} else {
		m = msg("the commit of member %s stayed at %d over the window while %s: either it is stuck on "+record+
			", or the member stopped committing; nothing else it owns advances, so the polls cannot tell which",
			append([]any{p.ClientID(), p.Committed, count(p.Lag, "record waits", "records wait")}, rargs...)...)
		next = append(next, d.describe("--members"))
	}
	d.add(Finding{
		ID: IDStalledAtRecord, Severity: lag.SeverityErr, Topic: p.Topic, Partition: p.Partition, Member: p.MemberID, Offset: p.Committed,
		Message:  m,
		Evidence: ev,
		Next:     next,
	})
}
