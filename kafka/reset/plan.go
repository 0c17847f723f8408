package reset

import (
	"errors"
	"fmt"
	"maps"
	"sort"
	"strings"
	"time"

	"github.com/kgroups/kgroups/kafka"
)

// Inputs is everything Build needs, as read from the cluster by Prepare (or
// written out by a test). Maps are keyed by partition; a partition missing
// from LogStart or LogEnd has unknown log bounds.
type Inputs struct {
	Group string
	// Exists is false for a group the cluster does not know.
	Exists  bool
	State   string
	Members []kafka.Member
	// Type is the group's type; kafka.TypeShare takes the share path,
	// where Committed holds start offsets. Streams is set for streams
	// groups.
	Type    kafka.GroupType
	Streams *kafka.StreamsInfo
	// Committed holds the partitions that have a commit.
	Committed map[TP]int64
	// Uninitialized holds a share group's partitions that
	// DescribeShareGroupOffsets lists without a start offset: no commit,
	// but --all-topics covers them.
	Uninitialized map[TP]bool
	// Partitions is the partition count of every topic that exists among
	// those the request names; a topic absent here does not exist.
	Partitions map[string]int32
	LogStart   map[TP]int64
	LogEnd     map[TP]int64
	// AtTime is, for the by-time scenarios, the first offset whose record
	// timestamp is at or after Time; a partition absent here (or at or
	// beyond its log end) has no such record.
	AtTime map[TP]int64
	// Time is the instant the by-time scenarios look up.
	Time time.Time
	// Now is when the plan is made.
	Now time.Time
}

// Row is one partition of a plan.
type Row struct {
	Topic     string
	Partition int32
	// Current is the committed offset now, or NoOffset.
	Current int64
	// New is the offset the plan commits, or NoOffset when it removes the
	// partition's commit (undo of a partition that had none before).
	New      int64
	LogStart int64
	LogEnd   int64
	// Note says why New is not simply what was asked for: clamped to the
	// log, a fallback to the log end, a commit removed.
	Note string
}

// TP is the row's partition.
func (r Row) TP() TP { return TP{r.Topic, r.Partition} }

// Delta is New - Current: negative means records consumed again, positive
// means records skipped. ok is false when either side is absent.
func (r Row) Delta() (delta int64, ok bool) {
	if r.Current < 0 || r.New < 0 {
		return 0, false
	}
	return r.New - r.Current, true
}

// Changed reports whether applying the row changes anything.
func (r Row) Changed() bool { return r.New != r.Current }

// Plan is a complete, reviewable description of a reset: which partitions
// move where, and what the group looked like when it was made.
type Plan struct {
	Group   string
	Exists  bool
	State   string
	Members []kafka.Member
	// Type is the group's type: for kafka.TypeShare, Current and New are
	// share-partition start offsets, set with AlterShareGroupOffsets.
	Type     kafka.GroupType
	Scenario Scenario
	Scope    Scope
	// Time is the instant by-time scenarios looked up (zero otherwise).
	Time time.Time
	// Made is when the plan was made.
	Made time.Time
	// Rows are sorted by topic and partition.
	Rows []Row
	// Warnings are things to read before confirming that do not stop the
	// plan, such as an undo receipt written for other brokers.
	Warnings []string
}

// Summary is what a plan amounts to, for the preview's last line.
type Summary struct {
	Partitions int
	// Changed counts the partitions whose offset moves.
	Changed int
	// Rewind is how many records will be consumed again (the sum of the
	// negative deltas); Skip is how many will be skipped (the sum of the
	// positive ones).
	Rewind int64
	Skip   int64
	// NoCommit counts partitions without a commit now, whose delta is
	// unknown: where their consumer starts depends on its
	// auto.offset.reset.
	NoCommit int
	// Share says the offsets are a share group's start offsets, so that
	// a partition without one is worded so.
	Share bool
}

// Summary totals the plan.
func (p *Plan) Summary() Summary {
	s := Summary{Partitions: len(p.Rows), Share: p.Type == kafka.TypeShare}
	for _, r := range p.Rows {
		if r.Changed() {
			s.Changed++
		}
		if r.Current < 0 {
			s.NoCommit++
		}
		if d, ok := r.Delta(); ok {
			if d < 0 {
				s.Rewind -= d
			} else {
				s.Skip += d
			}
		}
	}
	return s
}

// String renders the summary as one sentence for previews.
func (s Summary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d %s change; %d %s will be consumed again, %d skipped",
		s.Changed, s.Partitions, kafka.Noun(s.Partitions, "partition", "partitions"), s.Rewind, kafka.Noun(s.Rewind, "record", "records"), s.Skip)
	if s.NoCommit > 0 {
		what := "commit"
		if s.Share {
			what = "start offset"
		}
		fmt.Fprintf(&b, "; %d %s had no %s", s.NoCommit, kafka.Noun(s.NoCommit, "partition", "partitions"), what)
	}
	return b.String()
}

