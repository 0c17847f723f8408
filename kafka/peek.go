package kafka

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Peek limits. A peek reads a few records and never a whole partition: the
// fetches are bounded in bytes, and reading stops at Count records.
const (
	// MaxPeekRecords is the most records one peek returns per partition.
	MaxPeekRecords = 100
	// peekFetchBytes bounds one fetch response (FetchMaxBytes and
	// FetchMaxPartitionBytes). A broker still returns a first batch
	// larger than this whole, so a big record is never cut off.
	peekFetchBytes = 1 << 20
)

// PeekRequest asks for Count records of each of Partitions of Topic,
// starting at Offset or, when Offset is OffsetNext, at the next record
// Group will process.
type PeekRequest struct {
	Group      string
	Topic      string
	Partitions []int32
	// Offset is where to start reading; OffsetNext means the group's next
	// offset (NextOffset).
	Offset int64
	// Count is how many records to read per partition, 1 to
	// MaxPeekRecords.
	Count int
}

// OffsetNext asks Peek to start at the offset the group will process next.
const OffsetNext int64 = -1

// TxnState says what became of the transaction a record was written in.
type TxnState int

const (
	// TxnNone means the record was not written in a transaction.
	TxnNone TxnState = iota
	// TxnCommitted means its transaction committed; every consumer sees it.
	TxnCommitted
	// TxnAborted means its transaction aborted; read_committed consumers skip
	// it.
	TxnAborted
	// TxnOpen means its transaction has not ended; read_committed consumers
	// cannot pass it until it does.
	TxnOpen
	// TxnEnded means its transaction ended, but the marker lies beyond what was
	// read, so the outcome is not known.
	TxnEnded
)

// String is the word kgroups shows for the state; "" for TxnNone.
func (s TxnState) String() string {
	switch s {
	case TxnCommitted:
		return "committed"
	case TxnAborted:
		return "aborted"
	case TxnOpen:
		return "open"
	case TxnEnded:
		return "ended"
	}
	return ""
}

// Header is one record header, exact bytes.
type Header struct {
	Key   string
	Value []byte
}

// PeekRecord is one record as the log holds it.
type PeekRecord struct {
	Offset    int64
	Timestamp time.Time
	// LogAppendTime is true when the broker stamped the record on append
	// (message.timestamp.type=LogAppendTime); false means CreateTime, the
	// producer's clock.
	LogAppendTime bool
	Key           []byte // nil for a null key
	Value         []byte // nil for a null value (a tombstone)
	Headers       []Header
	// Size is the record's key, value and header bytes.
	Size       int
	ProducerID int64
	Txn        TxnState
}

// TimestampType is "LogAppendTime" or "CreateTime".
func (r *PeekRecord) TimestampType() string {
	if r.LogAppendTime {
		return "LogAppendTime"
	}
	return "CreateTime"
}

// PeekPartition is what one partition gave.
type PeekPartition struct {
	Topic     string
	Partition int32
	// Committed is the group's committed offset, NoOffset without one.
	Committed int64
	// Start is the offset asked for: the group's next offset, or the one
	// given.
	Start int64
	// LogStart, LogEnd and LastStable (ListOffsets read_committed) as read
	// before the records; NoOffset when unknown.
	LogStart, LogEnd, LastStable int64
	Records                      []PeekRecord
	// Err is why nothing, or not the record at Start, could be shown:
	// *NoCommitError, *RecordGoneError, *PastLogEndError or
	// *NoRecordAtError (Records then start at its Next), or a read error.
	Err error
}

// PeekResult holds the partitions in the order asked.
type PeekResult struct {
	Group      string
	Topic      string
	Partitions []PeekPartition
}

// NoCommitError says the group has no committed offset on the partition.
type NoCommitError struct {
	Group, Topic string
	Partition    int32
}

func (e *NoCommitError) Error() string {
	return fmt.Sprintf("group %q has no committed offset on %s/%d: give --offset to read elsewhere", e.Group, e.Topic, e.Partition)
}

// RecordGoneError says the offset lies below the log start; retention or
// DeleteRecords removed the record.
type RecordGoneError struct {
	Offset, LogStart int64
}

func (e *RecordGoneError) Error() string {
	return fmt.Sprintf("offset %d is below the log start %d: the record is gone (deleted by retention or DeleteRecords)", e.Offset, e.LogStart)
}

// PastLogEndError says nothing is stored at the offset yet.
type PastLogEndError struct {
	Offset, LogEnd int64
}

func (e *PastLogEndError) Error() string {
	if e.Offset == e.LogEnd {
		return fmt.Sprintf("offset %d is the log end: no record has been written there yet", e.Offset)
	}
	return fmt.Sprintf("offset %d is beyond the log end %d", e.Offset, e.LogEnd)
}

