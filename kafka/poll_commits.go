package kafka

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// startCommits starts the fetch of the named groups' committed offsets in
// a goroutine of its own and returns a channel closed once it is done.
// answered is called once the answers are in, before they are made into
// rows (SetMidPoll).
func (c *Client) startCommits(ctx context.Context, names []string, ix groupIndex, topics map[string]string, sc *pollScratch, answered func()) <-chan struct{} {
	done := make(chan struct{})
	if len(names) == 0 {
		close(done)
		return done
	}
	go func() {
		defer close(done)
		c.fetchCommits(ctx, names, ix, topics, sc, answered)
	}()
	return done
}

// commitsRead finishes the fetch once the groups are described: each
// group's fetch error joins its errors, and the rows of a topic the
// metadata did not name (deleted since the commit) still get the poll's
// copy of its name.
func (gs *pollGroups) commitsRead(topics map[string]string, in *interner) {
	w := gs.index().walk()
	for _, name := range gs.fetch {
		gb, _ := w.find(name)
		if gb.fetchErr != nil {
			gb.addErr(fmt.Errorf("fetch offsets: %w", gb.fetchErr))
		}
		if gb.same {
			continue // the previous poll's rows, whose names are the same
		}
		rows, last, known := gb.rows.rows, "", true
		for i := range rows {
			if i == 0 || rows[i].Topic != last {
				last = rows[i].Topic
				_, known = topics[last]
			}
			if !known {
				rows[i].Topic = in.get(rows[i].Topic)
			}
		}
	}
}

// fetchCommits reads the committed offsets of the named groups with one
// OffsetFetch per coordinator (kgo shards the request, v8+ batching every
// group of a coordinator in one), and turns each group's answer straight
// into its partition rows, sorted by topic and partition: no map per group
// or per topic in between, as kadm.FetchManyOffsets would build.
//
// It runs while the groups are described, so it writes only the fetch's
// own fields of each builder (rows, fetchErr, fetched); the poll joins
// fetchErr into the group's errors after the describes, where the group's
// fetch error has always stood. topics holds the poll's copies of the
// cluster's topic names (read only here); a topic not among them keeps
// the response's string, and the poll interns it after. The request's
// groups are sc's, kept from the poll before: kgo copies them into each
// coordinator's request. answered is called once the answers are in.
func (c *Client) fetchCommits(ctx context.Context, names []string, ix groupIndex, topics map[string]string, sc *pollScratch, answered func()) {
	req := kmsg.NewPtrOffsetFetchRequest()
	if cap(sc.fetchReq) < len(names) {
		sc.fetchReq = make([]kmsg.OffsetFetchRequestGroup, len(names))
	}
	req.Groups = sc.fetchReq[:len(names)]
	for i, name := range names {
		req.Groups[i] = kmsg.NewOffsetFetchRequestGroup()
		req.Groups[i].Group = name
	}
	fctx, cancel := c.phase(ctx)
	shards := c.cl.RequestSharded(fctx, req)
	cancel()
	answered()

	var keys []commitKey // scratch, reused group to group
	fail := func(name string, err error) {
		if gb, ok := ix.byName[name]; ok && !gb.fetched {
			gb.fetched, gb.fetchErr = true, err
		}
	}
	for si := range shards {
		shard := shards[si]
		// Each coordinator's answer is let go of once read: the rows
		// made from it stay, and at 10,000 groups the decoded answers
		// are about 10 MB, the largest thing the poll holds for a while.
		shards[si] = kgo.ResponseShard{}
		sreq, _ := shard.Req.(*kmsg.OffsetFetchRequest)
		if shard.Err != nil || shard.Resp == nil {
			err := shard.Err
			if err == nil {
				err = errors.New("no response")
			}
			if sreq != nil {
				for _, rg := range sreq.Groups {
					fail(rg.Group, err)
				}
			}
			continue
		}
		resp := shard.Resp.(*kmsg.OffsetFetchResponse)
		if err := authErr(resp.ErrorCode); err != nil {
			if sreq != nil {
				for _, rg := range sreq.Groups {
					fail(rg.Group, err)
				}
			}
			continue
		}
		// A coordinator answers for its groups in the order asked, a
		// part of names in name order.
		w := ix.walk()
		for i := range resp.Groups {
			rg := &resp.Groups[i]
			gb, ok := w.find(rg.Group)
			if !ok || gb.fetched {
				continue
			}
			gb.fetched = true
			if err := authErr(rg.ErrorCode); err != nil {
				gb.fetchErr = err
				continue
			}
			gb.fetchErr = codeErr(rg.ErrorCode)
			keys = gb.commitRows(rg.Topics, topics, keys)
		}
	}
	w := ix.walk()
	for _, name := range names {
		// The error is made only for a group no answer named: one per
		// group of every poll otherwise.
		if gb, ok := w.find(name); ok && !gb.fetched {
			fail(name, errors.New("no response"))
		}
	}
}

