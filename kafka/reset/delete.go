package reset

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"time"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/receipt"
	"github.com/kgroups/kgroups/kafka/write"
)

// GroupDeletion is the plan to delete one group: what it is now and the
// offsets that deleting it throws away (which its receipt keeps).
type GroupDeletion struct {
	Group   string
	Exists  bool
	State   string
	Members []kafka.Member
	// Type is the group's type; a share group's Offsets are its start
	// offsets. DeleteGroups deletes either.
	Type kafka.GroupType
	// Offsets are the group's commits, sorted; New is NoOffset in each.
	Offsets []Row
	// Made is when the plan was made.
	Made time.Time
}

// Blocker says why the group cannot be deleted as planned, or nil: it does
// not exist, or it is not Empty (Kafka deletes only Empty groups).
func (d *GroupDeletion) Blocker() error {
	if !d.Exists {
		return &GroupNotFoundError{Group: d.Group, Deleting: true}
	}
	if d.State != kafka.StateEmpty {
		return &LiveGroupError{Group: d.Group, State: d.State, Members: d.Members, Action: "delete", Type: d.Type}
	}
	return nil
}

// PrepareDeleteGroups reads each group for deletion. It only reads.
func PrepareDeleteGroups(ctx context.Context, cl *kafka.Client, groups []string, now time.Time) ([]*GroupDeletion, error) {
	if now.IsZero() {
		now = time.Now()
	}
	var out []*GroupDeletion
	for _, name := range groups {
		if name == "" {
			return nil, errors.New("a group name cannot be empty")
		}
		in, err := readGroup(ctx, cl, name)
		if err != nil {
			return nil, err
		}
		d := &GroupDeletion{Group: name, Exists: in.Exists, State: in.State, Members: in.Members, Type: in.Type, Made: now}
		for _, tp := range sortedTPs(in.Committed) {
			d.Offsets = append(d.Offsets, Row{Topic: tp.Topic, Partition: tp.Partition, Current: in.Committed[tp], New: kafka.NoOffset, LogStart: kafka.NoOffset, LogEnd: kafka.NoOffset})
		}
		logStep(ctx, cl, "write plan", name, slog.String("what", "delete group"), slog.Bool("exists", d.Exists),
			slog.String("type", string(d.Type)), slog.String("state", d.State), slog.Int("offsets", len(d.Offsets)))
		out = append(out, d)
	}
	return out, nil
}

// DeleteResult is the outcome of deleting one group. The re-read decides
// (see kafka/write): Outcome is verified when the group is gone, whatever
// the broker answered.
type DeleteResult struct {
	Group       string
	ReceiptPath string
	// LockNote is as in Result.
	LockNote string
	// Err is the broker's answer when it was an error, or why no answer
	// came.
	Err error
	// ReadErr is why the group could not be re-read afterwards.
	ReadErr error
	// Gone is set when the re-read found the group gone.
	Gone bool
	// Back is set when a second re-read, after Gone, found the group
	// again: another writer (a consumer joining, an admin committing)
	// made it after our deletion.
	Back bool
}

// Outcome is the verdict on the deletion.
func (r *DeleteResult) Outcome() write.Outcome {
	o := write.Decide(r.Gone, r.Err, r.ReadErr)
	if o == write.Verified && r.Back {
		return write.ChangedAfter
	}
	return o
}

// Status says the outcome in words, as PartitionResult.Status does.
func (r *DeleteResult) Status() string {
	return write.Describe(r.Outcome(), r.Err, r.ReadErr, write.Words{
		Done:     "deleted",
		Verified: "verified deleted",
		Changed:  "changed by another writer after ours: the group was deleted, then it existed again",
		Standing: "the group still exists",
		Accepted: "the broker accepted it, but the group still exists",
	})
}

