package recording

import (
	"github.com/kgroups/kgroups/kafka"
)

// encodeMeta writes everything of a group but its rows: written again
// only when some of it changed.
func (s *writeState) encodeMeta(e *enc, g *kafka.Group) {
	s.str(e, string(g.Type))
	s.str(e, g.ProtocolType)
	s.str(e, g.State)
	s.str(e, g.Assignor)
	e.varint(int64(g.GroupEpoch))
	e.varint(int64(g.AssignmentEpoch))
	s.broker(e, g.Coordinator)
	e.varint(int64(g.OffsetsPartition))
	sliceLen(e, g.Members == nil, len(g.Members))
	for i := range g.Members {
		s.member(e, &g.Members[i])
	}
	if g.Share == nil {
		e.byte(0)
	} else {
		e.byte(1)
		s.str(e, g.Share.LagSource)
	}
	if g.Streams == nil {
		e.byte(0)
	} else {
		e.byte(1)
		s.streams(e, g.Streams)
	}
	s.optErr(e, g.Err)
}

func (s *writeState) member(e *enc, m *kafka.Member) {
	s.str(e, m.MemberID)
	s.str(e, m.InstanceID)
	s.str(e, m.ClientID)
	s.str(e, m.Host)
	s.str(e, m.Rack)
	s.strs32(e, m.Subscribed)
	s.str(e, m.SubscribedRegex)
	s.topicParts(e, m.Assignment)
	e.varint(int64(m.MemberEpoch))
	s.topicParts(e, m.Target)
	sliceLen(e, m.JoinMetadata == nil, len(m.JoinMetadata))
	e.b = append(e.b, m.JoinMetadata...)
}

func (s *writeState) topicParts(e *enc, tps []kafka.TopicPartitions) {
	sliceLen(e, tps == nil, len(tps))
	for _, tp := range tps {
		s.str(e, tp.Topic)
		int32s(e, tp.Partitions)
	}
}

func int32s(e *enc, ps []int32) {
	sliceLen(e, ps == nil, len(ps))
	for _, p := range ps {
		e.varint(int64(p))
	}
}

func (s *writeState) streams(e *enc, st *kafka.StreamsInfo) {
	e.varint(int64(st.GroupEpoch))
	e.varint(int64(st.TargetAssignmentEpoch))
	e.varint(int64(st.TopologyEpoch))
	sliceLen(e, st.Subtopologies == nil, len(st.Subtopologies))
	for i := range st.Subtopologies {
		sub := &st.Subtopologies[i]
		s.str(e, sub.ID)
		s.strs32(e, sub.SourceTopics)
		s.strs32(e, sub.RepartitionSinkTopics)
		s.internal(e, sub.RepartitionSourceTopics)
		s.internal(e, sub.StateChangelogTopics)
	}
	sliceLen(e, st.Members == nil, len(st.Members))
	for i := range st.Members {
		m := &st.Members[i]
		for _, v := range []string{m.MemberID, m.ProcessID, m.ClientID, m.Host, m.InstanceID, m.Rack, m.UserEndpoint} {
			s.str(e, v)
		}
		sliceLen(e, m.ClientTags == nil, len(m.ClientTags))
		for _, t := range m.ClientTags {
			s.str(e, t.Key)
			s.str(e, t.Value)
		}
		e.varint(int64(m.MemberEpoch))
		e.varint(int64(m.TopologyEpoch))
		e.bool(m.IsClassic)
		s.tasks(e, m.Tasks)
		s.tasks(e, m.TargetTasks)
	}
}

func (s *writeState) internal(e *enc, ts []kafka.InternalTopic) {
	sliceLen(e, ts == nil, len(ts))
	for _, t := range ts {
		s.str(e, t.Topic)
		e.varint(int64(t.Partitions))
		e.varint(int64(t.ReplicationFactor))
	}
}

func (s *writeState) tasks(e *enc, t kafka.StreamsTasks) {
	for _, ids := range [][]kafka.TaskIDs{t.Active, t.Standby, t.Warmup} {
		sliceLen(e, ids == nil, len(ids))
		for _, id := range ids {
			s.str(e, id.Subtopology)
			int32s(e, id.Partitions)
		}
	}
}

