package kafka

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// offsetsTopic is Kafka's internal topic for group metadata and commits.
const offsetsTopic = "__consumer_offsets"

// Poll reads every consumer group in the cluster into one Snapshot.
//
// The number of requests is bounded by the number of brokers, not groups:
// one metadata request; ListGroups on every broker; DescribeGroups,
// ConsumerGroupDescribe and ShareGroupDescribe batched per coordinator,
// and StreamsGroupDescribe sent to each coordinator; OffsetFetch (v8+) and
// DescribeShareGroupOffsets batched per coordinator; and three ListOffsets
// reads batched per partition leader: the log start, the log end, and the
// last stable offset at isolation level read_committed. It never joins a
// group.
//
// An error is returned only when the cluster cannot be read at all; a group
// that cannot be described or whose offsets cannot be fetched carries its own
// Err in the snapshot.
func (c *Client) Poll(ctx context.Context) (*Snapshot, error) {
	snap, err := c.poll(ctx, nil)
	c.logPoll(ctx, nil, snap, err)
	return snap, err
}

// PollGroups is Poll restricted to the named groups. Groups that do not exist
// are absent from the snapshot.
func (c *Client) PollGroups(ctx context.Context, groups ...string) (*Snapshot, error) {
	if len(groups) == 0 {
		return &Snapshot{Time: time.Now()}, nil
	}
	snap, err := c.poll(ctx, groups)
	c.logPoll(ctx, groups, snap, err)
	return snap, err
}

func (c *Client) phase(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, c.timeout)
}

// poll runs the phases of one poll. The metadata and the group listing
// are read one after the other; then the committed offsets are read
// (OffsetFetch, in a goroutine of its own) while the groups are described,
// one group type after another; once both are done, the three log-bound
// reads run at once while the rows are completed from the describes, and
// the bounds are last joined into the rows.
func (c *Client) poll(ctx context.Context, only []string) (*Snapshot, error) {
	start := time.Now()
	snap := &Snapshot{Time: start}
	in := c.strs.begin()

	meta, err := c.readMetadata(ctx)
	if err != nil {
		return nil, err
	}
	// The brokers and topic ids stay in this frame: the phases below
	// read them and none keeps them.
	brokers := make(map[int32]Broker, len(meta.Brokers))
	topicNames := make(map[kadm.TopicID]string, len(meta.Topics))
	topics := snap.setMetadata(meta, in, brokers, topicNames)

	sc := c.scratch.take()
	defer c.scratch.put(sc)
	listed, listErr, err := c.listGroups(ctx, sc.listed[:0])
	sc.listed = listed
	if err != nil {
		return nil, err
	}
	snap.ListErr = listErr
	gs := newPollGroups(snap, listed, only, brokers, in, sc)
	forget := c.forget.Load()
	if !forget {
		c.rows.recall(gs.gbs)
	}

	// The committed offsets do not depend on the describes: read them,
	// and make the rows from them, while the groups are described.
	mid := c.midPollOnce()
	fetched := c.startCommits(ctx, gs.fetch, gs.index(), topics, sc, mid)
	c.describe(ctx, &gs, brokers, topicNames)
	mid()
	<-fetched
	gs.commitsRead(topics, in)

	lb := c.readLogBounds(ctx, gs.gbs)
	gs.join(lb, listErr)
	if !forget {
		c.rows.share(gs.gbs, only == nil)
	}
	c.strs.end(in)
	snap.Duration = time.Since(start)
	return snap, nil
}

// listGroups lists the groups on every broker into dst, sorted by name.
// A listing that some brokers answered is kept, with listErr saying it
// may be incomplete; one that none answered fails the poll.
func (c *Client) listGroups(ctx context.Context, dst []kadm.ListedGroup) (listed []kadm.ListedGroup, listErr, err error) {
	pctx, cancel := c.phase(ctx)
	listed, err = c.listAllGroups(pctx, dst)
	cancel()
	if err != nil && len(listed) == 0 {
		// Metadata was just read: the brokers are reachable, and it is
		// the listing itself that failed.
		return nil, nil, fmt.Errorf("list groups: %w", err)
	}
	// Some brokers answered, or all did: show what they listed and, when
	// some failed, say the list may be incomplete.
	return listed, err, nil
}

