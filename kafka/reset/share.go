package reset

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroups/kgroups/kafka"
)

// Share groups (KIP-932) keep no committed offsets: each partition has a
// share-partition start offset, the first record not yet acknowledged by
// every delivery. kgroups changes it the way kafka-share-groups.sh does:
// AlterShareGroupOffsets (key 91) sets explicit start offsets and
// DeleteShareGroupOffsets (key 92) forgets a whole topic's; both need the
// group Empty. The plan, the receipt, the lock, the re-check and the
// verifying re-read are those of consumer groups; only the requests differ.

// ShareKinds are the reset scenarios a share group accepts, in the order
// help shows them. kafka-share-groups.sh --reset-offsets offers
// --to-earliest, --to-latest and --to-datetime; --by-duration is a
// --to-datetime counted back from now, and --to-offset and --from-file set
// explicit start offsets, which is all AlterShareGroupOffsets takes.
var ShareKinds = []Kind{ToEarliest, ToLatest, ToOffset, ToDatetime, ByDuration, FromFile}

// ShareAccepts reports whether a share group can be reset with k. Undo is
// accepted: it sets the explicit start offsets a receipt recorded.
func ShareAccepts(k Kind) bool {
	if k == Undo || k == DeleteOffsets {
		return true
	}
	for _, s := range ShareKinds {
		if s == k {
			return true
		}
	}
	return false
}

// ShareScenarioError refuses a scenario that has no meaning for a share
// group: --to-current and --shift-by act on a committed offset, which a
// share group does not have.
type ShareScenarioError struct {
	Group string
	Kind  Kind
}

func (e *ShareScenarioError) Error() string {
	why := "it keeps a committed offset, which a share group does not have"
	if e.Kind == ShiftBy {
		why = "it moves a committed offset, and a share group has only a start offset (records past it may already be acknowledged)"
	}
	flags := make([]string, len(ShareKinds))
	for i, k := range ShareKinds {
		flags[i] = "--" + string(k)
	}
	return fmt.Sprintf("group %q is a share group: --%s does not apply, because %s. Share groups accept %s. Nothing was changed",
		e.Group, e.Kind, why, strings.Join(flags, ", "))
}

// GroupTypeOf finds a group's type with one ListGroups on every broker:
// "classic", "consumer", "share" or "streams". found is false when no
// broker lists the group.
func GroupTypeOf(ctx context.Context, cl *kafka.Client, group string) (typ kafka.GroupType, found bool, err error) {
	lctx, cancel := context.WithTimeout(ctx, cl.Timeout())
	defer cancel()
	listed, err := cl.Admin().ListGroups(lctx)
	lg, ok := listed[group]
	if !ok {
		if err != nil {
			return "", false, fmt.Errorf("list groups: %w", err)
		}
		return "", false, nil
	}
	switch lg.GroupType {
	case "", "classic":
		return kafka.TypeClassic, true, nil
	}
	return kafka.GroupType(lg.GroupType), true, nil
}

// readShareGroup reads a share group: whether it exists, its state and
// members (ShareGroupDescribe), and the start offsets of its partitions
// (DescribeShareGroupOffsets) as Inputs.Committed. A partition whose start
// offset is not initialized is left out of Committed, like a partition
// without a commit, and listed in Uninitialized: --all-topics covers it,
// as kafka-share-groups.sh --reset-offsets --all-topics does.
func readShareGroup(ctx context.Context, cl *kafka.Client, group string) (Inputs, error) {
	in := Inputs{Group: group, Type: kafka.TypeShare, Committed: make(map[TP]int64)}
	dctx, cancel := context.WithTimeout(ctx, cl.Timeout())
	defer cancel()
	described, err := cl.Admin().DescribeShareGroups(dctx, group)
	dg, ok := described[group]
	switch {
	case !ok && err != nil:
		return in, fmt.Errorf("describe share group %q: %w", group, err)
	case !ok, errors.Is(dg.Err, kerr.GroupIDNotFound):
		return in, nil
	case dg.Err != nil:
		return in, fmt.Errorf("describe share group %q: %w", group, dg.Err)
	}
	if dg.GroupState == kafka.StateDead && len(dg.Members) == 0 {
		return in, nil
	}
	in.Exists = true
	in.State = dg.GroupState
	for _, m := range dg.Members {
		km := kafka.Member{MemberID: m.MemberID, ClientID: m.ClientID, Host: m.ClientHost, MemberEpoch: m.MemberEpoch, Subscribed: m.SubscribedTopicNames}
		for _, t := range m.Assignment.Sorted() {
			km.Assignment = append(km.Assignment, kafka.TopicPartitions{Topic: t.Topic, Partitions: t.Partitions})
		}
		in.Members = append(in.Members, km)
	}
	starts, uninitialized, notFound, err := readShareStartOffsets(ctx, cl, group)
	if err != nil {
		return in, err
	}
	if !notFound {
		in.Committed, in.Uninitialized = starts, uninitialized
	}
	return in, nil
}