// Offsets returns the plan's target offsets as offsets-file rows, for
// --export.
func (p *Plan) Offsets() []FileRow {
	out := make([]FileRow, 0, len(p.Rows))
	for _, r := range p.Rows {
		if r.New >= 0 {
			out = append(out, FileRow{Group: p.Group, Topic: r.Topic, Partition: r.Partition, Offset: r.New})
		}
	}
	return out
}

// Build computes a plan from what was read. It is pure: the same inputs give
// the same plan. Every problem with the request (an unknown topic, a
// partition out of range, shift-by without a commit, unknown log bounds) is
// collected into one error, so a user sees them all at once.
func Build(in Inputs, sc Scenario, scope Scope) (*Plan, error) {
	if err := sc.Validate(); err != nil {
		return nil, err
	}
	if sc.NeedsScope() && scope.IsZero() {
		return nil, errors.New("no scope: give --all-topics or one or more --topic TOPIC[:P,...]")
	}
	targets, explicit, err := targetPartitions(in, sc, scope)
	if err != nil {
		return nil, err
	}
	p := &Plan{
		Group:    in.Group,
		Exists:   in.Exists,
		State:    in.State,
		Members:  in.Members,
		Type:     in.Type,
		Scenario: sc,
		Scope:    scope,
		Made:     in.Now,
	}
	if sc.ByTime() {
		p.Time = in.Time
	}
	var errs errList
	var noCommit []string
	for _, tp := range targets {
		start, okStart := in.LogStart[tp]
		end, okEnd := in.LogEnd[tp]
		if !okStart || !okEnd || start < 0 || end < 0 {
			errs.add(fmt.Errorf("partition %s: its log start and end offsets could not be read", tp))
			continue
		}
		cur, has := in.Committed[tp]
		if !has {
			cur = kafka.NoOffset
		}
		r := Row{Topic: tp.Topic, Partition: tp.Partition, Current: cur, LogStart: start, LogEnd: end}
		switch sc.Kind {
		case ToEarliest:
			r.New = start
		case ToLatest:
			r.New = end
		case ToCurrent:
			if has {
				r.New = cur
			} else {
				r.New = end
				r.Note = "no commit: log end"
			}
		case ToOffset:
			r.New, r.Note = clamp(sc.Offset, start, end)
		case ShiftBy:
			if !has {
				noCommit = append(noCommit, tp.String())
				continue
			}
			r.New, r.Note = clamp(addSaturating(cur, sc.Shift), start, end)
		case ToDatetime, ByDuration:
			at, found := in.AtTime[tp]
			switch {
			case !found || at < 0 || at >= end:
				r.New = end
				r.Note = "no record at or after " + FormatTime(in.Time) + ": log end"
			case at < start:
				r.New, r.Note = clamp(at, start, end)
			default:
				r.New = at
			}
		case FromFile, Undo:
			want := explicit[tp]
			if want < 0 {
				r.New = kafka.NoOffset
				r.Note = "no commit before: remove"
				break
			}
			r.New, r.Note = clamp(want, start, end)
		}
		p.Rows = append(p.Rows, r)
	}
	if len(noCommit) > 0 {
		errs.add(fmt.Errorf("--shift-by moves a committed offset, and group %q has no commit for %s: reset those with --to-earliest, --to-latest or --to-offset, or leave them out of --topic",
			in.Group, listed(noCommit)))
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	return p, nil
}

// targetPartitions resolves the scope (and for from-file and undo, the rows)
// into sorted partitions, checking every topic and partition against the
// cluster. explicit holds the offsets the file or receipt asks for.
func targetPartitions(in Inputs, sc Scenario, scope Scope) ([]TP, map[TP]int64, error) {
	var errs errList
	set := make(map[TP]bool)
	var explicit map[TP]int64
	checkTP := func(tp TP, what string) bool {
		n, ok := in.Partitions[tp.Topic]
		if !ok {
			errs.add(fmt.Errorf("%stopic %q does not exist", what, tp.Topic))
			return false
		}
		if tp.Partition >= n {
			errs.add(fmt.Errorf("%stopic %q has %s; partition %d does not exist", what, tp.Topic, partitionRange(n), tp.Partition))
			return false
		}
		return true
	}
	switch {
	case sc.Kind == FromFile || sc.Kind == Undo:
		rows := sc.Rows
		if sc.Kind == FromFile {
			var err error
			if rows, err = RowsForGroup(rows, in.Group); err != nil {
				return nil, nil, err
			}
		}
		explicit = make(map[TP]int64, len(rows))
		for _, r := range rows {
			tp := r.TP()
			if !scope.contains(tp) {
				continue
			}
			where := ""
			if r.Line > 0 {
				where = fmt.Sprintf("line %d: ", r.Line)
			}
			if checkTP(tp, where) {
				set[tp] = true
				explicit[tp] = r.Offset
			}
		}
		if errs.empty() && len(set) == 0 {
			errs.add(fmt.Errorf("no row of %s is within %s", sc.Source, scope))
		}
	case scope.AllTopics:
		all := in.Committed
		if len(in.Uninitialized) > 0 {
			all = make(map[TP]int64, len(in.Committed)+len(in.Uninitialized))
			maps.Copy(all, in.Committed)
			for tp := range in.Uninitialized {
				all[tp] = kafka.NoOffset
			}
		}
		for tp := range all {
			if _, ok := in.Partitions[tp.Topic]; !ok {
				errs.add(fmt.Errorf("group %q has a commit for %s, but topic %q no longer exists: name the other topics with --topic, or remove these offsets with kgroups delete-offsets", in.Group, tp, tp.Topic))
				continue
			}
			if checkTP(tp, "") {
				set[tp] = true
			}
		}
		if errs.empty() && len(set) == 0 {
			errs.add(fmt.Errorf("group %q has no committed offsets, so --all-topics covers nothing: name the topics with --topic", in.Group))
		}
	default:
		for _, ts := range scope.Topics {
			n, ok := in.Partitions[ts.Topic]
			if err := topicScopeError(ts, n, ok); err != nil {
				errs.add(err)
			}
			if !ok {
				continue
			}
			if ts.Partitions == nil {
				for p := int32(0); p < n; p++ {
					set[TP{ts.Topic, p}] = true
				}
				continue
			}
			for _, p := range ts.Partitions {
				if p < n {
					set[TP{ts.Topic, p}] = true
				}
			}
		}
	}
	if err := errs.err(); err != nil {
		return nil, nil, err
	}
	tps := make([]TP, 0, len(set))
	for tp := range set {
		tps = append(tps, tp)
	}
	sort.Slice(tps, func(i, j int) bool { return lessTP(tps[i], tps[j]) })
	return tps, explicit, nil
}

// topicScopeError says why ts does not fit its topic, which has n
// partitions when ok (else it does not exist): what the topic has, and
// which partitions typed are not among them. Nil when it fits.
func topicScopeError(ts TopicScope, n int32, ok bool) error {
	if !ok {
		return fmt.Errorf("topic %q does not exist", ts.Topic)
	}
	var out []string
	for _, p := range ts.Partitions {
		if p >= n {
			out = append(out, fmt.Sprint(p))
		}
	}
	if len(out) == 0 {
		return nil
	}
	what := "partition " + out[0] + " does not exist"
	if len(out) > 1 {
		what = "partitions " + listed(out) + " do not exist"
	}
	return fmt.Errorf("topic %q has %s; %s", ts.Topic, partitionRange(n), what)
}

// CheckScope checks the topics of scope against partition counts (a
// poll's kafka.Snapshot.PartitionCounts) with the plan's own rule and
// words, so that a form can flag a partition that does not exist as it is
// typed. Nil counts check nothing; a scope of all topics needs no check.
func CheckScope(scope Scope, counts map[string]int32) error {
	if counts == nil {
		return nil
	}
	var errs []error
	for _, ts := range scope.Topics {
		n, ok := counts[ts.Topic]
		if err := topicScopeError(ts, n, ok); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// partitionRange says which partitions a topic has: "partitions 0-2 (3
// partitions)", or "1 partition (0)".
func partitionRange(n int32) string {
	switch n {
	case 0:
		return "no partitions"
	case 1:
		return "1 partition (0)"
	}
	return fmt.Sprintf("%d partitions (0-%d)", n, n-1)
}

// clamp keeps an offset within the log, as kafka-consumer-groups.sh does for
// --to-offset, --shift-by and --from-file, and says so when it had to.
func clamp(want, start, end int64) (int64, string) {
	switch {
	case want < start:
		return start, fmt.Sprintf("%d is before the log start: clamped to %d", want, start)
	case want > end:
		return end, fmt.Sprintf("%d is past the log end: clamped to %d", want, end)
	}
	return want, ""
}

// addSaturating adds without wrapping, so that a huge --shift-by clamps
// rather than overflowing into a nonsense offset.
func addSaturating(a, b int64) int64 {
	s := a + b
	if b > 0 && s < a {
		return 1<<63 - 1
	}
	if b < 0 && s > a {
		return -1 << 63
	}
	return s
}
