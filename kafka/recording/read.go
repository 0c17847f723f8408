package recording

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"time"

	"github.com/kgroups/kgroups/kafka"
)

// Reader reads a recording poll by poll.
type Reader struct {
	r      *bufio.Reader
	Header Header
	st     readState
	// off is the offset of the next frame; polls counts the polls read.
	off   int64
	polls int
	// torn is why the reading stopped before the end of the input: a
	// torn tail (the poll being written when the recorder stopped) or a
	// damaged frame.
	torn error
	buf  bytes.Buffer
}

// readState is what a poll's delta is read against.
type readState struct {
	strs  []string
	prev  *kafka.Snapshot
	cl    *kafka.Snapshot // the cluster block as last read, in a snapshot
	limit int             // strings the table may still take
}

// maxStrings bounds the file's table of strings.
const maxStrings = 1 << 26

// NewReader reads the recording's start: its version and header. A file
// that is not a recording, or one of a version this build does not read
// (a *VersionError), is refused.
func NewReader(r io.Reader) (*Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head := make([]byte, len(magic)+2)
	if n, err := io.ReadFull(br, head); err != nil {
		switch {
		case n == 0:
			return nil, errors.New("an empty file, not a kgroups recording")
		case string(head[:min(n, len(magic))]) != magic[:min(n, len(magic))]:
			return nil, errors.New("not a kgroups recording (it does not start as one)")
		}
		return nil, errors.New("a kgroups recording cut short before its header")
	}
	if string(head[:len(magic)]) != magic {
		return nil, errors.New("not a kgroups recording (it does not start as one)")
	}
	version := int(binary.BigEndian.Uint16(head[len(magic):]))
	if version != Version {
		return nil, &VersionError{Got: version}
	}
	rd := &Reader{r: br, off: int64(len(head)), st: readState{strs: []string{""}, limit: maxStrings}}
	payload, err := rd.frame()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("a kgroups recording cut short before its header")
		}
		return nil, fmt.Errorf("the recording's header: %w", err)
	}
	if rd.Header, err = decodeHeader(payload, version); err != nil {
		return nil, fmt.Errorf("the recording's header: %w", err)
	}
	return rd, nil
}

// errTorn marks a frame cut short or failing its checksum.
var errTorn = errors.New("torn frame")

// frame reads the next frame's payload: io.EOF at a clean end, errTorn
// (wrapped) for a frame cut short or damaged. Memory grows with the bytes
// actually read, never with a length the file claims.
func (r *Reader) frame() ([]byte, error) {
	var h [frameHeader]byte
	n, err := io.ReadFull(r.r, h[:])
	if errors.Is(err, io.EOF) {
		return nil, io.EOF
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %d bytes at offset %d end mid-frame", errTorn, n, r.off)
	}
	size := int64(binary.BigEndian.Uint32(h[:4]))
	if size == 0 || size > MaxFrame {
		return nil, fmt.Errorf("%w: the frame at offset %d claims %d bytes (1 to %d)", errTorn, r.off, size, MaxFrame)
	}
	r.buf.Reset()
	got, err := io.CopyN(&r.buf, r.r, size)
	if err != nil {
		return nil, fmt.Errorf("%w: the frame at offset %d ends after %d of its %d bytes", errTorn, r.off, got, size)
	}
	payload := r.buf.Bytes()
	if crc32.Checksum(payload, castagnoli) != binary.BigEndian.Uint32(h[4:]) {
		return nil, fmt.Errorf("%w: the frame at offset %d fails its checksum", errTorn, r.off)
	}
	r.off += frameHeader + size
	return payload, nil
}

// Next reads the next poll. It returns io.EOF at the end of the
// recording, and also at a torn or damaged frame, after which Torn says
// why: a recording being written, or cut by a crash, reads up to its last
// whole poll. A whole frame that does not decode is an error.
func (r *Reader) Next() (*Poll, error) {
	if r.torn != nil {
		return nil, io.EOF
	}
	payload, err := r.frame()
	if err != nil {
		if errors.Is(err, errTorn) {
			r.torn = err
			return nil, io.EOF
		}
		if !errors.Is(err, io.EOF) {
			r.torn = err
		}
		return nil, io.EOF
	}
	p, err := r.st.decodePoll(payload)
	if err != nil {
		return nil, fmt.Errorf("poll %d of the recording (offset %d): %w", r.polls+1, r.off-frameHeader-int64(len(payload)), err)
	}
	r.polls++
	return p, nil
}