// readShareStartOffsets reads a share group's initialized start offsets,
// the partitions it lists without one, and whether the group was not
// found (no answer for it, or GROUP_ID_NOT_FOUND), which a re-read after a
// write must confirm.
func readShareStartOffsets(ctx context.Context, cl *kafka.Client, group string) (out map[TP]int64, uninitialized map[TP]bool, notFound bool, err error) {
	octx, cancel := context.WithTimeout(ctx, cl.Timeout())
	defer cancel()
	resp, err := cl.Admin().DescribeShareGroupOffsets(octx, group)
	d, ok := resp[group]
	switch {
	case !ok && err != nil:
		return nil, nil, false, fmt.Errorf("describe start offsets of share group %q: %w", group, err)
	case !ok, errors.Is(d.Err, kerr.GroupIDNotFound):
		return nil, nil, true, nil
	case d.Err != nil:
		return nil, nil, false, fmt.Errorf("describe start offsets of share group %q: %w", group, d.Err)
	}
	out, uninitialized = make(map[TP]int64), make(map[TP]bool)
	var errs errList
	d.Offsets.Each(func(o kadm.ShareOffset) {
		switch {
		case o.Err != nil:
			errs.add(fmt.Errorf("start offset of %s: %w", TP{o.Topic, o.Partition}, o.Err))
		case o.StartOffset >= 0:
			out[TP{o.Topic, o.Partition}] = o.StartOffset
		default:
			uninitialized[TP{o.Topic, o.Partition}] = true
		}
	})
	if err := errs.err(); err != nil {
		return nil, nil, false, fmt.Errorf("describe start offsets of share group %q: %w", group, err)
	}
	return out, uninitialized, false, nil
}

// checkSharePlan refuses what a share group cannot do: a scenario without
// meaning for it, and removing the start offsets of some of a topic's
// partitions but not all (DeleteShareGroupOffsets forgets whole topics).
func checkSharePlan(in Inputs, p *Plan) error {
	if !ShareAccepts(p.Scenario.Kind) {
		return &ShareScenarioError{Group: p.Group, Kind: p.Scenario.Kind}
	}
	removed := make(map[TP]bool)
	for _, r := range p.Rows {
		if r.New < 0 {
			removed[r.TP()] = true
		}
	}
	var partial []string
	seen := make(map[string]bool)
	for _, tp := range sortedTPs(in.Committed) {
		if seen[tp.Topic] || removed[tp] {
			continue
		}
		for rtp := range removed {
			if rtp.Topic == tp.Topic {
				seen[tp.Topic] = true
				partial = append(partial, tp.Topic)
				break
			}
		}
	}
	if len(partial) > 0 {
		sort.Strings(partial)
		return fmt.Errorf("share group %q: the start offsets of %s would be removed for some partitions but not all, and a share group forgets start offsets only for a whole topic: nothing was changed", p.Group, listed(partial))
	}
	return nil
}

// checkShareScope refuses --topic TOPIC:P for deleting a share group's
// offsets: DeleteShareGroupOffsets takes whole topics.
func checkShareScope(group string, scope Scope) error {
	var named []string
	for _, ts := range scope.Topics {
		if ts.Partitions != nil {
			named = append(named, ts.String())
		}
	}
	if len(named) > 0 {
		return fmt.Errorf("group %q is a share group, whose start offsets are deleted for a whole topic: give --topic %s without partitions (not %s). Nothing was changed",
			group, scope.Topics[0].Topic, strings.Join(named, ", "))
	}
	return nil
}

