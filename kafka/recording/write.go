package recording

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"slices"

	"github.com/kgroups/kgroups/kafka"
)

// Writer appends polls to a recording. Each poll is one frame written with
// one Write call, so that a crash loses at most the poll being written.
// A Writer is not safe for concurrent use.
type Writer struct {
	w   io.Writer
	st  writeState
	n   int64 // bytes written
	err error
}

// writeState is what a poll's delta is taken against: the file's strings
// and the previous poll.
type writeState struct {
	strs   map[string]uint64
	fresh  []string // strings first used by the frame being encoded
	prev   *kafka.Snapshot
	metas  map[string][]byte // each group's meta as last written
	others []byte            // the snapshot's cluster block as last written
	polls  int
	// scratch
	body, meta, cl enc
	keyIdx         map[rowKey]int
}

type rowKey struct {
	topic     string
	partition int32
}

// NewWriter writes the header to w and returns a Writer for its polls.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	b := []byte(magic)
	b = append(b, byte(Version>>8), byte(Version))
	b = appendFrame(b, encodeHeader(h))
	n, err := w.Write(b)
	if err != nil {
		return nil, fmt.Errorf("write the recording's header: %w", err)
	}
	return &Writer{w: w, n: int64(n), st: writeState{strs: map[string]uint64{"": 0}, metas: map[string][]byte{}}}, nil
}

// Size is how many bytes the Writer has written.
func (w *Writer) Size() int64 { return w.n }

// Polls is how many polls the Writer has written.
func (w *Writer) Polls() int { return w.st.polls }

// Write appends one poll. After a failed write the Writer refuses every
// other poll (the next frame's delta would rest on one the file lacks);
// start a new file.
func (w *Writer) Write(p Poll) error {
	if w.err != nil {
		return w.err
	}
	payload := w.st.encodePoll(p)
	if len(payload) > MaxFrame {
		w.err = fmt.Errorf("a poll of %d bytes exceeds the format's %d", len(payload), MaxFrame)
		return w.err
	}
	frame := appendFrame(make([]byte, 0, frameHeader+len(payload)), payload)
	n, err := w.w.Write(frame)
	w.n += int64(n)
	if err != nil {
		w.err = fmt.Errorf("write poll %d to the recording: %w", w.st.polls+1, err)
		return w.err
	}
	w.st.polls++
	return nil
}

// str writes a reference to s, taking it into the file's table the first
// time.
func (s *writeState) str(e *enc, v string) {
	i, ok := s.strs[v]
	if !ok {
		i = uint64(len(s.strs))
		s.strs[v] = i
		s.fresh = append(s.fresh, v)
	}
	e.uvarint(i)
}

// optErr writes 0 for no error, else a reference to its words plus one.
func (s *writeState) optErr(e *enc, err error) {
	if err == nil {
		e.uvarint(0)
		return
	}
	msg := err.Error()
	i, ok := s.strs[msg]
	if !ok {
		i = uint64(len(s.strs))
		s.strs[msg] = i
		s.fresh = append(s.fresh, msg)
	}
	e.uvarint(i + 1)
}

func (s *writeState) strs32(e *enc, vs []string) {
	sliceLen(e, vs == nil, len(vs))
	for _, v := range vs {
		s.str(e, v)
	}
}

// sliceLen writes a slice's length plus one, 0 for a nil slice, so that a
// poll reads back exactly as taken.
func sliceLen(e *enc, isNil bool, n int) {
	if isNil {
		e.uvarint(0)
		return
	}
	e.uvarint(uint64(n) + 1)
}

// Poll flags.
const (
	pollSnapshot byte = 1 << iota
	pollErr
	pollExact
)

// Group flags: what changed since the group's previous poll.
const (
	groupMeta byte = 1 << iota
	groupKeys
	groupRows
)

func (s *writeState) encodePoll(p Poll) []byte {
	s.fresh = s.fresh[:0]
	b := &s.body
	b.b = b.b[:0]
	t := p.Time
	if p.Snapshot != nil {
		t = p.Snapshot.Time
	}
	b.varint(t.UnixNano())
	var flags byte
	if p.Snapshot != nil {
		flags |= pollSnapshot
	}
	if p.Err != nil {
		flags |= pollErr
	}
	if p.Exact != nil {
		flags |= pollExact
	}
	b.byte(flags)
	if p.Err != nil {
		s.optErr(b, p.Err)
	}
	if p.Snapshot != nil {
		s.encodeSnapshot(b, p.Snapshot)
	}
	if p.Exact != nil {
		s.encodeExact(b, p.Exact)
	}
	// The frame: its kind, the strings it uses first, the body.
	out := enc{b: make([]byte, 0, len(b.b)+16)}
	out.byte(kindPoll)
	out.uvarint(uint64(len(s.fresh)))
	for _, v := range s.fresh {
		out.bytes([]byte(v))
	}
	out.b = append(out.b, b.b...)
	return out.b
}