// Torn says why the reading stopped before the input's end (nil when it
// read to the end): the bytes after the last whole poll are ignored.
func (r *Reader) Torn() error { return r.torn }

// Offset is where the last whole poll read ends: a recorder continuing
// a file cuts it there.
func (r *Reader) Offset() int64 { return r.off }

// Polls is how many polls were read.
func (r *Reader) Polls() int { return r.polls }

func (s *readState) str(d *dec) string {
	i := d.uvarint()
	if d.err != nil {
		return ""
	}
	if i >= uint64(len(s.strs)) {
		d.fail("string %d of %d", i, len(s.strs))
		return ""
	}
	return s.strs[i]
}

func (s *readState) optErr(d *dec) error {
	i := d.uvarint()
	if d.err != nil || i == 0 {
		return nil
	}
	if i-1 >= uint64(len(s.strs)) {
		d.fail("string %d of %d", i-1, len(s.strs))
		return nil
	}
	return Error(s.strs[i-1])
}

// sliceLen reads a length written by sliceLen: ok is false for a nil
// slice (and on error). Each item takes at least least bytes.
func (s *readState) sliceLen(d *dec, least int) (int, bool) {
	v := d.uvarint()
	if d.err != nil || v == 0 {
		return 0, false
	}
	if v-1 > uint64(len(d.b)/max(least, 1)) {
		d.fail("count %d exceeds what the frame holds", v-1)
		return 0, false
	}
	return int(v - 1), true
}

func (s *readState) strList(d *dec) []string {
	n, ok := s.sliceLen(d, 1)
	if !ok {
		return nil
	}
	vs := make([]string, n)
	for i := range vs {
		vs[i] = s.str(d)
	}
	return vs
}

func (s *readState) broker(d *dec) kafka.Broker {
	return kafka.Broker{ID: d.int32(), Host: s.str(d), Port: d.int32(), Rack: s.str(d)}
}

func (s *readState) decodePoll(payload []byte) (*Poll, error) {
	d := &dec{b: payload}
	if k := d.byte(); k != kindPoll {
		return nil, fmt.Errorf("%w: a frame of kind %q where a poll belongs", errCorrupt, k)
	}
	// The frame's new strings join the table only once the whole frame
	// decodes, so that a bad frame leaves the state as it was.
	n := d.count(1)
	if n > s.limit {
		d.fail("%d more strings than the table holds", n)
	}
	base := len(s.strs)
	for range n {
		s.strs = append(s.strs, string(d.bytes()))
	}
	p, snap := s.decodeBody(d)
	if d.err == nil && len(d.b) != 0 {
		d.fail("%d bytes left over", len(d.b))
	}
	if d.err != nil {
		s.strs = s.strs[:base]
		return nil, d.err
	}
	s.limit -= n
	if snap != nil {
		s.prev = snap
	}
	return p, nil
}

func (s *readState) decodeBody(d *dec) (*Poll, *kafka.Snapshot) {
	p := &Poll{Time: unixNano(d.varint())}
	flags := d.byte()
	if flags&^(pollSnapshot|pollErr|pollExact) != 0 {
		d.fail("unknown poll flags %#x", flags)
		return nil, nil
	}
	if flags&pollErr != 0 {
		p.Err = s.optErr(d)
		if p.Err == nil {
			p.Err = Error("")
		}
	}
	if flags&pollSnapshot != 0 {
		p.Snapshot = s.decodeSnapshot(d, p.Time)
	}
	if flags&pollExact != 0 {
		p.Exact = s.decodeExact(d)
	}
	return p, p.Snapshot
}

