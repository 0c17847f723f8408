package diagnose

import (
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
)

// owner is what one live member's partitions show over the window.
type owner struct {
	id, client, host string
	owned            int
	// stalled are its STALL partitions that no open transaction
	// explains; advancing counts its other partitions whose commit moved
	// (a consume rate above 0), lagging its other partitions with lag.
	stalled            []*kafka.PartitionOffsets
	advancing, lagging int
}

// stalls judges the STALL partitions member by member, since what the
// member's other partitions do tells the member from the record:
//
//   - all, or at least Config.MemberShare, of the member's partitions with
//     lag stalled, two or more of them: one member-not-committing on the
//     member (its loop or its commits stopped; no record is to blame);
//   - a stalled partition while the same member's other partitions
//     advance: stalled-at-record there, blaming the record at the commit;
//   - a single stalled partition and nothing else of the member's that
//     advances: stalled-at-record worded with both explanations (the
//     record, or the member), since the polls cannot tell them apart.
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
			o = &owner{id: p.MemberID, client: p.ClientID, host: p.Host}
			by[p.MemberID] = o
			order = append(order, p.MemberID)
		}
		o.owned++
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
		}
		if h.ConsumeRate > 0 {
			o.advancing++
		}
	}
	for _, id := range order {
		o := by[id]
		n := len(o.stalled)
		switch {
		case n == 0:
		case n >= 2 && (o.advancing == 0 || float64(n) >= d.in.Config.MemberShare*float64(n+o.lagging)):
			d.memberNotCommitting(o)
		case o.advancing > 0:
			for _, p := range o.stalled {
				d.stalledAtRecord(p, o, true)
			}
		default:
			for _, p := range o.stalled {
				d.stalledAtRecord(p, o, false)
			}
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
// partitions; NEXT points at the member, never at skipping records.
func (d *diagnosis) memberNotCommitting(o *owner) {
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
	format := "member %s on %s stopped committing on %d of its %s while %d records wait"
	args := []any{o.client, o.host, len(o.stalled), plural(o.owned, "partition", "partitions"), total}
	if known {
		ev = append(ev, Field{"lastCommitAgeSeconds", int64(age / time.Second)})
		format += "; last commit at least %s ago"
		args = append(args, Span(age))
	} else {
		ev = append(ev, Field{"lastCommitAgeSeconds", nil})
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
		{"clientId", p.ClientID},
		{"host", p.Host},
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
		m = msg("member %s commits on its other partitions but this commit stayed at %d over the window while %d records wait: "+record+" is the likely cause",
			append([]any{p.ClientID, p.Committed, p.Lag}, rargs...)...)
		next = append(next, d.resetDryRun(p.Topic, p.Partition, "--shift-by", "1"))
	} else {
		m = msg("the commit of member %s stayed at %d over the window while %d records wait: either it is stuck on "+record+
			", or the member stopped committing; nothing else it owns advances, so the polls cannot tell which",
			append([]any{p.ClientID, p.Committed, p.Lag}, rargs...)...)
		next = append(next, d.describe("--members"))
	}
	d.add(Finding{
		ID: IDStalledAtRecord, Severity: lag.SeverityErr, Topic: p.Topic, Partition: p.Partition, Member: p.MemberID, Offset: p.Committed,
		Message:  m,
		Evidence: ev,
		Next:     next,
	})
}