// ApplyDeleteGroup deletes one group the same way Apply resets offsets:
// re-check that it is Empty and its commits are those planned, write a
// receipt with every commit (so `kgroups undo` can bring them back), delete,
// then re-read to verify that the group is gone. An error means nothing was
// changed.
func ApplyDeleteGroup(ctx context.Context, cl *kafka.Client, d *GroupDeletion, opts ApplyOptions) (*DeleteResult, error) {
	res, err := applyDeleteGroup(ctx, cl, d, opts)
	if err != nil {
		logStep(ctx, cl, "write refused", d.Group, slog.Any("err", err))
	}
	return res, err
}

func applyDeleteGroup(ctx context.Context, cl *kafka.Client, d *GroupDeletion, opts ApplyOptions) (*DeleteResult, error) {
	lock, err := lockGroup(ctx, cl, d.Group, opts)
	if err != nil {
		return nil, err
	}
	defer func() { _ = lock.Unlock() }() // best effort, as in rebalance.Service
	in, err := readGroup(ctx, cl, d.Group)
	if err != nil {
		return nil, fmt.Errorf("re-check group before deleting: %w", err)
	}
	now := &GroupDeletion{Group: d.Group, Exists: in.Exists, State: in.State, Members: in.Members, Type: in.Type}
	if err := now.Blocker(); err != nil {
		return nil, err
	}
	var changed []string
	for _, tp := range sortedTPs(in.Committed) {
		if !hasRow(d.Offsets, tp, in.Committed[tp]) {
			changed = append(changed, fmt.Sprintf("%s: %d now", tp, in.Committed[tp]))
		}
	}
	for _, r := range d.Offsets {
		if _, ok := in.Committed[r.TP()]; !ok {
			changed = append(changed, fmt.Sprintf("%s: no commit now", r.TP()))
		}
	}
	if len(changed) > 0 {
		return nil, &OffsetsChangedError{Group: d.Group, Changed: changed}
	}
	rc := &Receipt{
		GroupType: receiptType(in.Type),
		Header: receipt.Header{
			Version:   receipt.Version,
			Action:    receipt.ActionDeleteGroup,
			Cluster:   cl.Brokers(),
			ClusterID: lock.ClusterID,
			Context:   opts.Context,
			Group:     d.Group,
			Time:      opts.now().UTC(),
			User:      opts.user(),
		},
		Scenario:   "delete",
		Scope:      "the whole group",
		GroupState: in.State,
	}
	for _, r := range d.Offsets {
		rc.Offsets = append(rc.Offsets, ReceiptOffset{Topic: r.Topic, Partition: r.Partition, Before: offsetPtr(r.Current)})
	}
	path, err := WriteReceipt(opts.ReceiptDir, rc)
	if err != nil {
		return nil, fmt.Errorf("%w: nothing was changed, because no change is made without a receipt", err)
	}
	logStep(ctx, cl, "write receipt", d.Group, slog.String("path", path))
	defer write.Begin("deletion of group "+d.Group, path)()
	res := &DeleteResult{Group: d.Group, ReceiptPath: path, LockNote: lock.Note}
	dctx, cancel := context.WithTimeout(ctx, cl.Timeout())
	_, derr := cl.Admin().DeleteGroup(dctx, d.Group)
	cancel()
	if derr != nil {
		res.Err = explain(derr)
	}
	logStep(ctx, cl, "write apply", d.Group, slog.String("what", "delete group"), slog.Any("err", res.Err))
	after, rerr := readGroup(ctx, cl, d.Group)
	switch {
	case rerr != nil:
		res.ReadErr = rerr
	case !after.Exists:
		res.Gone = true
		afterVerify()
		if again, err := readGroup(ctx, cl, d.Group); err == nil && again.Exists {
			res.Back = true
		}
	}
	logStep(ctx, cl, "write verify", d.Group, slog.String("outcome", res.Outcome().String()), slog.Any("read_err", res.ReadErr))
	return res, nil
}

func hasRow(rows []Row, tp TP, off int64) bool {
	for _, r := range rows {
		if r.TP() == tp {
			return r.Current == off
		}
	}
	return false
}

