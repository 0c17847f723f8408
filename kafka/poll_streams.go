package kafka

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"sync"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// describeStreams describes streams groups with StreamsGroupDescribe, one
// request per coordinator (the broker that listed the group, as the
// listing set the group's Coordinator), sent in parallel. kgo does not
// shard this request itself.
func (c *Client) describeStreams(ctx context.Context, names []string, builders map[string]*groupBuilder, brokers map[int32]Broker) {
	byBroker := make(map[int32][]string)
	for _, name := range names {
		id := builders[name].g.Coordinator.ID
		byBroker[id] = append(byBroker[id], name)
	}
	type answer struct {
		node int32
		req  []string
		resp *kmsg.StreamsGroupDescribeResponse
		err  error
	}
	answers := make(chan answer, len(byBroker))
	pctx, cancel := c.phase(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for node, groups := range byBroker {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := kmsg.NewPtrStreamsGroupDescribeRequest()
			req.Groups = groups
			resp, err := req.RequestWith(pctx, c.cl.Broker(int(node)))
			answers <- answer{node: node, req: groups, resp: resp, err: err}
		}()
	}
	wg.Wait()
	close(answers)

	seen := make(map[string]bool, len(names))
	for a := range answers {
		if a.err != nil {
			for _, name := range a.req {
				seen[name] = true
				builders[name].addErr(fmt.Errorf("describe streams group: %w", a.err))
			}
			continue
		}
		for i := range a.resp.Groups {
			rg := &a.resp.Groups[i]
			gb, ok := builders[rg.Group]
			if !ok || seen[rg.Group] {
				continue
			}
			seen[rg.Group] = true
			if err := kerr.ErrorForCode(rg.ErrorCode); err != nil {
				if rg.ErrorMessage != nil && *rg.ErrorMessage != "" {
					err = fmt.Errorf("%w: %s", err, *rg.ErrorMessage)
				}
				gb.addErr(fmt.Errorf("describe streams group: %w", err))
				continue
			}
			gb.g.Coordinator = brokerOrID(brokers, a.node)
			applyStreamsGroup(gb.g, rg)
		}
	}
	for _, name := range names {
		if !seen[name] {
			builders[name].addErr(errors.New("describe streams group: no response"))
		}
	}
}

// applyStreamsGroup fills a group from its StreamsGroupDescribe answer. Each
// member's active tasks become its Assignment (and target tasks its Target)
// on the source topics of the task's subtopology, since task p of a
// subtopology reads partition p of each of its source topics; so the
// partition table, owners and lag work as for any other group.
func applyStreamsGroup(g *Group, rg *kmsg.StreamsGroupDescribeResponseGroup) {
	g.State = rg.State
	g.ProtocolType = "streams"
	if rg.AssignorName != nil {
		g.Assignor = *rg.AssignorName
	}
	g.GroupEpoch = rg.Epoch
	g.AssignmentEpoch = rg.AssignmentEpoch
	si := &StreamsInfo{GroupEpoch: rg.Epoch, TargetAssignmentEpoch: rg.AssignmentEpoch, TopologyEpoch: -1}
	if t := rg.Topology; t != nil {
		si.TopologyEpoch = t.Epoch
		for _, st := range t.Subtopologies {
			si.Subtopologies = append(si.Subtopologies, Subtopology{
				ID:                      st.SubtopologyID,
				SourceTopics:            sortedStrings(st.SourceTopics),
				RepartitionSinkTopics:   sortedStrings(st.RepartitionSinkTopics),
				RepartitionSourceTopics: internalTopics(st.RepartitionSourceTopics),
				StateChangelogTopics:    internalTopics(st.StateChangelogTopics),
			})
		}
		sort.Slice(si.Subtopologies, func(i, j int) bool {
			return subtopologyLess(si.Subtopologies[i].ID, si.Subtopologies[j].ID)
		})
	}
	sources := make(map[string][]string, len(si.Subtopologies))
	var subscribed []string
	for _, st := range si.Subtopologies {
		ts := append([]string(nil), st.SourceTopics...)
		for _, rt := range st.RepartitionSourceTopics {
			ts = append(ts, rt.Topic)
		}
		sort.Strings(ts)
		sources[st.ID] = ts
		subscribed = append(subscribed, ts...)
	}
	subscribed = sortedStrings(subscribed)
	for i := range rg.Members {
		rm := &rg.Members[i]
		sm := StreamsMember{
			MemberID:      rm.MemberID,
			ProcessID:     rm.ProcessID,
			ClientID:      rm.ClientID,
			Host:          rm.ClientHost,
			MemberEpoch:   rm.MemberEpoch,
			TopologyEpoch: rm.TopologyEpoch,
			IsClassic:     rm.IsClassic,
			Tasks:         streamsTasks(rm.Assignment),
			TargetTasks:   streamsTasks(rm.TargetAssignment),
		}
		if rm.InstanceID != nil {
			sm.InstanceID = *rm.InstanceID
		}
		if rm.RackID != nil {
			sm.Rack = *rm.RackID
		}
		if ep := rm.UserEndpoint; ep != nil && (ep.Host != "" || ep.Port != 0) {
			sm.UserEndpoint = ep.Host + ":" + strconv.Itoa(int(ep.Port))
		}
		for _, ct := range rm.ClientTags {
			sm.ClientTags = append(sm.ClientTags, ClientTag{Key: ct.Key, Value: ct.Value})
		}
		sort.Slice(sm.ClientTags, func(i, j int) bool { return sm.ClientTags[i].Key < sm.ClientTags[j].Key })
		si.Members = append(si.Members, sm)
		g.Members = append(g.Members, Member{
			MemberID:    sm.MemberID,
			InstanceID:  sm.InstanceID,
			ClientID:    sm.ClientID,
			Host:        sm.Host,
			Rack:        sm.Rack,
			Subscribed:  subscribed,
			MemberEpoch: sm.MemberEpoch,
			Assignment:  taskPartitions(sm.Tasks.Active, sources),
			Target:      taskPartitions(sm.TargetTasks.Active, sources),
		})
	}
	sort.Slice(si.Members, func(i, j int) bool { return si.Members[i].MemberID < si.Members[j].MemberID })
	sort.Slice(g.Members, func(i, j int) bool { return g.Members[i].MemberID < g.Members[j].MemberID })
	g.Streams = si
}