// decodeMeta reads what encodeMeta wrote into g.
func (s *readState) decodeMeta(d *dec, g *kafka.Group) {
	g.Type = kafka.GroupType(s.str(d))
	g.ProtocolType = s.str(d)
	g.State = s.str(d)
	g.Assignor = s.str(d)
	g.GroupEpoch = d.int32()
	g.AssignmentEpoch = d.int32()
	g.Coordinator = s.broker(d)
	g.OffsetsPartition = d.int32()
	if n, ok := s.sliceLen(d, 5); ok {
		g.Members = make([]kafka.Member, n)
		for i := range g.Members {
			s.member(d, &g.Members[i])
		}
	}
	if d.bool() {
		g.Share = &kafka.ShareInfo{LagSource: s.str(d)}
	}
	if d.bool() {
		g.Streams = s.streams(d)
	}
	g.Err = s.optErr(d)
}

func (s *readState) member(d *dec, m *kafka.Member) {
	m.MemberID = s.str(d)
	m.InstanceID = s.str(d)
	m.ClientID = s.str(d)
	m.Host = s.str(d)
	m.Rack = s.str(d)
	m.Subscribed = s.strList(d)
	m.SubscribedRegex = s.str(d)
	m.Assignment = s.topicParts(d)
	m.MemberEpoch = d.int32()
	m.Target = s.topicParts(d)
	if n, ok := s.sliceLen(d, 1); ok {
		m.JoinMetadata = append(make([]byte, 0, n), d.b[:n]...)
		d.b = d.b[n:]
	}
}

func (s *readState) topicParts(d *dec) []kafka.TopicPartitions {
	n, ok := s.sliceLen(d, 2)
	if !ok {
		return nil
	}
	tps := make([]kafka.TopicPartitions, n)
	for i := range tps {
		tps[i].Topic = s.str(d)
		tps[i].Partitions = s.int32s(d)
	}
	return tps
}

func (s *readState) int32s(d *dec) []int32 {
	n, ok := s.sliceLen(d, 1)
	if !ok {
		return nil
	}
	ps := make([]int32, n)
	for i := range ps {
		ps[i] = d.int32()
	}
	return ps
}

func (s *readState) streams(d *dec) *kafka.StreamsInfo {
	st := &kafka.StreamsInfo{GroupEpoch: d.int32(), TargetAssignmentEpoch: d.int32(), TopologyEpoch: d.int32()}
	if n, ok := s.sliceLen(d, 5); ok {
		st.Subtopologies = make([]kafka.Subtopology, n)
		for i := range st.Subtopologies {
			sub := &st.Subtopologies[i]
			sub.ID = s.str(d)
			sub.SourceTopics = s.strList(d)
			sub.RepartitionSinkTopics = s.strList(d)
			sub.RepartitionSourceTopics = s.internal(d)
			sub.StateChangelogTopics = s.internal(d)
		}
	}
	if n, ok := s.sliceLen(d, 17); ok {
		st.Members = make([]kafka.StreamsMember, n)
		for i := range st.Members {
			m := &st.Members[i]
			for _, p := range []*string{&m.MemberID, &m.ProcessID, &m.ClientID, &m.Host, &m.InstanceID, &m.Rack, &m.UserEndpoint} {
				*p = s.str(d)
			}
			if n, ok := s.sliceLen(d, 2); ok {
				m.ClientTags = make([]kafka.ClientTag, n)
				for j := range m.ClientTags {
					m.ClientTags[j] = kafka.ClientTag{Key: s.str(d), Value: s.str(d)}
				}
			}
			m.MemberEpoch = d.int32()
			m.TopologyEpoch = d.int32()
			m.IsClassic = d.bool()
			m.Tasks = s.tasks(d)
			m.TargetTasks = s.tasks(d)
		}
	}
	return st
}

func (s *readState) internal(d *dec) []kafka.InternalTopic {
	n, ok := s.sliceLen(d, 3)
	if !ok {
		return nil
	}
	ts := make([]kafka.InternalTopic, n)
	for i := range ts {
		ts[i].Topic = s.str(d)
		ts[i].Partitions = d.int32()
		rf := d.varint()
		if int64(int16(rf)) != rf {
			d.fail("replication factor %d does not fit in 16 bits", rf)
		}
		ts[i].ReplicationFactor = int16(rf)
	}
	return ts
}

func (s *readState) tasks(d *dec) kafka.StreamsTasks {
	var out [3][]kafka.TaskIDs
	for k := range out {
		n, ok := s.sliceLen(d, 2)
		if !ok {
			continue
		}
		out[k] = make([]kafka.TaskIDs, n)
		for i := range out[k] {
			out[k][i] = kafka.TaskIDs{Subtopology: s.str(d), Partitions: s.int32s(d)}
		}
	}
	return kafka.StreamsTasks{Active: out[0], Standby: out[1], Warmup: out[2]}
}
