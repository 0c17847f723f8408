package reset

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"sort"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/receipt"
	"github.com/kgroups/kgroups/kafka/write"
)

// ApplyOptions say where receipts go and who is acting.
type ApplyOptions struct {
	// ReceiptDir is where the receipt is written; required.
	ReceiptDir string
	// Context is the configuration context's name, for the receipt.
	Context string
	// User is recorded in the receipt; empty means receipt.CurrentUser().
	User string
	// Now is the clock for the receipt; nil means time.Now.
	Now func() time.Time
	// Note, when set, hears what the caller should tell the user: a
	// group lock taken over from a process that died holding it.
	Note func(string)
}

func (o ApplyOptions) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

func (o ApplyOptions) user() string {
	if o.User != "" {
		return o.User
	}
	return receipt.CurrentUser()
}

// PartitionResult is what happened to one partition: the offset asked for,
// the broker's answer and the offset re-read from the cluster afterwards.
// The re-read decides its Outcome (see kafka/write).
type PartitionResult struct {
	Topic     string
	Partition int32
	// Before is the committed offset before the change (NoOffset: none).
	Before int64
	// Want is the offset the plan set, NoOffset when it removed the commit.
	Want int64
	// Got is the committed offset re-read after the change, NoOffset when
	// there is none (or when the re-read failed: see ReadErr).
	Got int64
	// Err is the broker's answer for this partition when it was an error,
	// or why no answer came (a timeout, a broken connection).
	Err error
	// ReadErr is why the offsets could not be re-read afterwards.
	ReadErr error
	// Changed is set when the partition was verified and a second re-read
	// found another offset: another writer changed it after ours. It holds
	// that offset (NoOffset: the commit is gone).
	Changed *int64
}

// TP is the result's partition.
func (r PartitionResult) TP() TP { return TP{r.Topic, r.Partition} }

// Outcome is the verdict: verified when the re-read equals the target
// (whatever the answer), refused when the broker said no, changed after
// ours when a second re-read differs, unknown otherwise.
func (r PartitionResult) Outcome() write.Outcome {
	o := write.Decide(r.Got == r.Want, r.Err, r.ReadErr)
	if o == write.Verified && r.Changed != nil && *r.Changed != r.Want {
		return write.ChangedAfter
	}
	return o
}

// OK reports that the partition was verified to hold what the plan asked
// for.
func (r PartitionResult) OK() bool { return r.Outcome() == write.Verified }

// Status says the outcome in words: "ok"; "verified (the broker's answer
// was lost: ...)"; "refused: ..."; "outcome unknown: ..."; or "changed by
// another writer after ours (now N)".
func (r PartitionResult) Status() string {
	o := r.Outcome()
	w := write.Words{
		Done:     "ok",
		Verified: "verified",
		Standing: fmt.Sprintf("the re-read shows %s, wanted %s", fmtOffset(r.Got), fmtOffset(r.Want)),
	}
	w.Accepted = "the broker accepted it, but " + w.Standing
	if o == write.ChangedAfter {
		w.Changed = fmt.Sprintf("changed by another writer after ours (now %s)", fmtOffset(*r.Changed))
	}
	return write.Describe(o, r.Err, r.ReadErr, w)
}

// Result is the outcome of applying a plan.
type Result struct {
	Group string
	// Type is the group's type; for kafka.TypeShare the offsets are start
	// offsets.
	Type kafka.GroupType
	// ReceiptPath is the receipt written before the change; `kgroups undo`
	// takes it. Time is the receipt's time: when the change was made.
	ReceiptPath string
	Time        time.Time
	Partitions  []PartitionResult
	// LockNote says that the group's lock was taken over from a kgroups
	// that died holding it ("" when it was free), for callers that show
	// notes with the result rather than through ApplyOptions.Note.
	LockNote string
}

// OK reports that every partition was verified.
func (r *Result) OK() bool { return len(r.Failed()) == 0 }

// Failed lists the partitions that were not verified.
func (r *Result) Failed() []PartitionResult {
	var out []PartitionResult
	for _, p := range r.Partitions {
		if !p.OK() {
			out = append(out, p)
		}
	}
	return out
}