func sortedStrings(ss []string) []string {
	if len(ss) == 0 {
		return nil
	}
	out := append([]string(nil), ss...)
	sort.Strings(out)
	return compactStrings(out)
}

func compactStrings(ss []string) []string {
	out := ss[:0]
	for i, s := range ss {
		if i == 0 || s != ss[i-1] {
			out = append(out, s)
		}
	}
	return out
}

func internalTopics(ts []kmsg.TopicInfo) []InternalTopic {
	var out []InternalTopic
	for _, t := range ts {
		out = append(out, InternalTopic{Topic: t.Topic, Partitions: t.NumPartitions, ReplicationFactor: t.ReplicationFactor})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Topic < out[j].Topic })
	return out
}

func streamsTasks(a kmsg.StreamsAssignment) StreamsTasks {
	return StreamsTasks{Active: taskIDs(a.ActiveTasks), Standby: taskIDs(a.StandbyTasks), Warmup: taskIDs(a.WarmupTasks)}
}

func taskIDs(ts []kmsg.TaskIDs) []TaskIDs {
	var out []TaskIDs
	for _, t := range ts {
		out = append(out, TaskIDs{Subtopology: t.SubtopologyID, Partitions: sortedInt32s(t.Partitions)})
	}
	sort.Slice(out, func(i, j int) bool { return subtopologyLess(out[i].Subtopology, out[j].Subtopology) })
	return out
}

// subtopologyLess orders subtopology ids numerically when both are numbers
// (Kafka Streams numbers them 0, 1, ... 10), else as strings.
func subtopologyLess(a, b string) bool {
	x, errA := strconv.Atoi(a)
	y, errB := strconv.Atoi(b)
	if errA == nil && errB == nil {
		return x < y
	}
	if (errA == nil) != (errB == nil) {
		return errA == nil
	}
	return a < b
}

// taskPartitions turns tasks into the partitions they read: task p of a
// subtopology reads partition p of each of its source topics.
func taskPartitions(tasks []TaskIDs, sources map[string][]string) []TopicPartitions {
	byTopic := make(map[string][]int32)
	for _, t := range tasks {
		for _, topic := range sources[t.Subtopology] {
			byTopic[topic] = append(byTopic[topic], t.Partitions...)
		}
	}
	var out []TopicPartitions
	for topic, ps := range byTopic {
		out = append(out, TopicPartitions{Topic: topic, Partitions: ps})
	}
	return MergeAssignment(out)
}

// ApplyStreamsDescribe fills g from one group of a StreamsGroupDescribe
// answer exactly as the poll does: state, epochs, topology, members and
// their tasks. Screens' tests build streams groups with it from the same
// protocol fixtures the poll is tested with.
func ApplyStreamsDescribe(g *Group, rg *kmsg.StreamsGroupDescribeResponseGroup) {
	applyStreamsGroup(g, rg)
}