func (s *readState) decodeSnapshot(d *dec, t time.Time) *kafka.Snapshot {
	snap := &kafka.Snapshot{Time: t}
	dur := d.uvarint()
	if dur > 1<<62 {
		d.fail("a poll of %d nanoseconds", dur)
	}
	snap.Duration = time.Duration(dur)
	switch d.byte() {
	case 0:
		if s.cl == nil {
			d.fail("the first poll refers to a previous one")
			return nil
		}
	case 1:
		cd := &dec{b: d.bytes()}
		cl := s.decodeCluster(cd)
		if cd.err == nil && len(cd.b) != 0 {
			cd.fail("%d bytes left over in the cluster block", len(cd.b))
		}
		if cd.err != nil {
			d.fail("%v", cd.err)
			return nil
		}
		s.cl = cl
	default:
		d.fail("bad cluster flag")
		return nil
	}
	snap.ClusterID, snap.OffsetsTopicPartitions, snap.Brokers = s.cl.ClusterID, s.cl.OffsetsTopicPartitions, s.cl.Brokers
	snap.ListErr, snap.PartitionCounts, snap.TopicIDs = s.cl.ListErr, s.cl.PartitionCounts, s.cl.TopicIDs

	prev := s.prev
	switch d.byte() {
	case 0:
		if prev == nil {
			d.fail("the first poll refers to a previous one")
			return nil
		}
		snap.Groups = make([]kafka.Group, len(prev.Groups))
		for i := range prev.Groups {
			snap.Groups[i].Name = prev.Groups[i].Name
		}
	case 1:
		n := d.count(2) // a name and a group's flags
		snap.Groups = make([]kafka.Group, n)
		for i := range snap.Groups {
			snap.Groups[i].Name = s.str(d)
		}
	default:
		d.fail("bad groups flag")
	}
	for i := range snap.Groups {
		if d.err != nil {
			return nil
		}
		g := &snap.Groups[i]
		var pg *kafka.Group
		if prev != nil {
			pg, _ = prev.Group(g.Name)
		}
		s.decodeGroup(d, g, pg)
	}
	return snap
}

func (s *readState) decodeGroup(d *dec, g, pg *kafka.Group) {
	flags := d.byte()
	if flags&^(groupMeta|groupKeys|groupRows) != 0 || (flags&groupKeys != 0 && flags&groupRows == 0) {
		d.fail("bad group flags %#x", flags)
		return
	}
	if flags&groupMeta != 0 {
		md := &dec{b: d.bytes()}
		s.decodeMeta(md, g)
		if md.err == nil && len(md.b) != 0 {
			md.fail("%d bytes left over in a group", len(md.b))
		}
		if md.err != nil {
			d.fail("group %q: %v", g.Name, md.err)
			return
		}
	} else {
		if pg == nil {
			d.fail("group %q refers to a poll that lacks it", g.Name)
			return
		}
		name := g.Name
		*g = *pg
		g.Name = name
	}
	var prows []kafka.PartitionOffsets
	if pg != nil {
		prows = pg.Partitions
	}
	switch {
	case flags&groupKeys != 0:
		n, ok := s.sliceLen(d, 2)
		var rows []kafka.PartitionOffsets
		if ok {
			rows = make([]kafka.PartitionOffsets, n)
			for i := range rows {
				rows[i].Topic = s.str(d)
				rows[i].Partition = d.int32()
			}
		}
		s.decodeRows(d, rows, prows, true)
		g.Partitions = rows
	case flags&groupRows != 0:
		rows := make([]kafka.PartitionOffsets, len(prows))
		s.decodeRows(d, rows, prows, false)
		g.Partitions = rows
	default:
		// Unchanged: the previous poll's rows, shared (snapshots are
		// never changed once built).
		g.Partitions = prows
	}
}

func (s *readState) decodeRows(d *dec, rows, prows []kafka.PartitionOffsets, keysChanged bool) {
	var idx map[rowKey]int
	if keysChanged && len(prows) > 0 {
		idx = make(map[rowKey]int, len(prows))
		for i := range prows {
			idx[rowKey{prows[i].Topic, prows[i].Partition}] = i
		}
	}
	nb := (len(rows) + 7) / 8
	if nb > len(d.b) {
		d.fail("the rows' bitmap is cut short")
		return
	}
	bitmap := d.b[:nb]
	d.b = d.b[nb:]
	zero := kafka.PartitionOffsets{}
	for i := range rows {
		base := &zero
		if keysChanged {
			if j, ok := idx[rowKey{rows[i].Topic, rows[i].Partition}]; ok {
				base = &prows[j]
			}
		} else {
			base = &prows[i]
		}
		topic, part := rows[i].Topic, rows[i].Partition
		if !keysChanged {
			topic, part = base.Topic, base.Partition
		}
		rows[i] = *base
		rows[i].Topic, rows[i].Partition = topic, part
		if bitmap[i/8]&(1<<(i%8)) != 0 {
			s.decodeRow(d, &rows[i], base)
		}
		if d.err != nil {
			return
		}
	}
}