// Tally counts the partitions by outcome.
func (r *Result) Tally() write.Tally {
	var t write.Tally
	for _, p := range r.Partitions {
		t.Add(p.Outcome())
	}
	return t
}

// Outcome is the worst of the partitions' outcomes.
func (r *Result) Outcome() write.Outcome { return r.Tally().Worst() }

// action names what a plan does, for refusals.
func action(k Kind) string {
	switch k {
	case Undo:
		return "restore the offsets of"
	case DeleteOffsets:
		return "delete the offsets of"
	}
	return "reset the offsets of"
}

// receiptAction is the receipt's action for a plan.
func receiptAction(k Kind) string {
	switch k {
	case Undo:
		return receipt.ActionUndo
	case DeleteOffsets:
		return receipt.ActionDeleteOffsets
	}
	return receipt.ActionReset
}

// Blocker says why the plan cannot be applied to the group as it was when
// planned, or nil. Apply checks again with fresh data right before applying.
func (p *Plan) Blocker() error {
	return blocker(p, p.Exists, p.State, p.Members)
}

func blocker(p *Plan, exists bool, state string, members []kafka.Member) error {
	if writable(exists, state) {
		return nil
	}
	e := &LiveGroupError{Group: p.Group, State: state, Members: members, Action: action(p.Scenario.Kind), Type: p.Type}
	if p.Scenario.Kind == DeleteOffsets && p.Type != kafka.TypeShare {
		// Kafka lets offsets of topics the group no longer
		// subscribes to be deleted while it runs.
		e.Topics = subscribedTopics(members, rowTopics(p.Rows))
		if len(e.Topics) == 0 {
			return nil
		}
	}
	return e
}

func rowTPs(rows []Row) []TP {
	tps := make([]TP, len(rows))
	for i, r := range rows {
		tps[i] = r.TP()
	}
	return tps
}

func rowTopics(rows []Row) []string {
	var ts []string
	for _, r := range rows {
		if len(ts) == 0 || ts[len(ts)-1] != r.Topic {
			ts = append(ts, r.Topic)
		}
	}
	return ts
}

// subscribedTopics returns those of topics that a member subscribes to, by
// name or by regular expression, or has been assigned. A regular expression
// that Go cannot compile (the broker's are Java's) counts as matching, so
// kgroups errs on the side of refusing.
func subscribedTopics(members []kafka.Member, topics []string) []string {
	var out []string
	for _, t := range topics {
		if topicSubscribed(members, t) {
			out = append(out, t)
		}
	}
	return out
}

func topicSubscribed(members []kafka.Member, topic string) bool {
	for _, m := range members {
		for _, s := range m.Subscribed {
			if s == topic {
				return true
			}
		}
		for _, a := range append(append([]kafka.TopicPartitions(nil), m.Assignment...), m.Target...) {
			if a.Topic == topic {
				return true
			}
		}
		if m.SubscribedRegex != "" {
			re, err := regexp.Compile("^(?:" + m.SubscribedRegex + ")$")
			if err != nil || re.MatchString(topic) {
				return true
			}
		}
	}
	return false
}

// Apply carries out a plan, the one way kgroups changes offsets:
//
//  1. re-read the group and refuse unless it is Empty or does not exist
//     (or, deleting offsets, no member subscribes to the topics), and
//     unless the committed offsets are still those the plan showed;
//  2. write the receipt; if that fails, change nothing;
//  3. commit the new offsets (and delete the commits an undo removes),
//     checking each partition's answer, not just the request's;
//  4. re-read the committed offsets and report each partition.
//
// An error means nothing was changed. Once changes were sent, the Result
// says partition by partition what now holds; check Result.OK.
func Apply(ctx context.Context, cl *kafka.Client, p *Plan, opts ApplyOptions) (*Result, error) {
	res, err := apply(ctx, cl, p, opts)
	group := ""
	if p != nil {
		group = p.Group
	}
	logApplied(ctx, cl, group, res, err)
	return res, err
}