// alterAndDeleteShare sends the plan's start offsets (AlterShareGroupOffsets)
// and the topics whose start offsets it removes (DeleteShareGroupOffsets),
// and returns each partition's error, checking every partition's (and
// topic's) own answer.
func alterAndDeleteShare(ctx context.Context, cl *kafka.Client, group string, rows []Row) map[TP]error {
	errs := make(map[TP]error)
	alters := make(kadm.Offsets)
	deleted := make(map[string][]int32)
	for _, r := range rows {
		if r.New >= 0 {
			alters.AddOffset(r.Topic, r.Partition, r.New, -1)
		} else {
			deleted[r.Topic] = append(deleted[r.Topic], r.Partition)
		}
	}
	cctx, cancel := context.WithTimeout(ctx, cl.Timeout())
	defer cancel()
	if len(alters) > 0 {
		resp, err := cl.Admin().AlterShareGroupOffsets(cctx, group, alters)
		alters.Each(func(o kadm.Offset) {
			tp := TP{o.Topic, o.Partition}
			switch {
			case err != nil:
				errs[tp] = fmt.Errorf("alter start offset: %w", explain(err))
			default:
				if perr, ok := resp.Lookup(o.Topic, o.Partition); !ok {
					errs[tp] = errors.New("alter start offset: no answer for this partition")
				} else if perr != nil {
					errs[tp] = fmt.Errorf("alter start offset: %w", explain(perr))
				}
			}
		})
	}
	if len(deleted) > 0 {
		topics := make([]string, 0, len(deleted))
		for t := range deleted {
			topics = append(topics, t)
		}
		sort.Strings(topics)
		resp, err := cl.Admin().DeleteShareGroupOffsets(cctx, group, topics...)
		for _, t := range topics {
			var terr error
			switch {
			case errors.Is(err, kerr.GroupIDNotFound):
				// No group, so no start offsets: the goal holds.
			case err != nil:
				terr = fmt.Errorf("delete start offsets: %w", explain(err))
			default:
				if e, ok := resp.Lookup(t); !ok {
					terr = errors.New("delete start offsets: no answer for this topic")
				} else if e != nil && !errors.Is(e, kerr.UnknownTopicOrPartition) {
					terr = fmt.Errorf("delete start offsets: %w", explain(e))
				}
			}
			if terr != nil {
				for _, p := range deleted[t] {
					errs[TP{t, p}] = terr
				}
			}
		}
	}
	return errs
}

// receiptType is the receipt's groupType: "share", or empty for the
// consumer groups every receipt before share groups recorded.
func receiptType(t kafka.GroupType) string {
	if t == kafka.TypeShare {
		return string(kafka.TypeShare)
	}
	return ""
}

// typeName names a group's type for messages.
func typeName(t kafka.GroupType) string {
	if t == "" {
		return "consumer"
	}
	return string(t)
}

// rereadShareStartOffsets is the re-read after a write of a share group's
// start offsets: one DescribeShareGroupOffsets naming exactly the
// partitions tps, so that each is answered with its start offset (-1:
// none) or its error. A describe of all topics leaves out the topics the
// credentials may not describe, which would read as "no start offset".
// notFound reports GROUP_ID_NOT_FOUND, for committed to confirm.
func rereadShareStartOffsets(ctx context.Context, cl *kafka.Client, group string, tps []TP) (out map[TP]int64, notFound bool, err error) {
	octx, cancel := context.WithTimeout(ctx, cl.Timeout())
	defer cancel()
	req := kmsg.NewPtrDescribeShareGroupOffsetsRequest()
	rg := kmsg.NewDescribeShareGroupOffsetsRequestGroup()
	rg.GroupID = group
	byTopic := make(map[string]int)
	for _, tp := range tps {
		i, ok := byTopic[tp.Topic]
		if !ok {
			rt := kmsg.NewDescribeShareGroupOffsetsRequestGroupTopic()
			rt.Topic = tp.Topic
			rg.Topics = append(rg.Topics, rt)
			i = len(rg.Topics) - 1
			byTopic[tp.Topic] = i
		}
		rg.Topics[i].Partitions = append(rg.Topics[i].Partitions, tp.Partition)
	}
	req.Groups = append(req.Groups, rg)
	resp, err := req.RequestWith(octx, cl.Kgo())
	if err != nil {
		return nil, false, fmt.Errorf("describe start offsets of share group %q: %w", group, err)
	}
	type answer struct {
		offset int64
		err    error
	}
	answers := make(map[TP]answer)
	found := false
	for _, g := range resp.Groups {
		if g.GroupID != group {
			continue
		}
		found = true
		gerr := kerr.ErrorForCode(g.ErrorCode)
		if errors.Is(gerr, kerr.GroupIDNotFound) {
			return nil, true, nil
		}
		if gerr != nil {
			return nil, false, fmt.Errorf("describe start offsets of share group %q: %w", group, gerr)
		}
		for _, t := range g.Topics {
			for _, p := range t.Partitions {
				answers[TP{t.Topic, p.Partition}] = answer{p.StartOffset, kerr.ErrorForCode(p.ErrorCode)}
			}
		}
	}
	if !found {
		return nil, false, fmt.Errorf("describe start offsets of share group %q: no answer for the group", group)
	}
	out = make(map[TP]int64)
	var errs errList
	for _, tp := range tps {
		a, ok := answers[tp]
		switch {
		case !ok:
			errs.add(fmt.Errorf("start offset of %s: no answer for this partition", tp))
		case a.err != nil:
			errs.add(fmt.Errorf("start offset of %s: %w", tp, a.err))
		case a.offset >= 0:
			out[tp] = a.offset
		}
	}
	if err := errs.err(); err != nil {
		return nil, false, fmt.Errorf("describe start offsets of share group %q: %w", group, err)
	}
	return out, false, nil
}
