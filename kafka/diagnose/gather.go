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
	stable := Trailing(first, groups)
	reads, err := r.Read(ctx, Want(stable, verdicts))
	reads.Stable = stable
	return reads, err
}

// Wants are the extra reads the rules need, in a stable order: the
// partitions whose producers and transactions to read, the topics whose
// retention.ms to read and the records to read.
type Wants struct {
	Transactions []TP
	Retention    []string
	Records      []kafka.CommitKey
}

// Empty reports whether w asks for nothing.
func (w Wants) Empty() bool {
	return len(w.Transactions) == 0 && len(w.Retention) == 0 && len(w.Records) == 0
}

// Want says which reads the rules need, given the partitions whose stable
// offset trails the log end (stable) and the groups' verdicts: producers
// and transactions for every partition of stable; retention.ms for the
// topics with a lagging partition whose time lag is known; the record at
// the commit of each STALL partition that no open transaction explains.
// `kgroups diagnose` and the Diagnosis tab both ask for what it says.
func Want(stable map[TP]StableOffsets, verdicts []lag.Verdict) Wants {
	var w Wants
	for tp := range stable {
		w.Transactions = append(w.Transactions, tp)
	}
	sort.Slice(w.Transactions, func(i, j int) bool {
		a, b := w.Transactions[i], w.Transactions[j]
		if a.Topic != b.Topic {
			return a.Topic < b.Topic
		}
		return a.Partition < b.Partition
	})
	seen := make(map[string]bool)
	for i := range verdicts {
		for _, p := range verdicts[i].Partitions {
			if p.Lag <= 0 {
				continue
			}
			if p.TimeLag.Known() && !seen[p.Topic] {
				seen[p.Topic] = true
				w.Retention = append(w.Retention, p.Topic)
			}
			if st, ok := stable[TP{p.Topic, p.Partition}]; ok && p.Committed >= st.Last {
				continue // the open transaction explains it: no record needed
			}
			if p.Status == lag.StatusStall && p.Committed >= 0 {
				w.Records = append(w.Records, kafka.CommitKey{Topic: p.Topic, Partition: p.Partition, Offset: p.Committed})
			}
		}
	}
	sort.Strings(w.Retention)
	return w
}

// Read makes the reads w asks for (Reads.Stable is left nil). A read that
// fails leaves its part of Reads empty. One the brokers will never answer
// (too old, or denied by ACLs: kafka.Classify) is a note in Reads.Missing
// and no error; any other failure is returned, joined, with whatever
// could be read.
func (r *Reader) Read(ctx context.Context, w Wants) (*Reads, error) {
	var errs []error
	reads := &Reads{}
	keep := func(err error) {
		var fe featureError
		if errors.As(err, &fe) {
			if m, ok := kafka.Classify(fe.f, fe.err); ok {
				reads.Missing = kafka.AddMissing(reads.Missing, m)
				return
			}
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	var err error
	reads.Producers, reads.Transactions, err = r.Transactions(ctx, w.Transactions)
	keep(err)
	reads.Retention, err = r.Retention(ctx, w.Retention)
	keep(err)
	reads.Records, err = r.Records(ctx, w.Records)
	keep(err)
	return reads, errors.Join(errs...)
}