// NoRecordAtError says the offset is inside the log but holds no record.
// Compaction deleted it, or a transaction marker sits there; Next is the
// offset of the first record after it (NoOffset when only markers follow).
type NoRecordAtError struct {
	Offset, Next int64
	Marker       bool // a transaction marker sits at Offset
}

func (e *NoRecordAtError) Error() string {
	what := "no record is stored at offset %d (deleted by compaction)"
	if e.Marker {
		what = "offset %d holds a transaction marker, not a record"
	}
	s := fmt.Sprintf(what, e.Offset)
	if e.Next < 0 {
		return s + "; only transaction markers follow"
	}
	return s + fmt.Sprintf("; the next record is at offset %d", e.Next)
}

// NextOffset is the offset a group will process next on a partition, from
// what a poll read: a consumer or streams group resumes at its committed
// offset, a share group at its start offset (which a poll keeps in
// Committed). ok is false when there is none. It is the one place that chooses the record
// `kgroups peek` and the record viewer open on.
func NextOffset(p PartitionOffsets) (offset int64, ok bool) {
	if !p.HasCommit() {
		return NoOffset, false
	}
	return p.Committed, true
}

// Peek reads records of req.Topic without joining any group and without
// committing: a direct consumer assigned the partitions at exact offsets
// (kgo.ConsumePartitions), reading uncommitted data so that open and aborted
// transactions show, with transaction markers kept to tell their outcome.
// The whole call is bounded by the client's request timeout; a partition
// that could not be read carries its own Err.
func (c *Client) Peek(ctx context.Context, req PeekRequest) (PeekResult, error) {
	res := PeekResult{Group: req.Group, Topic: req.Topic}
	if req.Count < 1 || req.Count > MaxPeekRecords {
		return res, fmt.Errorf("peek: count %d is out of range 1..%d", req.Count, MaxPeekRecords)
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()

	parts, err := c.peekOffsets(ctx, req)
	if err != nil {
		return res, err
	}
	res.Partitions = parts

	reads := make(map[int32]*PeekPartition)
	for i := range parts {
		p := &parts[i]
		if p.Err == nil {
			reads[p.Partition] = p
		}
	}
	if len(reads) == 0 {
		return res, nil
	}
	if err := c.peekRead(ctx, req, reads); err != nil {
		return res, err
	}
	if err := c.peekOpenTxns(ctx, req.Topic, reads); err != nil {
		return res, err
	}
	return res, nil
}

// missingPartition says why the log bounds of topic/p could not be read:
// the topic does not exist, or has fewer partitions (as reset says it).
func missingPartition(topic string, p int32, listed map[int32]kadm.ListedOffset) error {
	n := int32(0)
	for q := range listed {
		if q >= 0 && q >= n {
			n = q + 1
		}
	}
	switch n {
	case 0:
		return fmt.Errorf("topic %q does not exist", topic)
	case 1:
		return fmt.Errorf("topic %q has 1 partition (0); partition %d does not exist", topic, p)
	}
	return fmt.Errorf("topic %q has %d partitions (0-%d); partition %d does not exist", topic, n, n-1, p)
}

// peekOffsets reads the log bounds (and, when reading at the group's next
// offset, its commits) and decides where each partition starts.
func (c *Client) peekOffsets(ctx context.Context, req PeekRequest) ([]PeekPartition, error) {
	starts, err := c.adm.ListStartOffsets(ctx, req.Topic)
	if err != nil {
		return nil, fmt.Errorf("list log start offsets of %s: %w", req.Topic, err)
	}
	ends, err := c.adm.ListEndOffsets(ctx, req.Topic)
	if err != nil {
		return nil, fmt.Errorf("list log end offsets of %s: %w", req.Topic, err)
	}
	stables, err := c.adm.ListCommittedOffsets(ctx, req.Topic)
	if err != nil {
		return nil, fmt.Errorf("list last stable offsets of %s: %w", req.Topic, err)
	}
	// Where the group resumes, read as a poll reads it, so that every
	// group type answers: a consumer or streams group's committed offset,
	// a share group's start offset.
	// A read at a given offset still shows the group's committed offset
	// when the group answers (the viewer opened from a finding shows it
	// as the one opened at the commit does); only a read from the commit
	// needs it.
	var next map[int32]int64
	if req.Offset == OffsetNext || req.Group != "" {
		snap, err := c.PollGroups(ctx, req.Group)
		g, ok := snap.Group(req.Group)
		switch {
		case req.Offset != OffsetNext && (err != nil || !ok || g.Err != nil):
			ok = false
		case err != nil:
			return nil, fmt.Errorf("read group %q: %w", req.Group, err)
		case !ok || g.State == StateDead && len(g.Members) == 0 && len(g.Partitions) == 0 && g.Err == nil:
			return nil, &GroupNotFoundError{Group: req.Group}
		case g.Err != nil:
			return nil, fmt.Errorf("read group %q: %w", req.Group, g.Err)
		}
		next = make(map[int32]int64)
		if !ok {
			g = &Group{}
		}
		for _, gp := range g.Partitions {
			if gp.Topic != req.Topic {
				continue
			}
			if off, ok := NextOffset(gp); ok {
				next[gp.Partition] = off
			}
		}
	}
	out := make([]PeekPartition, 0, len(req.Partitions))
	for _, p := range req.Partitions {
		pp := PeekPartition{Topic: req.Topic, Partition: p, Committed: NoOffset, Start: req.Offset,
			LogStart: NoOffset, LogEnd: NoOffset, LastStable: NoOffset}
		s, sok := starts.Lookup(req.Topic, p)
		e, eok := ends.Lookup(req.Topic, p)
		if !sok || !eok {
			pp.Err = missingPartition(req.Topic, p, starts[req.Topic])
			out = append(out, pp)
			continue
		}
		if s.Err != nil || e.Err != nil {
			pp.Err = fmt.Errorf("list offsets of %s/%d: %w", req.Topic, p, errors.Join(s.Err, e.Err))
			out = append(out, pp)
			continue
		}
		pp.LogStart, pp.LogEnd = s.Offset, e.Offset
		if l, ok := stables.Lookup(req.Topic, p); ok && l.Err == nil {
			pp.LastStable = l.Offset
		}
		if req.Offset == OffsetNext {
			off, ok := next[p]
			if !ok {
				pp.Err = &NoCommitError{Group: req.Group, Topic: req.Topic, Partition: p}
				out = append(out, pp)
				continue
			}
			pp.Committed, pp.Start = off, off
		} else if off, ok := next[p]; ok {
			pp.Committed = off
		}
		switch {
		case pp.Start < pp.LogStart:
			pp.Err = &RecordGoneError{Offset: pp.Start, LogStart: pp.LogStart}
		case pp.Start >= pp.LogEnd:
			pp.Err = &PastLogEndError{Offset: pp.Start, LogEnd: pp.LogEnd}
		}
		out = append(out, pp)
	}
	return out, nil
}

// peekState follows one partition while it is read.
type peekState struct {
	p      *PeekPartition
	want   int
	done   bool
	marker bool // a marker was seen at Start
	// pending are indexes into p.Records of transactional records whose
	// marker has not been seen yet, per producer id.
	pending map[int64][]int
	// after counts the bytes read past the last record kept, while
	// looking for markers; reading stops at peekFetchBytes.
	after int
}

// peekRead reads the records with one direct consumer. It never joins a
// group (no ConsumerGroup option) and so never commits.
func (c *Client) peekRead(ctx context.Context, req PeekRequest, reads map[int32]*PeekPartition) error {
	offsets := make(map[int32]kgo.Offset, len(reads))
	states := make(map[int32]*peekState, len(reads))
	for p, pp := range reads {
		offsets[p] = kgo.NewOffset().At(pp.Start)
		states[p] = &peekState{p: pp, want: req.Count, pending: make(map[int64][]int)}
	}
	base := c.cl.Opts()
	opts := append(base[:len(base):len(base)],
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{req.Topic: offsets}),
		kgo.FetchIsolationLevel(kgo.ReadUncommitted()),
		kgo.KeepControlRecords(),
		kgo.FetchMaxBytes(peekFetchBytes),
		kgo.FetchMaxPartitionBytes(peekFetchBytes),
		kgo.DisableFetchSessions(),
	)
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return fmt.Errorf("peek %s: %w", req.Topic, err)
	}
	defer cl.Close()

	finish := func(s *peekState) {
		s.done = true
		cl.PauseFetchPartitions(map[string][]int32{req.Topic: {s.p.Partition}})
	}
	left := len(states)
	for left > 0 {
		fs := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			break
		}
		fs.EachError(func(_ string, partition int32, err error) {
			s, ok := states[partition]
			if !ok || s.done {
				return
			}
			var dl *kgo.ErrDataLoss
			if errors.As(err, &dl) {
				return
			}
			s.p.Err = fmt.Errorf("read %s/%d at offset %d: %w", req.Topic, partition, s.p.Start, err)
			finish(s)
			left--
		})
		fs.EachRecord(func(rec *kgo.Record) {
			s, ok := states[rec.Partition]
			if !ok || s.done {
				return
			}
			s.add(rec)
			full := len(s.p.Records) >= s.want
			if full && (len(s.pending) == 0 || s.after > peekFetchBytes) || rec.Offset+1 >= s.p.LogEnd {
				finish(s)
				left--
			}
		})
	}
	for _, s := range states {
		if !s.done && s.p.Err == nil && len(s.p.Records) == 0 {
			err := ctx.Err()
			if errors.Is(err, context.DeadlineExceeded) {
				err = fmt.Errorf("no record read within %s", c.timeout)
			}
			s.p.Err = fmt.Errorf("read %s/%d at offset %d: %w", req.Topic, s.p.Partition, s.p.Start, err)
			continue
		}
		s.settle()
	}
	return nil
}