// authErr is the error of an authorization failure code, as kadm gives
// it (a *kadm.AuthError), or nil for any other code.
func authErr(code int16) error {
	if code == 0 {
		return nil
	}
	//nolint:errorlint // kerr.ErrorForCode returns the sentinel itself, never a wrapped one
	switch err := kerr.ErrorForCode(code); err {
	case kerr.ClusterAuthorizationFailed,
		kerr.TopicAuthorizationFailed,
		kerr.GroupAuthorizationFailed,
		kerr.TransactionalIDAuthorizationFailed,
		kerr.DelegationTokenAuthorizationFailed:
		return &kadm.AuthError{Err: err}
	}
	return nil
}

// codeErr is kerr.ErrorForCode without its map lookup for code 0, no
// error: the poll reads a code for every group and every committed
// partition (120,000 at 10,000 groups), nearly all of them 0.
func codeErr(code int16) error {
	if code == 0 {
		return nil
	}
	return kerr.ErrorForCode(code)
}

// commitKey places one partition of an offset fetch answer: its topic's
// rank among the answer's topic names, its partition, and where it stood
// in the answer (the later of two answers for one partition wins, as in
// a map filled in answer order).
type commitKey struct {
	topic, partition, topicAt, partAt int32
}

// commitRows makes the group's rows from its offset fetch answer, in topic
// and partition order, sized exactly: the answer's partitions are ordered
// through small keys, so no row is moved once written. keys is scratch,
// returned for the next group.
func (gb *groupBuilder) commitRows(ts []kmsg.OffsetFetchResponseGroupTopic, topics map[string]string, keys []commitKey) []commitKey {
	keys = keys[:0]
	for ti := range ts {
		for pi := range ts[ti].Partitions {
			keys = append(keys, commitKey{topicAt: int32(ti), partition: ts[ti].Partitions[pi].Partition, partAt: int32(pi)})
		}
	}
	if len(keys) == 0 {
		return keys
	}
	// Rank the topic names: nearly every group commits to one topic.
	if len(ts) > 1 {
		order := make([]int32, len(ts))
		for i := range order {
			order[i] = int32(i)
		}
		slices.SortStableFunc(order, func(a, b int32) int { return strings.Compare(ts[a].Topic, ts[b].Topic) })
		rank := make([]int32, len(ts))
		r := int32(0)
		for i, ti := range order {
			if i > 0 && ts[ti].Topic != ts[order[i-1]].Topic {
				r++
			}
			rank[ti] = r
		}
		for i := range keys {
			keys[i].topic = rank[keys[i].topicAt]
		}
	}
	slices.SortFunc(keys, func(a, b commitKey) int {
		switch {
		case a.topic != b.topic:
			return int(a.topic - b.topic)
		case a.partition != b.partition:
			return int(a.partition - b.partition)
		case a.topicAt != b.topicAt:
			return int(a.topicAt - b.topicAt)
		}
		return int(a.partAt - b.partAt)
	})
	n := 0
	for i := range keys {
		if i+1 < len(keys) && keys[i+1].topic == keys[i].topic && keys[i+1].partition == keys[i].partition {
			continue
		}
		n++
	}
	if gb.sameCommits(ts, keys, n) {
		gb.rows, gb.same = rowSet{rows: gb.prev, sorted: n}, true
		return keys
	}
	// Each row is written in place, field by field, as newRow makes it
	// and then the answer: 120,000 rows at 10,000 groups, each copied
	// whole into the slice (with a write barrier for each of its
	// pointers while a collection runs) cost more than writing them.
	rows := make([]PartitionOffsets, n)
	j := 0
	last := int32(-1)
	var topic string
	for i, k := range keys {
		if i+1 < len(keys) && keys[i+1].topic == k.topic && keys[i+1].partition == k.partition {
			continue // a later answer for the same partition wins
		}
		t := &ts[k.topicAt]
		if k.topicAt != last {
			last = k.topicAt
			topic = t.Topic
			if v, ok := topics[topic]; ok {
				topic = v
			}
		}
		p := &t.Partitions[k.partAt]
		r := &rows[j]
		j++
		r.Topic, r.Partition, r.owned = topic, p.Partition, notOwned
		r.Committed, r.LeaderEpoch, r.LogStart, r.LogEnd, r.Lag = NoOffset, -1, NoOffset, NoOffset, NoOffset
		if err := codeErr(p.ErrorCode); err != nil {
			r.Err = fmt.Errorf("fetch offset: %w", err)
			continue
		}
		if p.Offset >= 0 {
			r.Committed = p.Offset
			r.LeaderEpoch = p.LeaderEpoch
			if p.Metadata != nil {
				r.Metadata = *p.Metadata
			}
		}
	}
	gb.rows = rowSet{rows: rows, sorted: len(rows)}
	return keys
}
