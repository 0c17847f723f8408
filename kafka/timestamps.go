package kafka

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// CommitKey names one committed offset of one partition. Results of
// CommittedTimestamps are keyed by it rather than by partition because two
// groups reading the same partition usually sit at different offsets.
type CommitKey struct {
	Topic     string
	Partition int32
	Offset    int64
}

// RecordTime is what the log holds at a committed offset: the timestamp of
// the oldest message the group has not consumed yet, from which its exact
// time lag follows.
type RecordTime struct {
	// Offset is the offset of the record read. It is the committed offset
	// itself unless no record is stored there (compaction removed it, it
	// is a transaction marker, or retention deleted it), in which case it
	// is the first record after it: the next one the group will consume.
	Offset int64
	// Timestamp is the record's timestamp: when the producer created it,
	// or when the broker appended it, as the topic's
	// message.timestamp.type says.
	Timestamp time.Time
	// NoRecords reports that only transaction markers lie between the
	// committed offset and the log end: the group has nothing left to
	// consume although its offset lag is above zero.
	NoRecords bool
	// Err says why the record could not be read (no read permission, the
	// partition's leader did not answer in time, ...).
	Err error
}

// maxTimestampReaders bounds how many consumers CommittedTimestamps runs at
// once when several groups want the same partition at different offsets.
const maxTimestampReaders = 4

// CommittedTimestamps reads the record at each committed offset of parts,
// so that a time lag can be measured exactly (now minus the record's
// timestamp) instead of being estimated from log-end growth.
//
// Only partitions with a commit below a known log end are read: a caught-up
// partition has no record to read, and one without a commit has no time lag.
// Each is read by a direct consumer started at exactly the committed offset
// (or at the log start, when retention deleted the record); it never joins
// a group, so the group it measures is not disturbed. One record is enough,
// so a partition is paused as soon as it has given one. Only the partitions
// passed in are read: screens pass just the rows they show.
//
// The whole read is bounded by the client's request timeout. A partition
// that could not be read carries its own Err; the error returned is only for
// a read that could not start at all.
func (c *Client) CommittedTimestamps(ctx context.Context, parts []PartitionOffsets) (map[CommitKey]RecordTime, error) {
	start := time.Now()
	got, err := c.committedTimestamps(ctx, parts)
	c.logExact(ctx, len(parts), start, got, err)
	return got, err
}

