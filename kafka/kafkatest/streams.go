package kafkatest

import (
	"context"
	"sort"
	"sync"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// GroupServer answers ListGroups and StreamsGroupDescribe on the fake
// cluster with kmsg-built responses, through kfake's control hooks, since
// kfake implements neither streams groups (KIP-1071) nor any group type a
// newer Kafka may add, and Go has no Kafka Streams client. It answers as a
// broker would: each group is listed by, and described only on, the broker kfake
// makes its coordinator. Everything else (OffsetCommit, OffsetFetch,
// ListOffsets, DeleteGroups) is kfake's real handling.
type GroupServer struct {
	c *Cluster

	mu      sync.Mutex
	streams map[string]kmsg.StreamsGroupDescribeResponseGroup
	listed  map[string]kmsg.ListGroupsResponseGroup
	deleted []string
}

// ServeGroups takes over ListGroups on the cluster (only groups added to the
// server are listed from now on) and answers StreamsGroupDescribe, which it
// also advertises in ApiVersions (key 89, versions 0 to 1) to clients that
// connect afterwards. A DeleteGroups request removes the named groups from
// the server and is then handled by kfake as usual.
func (c *Cluster) ServeGroups(t testing.TB) *GroupServer {
	t.Helper()
	versions, err := kmsg.NewPtrApiVersionsRequest().RequestWith(context.Background(), c.admCl)
	if err != nil {
		t.Fatalf("api versions: %v", err)
	}
	s := &GroupServer{c: c, streams: map[string]kmsg.StreamsGroupDescribeResponseGroup{}, listed: map[string]kmsg.ListGroupsResponseGroup{}}
	c.ControlKey(int16(kmsg.ApiVersions), func(kr kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		req := kr.(*kmsg.ApiVersionsRequest)
		resp := *versions
		resp.Version = req.Version
		resp.ApiKeys = append([]kmsg.ApiVersionsResponseApiKey(nil), versions.ApiKeys...)
		k := kmsg.NewApiVersionsResponseApiKey()
		k.ApiKey, k.MinVersion, k.MaxVersion = int16(kmsg.StreamsGroupDescribe), 0, 1
		resp.ApiKeys = append(resp.ApiKeys, k)
		sort.Slice(resp.ApiKeys, func(i, j int) bool { return resp.ApiKeys[i].ApiKey < resp.ApiKeys[j].ApiKey })
		return &resp, nil, true
	})
	c.ControlKey(int16(kmsg.ListGroups), func(kr kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		req := kr.(*kmsg.ListGroupsRequest)
		resp := req.ResponseKind().(*kmsg.ListGroupsResponse)
		node := c.CurrentNode()
		s.mu.Lock()
		names := make([]string, 0, len(s.listed))
		for name := range s.listed {
			names = append(names, name)
		}
		s.mu.Unlock()
		sort.Strings(names)
		for _, name := range names {
			if c.CoordinatorFor(name) != node {
				continue
			}
			s.mu.Lock()
			lg, ok := s.listed[name]
			s.mu.Unlock()
			if ok {
				resp.Groups = append(resp.Groups, lg)
			}
		}
		return resp, nil, true
	})
	c.ControlKey(int16(kmsg.StreamsGroupDescribe), func(kr kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		req := kr.(*kmsg.StreamsGroupDescribeRequest)
		resp := req.ResponseKind().(*kmsg.StreamsGroupDescribeResponse)
		node := c.CurrentNode()
		for _, name := range req.Groups {
			s.mu.Lock()
			g, ok := s.streams[name]
			s.mu.Unlock()
			switch {
			case c.CoordinatorFor(name) != node:
				g = kmsg.NewStreamsGroupDescribeResponseGroup()
				g.Group, g.ErrorCode = name, kerr.NotCoordinator.Code
			case !ok:
				g = kmsg.NewStreamsGroupDescribeResponseGroup()
				g.Group, g.ErrorCode = name, kerr.GroupIDNotFound.Code
			}
			resp.Groups = append(resp.Groups, g)
		}
		return resp, nil, true
	})
	c.ControlKey(int16(kmsg.DeleteGroups), func(kr kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		req := kr.(*kmsg.DeleteGroupsRequest)
		s.mu.Lock()
		for _, name := range req.Groups {
			if _, ok := s.listed[name]; ok {
				delete(s.listed, name)
				delete(s.streams, name)
				s.deleted = append(s.deleted, name)
			}
		}
		s.mu.Unlock()
		return nil, nil, false
	})
	return s
}

// SetStreams lists g as a streams group in its state and answers
// StreamsGroupDescribe for it with g, replacing any earlier answer.
func (s *GroupServer) SetStreams(g kmsg.StreamsGroupDescribeResponseGroup) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.streams[g.Group] = g
	lg := kmsg.NewListGroupsResponseGroup()
	lg.Group, lg.ProtocolType, lg.GroupState, lg.GroupType = g.Group, "streams", g.State, "streams"
	s.listed[g.Group] = lg
}

// SetListed lists a group of any type that kgroups describes some other way
// (classic or consumer groups kfake holds) or cannot describe at all (a type
// from a newer Kafka).
func (s *GroupServer) SetListed(group, groupType, protocolType, state string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	lg := kmsg.NewListGroupsResponseGroup()
	lg.Group, lg.ProtocolType, lg.GroupState, lg.GroupType = group, protocolType, state, groupType
	s.listed[group] = lg
}

// Deleted returns the groups DeleteGroups removed, in order.
func (s *GroupServer) Deleted() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.deleted...)
}