func (s *writeState) encodeSnapshot(b *enc, snap *kafka.Snapshot) {
	b.uvarint(uint64(max(snap.Duration, 0)))
	// The cluster block: written again only when it changed.
	cl := &s.cl
	cl.b = cl.b[:0]
	s.encodeCluster(cl, snap)
	if s.prev != nil && bytes.Equal(cl.b, s.others) {
		b.byte(0)
	} else {
		b.byte(1)
		b.bytes(cl.b)
		s.others = append(s.others[:0], cl.b...)
	}
	// The groups' names: written again only when they changed.
	prev := s.prev
	same := prev != nil && len(prev.Groups) == len(snap.Groups)
	for i := 0; same && i < len(snap.Groups); i++ {
		same = prev.Groups[i].Name == snap.Groups[i].Name
	}
	if same {
		b.byte(0)
	} else {
		b.byte(1)
		b.uvarint(uint64(len(snap.Groups)))
		for i := range snap.Groups {
			s.str(b, snap.Groups[i].Name)
		}
	}
	metas := make(map[string][]byte, len(snap.Groups))
	for i := range snap.Groups {
		g := &snap.Groups[i]
		var pg *kafka.Group
		if prev != nil {
			pg, _ = prev.Group(g.Name)
		}
		metas[g.Name] = s.encodeGroup(b, g, pg)
	}
	s.metas = metas
	s.prev = snap
}

// encodeGroup writes one group against its previous poll pg (nil when
// new) and returns its meta block.
func (s *writeState) encodeGroup(b *enc, g, pg *kafka.Group) []byte {
	m := &s.meta
	m.b = m.b[:0]
	s.encodeMeta(m, g)
	var flags byte
	old, had := s.metas[g.Name]
	if !had || pg == nil || !bytes.Equal(old, m.b) {
		flags |= groupMeta
		old = append([]byte(nil), m.b...)
	}
	var prows []kafka.PartitionOffsets
	if pg != nil {
		prows = pg.Partitions
	}
	if !sameKeys(g.Partitions, prows) {
		flags |= groupKeys | groupRows
	} else if !sameRows(g.Partitions, prows) {
		flags |= groupRows
	}
	b.byte(flags)
	if flags&groupMeta != 0 {
		b.bytes(m.b)
	}
	if flags&groupKeys != 0 {
		sliceLen(b, g.Partitions == nil, len(g.Partitions))
		for i := range g.Partitions {
			s.str(b, g.Partitions[i].Topic)
			b.varint(int64(g.Partitions[i].Partition))
		}
	}
	if flags&groupRows != 0 {
		s.encodeRows(b, g.Partitions, prows, flags&groupKeys != 0)
	}
	return old
}

func sameKeys(a, b []kafka.PartitionOffsets) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return false
	}
	for i := range a {
		if a[i].Partition != b[i].Partition || a[i].Topic != b[i].Topic {
			return false
		}
	}
	return true
}

func sameRows(a, b []kafka.PartitionOffsets) bool {
	for i := range a {
		if rowMask(&a[i], &b[i]) != 0 {
			return false
		}
	}
	return true
}

// The fields of a row, as bits of its mask.
const (
	fLeaderEpoch = 1 << iota
	fCommitted
	fMetadata
	fLogStart
	fLogEnd
	fLag
	fLastStable
	fMemberID
	fClientID
	fHost
	fOwners
	fErr
	fBrokerLag
	fStableTrails
	fAll = 1<<iota - 1
)

// rowMask is the fields in which a differs from b.
func rowMask(a, b *kafka.PartitionOffsets) uint64 {
	var m uint64
	if a.LeaderEpoch != b.LeaderEpoch {
		m |= fLeaderEpoch
	}
	if a.Committed != b.Committed {
		m |= fCommitted
	}
	if a.Metadata != b.Metadata {
		m |= fMetadata
	}
	if a.LogStart != b.LogStart {
		m |= fLogStart
	}
	if a.LogEnd != b.LogEnd {
		m |= fLogEnd
	}
	if a.Lag != b.Lag {
		m |= fLag
	}
	if a.LastStable != b.LastStable {
		m |= fLastStable
	}
	if a.MemberID != b.MemberID {
		m |= fMemberID
	}
	if a.ClientID() != b.ClientID() {
		m |= fClientID
	}
	if a.Host() != b.Host() {
		m |= fHost
	}
	if ao, bo := a.Owners(), b.Owners(); (ao == nil) != (bo == nil) || !slices.Equal(ao, bo) {
		m |= fOwners
	}
	if (a.Err == nil) != (b.Err == nil) || (a.Err != nil && a.Err.Error() != b.Err.Error()) {
		m |= fErr
	}
	if a.BrokerLag() != b.BrokerLag() {
		m |= fBrokerLag
	}
	if a.StableTrails != b.StableTrails {
		m |= fStableTrails
	}
	return m
}