// listAllGroups is kadm's ListGroups, the same request, answers and
// errors (a *kadm.AuthError as soon as a broker refuses it, else a
// *kadm.ShardErrors naming each broker that failed), appended to dst and
// sorted by name rather than put in a map: at 10,000 groups the map,
// grown group by group, was about 3 MB a poll.
func (c *Client) listAllGroups(ctx context.Context, dst []kadm.ListedGroup) ([]kadm.ListedGroup, error) {
	req := kmsg.NewPtrListGroupsRequest()
	shards := c.cl.RequestSharded(ctx, req)
	se := kadm.ShardErrors{Name: kmsg.NameForKey(req.Key())}
	listed := dst
	for _, shard := range shards {
		if shard.Err != nil {
			se.Errs = append(se.Errs, kadm.ShardError{Req: shard.Req, Err: shard.Err, Broker: shard.Meta})
			continue
		}
		resp := shard.Resp.(*kmsg.ListGroupsResponse)
		if err := authErr(resp.ErrorCode); err != nil {
			return sortListed(listed), err
		}
		if err := kerr.ErrorForCode(resp.ErrorCode); err != nil {
			se.Errs = append(se.Errs, kadm.ShardError{Req: shard.Req, Err: err, Broker: shard.Meta})
			continue
		}
		for _, g := range resp.Groups {
			listed = append(listed, kadm.ListedGroup{
				Coordinator:  shard.Meta.NodeID,
				Group:        g.Group,
				GroupType:    g.GroupType,
				ProtocolType: g.ProtocolType,
				State:        g.GroupState,
			})
		}
	}
	listed = sortListed(listed)
	if len(se.Errs) == 0 {
		return listed, nil
	}
	se.AllFailed = len(shards) == len(se.Errs)
	return listed, &se
}

// sortListed sorts ls by name and keeps one of a name listed twice (by
// two brokers, as a group's coordinator moved between their answers):
// the one of the highest coordinator id. kadm's map kept the answer read
// last, which is as arbitrary, since the brokers answer in any order.
func sortListed(ls []kadm.ListedGroup) []kadm.ListedGroup {
	slices.SortFunc(ls, func(a, b kadm.ListedGroup) int {
		if c := strings.Compare(a.Group, b.Group); c != 0 {
			return c
		}
		return int(a.Coordinator) - int(b.Coordinator)
	})
	n := 0
	for i := range ls {
		if i+1 < len(ls) && ls[i+1].Group == ls[i].Group {
			continue
		}
		ls[n] = ls[i]
		n++
	}
	clear(ls[n:])
	return ls[:n]
}

// pollGroups are one poll's groups: each built in place in the snapshot's
// one Groups slice, in name order, with one builder each, and their names
// by the request that reads them.
type pollGroups struct {
	gbs      []groupBuilder
	builders map[string]*groupBuilder
	// The groups each describe reads, in name order.
	classic, consumer, share, streams []string
	// fetch names the groups whose committed offsets are fetched: all
	// of a known type but share groups, whose start offsets come with
	// their describe.
	fetch []string
}

// index finds the poll's builders by name.
func (gs *pollGroups) index() groupIndex { return groupIndex{gbs: gs.gbs, byName: gs.builders} }

// newPollGroups makes the snapshot's groups from the listing (only the
// named ones when only is not nil), each with its listed type, state and
// coordinator, and sorts their names by the request that describes them.
// The builders, their index and the name lists are sc's, kept from the
// poll before (the snapshot's groups are always new).
func newPollGroups(snap *Snapshot, listed []kadm.ListedGroup, only []string, brokers map[int32]Broker, in *interner, sc *pollScratch) pollGroups {
	wanted := listed
	if only != nil {
		keep := make(map[string]bool, len(only))
		for _, name := range only {
			keep[name] = true
		}
		wanted = make([]kadm.ListedGroup, 0, len(keep))
		for _, lg := range listed {
			if keep[lg.Group] {
				wanted = append(wanted, lg)
			}
		}
	}
	names := sc.names[:0]
	for i := range wanted {
		names = append(names, wanted[i].Group)
	}
	sc.names = names
	snap.Groups = make([]Group, len(names))
	if cap(sc.gbs) < len(names) {
		sc.gbs = make([]groupBuilder, len(names))
	}
	if sc.builders == nil {
		sc.builders = make(map[string]*groupBuilder, len(names))
	}
	gs := pollGroups{
		gbs:      sc.gbs[:len(names)],
		builders: sc.builders,
		classic:  sc.classic[:0],
		consumer: sc.consumer[:0],
		share:    sc.share[:0],
		streams:  sc.streams[:0],
	}
	for i, name := range names {
		lg := &wanted[i]
		gb := &gs.gbs[i]
		gb.g, gb.in = &snap.Groups[i], in
		*gb.g = Group{
			Name:             name,
			ProtocolType:     in.get(lg.ProtocolType),
			State:            in.get(lg.State),
			Coordinator:      brokerOrID(brokers, lg.Coordinator),
			OffsetsPartition: OffsetsPartition(name, snap.OffsetsTopicPartitions),
		}
		switch lg.GroupType {
		case "consumer":
			gb.g.Type = TypeConsumer
			gs.consumer = append(gs.consumer, name)
		case "classic", "":
			gb.g.Type = TypeClassic
			gs.classic = append(gs.classic, name)
		case "share":
			gb.g.Type = TypeShare
			gs.share = append(gs.share, name)
		case "streams":
			gb.g.Type = TypeStreams
			gs.streams = append(gs.streams, name)
		default:
			// A type kgroups does not know yet: listed with the type
			// and state ListGroups gave, never described.
			gb.g.Type = GroupType(lg.GroupType)
		}
		gs.builders[name] = gb
	}
	gs.fetch = sc.fetch[:0]
	for i, name := range names {
		// Share groups have no committed offsets: their start offsets
		// come with describeShare. A type kgroups does not know is not
		// read at all.
		if typ := gs.gbs[i].g.Type; typ.Known() && typ != TypeShare {
			gs.fetch = append(gs.fetch, name)
		}
	}
	sc.classic, sc.consumer, sc.share, sc.streams, sc.fetch = gs.classic, gs.consumer, gs.share, gs.streams, gs.fetch
	return gs
}

