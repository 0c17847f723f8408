package kafka

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/twmb/franz-go/pkg/kadm"
)

// readLogBounds lists the log bounds of every topic any group commits to
// or is assigned: three independent reads, each one ListOffsets per
// partition leader, at once (the log start, the log end, and the last
// stable offset, listStable); the groups' rows are completed from their
// describes (assemble) meanwhile.
func (c *Client) readLogBounds(ctx context.Context, gbs []groupBuilder) *logBounds {
	topics := boundTopics(gbs)
	if len(topics) == 0 {
		for i := range gbs {
			gbs[i].assemble()
		}
		return newLogBounds(nil, nil, nil, nil, nil)
	}
	var starts, ends, stables kadm.ListedOffsets
	var startErr, endErr error
	pctx, cancel := c.phase(ctx)
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
	return newLogBounds(starts, startErr, ends, endErr, stables)
}

// boundTopics are the topics, sorted, that the groups' rows (their
// commits and share start offsets) and their members' assignments name.
func boundTopics(gbs []groupBuilder) []string {
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
	if len(topicSet) == 0 {
		return nil
	}
	topics := make([]string, 0, len(topicSet))
	for t := range topicSet {
		topics = append(topics, t)
	}
	sort.Strings(topics)
	return topics
}

// logBounds are the poll's log start, log end and last stable offsets by
// topic, each topic's partitions indexed by partition number: every row
// finds its bounds without a map lookup per partition.
type logBounds struct {
	topics           map[string]*topicBounds
	startErr, endErr error // a whole listing's failure
}

type topicBounds struct {
	parts []partBounds
}

// partBounds is one partition's answers; a nil answer was not given.
type partBounds struct {
	start, end, stable *kadm.ListedOffset
}

func newLogBounds(starts kadm.ListedOffsets, startErr error, ends kadm.ListedOffsets, endErr error, stables kadm.ListedOffsets) *logBounds {
	lb := &logBounds{topics: make(map[string]*topicBounds, len(ends)), startErr: startErr, endErr: endErr}
	add := func(los kadm.ListedOffsets, set func(*partBounds, *kadm.ListedOffset)) {
		for t, ps := range los {
			tb := lb.topics[t]
			if tb == nil {
				tb = &topicBounds{}
				lb.topics[t] = tb
			}
			for p, lo := range ps {
				if p < 0 {
					continue
				}
				if int(p) >= len(tb.parts) {
					tb.parts = append(tb.parts, make([]partBounds, int(p)+1-len(tb.parts))...)
				}
				set(&tb.parts[p], &lo)
			}
		}
	}
	add(starts, func(pb *partBounds, lo *kadm.ListedOffset) { pb.start = lo })
	add(ends, func(pb *partBounds, lo *kadm.ListedOffset) { pb.end = lo })
	add(stables, func(pb *partBounds, lo *kadm.ListedOffset) { pb.stable = lo })
	return lb
}

// of is the bounds of tb's partition p (zero when none was listed).
func (tb *topicBounds) of(p int32) partBounds {
	if tb == nil || p < 0 || int(p) >= len(tb.parts) {
		return partBounds{}
	}
	return tb.parts[p]
}

// join sets each row's log bounds, lag and last stable offset, or says
// why a bound is missing.
func (gb *groupBuilder) join(lb *logBounds) {
	if gb.same {
		if gb.sameBounds(lb) {
			return
		}
		gb.g.Partitions, gb.same = ownRows(gb.g.Partitions, true), false
	}
	rows := gb.g.Partitions
	var tb *topicBounds
	topic := ""
	for i := range rows {
		r := &rows[i]
		if i == 0 || r.Topic != topic {
			topic, tb = r.Topic, lb.topics[r.Topic]
		}
		gb.joinRow(r, tb.of(r.Partition), lb)
	}
}

// joinRow sets the row's log bounds, lag and last stable offset from pb,
// its partition's answers, or says why a bound is missing.
func (gb *groupBuilder) joinRow(r *PartitionOffsets, pb partBounds, lb *logBounds) {
	if lo := pb.start; lo != nil {
		if lo.Err != nil {
			r.Err = errors.Join(r.Err, fmt.Errorf("list log start: %w", lo.Err))
		} else {
			r.LogStart = lo.Offset
		}
	} else if lb.startErr != nil {
		r.Err = errors.Join(r.Err, fmt.Errorf("list log start: %w", lb.startErr))
	}
	if lo := pb.end; lo != nil {
		if lo.Err != nil {
			r.Err = errors.Join(r.Err, fmt.Errorf("list log end: %w", lo.Err))
		} else {
			r.LogEnd = lo.Offset
		}
	} else if lb.endErr != nil {
		r.Err = errors.Join(r.Err, fmt.Errorf("list log end: %w", lb.endErr))
	} else {
		r.Err = errors.Join(r.Err, fmt.Errorf("topic %q partition %d not found", r.Topic, r.Partition))
	}
	if gb.g.Share != nil {
		gb.shareLag(r)
	} else if r.Committed >= 0 && r.LogEnd >= 0 {
		r.Lag = max(r.LogEnd-r.Committed, 0)
	}
	if lo := pb.stable; lo != nil && lo.Err == nil && lo.Offset >= 0 && r.LogEnd >= 0 && lo.Offset < r.LogEnd {
		r.StableTrails, r.LastStable = true, lo.Offset
	}
}
