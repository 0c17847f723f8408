package recording

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/kgroups/kgroups/kafka"
)

// Redactor replaces the names in polls with pseudonyms, so that a
// recording can be attached to a bug report: groups, topics, members,
// instances, clients, hosts, racks, processes, the cluster and its
// brokers. Each name keeps its pseudonym for as long as the Redactor
// lives (group-1 is the same group at every poll, in every file of a
// rotation), and the structure, the counts and every number stay. A
// commit's metadata and a classic member's join metadata (which carries
// topic names and the client's user data) are dropped; names inside
// error messages are replaced. A Redactor is not safe for concurrent use.
type Redactor struct {
	names map[string]map[string]string // kind -> name -> pseudonym
	// all maps every name seen to its pseudonym, longest first when
	// replacing inside errors.
	all map[string]string
	// repl replaces them; nil when names were added since it was made.
	repl *strings.Replacer
}

// NewRedactor returns a Redactor with no names yet.
func NewRedactor() *Redactor {
	return &Redactor{names: map[string]map[string]string{}, all: map[string]string{}}
}

// name is kind's pseudonym for s: kind-1, kind-2, ... in the order first
// seen. The empty name stays empty.
func (r *Redactor) name(kind, s string) string {
	if s == "" {
		return ""
	}
	m := r.names[kind]
	if m == nil {
		m = map[string]string{}
		r.names[kind] = m
	}
	p, ok := m[s]
	if !ok {
		p = kind + "-" + strconv.Itoa(len(m)+1)
		m[s] = p
		// Short names (a topic "a") would garble the words around them.
		if _, taken := r.all[s]; !taken && len(s) >= minReplaced {
			r.all[s] = p
			r.repl = nil
		}
	}
	return p
}

func (r *Redactor) names1(kind string, ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = r.name(kind, s)
	}
	slices.Sort(out)
	return out
}

// hostPort keeps the port of host:port and replaces the host.
func (r *Redactor) hostPort(s string) string {
	if i := strings.LastIndexByte(s, ':'); i > 0 {
		return r.name("host", s[:i]) + s[i:]
	}
	return r.name("host", s)
}

// minReplaced is the shortest name replaced inside an error's words.
const minReplaced = 3

// text replaces every name seen so far inside s (an error's words), the
// longest first.
func (r *Redactor) text(s string) string {
	if r.repl == nil {
		keys := slices.Collect(maps.Keys(r.all))
		slices.SortFunc(keys, func(a, b string) int {
			if len(a) != len(b) {
				return len(b) - len(a)
			}
			return strings.Compare(a, b)
		})
		pairs := make([]string, 0, 2*len(keys))
		for _, k := range keys {
			pairs = append(pairs, k, r.all[k])
		}
		r.repl = strings.NewReplacer(pairs...)
	}
	return r.repl.Replace(s)
}

func (r *Redactor) err(err error) error {
	if err == nil {
		return nil
	}
	return Error(r.text(err.Error()))
}

// Header redacts a header: its groups and cluster, and marks it.
func (r *Redactor) Header(h Header) Header {
	h.Groups = r.names1("group", h.Groups)
	cl := make([]string, len(h.Cluster))
	for i, c := range h.Cluster {
		cl[i] = r.hostPort(c)
	}
	h.Cluster = cl
	h.Redacted = true
	return h
}

// Poll redacts a poll. The snapshot returned is new; p's is not changed.
func (r *Redactor) Poll(p Poll) Poll {
	if p.Snapshot != nil {
		p.Snapshot = r.snapshot(p.Snapshot)
	}
	p.Err = r.err(p.Err)
	if p.Exact != nil {
		exact := make(map[kafka.CommitKey]kafka.RecordTime, len(p.Exact))
		for k, v := range p.Exact {
			k.Topic = r.name("topic", k.Topic)
			v.Err = r.err(v.Err)
			exact[k] = v
		}
		p.Exact = exact
	}
	return p
}

func (r *Redactor) broker(b kafka.Broker) kafka.Broker {
	b.Host, b.Rack = r.name("host", b.Host), r.name("rack", b.Rack)
	return b
}

func (r *Redactor) snapshot(s *kafka.Snapshot) *kafka.Snapshot {
	c := *s
	c.ClusterID = r.name("cluster", s.ClusterID)
	c.Brokers = nil
	for _, b := range s.Brokers {
		c.Brokers = append(c.Brokers, r.broker(b))
	}
	if s.PartitionCounts != nil {
		c.PartitionCounts = make(map[string]int32, len(s.PartitionCounts))
		for _, t := range sortedKeys(s.PartitionCounts) {
			c.PartitionCounts[r.name("topic", t)] = s.PartitionCounts[t]
		}
	}
	if s.TopicIDs != nil {
		c.TopicIDs = make(map[string]kafka.TopicID, len(s.TopicIDs))
		for _, t := range sortedKeys(s.TopicIDs) {
			c.TopicIDs[r.name("topic", t)] = s.TopicIDs[t]
		}
	}
	c.Groups = make([]kafka.Group, len(s.Groups))
	for i := range s.Groups {
		c.Groups[i] = r.group(&s.Groups[i])
	}
	// Names are pseudonyms now: the order readers rely on is theirs.
	slices.SortStableFunc(c.Groups, func(a, b kafka.Group) int { return strings.Compare(a.Name, b.Name) })
	c.ListErr = r.err(s.ListErr)
	return &c
}

