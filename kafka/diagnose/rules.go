package diagnose

import (
	"encoding/base64"
	"math"
	"slices"
	"sort"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
	"github.com/kgroups/kgroups/kafka/rebalance"
)

// Diagnose applies every rule to one group and returns its findings, most
// severe first, then by topic, partition and id. A healthy group has no
// ERR or WARN finding.
func Diagnose(in Input) []Finding {
	if in.Group == nil {
		return nil
	}
	in.Config = in.Config.normalize()
	// The maps are made only when there is something to put in them: a
	// healthy group (nearly every group of a poll) has no partitions in
	// its verdict and no member waiting, and reading a nil map is safe.
	d := diagnosis{in: in}
	if len(in.Verdict.Partitions) > 0 {
		d.health = make(map[TP]*lag.PartitionHealth, len(in.Verdict.Partitions))
	}
	for i := range in.Verdict.Partitions {
		p := &in.Verdict.Partitions[i]
		d.health[TP{p.Topic, p.Partition}] = p
	}
	for i := range in.Group.Partitions {
		p := &in.Group.Partitions[i]
		d.recordsLost(p)
		d.beyondLogEnd(p)
		d.openTransaction(p)
		d.behindRetention(p)
	}
	d.replaced()
	d.stalls()
	d.slower()
	d.noCommits()
	d.unassigned()
	d.lagSkew()
	d.storm()
	sort.SliceStable(d.out, func(i, j int) bool {
		a, b := &d.out[i], &d.out[j]
		if a.Severity != b.Severity {
			return a.Severity > b.Severity
		}
		if a.Topic != b.Topic {
			return a.Topic < b.Topic
		}
		if a.Partition != b.Partition {
			return a.Partition < b.Partition
		}
		if a.ID != b.ID {
			return a.ID < b.ID
		}
		return a.Member < b.Member
	})
	return d.out
}

type diagnosis struct {
	in     Input
	health map[TP]*lag.PartitionHealth
	// waiting are the STALL partitions of a slow member that still
	// commits: they wait their turn (stalls), and count in
	// slower-than-producers.
	waiting map[TP]bool
	out     []Finding
}

func (d *diagnosis) add(f Finding) { d.out = append(d.out, f) }

func (d *diagnosis) group() string { return d.in.Group.Name }

func tpArg(topic string, partition int32) string {
	return topic + ":" + strconv.FormatInt(int64(partition), 10)
}

// kgroups is a suggested kgroups command: the connection, the command, the
// group (by --group-base64 when its name cannot be pasted) and the rest.
func (d *diagnosis) kgroups(command string, rest ...string) []string {
	words := append(append([]string{"kgroups"}, d.in.Connection...), command)
	return kafka.Command(words, d.group(), rest...)
}

func (d *diagnosis) describe(extra ...string) []string {
	return d.kgroups("describe", extra...)
}

func (d *diagnosis) resetDryRun(topic string, partition int32, scenario ...string) []string {
	return d.kgroups("reset", slices.Concat(scenario, []string{"--topic", tpArg(topic, partition)})...)
}

func (d *diagnosis) peek(topic string, partition int32) []string {
	return d.kgroups("peek", "--topic", tpArg(topic, partition))
}

// recordsLost: the commit is below the log start.
func (d *diagnosis) recordsLost(p *kafka.PartitionOffsets) {
	if !p.HasCommit() || p.LogStart < 0 || p.Committed >= p.LogStart {
		return
	}
	lost := p.LogStart - p.Committed
	d.add(Finding{
		ID: IDRecordsLost, Severity: lag.SeverityErr, Topic: p.Topic, Partition: p.Partition, Offset: noOffset,
		Message: msg("committed offset %d is below the log start %d: %s deleted unread; it restarts at %d (earliest) or %d (latest)",
			p.Committed, p.LogStart, count(lost, "record was", "records were"), p.LogStart, p.LogEnd),
		Evidence: Evidence{
			{"committedOffset", p.Committed},
			{"logStartOffset", p.LogStart},
			{"logEndOffset", offsetValue(p.LogEnd)},
			{"recordsLost", lost},
			{"restartEarliest", p.LogStart},
			{"restartLatest", offsetValue(p.LogEnd)},
		},
		Next: [][]string{d.resetDryRun(p.Topic, p.Partition, "--to-earliest")},
	})
}