// pollScratch is what a poll builds only to throw away once the snapshot
// is made: the groups' builders, their index by name, and the lists of
// names each request reads. A client keeps the last one for its next
// poll, so that a poll of 10,000 groups does not make them again; none
// of it is reachable from a snapshot.
type pollScratch struct {
	gbs                                             []groupBuilder
	builders                                        map[string]*groupBuilder
	names, classic, consumer, share, streams, fetch []string
	// fetchReq is the OffsetFetch request's groups.
	fetchReq []kmsg.OffsetFetchRequestGroup
	// listed is the groups ListGroups listed, by name.
	listed []kadm.ListedGroup
}

// scratchSlot holds a client's spare pollScratch. Polls of one client
// seldom overlap; one that finds the slot empty makes its own.
type scratchSlot struct {
	mu    sync.Mutex
	spare *pollScratch
}

func (s *scratchSlot) take() *pollScratch {
	s.mu.Lock()
	defer s.mu.Unlock()
	sc := s.spare
	s.spare = nil
	if sc == nil {
		sc = &pollScratch{}
	}
	return sc
}

// put clears sc, so that it holds no snapshot, group or response of the
// poll that used it, and keeps it for the next poll.
func (s *scratchSlot) put(sc *pollScratch) {
	clear(sc.gbs[:cap(sc.gbs)])
	clear(sc.builders)
	clear(sc.fetchReq[:cap(sc.fetchReq)])
	clear(sc.listed[:cap(sc.listed)])
	sc.listed = sc.listed[:0]
	for _, l := range []*[]string{&sc.names, &sc.classic, &sc.consumer, &sc.share, &sc.streams, &sc.fetch} {
		clear((*l)[:cap(*l)])
		*l = (*l)[:0]
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.spare = sc
}

// describe describes the groups of each type with its own request, one
// type after another.
func (c *Client) describe(ctx context.Context, gs *pollGroups, brokers map[int32]Broker, topicNames map[kadm.TopicID]string) {
	if len(gs.classic) > 0 {
		c.describeClassic(ctx, gs.classic, gs.index())
	}
	if len(gs.consumer) > 0 {
		c.describeConsumer(ctx, gs.consumer, gs.builders, brokers, topicNames)
	}
	if len(gs.share) > 0 {
		c.describeShare(ctx, gs.share, gs.builders)
	}
	if len(gs.streams) > 0 {
		c.describeStreams(ctx, gs.streams, gs.builders, brokers)
	}
}

// join sets every row's log bounds and lag from lb, and notes on every
// group a listing some brokers did not answer.
func (gs *pollGroups) join(lb *logBounds, listErr error) {
	for i := range gs.gbs {
		gb := &gs.gbs[i]
		gb.join(lb)
		if listErr != nil {
			gb.addErr(fmt.Errorf("group list may be incomplete: %w", listErr))
		}
	}
}

// groupBuilder accumulates one group's parts across the poll's phases, in
// the snapshot's own Group.
type groupBuilder struct {
	g            *Group
	in           *interner // the poll's shared strings
	shareOffsets kadm.ShareOffsets
	// Written by the offset fetch while the group is described:
	// rows are the group's commits, sorted; fetchErr is the fetch's
	// failure for the group; fetched says the fetch answered for it.
	rows     rowSet
	fetchErr error
	fetched  bool
	// described says a describe answered for the group, or failed for
	// it: set by the one describe of the group's type.
	described bool
	// prev are the group's rows at the previous full poll, while alive
	// (rowMemo.recall). same says that rows (then the group's
	// Partitions) are prev itself, read only: the phases so far read
	// what made them, and the next ones compare what they read with
	// them, making rows of the group's own only at the first difference
	// (poll_reuse.go).
	prev []PartitionOffsets
	same bool
}

func (gb *groupBuilder) addErr(err error) {
	gb.g.Err = errors.Join(gb.g.Err, err)
}