func (c *Client) committedTimestamps(ctx context.Context, parts []PartitionOffsets) (map[CommitKey]RecordTime, error) {
	rounds := readRounds(parts)
	out := make(map[CommitKey]RecordTime)
	if len(rounds) == 0 {
		return out, nil
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()

	var (
		mu       sync.Mutex
		wg       sync.WaitGroup
		sem      = make(chan struct{}, maxTimestampReaders)
		startErr error
	)
	for _, r := range rounds {
		wg.Add(1)
		sem <- struct{}{}
		go func(r []commitRead) {
			defer wg.Done()
			defer func() { <-sem }()
			got, err := c.readRound(ctx, r)
			mu.Lock()
			defer mu.Unlock()
			if err != nil && startErr == nil {
				startErr = err
			}
			for k, v := range got {
				out[k] = v
			}
		}(r)
	}
	wg.Wait()
	if startErr != nil && len(out) == 0 {
		return nil, startErr
	}
	for _, r := range rounds {
		for _, w := range r {
			if _, ok := out[w.key]; ok {
				continue
			}
			err := ctx.Err()
			if err == nil {
				err = startErr
			}
			if errors.Is(err, context.DeadlineExceeded) {
				err = fmt.Errorf("no record read within %s", c.timeout)
			}
			out[w.key] = RecordTime{Err: fmt.Errorf("read %s/%d at offset %d: %w", w.key.Topic, w.key.Partition, w.key.Offset, err)}
		}
	}
	return out, nil
}

// commitRead is one committed offset to read.
type commitRead struct {
	key    CommitKey
	start  int64 // where to fetch from: the commit, or the log start above it
	logEnd int64
}

// readRounds picks the offsets worth reading and splits them into rounds
// in which every partition appears once, since one consumer reads a
// partition from one offset. Most calls need a single round; several
// groups on one topic at different offsets need one round per distinct
// offset.
func readRounds(parts []PartitionOffsets) [][]commitRead {
	type tp struct {
		topic     string
		partition int32
	}
	byTP := make(map[tp][]commitRead)
	seen := make(map[CommitKey]int) // index into byTP's slice
	for i := range parts {
		p := &parts[i]
		if !p.HasCommit() || p.LogEnd < 0 || p.Committed >= p.LogEnd {
			continue
		}
		k := CommitKey{Topic: p.Topic, Partition: p.Partition, Offset: p.Committed}
		t := tp{p.Topic, p.Partition}
		if j, ok := seen[k]; ok {
			// The same commit seen twice (two groups, two rows):
			// keep the newest log end, which bounds the marker check.
			r := &byTP[t][j]
			r.logEnd = max(r.logEnd, p.LogEnd)
			continue
		}
		start := p.Committed
		if p.LogStart > start {
			start = p.LogStart
		}
		seen[k] = len(byTP[t])
		byTP[t] = append(byTP[t], commitRead{key: k, start: start, logEnd: p.LogEnd})
	}
	var rounds [][]commitRead
	for _, rs := range byTP {
		sort.Slice(rs, func(i, j int) bool { return rs[i].key.Offset < rs[j].key.Offset })
		for i, r := range rs {
			if i == len(rounds) {
				rounds = append(rounds, nil)
			}
			rounds[i] = append(rounds[i], r)
		}
	}
	for _, r := range rounds {
		sort.Slice(r, func(i, j int) bool {
			a, b := r[i].key, r[j].key
			if a.Topic != b.Topic {
				return a.Topic < b.Topic
			}
			return a.Partition < b.Partition
		})
	}
	return rounds
}

// readRound reads one record per partition of reads with one direct
// consumer built from the client's own options (brokers, TLS, SASL), so it
// connects exactly as the client does.
func (c *Client) readRound(ctx context.Context, reads []commitRead) (map[CommitKey]RecordTime, error) {
	offsets := make(map[string]map[int32]kgo.Offset)
	pending := make(map[string]map[int32]commitRead)
	for _, r := range reads {
		if offsets[r.key.Topic] == nil {
			offsets[r.key.Topic] = make(map[int32]kgo.Offset)
			pending[r.key.Topic] = make(map[int32]commitRead)
		}
		offsets[r.key.Topic][r.key.Partition] = kgo.NewOffset().At(r.start)
		pending[r.key.Topic][r.key.Partition] = r
	}
	base := c.cl.Opts()
	opts := append(base[:len(base):len(base)],
		kgo.ConsumePartitions(offsets),
		// A commit that retention overtook resumes at the log start:
		// the oldest message the group can still consume.
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		// Markers are kept to tell "only markers left" from "nothing
		// fetched yet".
		kgo.KeepControlRecords(),
		kgo.FetchIsolationLevel(kgo.ReadUncommitted()),
	)
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, fmt.Errorf("read committed records: %w", err)
	}
	defer cl.Close()

	out := make(map[CommitKey]RecordTime, len(reads))
	left := len(reads)
	done := func(topic string, partition int32, rt RecordTime) {
		r := pending[topic][partition]
		delete(pending[topic], partition)
		left--
		out[r.key] = rt
		cl.PauseFetchPartitions(map[string][]int32{topic: {partition}})
	}
	for left > 0 {
		fs := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			break
		}
		fs.EachError(func(topic string, partition int32, err error) {
			r, ok := pending[topic][partition]
			var dl *kgo.ErrDataLoss
			if !ok || errors.As(err, &dl) {
				return // informational: the consumer resumes by itself
			}
			done(topic, partition, RecordTime{Err: fmt.Errorf("read %s/%d at offset %d: %w", topic, partition, r.key.Offset, err)})
		})
		fs.EachRecord(func(rec *kgo.Record) {
			r, ok := pending[rec.Topic][rec.Partition]
			if !ok {
				return
			}
			switch {
			case rec.Offset < r.key.Offset:
				// Only possible when the log restarted below
				// the commit (topic recreated, unclean leader
				// election): the commit points past the log.
				done(rec.Topic, rec.Partition, RecordTime{Err: fmt.Errorf("read %s/%d at offset %d: the log restarted below the committed offset (first record at %d)", rec.Topic, rec.Partition, r.key.Offset, rec.Offset)})
			case rec.Attrs.IsControl():
				if rec.Offset+1 >= r.logEnd {
					done(rec.Topic, rec.Partition, RecordTime{Offset: rec.Offset, NoRecords: true})
				}
			case rec.Timestamp.UnixMilli() < 0:
				done(rec.Topic, rec.Partition, RecordTime{Offset: rec.Offset, Err: fmt.Errorf("read %s/%d at offset %d: record %d has no timestamp", rec.Topic, rec.Partition, r.key.Offset, rec.Offset)})
			default:
				done(rec.Topic, rec.Partition, RecordTime{Offset: rec.Offset, Timestamp: rec.Timestamp})
			}
		})
	}
	return out, nil
}