// beyondLogEnd: the commit is past the log end (topic recreated or
// truncated).
func (d *diagnosis) beyondLogEnd(p *kafka.PartitionOffsets) {
	if !p.HasCommit() || p.LogEnd < 0 || p.Committed <= p.LogEnd {
		return
	}
	d.add(Finding{
		ID: IDBeyondLogEnd, Severity: lag.SeverityErr, Topic: p.Topic, Partition: p.Partition, Offset: noOffset,
		Message: msg("committed offset %d is %d past the log end %d (topic recreated or truncated): it restarts at %d (earliest) or %d (latest), or fails",
			p.Committed, p.Committed-p.LogEnd, p.LogEnd, max(p.LogStart, 0), p.LogEnd),
		Evidence: Evidence{
			{"committedOffset", p.Committed},
			{"logStartOffset", offsetValue(p.LogStart)},
			{"logEndOffset", p.LogEnd},
			{"beyondBy", p.Committed - p.LogEnd},
		},
		Next: [][]string{d.resetDryRun(p.Topic, p.Partition, "--to-latest")},
	})
}

// openTransaction: the last stable offset trails the log end and did not
// move over the window.
func (d *diagnosis) openTransaction(p *kafka.PartitionOffsets) {
	st, ok := d.in.Reads.StableOf(p.Topic, p.Partition)
	if !ok || p.LogEnd < 0 || st.Last >= p.LogEnd || st.First != st.Last {
		return
	}
	tp := TP{p.Topic, p.Partition}
	var prod *Producer
	for i, pr := range d.in.Reads.Producers[tp] {
		if pr.TxnStartOffset < 0 {
			continue
		}
		if prod == nil || pr.TxnStartOffset < prod.TxnStartOffset {
			prod = &d.in.Reads.Producers[tp][i]
		}
	}
	ev := Evidence{
		{"lastStableOffset", st.Last},
		{"logEndOffset", p.LogEnd},
		{"committedOffset", offsetValue(p.Committed)},
		{"lagToStable", nullable(p.HasCommit(), LagToStable(p.Committed, st.Last))},
	}
	var txn *Transaction
	words, wargs := "no producer with an open transaction was listed", []any(nil)
	if d.in.Reads.Lacks(kafka.FeatureProducers) {
		words = "its producer was not read"
	}
	if prod != nil {
		if t, ok := d.in.Reads.Transactions[prod.ProducerID]; ok {
			txn = &t
		}
	}
	if prod == nil {
		ev = append(ev, Field{"producerId", nil}, Field{"producerEpoch", nil})
	} else {
		ev = append(ev, Field{"producerId", prod.ProducerID}, Field{"producerEpoch", int64(prod.ProducerEpoch)})
	}
	var open any
	if txn != nil {
		ev = append(ev, Field{"transactionalId", txn.TransactionalID}, Field{"transactionState", txn.State})
		words, wargs = "transaction %q (producer %d, %s)", []any{txn.TransactionalID, txn.ProducerID, txn.State}
		if txn.StartTimestamp >= 0 {
			ms := max(d.in.Now.UnixMilli()-txn.StartTimestamp, 0)
			open = ms / 1000
			words += " open %s"
			wargs = append(wargs, Span(time.Duration(ms)*time.Millisecond))
		}
		words += ", timeout %s"
		wargs = append(wargs, Span(time.Duration(txn.TimeoutMillis)*time.Millisecond))
	} else {
		ev = append(ev, Field{"transactionalId", nil}, Field{"transactionState", nil})
		if prod != nil {
			words, wargs = "producer %d has a transaction open since offset %d", []any{prod.ProducerID, prod.TxnStartOffset}
		}
	}
	if prod == nil {
		ev = append(ev, Field{"transactionStartOffset", nil}, Field{"lastTimestamp", nil})
	} else {
		ev = append(ev, Field{"transactionStartOffset", prod.TxnStartOffset}, Field{"lastTimestamp", nullable(prod.LastTimestamp >= 0, prod.LastTimestamp)})
	}
	if txn != nil {
		ev = append(ev, Field{"timeoutMs", int64(txn.TimeoutMillis)})
	} else {
		ev = append(ev, Field{"timeoutMs", nil})
	}
	ev = append(ev, Field{"openForSeconds", open})
	sev := lag.SeverityErr
	if p.HasCommit() && p.Committed < st.Last {
		// Still records to read before the barrier: not stuck yet.
		sev = lag.SeverityWarn
	}
	next := []string{"kafka-transactions.sh", "--bootstrap-server", d.bootstrap(), "describe-producers", "--topic", p.Topic, "--partition", strconv.FormatInt(int64(p.Partition), 10)}
	switch {
	case txn != nil:
		next = []string{"kafka-transactions.sh", "--bootstrap-server", d.bootstrap(), "describe", "--transactional-id", txn.TransactionalID}
	case d.in.Reads.Lacks(kafka.FeatureProducers):
		// Brokers before Kafka 2.8 cannot list producers, for
		// kafka-transactions.sh either: the record at the barrier is
		// what can be read.
		next = d.kgroups("peek", "--topic", tpArg(p.Topic, p.Partition), "--offset", strconv.FormatInt(st.Last, 10))
	}
	d.add(Finding{
		ID: IDOpenTransaction, Severity: sev, Topic: p.Topic, Partition: p.Partition, Offset: st.Last,
		Message: msg("the last stable offset %d trails the log end %d and did not move: read_committed consumers cannot pass it; "+words,
			append([]any{st.Last, p.LogEnd}, wargs...)...),
		Evidence: ev,
		Next:     [][]string{next},
	})
}