func apply(ctx context.Context, cl *kafka.Client, p *Plan, opts ApplyOptions) (*Result, error) {
	if p == nil || len(p.Rows) == 0 {
		return nil, errors.New("the plan has no partitions: nothing to apply")
	}
	if p.Scenario.Kind == DeleteOffsets && p.Type != kafka.TypeShare {
		if err := cl.Require(ctx, kafka.FeatureOffsetDelete); err != nil {
			return nil, fmt.Errorf("%w: nothing was sent and no receipt was written", err)
		}
	}
	lock, err := lockGroup(ctx, cl, p.Group, opts)
	if err != nil {
		return nil, err
	}
	defer func() { _ = lock.Unlock() }() // best effort, as in rebalance.Service
	in, err := readGroup(ctx, cl, p.Group)
	if err != nil {
		return nil, fmt.Errorf("re-check group before applying: %w", err)
	}
	if in.Exists && (in.Type == kafka.TypeShare) != (p.Type == kafka.TypeShare) {
		return nil, fmt.Errorf("group %q is now a %s group, but the plan was made for a %s group: nothing was changed; plan again", p.Group, typeName(in.Type), typeName(p.Type))
	}
	if err := blocker(p, in.Exists, in.State, in.Members); err != nil {
		return nil, err
	}
	var changed []string
	for _, r := range p.Rows {
		cur, ok := in.Committed[r.TP()]
		if !ok {
			cur = kafka.NoOffset
		}
		if cur != r.Current {
			changed = append(changed, fmt.Sprintf("%s: %s now, %s planned", r.TP(), fmtOffset(cur), fmtOffset(r.Current)))
		}
	}
	if len(changed) > 0 {
		return nil, &OffsetsChangedError{Group: p.Group, Changed: changed}
	}

	state := in.State
	if !in.Exists {
		state = ""
	}
	rc := &Receipt{
		GroupType: receiptType(p.Type),
		Header: receipt.Header{
			Version:   receipt.Version,
			Action:    receiptAction(p.Scenario.Kind),
			Cluster:   cl.Brokers(),
			ClusterID: lock.ClusterID,
			Context:   opts.Context,
			Group:     p.Group,
			Time:      opts.now().UTC(),
			User:      opts.user(),
		},
		Scenario:   p.Scenario.String(),
		Scope:      p.Scope.String(),
		GroupState: state,
	}
	for _, r := range p.Rows {
		rc.Offsets = append(rc.Offsets, ReceiptOffset{Topic: r.Topic, Partition: r.Partition, Before: offsetPtr(r.Current), After: offsetPtr(r.New)})
	}
	path, err := WriteReceipt(opts.ReceiptDir, rc)
	if err != nil {
		return nil, fmt.Errorf("%w: nothing was changed, because no change is made without a receipt", err)
	}

	logStep(ctx, cl, "write receipt", p.Group, slog.String("path", path))
	defer write.Begin("reset of group "+p.Group, path)()

	res := &Result{Group: p.Group, Type: p.Type, ReceiptPath: path, Time: rc.Time, LockNote: lock.Note}
	var errs map[TP]error
	if p.Type == kafka.TypeShare {
		errs = alterAndDeleteShare(ctx, cl, p.Group, p.Rows)
	} else {
		errs = commitAndDelete(ctx, cl, p.Group, p.Rows)
	}
	logStep(ctx, cl, "write apply", p.Group, slog.Int("partitions", len(p.Rows)), slog.Int("refused", countErrs(errs)))
	got, readErr := committed(ctx, cl, p.Group, p.Type, rowTPs(p.Rows))
	for _, r := range p.Rows {
		pr := PartitionResult{Topic: r.Topic, Partition: r.Partition, Before: r.Current, Want: r.New, Got: kafka.NoOffset}
		pr.Err = errs[r.TP()]
		if readErr != nil {
			pr.ReadErr = readErr
		} else if o, ok := got[r.TP()]; ok {
			pr.Got = o
		}
		res.Partitions = append(res.Partitions, pr)
	}
	recheck(ctx, cl, res)
	return res, nil
}

// afterVerify runs between the verifying re-read and the second one; tests
// set it to play another writer.
var afterVerify = func() {}