// PrepareDeleteOffsets plans removing group's commits for the topics (and
// partitions) in scope. Only partitions with a commit can be named: a topic
// or partition without one is an error that lists what the group does have.
// Topics need not exist any more: removing the commits of a deleted topic is
// what this is most often for. The plan applies with Apply.
func PrepareDeleteOffsets(ctx context.Context, cl *kafka.Client, group string, scope Scope, now time.Time) (*Plan, error) {
	p, err := prepareDeleteOffsets(ctx, cl, group, scope, now)
	logPlan(ctx, cl, "delete offsets", p, err)
	return p, err
}

func prepareDeleteOffsets(ctx context.Context, cl *kafka.Client, group string, scope Scope, now time.Time) (*Plan, error) {
	if group == "" {
		return nil, errors.New("a group name cannot be empty")
	}
	if scope.AllTopics || len(scope.Topics) == 0 {
		return nil, errors.New("name the topics whose offsets to delete with --topic TOPIC[:P,...]")
	}
	if now.IsZero() {
		now = time.Now()
	}
	in, err := readGroup(ctx, cl, group)
	if err != nil {
		return nil, err
	}
	if !in.Exists {
		return nil, &GroupNotFoundError{Group: group, Deleting: true}
	}
	if in.Type == kafka.TypeShare {
		if err := checkShareScope(group, scope); err != nil {
			return nil, err
		}
	}
	if err := checkGroupType(&in, Request{Group: group, Scenario: Scenario{Kind: DeleteOffsets}, Scope: scope}); err != nil {
		return nil, err
	}
	return buildDeleteOffsets(in, scope, now)
}

// buildDeleteOffsets is the pure part of PrepareDeleteOffsets.
func buildDeleteOffsets(in Inputs, scope Scope, now time.Time) (*Plan, error) {
	byTopic := make(map[string][]int32)
	for _, tp := range sortedTPs(in.Committed) {
		byTopic[tp.Topic] = append(byTopic[tp.Topic], tp.Partition)
	}
	var errs errList
	var rows []Row
	row := func(tp TP) Row {
		return Row{Topic: tp.Topic, Partition: tp.Partition, Current: in.Committed[tp], New: kafka.NoOffset, LogStart: kafka.NoOffset, LogEnd: kafka.NoOffset}
	}
	for _, ts := range scope.Topics {
		have := byTopic[ts.Topic]
		if len(have) == 0 {
			topics := make([]string, 0, len(byTopic))
			for t := range byTopic {
				topics = append(topics, t)
			}
			sort.Strings(topics)
			has := "none"
			if len(topics) > 0 {
				has = strings.Join(topics, ", ")
			}
			errs.add(fmt.Errorf("group %q has no committed offsets for topic %q (it has commits for: %s)", in.Group, ts.Topic, has))
			continue
		}
		if ts.Partitions == nil {
			for _, p := range have {
				rows = append(rows, row(TP{ts.Topic, p}))
			}
			continue
		}
		var missing []string
		for _, p := range ts.Partitions {
			tp := TP{ts.Topic, p}
			if _, ok := in.Committed[tp]; !ok {
				missing = append(missing, fmt.Sprint(p))
				continue
			}
			rows = append(rows, row(tp))
		}
		if len(missing) > 0 {
			hs := make([]string, len(have))
			for i, p := range have {
				hs[i] = fmt.Sprint(p)
			}
			errs.add(fmt.Errorf("group %q has no committed offset for topic %q partition %s (it has commits for partitions %s)", in.Group, ts.Topic, listed(missing), listed(hs)))
		}
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	sort.Slice(rows, func(i, j int) bool { return lessTP(rows[i].TP(), rows[j].TP()) })
	return &Plan{
		Group:    in.Group,
		Exists:   in.Exists,
		State:    in.State,
		Members:  in.Members,
		Type:     in.Type,
		Scenario: Scenario{Kind: DeleteOffsets},
		Scope:    scope,
		Made:     now,
		Rows:     rows,
	}, nil
}