func (r *Redactor) group(g *kafka.Group) kafka.Group {
	c := *g
	c.Name = r.name("group", g.Name)
	c.Coordinator = r.broker(g.Coordinator)
	if g.Members != nil {
		c.Members = make([]kafka.Member, len(g.Members))
		for i := range g.Members {
			c.Members[i] = r.member(&g.Members[i])
		}
		slices.SortStableFunc(c.Members, func(a, b kafka.Member) int { return strings.Compare(a.MemberID, b.MemberID) })
	}
	if g.Partitions != nil {
		c.Partitions = make([]kafka.PartitionOffsets, len(g.Partitions))
		for i, p := range g.Partitions {
			p.Topic = r.name("topic", p.Topic)
			if p.Metadata != "" {
				p.Metadata = "-"
			}
			p.SetOwner(r.name("member", p.MemberID), r.name("client", p.ClientID()),
				r.hostPort(p.Host()), r.names1("member", p.Owners()))
			p.Err = r.err(p.Err)
			c.Partitions[i] = p
		}
		slices.SortStableFunc(c.Partitions, func(a, b kafka.PartitionOffsets) int {
			return compareKey(a.Topic, a.Partition, b.Topic, b.Partition)
		})
	}
	if g.Streams != nil {
		c.Streams = r.streams(g.Streams)
	}
	c.Err = r.err(g.Err)
	return c
}

func (r *Redactor) member(m *kafka.Member) kafka.Member {
	c := *m
	c.MemberID = r.name("member", m.MemberID)
	c.InstanceID = r.name("instance", m.InstanceID)
	c.ClientID = r.name("client", m.ClientID)
	c.Host = r.hostPort(m.Host)
	c.Rack = r.name("rack", m.Rack)
	c.Subscribed = r.names1("topic", m.Subscribed)
	if m.SubscribedRegex != "" {
		c.SubscribedRegex = "regex"
	}
	c.Assignment = r.topicParts(m.Assignment)
	c.Target = r.topicParts(m.Target)
	c.JoinMetadata = nil
	return c
}

func (r *Redactor) topicParts(tps []kafka.TopicPartitions) []kafka.TopicPartitions {
	if tps == nil {
		return nil
	}
	out := make([]kafka.TopicPartitions, len(tps))
	for i, tp := range tps {
		out[i] = kafka.TopicPartitions{Topic: r.name("topic", tp.Topic), Partitions: tp.Partitions}
	}
	slices.SortStableFunc(out, func(a, b kafka.TopicPartitions) int { return strings.Compare(a.Topic, b.Topic) })
	return out
}

func (r *Redactor) streams(st *kafka.StreamsInfo) *kafka.StreamsInfo {
	c := *st
	c.Subtopologies = make([]kafka.Subtopology, len(st.Subtopologies))
	for i, sub := range st.Subtopologies {
		sub.SourceTopics = r.names1("topic", sub.SourceTopics)
		sub.RepartitionSinkTopics = r.names1("topic", sub.RepartitionSinkTopics)
		sub.RepartitionSourceTopics = r.internal(sub.RepartitionSourceTopics)
		sub.StateChangelogTopics = r.internal(sub.StateChangelogTopics)
		c.Subtopologies[i] = sub
	}
	c.Members = make([]kafka.StreamsMember, len(st.Members))
	for i, m := range st.Members {
		m.MemberID = r.name("member", m.MemberID)
		m.ProcessID = r.name("process", m.ProcessID)
		m.ClientID = r.name("client", m.ClientID)
		m.Host = r.hostPort(m.Host)
		m.InstanceID = r.name("instance", m.InstanceID)
		m.Rack = r.name("rack", m.Rack)
		m.UserEndpoint = r.hostPort(m.UserEndpoint)
		if m.ClientTags != nil {
			tags := make([]kafka.ClientTag, len(m.ClientTags))
			for j, t := range m.ClientTags {
				tags[j] = kafka.ClientTag{Key: r.name("tag", t.Key), Value: r.name("value", t.Value)}
			}
			slices.SortStableFunc(tags, func(a, b kafka.ClientTag) int { return strings.Compare(a.Key, b.Key) })
			m.ClientTags = tags
		}
		c.Members[i] = m
	}
	slices.SortStableFunc(c.Members, func(a, b kafka.StreamsMember) int { return strings.Compare(a.MemberID, b.MemberID) })
	return &c
}

func (r *Redactor) internal(ts []kafka.InternalTopic) []kafka.InternalTopic {
	if ts == nil {
		return nil
	}
	out := make([]kafka.InternalTopic, len(ts))
	for i, t := range ts {
		t.Topic = r.name("topic", t.Topic)
		out[i] = t
	}
	return out
}

// Redacting is a Sink that redacts every poll before sink takes it.
type Redacting struct {
	Sink     Sink
	Redactor *Redactor
}

// Write redacts p and writes it.
func (s Redacting) Write(p Poll) error { return s.Sink.Write(s.Redactor.Poll(p)) }

// Counts is how many names of each kind were replaced, by kind
// ("group", "topic", "member", "client", "host", ...).
func (r *Redactor) Counts() map[string]int {
	out := make(map[string]int, len(r.names))
	for k, m := range r.names {
		out[k] = len(m)
	}
	return out
}