func (d *diagnosis) bootstrap() string {
	if d.in.Bootstrap != "" {
		return d.in.Bootstrap
	}
	return "BROKER:9092"
}

// behindRetention: the time lag is within the margin of the topic's
// retention.ms.
func (d *diagnosis) behindRetention(p *kafka.PartitionOffsets) {
	h := d.health[TP{p.Topic, p.Partition}]
	if h == nil || d.in.Reads == nil || p.Lag <= 0 || (p.LogStart >= 0 && p.Committed < p.LogStart) {
		return
	}
	ret, ok := d.in.Reads.Retention[p.Topic]
	if !ok || ret <= 0 || !h.TimeLag.Known() || h.TimeLag.Kind == lag.TimeLagCaughtUp {
		return
	}
	margin := ret * int64(d.in.Config.RetentionMarginPercent) / 100
	lagMs := int64(math.Round(h.TimeLag.Seconds * 1000))
	if lagMs < ret-margin {
		return
	}
	d.add(Finding{
		ID: IDBehindRetention, Severity: lag.SeverityWarn, Topic: p.Topic, Partition: p.Partition, Offset: noOffset,
		Message: msg("the consumer is %s behind and the topic keeps records %s: records will be deleted unread if nothing changes",
			Span(time.Duration(lagMs)*time.Millisecond), Span(time.Duration(ret)*time.Millisecond)),
		Evidence: Evidence{
			{"timeLagSeconds", round3(h.TimeLag.Seconds)},
			{"timeLagKind", h.TimeLag.Kind.String()},
			{"retentionMs", ret},
			{"marginMs", margin},
			{"secondsLeft", (ret - lagMs) / 1000},
			{"committedOffset", p.Committed},
			{"logStartOffset", offsetValue(p.LogStart)},
		},
		Next: [][]string{d.describe("--time-lag")},
	})
}

// noCommits: lag's NO-COMMITS, one finding per member.
func (d *diagnosis) noCommits() {
	type owned struct {
		parts []string
		obs   int
		first *kafka.PartitionOffsets
	}
	by := make(map[string]*owned)
	var order []string
	for i := range d.in.Group.Partitions {
		p := &d.in.Group.Partitions[i]
		h := d.health[TP{p.Topic, p.Partition}]
		if h == nil || h.Status != lag.StatusNoCommits || p.MemberID == "" {
			continue
		}
		o := by[p.MemberID]
		if o == nil {
			o = &owned{first: p, obs: h.Observations}
			by[p.MemberID] = o
			order = append(order, p.MemberID)
		}
		o.parts = append(o.parts, tpArg(p.Topic, p.Partition))
		o.obs = min(o.obs, h.Observations)
	}
	for _, id := range order {
		o := by[id]
		f := Finding{
			ID: IDNoCommits, Severity: lag.SeverityWarn, Partition: noPartition, Member: id, Offset: noOffset,
			Message: msg("member %s owns %s the group never committed for: lag cannot be measured and a restart begins at auto.offset.reset",
				o.first.ClientID(), count(len(o.parts), "partition", "partitions")),
			Evidence: Evidence{
				{"memberId", id},
				{"clientId", o.first.ClientID()},
				{"host", o.first.Host()},
				{"partitions", int64(len(o.parts))},
				{"observations", int64(o.obs)},
				{"uncommitted", o.parts},
			},
			Next: [][]string{d.describe()},
		}
		if len(o.parts) == 1 {
			f.Topic, f.Partition = o.first.Topic, o.first.Partition
		}
		d.add(f)
	}
}