// recheck re-reads the verified partitions once more: one whose offset
// changed again was changed by another writer after ours, perhaps on
// another machine, and the report must not say ok. A failed second read
// leaves the verdict of the first.
func recheck(ctx context.Context, cl *kafka.Client, res *Result) {
	verified := false
	for _, p := range res.Partitions {
		verified = verified || p.OK()
	}
	if !verified {
		return
	}
	afterVerify()
	tps := make([]TP, len(res.Partitions))
	for i, p := range res.Partitions {
		tps[i] = p.TP()
	}
	again, err := committed(ctx, cl, res.Group, res.Type, tps)
	if err != nil {
		return
	}
	for i := range res.Partitions {
		p := &res.Partitions[i]
		if !p.OK() {
			continue
		}
		now, ok := again[p.TP()]
		if !ok {
			now = kafka.NoOffset
		}
		if now != p.Want {
			p.Changed = &now
		}
	}
}

func fmtOffset(o int64) string {
	if o < 0 {
		return "no commit"
	}
	return fmt.Sprint(o)
}

// commitAndDelete sends the plan's commits and deletions and returns each
// partition's error. kadm returns a nil error for a request whose partitions
// all failed, so every partition's own answer is checked.
func commitAndDelete(ctx context.Context, cl *kafka.Client, group string, rows []Row) map[TP]error {
	errs := make(map[TP]error)
	commits := make(kadm.Offsets)
	deletes := make(kadm.TopicsSet)
	for _, r := range rows {
		if r.New >= 0 {
			commits.AddOffset(r.Topic, r.Partition, r.New, -1)
		} else {
			deletes.Add(r.Topic, r.Partition)
		}
	}
	cctx, cancel := context.WithTimeout(ctx, cl.Timeout())
	defer cancel()
	if len(commits) > 0 {
		resp, err := cl.Admin().CommitOffsets(cctx, group, commits)
		commits.Each(func(o kadm.Offset) {
			tp := TP{o.Topic, o.Partition}
			switch {
			case err != nil:
				errs[tp] = fmt.Errorf("commit: %w", err)
			default:
				if or, ok := resp.Lookup(o.Topic, o.Partition); !ok {
					errs[tp] = errors.New("commit: no answer for this partition")
				} else if or.Err != nil {
					errs[tp] = fmt.Errorf("commit: %w", explain(or.Err))
				}
			}
		})
	}
	if len(deletes) > 0 {
		resp, err := cl.Admin().DeleteOffsets(cctx, group, deletes)
		for t, ps := range deletes {
			for p := range ps {
				tp := TP{t, p}
				switch {
				case errors.Is(err, kerr.GroupIDNotFound):
					// No group, so no commit: the goal holds.
				case err != nil:
					errs[tp] = fmt.Errorf("delete offset: %w", explain(err))
				default:
					if perr, ok := resp.Lookup(t, p); ok && perr != nil && !errors.Is(perr, kerr.UnknownTopicOrPartition) {
						errs[tp] = fmt.Errorf("delete offset: %w", explain(perr))
					}
				}
			}
		}
	}
	return errs
}

// explain adds what a broker error means here.
func explain(err error) error {
	switch {
	case errors.Is(err, kerr.UnknownMemberID), errors.Is(err, kerr.IllegalGeneration), errors.Is(err, kerr.StaleMemberEpoch):
		return fmt.Errorf("%w (the group has live members again)", err)
	case errors.Is(err, kerr.NonEmptyGroup):
		return fmt.Errorf("%w (the group has live members)", err)
	case errors.Is(err, kerr.GroupSubscribedToTopic):
		return fmt.Errorf("%w (a live member subscribes to the topic)", err)
	case errors.Is(err, kerr.GroupAuthorizationFailed), errors.Is(err, kerr.TopicAuthorizationFailed):
		return fmt.Errorf("%w (the context's credentials may not change this group)", err)
	}
	return err
}

