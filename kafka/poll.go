package kafka

import (
	"context"
	"errors"
	"fmt"
	"sort"
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
// one metadata request, ListGroups on every broker, DescribeGroups,
// ConsumerGroupDescribe and StreamsGroupDescribe batched per coordinator, OffsetFetch batched per
// coordinator (v8+), and ListOffsets batched per partition leader. It never
// joins a group.
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

func (c *Client) poll(ctx context.Context, only []string) (*Snapshot, error) {
	start := time.Now()
	snap := &Snapshot{Time: start}
	in := c.strs.begin()

	pctx, cancel := c.phase(ctx)
	meta, err := c.adm.Metadata(pctx)
	cancel()
	if err != nil {
		return nil, c.unreachable(err)
	}
	brokers := make(map[int32]Broker, len(meta.Brokers))
	for _, b := range meta.Brokers {
		br := Broker{ID: b.NodeID, Host: b.Host, Port: b.Port}
		if b.Rack != nil {
			br.Rack = *b.Rack
		}
		brokers[b.NodeID] = br
		snap.Brokers = append(snap.Brokers, br)
	}
	sort.Slice(snap.Brokers, func(i, j int) bool { return snap.Brokers[i].ID < snap.Brokers[j].ID })
	snap.OffsetsTopicPartitions = DefaultOffsetsTopicPartitions
	if td, ok := meta.Topics[offsetsTopic]; ok && td.Err == nil && len(td.Partitions) > 0 {
		snap.OffsetsTopicPartitions = int32(len(td.Partitions))
	}
	topicNames := make(map[kadm.TopicID]string, len(meta.Topics))
	// topics maps each topic name to the poll's copy of it, for the
	// offset fetch, which reads it while the describes intern theirs.
	topics := make(map[string]string, len(meta.Topics))
	snap.PartitionCounts = make(map[string]int32, len(meta.Topics))
	for name, td := range meta.Topics {
		name = in.get(name)
		topicNames[td.ID] = name
		topics[name] = name
		if td.Err == nil {
			snap.PartitionCounts[name] = int32(len(td.Partitions))
		}
	}

	pctx, cancel = c.phase(ctx)
	listed, err := c.adm.ListGroups(pctx)
	cancel()
	if err != nil && len(listed) == 0 {
		// Metadata was just read: the brokers are reachable, and it is
		// the listing itself that failed.
		return nil, fmt.Errorf("list groups: %w", err)
	}
	var listErr error
	if err != nil {
		// Some brokers answered: show what they listed and say the list
		// may be incomplete.
		listErr = err
	}

	wanted := listed
	if only != nil {
		wanted = make(kadm.ListedGroups, len(only))
		for _, name := range only {
			if lg, ok := listed[name]; ok {
				wanted[name] = lg
			}
		}
	}

	// The groups are built where the snapshot keeps them: one slice in
	// name order, with one builder each.
	names := make([]string, 0, len(wanted))
	for name := range wanted {
		names = append(names, name)
	}
	sort.Strings(names)
	snap.Groups = make([]Group, len(names))
	gbs := make([]groupBuilder, len(names))
	builders := make(map[string]*groupBuilder, len(names))
	classic := make([]string, 0, len(names))
	var consumer, share, streams []string
	streamsCoord := make(map[string]int32)
	for i, name := range names {
		lg := wanted[name]
		gb := &gbs[i]
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
			consumer = append(consumer, name)
		case "classic", "":
			gb.g.Type = TypeClassic
			classic = append(classic, name)
		case "share":
			gb.g.Type = TypeShare
			share = append(share, name)
		case "streams":
			gb.g.Type = TypeStreams
			streams = append(streams, name)
			streamsCoord[name] = lg.Coordinator
		default:
			// A type kgroups does not know yet: listed with the type
			// and state ListGroups gave, never described.
			gb.g.Type = GroupType(lg.GroupType)
		}
		builders[name] = gb
	}

	fetch := make([]string, 0, len(names))
	for _, name := range names {
		// Share groups have no committed offsets: their start offsets
		// come with describeShare. A type kgroups does not know is not
		// read at all.
		if typ := builders[name].g.Type; typ.Known() && typ != TypeShare {
			fetch = append(fetch, name)
		}
	}
	// The committed offsets do not depend on the describes: read them,
	// and make the rows from them, while the groups are described.
	fetchDone := make(chan struct{})
	if len(fetch) > 0 {
		go func() {
			defer close(fetchDone)
			c.fetchCommits(ctx, fetch, builders, topics)
		}()
	} else {
		close(fetchDone)
	}

	if len(classic) > 0 {
		c.describeClassic(ctx, classic, builders)
	}
	if len(consumer) > 0 {
		c.describeConsumer(ctx, consumer, builders, brokers, topicNames)
	}
	if len(share) > 0 {
		c.describeShare(ctx, share, builders)
	}
	if len(streams) > 0 {
		c.describeStreams(ctx, streams, builders, brokers, streamsCoord)
	}

	<-fetchDone
	for _, name := range fetch {
		gb := builders[name]
		if gb.fetchErr != nil {
			gb.addErr(fmt.Errorf("fetch offsets: %w", gb.fetchErr))
		}
		// A topic the metadata did not name (deleted since the commit)
		// still gets the poll's copy of its name.
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

	// Log bounds for every topic any group commits to or is assigned.
	topicSet := make(map[string]struct{})
	for i := range gbs {
		gb := &gbs[i]
		last := ""
		for j := range gb.rows.rows {
			if t := gb.rows.rows[j].Topic; j == 0 || t != last {
				last = t
				topicSet[t] = struct{}{}
			}
		}
		for t := range gb.shareOffsets {
			topicSet[t] = struct{}{}
		}
		for _, m := range gb.g.Members {
			for _, tp := range m.Assignment {
				topicSet[tp.Topic] = struct{}{}
			}
		}
	}
	var starts, ends, stables kadm.ListedOffsets
	var startErr, endErr error
	if len(topicSet) > 0 {
		topics := make([]string, 0, len(topicSet))
		for t := range topicSet {
			topics = append(topics, t)
		}
		sort.Strings(topics)
		// Three independent reads, one request per broker each, at
		// once; the rows are completed from the describes meanwhile.
		pctx, cancel = c.phase(ctx)
		var wg sync.WaitGroup
		wg.Add(3)
		go func() {
			defer wg.Done()
			starts, startErr = c.adm.ListStartOffsets(pctx, topics...)
		}()
		go func() {
			defer wg.Done()
			stables = c.listStable(pctx, topics)
		}()
		go func() {
			defer wg.Done()
			ends, endErr = c.adm.ListEndOffsets(pctx, topics...)
		}()
		for i := range gbs {
			gbs[i].assemble()
		}
		wg.Wait()
		cancel()
	} else {
		for i := range gbs {
			gbs[i].assemble()
		}
	}

	lb := newLogBounds(starts, startErr, ends, endErr, stables)
	for i := range gbs {
		gb := &gbs[i]
		gb.join(lb)
		if listErr != nil {
			gb.addErr(fmt.Errorf("group list may be incomplete: %w", listErr))
		}
	}
	c.strs.end(in)
	snap.Duration = time.Since(start)
	return snap, nil
}

// unreachable turns a failure of the first request into an error that names
// the brokers tried.
func (c *Client) unreachable(err error) error {
	return fmt.Errorf("cannot read cluster metadata within %s (tried %s): %w", c.timeout, strings.Join(c.brokers, ", "), err)
}

func brokerOrID(brokers map[int32]Broker, id int32) Broker {
	if b, ok := brokers[id]; ok {
		return b
	}
	return Broker{ID: id}
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
}

func (gb *groupBuilder) addErr(err error) {
	gb.g.Err = errors.Join(gb.g.Err, err)
}

func (c *Client) describeClassic(ctx context.Context, names []string, builders map[string]*groupBuilder) {
	pctx, cancel := c.phase(ctx)
	described, err := c.adm.DescribeGroups(pctx, names...)
	cancel()
	for _, name := range names {
		gb := builders[name]
		dg, ok := described[name]
		if !ok {
			if err == nil {
				err = errors.New("no response")
			}
			gb.addErr(fmt.Errorf("describe group: %w", err))
			continue
		}
		if dg.Err != nil {
			gb.addErr(fmt.Errorf("describe group: %w", dg.Err))
			continue
		}
		in := gb.in
		gb.g.State = in.get(dg.State)
		gb.g.ProtocolType = in.get(dg.ProtocolType)
		gb.g.Assignor = in.get(dg.Protocol)
		if dg.Coordinator.NodeID >= 0 && dg.Coordinator.Host != "" {
			gb.g.Coordinator = Broker{ID: dg.Coordinator.NodeID, Host: dg.Coordinator.Host, Port: dg.Coordinator.Port}
			if dg.Coordinator.Rack != nil {
				gb.g.Coordinator.Rack = *dg.Coordinator.Rack
			}
		}
		for _, dm := range dg.Members {
			m := Member{MemberID: in.get(dm.MemberID), ClientID: in.get(dm.ClientID), Host: in.get(dm.ClientHost)}
			if dm.InstanceID != nil {
				m.InstanceID = *dm.InstanceID
			}
			if cm, ok := dm.Join.AsConsumer(); ok {
				m.Subscribed = internAll(cm.Topics, in)
				sort.Strings(m.Subscribed)
				if cm.Rack != nil {
					m.Rack = *cm.Rack
				}
				m.JoinMetadata = cm.AppendTo(nil)
			}
			if ca, ok := dm.Assigned.AsConsumer(); ok {
				for _, t := range ca.Topics {
					m.Assignment = append(m.Assignment, TopicPartitions{Topic: in.get(t.Topic), Partitions: sortedInt32s(t.Partitions)})
				}
				sortTopicPartitions(m.Assignment)
			}
			gb.g.Members = append(gb.g.Members, m)
		}
		sort.Slice(gb.g.Members, func(i, j int) bool { return gb.g.Members[i].MemberID < gb.g.Members[j].MemberID })
	}
}

// describeConsumer describes KIP-848 groups with ConsumerGroupDescribe,
// sharded to each group's coordinator. It uses the raw request rather than
// kadm's so that topic IDs can be resolved to names when a broker sends only
// the ID.
func (c *Client) describeConsumer(ctx context.Context, names []string, builders map[string]*groupBuilder, brokers map[int32]Broker, topicNames map[kadm.TopicID]string) {
	req := kmsg.NewPtrConsumerGroupDescribeRequest()
	req.Groups = names
	pctx, cancel := c.phase(ctx)
	shards := c.cl.RequestSharded(pctx, req)
	cancel()
	seen := make(map[string]bool, len(names))
	for _, shard := range shards {
		sreq, _ := shard.Req.(*kmsg.ConsumerGroupDescribeRequest)
		if shard.Err != nil {
			if sreq != nil {
				for _, name := range sreq.Groups {
					if gb, ok := builders[name]; ok && !seen[name] {
						seen[name] = true
						gb.addErr(fmt.Errorf("describe consumer group: %w", shard.Err))
					}
				}
			}
			continue
		}
		resp := shard.Resp.(*kmsg.ConsumerGroupDescribeResponse)
		coord := brokerOrID(brokers, shard.Meta.NodeID)
		if shard.Meta.Host != "" {
			coord = Broker{ID: shard.Meta.NodeID, Host: shard.Meta.Host, Port: shard.Meta.Port}
		}
		for _, rg := range resp.Groups {
			gb, ok := builders[rg.Group]
			if !ok {
				continue
			}
			seen[rg.Group] = true
			if err := kerr.ErrorForCode(rg.ErrorCode); err != nil {
				gb.addErr(fmt.Errorf("describe consumer group: %w", err))
				continue
			}
			in := gb.in
			gb.g.State = in.get(rg.State)
			gb.g.ProtocolType = "consumer"
			gb.g.Assignor = in.get(rg.AssignorName)
			gb.g.GroupEpoch = rg.Epoch
			gb.g.AssignmentEpoch = rg.AssignmentEpoch
			gb.g.Coordinator = coord
			for _, rm := range rg.Members {
				m := Member{
					MemberID:    in.get(rm.MemberID),
					ClientID:    in.get(rm.ClientID),
					Host:        in.get(rm.ClientHost),
					MemberEpoch: rm.MemberEpoch,
					Subscribed:  internAll(rm.SubscribedTopics, in),
					Assignment:  resolveAssignment(rm.Assignment.TopicPartitions, topicNames, in),
					Target:      resolveAssignment(rm.TargetAssignment.TopicPartitions, topicNames, in),
				}
				sort.Strings(m.Subscribed)
				if rm.InstanceID != nil {
					m.InstanceID = *rm.InstanceID
				}
				if rm.RackID != nil {
					m.Rack = *rm.RackID
				}
				if rm.SubscribedTopicRegex != nil {
					m.SubscribedRegex = *rm.SubscribedTopicRegex
				}
				gb.g.Members = append(gb.g.Members, m)
			}
			sort.Slice(gb.g.Members, func(i, j int) bool { return gb.g.Members[i].MemberID < gb.g.Members[j].MemberID })
		}
	}
	for _, name := range names {
		if !seen[name] {
			builders[name].addErr(errors.New("describe consumer group: no response"))
		}
	}
}

func resolveAssignment(tps []kmsg.AssignmentTopicPartition, topicNames map[kadm.TopicID]string, in *interner) []TopicPartitions {
	var out []TopicPartitions
	for _, tp := range tps {
		name := in.get(tp.Topic)
		if name == "" {
			name = topicNames[kadm.TopicID(tp.TopicID)]
		}
		if name == "" {
			name = kadm.TopicID(tp.TopicID).String()
		}
		out = append(out, TopicPartitions{Topic: name, Partitions: sortedInt32s(tp.Partitions)})
	}
	sortTopicPartitions(out)
	return out
}

// assemble completes the group's rows from its describe: a share group's
// start offsets, and the partitions members are assigned with nothing
// committed. The rows stay sorted by topic and partition, in one slice
// with no spare room, kept in the group.
func (gb *groupBuilder) assemble() {
	rows := gb.rows
	gb.rows = rowSet{}
	extra := 0
	for _, ps := range gb.shareOffsets {
		extra += len(ps)
	}
	for i := range gb.g.Members {
		for _, a := range gb.g.Members[i].Assignment {
			for _, p := range a.Partitions {
				_, started := gb.shareOffsets.Lookup(a.Topic, p)
				if !rows.has(a.Topic, p) && !started {
					extra++
				}
			}
		}
	}
	if extra > 0 {
		grown := make([]PartitionOffsets, len(rows.rows), len(rows.rows)+extra)
		copy(grown, rows.rows)
		rows.rows = grown
	}
	if gb.g.Share != nil {
		gb.shareRows(rows.row)
	}
	if len(gb.g.Members) > 0 {
		// Owners share one array of member ids: a partition with one
		// owner (every partition outside share groups) gets a one-id
		// window of it, and a second owner copies it out on append.
		ids := make([]string, len(gb.g.Members))
		for i := range gb.g.Members {
			ids[i] = gb.g.Members[i].MemberID
		}
		for i := range gb.g.Members {
			m := &gb.g.Members[i]
			for _, a := range m.Assignment {
				for _, p := range a.Partitions {
					r := rows.row(a.Topic, p)
					if r.Owners == nil {
						r.MemberID, r.ClientID, r.Host = m.MemberID, m.ClientID, m.Host
						r.Owners = ids[i : i+1 : i+1]
					} else {
						r.Owners = append(r.Owners, m.MemberID)
					}
				}
			}
		}
	}
	rows.sort()
	gb.g.Partitions = rows.rows
}

func sortedInt32s(ps []int32) []int32 {
	out := append([]int32(nil), ps...)
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func sortTopicPartitions(tps []TopicPartitions) {
	sort.Slice(tps, func(i, j int) bool { return tps[i].Topic < tps[j].Topic })
}