// add takes one fetched record or marker.
func (s *peekState) add(rec *kgo.Record) {
	if rec.Offset < s.p.Start {
		return
	}
	if rec.Attrs.IsControl() {
		if rec.Offset == s.p.Start {
			s.marker = true
		}
		commit, ok := markerCommits(rec.Key)
		if !ok {
			return
		}
		state := TxnAborted
		if commit {
			state = TxnCommitted
		}
		for _, i := range s.pending[rec.ProducerID] {
			s.p.Records[i].Txn = state
		}
		delete(s.pending, rec.ProducerID)
		return
	}
	if len(s.p.Records) >= s.want {
		// Read on only for the markers of the records kept.
		s.after += len(rec.Key) + len(rec.Value)
		return
	}
	r := PeekRecord{
		Offset:        rec.Offset,
		Timestamp:     rec.Timestamp,
		LogAppendTime: rec.Attrs.TimestampType() == 1,
		Key:           rec.Key,
		Value:         rec.Value,
		Size:          len(rec.Key) + len(rec.Value),
		ProducerID:    rec.ProducerID,
	}
	for _, h := range rec.Headers {
		r.Headers = append(r.Headers, Header{Key: h.Key, Value: h.Value})
		r.Size += len(h.Key) + len(h.Value)
	}
	if rec.Attrs.IsTransactional() {
		s.pending[rec.ProducerID] = append(s.pending[rec.ProducerID], len(s.p.Records))
		r.Txn = TxnEnded // until a marker or DescribeProducers says more
	}
	s.p.Records = append(s.p.Records, r)
}