// committed re-reads the group's committed offsets of the partitions tps,
// or a share group's start offsets, for a verdict: only a re-read that
// succeeded shows what holds. A partition the broker answers with an error fails the whole
// re-read (its absence would otherwise read as "no commit", which a
// deletion wants). GROUP_ID_NOT_FOUND proves that there are no commits
// only when a second, independent read agrees that the group is gone (no
// broker lists it); otherwise the re-read failed.
func committed(ctx context.Context, cl *kafka.Client, group string, typ kafka.GroupType, tps []TP) (map[TP]int64, error) {
	var out map[TP]int64
	var notFound bool
	var err error
	if typ == kafka.TypeShare {
		out, notFound, err = rereadShareStartOffsets(ctx, cl, group, tps)
	} else {
		out, notFound, err = fetchCommitted(ctx, cl, group, tps)
	}
	if err != nil || !notFound {
		return out, err
	}
	in, err := readGroup(ctx, cl, group)
	switch {
	case err != nil:
		return nil, fmt.Errorf("the offsets re-read answered %s, and the group could not be read to confirm it: %w", kerr.GroupIDNotFound.Message, err)
	case in.Exists:
		return nil, fmt.Errorf("the offsets re-read answered %w, but the group is still there (state %s)", kerr.GroupIDNotFound, in.State)
	}
	return map[TP]int64{}, nil
}

// fetchCommitted is one OffsetFetch of the commits of a consumer group
// for exactly the partitions tps, named in the request, so that every one
// of them is answered, with its offset (-1: no commit) or its error: a
// fetch of all topics leaves out, without a word, the topics the
// credentials may not describe, which would read as "no commit". A
// partition the answer leaves out fails the read. notFound reports
// GROUP_ID_NOT_FOUND, for committed to confirm.
func fetchCommitted(ctx context.Context, cl *kafka.Client, group string, tps []TP) (out map[TP]int64, notFound bool, err error) {
	fctx, cancel := context.WithTimeout(ctx, cl.Timeout())
	defer cancel()
	req := kmsg.NewPtrOffsetFetchRequest()
	req.Group = group
	byTopic := make(map[string][]int32)
	var order []string
	for _, tp := range tps {
		if _, ok := byTopic[tp.Topic]; !ok {
			order = append(order, tp.Topic)
		}
		byTopic[tp.Topic] = append(byTopic[tp.Topic], tp.Partition)
	}
	for _, t := range order {
		rt := kmsg.NewOffsetFetchRequestTopic()
		rt.Topic, rt.Partitions = t, byTopic[t]
		req.Topics = append(req.Topics, rt)
	}
	resp, err := req.RequestWith(fctx, cl.Kgo())
	if err != nil {
		return nil, false, err
	}
	type answer struct {
		offset int64
		err    error
	}
	answers := make(map[TP]answer)
	groupCode := resp.ErrorCode
	if len(resp.Groups) > 0 {
		g := resp.Groups[0]
		groupCode = g.ErrorCode
		for _, t := range g.Topics {
			for _, p := range t.Partitions {
				answers[TP{t.Topic, p.Partition}] = answer{p.Offset, kerr.ErrorForCode(p.ErrorCode)}
			}
		}
	} else {
		for _, t := range resp.Topics {
			for _, p := range t.Partitions {
				answers[TP{t.Topic, p.Partition}] = answer{p.Offset, kerr.ErrorForCode(p.ErrorCode)}
			}
		}
	}
	if gerr := kerr.ErrorForCode(groupCode); errors.Is(gerr, kerr.GroupIDNotFound) {
		return nil, true, nil
	} else if gerr != nil {
		return nil, false, gerr
	}
	out = make(map[TP]int64)
	var errs errList
	for _, tp := range tps {
		a, ok := answers[tp]
		switch {
		case !ok:
			errs.add(fmt.Errorf("offset of %s: no answer for this partition", tp))
		case a.err != nil:
			errs.add(fmt.Errorf("offset of %s: %w", tp, a.err))
		case a.offset >= 0:
			out[tp] = a.offset
		}
	}
	if err := errs.err(); err != nil {
		return nil, false, err
	}
	return out, false, nil
}

// sortedTPs returns the keys of m in order.
func sortedTPs[V any](m map[TP]V) []TP {
	out := make([]TP, 0, len(m))
	for tp := range m {
		out = append(out, tp)
	}
	sort.Slice(out, func(i, j int) bool { return lessTP(out[i], out[j]) })
	return out
}
