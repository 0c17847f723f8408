package diagnose

import (
	"context"
	"errors"
	"sort"

	"github.com/kgroups/kgroups/kafka"
	"github.com/kgroups/kgroups/kafka/lag"
)

// Gather makes the reads that the rules need at the end of a window, given
// the groups as the window's first poll saw them (first) and the groups
// and verdicts as of the last poll (verdicts[i] is groups[i]'s). The last
// stable offsets come from the polls; it reads:
//
//   - producers and transactions only for the partitions whose stable
//     offset trails the log end;
//   - retention.ms only for topics with a lagging partition whose time lag
//     is known (once per topic for the Reader's life);
//   - the record at the commit only of partitions judged STALL.
//
// A read that fails leaves its part of Reads empty and is returned, joined,
// with whatever could be read: the other rules still apply.
func (r *Reader) Gather(ctx context.Context, first, groups []*kafka.Group, verdicts []lag.Verdict) (*Reads, error) {
	var errs []error
	reads := &Reads{Stable: Trailing(first, groups)}
	tps := make([]TP, 0, len(reads.Stable))
	for tp := range reads.Stable {
		tps = append(tps, tp)
	}
	sort.Slice(tps, func(i, j int) bool {
		if tps[i].Topic != tps[j].Topic {
			return tps[i].Topic < tps[j].Topic
		}
		return tps[i].Partition < tps[j].Partition
	})
	var err error
	reads.Producers, reads.Transactions, err = r.Transactions(ctx, tps)
	if err != nil {
		errs = append(errs, err)
	}

	var retTopics []string
	seen := make(map[string]bool)
	var keys []kafka.CommitKey
	for i := range verdicts {
		for _, p := range verdicts[i].Partitions {
			if p.Lag <= 0 {
				continue
			}
			if p.TimeLag.Known() && !seen[p.Topic] {
				seen[p.Topic] = true
				retTopics = append(retTopics, p.Topic)
			}
			if st, ok := reads.Stable[TP{p.Topic, p.Partition}]; ok && p.Committed >= st.Last {
				continue // the open transaction explains it: no record needed
			}
			if p.Status == lag.StatusStall && p.Committed >= 0 {
				keys = append(keys, kafka.CommitKey{Topic: p.Topic, Partition: p.Partition, Offset: p.Committed})
			}
		}
	}
	sort.Strings(retTopics)
	reads.Retention, err = r.Retention(ctx, retTopics)
	if err != nil {
		errs = append(errs, err)
	}
	reads.Records, err = r.Records(ctx, keys)
	if err != nil {
		errs = append(errs, err)
	}
	return reads, errors.Join(errs...)
}