// unassigned: a Stable group subscribes to a topic whose partitions are
// not all assigned.
func (d *diagnosis) unassigned() {
	g := d.in.Group
	if g.State != kafka.StateStable || len(g.Members) == 0 {
		return
	}
	subscribed := make(map[string]bool)
	assigned := make(map[string]map[int32]bool)
	for i := range g.Members {
		m := &g.Members[i]
		for _, t := range m.Subscribed {
			subscribed[t] = true
		}
		for _, tp := range m.Assignment {
			if assigned[tp.Topic] == nil {
				assigned[tp.Topic] = make(map[int32]bool)
			}
			for _, p := range tp.Partitions {
				assigned[tp.Topic][p] = true
			}
		}
	}
	topics := make([]string, 0, len(subscribed))
	for t := range subscribed {
		topics = append(topics, t)
	}
	sort.Strings(topics)
	for _, t := range topics {
		n, ok := d.in.PartitionCounts[t]
		if !ok {
			continue
		}
		var missing []int64
		for p := range n {
			if !assigned[t][p] {
				missing = append(missing, int64(p))
			}
		}
		if len(missing) == 0 {
			continue
		}
		d.add(Finding{
			ID: IDUnassigned, Severity: lag.SeverityWarn, Topic: t, Partition: noPartition, Offset: noOffset,
			Message: msg("the group is Stable and subscribes to the topic, but %d of its %s no owner: added since the last rebalance, or no member can take them",
				len(missing), count(int(n), "partition has", "partitions have")),
			Evidence: Evidence{
				{"partitions", int64(n)},
				{"assigned", int64(int(n) - len(missing))},
				{"unassigned", int64(len(missing))},
				{"unassignedPartitions", missing},
				{"members", int64(len(g.Members))},
			},
			Next: [][]string{d.describe("--members")},
		})
	}
}

// lagSkew: one member holds most of the lag while the others hold almost
// none.
func (d *diagnosis) lagSkew() {
	g := d.in.Group
	if len(g.Members) < 2 {
		return
	}
	lags := make(map[string]int64, len(g.Members))
	parts := make(map[string]int64, len(g.Members))
	var total int64
	for i := range g.Partitions {
		p := &g.Partitions[i]
		if p.MemberID == "" || p.Lag <= 0 {
			continue
		}
		lags[p.MemberID] += p.Lag
		total += p.Lag
	}
	if total < d.in.Config.SkewMinLag {
		return
	}
	top := -1
	for i := range g.Members {
		m := &g.Members[i]
		parts[m.MemberID] = int64(m.PartitionCount())
		if top < 0 || lags[m.MemberID] > lags[g.Members[top].MemberID] {
			top = i
		}
	}
	tm := &g.Members[top]
	if float64(lags[tm.MemberID]) < d.in.Config.SkewShare*float64(total) {
		return
	}
	members := make([]Evidence, 0, len(g.Members))
	for i := range g.Members {
		m := &g.Members[i]
		if i != top && float64(lags[m.MemberID]) > d.in.Config.SkewNearZero*float64(total) {
			return
		}
		members = append(members, Evidence{
			{"memberId", m.MemberID},
			{"clientId", m.ClientID},
			{"host", m.Host},
			{"partitions", parts[m.MemberID]},
			{"lag", lags[m.MemberID]},
		})
	}
	share := lags[tm.MemberID] * 100 / total
	d.add(Finding{
		ID: IDLagSkew, Severity: lag.SeverityWarn, Partition: noPartition, Member: tm.MemberID, Offset: noOffset,
		Message: msg("member %s holds %d%% of the group's lag (%d of %d) while the other %s near 0: a slow member, a hot partition or an uneven assignment",
			tm.ClientID, share, lags[tm.MemberID], total, count(len(g.Members)-1, "member is", "members are")),
		Evidence: Evidence{
			{"totalLag", total},
			{"memberId", tm.MemberID},
			{"memberLag", lags[tm.MemberID]},
			{"sharePercent", share},
			{"members", members},
		},
		Next: [][]string{d.describe()},
	})
}