// encodeRows writes a bitmap of the rows that changed, then each changed
// row's changed fields as differences. With keys changed, a row's base
// is the previous poll's row of its partition, or the zero row.
func (s *writeState) encodeRows(b *enc, rows, prows []kafka.PartitionOffsets, keysChanged bool) {
	bases := make([]*kafka.PartitionOffsets, len(rows))
	var zero kafka.PartitionOffsets
	if keysChanged {
		if s.keyIdx == nil {
			s.keyIdx = map[rowKey]int{}
		}
		clear(s.keyIdx)
		for i := range prows {
			s.keyIdx[rowKey{prows[i].Topic, prows[i].Partition}] = i
		}
		for i := range rows {
			if j, ok := s.keyIdx[rowKey{rows[i].Topic, rows[i].Partition}]; ok {
				bases[i] = &prows[j]
			} else {
				bases[i] = &zero
			}
		}
	} else {
		for i := range rows {
			bases[i] = &prows[i]
		}
	}
	bitmap := make([]byte, (len(rows)+7)/8)
	masks := make([]uint64, len(rows))
	for i := range rows {
		masks[i] = rowMask(&rows[i], bases[i])
		if masks[i] != 0 {
			bitmap[i/8] |= 1 << (i % 8)
		}
	}
	b.b = append(b.b, bitmap...)
	for i := range rows {
		if masks[i] != 0 {
			s.encodeRow(b, &rows[i], bases[i], masks[i])
		}
	}
}

func (s *writeState) encodeRow(b *enc, r, base *kafka.PartitionOffsets, m uint64) {
	b.uvarint(m)
	if m&fLeaderEpoch != 0 {
		b.varint(int64(r.LeaderEpoch) - int64(base.LeaderEpoch))
	}
	if m&fCommitted != 0 {
		b.varint(r.Committed - base.Committed)
	}
	if m&fMetadata != 0 {
		s.str(b, r.Metadata)
	}
	if m&fLogStart != 0 {
		b.varint(r.LogStart - base.LogStart)
	}
	if m&fLogEnd != 0 {
		b.varint(r.LogEnd - base.LogEnd)
	}
	if m&fLag != 0 {
		b.varint(r.Lag - base.Lag)
	}
	if m&fLastStable != 0 {
		b.varint(r.LastStable - base.LastStable)
	}
	if m&fMemberID != 0 {
		s.str(b, r.MemberID)
	}
	if m&fClientID != 0 {
		s.str(b, r.ClientID())
	}
	if m&fHost != 0 {
		s.str(b, r.Host())
	}
	if m&fOwners != 0 {
		s.strs32(b, r.Owners())
	}
	if m&fErr != 0 {
		s.optErr(b, r.Err)
	}
	if m&fBrokerLag != 0 {
		b.varint(r.BrokerLag() - base.BrokerLag())
	}
	// fStableTrails carries no value: the bit flips the base's.
}

// encodeCluster writes what a snapshot holds beside its groups.
func (s *writeState) encodeCluster(e *enc, snap *kafka.Snapshot) {
	s.str(e, snap.ClusterID)
	e.varint(int64(snap.OffsetsTopicPartitions))
	sliceLen(e, snap.Brokers == nil, len(snap.Brokers))
	for _, br := range snap.Brokers {
		s.broker(e, br)
	}
	s.optErr(e, snap.ListErr)
	sliceLen(e, snap.PartitionCounts == nil, len(snap.PartitionCounts))
	for _, t := range sortedKeys(snap.PartitionCounts) {
		s.str(e, t)
		e.varint(int64(snap.PartitionCounts[t]))
	}
	sliceLen(e, snap.TopicIDs == nil, len(snap.TopicIDs))
	for _, t := range sortedKeys(snap.TopicIDs) {
		s.str(e, t)
		id := snap.TopicIDs[t]
		e.b = append(e.b, id[:]...)
	}
}

func (s *writeState) broker(e *enc, br kafka.Broker) {
	e.varint(int64(br.ID))
	s.str(e, br.Host)
	e.varint(int64(br.Port))
	s.str(e, br.Rack)
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// encodeExact writes the records read at commits, sorted by key so that
// the same reads make the same bytes.
func (s *writeState) encodeExact(b *enc, recs map[kafka.CommitKey]kafka.RecordTime) {
	keys := make([]kafka.CommitKey, 0, len(recs))
	for k := range recs {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y kafka.CommitKey) int {
		if c := compareKey(x.Topic, x.Partition, y.Topic, y.Partition); c != 0 {
			return c
		}
		return cmp.Compare(x.Offset, y.Offset)
	})
	b.uvarint(uint64(len(keys)))
	for _, k := range keys {
		r := recs[k]
		s.str(b, k.Topic)
		b.varint(int64(k.Partition))
		b.varint(k.Offset)
		b.varint(r.Offset - k.Offset)
		var f byte
		if !r.Timestamp.IsZero() {
			f |= 1
		}
		if r.NoRecords {
			f |= 2
		}
		b.byte(f)
		if f&1 != 0 {
			b.varint(r.Timestamp.UnixNano())
		}
		s.optErr(b, r.Err)
	}
}

func compareKey(ta string, pa int32, tb string, pb int32) int {
	if ta != tb {
		if ta < tb {
			return -1
		}
		return 1
	}
	return cmp.Compare(pa, pb)
}