// settle records a missing first record as a NoRecordAtError.
func (s *peekState) settle() {
	if s.p.Err != nil {
		return
	}
	if len(s.p.Records) == 0 {
		s.p.Err = &NoRecordAtError{Offset: s.p.Start, Next: NoOffset, Marker: s.marker}
		return
	}
	if first := s.p.Records[0].Offset; first > s.p.Start {
		s.p.Err = &NoRecordAtError{Offset: s.p.Start, Next: first, Marker: s.marker}
	}
}

// markerCommits reads a control record's key: version int16, then type
// int16, 0 for abort and 1 for commit. ok is false for other control
// records.
func markerCommits(key []byte) (commit, ok bool) {
	if len(key) < 4 {
		return false, false
	}
	switch binary.BigEndian.Uint16(key[2:4]) {
	case 0:
		return false, true
	case 1:
		return true, true
	}
	return false, false
}

// peekOpenTxns decides the transactional records whose marker was not read:
// a record is in an open transaction when DescribeProducers says its
// producer's current transaction started at or before it. Otherwise its
// transaction ended after what was read, and it stays TxnEnded.
func (c *Client) peekOpenTxns(ctx context.Context, topic string, reads map[int32]*PeekPartition) error {
	var ps []int32
	for p, pp := range reads {
		for _, r := range pp.Records {
			if r.Txn == TxnEnded {
				ps = append(ps, p)
				break
			}
		}
	}
	if len(ps) == 0 {
		return nil
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i] < ps[j] })
	described, err := c.adm.DescribeProducers(ctx, kadm.TopicsSet{topic: toSet(ps)})
	if err != nil {
		return fmt.Errorf("describe producers of %s: %w", topic, err)
	}
	for _, p := range ps {
		dp, ok := described[topic].Partitions[p]
		if !ok || dp.Err != nil {
			continue
		}
		open := make(map[int64]int64)
		for _, pr := range dp.ActiveProducers {
			if pr.CurrentTxnStartOffset >= 0 {
				open[pr.ProducerID] = pr.CurrentTxnStartOffset
			}
		}
		recs := reads[p].Records
		for i := range recs {
			if start, ok := open[recs[i].ProducerID]; ok && recs[i].Txn == TxnEnded && start <= recs[i].Offset {
				recs[i].Txn = TxnOpen
			}
		}
	}
	return nil
}

func toSet(ps []int32) map[int32]struct{} {
	m := make(map[int32]struct{}, len(ps))
	for _, p := range ps {
		m[p] = struct{}{}
	}
	return m
}