// storm: more rebalances than the threshold in the window.
func (d *diagnosis) storm() {
	var n int64
	var joined, left []Evidence
	for _, e := range d.in.Events {
		if e.Time.Before(d.in.Since) || e.Time.After(d.in.Now) {
			continue
		}
		switch e.Kind {
		case rebalance.EventRebalance:
			n++
		case rebalance.EventJoined:
			joined = append(joined, memberEvidence(e))
		case rebalance.EventLeft:
			left = append(left, memberEvidence(e))
		}
	}
	if n <= int64(d.in.Config.StormRebalances) {
		return
	}
	if joined == nil {
		joined = []Evidence{}
	}
	if left == nil {
		left = []Evidence{}
	}
	window := d.in.Now.Sub(d.in.Since)
	d.add(Finding{
		ID: IDRebalanceStorm, Severity: lag.SeverityWarn, Partition: noPartition, Offset: noOffset,
		Message: msg("%s in %s (more than %d): %s joined and %d left; members that crash, time out or restart keep the group from consuming",
			count(n, "rebalance", "rebalances"), Span(window), d.in.Config.StormRebalances, count(len(joined), "member", "members"), len(left)),
		Evidence: Evidence{
			{"rebalances", n},
			{"threshold", int64(d.in.Config.StormRebalances)},
			{"windowSeconds", int64(window.Seconds())},
			{"joined", joined},
			{"left", left},
		},
		Next: [][]string{d.describe("--members")},
	})
}

func memberEvidence(e rebalance.Event) Evidence {
	return Evidence{{"memberId", e.MemberID}, {"clientId", e.ClientID}, {"host", e.Host}}
}

// LagToStable is a read_committed consumer's real backlog: the records
// from its commit up to the last stable offset, never below 0.
func LagToStable(committed, stable int64) int64 {
	return max(stable-committed, 0)
}

func offsetValue(o int64) any {
	if o < 0 {
		return nil
	}
	return o
}

func nullable(ok bool, v int64) any {
	if !ok {
		return nil
	}
	return v
}

// bytesValue is a record's key or value preview for the evidence: the
// text when it is UTF-8, else its exact bytes in standard base64
// (encoding says which), nil for a null.
func bytesValue(b []byte, null bool) any {
	switch {
	case null:
		return nil
	case utf8.Valid(b):
		return string(b)
	}
	return base64.StdEncoding.EncodeToString(b)
}

func encoding(b []byte, null bool) any {
	switch {
	case null:
		return nil
	case utf8.Valid(b):
		return "text"
	}
	return "base64"
}

func round3(s float64) float64 { return math.Round(s*1000) / 1000 }

// replaced: partitions whose log kgroups saw replaced within the history
// (lag.PartitionHealth.Restarted: the topic recreated, or another cluster
// at the address), one finding a topic. Their history started again, so
// no REWIND compares the new log's offsets with the old one's, and the
// verdict waits for a window of the new log; the consumer may have
// restarted from auto.offset.reset.
func (d *diagnosis) replaced() {
	byTopic := map[string][]int32{}
	at := map[string]time.Time{}
	var topics []string
	for i := range d.in.Verdict.Partitions {
		p := &d.in.Verdict.Partitions[i]
		if p.Restarted.IsZero() {
			continue
		}
		if _, ok := byTopic[p.Topic]; !ok {
			topics = append(topics, p.Topic)
		}
		byTopic[p.Topic] = append(byTopic[p.Topic], p.Partition)
		if p.Restarted.After(at[p.Topic]) {
			at[p.Topic] = p.Restarted
		}
	}
	sort.Strings(topics)
	for _, topic := range topics {
		parts := byTopic[topic]
		d.add(Finding{
			ID: IDLogReplaced, Severity: lag.SeverityWarn, Topic: topic, Partition: noPartition, Offset: noOffset,
			Message: msg("the log of %s was replaced at %s (topic recreated, or another cluster at the address): its history starts again there, "+
				"and its offsets are not compared across it; the consumer restarted from its auto.offset.reset if its commits went with the topic",
				count(len(parts), "partition of "+topic, "partitions of "+topic), Instant(at[topic].UnixMilli())),
			Evidence: Evidence{
				{"partitions", int64(len(parts))},
				{"replacedTimestamp", at[topic].UnixMilli()},
			},
			Next: [][]string{d.describe()},
		})
	}
}
