package diagnose

import "github.com/kgroups/kgroups/kafka/lag"

// slower: the group consumes slower than its producers write, beyond
// noise, with a lag past what is in flight. It stands on rates alone, not
// on the verdict's WARN:
//
//   - the rates are the partitions' produce and consume rates (log-end and
//     commit growth over the rate window; a commit that moves in jumps
//     still counts every record it passed), summed over the partitions a
//     member owns with a commit whose status is not STALL (a stalled
//     member is member-not-committing's, and its zero rate would blame
//     the whole group), or whose STALL is a slow member's partition
//     waiting its turn (stalls: the member still commits, and is behind
//     on its other partitions too);
//   - it needs a full window of observations, a produce rate above 0, a
//     consume rate below it by more than Config.SlowerSharePercent of it
//     (and more than lag.EqualRateMsgs), and a lag above what is in
//     flight (more than lag.KeepUpMessages and more than
//     lag.KeepUpSeconds of production);
//   - the lag grows by produce - consume messages a second, and the time
//     lag by 1 - consume/produce seconds a second (at these rates each
//     second of production takes produce/consume seconds to read), the
//     figure given as timeLagGrowthPerSecond;
//   - with at least as many members as partitions adding members cannot
//     help, and the finding says so; at these rates the group never
//     catches up, so catchUpSeconds is null;
//   - never while the group's catch-up answer (lag.CatchUp, held against
//     flapping, which the group screen's header and health's JSON show)
//     says caught up, keeping up or catching up: the two never
//     contradict each other.
func (d *diagnosis) slower() {
	v := &d.in.Verdict
	if v.Window <= 0 || v.Observations < v.Window {
		return
	}
	switch v.CatchUp.State {
	case lag.CaughtUp, lag.KeepingUp, lag.CatchingUp:
		// The header (the held catch-up answer, from the same rates)
		// says the group keeps up or closes its lag: a finding that
		// says it never catches up would contradict it on the same
		// screen. The answer changes once the rates held the new
		// trend; the finding follows it.
		return
	}
	var (
		prod, cons float64
		total      int64
		parts      int
	)
	for i := range d.in.Group.Partitions {
		p := &d.in.Group.Partitions[i]
		h := d.health[TP{p.Topic, p.Partition}]
		if h == nil || p.MemberID == "" || !p.HasCommit() || h.Status == lag.StatusStall && !d.waiting[TP{p.Topic, p.Partition}] || h.ProduceRate < 0 || h.ConsumeRate < 0 {
			continue
		}
		parts++
		prod += h.ProduceRate
		cons += h.ConsumeRate
		total += max(p.Lag, 0)
	}
	gap := prod - cons
	share := float64(d.in.Config.SlowerSharePercent) / 100
	if parts == 0 || prod <= 0 || gap <= lag.EqualRateMsgs || gap <= share*prod {
		return
	}
	if total <= lag.KeepUpMessages || float64(total) <= prod*lag.KeepUpSeconds {
		return
	}
	members := len(d.in.Group.Members)
	partitions := len(d.in.Group.Partitions)
	growth := round3(1 - cons/prod)
	ev := Evidence{
		{"produceRate", round3(prod)},
		{"consumeRate", round3(cons)},
		{"lagGrowthPerSecond", round3(gap)},
		{"lag", total},
	}
	tl := v.MaxTimeLag
	format := "the group consumes %s while %s is produced: its lag grows %s"
	args := []any{Rate(cons), Rate(prod), Rate(gap)}
	if tl.Known() {
		ev = append(ev, Field{"timeLagSeconds", round3(tl.Seconds)}, Field{"timeLagKind", tl.Kind.String()})
		format += " and its time lag (%s) %.2fs a second"
		args = append(args, seconds(tl.Seconds), growth)
	} else {
		ev = append(ev, Field{"timeLagSeconds", nil}, Field{"timeLagKind", tl.Kind.String()})
		format += " and its time lag %.2fs a second"
		args = append(args, growth)
	}
	canHelp := members < partitions
	ev = append(ev,
		Field{"timeLagGrowthPerSecond", growth},
		Field{"members", int64(members)},
		Field{"partitions", int64(partitions)},
		Field{"membersCanHelp", canHelp},
		Field{"catchUpSeconds", nil},
	)
	format += "; it never catches up at these rates; "
	if canHelp {
		verb := "share"
		if members == 1 {
			verb = "shares"
		}
		format += "%s %s %s: more members, or faster ones, would help"
		args = append(args, count(members, "member", "members"), verb, count(partitions, "partition", "partitions"))
	} else {
		format += "%s for %s: adding members cannot help, each must consume faster"
		args = append(args, count(members, "member", "members"), count(partitions, "partition", "partitions"))
	}
	d.add(Finding{
		ID: IDSlowerThanProducers, Severity: lag.SeverityWarn, Partition: noPartition, Offset: noOffset,
		Message:  msg(format, args...),
		Evidence: ev,
		Next:     [][]string{d.describe("--members")},
	})
}