func (s *readState) decodeRow(d *dec, r, base *kafka.PartitionOffsets) {
	m := d.uvarint()
	if m == 0 || m&^fAll != 0 {
		d.fail("bad row fields %#x", m)
		return
	}
	if m&fLeaderEpoch != 0 {
		r.LeaderEpoch = int32(int64(base.LeaderEpoch) + d.varint())
	}
	if m&fCommitted != 0 {
		r.Committed = base.Committed + d.varint()
	}
	if m&fMetadata != 0 {
		r.Metadata = s.str(d)
	}
	if m&fLogStart != 0 {
		r.LogStart = base.LogStart + d.varint()
	}
	if m&fLogEnd != 0 {
		r.LogEnd = base.LogEnd + d.varint()
	}
	if m&fLag != 0 {
		r.Lag = base.Lag + d.varint()
	}
	if m&fLastStable != 0 {
		r.LastStable = base.LastStable + d.varint()
	}
	if m&fMemberID != 0 {
		r.MemberID = s.str(d)
	}
	if m&(fClientID|fHost|fOwners) != 0 {
		client, host, owners := r.ClientID(), r.Host(), r.Owners()
		if m&fClientID != 0 {
			client = s.str(d)
		}
		if m&fHost != 0 {
			host = s.str(d)
		}
		if m&fOwners != 0 {
			owners = s.strList(d)
		}
		r.SetOwner(r.MemberID, client, host, owners)
	}
	if m&fErr != 0 {
		r.Err = s.optErr(d)
	}
	if m&fBrokerLag != 0 {
		r.SetBrokerLag(base.BrokerLag() + d.varint())
	}
	if m&fStableTrails != 0 {
		r.StableTrails = !base.StableTrails
	}
}

func (s *readState) decodeCluster(d *dec) *kafka.Snapshot {
	cl := &kafka.Snapshot{ClusterID: s.str(d), OffsetsTopicPartitions: d.int32()}
	if n, ok := s.sliceLen(d, 4); ok {
		cl.Brokers = make([]kafka.Broker, n)
		for i := range cl.Brokers {
			cl.Brokers[i] = s.broker(d)
		}
	}
	cl.ListErr = s.optErr(d)
	if n, ok := s.sliceLen(d, 2); ok {
		cl.PartitionCounts = make(map[string]int32, n)
		for range n {
			t := s.str(d)
			cl.PartitionCounts[t] = d.int32()
		}
	}
	if n, ok := s.sliceLen(d, 17); ok {
		cl.TopicIDs = make(map[string]kafka.TopicID, n)
		for range n {
			t := s.str(d)
			var id kafka.TopicID
			if len(d.b) < len(id) {
				d.fail("a topic id cut short")
				break
			}
			copy(id[:], d.b)
			d.b = d.b[len(id):]
			cl.TopicIDs[t] = id
		}
	}
	return cl
}

func (s *readState) decodeExact(d *dec) map[kafka.CommitKey]kafka.RecordTime {
	n := d.count(6)
	out := make(map[kafka.CommitKey]kafka.RecordTime, n)
	for range n {
		k := kafka.CommitKey{Topic: s.str(d), Partition: d.int32(), Offset: d.varint()}
		r := kafka.RecordTime{Offset: k.Offset + d.varint()}
		f := d.byte()
		if f&^3 != 0 {
			d.fail("bad record flags %#x", f)
		}
		if f&1 != 0 {
			r.Timestamp = unixNano(d.varint())
		}
		r.NoRecords = f&2 != 0
		r.Err = s.optErr(d)
		if d.err != nil {
			return nil
		}
		out[k] = r
	}
	return out
}
